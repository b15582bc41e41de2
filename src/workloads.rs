//! `weft workloads`: the LWM paper's 12 workloads (`kernels/lwm/`) on one machine, as a
//! table beside the paper's classes (its Table 2): idle-FU intensity from the fraction of
//! cycles with no active lane (<20% low, 20-40% medium, >40% high), divergent-branch
//! intensity from the average active threads per warp instruction (>30 low, 20-30
//! medium, <20 high).
use clap::Args;
use std::path::{Path, PathBuf};
use weft_sim::core::functional::{Launch, Program};
use weft_sim::core::image::Image;
use weft_sim::core::machine::Machine;
use weft_sim::core::simt::{self, Options, Stats, TimedRun};

/// The paper's Table 2: (benchmark, divergent-branch intensity, idle-FU intensity).
pub const PAPER_CLASSES: &[(&str, Class, Class)] = &[
    ("blackjack", Class::High, Class::Low),
    ("sort", Class::High, Class::Low),
    ("viterbi", Class::Medium, Class::Low),
    ("kmeans", Class::Medium, Class::Low),
    ("decrypt", Class::Low, Class::Low),
    ("blackscholes", Class::Low, Class::Medium),
    ("needleman", Class::Low, Class::Medium),
    ("hotspot", Class::Low, Class::High),
    ("matrix_mult", Class::Low, Class::Medium),
    ("reduction", Class::Low, Class::High),
    ("histogram", Class::Low, Class::High),
    ("bfs", Class::High, Class::High),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Low,
    Medium,
    High,
}

impl Class {
    fn name(self) -> &'static str {
        match self {
            Class::Low => "low",
            Class::Medium => "medium",
            Class::High => "high",
        }
    }

    /// Idle-FU intensity from the idle fraction.
    pub fn of_idle(fraction: f64) -> Class {
        match fraction {
            f if f < 0.20 => Class::Low,
            f if f <= 0.40 => Class::Medium,
            _ => Class::High,
        }
    }

    /// Divergent-branch intensity from the active threads per warp instruction.
    pub fn of_branches(active: f64) -> Class {
        match active {
            a if a > 30.0 => Class::Low,
            a if a >= 20.0 => Class::Medium,
            _ => Class::High,
        }
    }
}

#[derive(Args)]
pub struct WorkloadsArgs {
    /// A machine preset (lwm) or a TOML file of machine keys.
    #[arg(long, default_value = "lwm")]
    machine: String,
    /// Override one machine key: KEY=VALUE (repeatable).
    #[arg(long = "set")]
    sets: Vec<String>,
    /// The folder of the workloads.
    #[arg(long, default_value = "kernels/lwm")]
    dir: PathBuf,
}

/// One workload's run.
struct Row {
    name: String,
    stats: Stats,
    /// Host seconds of the timed part.
    seconds: f64,
}

/// One kernel, compiled once: its name (the file's stem), image and launch.
pub struct Workload {
    pub name: String,
    pub image: Image,
    pub launch: Launch,
}

/// Builds `path` (C or ELF) and reads its launch.
pub fn compile(path: &Path) -> Result<Workload, String> {
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("?")
        .to_string();
    let in_kernel = |e: String| format!("{}: {e}", path.display());
    let elf = weft_flow::kernel::load(path)?;
    let image = Image::from_elf(&elf).map_err(in_kernel)?;
    let (threads, cta) = image
        .launch
        .ok_or_else(|| in_kernel("no WEFT_LAUNCH".into()))?;
    Ok(Workload {
        name,
        image,
        launch: Launch::new(threads, cta).map_err(in_kernel)?,
    })
}

/// Runs `w` on `machine` to its end, without limits or progress output (errors as the
/// model gives them: callers say which kernel).
pub fn run_to_end(w: &Workload, machine: &Machine) -> Result<TimedRun, String> {
    let options = Options {
        max_cycles: u64::MAX,
        max_instructions: u64::MAX,
        progress: &mut |_, _, _, _| {},
        trace: None,
        two_level_always: false,
    };
    simt::run(Program::new(w.image.clone()), w.launch, machine, options)
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

pub fn run(args: WorkloadsArgs) -> Result<(), String> {
    let machine = crate::run::machine(&args.machine, &args.sets)?;
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&args.dir)
        .map_err(|e| format!("{}: {e}", args.dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(format!("no kernels (*.c) in {}", args.dir.display()));
    }
    eprintln!(
        "running {} workloads on {}, 2 at a time",
        paths.len(),
        args.machine
    );
    let rows = weft_flow::jobs::parallel(&paths, 2, |p| run_one(p, &machine));
    let rows: Vec<Row> = rows.into_iter().collect::<Result<_, _>>()?;
    println!("| workload | thread instr. | cycles | IPC | SIMD util. | idle FU | active thr./warp | L1 miss | DRAM B/cycle (of limit) | branch class (paper) | idle class (paper) | host s | warp instr./s |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---:|");
    for r in &rows {
        let s = &r.stats;
        let paper = PAPER_CLASSES.iter().find(|(n, _, _)| *n == r.name);
        let classes = |ours: Class, theirs: Option<Class>| match theirs {
            Some(t) if t == ours => format!("{} ({})", ours.name(), t.name()),
            Some(t) => format!("**{}** ({})", ours.name(), t.name()),
            None => format!("{} (-)", ours.name()),
        };
        let miss = if s.l1.loads > 0 {
            s.l1.misses as f64 / s.l1.loads as f64
        } else {
            0.0
        };
        println!(
            "| {} | {} | {} | {:.2} | {:.1}% | {:.1}% | {:.1} | {:.1}% | {:.1} ({:.1}%) | {} | {} | {:.2} | {:.0} |",
            r.name,
            s.thread_instructions,
            s.cycles,
            s.ipc,
            100.0 * s.simd_utilisation,
            100.0 * s.idle_fraction,
            s.active_threads_per_warp,
            100.0 * miss,
            s.dram_bytes_per_cycle,
            100.0 * s.dram_bandwidth_used,
            classes(
                Class::of_branches(s.active_threads_per_warp),
                paper.map(|p| p.1)
            ),
            classes(Class::of_idle(s.idle_fraction), paper.map(|p| p.2)),
            r.seconds,
            s.warp_instructions as f64 / r.seconds.max(1e-9)
        );
    }
    Ok(())
}
