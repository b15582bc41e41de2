//! `weft eval capri`: the CAPRI paper's §4-5 on weft's core and kernels, with the cost of
//! the hardware measured on weft's RTL. Every workload of `kernels/capri/` runs on the
//! `capri` machine (30 cores) under WPDOM (a divergence stack per warp, the baseline),
//! TBC, TBC+, CAPRI 1b-Sticky and 1b-Latest, and 1b-Latest with 1, 2, 4, 8, 16 and
//! unlimited CAPT entries (Fig. 12, on the divergent set); the headline schemes also on
//! two more input seeds ([`SEEDS`]). "From weft to the paper" adds the runs that switch
//! one cause of a difference at a time ([`Row`]): from the `gt200` values the study first
//! ran to the preset's, on the kernels' first inputs ([`FIRST_INPUTS`], workloads of
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

/// The input seeds run besides each kernel's own (the constant its `SEED` defaults to),
/// as `-DSEED=N` (weft's choice): the headline schemes ([`Headline`]) run on each, to
/// measure the spread of a scheme over three inputs. qsrdm's input is the SDK's fixed
/// sequence, with no seed: it runs once.
pub const SEEDS: [u32; 2] = [1, 2];

/// Table 2's kernels without an input seed.
pub const UNSEEDED: [&str; 1] = ["qsrdm"];

/// The workload of kernel `w` with input seed `seed` (one of [`SEEDS`]).
pub fn seeded(w: &str, seed: u32) -> String {
    format!("{w}_seed{seed}")
}

/// The kernel and seed of a workload run with one of [`SEEDS`] (`None` for any other).
pub fn seed_of(w: &str) -> Option<(&str, u32)> {
    let (kernel, seed) = w.rsplit_once("_seed")?;
    let seed: u32 = seed.parse().ok()?;
    (SEEDS.contains(&seed) && paper::divergent(kernel).is_some()).then_some((kernel, seed))
}

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
    /// not sticky on Table 2's workloads; the headline schemes on the other seeds; Fig.
    /// 12's CAPT sizes on the divergent set (the paper's figure shows divergent
    /// workloads only); the other points on every workload but the first inputs and the
    /// other seeds.
    fn runs_on(&self, s: &Scheme, w: &str) -> bool {
        let first = FIRST_INPUTS.iter().any(|&(_, v)| v == w);
        let table2 = paper::divergent(w).is_some();
        if seed_of(w).is_some() {
            return Headline::ALL.iter().any(|&h| self.scheme(h) == *s);
        }
        match s {
            Scheme::Row { .. } => first || (table2 && !FIRST_INPUTS.iter().any(|&(of, _)| of == w)),
            Scheme::PastThePreset(_) | Scheme::WpdomNotSticky => table2,
            Scheme::Wpdom => true,
            Scheme::Latest(n) if *n != self.capt_entries => paper::divergent(w) == Some(true),
            _ => !first,
        }
    }

    /// Table 2's seeded kernels run with each of [`SEEDS`].
    fn variants(&self, w: &str) -> Vec<(String, Vec<String>)> {
        if paper::divergent(w).is_none() || UNSEEDED.contains(&w) {
            return vec![];
        }
        SEEDS
            .iter()
            .map(|&seed| (seeded(w, seed), vec![format!("SEED={seed}u")]))
            .collect()
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
    use std::path::Path;

    #[test]
    fn the_other_seeds_run_the_headline_schemes_on_table_2s_seeded_kernels() {
        let c = Capri::new();
        assert_eq!(c.variants("qsrdm"), vec![]);
        assert_eq!(c.variants("bfs_small"), vec![]);
        assert_eq!(
            c.variants("bfs"),
            vec![
                ("bfs_seed1".to_string(), vec!["SEED=1u".to_string()]),
                ("bfs_seed2".to_string(), vec!["SEED=2u".to_string()]),
            ]
        );
        assert_eq!(seed_of("mumpp_seed2"), Some(("mumpp", 2)));
        assert_eq!(seed_of("mumpp_seed7"), None);
        assert_eq!(seed_of("mumpp"), None);
        let ran: Vec<Scheme> = c
            .points()
            .into_iter()
            .filter(|p| c.runs_on(p, "mumpp_seed1"))
            .collect();
        assert_eq!(ran, Headline::ALL.map(|h| c.scheme(h)).to_vec());
        // Fig. 12's sizes run on the divergent set only; the preset's size everywhere.
        assert!(c.runs_on(&Scheme::Latest(1), "mum"));
        assert!(!c.runs_on(&Scheme::Latest(1), "pflt"));
        assert!(!c.runs_on(&Scheme::Latest(1), "mum_switch"));
        assert!(c.runs_on(&c.latest(), "pflt"));
    }

    #[test]
    fn a_seed_reaches_the_kernel_and_its_default_is_the_sources_constant() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let include = root.join(weft_flow::kernel::INCLUDE);
        let dir = std::env::temp_dir().join(format!("weft-capri-seed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let source = root.join("kernels/capri/backp.c");
        let elf = |defines: &[&str], name: &str| {
            let defines: Vec<String> = defines.iter().map(|d| d.to_string()).collect();
            let out =
                weft_flow::kernel::compile_defined(&source, &include, &dir.join(name), &defines)
                    .unwrap();
            std::fs::read(out).unwrap()
        };
        // backp's source seeds its LCG with 7: the eval's first seed is today's input.
        let own = elf(&[], "own.elf");
        assert_eq!(elf(&["SEED=7u"], "seven.elf"), own);
        assert_ne!(elf(&["SEED=1u"], "one.elf"), own);
        let e =
            weft_flow::kernel::load_defined(&dir.join("own.elf"), &["SEED=1u".into()]).unwrap_err();
        assert!(
            e.ends_with("own.elf: macros (SEED=1u) need a C kernel"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Every seeded kernel's functional run with each of [`SEEDS`] matches the
    /// `expected_` references it computes (the eval checks each run against it).
    #[test]
    #[ignore = "minutes of CPU: `cargo test --release -p weft-eval --lib seeded_kernels -- --ignored`"]
    fn seeded_kernels_match_their_references_with_every_seed() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        std::env::set_current_dir(&root).unwrap();
        let c = Capri::new();
        let work: Vec<(String, Vec<String>, String)> = paper::TABLE2
            .iter()
            .flat_map(|(w, _, _)| {
                c.variants(w)
                    .into_iter()
                    .map(move |(name, defines)| (w.to_string(), defines, name))
            })
            .collect();
        assert_eq!(work.len(), 2 * (paper::TABLE2.len() - UNSEEDED.len()));
        weft_flow::jobs::parallel(&work, 2, |(w, defines, name)| {
            let path = root.join(format!("kernels/capri/{w}.c"));
            crate::workload::compile_defined(&path, name.clone(), defines)
                .and_then(|k| k.check_references())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        });
    }
}
