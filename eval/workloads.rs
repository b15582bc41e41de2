//! `weft workloads`: the LWM paper's 12 workloads (`kernels/lwm/`) on one machine, as a
//! table beside the paper's classes (its Table 2): idle-FU intensity from the fraction of
//! cycles with no active lane (<20% low, 20-40% medium, >40% high), divergent-branch
//! intensity from the average active threads per warp instruction (>30 low, 20-30
//! medium, <20 high).
use crate::lwm::paper::{Class, CLASSES};
use crate::workload::{compile, discover, run_to_end};
use std::path::{Path, PathBuf};
use weft_sim::core::machine::Machine;
use weft_sim::core::simt::Stats;

/// `weft workloads`' options.
pub struct WorkloadsOptions {
    /// The machine, and its name (a preset or a TOML file) for the progress line.
    pub machine: Machine,
    pub machine_name: String,
    /// The folder of the workloads.
    pub dir: PathBuf,
}

/// One workload's run.
struct Row {
    name: String,
    stats: Stats,
    /// Host seconds of the timed part.
    seconds: f64,
}

fn run_one(path: &Path, machine: &Machine) -> Result<Row, String> {
    let w = compile(path)?;
    let run = run_to_end(&w, machine).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("  {}: {:.2} s", w.name, run.seconds);
    Ok(Row {
        name: w.name,
        stats: run.stats,
        seconds: run.seconds,
    })
}

/// Runs every workload of `options.dir` (by name, 2 at a time) and prints the table.
pub fn workloads(options: &WorkloadsOptions) -> Result<(), String> {
    let machine = &options.machine;
    let paths = discover(&options.dir, &[], &[])?;
    eprintln!(
        "running {} workloads on {}, 2 at a time",
        paths.len(),
        options.machine_name
    );
    let rows = weft_flow::jobs::parallel(&paths, 2, |p| run_one(p, machine));
    let rows: Vec<Row> = rows.into_iter().collect::<Result<_, _>>()?;
    print!("{}", table(&rows)?);
    Ok(())
}

/// The table's statistics: header and figure key (shown as the projection shows them).
const COLUMNS: &[(&str, &str)] = &[
    ("thread instr.", "thread_instructions"),
    ("cycles", "cycles"),
    ("IPC", "ipc"),
    ("SIMD util.", "simd_utilisation"),
    ("idle FU", "idle_fraction"),
    ("active thr./warp", "active_threads_per_warp"),
    ("L1 miss", "l1_miss_rate"),
    ("DRAM B/cycle", "dram_bytes_per_cycle"),
    ("of the limit", "dram_bandwidth_used"),
];

fn table(rows: &[Row]) -> Result<String, String> {
    let mut s = String::from("| workload |");
    for (header, _) in COLUMNS {
        s.push_str(&format!(" {header} |"));
    }
    s.push_str(" branch class (paper) | idle class (paper) | host s | warp instr./s |\n|---|");
    s.push_str(&"---:|".repeat(COLUMNS.len()));
    s.push_str("---|---|---:|---:|\n");
    for r in rows {
        let f = r.stats.figures();
        let paper = CLASSES.iter().find(|(n, _, _)| *n == r.name);
        let classes = |ours: Class, theirs: Option<Class>| match theirs {
            Some(t) if t == ours => format!("{} ({})", ours.name(), t.name()),
            Some(t) => format!("**{}** ({})", ours.name(), t.name()),
            None => format!("{} (-)", ours.name()),
        };
        s.push_str(&format!("| {} |", r.name));
        for (_, key) in COLUMNS {
            s.push_str(&format!(" {} |", f.get(key)?));
        }
        s.push_str(&format!(
            " {} | {} | {:.2} | {:.0} |\n",
            classes(
                Class::of_branches(f.number("active_threads_per_warp")?),
                paper.map(|p| p.1)
            ),
            classes(
                Class::of_idle(f.number("idle_fraction")?),
                paper.map(|p| p.2)
            ),
            r.seconds,
            f.number("warp_instructions")? / r.seconds.max(1e-9)
        ));
    }
    Ok(s)
}
