//! `weft eval vgiw`: the VGIW paper's §5 on weft's machines and kernels, with the cost of
//! the hardware measured on weft's RTL. Every workload of `kernels/vgiw/` (Rodinia's
//! kernels of the paper's Table 2, in C) runs on one Fermi SM (`fermi`, the SIMT core)
//! and on one VGIW core (the `vgiw` preset, the paper-scale engine of
//! `sim/core/dataflow/engine.rs`) from the same RV32 binary, the VGIW core at four
//! counts of threads in flight per replica (the preset's 30, derived from §3.4).
//! The page (`vgiw.md`), the data (`vgiw.json`) and the charts (`vgiw-*.svg`) are
//! written to `--out`.
//!
//! Speedup is the Fermi SM's cycles over the VGIW core's (both at 1.4 GHz): every point
//! of a workload runs the same RV32 thread instructions (the VGIW runs record the
//! functional run's count beside their own lowered operations), so the sweep's
//! normalised IPC is that ratio. Energy is each run's events times `energy.toml`'s
//! per-event energies, charged again when the page renders.
pub mod energy;
mod page;
pub mod paper;

use crate::measure::{Dataflow, Measured};
use crate::page::Page;
use crate::sweep::Runs;
use crate::workload::{run_to_end, Workload};
use crate::Study;
use std::time::Instant;
use weft_sim::core::dataflow::{engine, lower};
use weft_sim::core::functional::{self, Program};
use weft_sim::core::machine::{Machine, Timing};

pub const NAME: &str = "vgiw";

/// Threads in flight per replica on the VGIW core (`vgiw_replica_threads`): the preset's
/// 30, derived from §3.4's token-buffer storage (see `Machine::vgiw`), and the
/// sensitivity around it.
pub const REPLICA_THREADS: [u32; 4] = [16, 30, 64, 256];

/// One configuration of the study.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Point {
    /// One Fermi SM: the `fermi` preset, the baseline.
    Fermi,
    /// One VGIW core: the `vgiw` preset with `replica_threads` threads in flight per
    /// replica.
    Vgiw { replica_threads: u32 },
}

/// The study.
pub struct Vgiw {
    /// The `vgiw` preset as `--set` assignments over `fermi`.
    vgiw_sets: Vec<String>,
    /// The preset's threads in flight per replica.
    pub preset_threads: u32,
}

impl Default for Vgiw {
    fn default() -> Self {
        Vgiw::new()
    }
}

impl Vgiw {
    pub fn new() -> Vgiw {
        Vgiw {
            vgiw_sets: preset_sets(&Machine::fermi(), &Machine::vgiw()),
            preset_threads: Machine::vgiw().vgiw_replica_threads,
        }
    }

    /// The VGIW point at the preset's threads in flight.
    pub fn preset_point(&self) -> Point {
        Point::Vgiw {
            replica_threads: self.preset_threads,
        }
    }
}

/// The `KEY=VALUE` assignments that turn machine `from` into `to`: every key whose value
/// differs, in the keys' order.
pub fn preset_sets(from: &Machine, to: &Machine) -> Vec<String> {
    from.values()
        .into_iter()
        .zip(to.values())
        .filter(|(a, b)| a.1 != b.1)
        .map(|(_, (key, value))| format!("{key}={value}"))
        .collect()
}

impl Study for Vgiw {
    type Point = Point;

    fn name(&self) -> &'static str {
        NAME
    }

    fn machine(&self) -> &'static str {
        "fermi"
    }

    fn workloads_dir(&self) -> &'static str {
        "kernels/vgiw"
    }

    fn order(&self) -> Vec<&'static str> {
        paper::KERNELS.iter().map(|k| k.name).collect()
    }

    fn points(&self) -> Vec<Point> {
        let mut all = vec![Point::Fermi];
        all.extend(
            REPLICA_THREADS
                .iter()
                .map(|&replica_threads| Point::Vgiw { replica_threads }),
        );
        all
    }

    fn baseline(&self) -> Point {
        Point::Fermi
    }

    fn sets(&self, p: &Point) -> Vec<String> {
        match *p {
            Point::Fermi => vec![],
            Point::Vgiw { replica_threads } => {
                let mut sets = self.vgiw_sets.clone();
                sets.push(format!("vgiw_replica_threads={replica_threads}"));
                sets
            }
        }
    }

    fn label(&self, p: &Point) -> String {
        match *p {
            Point::Fermi => "Fermi SM".into(),
            Point::Vgiw { replica_threads } => {
                format!("VGIW, {replica_threads} threads per replica")
            }
        }
    }

    fn recorded_keys(&self) -> &'static [&'static str] {
        &["timing", "l1_kb", "l1_ways", "vgiw_replica_threads"]
    }

    fn measure(&self, w: &Workload, machine: &Machine) -> Result<Measured, String> {
        match machine.timing {
            Timing::Simt => simt(w, machine),
            Timing::Vgiw => vgiw(w, machine),
        }
        .map_err(|e| format!("{}: {e}", w.name))
    }

    fn page(&self, runs: &Runs<Point>) -> Page {
        page::page(self, runs)
    }
}

