//! The cycle-level SIMT core: warps of threads that execute at issue (the per-thread
//! interpreter decides what they compute), timed by the machine's pipeline, units and
//! memory hierarchy (which decide only when). Built from the golden models: every
//! warp's [`DivergenceStack`], the [`RoundRobin`] or [`TwoLevelScheduler`] fetch
//! scheduler, and for large warps the [`SubWarpUnit`] and [`BranchBuffers`].
//!
//! Timing rules (one core, each cycle):
//! - **Fetch and issue.** The scheduler grants one ready warp; its instruction (the
//!   stack top's PC, the top's mask) executes in every active thread and enters the
//!   pipeline. Barrel processing: the warp is ready again `pipeline_depth` cycles later
//!   at the earliest, when the instruction has completed (LWM §2.1). With
//!   `scoreboard = true` (the later machines' rule, GPGPU-Sim's scoreboard) a warp
//!   issues again the next cycle once the registers its next instruction reads and
//!   writes are written (a result when its instruction completes, a load when its
//!   lines arrive); branches, jumps and barriers wait until they resolve, and a warp has
//!   one load outstanding at a time.
//! - **Occupancy.** Most instructions take the single issue slot for one cycle. A
//!   special function (divide, remainder, square root; multiplies too with
//!   `sfu_multiply`) takes ⌈active / `sfu_lanes`⌉ passes of `sfu_interval` cycles
//!   each (1: pipelined) and `sfu_latency` more to complete. A global memory instruction takes one
//!   cycle per distinct line its threads touch (the coalescer serves one line per cycle;
//!   the pipeline stalls behind it, LWM §2.2); private (stack) accesses are banked by
//!   lane and take `private_latency`.
//! - **Large warps** (`divergence = lwm`, LWM §3.1). A warp of `warp_size / lanes` rows
//!   (row `r`, lane `c` is the warp's thread `r * lanes + c`) is fetched once; the
//!   sub-warp unit breaks its mask into sub-warps, one per cycle, each taking the issue
//!   slot as a warp instruction of its own (SFU and coalescer occupancy per sub-warp).
//!   Global memory instructions form one sub-warp per row (`lwm_memory_opt`), `jal x0`
//!   one sub-warp (`lwm_jump_opt`). A branch's outcomes collect in the branch buffers
//!   until the last sub-warp; then the warp's stack branches. Barrel processing per
//!   large warp: it is fetched again when its last sub-warp completes. CTAs smaller than
//!   a warp are packed into it (`warp_size / cta` of them, synchronising together at a
//!   barrier since they share one PC).
//! - **Memory.** Line `i` of an instruction issued at `t` is looked up at
//!   `t + pipeline_depth - 2 + i`. If any line misses, the warp is put aside until its
//!   last line arrives (one cycle later it may be fetched again); the pipeline goes on
//!   with other warps. A line refused for want of an MSHR is replayed when one frees.
//! - **CTAs.** A CTA takes ⌈cta / warp_size⌉ warp slots of one core and is launched
//!   when that many are free, CTAs in order, cores in turn. `weft_barrier` holds a warp
//!   until every warp of its CTA (its launch group, for CTAs packed into one warp) that
//!   has not finished arrives.
//! - **Divergence** (one policy per mechanism, [`divergence`]): what each warp issues
//!   next and how its threads form the warp instructions belong to the policy; PDOM
//!   is the reference every policy degenerates to.
//! - **Counts** (LWM §5, CAPRI §5): thread instructions (one per active thread), IPC in
//!   thread instructions per cycle, warp instructions (sub-warps for large warps: what
//!   enters the SIMD lanes), the histogram of active lanes per cycle (0 for a cycle in
//!   which no thread starts on a functional unit), and for every cycle with none its
//!   reason. A jump issued as one sub-warp counts every thread of the large warp.
//!
//! The files, by job: [`core`] (a core and its issue, as named steps), [`warp`],
//! [`kernel`] (the analysed instructions), [`execute`] (one record per executed
//! instruction), [`timing`], [`coalescer`], [`scheduler`], [`stats`], [`divergence`].
pub mod coalescer;
pub mod core;
pub mod divergence;
pub mod execute;
pub mod kernel;
pub mod occupancy;
pub mod scheduler;
pub mod stats;
#[cfg(test)]
mod tests;
pub mod timing;
pub mod warp;

