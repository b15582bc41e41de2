//! What the DoM study measures of a run beyond every study's figures: the memory system,
//! and diverge on miss's decisions.
use crate::measure::Measured;
use crate::workload::{run_to_end, Workload};
use serde::{Deserialize, Serialize};
use weft_sim::core::machine::Machine;
use weft_sim::core::simt::divergence::DivergenceStats;
use weft_sim::core::simt::Stats;

/// The DoM study's own counts of a run (`memory_divergence` in its JSON).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    pub memory_divergence: MemoryDivergence,
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

/// Runs `w` on the SIMT core with `machine`, with diverge on miss's counts.
pub fn measure(w: &Workload, machine: &Machine) -> Result<Measured<Counts>, String> {
    let run = run_to_end(w, machine).map_err(|e| format!("{}: {e}", w.name))?;
    let mut counts = MemoryDivergence::of(&run.stats).map_err(|e| format!("{}: {e}", w.name))?;
    counts.data_bytes = w
        .image
        .symbols
        .values()
        .filter(|s| !w.image.is_text(s.addr))
        .map(|s| u64::from(s.size))
        .sum();
    Ok(Measured::of(run.stats, run.seconds)?.with(Counts {
        memory_divergence: counts,
    }))
}
