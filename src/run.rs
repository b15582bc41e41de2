//! `weft run`: a C kernel (or its RV32IMF ELF) on the core model (docs/core.md §2).
use crate::Failure;
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::Instant;
use weft_flow::gtkwave::{self, Show};
use weft_sim::core::functional::{self, Launch, Program};
use weft_sim::core::image::Image;
use weft_sim::core::machine::{Machine, KEYS};
use weft_sim::core::simt::divergence::DivergenceStats;
use weft_sim::core::simt::Stats;
use weft_sim::core::timed::{self, Counted, Options};
use weft_sim::core::trace::{Groups, Radix, Trace, VcdTrace, WarpState};
use weft_testbenches::simt as rtl;

#[derive(Args)]
pub struct RunArgs {
    /// `KERNEL.c` (compiled with clang for RV32IMF) or a prebuilt `KERNEL.elf`.
    #[arg(required_unless_present = "list_keys")]
    kernel: Option<PathBuf>,
    /// A machine preset or a TOML file of machine keys (default lwm); with --rtl, an
    /// RTL core preset (default simt_core_4x4).
    #[arg(long)]
    machine: Option<String>,
    /// Run on the RTL SIMT core (the rust-hdl simulation of a `simt_core...` preset)
    /// instead of the core model.
    #[arg(long)]
    rtl: bool,
    /// With --rtl: `rust-hdl` (the design's Rust simulation; --vcd) or `verilator` (the
    /// exported Verilog, built once per preset under target/rtl-verilator; faster on
    /// long runs).
    #[arg(long, value_enum, default_value_t = RtlSim::RustHdl, requires = "rtl")]
    rtl_sim: RtlSim,
    /// Override one machine key: KEY=VALUE (repeatable; see --list-keys).
    #[arg(long = "set")]
    sets: Vec<String>,
    /// List the machine keys with their meaning and the machine's value, and exit.
    #[arg(long)]
    list_keys: bool,
    /// Threads of the launch (default: the kernel's WEFT_LAUNCH).
    #[arg(long)]
    threads: Option<u32>,
    /// Threads per CTA (default: the kernel's WEFT_LAUNCH).
    #[arg(long)]
    cta: Option<u32>,
    /// Print this symbol's bytes after the run (`SYMBOL <hex>`); repeatable.
    #[arg(long)]
    dump: Vec<String>,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Write the core's per-cycle state (issuing warp, active lanes, every warp's state,
    /// MSHRs, DRAM queue) as a VCD that GTKWave opens.
    #[arg(long)]
    vcd: Option<PathBuf>,
    /// Print the decoded kernel (address, instruction, each branch's reconvergence
    /// point) and exit, to read a waveform's PC and a divergence against the code.
    #[arg(long)]
    listing: bool,
    /// Only the functional run (every thread's results, no timing).
    #[arg(long)]
    functional: bool,
    /// Stop with an error after this many thread instructions.
    #[arg(long, default_value_t = 2_000_000_000)]
    max_instructions: u64,
    /// Stop with an error after this many cycles.
    #[arg(long, default_value_t = 1_000_000_000)]
    max_cycles: u64,
}

/// What simulates the RTL core (`--rtl-sim`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RtlSim {
    RustHdl,
    Verilator,
}

/// The machine of `--machine` and `--set`, its warnings printed; refused as bad input.
pub fn load_machine(name: &str, sets: &[String]) -> Result<Machine, Failure> {
    let machine = Machine::load(name, sets).map_err(Failure::BadInput)?;
    for warning in machine.ignored(sets) {
        eprintln!("warning: --set {warning}");
    }
    Ok(machine)
}

