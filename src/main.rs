//! `weft`: export, lint, measure, simulate and co-simulate weft's hardware presets.
use clap::{Parser, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use weft_testbenches::cosim::{self, Simulator};
use weft_testbenches::fpga::{parallel, Device, FpgaOptions};
use weft_testbenches::presets::{self, Preset};
use weft_testbenches::run::{run, Outputs, VectorWriter};
use weft_testbenches::tools::YOSYS;

mod export;
mod report;

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
    /// Write DIR/<preset>.v for each preset (all when none named) and print a summary.
    Export {
        #[arg(long, default_value = "verilog_out")]
        out: PathBuf,
        /// Skip the area table (no Yosys run).
        #[arg(long)]
        no_area: bool,
        /// Stop each preset's Yosys run after this many minutes (the table then names
        /// it): the largest presets take over an hour.
        #[arg(long, default_value_t = 20)]
        synth_minutes: u64,
        presets: Vec<String>,
    },
    /// Yosys and Verilator lint of the exported files; non-zero exit on any finding.
    Lint {
        #[arg(long, default_value = "verilog_out")]
        dir: PathBuf,
        presets: Vec<String>,
    },
    /// Yosys synthesis per preset: cells, flip-flops, RAM bits, 2-input gates, logic
    /// depth, transistor estimate, Xilinx LUTs and flip-flops.
    Area {
        #[arg(long, default_value = "verilog_out")]
        dir: PathBuf,
        #[arg(long)]
        json: bool,
        /// Stop each preset's Yosys run after this many minutes (default: no limit).
        #[arg(long)]
        synth_minutes: Option<u64>,
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

impl DeviceChoice {
    fn device(self) -> Device {
        match self {
            DeviceChoice::Hx1k => Device::Hx1k,
            DeviceChoice::Hx8k => Device::Hx8k,
            DeviceChoice::Up5k => Device::Up5k,
        }
    }
}

fn fpga_options(
    device: DeviceChoice,
    freq: Option<f64>,
    seeds: u64,
    jobs: usize,
    pnr_minutes: Option<u64>,
    synth_minutes: Option<u64>,
) -> Result<FpgaOptions, String> {
    if seeds == 0 {
        return Err("--seeds must be at least 1".into());
    }
    if pnr_minutes == Some(0) {
        return Err("--pnr-minutes must be at least 1".into());
    }
    if synth_minutes == Some(0) {
        return Err("--synth-minutes must be at least 1".into());
    }
    if let Some(f) = freq {
        if !(f > 0.0 && f.is_finite()) {
            return Err(format!("--freq must be a positive number of MHz, got {f}"));
        }
    }
    Ok(FpgaOptions {
        device: device.device(),
        freq_mhz: freq,
        seeds,
        jobs,
        constraints: PathBuf::from("constraints"),
        pnr_minutes,
        synth_minutes,
    })
}

/// Every preset's area, two at a time (Yosys is single-threaded; the machine has two
/// cores), with a progress line per preset; a run past `synth_minutes` is stopped and
/// listed in the second vector instead.
fn areas(
    list: &[Preset],
    files: &[PathBuf],
    synth_minutes: Option<u64>,
) -> Result<(Vec<weft_testbenches::area::Area>, Vec<String>), String> {
    if synth_minutes == Some(0) {
        return Err("--synth-minutes must be at least 1".into());
    }
    let limit = synth_minutes.map(|m| std::time::Duration::from_secs(60 * m));
    let jobs: Vec<(&Preset, &PathBuf)> = list.iter().zip(files).collect();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let results = parallel(&jobs, 2, |(p, f)| {
        let start = std::time::Instant::now();
        let r = weft_testbenches::area::area_within(p.name, f, limit);
        let n = done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        let what = match &r {
            Ok(Some(_)) => format!("{:.1} s", start.elapsed().as_secs_f64()),
            Ok(None) => "stopped at --synth-minutes".into(),
            Err(_) => "failed".into(),
        };
        eprintln!("[{n:>2}/{}] area {:<28} {what}", jobs.len(), p.name);
        r
    });
    let mut rows = vec![];
    let mut stopped = vec![];
    for (p, r) in list.iter().zip(results) {
        match r? {
            Some(a) => rows.push(a),
            None => stopped.push(format!(
                "{}: synthesis > {} min (raise --synth-minutes)",
                p.name,
                synth_minutes.unwrap_or(0)
            )),
        }
    }
    Ok((rows, stopped))
}

#[derive(Clone, Copy, ValueEnum)]
enum SimulatorChoice {
    Iverilog,
    Verilator,
    Both,
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
    match weft_testbenches::run::on_big_stack(move || dispatch(command)) {
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

fn dispatch(command: Command) -> Result<(), String> {
    match command {
        Command::List => {
            for p in presets::all() {
                let params: Vec<String> =
                    p.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
                println!("{:<28} {:<36} {}", p.name, params.join(" "), p.summary);
            }
            Ok(())
        }
        Command::Export {
            out,
            no_area,
            synth_minutes,
            presets,
        } => {
            let list = select(&presets)?;
            let files = export::export(&list, &out)?;
            println!("exported {} presets to {}", files.len(), out.display());
            for (p, f) in list.iter().zip(&files) {
                let lines = std::fs::read_to_string(f)
                    .map(|s| s.lines().count())
                    .unwrap_or(0);
                println!("  {:<28} {} ({lines} lines)", p.name, f.display());
            }
            if no_area {
                return Ok(());
            }
            match YOSYS.find() {
                Ok(_) => {
                    let (rows, stopped) = areas(&list, &files, Some(synth_minutes))?;
                    println!("\n{}", weft_testbenches::area::table(&rows));
                    for s in stopped {
                        println!("{s}");
                    }
                }
                Err(why) => println!("\nno area table: {why}"),
            }
            Ok(())
        }
        Command::Lint { dir, presets } => {
            let waivers = PathBuf::from(weft_testbenches::lint::WAIVERS);
            if !waivers.is_file() {
                return Err(format!(
                    "waiver file {} not found; run weft from the project root",
                    waivers.display()
                ));
            }
            let mut failed = vec![];
            for p in select(&presets)? {
                let file = exported_file(&dir, &p)?;
                match weft_testbenches::lint::lint_file(p.name, &file, &waivers) {
                    Ok(()) => println!("lint ok   {}", p.name),
                    Err(findings) => {
                        println!("lint FAIL {}\n{findings}", p.name);
                        failed.push(p.name);
                    }
                }
            }
            if failed.is_empty() {
                Ok(())
            } else {
                Err(format!("lint findings in: {}", failed.join(", ")))
            }
        }
        Command::Area {
            dir,
            json,
            synth_minutes,
            presets,
        } => {
            let list = select(&presets)?;
            let files = list
                .iter()
                .map(|p| exported_file(&dir, p))
                .collect::<Result<Vec<_>, _>>()?;
            YOSYS.find()?;
            let (rows, stopped) = areas(&list, &files, synth_minutes)?;
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&rows).map_err(|e| e.to_string())?
                );
                // JSON holds measured rows only; a stopped run is named on stderr.
                for s in stopped {
                    eprintln!("{s}");
                }
            } else {
                print!("{}", weft_testbenches::area::table(&rows));
                for s in stopped {
                    println!("{s}");
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
            let options = fpga_options(device, freq, seeds, 2, pnr_minutes, None)?;
            let work = match &keep {
                Some(d) => d.clone(),
                None => std::env::temp_dir().join(format!(
                    "weft-fpga-{}-{}",
                    p.name,
                    std::process::id()
                )),
            };
            let result = weft_testbenches::fpga::run(p.name, &file, &options, &work);
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
            presets,
        } => {
            if jobs == 0 {
                return Err("--jobs must be at least 1".into());
            }
            let options = report::ReportOptions {
                out,
                fpga: fpga_options(
                    device,
                    freq,
                    seeds,
                    1,
                    Some(pnr_minutes),
                    Some(synth_minutes),
                )?,
                jobs,
                cache: (!no_cache).then_some(cache),
            };
            report::report(&select(&presets)?, &options)
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
                progress_every: progress_step(cycles),
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
        Command::Cosim {
            preset,
            cycles,
            seed,
            simulator,
            keep,
        } => {
            let p = presets::find(&preset)?;
            if cycles == 0 {
                return Err("--cycles must be at least 1".into());
            }
            let sims = match simulator {
                SimulatorChoice::Iverilog => vec![Simulator::Icarus],
                SimulatorChoice::Verilator => vec![Simulator::Verilator],
                SimulatorChoice::Both => vec![Simulator::Icarus, Simulator::Verilator],
            };
            for s in &sims {
                match s {
                    Simulator::Icarus => weft_testbenches::tools::IVERILOG.find()?,
                    Simulator::Verilator => weft_testbenches::tools::VERILATOR.find()?,
                };
            }
            let dir = match &keep {
                Some(d) => d.clone(),
                None => std::env::temp_dir().join(format!(
                    "weft-cosim-{}-{}",
                    p.name,
                    std::process::id()
                )),
            };
            std::fs::create_dir_all(&dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            let result = cosimulate(&p, cycles, seed, &sims, &dir);
            if keep.is_none() {
                let _ = std::fs::remove_dir_all(&dir);
            }
            result
        }
    }
}

fn progress_step(cycles: u64) -> u64 {
    if cycles >= 1_000_000 {
        cycles / 10
    } else {
        0
    }
}

fn cosimulate(
    p: &Preset,
    cycles: u64,
    seed: u64,
    sims: &[Simulator],
    dir: &Path,
) -> Result<(), String> {
    let vectors_path = dir.join("vectors.txt");
    let mut writer = VectorWriter::create(&vectors_path)
        .map_err(|e| format!("cannot create {}: {e}", vectors_path.display()))?;
    let mut bench = (p.bench)();
    let clocked = weft_testbenches::bench::ports_and_values(bench.block())
        .0
        .iter()
        .any(|port| port.input && port.name == "clock");
    let report = run(
        bench.as_mut(),
        cycles,
        seed,
        Outputs {
            vcd: None,
            vectors: Some(&mut writer),
            progress_every: progress_step(cycles),
        },
    )
    .map_err(|e| format!("{} (seed {seed}): {e}", p.name))?;
    let ports = writer.finish().map_err(|e| e.to_string())?;
    println!(
        "{}: recorded {} cycles from the Rust simulation (seed {seed}, model and RTL agree); Rust steps {:.0} cycles/s with recording",
        p.name,
        report.cycles,
        report.cycles_per_second()
    );
    let write = |name: &str, text: String| {
        std::fs::write(dir.join(name), text).map_err(|e| format!("cannot write {name}: {e}"))
    };
    write("dut.v", export::exported(p))?;
    write(
        "tb.v",
        cosim::testbench(p.name, clocked, &ports, "vectors.txt"),
    )?;
    write(
        "harness.cpp",
        cosim::verilator_harness(clocked, &ports, "vectors.txt"),
    )?;
    let mut failures = vec![];
    let rust_rate = report.cycles_per_second();
    for &s in sims {
        eprintln!("  building and running the replay under {} ...", s.name());
        let r = cosim::replay(s, p.name, dir)?;
        println!(
            "  {:<10} {} cycles, {} mismatches, {:.0} cycles/s (vector replay)",
            s.name(),
            r.cycles,
            r.mismatches,
            r.cycles as f64 / r.seconds.max(1e-9)
        );
        if s == Simulator::Verilator {
            let rate = r.cycles as f64 / r.seconds.max(1e-9);
            println!(
                "  speed: Verilator {rate:.0} cycles/s vs Rust {rust_rate:.0} cycles/s (model checks and recording included): {:.1}x",
                rate / rust_rate.max(1e-9)
            );
        }
        for m in &r.first_mismatches {
            println!("    {m}");
        }
        if r.mismatches > 0 || r.cycles != cycles {
            failures.push(format!(
                "{}: {} mismatches over {} of {cycles} cycles",
                s.name(),
                r.mismatches,
                r.cycles
            ));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "co-simulation of {} failed: {}",
            p.name,
            failures.join("; ")
        ))
    }
}
