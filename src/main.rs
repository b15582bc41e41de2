//! `weft`: export, lint, measure, simulate and co-simulate weft's hardware presets.
mod run;
mod study;

use clap::{Parser, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use weft_flow::fpga::{self, Device, FpgaOptions};
use weft_flow::jobs::on_big_stack;
use weft_flow::report::{self, Design, Known, Overview, ReportOptions};
use weft_flow::tools::YOSYS;
use weft_flow::{area, asic, lint};
use weft_testbenches::cosim::{self, Simulator};
use weft_testbenches::presets::{self, Preset};
use weft_testbenches::run::{run, Outputs};

#[derive(Parser)]
#[command(
    name = "weft",
    version,
    about = "Synthesizable RTL for GPU divergence mechanisms"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Every exportable preset with its parameters.
    List,
    /// Write DIR/<preset>.v for each preset (all when none named), then the area table:
    /// published or cached figures where the Verilog is unchanged, small changed presets
    /// measured now, large ones named with the command that measures them.
    Export {
        #[arg(long, default_value = "verilog_out")]
        out: PathBuf,
        /// Skip the area table (no Yosys run).
        #[arg(long)]
        no_area: bool,
        presets: Vec<String>,
    },
    /// Yosys and Verilator lint of the exported files; non-zero exit on any finding.
    Lint {
        #[arg(long, default_value = "verilog_out")]
        dir: PathBuf,
        presets: Vec<String>,
    },
    /// Yosys synthesis per preset: cells, flip-flops, RAM bits, 2-input gates, logic
    /// depth, transistor estimate, Xilinx LUTs and flip-flops; and on a standard-cell
    /// library: area in µm², cells, flip-flops, critical path and maximum clock
    /// (OpenSTA with constraints/weft.sdc).
    Area {
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
    },
    /// iCE40 synthesis, place and route of a preset inside an I/O harness: logic cells,
    /// flip-flops, RAM blocks, Fmax (median over seeds), and the harness's own share.
    Fpga {
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
    },
    /// `area` and `fpga` over every preset: DIR/report.md, report.json, report.svg.
    Report {
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
    },
    /// Random stimulus checked every cycle against the golden model.
    Sim {
        preset: String,
        #[arg(long)]
        cycles: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Stream a waveform (opens in GTKWave).
        #[arg(long)]
        vcd: Option<PathBuf>,
    },
    /// Run a C kernel (or its RV32IMF ELF) on the core model: cycles, IPC, SIMD
    /// utilisation, stalls, caches and DRAM, and the symbols asked for with --dump.
    Run(run::RunArgs),
    /// The LWM paper's 12 workloads (kernels/lwm) on one machine: a Markdown table of
    /// IPC, SIMD utilisation, idle FUs, active threads per warp, L1 and DRAM, and each
    /// workload's class beside the paper's Table 2.
    Workloads(study::WorkloadsArgs),
    /// A study on the core model: `lwm` runs the LWM paper's §6 (large warps, two-level
    /// scheduling) over its workloads and writes docs/eval/lwm.{md,json} and charts.
    Eval(study::EvalArgs),
    /// Prove each preset's properties (its block's contract) on its exported Verilog:
    /// bounded model checking from reset and k-induction with Yosys's `sat`. Prints per
    /// property: proved (induction), holds to --depth, or failed with the cycle, the
    /// signals and a VCD of the counterexample; non-zero exit on any failure.
    Prove {
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
    },
    /// Replay the Rust simulation's ports on the exported Verilog and compare every cycle.
    Cosim {
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
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum DeviceChoice {
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
enum SimulatorChoice {
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

fn main() -> ExitCode {
    // A closed pipe (`weft list | head`) ends the command quietly, as for any Unix tool,
    // instead of a panic in `println!`.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let command = Cli::parse().command;
    // rust-hdl builds a block's model on the stack: the VGIW core's takes megabytes.
    match on_big_stack(move || dispatch(command)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("weft: {msg}");
            ExitCode::FAILURE
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

fn exported_file(dir: &Path, p: &Preset) -> Result<PathBuf, String> {
    let file = dir.join(format!("{}.v", p.name));
    if file.is_file() {
        Ok(file)
    } else {
        Err(format!(
            "{} does not exist; run `weft export --out {}` first",
            file.display(),
            dir.display()
        ))
    }
}

fn minutes(m: Option<u64>) -> Result<Option<Duration>, String> {
    match m {
        Some(0) => Err("--synth-minutes must be at least 1".into()),
        m => Ok(m.map(|m| Duration::from_secs(60 * m))),
    }
}

/// A scratch folder, or the one the user asked to keep.
fn work_dir(keep: &Option<PathBuf>, what: &str) -> PathBuf {
    keep.clone()
        .unwrap_or_else(|| std::env::temp_dir().join(format!("weft-{what}-{}", std::process::id())))
}

fn dispatch(command: Command) -> Result<(), String> {
    match command {
        Command::List => {
            for p in presets::all() {
                let params: Vec<String> = (p.params)()
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect();
                println!("{:<28} {:<36} {}", p.name, params.join(" "), p.summary);
            }
            Ok(())
        }
        Command::Export {
            out,
            no_area,
            presets,
        } => {
            let start = Instant::now();
            let list = select(&presets)?;
            let files = presets::export(&list, &out)?;
            println!("exported {} presets to {}", files.len(), out.display());
            if no_area {
                return Ok(());
            }
            if let Err(why) = YOSYS.find() {
                println!("\nno area table: {why}");
                return Ok(());
            }
            let texts: Vec<String> = files
                .iter()
                .map(|f| {
                    std::fs::read_to_string(f)
                        .map_err(|e| format!("cannot read {}: {e}", f.display()))
                })
                .collect::<Result<_, _>>()?;
            let designs: Vec<(&str, &str)> = list
                .iter()
                .zip(&texts)
                .map(|(p, t)| (p.name, t.as_str()))
                .collect();
            let table = report::overview(
                &designs,
                &FpgaOptions::published(),
                &Known::project(),
                Overview::default(),
            )?;
            println!("\n{table}");
            println!(
                "figures: {} for unchanged presets (`weft report` computes and caches the rest); {:.0} s",
                report::PUBLISHED,
                start.elapsed().as_secs_f64()
            );
            Ok(())
        }
        Command::Lint { dir, presets } => {
            let list = select(&presets)?;
            let files = list
                .iter()
                .map(|p| exported_file(&dir, p))
                .collect::<Result<Vec<_>, _>>()?;
            let designs: Vec<(&str, &Path)> = list
                .iter()
                .zip(&files)
                .map(|(p, f)| (p.name, f.as_path()))
                .collect();
            lint::lint_all(&designs, Path::new(lint::WAIVERS))
        }
        Command::Area {
            dir,
            json,
            synth_minutes,
            asic,
            presets,
        } => {
            let limit = minutes(synth_minutes)?;
            let list = select(&presets)?;
            let files = list
                .iter()
                .map(|p| exported_file(&dir, p))
                .collect::<Result<Vec<_>, _>>()?;
            YOSYS.find()?;
            let designs: Vec<(&str, &Path)> = list
                .iter()
                .zip(&files)
                .map(|(p, f)| (p.name, f.as_path()))
                .collect();
            let (rows, stopped) = area::areas(&designs, limit, 2)?;
            let cells = asic_figures(&asic, &designs, limit)?;
            if json {
                let mut values = serde_json::to_value(&rows).map_err(|e| e.to_string())?;
                for v in values.as_array_mut().expect("rows are an array") {
                    let name = v["preset"].as_str().unwrap_or_default().to_string();
                    if let Some((_, Some(f))) = cells.iter().find(|(n, _)| *n == name) {
                        v["asic"] = serde_json::to_value(f).map_err(|e| e.to_string())?;
                    }
                }
                println!(
                    "{}",
                    serde_json::to_string_pretty(&values).map_err(|e| e.to_string())?
                );
                // JSON holds measured rows only; a stopped run is named on stderr.
                for s in stopped {
                    eprintln!("{s}");
                }
            } else {
                print!("{}", area::table(&rows));
                for s in stopped {
                    println!("{s}");
                }
                if !cells.is_empty() {
                    print!("{}", asic::table(&cells));
                }
            }
            Ok(())
        }
        Command::Fpga {
            preset,
            device,
            freq,
            seeds,
            dir,
            json,
            keep,
            pnr_minutes,
        } => {
            let p = presets::find(&preset)?;
            let file = exported_file(&dir, &p)?;
            let options = FpgaOptions {
                device: device.into(),
                freq_mhz: freq,
                seeds,
                jobs: 2,
                constraints: PathBuf::from("constraints"),
                pnr_minutes,
                synth_minutes: None,
            };
            options.check()?;
            let work = work_dir(&keep, &format!("fpga-{}", p.name));
            let result = fpga::run(p.name, &file, &options, &work);
            if keep.is_none() {
                let _ = std::fs::remove_dir_all(&work);
            }
            let result = result?.ok_or("synthesis stopped without a time limit")?;
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&result).map_err(|e| e.to_string())?
                );
            } else {
                print!("{}", result.summary());
            }
            // Not fitting is an answer, not a failure: the message says what is needed.
            Ok(())
        }
        Command::Report {
            out,
            device,
            freq,
            seeds,
            jobs,
            cache,
            no_cache,
            pnr_minutes,
            synth_minutes,
            asic,
            asic_minutes,
            presets,
        } => {
            if jobs == 0 {
                return Err("--jobs must be at least 1".into());
            }
            let asic = match asic.as_str() {
                "none" => None,
                name => Some(report::AsicOptions {
                    library: asic::Library::by_name(name)?,
                    sdc: PathBuf::from("constraints/weft.sdc"),
                    minutes: Some(asic_minutes),
                }),
            };
            let fpga = FpgaOptions {
                device: device.into(),
                freq_mhz: freq,
                seeds,
                jobs: 1,
                constraints: PathBuf::from("constraints"),
                pnr_minutes: Some(pnr_minutes),
                synth_minutes: Some(synth_minutes),
            };
            fpga.check()?;
            let options = ReportOptions {
                out,
                fpga,
                jobs,
                known: Known {
                    cache: (!no_cache).then_some(cache),
                    published: (!no_cache).then(|| PathBuf::from(report::PUBLISHED)),
                },
                asic,
            };
            let list = select(&presets)?;
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
        Command::Sim {
            preset,
            cycles,
            seed,
            vcd,
        } => {
            let p = presets::find(&preset)?;
            if cycles == 0 {
                return Err("--cycles must be at least 1".into());
            }
            let mut bench = (p.bench)();
            let writer: Option<Box<dyn std::io::Write>> = match &vcd {
                Some(path) => Some(Box::new(std::io::BufWriter::new(
                    std::fs::File::create(path)
                        .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
                ))),
                None => None,
            };
            let outputs = Outputs {
                vcd: writer,
                vectors: None,
                progress_every: cosim::progress_step(cycles),
            };
            let report = run(bench.as_mut(), cycles, seed, outputs)
                .map_err(|e| format!("{preset} (seed {seed}): {e}"))?;
            println!(
                "{preset}: {} cycles, seed {seed}, model and RTL agree every cycle; {:.0} simulated cycles/s",
                report.cycles,
                report.cycles_per_second()
            );
            if let Some(path) = vcd {
                println!(
                    "waveform: {} (open with `gtkwave {}`)",
                    path.display(),
                    path.display()
                );
            }
            Ok(())
        }
        Command::Run(args) => run::run(args),
        Command::Workloads(args) => study::workloads(args),
        Command::Eval(args) => study::eval(args),
        Command::Prove {
            dir,
            depth,
            minutes,
            out,
            presets,
        } => {
            if depth < 2 {
                return Err("--depth must be at least 2 (cycle 1 is the reset)".into());
            }
            if minutes == Some(0) {
                return Err("--minutes must be at least 1".into());
            }
            let limit = minutes.map(|m| Duration::from_secs(60 * m));
            let list = select(&presets)?;
            let mut failures = 0;
            for p in &list {
                let file = exported_file(&dir, p)?;
                println!("{}:", p.name);
                let proofs =
                    weft_testbenches::formal::prove(p, &file, depth, &out.join(p.name), limit)?;
                for proof in &proofs {
                    println!("  {}", proof.line());
                }
                failures += proofs
                    .iter()
                    .filter(|p| weft_testbenches::formal::failed(p))
                    .count();
            }
            if failures > 0 {
                return Err(format!("{failures} properties failed"));
            }
            Ok(())
        }
        Command::Cosim {
            preset,
            cycles,
            seed,
            simulator,
            keep,
        } => {
            let p = presets::find(&preset)?;
            let dir = work_dir(&keep, &format!("cosim-{}", p.name));
            let result = cosim::cosimulate(&p, cycles, seed, &simulator.simulators(), &dir);
            if keep.is_none() {
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
    }
}

/// `weft area`'s cell-library figures per design (`None`: stopped by the limit); none
/// when `library` is `none`. A missing library or OpenSTA is named on stderr and the
/// other figures still print.
fn asic_figures(
    library: &str,
    designs: &[(&str, &Path)],
    limit: Option<Duration>,
) -> Result<Vec<(String, Option<asic::AsicFigures>)>, String> {
    if library == "none" {
        return Ok(vec![]);
    }
    let library = asic::Library::by_name(library)?;
    if let Err(missing) = library.find().and_then(|_| asic::OPENSTA.find()) {
        eprintln!("no cell-library figures: {missing}");
        return Ok(vec![]);
    }
    let sdc = Path::new("constraints/weft.sdc");
    let results = weft_flow::jobs::parallel(designs, 2, |(name, file)| {
        let dir = Path::new("target/asic").join(name);
        asic::asic_figures(name, file, library, sdc, &dir, limit).map(|f| (name.to_string(), f))
    });
    results.into_iter().collect()
}
