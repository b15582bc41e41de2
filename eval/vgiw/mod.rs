//! `weft eval vgiw`: the VGIW paper's §5 on weft's machines and kernels, with the cost of
//! the hardware measured on weft's RTL. Every workload of `kernels/vgiw/` (Rodinia's
//! kernels of the paper's Table 2, in C) runs on one Fermi SM (`fermi`, the SIMT core)
//! and on one VGIW core (the `vgiw` preset, the paper-scale engine of
//! `sim/core/dataflow/engine.rs`) from the same RV32 binary, the VGIW core at four
//! counts of threads in flight per replica (the paper gives none; the preset's is 64).
//! The page (`vgiw.md`), the data (`vgiw.json`) and the charts (`vgiw-*.svg`) are
//! written to `--out`.
//!
//! Speedup is the Fermi SM's cycles over the VGIW core's (both at 1.4 GHz): every point
//! of a workload runs the same RV32 thread instructions (the VGIW runs record the
//! functional run's count beside their own lowered operations), so the sweep's
//! normalised IPC is that ratio. Energy is each run's events times `energy.toml`'s
//! per-event energies, charged again when the page renders.
pub mod energy;
pub mod measure;
mod page;
pub mod paper;

use crate::measure::Measured;
use crate::page::Page;
use crate::sweep::Runs;
use crate::workload::Workload;
use crate::Study;
use measure::Counts;
use weft_sim::core::machine::Machine;

pub const NAME: &str = "vgiw";

/// Threads in flight per replica on the VGIW core (`vgiw_replica_threads`): the
/// sensitivity the paper leaves open (its virtual channels per unit are not given).
pub const REPLICA_THREADS: [u32; 4] = [32, 64, 256, 1024];

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
            preset_threads: Machine::vgiw().vgiw_engine().replica_threads,
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
    type Counts = Counts;

    const NAME: &'static str = NAME;

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

    fn measure(&self, w: &Workload, machine: &Machine) -> Result<Measured<Counts>, String> {
        measure::measure(w, machine)
    }

    fn page(&self, runs: &Runs<Point, Counts>) -> Page {
        page::page(self, runs)
    }
}

/// The DRAM's bytes per core cycle on machine `m`.
pub fn dram_bytes_per_cycle(m: &Machine) -> f64 {
    m.dram_bytes_per_cycle()
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
            let replica_threads = format!("vgiw_replica_threads={t}");
            assert_eq!(m, Machine::vgiw().with(&[replica_threads]).unwrap());
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
