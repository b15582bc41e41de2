//! Benches of the SIMT core (docs/core.md §8, `weft run --rtl`).
use crate::presets::Preset;
use weft_hdl::presets::{SimtCore2x2, SimtCore4x4, SimtCore4x4TwoLevel, SimtCore8x8};

pub mod asm;
pub mod random_kernel;
pub mod simt_core;
pub mod verilator;

/// Every SIMT core preset.
pub fn presets() -> Vec<Preset> {
    vec![
        Preset::of::<SimtCore4x4>(
            "simt_core_4x4",
            "SIMT core, 4 warps x 4 lanes: RV32IM, round-robin fetch, PDOM stacks, coalescing load/store unit, CTA launch and barriers (LWM §2, CAPRI §2.1)",
        ),
        Preset::of::<SimtCore2x2>(
            "simt_core_2x2",
            "SIMT core, 2 warps x 2 lanes, 256 instructions: the 4x4 core's RTL sized for the formal proofs and an iCE40 (LWM §2, CAPRI §2.1)",
        ),
        Preset::of::<SimtCore8x8>(
            "simt_core_8x8",
            "SIMT core, 8 warps x 8 lanes, 16-entry stacks: the 4x4 core's RTL at 8 warps of 8 threads (LWM §2, CAPRI §2.1)",
        ),
        Preset::of::<SimtCore4x4TwoLevel>(
            "simt_core_4x4_two_level",
            "SIMT core, 4 warps x 4 lanes fetched by the two-level scheduler in 2 groups of 2 warps: the 4x4 core's RTL with two-level fetch (LWM §3.2)",
        ),
    ]
}

use crate::memory::Timing;
use crate::run::{self, RunError, Vcd};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use simt_core::{load, Counts, SimtCoreBench};
use std::io::Write;
use std::time::Instant;
use weft_sim::core::functional::{Launch, Program};
use weft_sim::core::image::Image;

/// A kernel's run on an RTL core.
pub struct RtlRun {
    pub image: Image,
    pub counts: Counts,
    /// Host seconds of the run (loading included) and cycles simulated per second.
    pub seconds: f64,
    pub cycles_per_second: f64,
}

/// What simulates the RTL core: rust-hdl's simulation of the design, or its exported
/// Verilog under Verilator (built once per design; faster on long runs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RtlSimulator {
    RustHdl,
    Verilator,
}

impl RtlSimulator {
    /// As `--rtl-sim` and `--json`'s `simulator` name it.
    pub fn name(self) -> &'static str {
        match self {
            RtlSimulator::RustHdl => "rust-hdl",
            RtlSimulator::Verilator => "verilator",
        }
    }
}

/// How `run_kernel` runs.
pub struct RtlOptions<'a> {
    pub simulator: RtlSimulator,
    pub max_cycles: u64,
    pub max_instructions: u64,
    /// The memory port's readiness and latency (`Timing::no_stalls()`: always ready,
    /// every answer the next cycle).
    pub memory: Timing,
    pub seed: u64,
    /// Stream the core's waveform here.
    pub vcd: Option<Box<dyn Write + 'a>>,
    /// Called every few seconds with the cycles so far.
    pub progress: &'a mut dyn FnMut(u64),
}

/// The `simt_core...` presets `weft run --rtl` takes: name, warps, lanes, instruction
/// address bits (`run_kernel`'s arms instantiate each with these as its `W`, `L`, `IAW`).
const RTL_CORES: &[(&str, usize, usize, usize)] = &[
    ("simt_core_4x4", 4, 4, 12),
    ("simt_core_2x2", 2, 2, 8),
    ("simt_core_8x8", 8, 8, 12),
    ("simt_core_4x4_two_level", 4, 4, 12),
];

/// The `simt_core...` presets `weft run --rtl` takes.
pub fn rtl_presets() -> Vec<&'static str> {
    RTL_CORES.iter().map(|c| c.0).collect()
}

fn unknown_core(preset: &str) -> String {
    format!(
        "unknown RTL core `{preset}`; valid: {}",
        rtl_presets().join(", ")
    )
}

/// Why `program` cannot run on the RTL core `preset` with `launch`, if it cannot
/// (before any work: `weft_setup` has not run).
pub fn check_kernel(preset: &str, program: &Program, launch: Launch) -> Result<(), String> {
    let &(_, warps, lanes, iaw) = RTL_CORES
        .iter()
        .find(|c| c.0 == preset)
        .ok_or_else(|| unknown_core(preset))?;
    simt_core::check(program, launch, warps, lanes, iaw)
}

