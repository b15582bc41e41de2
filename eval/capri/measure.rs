//! What the CAPRI study measures of a run beyond every study's figures: thread block
//! compaction's counts and the launch and memory figures read beside them.
use crate::measure::Measured;
use crate::workload::{run_to_end, Workload};
use serde::{Deserialize, Serialize};
use weft_sim::core::machine::Machine;
use weft_sim::core::simt::stats::Figures;

/// The CAPRI study's own counts of a run (`compaction` in its JSON).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    pub compaction: Compaction,
}

/// What a run under thread block compaction counted (zero for what a policy does not
/// count: WPDOM makes no compaction decisions), and the launch and memory figures its
/// study reads beside them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Compaction {
    /// The launch: threads in all, threads per CTA.
    pub threads: u32,
    pub cta_threads: u32,
    /// CTAs a core holds at once at most (the occupancy limit).
    pub ctas_per_core: u64,
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
    /// Warp-cycles stalled warps waited for their CTA, by what the branch instance was:
    /// a jump; a branch proven uniform; one the CTA's threads all took one way (not
    /// proven); warp-uniform but CTA-divergent; one a warp split on.
    pub wait_jump: u64,
    pub wait_uniform: u64,
    pub wait_cta_uniform: u64,
    pub wait_warp_uniform: u64,
    pub wait_divergent: u64,
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
            ctas_per_core: f.count("ctas_per_core")?,
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
            wait_jump: policy("tbc_wait_jump")?,
            wait_uniform: policy("tbc_wait_uniform")?,
            wait_cta_uniform: policy("tbc_wait_cta_uniform")?,
            wait_warp_uniform: policy("tbc_wait_warp_uniform")?,
            wait_divergent: policy("tbc_wait_divergent")?,
        })
    }
}

/// Runs `w` on the SIMT core with `machine`, with thread block compaction's counts; a
/// run that leaves other memory than the workload's functional run is an error.
pub fn measure(w: &Workload, machine: &Machine) -> Result<Measured<Counts>, String> {
    let run = run_to_end(w, machine).map_err(|e| format!("{}: {e}", w.name))?;
    w.check_memory(&run.image)?;
    let compaction = Compaction::of(&run.stats.figures(), w, machine.core().cores)
        .map_err(|e| format!("{}: {e}", w.name))?;
    Ok(Measured::of(run.stats, run.seconds)?.with(Counts { compaction }))
}