pub use stats::{Stalls, Stats};

use crate::core::functional::{run_setup, Launch, Program};
use crate::core::image::Image;
use crate::core::machine::{Machine, Timing};
use crate::core::memory::MemorySystem;
use crate::core::trace::{Issue, Sample, Trace};
use core::{Core, Shared};
use divergence::Activity;
use kernel::Kernel;
use stats::Counts;
use std::time::{Duration, Instant};

/// Limits and progress reporting of a run.
pub struct Options<'a> {
    pub max_cycles: u64,
    pub max_instructions: u64,
    /// Called every few seconds of a long run with (cycle, thread instructions, CTAs
    /// finished, CTAs).
    pub progress: &'a mut dyn FnMut(u64, u64, u32, u32),
    /// Receives the state of every cycle the model visits (`--vcd`).
    pub trace: Option<&'a mut dyn Trace>,
    /// The two-level scheduler even when one fetch group holds every warp (which the
    /// machine runs as plain round robin): a check that the two agree.
    pub two_level_always: bool,
}

/// A timed run's result.
pub struct TimedRun {
    pub image: Image,
    pub stats: Stats,
    /// Host seconds of the timed part (after `weft_setup`): the simulator's speed.
    pub seconds: f64,
}

/// Runs `weft_setup` functionally, then the launch on the machine.
pub fn run(
    program: Program,
    launch: Launch,
    machine: &Machine,
    options: Options,
) -> Result<TimedRun, String> {
    if machine.timing() != Timing::Simt {
        return Err(format!(
            "the SIMT core runs a machine with timing = simt (this one has timing = {})",
            machine.timing().name()
        ));
    }
    let kernel = Kernel::new(&program)?;
    let core = machine.core();
    let ws = core.warp_size;
    let need = launch.cta.div_ceil(ws);
    if need > core.warps {
        return Err(format!(
            "a CTA of {} threads needs {need} warps of {ws}; the core has {}",
            launch.cta, core.warps
        ));
    }
    divergence::check_launch(machine, launch.cta)?;
    let Program { mut image, code } = program;
    let (start, end) = image.shared.range;
    let shared_bytes = end.saturating_sub(start);
    let ctas_per_core = occupancy::Occupancy::new(machine, launch.cta, shared_bytes).check(
        machine,
        launch.cta,
        shared_bytes,
    )?;
    run_setup(&code, &mut image, launch, options.max_instructions)?;
    let timed = Instant::now();
    let mut memory = MemorySystem::new(machine, core.cores as usize);
    let mut cores: Vec<Core> = (0..core.cores as usize)
        .map(|i| Core::new(i, machine, options.two_level_always))
        .collect();
    for core in &mut cores {
        core.policy.prepare(&kernel)?;
        core.limit_ctas(ctas_per_core);
    }
    let mut counts = Counts::new(core.lanes);
    counts.ctas_per_core = ctas_per_core;
    let total_ctas = launch.threads / launch.cta;
    let mut next_cta = 0;
    let mut next_core = 0;
    let mut now = 0u64;
    let mut arrivals = vec![];
    let mut started = vec![false; cores.len()];
    // Per core: free to issue this cycle with no warp ready.
    let mut stalled = vec![false; cores.len()];
    let (mut bus_bytes, mut bus_cycles) = (0u64, 0f64);
    let clock = Instant::now();
    let mut last_progress = clock;
    let mut options = options;
    loop {
        memory.advance(now, &mut arrivals);
        for (core, warp, line, at) in arrivals.drain(..) {
            cores[core].arrived(warp as usize, line, at)?;
        }
        for core in &mut cores {
            core.replay(now, &mut memory);
            core.retire(now, &mut counts);
        }
        // CTAs in order, to the cores in turn.
        while next_cta < total_ctas {
            let n = cores.len();
            let Some((k, launched)) = (0..n).map(|k| (next_core + k) % n).find_map(|k| {
                let launched = cores[k].launch(next_cta, total_ctas, launch, &image, now);
                (launched > 0).then_some((k, launched))
            }) else {
                break;
            };
            next_cta += launched;
            next_core = (k + 1) % n;
        }
        if next_cta == total_ctas && counts.ctas_done == total_ctas && memory.idle() {
            break;
        }
        let mut issued = false;
        started.fill(false);
        stalled.fill(false);
        for core in &mut cores {
            let mut issue = None;
            core.settle(now)?;
            if core.busy_until <= now {
                let ready = core.ready_mask(now, &kernel);
                stalled[core.id] = ready == 0;
                if let Some(w) = core.scheduler.grant(ready) {
                    let mut shared = Shared {
                        machine,
                        kernel: &kernel,
                        image: &mut image,
                        memory: &mut memory,
                        counts: &mut counts,
                    };
                    let done = core.issue(w, now, &mut shared)?;
                    if let Some(trace) = options.trace.as_deref_mut() {
                        trace
                            .fetch(core.id, w, &core.executed.mask, done.mode, done.sub_warps)
                            .map_err(|e| format!("writing the trace: {e}"))?;
                    }
                    issue = Some(Issue {
                        warp: w,
                        active: done.active,
                        pc: done.pc,
                        lanes: done.lanes,
                    });
                    issued = true;
                    started[core.id] = true;
                }
            }
            if let Some(trace) = options.trace.as_deref_mut() {
                let sample = Sample {
                    issued: issue,
                    warps: &core.states(now),
                    mshrs: memory.mshrs_in_use(core.id),
                };
                trace
                    .core(now, core.id, &sample)
                    .map_err(|e| format!("writing the trace: {e}"))?;
            }
        }
        if let Some(trace) = options.trace.as_deref_mut() {
            trace
                .dram(now, memory.dram_queued())
                .map_err(|e| format!("writing the trace: {e}"))?;
        }
        if counts.thread_instructions > options.max_instructions {
            return Err(format!(
                "stopped after {} thread instructions at cycle {now} (--max-instructions)",
                options.max_instructions
            ));
        }
        // Nothing issued: sleep until something changes.
        let next = if issued {
            now + 1
        } else {
            let events = cores.iter().filter_map(|c| c.next_event(now, &kernel));
            events
                .chain(memory.next_event())
                .min()
                .unwrap_or(now + 1)
                .max(now + 1)
        };
        // (A core that issued has its issue slot taken past `now`; one that did not is
        // as the issue loop found it.)
        for core in &cores {
            if stalled[core.id] {
                core.stall(next - now, next_cta == total_ctas, &mut counts.stalls);
            }
        }
        // What the cores did until `next`, for policies that adapt to it.
        let moved = memory.dram_bytes();
        bus_cycles += (moved - bus_bytes) as f64 / machine.dram_bytes_per_cycle();
        bus_bytes = moved;
        let bus = (bus_cycles.floor() as u64).min(next - now);
        bus_cycles = (bus_cycles - bus as f64).max(0.0);
        for core in &mut cores {
            let started = started[core.id];
            let memory_stall = !started && core.waits_on_memory();
            core.policy.tick(Activity {
                cycles: next - now,
                started,
                bus_cycles: bus,
                memory_stall,
            });
        }
        now = next;
        if now > options.max_cycles {
            return Err(format!(
                "stopped at cycle {} (--max-cycles), {} of {total_ctas} CTAs finished",
                options.max_cycles, counts.ctas_done
            ));
        }
        if counts.warp_instructions & 0xfff == 0 && last_progress.elapsed() > Duration::from_secs(2)
        {
            last_progress = Instant::now();
            (options.progress)(
                now,
                counts.thread_instructions,
                counts.ctas_done,
                total_ctas,
            );
        }
    }
    Ok(TimedRun {
        image,
        stats: counts.into_stats(machine, now, &memory, divergence_stats(&cores)),
        seconds: timed.elapsed().as_secs_f64(),
    })
}

/// The policy's counters, summed over the cores.
fn divergence_stats(cores: &[Core]) -> divergence::DivergenceStats {
    cores
        .iter()
        .map(|c| c.policy.stats())
        .reduce(divergence::DivergenceStats::combined)
        .expect("at least one core")
}