pub fn run(args: RunArgs) -> Result<(), Failure> {
    if args.max_cycles == 0 {
        return Err(Failure::BadInput("--max-cycles must be at least 1".into()));
    }
    if args.max_instructions == 0 {
        return Err(Failure::BadInput(
            "--max-instructions must be at least 1".into(),
        ));
    }
    if args.rtl {
        return run_rtl(args);
    }
    let machine_name = args.machine.clone().unwrap_or_else(|| "lwm".into());
    let machine = load_machine(&machine_name, &args.sets)?;
    if args.list_keys {
        let values = machine.values();
        let width = KEYS.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
        for ((key, meaning), (_, value)) in KEYS.iter().zip(values) {
            println!("{key:width$}  {value:>8}  {meaning}");
        }
        return Ok(());
    }
    let kernel = args.kernel.as_deref().expect("clap requires KERNEL");
    let elf = weft_flow::kernel::load(kernel)?;
    let image = Image::from_elf(&elf).map_err(|e| format!("{}: {e}", kernel.display()))?;
    // Every symbol to dump exists before the run starts.
    for name in &args.dump {
        image.symbol_bytes(name)?;
    }
    if args.listing {
        print!("{}", Program::new(image).listing());
        return Ok(());
    }
    let launch = match (args.threads, args.cta, image.launch) {
        (Some(t), Some(c), _) => Launch::new(t, c)?,
        (t, c, Some((lt, lc))) => Launch::new(t.unwrap_or(lt), c.unwrap_or(lc))?,
        _ => {
            return Err(Failure::BadInput(format!(
                "{} has no WEFT_LAUNCH: give --threads and --cta",
                kernel.display()
            )))
        }
    };
    let start = Instant::now();
    let in_kernel = |e: String| format!("{}: {e}", kernel.display());
    let program = Program::new(image);
    let (image, counted) = if args.functional {
        let r = functional::run(program, launch, args.max_instructions).map_err(in_kernel)?;
        (r.image, None)
    } else {
        let mut progress = |cycle: u64, instructions: u64, done: u32, ctas: u32| {
            eprintln!(
                "  cycle {cycle}, {instructions} thread instructions, {done} of {ctas} CTAs done, {:.0} s",
                start.elapsed().as_secs_f64()
            )
        };
        let mut vcd = match &args.vcd {
            Some(path) => {
                timed::traceable(&machine)?;
                let file = std::fs::File::create(path)
                    .map_err(|e| format!("--vcd {}: {e}", path.display()))?;
                let w = std::io::BufWriter::new(file);
                let core = machine.core();
                let trace = VcdTrace::new(w, core.cores as usize, core.warps as usize, core.lanes)
                    .map_err(|e| format!("--vcd {}: {e}", path.display()))?;
                write_save_file(path, trace.groups())?;
                Some(trace)
            }
            None => None,
        };
        let options = Options {
            max_cycles: args.max_cycles,
            max_instructions: args.max_instructions,
            progress: &mut progress,
            trace: vcd.as_mut().map(|t| t as &mut dyn Trace),
            two_level_always: false,
        };
        let r = timed::run(program, launch, &machine, options).map_err(in_kernel)?;
        (r.image, Some((r.stats, r.seconds)))
    };
    let (stats, vgiw) = match counted {
        None => (None, None),
        Some((Counted::Simt(s), timed)) => (Some((s, timed)), None),
        Some((Counted::Vgiw(s), timed)) => (None, Some((s, timed))),
    };
    let seconds = start.elapsed().as_secs_f64();
    let dumps: Vec<(String, String)> = args
        .dump
        .iter()
        .map(|name| {
            image.symbol_bytes(name).map(|b| {
                let hex: String = b.iter().map(|byte| format!("{byte:02x}")).collect();
                (name.clone(), hex)
            })
        })
        .collect::<Result<_, _>>()?;
    if let Some((s, timed)) = &vgiw {
        if args.json {
            let mut out = serde_json::json!({
                "kernel": kernel.display().to_string(),
                "threads": launch.threads,
                "cta": launch.cta,
                "timing": "vgiw",
                "machine": serde_json::to_value(&machine).map_err(|e| e.to_string())?,
                "seconds": seconds,
                "timed_seconds": timed,
                // The engine has no warps: no warp instructions, no SIMD lanes.
                "warp_instructions": null,
                "simd_utilisation": null,
            });
            let value = serde_json::to_value(s).map_err(|e| e.to_string())?;
            out.as_object_mut()
                .expect("an object")
                .extend(value.as_object().expect("stats are an object").clone());
            out["dumps"] = dumps
                .iter()
                .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
                .collect::<serde_json::Map<_, _>>()
                .into();
            println!("{out}");
        } else {
            println!(
                "{}: {} threads in CTAs of {}",
                kernel.display(),
                launch.threads,
                launch.cta
            );
            let v = machine.vgiw_engine();
            println!(
                "machine {}: VGIW engine, units ALU {} SCU {} LVU {} LDST {} SJU {} CVU {}, reconfiguration {} cycles",
                machine_name,
                v.alu_units,
                v.special_units,
                v.lv_units,
                v.ldst_units,
                v.split_join_units,
                v.cvus,
                v.reconfig
            );
            for (label, value) in s.lines() {
                println!("{label:45} {value}");
            }
            println!(
                "simulated in {seconds:.2} s, the timed part (after weft_setup) in {timed:.2} s"
            );
            for (name, hex) in dumps {
                println!("{name} {hex}");
            }
        }
        return Ok(());
    }
    if args.json {
        Ok(print_json(
            kernel,
            launch,
            &machine,
            stats.as_ref(),
            &dumps,
            seconds,
        )?)
    } else {
        print_text(
            kernel,
            launch,
            &machine_name,
            &machine,
            stats.as_ref(),
            seconds,
        );
        for (name, hex) in dumps {
            println!("{name} {hex}");
        }
        Ok(())
    }
}

