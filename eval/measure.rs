//! What one run measured, and the machine a command line describes.
use crate::workload::{run_to_end, Workload};
use serde::{Deserialize, Serialize};
use weft_sim::core::machine::Machine;
use weft_sim::core::simt::divergence::DivergenceStats;
use weft_sim::core::simt::stats::{Figures, Value};
use weft_sim::core::simt::Stats;

/// What one run measured: the statistics the studies read, flat, as the JSON records
/// them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    pub cycles: u64,
    pub thread_instructions: u64,
    /// Warp instructions issued (sub-warps with large warps).
    pub warp_instructions: u64,
    /// L1 load lookups: one per distinct line per (sub-)warp instruction, replays included.
    pub l1_loads: u64,
    /// Store requests written through.
    pub l1_stores: u64,
    pub dram_row_hits: u64,
    /// Warp-cycles spent waiting at a barrier.
    pub barrier_stalls: u64,
    pub ipc: f64,
    pub simd_utilisation: f64,
    pub idle_fraction: f64,
    pub active_lanes_histogram: Vec<u64>,
    pub host_seconds: f64,
    /// Thread block compaction's counts and what they are read beside (the CAPRI study's
    /// runs; absent from the others', so their data stays as recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compaction: Option<Compaction>,
    /// Diverge on miss's counts and the memory figures read beside them (the DoM
    /// study's runs only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_divergence: Option<MemoryDivergence>,
    /// What the VGIW study reads of a run on either of its machines (its runs only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataflow: Option<Dataflow>,
}

/// What a run of the VGIW study counted, on the SIMT core or the VGIW engine: its energy
/// events, Fig. 3's accesses, the memory figures, and on VGIW the lowered kernel's size
/// and the engine's counts (zero on the SIMT core).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Dataflow {
    /// The run's energy events (charged under the energy table when the page renders).
    pub energy: crate::vgiw::energy::Breakdown,
    /// SIMT: register-file accesses, one per warp-wide operand read or result write.
    pub register_file_accesses: u64,
    /// VGIW: live value cache reads and writes (words), its spills and read misses.
    pub lvc_accesses: u64,
    pub lvc_spills: u64,
    pub lvc_read_misses: u64,
    pub l1_misses: u64,
    /// VGIW: L1 accesses that waited for their bank.
    pub l1_bank_conflicts: u64,
    pub dram_bytes: u64,
    /// VGIW: the lowered operations executed (per thread), the lowered kernel's blocks,
    /// live values (the most one block touches) and memory-order edges.
    pub operations: u64,
    pub blocks: u64,
    pub live_values: u64,
    pub max_block_live_values: u64,
    pub order_edges: u64,
    /// VGIW: block executions (thread vectors sent), blocks run summed over threads,
    /// threads per tile and tiles, reconfigurations and their cycles, replicas summed
    /// over block executions and the most one had.
    pub block_executions: u64,
    pub thread_blocks: u64,
    pub tile: u64,
    pub tiles: u64,
    pub reconfigurations: u64,
    pub reconfiguration_cycles: u64,
    pub replica_sum: u64,
    pub max_replicas: u64,
    /// VGIW: each class's operations over its units times the cycles, in the order
    /// FPU-ALU, special, live value, load/store, split/join, CVU.
    pub unit_utilisation: [f64; 6],
}

/// What a run on the DoM study's machine counted: the memory system, and diverge on
/// miss's decisions (zero under blocking).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MemoryDivergence {
    /// The kernel's global data: the bytes of the ELF's data symbols (inputs, outputs
    /// and references), beside the caches it has to fit in.
    pub data_bytes: u64,
    /// Loads and stores in thread instructions (Table 3's memory operations).
    pub memory_thread_instructions: u64,
    pub l1_misses: u64,
    pub l2_misses: u64,
    pub dram_bytes: u64,
    /// Cycles the core idled waiting for a load's data.
    pub memory_stalls: u64,
    /// Global loads (warp instructions), those that diverged, their threads and the
    /// threads that hit.
    pub loads: u64,
    pub divergent_loads: u64,
    pub divergent_threads: u64,
    pub divergent_hits: u64,
    /// Loads that partly missed but blocked: at the slip limit, with the MDT full, a
    /// line refused.
    pub blocked_slip: u64,
    pub blocked_full: u64,
    pub blocked_mshr: u64,
    /// Loads every thread of which missed.
    pub all_missed: u64,
    /// Threads back at the load's next execution, and by forced reconvergence.
    pub rejoined_threads: u64,
    pub forced: u64,
    pub forced_threads: u64,
    /// Threads back at their loop's exit (`dom_reconverge = loop`).
    #[serde(default)]
    pub exit_threads: u64,
    /// Max-slip at the end, and sampled at `SLIP_SAMPLES` evenly spaced cycles (the
    /// value in force at cycles `i * cycles / SLIP_SAMPLES`).
    pub max_slip_end: u64,
    pub max_slip_samples: Vec<u64>,
}

