//! What one run measured, and the machine a command line describes.
use crate::workload::{run_to_end, Workload};
use serde::Serialize;
use weft_sim::core::machine::Machine;
use weft_sim::core::simt::Stats;

/// What one run measured: the statistics the studies read, flat, as the JSON records
/// them.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
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
}

impl Measured {
    /// The one projection of the core's statistics the studies read.
    pub fn of(s: Stats, host_seconds: f64) -> Measured {
        Measured {
            cycles: s.cycles,
            thread_instructions: s.thread_instructions,
            warp_instructions: s.warp_instructions,
            l1_loads: s.l1.loads,
            l1_stores: s.l1.stores,
            dram_row_hits: s.dram.row_hits,
            barrier_stalls: s.stalls.barrier,
            ipc: s.ipc,
            simd_utilisation: s.simd_utilisation,
            idle_fraction: s.idle_fraction,
            active_lanes_histogram: s.active_lanes_histogram,
            host_seconds,
        }
    }
}

/// Runs `w` on the SIMT core with `machine`.
pub fn simt(w: &Workload, machine: &Machine) -> Result<Measured, String> {
    let run = run_to_end(w, machine).map_err(|e| format!("{}: {e}", w.name))?;
    Ok(Measured::of(run.stats, run.seconds))
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
