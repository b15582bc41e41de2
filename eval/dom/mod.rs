//! `weft eval dom`: the DoM paper's §8 on weft's core and kernels, with the cost of the
//! hardware measured on weft's RTL. Every workload of `kernels/dom/` runs on the `dom`
//! machine (one core of the paper's 32, its 1/32 share of the bandwidth) at 1, 2, 4, 8
//! and 16 warps: blocking (the baseline at 1 warp), diverge on miss with adaptive slip,
//! with each fixed max-slip of Fig. 6, both with the private 256 KB L2 of §8.4, and
//! adaptive with an MDT of 16 entries per warp (the paper's is 2) to show what the MDT's
//! size holds back. The page (`dom.md`), the data (`dom.json`) and the charts
//! (`dom-*.svg`) are written to `--out`.
//!
//! Performance is IPC normalised to 1-warp blocking; every point runs the same thread
//! instructions (checked), so a normalised IPC is a ratio of cycles.
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

pub const NAME: &str = "dom";

/// Warps per core, Figs. 4-10.
pub const WARPS: [u32; 5] = [1, 2, 4, 8, 16];

/// Fixed max-slips of Fig. 6 (the paper sweeps without listing its values; 8-bit
/// counters allow up to 255).
pub const SLIPS: [u32; 9] = [1, 2, 4, 8, 16, 32, 64, 128, 255];

/// The L2 of §8.4, KB.
pub const L2_KB: u32 = 256;

/// The MDT entries per warp of the sensitivity point (the paper's M is 2).
pub const LARGE_MDT: u32 = 16;

/// Each kernel's input beside the paper's (§7.3), scaled down to keep a 1-warp run
/// within seconds: (kernel, weft's, the paper's). Chosen before any DoM run; the page
/// reads the differences they make from the counters (an input whose data fits a cache
/// has little to miss).
pub const INPUTS: [(&str, &str, &str); 6] = [
    ("nl", "2 048 particles", "64 000 particles"),
    ("lj", "2 048 particles, one force evaluation", "64 000 particles, 600 time steps"),
    (
        "sa",
        "65 536-base random genome (suffix array), 4 096 queries of 25-200 bases",
        "the Bacillus anthracis genome (suffix tree), batches of 1 M bases in queries of 25-800 bases",
    ),
    (
        "rt",
        "8 202 triangles, 32 x 32 rays, 2 bounces",
        "the conference scene, about 1 M triangles, 1024 x 1024 rays",
    ),
    ("km", "4 096 points x 36 features, 32 centres", "about 0.5 M points x 36 features, 32 centres"),
    ("gf", "2 048 x 128 pixels", "2 048 x 2 048 pixels"),
];

/// Why a kernel's thread instructions per memory op differ from Table 3's, from its code:
/// (kernel, the reason). The paper counted its native applications' instructions by hand
/// (§7.1); weft counts what the RV32 listing executes.
pub const PER_OP: [(&str, &str); 6] = [
    (
        "nl",
        "a neighbour's x, y, z are three 4-byte loads (HOOMD reads one float4) and each list entry a store",
    ),
    (
        "lj",
        "a neighbour's x, y, z are three 4-byte loads (HOOMD reads one float4), beside its index",
    ),
    (
        "sa",
        "a suffix-array binary search: a byte of the query and one of the genome per compared base",
    ),
    (
        "rt",
        "a BVH node's six bounds are six 4-byte loads, and the traversal stack is in private memory (a push and a pop per node)",
    ),
    ("km", "a feature load per subtraction and multiply-add"),
    (
        "gf",
        "nine byte loads per pixel as written (the 3x3 window is reloaded, not slid in registers)",
    ),
];

/// "1 warp", "4 warps".
pub fn warps_text(n: u32) -> String {
    format!("{n} warp{}", if n == 1 { "" } else { "s" })
}