/// `FILE.gtkw` beside the core's waveform: per core its issue, warps and memory groups,
/// PCs and lane masks in hex, warp states by name.
fn write_save_file(vcd: &Path, groups: &Groups) -> Result<PathBuf, String> {
    let groups: Vec<(String, Vec<gtkwave::Trace>)> = groups
        .iter()
        .map(|(name, wires)| {
            let traces = wires
                .iter()
                .map(|w| gtkwave::Trace {
                    path: w.path.clone(),
                    width: w.width,
                    show: match w.radix {
                        Radix::Binary => Show::Binary,
                        Radix::Decimal => Show::Decimal,
                        Radix::Hex => Show::Hex,
                        Radix::WarpState => Show::Names {
                            tag: "warp_states",
                            names: &WarpState::NAMES,
                        },
                    },
                })
                .collect();
            (name.clone(), traces)
        })
        .collect();
    gtkwave::write_save_file(vcd, &groups)
}

fn print_json(
    kernel: &Path,
    launch: Launch,
    machine: &Machine,
    stats: Option<&(Stats, f64)>,
    dumps: &[(String, String)],
    seconds: f64,
) -> Result<(), String> {
    let mut out = serde_json::json!({
        "kernel": kernel.display().to_string(),
        "threads": launch.threads,
        "cta": launch.cta,
        "timing": if stats.is_some() { "simt" } else { "functional" },
        "machine": serde_json::to_value(machine).map_err(|e| e.to_string())?,
        "seconds": seconds,
        "cycles": null,
        "thread_instructions": null,
        "warp_instructions": null,
        "ipc": null,
    });
    if let Some((s, timed)) = stats {
        out["timed_seconds"] = (*timed).into();
        let value = serde_json::to_value(s).map_err(|e| e.to_string())?;
        out.as_object_mut()
            .expect("an object")
            .extend(value.as_object().expect("stats are an object").clone());
    }
    out["dumps"] = dumps
        .iter()
        .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
        .collect::<serde_json::Map<_, _>>()
        .into();
    println!("{out}");
    Ok(())
}

