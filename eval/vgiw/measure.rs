//! What the VGIW study measures of a run on either of its machines beyond every study's
//! figures: energy events, Fig. 3's accesses, the memory figures, and on VGIW the lowered
//! kernel's size and the engine's counts.
use super::energy;
use crate::measure::Measured;
use crate::workload::{unlimited, Workload};
use serde::{Deserialize, Serialize};
use std::time::Instant;
use weft_sim::core::dataflow::engine;
use weft_sim::core::functional::{self, Program};
use weft_sim::core::machine::{Machine, VgiwAlias};
use weft_sim::core::simt::Stats as SimtStats;
use weft_sim::core::timed::{self, Counted};

/// The VGIW study's own counts of a run (`dataflow` in its JSON).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    pub dataflow: Dataflow,
}

/// What a run of the VGIW study counted, on the SIMT core or the VGIW engine: its energy
/// events, Fig. 3's accesses, the memory figures, and on VGIW the lowered kernel's size
/// and the engine's counts (zero on the SIMT core).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Dataflow {
    /// The run's energy events (charged under the energy table when the page renders).
    pub energy: energy::Breakdown,
    /// SIMT: register-file accesses, one per warp-wide operand read or result write.
    pub register_file_accesses: u64,
    /// VGIW: live value cache reads and writes (words), its spills and read misses.
    pub lvc_accesses: u64,
    pub lvc_spills: u64,
    pub lvc_read_misses: u64,
    pub l1_misses: u64,
    /// Lines the L1 fetched (misses that took an MSHR), and on VGIW those fetched
    /// because a store missed (the L1's write allocation).
    pub l1_fetches: u64,
    pub store_fetches: u64,
    /// VGIW: L1 accesses that waited for their bank.
    pub l1_bank_conflicts: u64,
    /// DRAM bytes moved, read, and read by the L2's write allocation.
    pub dram_bytes: u64,
    pub dram_read_bytes: u64,
    pub dram_allocate_bytes: u64,
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

/// One run of `w` on `machine`: the SIMT core or the VGIW engine, as its timing says.
pub fn measure(w: &Workload, machine: &Machine) -> Result<Measured<Counts>, String> {
    let started = Instant::now();
    let run = timed::run(
        Program::new(w.image.clone()),
        w.launch,
        machine,
        unlimited(),
    )
    .map_err(|e| format!("{}: {e}", w.name))?;
    match run.stats {
        Counted::Simt(s) => simt(machine, s, run.seconds),
        Counted::Vgiw(s) => vgiw(w, machine, s, started),
    }
    .map_err(|e| format!("{}: {e}", w.name))
}

/// A run on the SIMT core: the sweep's figures, its energy events and what Fig. 3 counts
/// (register-file accesses, one per warp-wide operand read or result write).
fn simt(machine: &Machine, stats: SimtStats, seconds: f64) -> Result<Measured<Counts>, String> {
    let table = energy::Table::published()?;
    let s = &stats;
    let dataflow = Dataflow {
        energy: energy::simt(&table, s, machine),
        register_file_accesses: s.register_reads + s.register_writes,
        l1_misses: s.l1.misses,
        l1_fetches: s.l1.misses - s.l1.merged,
        dram_bytes: s.dram.bytes,
        dram_read_bytes: s.dram.read_bytes,
        dram_allocate_bytes: s.dram.allocate_bytes,
        ..Dataflow::default()
    };
    Ok(Measured::of(stats, seconds)?.with(Counts { dataflow }))
}

/// A run on the VGIW engine; the RV32 thread instructions come from the functional run
/// of the same binary (the work both machines do), the lowered kernel's size from the
/// lowering the engine runs.
fn vgiw(
    w: &Workload,
    machine: &Machine,
    stats: engine::Stats,
    started: Instant,
) -> Result<Measured<Counts>, String> {
    let functional = functional::run(Program::new(w.image.clone()), w.launch, u64::MAX)?;
    let counts = engine::lowered(&Program::new(w.image.clone()), machine)?.counts();
    // The order edges the engine times (none with `vgiw_alias = none`).
    let order_edges = match machine.vgiw_engine().alias {
        VgiwAlias::None => 0,
        _ => counts.order_edges,
    };
    let s = &stats;
    let table = energy::Table::published()?;
    let u = &s.unit_utilisation;
    let dataflow = Dataflow {
        energy: energy::vgiw(&table, s, machine),
        register_file_accesses: 0,
        lvc_accesses: s.lvc_reads + s.lvc_writes,
        lvc_spills: s.lvc_spills,
        lvc_read_misses: s.lvc_read_misses,
        l1_misses: s.l1.misses,
        l1_fetches: s.l1.misses - s.l1.merged,
        store_fetches: s.store_fetches,
        l1_bank_conflicts: s.l1_bank_conflicts,
        dram_bytes: s.dram.bytes,
        dram_read_bytes: s.dram.read_bytes,
        dram_allocate_bytes: s.dram.allocate_bytes,
        operations: s.thread_instructions,
        blocks: counts.blocks as u64,
        live_values: counts.live_values as u64,
        max_block_live_values: counts.max_block_live_values as u64,
        order_edges: order_edges as u64,
        block_executions: s.block_executions,
        thread_blocks: s.thread_blocks,
        tile: u64::from(s.tile),
        tiles: s.tiles,
        reconfigurations: s.reconfigurations,
        reconfiguration_cycles: s.reconfiguration_cycles,
        replica_sum: s.replica_sum,
        max_replicas: u64::from(s.max_replicas),
        unit_utilisation: [
            u.alu,
            u.special,
            u.live_value,
            u.load_store,
            u.split_join,
            u.cvu,
        ],
    };
    let thread_instructions = functional.thread_instructions;
    Ok(Measured {
        cycles: s.cycles,
        thread_instructions,
        warp_instructions: 0,
        l1_loads: s.l1.loads,
        l1_stores: s.l1.stores,
        dram_row_hits: s.dram.row_hits,
        barrier_stalls: 0,
        ipc: thread_instructions as f64 / s.cycles.max(1) as f64,
        simd_utilisation: 0.0,
        idle_fraction: 0.0,
        active_lanes_histogram: vec![],
        host_seconds: started.elapsed().as_secs_f64(),
        counts: Counts { dataflow },
    })
}