/// One configuration of the study.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Point {
    /// Blocking SIMD execution (a divergence stack per warp), with or without the L2.
    Blocking { warps: u32, l2: bool },
    /// Diverge on miss with adaptive slip, with or without the L2.
    Adaptive { warps: u32, l2: bool },
    /// Diverge on miss with a fixed max-slip.
    Fixed { warps: u32, slip: u32 },
    /// Adaptive with [`LARGE_MDT`] MDT entries per warp.
    LargeMdt { warps: u32 },
}

impl Point {
    pub fn warps(&self) -> u32 {
        match *self {
            Point::Blocking { warps, .. }
            | Point::Adaptive { warps, .. }
            | Point::Fixed { warps, .. }
            | Point::LargeMdt { warps } => warps,
        }
    }
}

/// The study.
pub struct Dom {
    mdt_entries: u32,
}

impl Default for Dom {
    fn default() -> Self {
        Dom::new()
    }
}

impl Dom {
    pub fn new() -> Dom {
        Dom {
            mdt_entries: Machine::dom().keys().dom_mdt_entries,
        }
    }
}

impl Study for Dom {
    type Point = Point;
    type Counts = Counts;

    const NAME: &'static str = NAME;

    fn machine(&self) -> &'static str {
        "dom"
    }

    fn workloads_dir(&self) -> &'static str {
        "kernels/dom"
    }

    fn order(&self) -> Vec<&'static str> {
        paper::TABLE3.iter().map(|k| k.name).collect()
    }

    fn points(&self) -> Vec<Point> {
        let mut all = vec![];
        for l2 in [false, true] {
            for warps in WARPS {
                all.push(Point::Blocking { warps, l2 });
                all.push(Point::Adaptive { warps, l2 });
            }
        }
        for warps in WARPS {
            all.extend(SLIPS.iter().map(|&slip| Point::Fixed { warps, slip }));
        }
        all.extend(WARPS.iter().map(|&warps| Point::LargeMdt { warps }));
        all
    }

    fn baseline(&self) -> Point {
        Point::Blocking {
            warps: 1,
            l2: false,
        }
    }

    fn sets(&self, p: &Point) -> Vec<String> {
        let (divergence, adaptive, slip, l2, entries) = match *p {
            Point::Blocking { l2, .. } => ("pdom", true, 8, l2, self.mdt_entries),
            Point::Adaptive { l2, .. } => ("dom", true, 8, l2, self.mdt_entries),
            Point::Fixed { slip, .. } => ("dom", false, slip, false, self.mdt_entries),
            Point::LargeMdt { .. } => ("dom", true, 8, false, LARGE_MDT),
        };
        let warps = p.warps();
        vec![
            format!("divergence={divergence}"),
            format!("warps={warps}"),
            // One fetch group of every warp: plain round robin, as the paper's.
            format!("fetch_group={warps}"),
            format!("l2_kb={}", if l2 { L2_KB } else { 0 }),
            format!("dom_adaptive={adaptive}"),
            format!("dom_max_slip={slip}"),
            format!("dom_mdt_entries={entries}"),
        ]
    }

    fn label(&self, p: &Point) -> String {
        let w = warps_text;
        match *p {
            Point::Blocking { warps, l2: false } => format!("blocking, {}", w(warps)),
            Point::Blocking { warps, l2: true } => format!("blocking + L2, {}", w(warps)),
            Point::Adaptive { warps, l2: false } => format!("DoM adaptive, {}", w(warps)),
            Point::Adaptive { warps, l2: true } => format!("DoM adaptive + L2, {}", w(warps)),
            Point::Fixed { warps, slip } => format!("DoM max-slip {slip}, {}", w(warps)),
            Point::LargeMdt { warps } => {
                format!("DoM adaptive, MDT {LARGE_MDT}, {}", w(warps))
            }
        }
    }

    fn recorded_keys(&self) -> &'static [&'static str] {
        &[
            "divergence",
            "warps",
            "l2_kb",
            "dom_adaptive",
            "dom_max_slip",
            "dom_mdt_entries",
        ]
    }

    fn measure(&self, w: &Workload, machine: &Machine) -> Result<Measured<Counts>, String> {
        measure::measure(w, machine)
    }

    fn page(&self, runs: &Runs<Point, Counts>) -> Page {
        page::page(self, runs)
    }
}