/// How many evenly spaced samples of the max-slip a run records.
pub const SLIP_SAMPLES: u64 = 32;

impl MemoryDivergence {
    pub fn of(stats: &Stats) -> Result<MemoryDivergence, String> {
        let f = stats.figures();
        let mut m = MemoryDivergence {
            memory_thread_instructions: f.count("memory_thread_instructions")?,
            l1_misses: f.count("l1_misses")?,
            l2_misses: f.count("l2_misses")?,
            dram_bytes: f.count("dram_bytes")?,
            memory_stalls: f.count("stalls_memory")?,
            ..MemoryDivergence::default()
        };
        if let DivergenceStats::Dom(d) = &stats.divergence {
            m.loads = d.loads;
            m.divergent_loads = d.divergent_loads;
            m.divergent_threads = d.divergent_threads;
            m.divergent_hits = d.divergent_hits;
            m.blocked_slip = d.blocked_slip;
            m.blocked_full = d.blocked_full;
            m.blocked_mshr = d.blocked_mshr;
            m.all_missed = d.all_missed;
            m.rejoined_threads = d.rejoined_threads;
            m.forced = d.forced;
            m.forced_threads = d.forced_threads;
            m.exit_threads = d.exit_threads;
            m.max_slip_end = d.max_slip.last().map_or(0, |&(_, s)| u64::from(s));
            m.max_slip_samples = (0..SLIP_SAMPLES)
                .map(|i| {
                    let at = i * stats.cycles / SLIP_SAMPLES;
                    // The steps are in cycle order; the last one at or before `at`.
                    let k = d.max_slip.partition_point(|&(c, _)| c <= at);
                    d.max_slip[k.saturating_sub(1)].1.into()
                })
                .collect();
        }
        Ok(m)
    }
}

/// What a run under thread block compaction counted (zero for what a policy does not
/// count: WPDOM makes no compaction decisions), and the launch and memory figures its
/// study reads beside them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Compaction {
    /// The launch: threads in all, threads per CTA.
    pub threads: u32,
    pub cta_threads: u32,
    pub idle_cycles: u64,
    pub l1_misses: u64,
    pub l2_misses: u64,
    /// Idle cycles where some warp waits for its CTA's stack.
    pub compaction_stalls: u64,
    /// The other idle cycles by reason (with `compaction_stalls` they sum to
    /// `idle_cycles`): the memory unit busy with an earlier instruction's lines, a
    /// load's data not back, a barrier, every warp in the pipeline, no warp, the last
    /// stores draining.
    pub idle_memory_serialization: u64,
    pub idle_memory: u64,
    pub idle_barrier: u64,
    pub idle_pipeline: u64,
    pub idle_empty: u64,
    pub idle_drain: u64,
    /// L1 load lookups (one per distinct line per warp instruction).
    pub l1_loads: u64,
    /// Cores x cycles: the busy core-cycles (lanes at work) plus `idle_cycles`.
    pub core_cycles: u64,
    /// Branch instances resolved, and those where compaction pays (adequate).
    pub branch_instances: u64,
    pub adequate_instances: u64,
    /// The decisions against the oracle's labels: (decision, ideal).
    pub stall_ideal_stall: u64,
    pub stall_ideal_bypass: u64,
    pub bypass_ideal_stall: u64,
    pub bypass_ideal_bypass: u64,
    /// Warps into and out of resolved branches, and warps formed by compaction.
    pub warps_before: u64,
    pub warps_after: u64,
    pub compacted_warps: u64,
    /// CAPT entries valid at most (on any core).
    pub capt_most_entries: u64,
}

