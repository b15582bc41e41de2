//! The commands on weft's hardware presets: their arguments, and the glue from the
//! presets (weft-testbenches) to the work (weft-flow's `commands`, weft-testbenches'
//! simulation, co-simulation and proofs).
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use weft_flow::commands::{self, exported_file, work_dir, AreaCommand, FpgaCommand, ReportCommand};
use weft_flow::fpga::Device;
use weft_flow::lint;
use weft_flow::report::{self, Design};
use weft_testbenches::cosim::{self, Simulator};
use weft_testbenches::presets::{self, Preset};
use weft_testbenches::run::{run, Outputs};

#[derive(Clone, Copy, ValueEnum)]
pub enum DeviceChoice {
    Hx1k,
    Hx8k,
    Up5k,
}

impl From<DeviceChoice> for Device {
    fn from(d: DeviceChoice) -> Device {
        match d {
            DeviceChoice::Hx1k => Device::Hx1k,
            DeviceChoice::Hx8k => Device::Hx8k,
            DeviceChoice::Up5k => Device::Up5k,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub enum SimulatorChoice {
    Iverilog,
    Verilator,
    Both,
}

impl SimulatorChoice {
    fn simulators(self) -> Vec<Simulator> {
        match self {
            SimulatorChoice::Iverilog => vec![Simulator::Icarus],
            SimulatorChoice::Verilator => vec![Simulator::Verilator],
            SimulatorChoice::Both => vec![Simulator::Icarus, Simulator::Verilator],
        }
    }
}

/// The named presets, or all of them when none is named.
fn select(names: &[String]) -> Result<Vec<Preset>, String> {
    if names.is_empty() {
        return Ok(presets::all());
    }
    names.iter().map(|n| presets::find(n)).collect()
}

/// The presets' exported files in `dir`: (name, file).
fn exported(dir: &Path, list: &[Preset]) -> Result<Vec<(&'static str, PathBuf)>, String> {
    list.iter()
        .map(|p| exported_file(dir, p.name).map(|f| (p.name, f)))
        .collect()
}

fn as_designs<'a>(files: &'a [(&'static str, PathBuf)]) -> Vec<(&'static str, &'a Path)> {
    files.iter().map(|(n, f)| (*n, f.as_path())).collect()
}

pub fn list() -> Result<(), String> {
    for p in presets::all() {
        let params: Vec<String> = (p.params)()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        println!("{:<28} {:<36} {}", p.name, params.join(" "), p.summary);
    }
    Ok(())
}

#[derive(Args)]
pub struct ExportArgs {
    #[arg(long, default_value = "verilog_out")]
    out: PathBuf,
    /// Skip the area table (no Yosys run).
    #[arg(long)]
    no_area: bool,
    presets: Vec<String>,
}

pub fn export(a: ExportArgs) -> Result<(), String> {
    let started = Instant::now();
    let list = select(&a.presets)?;
    let files = presets::export(&list, &a.out)?;
    println!("exported {} presets to {}", files.len(), a.out.display());
    if a.no_area {
        return Ok(());
    }
    let named: Vec<(&str, PathBuf)> = list.iter().map(|p| p.name).zip(files).collect();
    commands::export_table(&named, started)
}

#[derive(Args)]
pub struct LintArgs {
    #[arg(long, default_value = "verilog_out")]
    dir: PathBuf,
    presets: Vec<String>,
}

pub fn lint(a: LintArgs) -> Result<(), String> {
    let files = exported(&a.dir, &select(&a.presets)?)?;
    lint::lint_all(&as_designs(&files), Path::new(lint::WAIVERS))
}

#[derive(Args)]
pub struct AreaArgs {
    #[arg(long, default_value = "verilog_out")]
    dir: PathBuf,
    #[arg(long)]
    json: bool,
    /// Stop each preset's Yosys run after this many minutes (default: no limit).
    #[arg(long)]
    synth_minutes: Option<u64>,
    /// The cell library of the ASIC figures: osu018, osu035, or none.
    #[arg(long, default_value = "osu018")]
    asic: String,
    presets: Vec<String>,
}

pub fn area(a: AreaArgs) -> Result<(), String> {
    let options = AreaCommand {
        json: a.json,
        synth_minutes: a.synth_minutes,
        asic: a.asic,
    };
    options.limit()?;
    let files = exported(&a.dir, &select(&a.presets)?)?;
    commands::area(&as_designs(&files), &options)
}

#[derive(Args)]
pub struct FpgaArgs {
    preset: String,
    #[arg(long, value_enum, default_value_t = DeviceChoice::Hx8k)]
    device: DeviceChoice,
    /// Timing target in MHz (default: constraints/ice40_clock.pcf).
    #[arg(long)]
    freq: Option<f64>,
    /// nextpnr runs with seeds 1..=N.
    #[arg(long, default_value_t = 3)]
    seeds: u64,
    #[arg(long, default_value = "verilog_out")]
    dir: PathBuf,
    #[arg(long)]
    json: bool,
    /// Keep the harness, netlist and constraints in this folder.
    #[arg(long)]
    keep: Option<PathBuf>,
    /// Stop each nextpnr run after this many minutes (default: no limit).
    #[arg(long)]
    pnr_minutes: Option<u64>,
}

pub fn fpga(a: FpgaArgs) -> Result<(), String> {
    let p = presets::find(&a.preset)?;
    let file = exported_file(&a.dir, p.name)?;
    let options = FpgaCommand {
        device: a.device.into(),
        freq: a.freq,
        seeds: a.seeds,
        json: a.json,
        keep: a.keep,
        pnr_minutes: a.pnr_minutes,
    };
    commands::fpga(p.name, &file, &options)
}

#[derive(Args)]
pub struct ReportArgs {
    #[arg(long, default_value = "docs/report")]
    out: PathBuf,
    #[arg(long, value_enum, default_value_t = DeviceChoice::Hx8k)]
    device: DeviceChoice,
    #[arg(long)]
    freq: Option<f64>,
    #[arg(long, default_value_t = 3)]
    seeds: u64,
    /// Presets processed at once.
    #[arg(long, default_value_t = 2)]
    jobs: usize,
    /// Per-preset results kept between runs, keyed by a hash of everything they
    /// depend on.
    #[arg(long, default_value = "target/weft-report-cache")]
    cache: PathBuf,
    /// Recompute every preset (the cache is neither read nor written).
    #[arg(long)]
    no_cache: bool,
    /// Stop each nextpnr run after this many minutes: a congested design is then
    /// reported as "P&R > N min" instead of holding the report for hours.
    #[arg(long, default_value_t = 20)]
    pnr_minutes: u64,
    /// Stop each Yosys run after this many minutes: a preset whose synthesis takes
    /// longer is reported as "synthesis > N min".
    #[arg(long, default_value_t = 60)]
    synth_minutes: u64,
    /// The cell library of the ASIC columns: osu018, osu035, or none.
    #[arg(long, default_value = "osu018")]
    asic: String,
    /// Stop each cell-library mapping after this many minutes.
    #[arg(long, default_value_t = 10)]
    asic_minutes: u64,
    presets: Vec<String>,
}

pub fn report(a: ReportArgs) -> Result<(), String> {
    let options = ReportCommand {
        out: a.out,
        device: a.device.into(),
        freq: a.freq,
        seeds: a.seeds,
        jobs: a.jobs,
        cache: a.cache,
        no_cache: a.no_cache,
        pnr_minutes: a.pnr_minutes,
        synth_minutes: a.synth_minutes,
        asic: a.asic,
        asic_minutes: a.asic_minutes,
    }
    .options()?;
    let list = select(&a.presets)?;
    let exported: Vec<_> = list.iter().map(|p| move || p.exported()).collect();
    let designs: Vec<Design> = list
        .iter()
        .zip(&exported)
        .map(|(p, verilog)| Design {
            name: p.name,
            verilog,
        })
        .collect();
    let every: Vec<&str> = presets::all().iter().map(|p| p.name).collect();
    report::report(&designs, &every, &options)
}

#[derive(Args)]
pub struct SimArgs {
    preset: String,
    #[arg(long)]
    cycles: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stream a waveform (opens in GTKWave).
    #[arg(long)]
    vcd: Option<PathBuf>,
}

pub fn sim(a: SimArgs) -> Result<(), String> {
    let (preset, seed) = (&a.preset, a.seed);
    let p = presets::find(preset)?;
    if a.cycles == 0 {
        return Err("--cycles must be at least 1".into());
    }
    let mut bench = (p.bench)();
    let writer: Option<Box<dyn std::io::Write>> = match &a.vcd {
        Some(path) => Some(Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
        ))),
        None => None,
    };
    let outputs = Outputs {
        vcd: writer,
        vectors: None,
        progress_every: cosim::progress_step(a.cycles),
    };
    let report = run(bench.as_mut(), a.cycles, seed, outputs)
        .map_err(|e| format!("{preset} (seed {seed}): {e}"))?;
    println!(
        "{preset}: {} cycles, seed {seed}, model and RTL agree every cycle; {:.0} simulated cycles/s",
        report.cycles,
        report.cycles_per_second()
    );
    if let Some(path) = a.vcd {
        println!(
            "waveform: {} (open with `gtkwave {}`)",
            path.display(),
            path.display()
        );
    }
    Ok(())
}

#[derive(Args)]
pub struct ProveArgs {
    /// Where the exported Verilog is read.
    #[arg(long, default_value = "verilog_out")]
    dir: PathBuf,
    /// Cycles from reset checked, and the longest induction tried.
    #[arg(long, default_value_t = 20)]
    depth: u32,
    /// Stop each property's proof after this many minutes.
    #[arg(long)]
    minutes: Option<u64>,
    /// Where the harnesses and counterexamples are written.
    #[arg(long, default_value = "target/prove")]
    out: PathBuf,
    #[arg(required = true)]
    presets: Vec<String>,
}

pub fn prove(a: ProveArgs) -> Result<(), String> {
    use weft_testbenches::formal;
    if a.depth < 2 {
        return Err("--depth must be at least 2 (cycle 1 is the reset)".into());
    }
    if a.minutes == Some(0) {
        return Err("--minutes must be at least 1".into());
    }
    let limit = a.minutes.map(|m| Duration::from_secs(60 * m));
    let mut failures = 0;
    for p in &select(&a.presets)? {
        let file = exported_file(&a.dir, p.name)?;
        println!("{}:", p.name);
        let proofs = formal::prove(p, &file, a.depth, &a.out.join(p.name), limit)?;
        for proof in &proofs {
            println!("  {}", proof.line());
        }
        failures += proofs.iter().filter(|p| formal::failed(p)).count();
    }
    if failures > 0 {
        return Err(format!("{failures} properties failed"));
    }
    Ok(())
}

#[derive(Args)]
pub struct CosimArgs {
    preset: String,
    #[arg(long)]
    cycles: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, value_enum, default_value_t = SimulatorChoice::Both)]
    simulator: SimulatorChoice,
    /// Keep the replay's files (vectors, testbench, builds) in this folder.
    #[arg(long)]
    keep: Option<PathBuf>,
}

pub fn cosim(a: CosimArgs) -> Result<(), String> {
    let p = presets::find(&a.preset)?;
    let dir = work_dir(&a.keep, &format!("cosim-{}", p.name));
    let result = cosim::cosimulate(&p, a.cycles, a.seed, &a.simulator.simulators(), &dir);
    if a.keep.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    let c = result?;
    print!("{}", c.summary());
    let failures = c.failures();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "co-simulation of {} failed: {}",
            c.preset,
            failures.join("; ")
        ))
    }
}
