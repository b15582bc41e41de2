//! `weft eval capri`: the CAPRI paper's §4-5 on weft's core and kernels, with the cost of
//! the hardware measured on weft's RTL. Every workload of `kernels/capri/` runs on the
//! `capri` machine (30 cores) under WPDOM (a divergence stack per warp, the baseline),
//! TBC, TBC+, CAPRI 1b-Sticky and 1b-Latest, and 1b-Latest with 1, 2, 4, 8, 16 and
//! unlimited CAPT entries (Fig. 12, on the divergent set). "From weft to the paper" adds
//! the runs that switch one cause of a difference at a time ([`Row`]): from the `gt200`
//! values the study first ran to the preset's, on the kernels' first inputs ([`FIRST_INPUTS`], workloads of
//! their own, kept out of the means). The page (`capri.md`), the data (`capri.json`) and
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
use weft_sim::core::machine::{Keys, Machine};

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

/// The kernels' first inputs, by the workload scaled from them: (workload, the first
/// input's kernel). Kept as workloads of their own to measure what the scaling changes.
pub const FIRST_INPUTS: [(&str, &str); 10] = [
    ("bfs", "bfs_small"),
    ("mum", "mum_small"),
    ("mumpp", "mumpp_small"),
    ("backp", "backp_small"),
    ("tpacf", "tpacf_small"),
    ("ray", "ray_small"),
    ("lib", "lib_small"),
    ("pflt", "pflt_small"),
    ("cfd", "cfd_small"),
    ("qsrdm", "qsrdm_small"),
];

/// The causes "From weft to the paper" switches, in its rows' order: (what changes, the
/// keys it sets from `gt200`'s values to the `capri` preset's).
pub const CAUSES: [(&str, &[&str]); 5] = [
    ("two L1 lines per cycle", &["l1_ports"]),
    ("an MSHR per thread", &["l1_mshrs", "l1_mshr_merge"]),
    (
        "GDDR3 timing in core cycles",
        &["l2_latency", "dram_row_hit", "dram_row_conflict"],
    ),
    ("a write-back L1", &["l1_write_back"]),
    ("the occupancy limit", &["core_registers", "shared_kb"]),
];

/// The cause "From weft to the paper" switches after the preset, on the scaled inputs:
/// (what changes, its `--set`). GPGPU-Sim 2.x merges no misses of different warps in an
/// MSHR by default (`-gpgpu_interwarp_mshr_merge 0`); the preset's `l1_mshr_merge` is
/// weft's choice (docs/core.md §3).
pub const PAST_THE_PRESET: (&str, &str) = (
    "MSHRs without inter-warp merging (GPGPU-Sim 2.x's `-gpgpu_interwarp_mshr_merge 0`)",
    "l1_mshr_merge=1",
);

/// The rows of "From weft to the paper" that run, as the number of [`CAUSES`] each
/// switches: the study's first machine, then one more cause a row.
pub const ROWS: [usize; CAUSES.len() + 1] = [0, 1, 2, 3, 4, 5];

/// A scheme of the headline (Fig. 11's means), as a row of "From weft to the paper" runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Headline {
    Wpdom,
    Tbc,
    TbcPlus,
    Latest,
}

