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
pub mod measure;
mod page;
pub mod paper;

use crate::measure::Measured;
use crate::page::Page;
use crate::sweep::Runs;
use crate::workload::Workload;
use crate::Study;
use measure::Counts;
use weft_sim::core::machine::{reader, Machine, Reader};

pub const NAME: &str = "vgiw";

/// Threads in flight per replica on the VGIW core (`vgiw_replica_threads`): the preset's
/// 30, derived from §3.4's token-buffer storage (see `Keys::vgiw`), and the
/// sensitivity around it.
pub const REPLICA_THREADS: [u32; 4] = [16, 30, 64, 256];

/// A row of "From weft to the paper": the machines with the causes of a difference from
/// the paper switched one at a time, in this order, from the published page's machines
/// (`Published`) to the presets (`Threads`). Each row keeps the switches before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Row {
    /// The machines of the page as first published.
    Published,
    /// The lowering tells distinct data objects apart (`vgiw_alias = object`).
    Alias,
    /// A store is done when the L1 accepts it (`vgiw_store_done = accept`).
    Store,
    /// Launch values are configuration constants (`vgiw_launch_constants = true`).
    Args,
    /// Both machines' L2 write-back with write allocation (`l2_write_allocate = true`).
    L2,
    /// Both machines' L1 hit in 2 cycles (`l1_latency`, `private_latency`).
    L1,
    /// §3.4's 30 threads in flight per replica: the presets.
    Threads,
}

impl Row {
    pub const ALL: [Row; 7] = [
        Row::Published,
        Row::Alias,
        Row::Store,
        Row::Args,
        Row::L2,
        Row::L1,
        Row::Threads,
    ];

    /// The row's name on the page.
    pub fn name(self) -> &'static str {
        match self {
            Row::Published => "as published",
            Row::Alias => "+ objects apart",
            Row::Store => "+ stores done on accept",
            Row::Args => "+ launch constants",
            Row::L2 => "+ L2 write-allocate",
            Row::L1 => "+ L1 hit in 2 cycles",
            Row::Threads => "+ 30 threads per replica",
        }
    }

    /// The Fermi SM's point of this row (rows that change nothing on the SIMT core share
    /// it).
    pub fn fermi(self) -> Point {
        match self {
            Row::Published | Row::Alias | Row::Store | Row::Args => Point::Row {
                row: Row::Published,
                vgiw: false,
            },
            Row::L2 => Point::Row {
                row: Row::L2,
                vgiw: false,
            },
            Row::L1 | Row::Threads => Point::Fermi,
        }
    }

    /// The VGIW core's point of this row (the last two are points of the sweep).
    pub fn vgiw(self, preset_threads: u32) -> Point {
        match self {
            Row::L1 => Point::Vgiw {
                replica_threads: PUBLISHED_THREADS,
            },
            Row::Threads => Point::Vgiw {
                replica_threads: preset_threads,
            },
            row => Point::Row { row, vgiw: true },
        }
    }

    /// The published page's values of the switches this row has not made yet, as
    /// `--set` assignments over a preset (the Fermi SM's only when `fermi`).
    pub fn undone(self, fermi: bool) -> Vec<String> {
        SWITCHES
            .iter()
            .filter(|(row, set)| *row > self && (!fermi || reader(set) == Reader::Both))
            .map(|(_, set)| set.to_string())
            .collect()
    }
}

/// The threads in flight per replica of the page as first published (weft's choice then).
pub const PUBLISHED_THREADS: u32 = 64;

/// Each switch of "From weft to the paper": the row that makes it and the published
/// page's value it replaces (the presets have the new one).
pub const SWITCHES: [(Row, &str); 7] = [
    (Row::Alias, "vgiw_alias=\"base\""),
    (Row::Store, "vgiw_store_done=\"fill\""),
    (Row::Args, "vgiw_launch_constants=false"),
    (Row::L2, "l2_write_allocate=false"),
    (Row::L1, "l1_latency=70"),
    (Row::L1, "private_latency=70"),
    (Row::Threads, "vgiw_replica_threads=64"),
];