fn print_text(
    kernel: &Path,
    launch: Launch,
    name: &str,
    m: &Machine,
    stats: Option<&(Stats, f64)>,
    seconds: f64,
) {
    println!(
        "{}: {} threads in CTAs of {}",
        kernel.display(),
        launch.threads,
        launch.cta
    );
    let Some((s, timed)) = stats else {
        println!("functional run (no timing) in {seconds:.2} s");
        return;
    };
    let c = m.core();
    let scheduler = if c.sticky_cta {
        "sticky round robin by CTA".to_string()
    } else if c.fetch_group == c.warps {
        "round robin".to_string()
    } else {
        format!("two-level, fetch groups of {}", c.fetch_group)
    };
    println!(
        "machine {name}: {} core(s) of {} lanes, {} warps of {}, {} divergence, {scheduler}",
        c.cores,
        c.lanes,
        c.warps,
        c.warp_size,
        m.divergence().name()
    );
    // Every figure of the run; a second cache level only when the machine has one.
    let width = 41;
    for f in s.figures().0 {
        if f.key.starts_with("l2_") && !m.l2().cache.present() {
            continue;
        }
        println!("{:width$} {}", f.label, f.value);
    }
    if let DivergenceStats::Tbc(t) = &s.divergence {
        println!("TBC per-branch profile:");
        for line in t.profile_table() {
            println!("{line}");
        }
    }
    println!(
        "simulated in {seconds:.2} s, the timed part (after weft_setup) in {timed:.2} s: {:.0} warp instructions/s",
        s.warp_instructions as f64 / timed.max(1e-9)
    );
}