impl Compaction {
    /// The counts of `f`; a policy's counts it does not report are zero.
    pub fn of(f: &Figures, w: &Workload, cores: u32) -> Result<Compaction, String> {
        let policy = |key: &str| -> Result<u64, String> {
            if f.0.iter().any(|x| x.key == key) {
                f.count(key)
            } else {
                Ok(0)
            }
        };
        Ok(Compaction {
            threads: w.launch.threads,
            cta_threads: w.launch.cta,
            idle_cycles: f.count("idle_cycles")?,
            l1_misses: f.count("l1_misses")?,
            l2_misses: f.count("l2_misses")?,
            compaction_stalls: f.count("stalls_compaction")?,
            idle_memory_serialization: f.count("stalls_memory_serialization")?,
            idle_memory: f.count("stalls_memory")?,
            idle_barrier: f.count("stalls_barrier")?,
            idle_pipeline: f.count("stalls_pipeline")?,
            idle_empty: f.count("stalls_empty")?,
            idle_drain: f.count("stalls_drain")?,
            l1_loads: f.count("l1_loads")?,
            core_cycles: f.count("cycles")? * u64::from(cores),
            branch_instances: policy("tbc_branch_instances")?,
            adequate_instances: policy("tbc_adequate_instances")?,
            stall_ideal_stall: policy("tbc_stall_ideal_stall")?,
            stall_ideal_bypass: policy("tbc_stall_ideal_bypass")?,
            bypass_ideal_stall: policy("tbc_bypass_ideal_stall")?,
            bypass_ideal_bypass: policy("tbc_bypass_ideal_bypass")?,
            warps_before: policy("tbc_warps_before")?,
            warps_after: policy("tbc_warps_after")?,
            compacted_warps: policy("tbc_compacted_warps")?,
            capt_most_entries: policy("capt_most_entries")?,
        })
    }
}

impl Measured {
    /// The figures the studies read, from the statistics' one projection.
    pub fn of(s: Stats, host_seconds: f64) -> Result<Measured, String> {
        let f = s.figures();
        Ok(Measured {
            cycles: f.count("cycles")?,
            thread_instructions: f.count("thread_instructions")?,
            warp_instructions: f.count("warp_instructions")?,
            l1_loads: f.count("l1_loads")?,
            l1_stores: f.count("l1_stores")?,
            dram_row_hits: f.count("dram_row_hits")?,
            barrier_stalls: f.count("stalls_barrier")?,
            ipc: f.number("ipc")?,
            simd_utilisation: f.number("simd_utilisation")?,
            idle_fraction: f.number("idle_fraction")?,
            active_lanes_histogram: match f.get("active_lanes_histogram")? {
                Value::Counts(h) => h.clone(),
                v => return Err(format!("active_lanes_histogram is {v:?}")),
            },
            host_seconds,
            compaction: None,
            memory_divergence: None,
            dataflow: None,
        })
    }
}

/// Runs `w` on the SIMT core with `machine`.
pub fn simt(w: &Workload, machine: &Machine) -> Result<Measured, String> {
    let run = run_to_end(w, machine).map_err(|e| format!("{}: {e}", w.name))?;
    Measured::of(run.stats, run.seconds)
}

/// Runs `w` on the SIMT core with `machine`, with thread block compaction's counts.
pub fn simt_with_compaction(w: &Workload, machine: &Machine) -> Result<Measured, String> {
    let run = run_to_end(w, machine).map_err(|e| format!("{}: {e}", w.name))?;
    let compaction = Compaction::of(&run.stats.figures(), w, machine.cores)
        .map_err(|e| format!("{}: {e}", w.name))?;
    Ok(Measured {
        compaction: Some(compaction),
        ..Measured::of(run.stats, run.seconds)?
    })
}

/// Runs `w` on the SIMT core with `machine`, with diverge on miss's counts.
pub fn simt_with_memory_divergence(w: &Workload, machine: &Machine) -> Result<Measured, String> {
    let run = run_to_end(w, machine).map_err(|e| format!("{}: {e}", w.name))?;
    let mut counts = MemoryDivergence::of(&run.stats).map_err(|e| format!("{}: {e}", w.name))?;
    counts.data_bytes = w
        .image
        .symbols
        .values()
        .filter(|s| !w.image.is_text(s.addr))
        .map(|s| u64::from(s.size))
        .sum();
    Ok(Measured {
        memory_divergence: Some(counts),
        ..Measured::of(run.stats, run.seconds)?
    })
}

/// The machine `--machine NAME|FILE.toml` and `--set KEY=VALUE`... describe.
pub fn machine(name: &str, sets: &[String]) -> Result<Machine, String> {
    let mut m = if name.ends_with(".toml") {
        let text = std::fs::read_to_string(name).map_err(|e| format!("{name}: {e}"))?;
        Machine::from_toml(&text).map_err(|e| format!("{name}: {e}"))?
    } else {
        Machine::preset(name)?
    };
    m.set_all(sets).map_err(|e| format!("--set: {e}"))?;
    Ok(m)
}
