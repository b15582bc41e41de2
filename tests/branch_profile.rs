//! The per-branch profile of thread block compaction (`tbc`, `tbc+`, `capri`): its rows
//! against the totals it refines, the kernel's listing (which branches exist, which are
//! proven uniform, which instructions are jumps), PDOM's own warp splits seen through
//! the trace, and `weft run`'s text and JSON output.
mod common;
use common::weft;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::process::Output;
use weft_sim::core::functional::{Launch, Program};
use weft_sim::core::image::Image;
use weft_sim::core::machine::Machine;
use weft_sim::core::simt::divergence::tbc::{BranchProfile, TbcStats};
use weft_sim::core::simt::divergence::DivergenceStats;
use weft_sim::core::simt::{self, Options, Stats};
use weft_sim::core::trace::{Sample, Trace};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn device_image(name: &str) -> Image {
    let elf = weft_flow::kernel::load(&Path::new(ROOT).join(format!("kernels/{name}.c"))).unwrap();
    Image::from_elf(&elf).unwrap()
}

/// `name` timed on the `lwm` machine with `sets`, in CTAs of `cta` threads (default:
/// the kernel's own), every cycle shown to `trace`.
fn timed(
    name: &str,
    sets: &[&str],
    cta: Option<u32>,
    trace: Option<&mut (dyn Trace + 'static)>,
) -> Stats {
    let image = device_image(name);
    let (threads, own) = image.launch.expect("WEFT_LAUNCH");
    let mut m = Machine::lwm();
    m.set_all(sets).unwrap();
    let mut quiet = |_, _, _, _| {};
    let options = Options {
        max_cycles: 1 << 40,
        max_instructions: 500_000_000,
        progress: &mut quiet,
        trace: trace.map(|t| t as &mut dyn Trace),
        two_level_always: false,
    };
    let launch = Launch::new(threads, cta.unwrap_or(own)).unwrap();
    simt::run(Program::new(image), launch, &m, options)
        .unwrap_or_else(|e| panic!("{name} with {sets:?}: {e}"))
        .stats
}

fn tbc_stats(s: &Stats) -> TbcStats {
    match &s.divergence {
        DivergenceStats::Tbc(t) => t.clone(),
        other => panic!("not a thread block compaction run: {other:?}"),
    }
}

/// What `weft run --listing` says of the kernel reached from `weft_kernel`: its
/// conditional branches (PC -> proven uniform) and its `jal zero` jumps.
struct Listing {
    branches: BTreeMap<u32, bool>,
    jumps: BTreeSet<u32>,
}

fn listing(name: &str) -> Listing {
    let text = stdout(&weft(&["run", &format!("kernels/{name}.c"), "--listing"]));
    let mut l = Listing {
        branches: BTreeMap::new(),
        jumps: BTreeSet::new(),
    };
    for line in text.lines() {
        let mut words = line.split_whitespace();
        let (Some(addr), Some(op)) = (words.next(), words.next()) else {
            continue;
        };
        let Ok(pc) = u32::from_str_radix(addr, 16) else {
            continue; // a symbol's name
        };
        if line.contains("# reconverges at") {
            l.branches.insert(pc, line.contains("# uniform"));
        } else if op == "jal" && words.next() == Some("zero,") {
            l.jumps.insert(pc);
        }
    }
    l
}

/// Divergent kernels with jumps (capri/bfs), proven-uniform branches that run
/// (lwm/sort, capri/tpacf at its first input: the scaled input's code) and branches where
/// compaction pays.
const KERNELS: &[&str] = &["capri/bfs", "lwm/sort", "capri/tpacf_small"];
const SCHEMES: &[&str] = &["tbc", "tbc+", "capri"];

/// Every conditional branch of the listing has a row (under `tbc` every jump a warp
/// stalled at too, and nothing else); the rows add up to the totals; each row's
/// counts are bounded by what they count from; a proven-uniform branch never splits a
/// warp or a CTA.
#[test]
fn profile_rows_add_up_to_the_totals_and_follow_the_listing() {
    let mut uniform_executed = 0;
    let mut cta_divergent = 0;
    for name in KERNELS {
        let l = listing(name);
        assert!(!l.branches.is_empty(), "{name}: no branch in the listing");
        for scheme in SCHEMES {
            let at = format!("{name} under {scheme}");
            let t = tbc_stats(&timed(name, &[&format!("divergence={scheme}")], None, None));
            let pcs: Vec<u32> = t.branches.iter().map(|b| b.pc).collect();
            assert!(pcs.windows(2).all(|w| w[0] < w[1]), "{at}: not by PC");
            let branches: BTreeMap<u32, bool> = t
                .branches
                .iter()
                .filter(|b| !b.jump)
                .map(|b| (b.pc, b.uniform))
                .collect();
            assert_eq!(branches, l.branches, "{at}: branches and uniform flags");
            let jumps: BTreeSet<u32> = t.branches.iter().filter(|b| b.jump).map(|b| b.pc).collect();
            if *scheme == "tbc" {
                assert!(jumps.is_subset(&l.jumps), "{at}: {jumps:x?} not all jumps");
                if *name == "capri/bfs" {
                    assert!(!jumps.is_empty(), "{at}: TBC stalls at jumps");
                }
            } else {
                assert!(jumps.is_empty(), "{at}: only TBC stalls at jumps");
            }
            // Who waits where: TBC+ and CAPRI never at jumps nor at proven-uniform
            // branches; CAPRI stalls only warps that split, so only at divergent
            // instances.
            let w = t.waits;
            match *scheme {
                "tbc" => assert!(w.total() > 0, "{at}: TBC waits: {w:?}"),
                "tbc+" => assert_eq!((w.jump, w.uniform), (0, 0), "{at}: {w:?}"),
                _ => assert_eq!(w.total(), w.divergent, "{at}: {w:?}"),
            }
            if *scheme == "tbc" && *name == "capri/bfs" {
                assert!(w.jump > 0 && w.divergent > 0, "{at}: {w:?}");
            }
            let sum = |f: fn(&BranchProfile) -> u64| t.branches.iter().map(f).sum::<u64>();
            assert_eq!(sum(|b| b.cta_instances), t.branch_instances, "{at}");
            assert_eq!(sum(|b| b.adequate), t.adequate_instances, "{at}");
            // Every warp execution of a branch is one decision.
            let decisions = t.stall_ideal_stall
                + t.stall_ideal_bypass
                + t.bypass_ideal_stall
                + t.bypass_ideal_bypass;
            assert_eq!(sum(|b| b.executions), decisions, "{at}");
            for b in &t.branches {
                let at = format!("{at}, {:#x}: {b:?}", b.pc);
                assert!(b.warp_divergent <= b.executions, "{at}");
                assert!(b.cta_divergent <= b.cta_instances, "{at}");
                assert!(b.adequate <= b.cta_instances, "{at}");
                // An instance is some warps' executions: none without one, at most one
                // per execution.
                assert!(b.cta_instances <= b.executions, "{at}");
                assert_eq!(b.cta_instances == 0, b.executions == 0, "{at}");
                // A CTA-divergent instance may have no divergent warp (whole warps
                // going different ways), but a divergent warp makes its CTA divergent.
                assert!(b.warp_divergent == 0 || b.cta_divergent > 0, "{at}");
                if b.uniform || b.jump {
                    assert_eq!((b.warp_divergent, b.cta_divergent), (0, 0), "{at}");
                }
                // Under TBC and TBC+ the warps reaching a branch are the compaction of
                // their path's threads (nothing but a divergent bypass unpacks them), so
                // compaction pays only where the CTA's threads split. CAPRI's bypassing
                // warps reach later branches unpacked: adequate without a CTA split.
                if *scheme != "capri" {
                    assert!(b.adequate <= b.cta_divergent, "{at}");
                }
                uniform_executed += u64::from(b.uniform && b.executions > 0);
                cta_divergent += b.cta_divergent;
            }
        }
    }
    assert!(uniform_executed > 0, "no proven-uniform branch ran");
    assert!(cta_divergent > 0, "no CTA diverged");
}

/// Under TBC and TBC+ a CTA's warps are formed from its stack alone, whatever the
/// timing: two cores (their profiles combined) count what one core counts, branch by
/// branch.
#[test]
fn two_cores_combined_profile_what_one_core_does() {
    for name in ["capri/bfs", "lwm/sort"] {
        for scheme in ["tbc", "tbc+"] {
            let d = format!("divergence={scheme}");
            let one = tbc_stats(&timed(name, &[&d], None, None)).branches;
            let two = tbc_stats(&timed(name, &[&d, "cores=2", "l2_kb=64"], None, None)).branches;
            assert!(one.iter().any(|b| b.cta_instances > 0));
            assert_eq!(one, two, "{name} under {scheme}");
        }
    }
}

/// Per conditional branch, PDOM's warp executions and splits as the trace shows them:
/// a warp issuing the branch with lanes `M` split iff its next instruction issues with
/// fewer of `M`'s lanes and no other (a split runs one path's threads first; a branch
/// that sends every thread to an enclosing reconvergence point goes on with more lanes,
/// or with the other path's, disjoint from `M`).
struct PdomSplits {
    branches: BTreeSet<u32>,
    last: HashMap<(usize, usize), (u32, u64)>,
    counts: BTreeMap<u32, (u64, u64)>,
    issues: u64,
}

impl Trace for PdomSplits {
    fn core(&mut self, _: u64, core: usize, sample: &Sample) -> std::io::Result<()> {
        let Some(i) = sample.issued else {
            return Ok(());
        };
        self.issues += 1;
        if let Some((pc, lanes)) = self.last.insert((core, i.warp), (i.pc, i.lanes)) {
            if self.branches.contains(&pc) {
                let c = self.counts.entry(pc).or_default();
                c.0 += 1;
                c.1 += u64::from(i.lanes & !lanes == 0 && i.lanes != lanes);
            }
        }
        Ok(())
    }
    fn dram(&mut self, _: u64, _: usize) -> std::io::Result<()> {
        Ok(())
    }
}

/// With CTAs of one warp, TBC+'s CTA-wide stack is a warp's stack: its profile's warp
/// executions and divergent executions per branch are PDOM's, counted from the trace of
/// a PDOM run.
#[test]
fn warp_splits_under_tbc_plus_are_pdom_splits_with_one_warp_per_cta() {
    for name in ["lwm/bfs", "lwm/sort", "micro/control", "capri/lps"] {
        let mut pdom = PdomSplits {
            branches: listing(name).branches.into_keys().collect(),
            last: HashMap::new(),
            counts: BTreeMap::new(),
            issues: 0,
        };
        let s = timed(name, &[], Some(32), Some(&mut pdom));
        assert_eq!(
            pdom.issues, s.warp_instructions,
            "{name}: the trace saw every issue"
        );
        assert!(
            pdom.counts.values().any(|c| c.1 > 0),
            "{name}: no warp split"
        );
        let t = tbc_stats(&timed(name, &["divergence=tbc+"], Some(32), None));
        let ours: BTreeMap<u32, (u64, u64)> = t
            .branches
            .iter()
            .filter(|b| b.executions > 0)
            .map(|b| (b.pc, (b.executions, b.warp_divergent)))
            .collect();
        assert_eq!(
            ours, pdom.counts,
            "{name}: (executions, warp-divergent) by PC"
        );
        // One warp per CTA: an instance is one execution, divergent as its warp is.
        for b in &t.branches {
            assert_eq!(
                (b.cta_instances, b.cta_divergent),
                (b.executions, b.warp_divergent),
                "{name}: {b:?}"
            );
        }
    }
}

/// `weft run` prints the profile as a table under a TBC scheme (one line per row of the
/// JSON profile, whose PCs are numbers), and no table under PDOM.
#[test]
fn weft_run_prints_the_profile_table_under_compaction() {
    let kernel = "kernels/capri/bfs.c";
    let text = stdout(&weft(&["run", kernel, "--set", "divergence=tbc"]));
    let json = stdout(&weft(&["run", kernel, "--set", "divergence=tbc", "--json"]));
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let d = &json["divergence"];
    assert_eq!(d["policy"], "tbc");
    let rows = d["branches"].as_array().expect("a list of branches");
    let l = listing("capri/bfs");
    let (mut branches, mut jumps) = (BTreeSet::new(), BTreeSet::new());
    for r in rows {
        let pc = r["pc"].as_u64().expect("pc is a number") as u32;
        if r["jump"] == true {
            jumps.insert(pc)
        } else {
            branches.insert(pc)
        };
    }
    assert!(branches.iter().eq(l.branches.keys()), "{rows:?}");
    assert!(!jumps.is_empty() && jumps.is_subset(&l.jumps), "{rows:?}");
    let instances: u64 = rows
        .iter()
        .map(|r| r["cta_instances"].as_u64().unwrap())
        .sum();
    assert_eq!(instances, d["branch_instances"].as_u64().unwrap());
    let header = text
        .lines()
        .position(|l| l == "TBC per-branch profile:")
        .unwrap_or_else(|| panic!("no profile in {text}"));
    let table: Vec<&str> = text.lines().skip(header + 1).collect();
    let columns = [
        "branch pc",
        "kind",
        "executions",
        "warp-div",
        "CTA inst",
        "CTA-div",
        "adequate",
        "uniform",
    ];
    for c in columns {
        assert!(table[0].contains(c), "{}", table[0]);
    }
    assert!(table.len() > rows.len(), "{text}");
    for (row, line) in rows.iter().zip(&table[1..]) {
        let pc = row["pc"].as_u64().expect("pc is a number");
        let kind = if row["jump"] == true {
            "jump"
        } else {
            "branch"
        };
        let uniform = match (row["jump"] == true, row["uniform"] == true) {
            (true, _) => "-",
            (false, true) => "yes",
            (false, false) => "no",
        };
        let want = format!(
            "{pc:#x} {kind} {} {} {} {} {} {uniform}",
            row["executions"],
            row["warp_divergent"],
            row["cta_instances"],
            row["cta_divergent"],
            row["adequate"]
        );
        let got: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(got.join(" "), want);
    }
    let pdom = stdout(&weft(&["run", kernel]));
    assert!(!pdom.contains("per-branch"), "{pdom}");
}
