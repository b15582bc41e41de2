//! `weft eval capri`: the CAPRI paper's §4-5 on weft's core and kernels, with the cost of
//! the hardware measured on weft's RTL. Every workload of `kernels/capri/` runs on the
//! `capri` machine (30 cores) under WPDOM (a divergence stack per warp, the baseline),
//! TBC, TBC+, CAPRI 1b-Sticky and 1b-Latest, and 1b-Latest with 1, 2, 4, 8, 16 and
//! unlimited CAPT entries (Fig. 12); the page (`capri.md`), the data (`capri.json`) and
//! the charts (`capri-*.svg`) are written to `--out`.
//!
//! Performance is IPC normalised to WPDOM. Every scheme runs the same thread instructions
//! (checked), so a normalised IPC is WPDOM's cycles over the scheme's.
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

pub const NAME: &str = "capri";

/// CAPT sizes of Fig. 12 besides the preset's 32; 0 is one entry per branch (unlimited).
pub const CAPT_SWEEP: [u32; 6] = [1, 2, 4, 8, 16, 0];

/// Kernels that differ from a Table 2 workload in one choice the paper leaves open, run
/// beside it (in neither class, so outside every mean): (variant, workload, the choice
/// the variant makes instead).
pub const CHOICES: [(&str, &str, &str); 3] = [
    (
        "mum_switch",
        "mum",
        "the child picked by the original's `switch` on the base (clang threads its default \
         case into the no-edge exit) instead of branch-free by the base's code",
    ),
    (
        "tpacf_branch",
        "tpacf",
        "the bin search's `if` as written, a short branch on RV32IMF (no conditional move), \
         instead of branch-free as nvcc predicates it",
    ),
    (
        "cfd_rows",
        "cfd",
        "elements numbered row by row instead of in bricks of a warp's 32 cells",
    ),
];

/// One scheme of the study.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scheme {
    Wpdom,
    Tbc,
    TbcPlus,
    /// CAPRI with a 1-bit sticky history (the preset's CAPT size).
    Sticky,
    /// CAPRI with a 1-bit latest history and this many CAPT entries (0: unlimited).
    Latest(u32),
}

/// The study: the `capri` preset's CAPT size is 1b-Latest's default.
pub struct Capri {
    capt_entries: u32,
}

impl Default for Capri {
    fn default() -> Self {
        Capri::new()
    }
}

impl Capri {
    pub fn new() -> Capri {
        Capri {
            capt_entries: Machine::capri().keys().capt_entries,
        }
    }

    /// CAPRI 1b-Latest with the preset's CAPT.
    pub fn latest(&self) -> Scheme {
        Scheme::Latest(self.capt_entries)
    }

    /// The schemes of Figs. 9-11 and 13 after WPDOM.
    pub fn schemes(&self) -> [Scheme; 4] {
        [Scheme::Tbc, Scheme::TbcPlus, Scheme::Sticky, self.latest()]
    }

    /// Fig. 12's CAPT sizes, ascending, unlimited last (the preset's size among them).
    pub fn capt_sizes(&self) -> Vec<Scheme> {
        let mut sizes: Vec<u32> = CAPT_SWEEP.iter().copied().filter(|&n| n > 0).collect();
        sizes.push(self.capt_entries);
        sizes.sort_unstable();
        sizes.dedup();
        sizes.push(0);
        sizes.into_iter().map(Scheme::Latest).collect()
    }
}

impl Study for Capri {
    type Point = Scheme;
    type Counts = Counts;

    const NAME: &'static str = NAME;

    fn machine(&self) -> &'static str {
        "capri"
    }

    fn workloads_dir(&self) -> &'static str {
        "kernels/capri"
    }

    fn order(&self) -> Vec<&'static str> {
        paper::TABLE2.iter().map(|(name, _, _)| *name).collect()
    }

    fn points(&self) -> Vec<Scheme> {
        let mut all = vec![Scheme::Wpdom];
        all.extend(self.schemes());
        all.extend(
            CAPT_SWEEP
                .iter()
                .map(|&n| Scheme::Latest(n))
                .filter(|s| *s != self.latest()),
        );
        all
    }

    fn baseline(&self) -> Scheme {
        Scheme::Wpdom
    }

    fn sets(&self, s: &Scheme) -> Vec<String> {
        let (divergence, history, entries) = match *s {
            Scheme::Wpdom => ("pdom", "latest", self.capt_entries),
            Scheme::Tbc => ("tbc", "latest", self.capt_entries),
            Scheme::TbcPlus => ("tbc+", "latest", self.capt_entries),
            Scheme::Sticky => ("capri", "sticky", self.capt_entries),
            Scheme::Latest(n) => ("capri", "latest", n),
        };
        vec![
            format!("divergence={divergence}"),
            format!("capt_history={history}"),
            format!("capt_entries={entries}"),
        ]
    }

    fn label(&self, s: &Scheme) -> String {
        match *s {
            Scheme::Wpdom => "WPDOM".into(),
            Scheme::Tbc => "TBC".into(),
            Scheme::TbcPlus => "TBC+".into(),
            Scheme::Sticky => "CAPRI 1b-Sticky".into(),
            Scheme::Latest(n) if n == self.capt_entries => "CAPRI 1b-Latest".into(),
            Scheme::Latest(0) => "CAPRI 1b-Latest, CAPT unlimited".into(),
            Scheme::Latest(n) => format!("CAPRI 1b-Latest, CAPT {n}"),
        }
    }

    fn recorded_keys(&self) -> &'static [&'static str] {
        &["divergence", "capt_history", "capt_entries"]
    }

    fn measure(&self, w: &Workload, machine: &Machine) -> Result<Measured<Counts>, String> {
        measure::measure(w, machine)
    }

    fn page(&self, runs: &Runs<Scheme, Counts>) -> Page {
        page::page(self, runs)
    }
}
