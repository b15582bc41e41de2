//! The commands on weft's hardware presets: their arguments, and the glue from the
//! presets (weft-testbenches) to the work (weft-flow's `commands`, weft-testbenches'
//! simulation, co-simulation and proofs).
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};
use std::time::Instant;
use weft_flow::commands::{self, exported_file, AreaCommand, FpgaCommand, ReportCommand};
use weft_flow::fpga::Device;
use weft_flow::gtkwave::{self, Show};
use weft_flow::lint;
use weft_flow::report::{self, Design};
use weft_testbenches::commands::{self as on_presets, select, ProveOptions};
use weft_testbenches::cosim::Simulator;
use weft_testbenches::presets::{self, Preset};

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
    on_presets::list();
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
    /// auto (the report's rule: designs over 20 000 elaborated lines keep their
    /// repeated modules of at least 1 000 lines), flat, or hierarchical (any design keeps
    /// its repeated modules of at least 100 lines: to compare both ways on one design).
    #[arg(long, default_value = "auto")]
    synthesis: String,
    presets: Vec<String>,
}

pub fn area(a: AreaArgs) -> Result<(), String> {
    let options = AreaCommand {
        json: a.json,
        synth_minutes: a.synth_minutes,
        asic: a.asic,
        synthesis: weft_flow::verilog::Synthesis::by_name(&a.synthesis)?,
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
    #[command(flatten)]
    on: crate::OnArgs,
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
        on: a.on.on()?,
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
    on_presets::simulate(&a.preset, a.cycles, a.seed, a.vcd.as_deref())?;
    match &a.vcd {
        Some(vcd) => block_save_file(presets::find(&a.preset)?, vcd),
        None => Ok(()),
    }
}

/// `FILE.gtkw` beside a block's waveform: its ports under `uut`, inputs then outputs
/// (the port groups of the block's struct comments are not known to the bench), buses
/// in hex.
pub(crate) fn block_save_file(p: Preset, vcd: &Path) -> Result<(), String> {
    let ports = weft_flow::verilog::module_ports(&p.exported(), p.name)?;
    let group = |input: bool| {
        ports
            .iter()
            .filter(|port| port.input == input)
            .map(|port| gtkwave::Trace {
                path: format!("uut.{}", port.name),
                width: port.width as u32,
                show: if port.width > 1 {
                    Show::Hex
                } else {
                    Show::Binary
                },
            })
            .collect()
    };
    let groups = [
        ("inputs".to_string(), group(true)),
        ("outputs".to_string(), group(false)),
    ];
    gtkwave::write_save_file(vcd, &groups)?;
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
    /// Exit 0 when properties are left open (induction open at --depth, or stopped by
    /// --minutes) as long as none fails; they are named either way.
    #[arg(long)]
    accept_open: bool,
    #[command(flatten)]
    on: crate::OnArgs,
    #[arg(required = true)]
    presets: Vec<String>,
}

pub fn prove(a: ProveArgs) -> Result<(), String> {
    let options = ProveOptions {
        dir: a.dir,
        depth: a.depth,
        minutes: a.minutes,
        out: a.out,
        accept_open: a.accept_open,
        on: a.on.on()?,
    };
    on_presets::prove(&a.presets, &options)
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
    on_presets::cosimulate(
        &a.preset,
        a.cycles,
        a.seed,
        &a.simulator.simulators(),
        &a.keep,
    )
}