impl Headline {
    pub const ALL: [Headline; 4] = [
        Headline::Wpdom,
        Headline::Tbc,
        Headline::TbcPlus,
        Headline::Latest,
    ];
}

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
    /// A row of "From weft to the paper" on the first inputs: the first `causes` of
    /// [`CAUSES`] switched to the preset's values, the others at `gt200`'s.
    Row {
        causes: usize,
        scheme: Headline,
    },
    /// The last row of "From weft to the paper": the preset with [`PAST_THE_PRESET`]
    /// switched, on the scaled inputs.
    PastThePreset(Headline),
    /// WPDOM with CTAs issued round robin, not sticky (`sticky_cta=false`): what the
    /// preset's sticky round robin (the paper's §4) adds to WPDOM's tail.
    WpdomNotSticky,
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

    /// The scheme a row runs as the study's own point (the same `--set` list of
    /// divergence and CAPT).
    pub fn scheme(&self, h: Headline) -> Scheme {
        match h {
            Headline::Wpdom => Scheme::Wpdom,
            Headline::Tbc => Scheme::Tbc,
            Headline::TbcPlus => Scheme::TbcPlus,
            Headline::Latest => self.latest(),
        }
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
        for causes in ROWS {
            all.extend(
                Headline::ALL
                    .iter()
                    .map(|&scheme| Scheme::Row { causes, scheme }),
            );
        }
        all.extend(Headline::ALL.map(Scheme::PastThePreset));
        all.push(Scheme::WpdomNotSticky);
        all
    }

    /// The rows run on the first inputs and on the Table 2 workloads not scaled (and
    /// WPDOM, the baseline, on the first inputs too), the row past the preset and WPDOM
    /// not sticky on Table 2's workloads; Fig. 12's CAPT sizes on the divergent set (the
    /// paper's figure shows divergent workloads only); the other points run on every
    /// workload but the first inputs.
    fn runs_on(&self, s: &Scheme, w: &str) -> bool {
        let first = FIRST_INPUTS.iter().any(|&(_, v)| v == w);
        let table2 = paper::divergent(w).is_some();
        match s {
            Scheme::Row { .. } => first || (table2 && !FIRST_INPUTS.iter().any(|&(of, _)| of == w)),
            Scheme::PastThePreset(_) | Scheme::WpdomNotSticky => table2,
            Scheme::Wpdom => true,
            Scheme::Latest(n) if *n != self.capt_entries => paper::divergent(w) == Some(true),
            _ => !first,
        }
    }

    fn baseline(&self) -> Scheme {
        Scheme::Wpdom
    }

    fn sets(&self, s: &Scheme) -> Vec<String> {
        if let Scheme::Row { causes, scheme } = *s {
            let gt200 = Keys::gt200()
                .check()
                .expect("the gt200 preset works")
                .values();
            let mut sets = self.sets(&self.scheme(scheme));
            for (_, keys) in &CAUSES[causes..] {
                for key in *keys {
                    let (_, value) = gt200.iter().find(|(k, _)| k == key).expect("a key");
                    sets.push(format!("{key}={value}"));
                }
            }
            return sets;
        }
        if let Scheme::PastThePreset(scheme) = *s {
            let mut sets = self.sets(&self.scheme(scheme));
            sets.push(PAST_THE_PRESET.1.into());
            return sets;
        }
        if let Scheme::WpdomNotSticky = s {
            let mut sets = self.sets(&Scheme::Wpdom);
            sets.push("sticky_cta=false".into());
            return sets;
        }
        let (divergence, history, entries) = match *s {
            Scheme::Wpdom => ("pdom", "latest", self.capt_entries),
            Scheme::Tbc => ("tbc", "latest", self.capt_entries),
            Scheme::TbcPlus => ("tbc+", "latest", self.capt_entries),
            Scheme::Sticky => ("capri", "sticky", self.capt_entries),
            Scheme::Latest(n) => ("capri", "latest", n),
            Scheme::Row { .. } | Scheme::PastThePreset(_) | Scheme::WpdomNotSticky => {
                unreachable!("a row's sets are its scheme's and its causes'")
            }
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
            Scheme::Row { causes, scheme } => format!(
                "{}, row {causes}: gt200{}, first inputs",
                self.label(&self.scheme(scheme)),
                CAUSES[..causes]
                    .iter()
                    .map(|(c, _)| format!(" + {c}"))
                    .collect::<String>()
            ),
            Scheme::PastThePreset(scheme) => format!(
                "{}, row {}: the preset + {}",
                self.label(&self.scheme(scheme)),
                ROWS.len() + 1,
                PAST_THE_PRESET.0
            ),
            Scheme::WpdomNotSticky => "WPDOM, round robin not sticky".into(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fig_12s_capt_sizes_run_on_the_divergent_set_only() {
        let c = Capri::new();
        assert!(c.runs_on(&Scheme::Latest(1), "mum"));
        assert!(c.runs_on(&Scheme::Latest(0), "bfs"));
        assert!(!c.runs_on(&Scheme::Latest(1), "pflt"));
        assert!(!c.runs_on(&Scheme::Latest(0), "mum_switch"));
        assert!(!c.runs_on(&Scheme::Latest(16), "mum_small"));
        // The preset's CAPT is the study's CAPRI 1b-Latest: every workload but the first
        // inputs.
        assert!(c.runs_on(&c.latest(), "pflt"));
        assert!(c.runs_on(&c.latest(), "mum_switch"));
        assert!(!c.runs_on(&c.latest(), "mum_small"));
    }
}