/// The DRAM's bytes per core cycle on machine `m`.
pub fn dram_bytes_per_cycle(m: &Machine) -> f64 {
    m.dram_gbps * 1e3 / m.clock_mhz
}

/// A run on the SIMT core: the sweep's figures, its energy events and what Fig. 3 counts
/// (register-file accesses, one per warp-wide operand read or result write).
fn simt(w: &Workload, machine: &Machine) -> Result<Measured, String> {
    let run = run_to_end(w, machine)?;
    let table = energy::Table::published()?;
    let s = &run.stats;
    let dataflow = Dataflow {
        energy: energy::simt(&table, s, machine),
        register_file_accesses: s.register_reads + s.register_writes,
        l1_misses: s.l1.misses,
        dram_bytes: s.dram.bytes,
        ..Dataflow::default()
    };
    Ok(Measured {
        dataflow: Some(dataflow),
        ..Measured::of(run.stats, run.seconds)?
    })
}

/// A run on the VGIW engine; the RV32 thread instructions come from the functional run
/// of the same binary (the work both machines do), the lowered kernel's size from the
/// lowering the engine runs.
fn vgiw(w: &Workload, machine: &Machine) -> Result<Measured, String> {
    let started = Instant::now();
    let functional = functional::run(Program::new(w.image.clone()), w.launch, u64::MAX)?;
    let counts = lower::lower(&Program::new(w.image.clone()))?.counts();
    let run = engine::run(Program::new(w.image.clone()), w.launch, machine, u64::MAX)?;
    let s = &run.stats;
    let table = energy::Table::published()?;
    let u = &s.unit_utilisation;
    let dataflow = Dataflow {
        energy: energy::vgiw(&table, s, machine),
        register_file_accesses: 0,
        lvc_accesses: s.lvc_reads + s.lvc_writes,
        lvc_spills: s.lvc_spills,
        lvc_read_misses: s.lvc_read_misses,
        l1_misses: s.l1.misses,
        l1_bank_conflicts: s.l1_bank_conflicts,
        dram_bytes: s.dram.bytes,
        operations: s.thread_instructions,
        blocks: counts.blocks as u64,
        live_values: counts.live_values as u64,
        max_block_live_values: counts.max_block_live_values as u64,
        order_edges: counts.order_edges as u64,
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
        compaction: None,
        memory_divergence: None,
        dataflow: Some(dataflow),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vgiw_points_are_the_vgiw_preset_over_fermi() {
        let study = Vgiw::new();
        let mut m = Machine::fermi();
        m.set_all(&study.sets(&study.preset_point())).unwrap();
        assert_eq!(m, Machine::vgiw());
        assert!(study.vgiw_sets.iter().any(|s| s == "timing=\"vgiw\""));
        assert!(REPLICA_THREADS.contains(&study.preset_threads));
        assert_eq!(study.sets(&Point::Fermi), Vec::<String>::new());
        // Each point differs from the preset in its threads in flight alone.
        for t in REPLICA_THREADS {
            let mut m = Machine::fermi();
            m.set_all(&study.sets(&Point::Vgiw { replica_threads: t }))
                .unwrap();
            assert_eq!(
                m,
                Machine {
                    vgiw_replica_threads: t,
                    ..Machine::vgiw()
                }
            );
        }
        assert_eq!(preset_sets(&m, &m), Vec::<String>::new());
    }

    #[test]
    fn the_dram_moves_its_share_of_bytes_per_core_cycle() {
        // fermi: 11.83 GB/s at 1.4 GHz is 8.45 bytes per cycle.
        let b = dram_bytes_per_cycle(&Machine::fermi());
        assert!((b - 11.83 / 1.4).abs() < 1e-9, "{b}");
    }
}