/// `weft run --rtl`: the kernel on the RTL SIMT core (docs/core.md §8). A kernel the
/// core cannot run is refused before any work, exit 2.
fn run_rtl(args: RunArgs) -> Result<(), Failure> {
    for (given, what) in [
        (!args.sets.is_empty(), "--set"),
        (args.list_keys, "--list-keys"),
        (args.functional, "--functional"),
        (args.listing, "--listing"),
    ] {
        if given {
            return Err(Failure::BadInput(format!(
                "{what} takes the core model's keys; the RTL core's are fixed by its preset (--machine)"
            )));
        }
    }
    if args.rtl_sim == RtlSim::Verilator && args.vcd.is_some() {
        return Err(Failure::BadInput(
            "--vcd records the rust-hdl simulation; it does not go with --rtl-sim verilator".into(),
        ));
    }
    let preset = args.machine.as_deref().unwrap_or("simt_core_4x4");
    let presets = rtl::rtl_presets();
    if !presets.contains(&preset) {
        return Err(Failure::BadInput(format!(
            "--rtl runs an RTL core preset; `{preset}` is not one (valid: {})",
            presets.join(", ")
        )));
    }
    let kernel = args.kernel.as_deref().expect("clap requires KERNEL");
    let elf = weft_flow::kernel::load(kernel)?;
    let image = Image::from_elf(&elf).map_err(|e| format!("{}: {e}", kernel.display()))?;
    for name in &args.dump {
        image.symbol_bytes(name)?;
    }
    let launch = match (args.threads, args.cta, image.launch) {
        (Some(t), Some(c), _) => Launch::new(t, c)?,
        (t, c, Some((lt, lc))) => Launch::new(t.unwrap_or(lt), c.unwrap_or(lc))?,
        _ => {
            return Err(Failure::BadInput(format!(
                "{} has no WEFT_LAUNCH: give --threads and --cta",
                kernel.display()
            )))
        }
    };
    let program = Program::new(image);
    rtl::check_kernel(preset, &program, launch)
        .map_err(|why| Failure::BadInput(format!("{}: {why}", kernel.display())))?;
    let start = Instant::now();
    let mut progress = |cycle: u64| {
        eprintln!(
            "  cycle {cycle} on the RTL core, {:.0} s",
            start.elapsed().as_secs_f64()
        )
    };
    let vcd: Option<Box<dyn std::io::Write>> = match &args.vcd {
        Some(path) => {
            let file = std::fs::File::create(path)
                .map_err(|e| format!("--vcd {}: {e}", path.display()))?;
            Some(Box::new(std::io::BufWriter::new(file)))
        }
        None => None,
    };
    let simulator = match args.rtl_sim {
        RtlSim::RustHdl => rtl::RtlSimulator::RustHdl,
        RtlSim::Verilator => rtl::RtlSimulator::Verilator,
    };
    let options = rtl::RtlOptions {
        simulator,
        max_cycles: args.max_cycles,
        max_instructions: args.max_instructions,
        memory: weft_testbenches::memory::Timing::no_stalls(),
        seed: 1,
        vcd,
        progress: &mut progress,
    };
    let r = rtl::run_kernel(preset, program, launch, options)
        .map_err(|e| format!("{}: {e}", kernel.display()))?;
    if let Some(path) = &args.vcd {
        crate::hardware::block_save_file(weft_testbenches::presets::find(preset)?, path)?;
    }
    let mut dumps = vec![];
    for name in &args.dump {
        let hex: String = r
            .image
            .symbol_bytes(name)?
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        dumps.push((name.clone(), hex));
    }
    let c = &r.counts;
    let params = (weft_testbenches::presets::find(preset)?.params)();
    let lanes = params
        .iter()
        .find(|(k, _)| *k == "LANES")
        .map_or(1, |p| p.1);
    let ipc = c.thread_instructions as f64 / c.cycles.max(1) as f64;
    let utilisation =
        c.thread_instructions as f64 / (c.warp_instructions.max(1) * lanes as u64) as f64;
    if args.json {
        let out = serde_json::json!({
            "kernel": kernel.display().to_string(),
            "threads": launch.threads,
            "cta": launch.cta,
            "timing": "rtl",
            "simulator": simulator.name(),
            "machine": params.iter().map(|(k, v)| (k.to_lowercase(), serde_json::Value::from(*v))).chain([("preset".to_string(), serde_json::Value::from(preset))]).collect::<serde_json::Map<_, _>>(),
            "cycles": c.cycles,
            "thread_instructions": c.thread_instructions,
            "warp_instructions": c.warp_instructions,
            "ipc": ipc,
            "simd_utilisation": utilisation,
            "line_requests": c.line_requests,
            "cycles_by_state": rtl::simt_core::STATE_NAMES.iter().map(|&(i, name)| (name.to_string(), serde_json::Value::from(c.states[i as usize]))).collect::<serde_json::Map<_, _>>(),
            "seconds": r.seconds,
            "cycles_per_second": r.cycles_per_second,
            "dumps": dumps.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone()))).collect::<serde_json::Map<_, _>>(),
        });
        println!("{out}");
    } else {
        println!(
            "{}: {} threads in CTAs of {}",
            kernel.display(),
            launch.threads,
            launch.cta
        );
        let shape: Vec<String> = params.iter().map(|(k, v)| format!("{k} {v}")).collect();
        println!(
            "RTL core {preset} ({}), memory answering every line the next cycle",
            shape.join(", ")
        );
        println!("{:41} {}", "cycles", c.cycles);
        println!("{:41} {}", "thread instructions", c.thread_instructions);
        println!("{:41} {}", "warp instructions", c.warp_instructions);
        println!("{:41} {ipc:.3}", "IPC (thread instructions per cycle)");
        println!("{:41} {:.1}%", "SIMD utilisation", 100.0 * utilisation);
        println!("{:41} {}", "memory line requests", c.line_requests);
        println!("cycles by the core's state:");
        for &(i, name) in rtl::simt_core::STATE_NAMES.iter() {
            let n = c.states[i as usize];
            if n > 0 {
                let share = 100.0 * n as f64 / c.cycles.max(1) as f64;
                println!("  {name:39} {n} ({share:.1}%)");
            }
        }
        println!(
            "simulated in {:.2} s: {:.0} cycles/s ({})",
            r.seconds,
            r.cycles_per_second,
            simulator.name()
        );
        for (name, hex) in dumps {
            println!("{name} {hex}");
        }
    }
    Ok(())
}