/// One configuration of the study.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Point {
    /// One Fermi SM: the `fermi` preset, the baseline.
    Fermi,
    /// One VGIW core: the `vgiw` preset with `replica_threads` threads in flight per
    /// replica.
    Vgiw { replica_threads: u32 },
    /// A row of "From weft to the paper" that the sweep's points do not cover: the VGIW
    /// core's (`vgiw`) or the Fermi SM's machine of the row.
    Row { row: Row, vgiw: bool },
}

impl Point {
    /// The points of "From weft to the paper" that are not points of the sweep.
    pub fn rows() -> Vec<Point> {
        let mut rows = vec![];
        for row in Row::ALL {
            for p in [row.fermi(), row.vgiw(0)] {
                if matches!(p, Point::Row { .. }) && !rows.contains(&p) {
                    rows.push(p);
                }
            }
        }
        rows
    }
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
        all.extend(Point::rows());
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
            Point::Row { row, vgiw: false } => row.undone(true),
            Point::Row { row, vgiw: true } => {
                let mut sets = self.vgiw_sets.clone();
                sets.extend(row.undone(false));
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
            Point::Row { row, vgiw } => {
                let machine = if vgiw { "VGIW" } else { "Fermi SM" };
                format!("{machine}, {}", row.name())
            }
        }
    }

    fn recorded_keys(&self) -> &'static [&'static str] {
        &[
            "timing",
            "l1_kb",
            "l1_ways",
            "l1_latency",
            "l2_write_allocate",
            "vgiw_replica_threads",
            "vgiw_alias",
            "vgiw_store_done",
            "vgiw_launch_constants",
        ]
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

    /// Each row's points are the presets with the switches it has not made undone: the
    /// sweep's points where they coincide, and the published page's machines at the first
    /// row (GPGPU-Sim 4.x's 70-cycle L1, a write-through L2, the `base` rule, stores done
    /// on their fill, arguments loaded, 64 threads per replica).
    #[test]
    fn each_row_of_from_weft_to_the_paper_undoes_the_switches_after_it() {
        let study = Vgiw::new();
        let machine = |p: Point| {
            let mut m = Machine::fermi();
            m.set_all(&study.sets(&p)).unwrap();
            m
        };
        for row in Row::ALL {
            let fermi = Machine::fermi().with(&row.undone(true)).unwrap();
            let vgiw = Machine::vgiw().with(&row.undone(false)).unwrap();
            assert_eq!(machine(row.fermi()), fermi, "{row:?}");
            assert_eq!(machine(row.vgiw(study.preset_threads)), vgiw, "{row:?}");
            assert!(study.points().contains(&row.fermi()));
            assert!(study.points().contains(&row.vgiw(study.preset_threads)));
        }
        // The ends: the published machines and the presets.
        let first = machine(Row::Published.vgiw(study.preset_threads));
        let k = first.keys();
        assert_eq!(
            (k.l1_latency, k.l2_write_allocate, k.vgiw_replica_threads),
            (70, false, 64)
        );
        assert!(!k.vgiw_launch_constants);
        assert_eq!(machine(Row::Published.fermi()).keys().l1_latency, 70);
        assert_eq!(
            machine(Row::Threads.vgiw(study.preset_threads)),
            Machine::vgiw()
        );
        assert_eq!(machine(Row::Threads.fermi()), Machine::fermi());
        // Each switch changes the presets.
        for (_, set) in SWITCHES {
            assert_ne!(
                Machine::vgiw().with(&[set]).unwrap(),
                Machine::vgiw(),
                "{set}"
            );
        }
        assert_eq!(
            Point::rows().len(),
            7,
            "5 VGIW and 2 Fermi points of their own"
        );
    }

    #[test]
    fn the_dram_moves_its_share_of_bytes_per_core_cycle() {
        // fermi: 11.83 GB/s at 1.4 GHz is 8.45 bytes per cycle.
        let b = dram_bytes_per_cycle(&Machine::fermi());
        assert!((b - 11.83 / 1.4).abs() < 1e-9, "{b}");
    }
}
