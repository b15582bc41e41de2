//! What one run measured.
use crate::workload::{run_to_end, Workload};
use serde::{Deserialize, Serialize};
use weft_sim::core::machine::Machine;
use weft_sim::core::simt::stats::Value;
use weft_sim::core::simt::Stats;

/// What one run measured: the statistics every study reads, flat, as the JSON records
/// them, and the study's own counts (`X`, its [`crate::Study::Counts`]; nothing by
/// default) beside them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Measured<X = ()> {
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
    /// The study's own counts: their fields sit beside the common ones in the JSON.
    #[serde(flatten)]
    pub counts: X,
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
            counts: (),
        })
    }
}

impl<X> Measured<X> {
    /// The same run with the study's own `counts`.
    pub fn with<Y>(self, counts: Y) -> Measured<Y> {
        Measured {
            cycles: self.cycles,
            thread_instructions: self.thread_instructions,
            warp_instructions: self.warp_instructions,
            l1_loads: self.l1_loads,
            l1_stores: self.l1_stores,
            dram_row_hits: self.dram_row_hits,
            barrier_stalls: self.barrier_stalls,
            ipc: self.ipc,
            simd_utilisation: self.simd_utilisation,
            idle_fraction: self.idle_fraction,
            active_lanes_histogram: self.active_lanes_histogram,
            host_seconds: self.host_seconds,
            counts,
        }
    }
}

/// Runs `w` on the SIMT core with `machine`.
pub fn simt(w: &Workload, machine: &Machine) -> Result<Measured, String> {
    let run = run_to_end(w, machine).map_err(|e| format!("{}: {e}", w.name))?;
    Measured::of(run.stats, run.seconds)
}
