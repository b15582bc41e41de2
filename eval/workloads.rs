//! `weft workloads`: the LWM paper's 12 workloads (`kernels/lwm/`) on one machine, as a
//! table beside the paper's classes (its Table 2): idle-FU intensity from the fraction of
//! cycles with no active lane (<20% low, 20-40% medium, >40% high), divergent-branch
//! intensity from the average active threads per warp instruction (>30 low, 20-30
//! medium, <20 high).
use crate::lwm::paper::{Class, CLASSES};
use crate::measure;
use crate::workload::{compile, discover, run_to_end};
use std::path::{Path, PathBuf};
use weft_sim::core::machine::Machine;
use weft_sim::core::simt::Stats;

/// `weft workloads`' options.
pub struct WorkloadsOptions {
    /// A machine preset or a TOML file of machine keys.
    pub machine: String,
    /// `KEY=VALUE` overrides.
    pub sets: Vec<String>,
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
    let machine = measure::machine(&options.machine, &options.sets)?;
    let paths = discover(&options.dir, &[], &[])?;
    eprintln!(
        "running {} workloads on {}, 2 at a time",
        paths.len(),
        options.machine
    );
    let rows = weft_flow::jobs::parallel(&paths, 2, |p| run_one(p, &machine));
    let rows: Vec<Row> = rows.into_iter().collect::<Result<_, _>>()?;
    print!("{}", table(&rows));
    Ok(())
}

fn table(rows: &[Row]) -> String {
    let mut s = String::new();
    s.push_str("| workload | thread instr. | cycles | IPC | SIMD util. | idle FU | active thr./warp | L1 miss | DRAM B/cycle (of limit) | branch class (paper) | idle class (paper) | host s | warp instr./s |\n");
    s.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|\n");
    for r in rows {
        let st = &r.stats;
        let paper = CLASSES.iter().find(|(n, _, _)| *n == r.name);
        let classes = |ours: Class, theirs: Option<Class>| match theirs {
            Some(t) if t == ours => format!("{} ({})", ours.name(), t.name()),
            Some(t) => format!("**{}** ({})", ours.name(), t.name()),
            None => format!("{} (-)", ours.name()),
        };
        let miss = if st.l1.loads > 0 {
            st.l1.misses as f64 / st.l1.loads as f64
        } else {
            0.0
        };
        s.push_str(&format!(
            "| {} | {} | {} | {:.2} | {:.1}% | {:.1}% | {:.1} | {:.1}% | {:.1} ({:.1}%) | {} | {} | {:.2} | {:.0} |\n",
            r.name,
            st.thread_instructions,
            st.cycles,
            st.ipc,
            100.0 * st.simd_utilisation,
            100.0 * st.idle_fraction,
            st.active_threads_per_warp,
            100.0 * miss,
            st.dram_bytes_per_cycle,
            100.0 * st.dram_bandwidth_used,
            classes(
                Class::of_branches(st.active_threads_per_warp),
                paper.map(|p| p.1)
            ),
            classes(Class::of_idle(st.idle_fraction), paper.map(|p| p.2)),
            r.seconds,
            st.warp_instructions as f64 / r.seconds.max(1e-9)
        ));
    }
    s
}
