//! `weft eval dom`: the DoM paper's §8 on weft's core and kernels, with the cost of the
//! hardware measured on weft's RTL. Every workload of `kernels/dom/` runs on the `dom`
//! machine (one core of the paper's 32, its 1/32 share of the bandwidth) at 1, 2, 4, 8
//! and 16 warps: blocking (the baseline at 1 warp), diverge on miss with adaptive slip,
//! both with the private 256 KB L2 of §8.4, and at 1 and 2 warps (Fig. 6's) with each
//! fixed max-slip. "From weft to the paper" adds the runs that switch one cause of a
//! difference at a time ([`Row`]): the study's first configuration (M = 2, slipped
//! threads back at a return, max-slip moving by one), the MDT unlimited, reconvergence at
//! the loop, and a core alone on the chip's bandwidth; the kernels' first inputs and
//! other layouts are workloads of their own ([`FIRST_INPUTS`], [`LAYOUTS`]), run at every
//! point and kept out of the means. The page (`dom.md`), the data (`dom.json`) and the
//! charts (`dom-*.svg`) are written to `--out`.
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
use weft_sim::core::machine::{DomReconverge, Machine};

pub const NAME: &str = "dom";

/// Warps per core, Figs. 4-10.
pub const WARPS: [u32; 5] = [1, 2, 4, 8, 16];

/// Warps of Fig. 6's fixed max-slips (the paper gives 1 and 2; 1 here, to keep the study
/// within 30 minutes on 2 cores).
pub const FIXED_WARPS: [u32; 1] = [1];

/// Warps of each row of "From weft to the paper".
pub const ROW_WARPS: [u32; 4] = [1, 2, 4, 16];

/// Fixed max-slips of Fig. 6 (the paper sweeps without listing its values; 8-bit
/// counters allow up to 255): every other power of two.
pub const SLIPS: [u32; 5] = [1, 4, 16, 64, 255];

/// The L2 of §8.4, KB.
pub const L2_KB: u32 = 256;

/// Table 1's MDT entries per warp (M = 2: two outstanding memory operations per warp,
/// §6), the study's first configuration; the preset's MDT does not limit (§7.1).
pub const TABLE1_MDT: u32 = 2;

/// The max-slip's step of the study's first configuration (the golden controller's one).
pub const FIRST_STEP: u32 = 1;

/// The chip's whole bandwidth, GB/s, for a core alone on it (§7.2: 256 GB/s shared).
pub const CHIP_GBPS: u32 = 256;

/// The kernels as the study first ran them, by the paper's kernel: (kernel, the first
/// workload). Kept as workloads of their own to measure what each fix changes.
pub const FIRST_INPUTS: [(&str, &str); 2] = [("nl", "nl_2k"), ("lj", "lj_aliased")];

/// Other layouts of a kernel: (kernel, the variant, what differs).
pub const LAYOUTS: [(&str, &str, &str); 2] = [
    (
        "gf",
        "gf_padded",
        "GF's rows 2 080 bytes apart instead of 2 048 (a tile's 34 rows in 34 L1 sets, not 4 sets per 4 rows)",
    ),
    (
        "lj",
        "lj_pp",
        "LJ's neighbour list per particle instead of interleaved (a warp's slot touches 32 lines, not 4)",
    ),
];

/// A switch of "From weft to the paper" that needs runs of its own (the others are the
/// preset's [`Point::Adaptive`] runs on other workloads).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Row {
    /// The study's first configuration: M = 2, slipped threads back at the next call,
    /// return or barrier, max-slip moving by one per period.
    First,
    /// The MDT unlimited (§7.1), the rest as `First`.
    UnlimitedMdt,
    /// And slipped threads back at their loop's exit (`dom_reconverge = loop`).
    Loop,
    /// The preset, with the core alone on the chip's 256 GB/s instead of its 1/32 share.
    ChipBandwidth,
}

/// Each kernel's input beside the paper's (§7.3), scaled down to keep a 1-warp run
/// within seconds: (kernel, weft's, the paper's). Chosen before any DoM run; the page
/// reads the differences they make from the counters (an input whose data fits a cache
/// has little to miss).
pub const INPUTS: [(&str, &str, &str); 6] = [
    ("nl", "6 912 particles", "64 000 particles"),
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
    /// A row of "From weft to the paper": diverge on miss with adaptive slip (`dom`) or
    /// blocking under the row's switches.
    Row { row: Row, warps: u32, dom: bool },
}

impl Point {
    pub fn warps(&self) -> u32 {
        match *self {
            Point::Blocking { warps, .. }
            | Point::Adaptive { warps, .. }
            | Point::Fixed { warps, .. }
            | Point::Row { warps, .. } => warps,
        }
    }
}

/// The study.
pub struct Dom {
    preset: Machine,
}