/// Runs `program` on the RTL core `preset` (the rust-hdl simulation) until every CTA
/// has finished. A kernel the core cannot run is refused before any work.
pub fn run_kernel(
    preset: &str,
    program: Program,
    launch: Launch,
    options: RtlOptions,
) -> Result<RtlRun, String> {
    match preset {
        "simt_core_4x4" => {
            run_on::<4, 4, 8, 4, 2, 2, 12, 7, 128, 16, 4, 1, 1, 2>(preset, program, launch, options)
        }
        "simt_core_2x2" => {
            run_on::<2, 2, 4, 3, 1, 1, 8, 6, 64, 8, 2, 1, 1, 1>(preset, program, launch, options)
        }
        "simt_core_8x8" => run_on::<8, 8, 16, 5, 3, 3, 12, 8, 256, 32, 8, 1, 1, 3>(
            preset, program, launch, options,
        ),
        "simt_core_4x4_two_level" => {
            run_on::<4, 4, 8, 4, 2, 2, 12, 7, 128, 16, 2, 2, 1, 1>(preset, program, launch, options)
        }
        _ => Err(unknown_core(preset)),
    }
}

/// Runs `program` on the core of these parameters (`run_kernel`'s arms).
#[allow(clippy::too_many_arguments)]
fn run_on<
    const W: usize,
    const L: usize,
    const DEPTH: usize,
    const DW: usize,
    const WW: usize,
    const LW: usize,
    const IAW: usize,
    const RAW: usize,
    const LB: usize,
    const SB: usize,
    const G: usize,
    const GS: usize,
    const GW: usize,
    const GLW: usize,
>(
    preset: &str,
    program: Program,
    launch: Launch,
    options: RtlOptions,
) -> Result<RtlRun, String> {
    if options.simulator == RtlSimulator::Verilator {
        if options.vcd.is_some() {
            return Err("a waveform is recorded from the rust-hdl simulation: --vcd does not go with --rtl-sim verilator".into());
        }
        if options.memory != Timing::no_stalls() {
            return Err("under Verilator the memory port is always ready and answers the cycle after a request (Timing::no_stalls)".into());
        }
    }
    let kernel = load(program, launch, W, L, IAW, options.max_instructions)?;
    if options.simulator == RtlSimulator::Verilator {
        let verilog = crate::presets::find(preset)?.exported();
        return verilator::run(preset, &verilog, kernel, W, L, options.max_cycles);
    }
    let started = Instant::now();
    let mut bench = SimtCoreBench::<W, L, DEPTH, DW, WW, LW, IAW, RAW, LB, SB, G, GS, GW, GLW>::new(
        kernel,
        None,
        options.memory,
    );
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let fail = |e: RunError| e.to_string();
    run::start(&mut bench).map_err(fail)?;
    let mut vcd: Vcd = options.vcd.map(|w| write_vcd_header(w, &bench.uut));
    let mut last = Instant::now();
    let mut cycle = 0;
    let run_started = Instant::now();
    let run_cycles = loop {
        run::step_recorded(&mut bench, cycle, &mut rng, &mut vcd, None).map_err(fail)?;
        cycle += 1;
        if let Some(c) = bench.finished {
            break c;
        }
        if cycle > options.max_cycles {
            return Err(format!(
                "stopped at cycle {cycle} (--max-cycles) before the RTL core finished"
            ));
        }
        if cycle & 0xfff == 0 && last.elapsed().as_secs() >= 2 {
            last = Instant::now();
            (options.progress)(cycle);
        }
    };
    if let Some(v) = vcd.take() {
        let mut v = write_vcd_change(v, &bench.uut);
        v.timestamp(2 * run::HALF_PERIOD * cycle)
            .map_err(|e| format!("writing the waveform: {e}"))?;
    }
    let run_seconds = run_started.elapsed().as_secs_f64();
    Ok(RtlRun {
        image: bench.final_image(),
        counts: bench.counts.clone(),
        seconds: started.elapsed().as_secs_f64(),
        cycles_per_second: cycle.max(run_cycles) as f64 / run_seconds.max(1e-9),
    })
}