impl Default for Dom {
    fn default() -> Self {
        Dom::new()
    }
}

impl Dom {
    pub fn new() -> Dom {
        Dom {
            preset: Machine::dom(),
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
        for warps in FIXED_WARPS {
            all.extend(SLIPS.iter().map(|&slip| Point::Fixed { warps, slip }));
        }
        for warps in ROW_WARPS {
            for row in [Row::First, Row::UnlimitedMdt, Row::Loop] {
                all.push(Point::Row {
                    row,
                    warps,
                    dom: true,
                });
            }
            for dom in [false, true] {
                all.push(Point::Row {
                    row: Row::ChipBandwidth,
                    warps,
                    dom,
                });
            }
        }
        all
    }

    fn baseline(&self) -> Point {
        Point::Blocking {
            warps: 1,
            l2: false,
        }
    }

    fn sets(&self, p: &Point) -> Vec<String> {
        let m = &self.preset;
        let reconverge = |r: DomReconverge| match r {
            DomReconverge::Return => "return",
            DomReconverge::Loop => "loop",
        };
        let (mut dom, mut adaptive, mut slip, mut l2) = (true, true, m.keys().dom_max_slip, false);
        let (mut entries, mut rule) = (m.keys().dom_mdt_entries, m.keys().dom_reconverge);
        let (mut step, mut gbps) = (m.keys().dom_slip_step, m.keys().dram_gbps);
        match *p {
            Point::Blocking { l2: with, .. } => (dom, l2) = (false, with),
            Point::Adaptive { l2: with, .. } => l2 = with,
            Point::Fixed { slip: fixed, .. } => (adaptive, slip) = (false, fixed),
            Point::Row { row, dom: d, .. } => {
                dom = d;
                match row {
                    Row::First => {
                        (entries, rule, step) = (TABLE1_MDT, DomReconverge::Return, FIRST_STEP)
                    }
                    Row::UnlimitedMdt => {
                        (entries, rule, step) = (0, DomReconverge::Return, FIRST_STEP)
                    }
                    Row::Loop => (entries, rule, step) = (0, DomReconverge::Loop, FIRST_STEP),
                    Row::ChipBandwidth => gbps = f64::from(CHIP_GBPS),
                }
            }
        }
        let warps = p.warps();
        vec![
            format!("divergence={}", if dom { "dom" } else { "pdom" }),
            format!("warps={warps}"),
            // One fetch group of every warp: plain round robin, as the paper's.
            format!("fetch_group={warps}"),
            format!("l2_kb={}", if l2 { L2_KB } else { 0 }),
            format!("dom_adaptive={adaptive}"),
            format!("dom_max_slip={slip}"),
            format!("dom_slip_step={step}"),
            format!("dom_mdt_entries={entries}"),
            format!("dom_reconverge={}", reconverge(rule)),
            format!("dram_gbps={gbps}"),
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
            Point::Row { row, warps, dom } => {
                let what = if dom { "DoM adaptive" } else { "blocking" };
                let row = match row {
                    Row::First => "M 2, back at a return, step 1",
                    Row::UnlimitedMdt => "MDT unlimited, back at a return, step 1",
                    Row::Loop => "MDT unlimited, back at the loop, step 1",
                    Row::ChipBandwidth => "256 GB/s",
                };
                format!("{what} ({row}), {}", w(warps))
            }
        }
    }

    /// The kernels' first inputs run the points of the rows before their fix, the other
    /// layouts the points of their own row (and the blocking they are normalised to); the
    /// rows on the first inputs do not run on the fixed kernels.
    fn runs_on(&self, p: &Point, w: &str) -> bool {
        let first = FIRST_INPUTS.iter().any(|&(_, v)| v == w);
        let layout = LAYOUTS.iter().any(|&(_, v, _)| v == w);
        let fixed = FIRST_INPUTS.iter().any(|&(k, _)| k == w);
        let rows = ROW_WARPS.contains(&p.warps());
        match *p {
            Point::Blocking { l2: false, .. } | Point::Adaptive { l2: false, .. }
                if first || layout =>
            {
                rows || *p == self.baseline()
            }
            Point::Row {
                row: Row::First | Row::UnlimitedMdt | Row::Loop,
                ..
            } => !fixed && !layout,
            _ => !first && !layout,
        }
    }

    fn recorded_keys(&self) -> &'static [&'static str] {
        &[
            "divergence",
            "warps",
            "l2_kb",
            "dom_adaptive",
            "dom_max_slip",
            "dom_slip_step",
            "dom_mdt_entries",
            "dom_reconverge",
            "dram_gbps",
        ]
    }

    fn measure(&self, w: &Workload, machine: &Machine) -> Result<Measured<Counts>, String> {
        measure::measure(w, machine)
    }

    fn page(&self, runs: &Runs<Point, Counts>) -> Page {
        page::page(self, runs)
    }
}
