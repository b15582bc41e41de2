//! The CAPRI paper's walk-through (§2.2, Figures 6-7; §3) on the core: one CTA of 3 warps
//! x 4 lanes on a 4-lane machine runs `kernels/micro/walkthrough.c`, a loop of four
//! rounds through A -> (B | C) -> D whose branch sends thread t to B when the round's
//! table says so. Rounds 1 and 2 use the paper's masks (B: 0123 4xx7 89xx, C: xxxx x56x
//! xxab), rounds 0 and 3 a mask where compaction pays (B: 01xx xx67 89xx, C: xx23 45xx
//! xxab). A trace records which threads each warp issuing the first instruction of B or
//! C carries; the run's counts give TBC's branch instances, its decisions and CAPRI's
//! CAPT. Every expected value below is derived by hand from the masks, the paper's rules
//! (the fewest warps a path runs in is the most threads any lane has on it) and the
//! rules of `sim/core/simt/divergence/tbc.rs`; none was taken from a run.
use std::collections::BTreeMap;
use std::path::Path;
use weft_sim::core::cfg::{Flow, Reconvergence};
use weft_sim::core::functional::{self, Launch, Program};
use weft_sim::core::image::Image;
use weft_sim::core::machine::Machine;
use weft_sim::core::simt::divergence::{tbc::TbcStats, DivergenceStats};
use weft_sim::core::simt::kernel::Kernel;
use weft_sim::core::simt::{self, Options, Stats};
use weft_sim::core::trace::{Sample, Trace};
use weft_sim::lwm::sub_warp_unit::Mode;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const LIMIT: u64 = 1_000_000;
const LANES: u32 = 4;
const CTA: u32 = 12;
const ROUNDS: usize = 4;

/// The threads that take path B, per round (the others take C): the paper's Figure 7
/// masks in rounds 1 and 2, an adequate mask in rounds 0 and 3.
const PAPER_B: &[u32] = &[0, 1, 2, 3, 4, 7, 8, 9];
const ADEQUATE_B: &[u32] = &[0, 1, 6, 7, 8, 9];
const ROUND_B: [&[u32]; ROUNDS] = [ADEQUATE_B, PAPER_B, PAPER_B, ADEQUATE_B];

/// The machine: one core of 4 lanes and 3 warp slots (one CTA of 12 threads), warps of
/// one row, and `sets` (the divergence policy).
fn machine(sets: &[&str]) -> Machine {
    let mut m = Machine::lwm();
    m.set_all(&[
        "cores=1",
        "lanes=4",
        "warp_size=4",
        "warps=3",
        "fetch_group=3",
        "sfu_lanes=4",
    ])
    .unwrap();
    m.set_all(sets).unwrap();
    m
}

fn image() -> Image {
    let elf =
        weft_flow::kernel::load(&Path::new(ROOT).join("kernels/micro/walkthrough.c")).unwrap();
    Image::from_elf(&elf).unwrap()
}

/// Warp sets as sorted thread lists, sorted: one per warp that entered the path.
type Warps = Vec<Vec<u32>>;

/// The first instructions of B and C, and what the trace saw there: per round and path
/// (0 = B, 1 = C), the thread sets of the warps that issued it.
struct Paths {
    entry: [u32; 2],
    fetched: Option<(usize, Vec<u64>)>,
    /// Per thread, the paths it has entered so far: its round.
    entered: Vec<usize>,
    seen: BTreeMap<(usize, usize), Warps>,
}

impl Trace for Paths {
    fn core(&mut self, _: u64, _: usize, sample: &Sample) -> std::io::Result<()> {
        let Some(issue) = sample.issued else {
            return Ok(());
        };
        let (w, rows) = self.fetched.take().expect("a fetch before its issue");
        assert_eq!(w, issue.warp);
        let Some(path) = self.entry.iter().position(|&e| e == issue.pc) else {
            return Ok(());
        };
        // Under PDOM a warp is its one home row; under compaction the rows are the CTA's
        // (the one CTA starts at slot 0): thread = first + row * lanes + lane.
        let first = if rows.len() == 1 { w as u32 * LANES } else { 0 };
        let threads: Vec<u32> = rows
            .iter()
            .enumerate()
            .flat_map(|(r, &row)| {
                (0..LANES)
                    .filter(move |&c| row >> c & 1 == 1)
                    .map(move |c| first + r as u32 * LANES + c)
            })
            .collect();
        let round = self.entered[threads[0] as usize];
        for &t in &threads {
            assert_eq!(
                self.entered[t as usize], round,
                "a warp mixes rounds: {threads:?}"
            );
            self.entered[t as usize] += 1;
        }
        self.seen.entry((round, path)).or_default().push(threads);
        Ok(())
    }

    fn dram(&mut self, _: u64, _: usize) -> std::io::Result<()> {
        Ok(())
    }

    fn fetch(&mut self, _: usize, w: usize, mask: &[u64], _: Mode, _: u32) -> std::io::Result<()> {
        self.fetched = Some((w, mask.to_vec()));
        Ok(())
    }
}

/// The kernel's shape, from its decoded code, as the derivations below rely on it.
#[derive(Debug)]
struct Shape {
    /// First instruction of B and C.
    entry: [u32; 2],
    /// Instructions a warp issues on B and on C (a jump to D included).
    length: [u64; 2],
    /// Whether B and C end with a jump to D (under `tbc`, a branch instance each).
    jumps: [u64; 2],
}

/// Walks a path from `pc` to the join `d`: straight-line code, maybe a jump to `d`.
fn walk(kernel: &Kernel, mut pc: u32, d: u32) -> (u64, u64) {
    let mut length = 0;
    while pc != d {
        length += 1;
        match kernel.step(pc).unwrap().flow {
            Flow::Next => pc += 4,
            Flow::Jump { target } if target == d => return (length, 1),
            other => panic!("the path reaches {other:?} at {pc:#x}: re-derive for this code"),
        }
    }
    (length, 0)
}

fn shape() -> Shape {
    let image = image();
    let kernel = Kernel::new(&Program::new(image)).unwrap();
    let branches: Vec<(u32, u32, bool, Option<Reconvergence>)> = kernel
        .steps()
        .filter_map(|(pc, s)| match s.flow {
            Flow::Branch { taken } => Some((pc, taken, s.uniform, s.reconvergence)),
            _ => None,
        })
        .collect();
    // Two conditional branches: the loop's (uniform) and the walk-through's.
    assert_eq!(branches.len(), 2, "{branches:x?}");
    let (lp, exit, ..) = *branches
        .iter()
        .find(|b| b.2)
        .expect("a uniform loop branch");
    let &(br, taken, _, rc) = branches
        .iter()
        .find(|b| !b.2)
        .expect("the divergent branch");
    let Some(Reconvergence::At(d)) = rc else {
        panic!("the branch at {br:#x} reconverges at {rc:?}")
    };
    // Which target is B depends on the sense clang gave the branch: both are walked,
    // and the run tells them apart (thread 0 takes B in every round).
    let paths = [br + 4, taken];
    let walked = paths.map(|p| walk(&kernel, p, d));
    // Every other jump is the rotated loop's entry, run once per thread before round 0:
    // a jump to the instruction after the loop branch (the loop exits by its taken side).
    let others: Vec<u32> = kernel
        .steps()
        .filter_map(|(_, s)| match s.flow {
            Flow::Jump { target } if target != d => Some(target),
            _ => None,
        })
        .collect();
    assert_eq!(
        others,
        vec![lp + 4],
        "one jump into the loop, {exit:#x} its exit"
    );
    Shape {
        entry: paths,
        length: walked.map(|w| w.0),
        jumps: walked.map(|w| w.1),
    }
}

/// The walk-through's CTA under `sets`: the trace's warps per (round, path), and the
/// run's statistics. The run leaves the functional run's memory, and `out` holds what
/// the kernel computes, written here in Rust from the round table.
fn walk_through(sets: &[&str]) -> (BTreeMap<(usize, usize), Warps>, Stats, Shape) {
    let mut shape = shape();
    let launch = Launch::new(CTA, CTA).unwrap();
    let functional = functional::run(Program::new(image()), launch, LIMIT).unwrap();
    let mut paths = Paths {
        entry: shape.entry,
        fetched: None,
        entered: vec![0; CTA as usize],
        seen: BTreeMap::new(),
    };
    let mut quiet = |_, _, _, _| {};
    let run = simt::run(
        Program::new(image()),
        launch,
        &machine(sets),
        Options {
            max_cycles: 1 << 30,
            max_instructions: LIMIT,
            progress: &mut quiet,
            trace: Some(&mut paths),
            two_level_always: false,
        },
    )
    .unwrap_or_else(|e| panic!("{sets:?}: {e}"));
    assert!(
        run.image.bytes == functional.image.bytes,
        "{sets:?}: the timed memory differs from the functional run's"
    );
    assert_eq!(
        run.stats.thread_instructions,
        functional.thread_instructions
    );
    let out = run.image.symbol_bytes("out").unwrap();
    for t in 0..CTA {
        let got = u32::from_le_bytes(out[4 * t as usize..][..4].try_into().unwrap());
        assert_eq!(got, reference(t), "{sets:?}: out[{t}]");
    }
    // Path 0 must be B: thread 0 takes B in every round.
    let mut seen = paths.seen;
    let zero_first = seen
        .get(&(0, 0))
        .is_some_and(|ws| ws.iter().any(|w| w.contains(&0)));
    if !zero_first {
        shape.entry.swap(0, 1);
        shape.length.swap(0, 1);
        shape.jumps.swap(0, 1);
        seen = seen
            .into_iter()
            .map(|((r, p), w)| ((r, 1 - p), w))
            .collect();
    }
    for ws in seen.values_mut() {
        ws.sort();
    }
    (seen, run.stats, shape)
}

/// The kernel's answer for thread `t`, from the round table.
fn reference(t: u32) -> u32 {
    let mut v = t;
    for (r, b) in ROUND_B.iter().enumerate() {
        v = v.wrapping_mul(3).wrapping_add(r as u32);
        if b.contains(&(t % CTA)) {
            v = (v ^ 0x5a5a).wrapping_mul(7);
            v = v.wrapping_add(v >> 5);
        } else {
            v = (v ^ 0x3c3c).wrapping_mul(11);
            v = v.wrapping_sub(v >> 3);
        }
        v ^= v << 2;
    }
    v
}

fn warps(sets: &[&[u32]]) -> Warps {
    let mut w: Warps = sets.iter().map(|s| s.to_vec()).collect();
    w.sort();
    w
}

/// Per round, the expected warps on B and C.
fn expect(rounds: [[&[&[u32]]; 2]; ROUNDS]) -> BTreeMap<(usize, usize), Warps> {
    let mut m = BTreeMap::new();
    for (r, paths) in rounds.iter().enumerate() {
        for (p, sets) in paths.iter().enumerate() {
            if !sets.is_empty() {
                m.insert((r, p), warps(sets));
            }
        }
    }
    m
}

/// The run's compaction counts without the per-branch profile, which
/// `tests/branch_profile.rs` checks against the totals and against PDOM.
fn tbc_stats(s: &Stats) -> TbcStats {
    match &s.divergence {
        DivergenceStats::Tbc(t) => TbcStats {
            branches: vec![],
            waits: Default::default(),
            ..t.clone()
        },
        other => panic!("not a compaction run: {other:?}"),
    }
}

/// Warp instructions a policy saves against PDOM on B and C: the warps it does not
/// issue on each path times the path's length (the rest of the kernel runs in the three
/// full warps under every policy: D compacts all 12 threads into rows 0, 1, 2).
fn saved(
    shape: &Shape,
    pdom: &BTreeMap<(usize, usize), Warps>,
    other: &BTreeMap<(usize, usize), Warps>,
) -> i64 {
    let count = |m: &BTreeMap<(usize, usize), Warps>, p: usize| -> u64 {
        m.iter()
            .filter(|((_, q), _)| *q == p)
            .map(|(_, w)| w.len() as u64)
            .sum()
    };
    (0..2)
        .map(|p| (count(pdom, p) as i64 - count(other, p) as i64) * shape.length[p] as i64)
        .sum()
}

// The warps each policy runs B and C in, derived by hand.
//
// Home warps: W0 = 0-3, W1 = 4-7, W2 = 8-11 (thread t on lane t mod 4).
// Adequate rounds 0, 3: B = {0,1 | 6,7 | 8,9}, C = {2,3 | 4,5 | 10,11}: every warp
//   diverges. B's lanes hold 0,8 / 1,9 / 6 / 7: 2 warps at least; C's 4 / 5 / 2,10 /
//   3,11: 2. In 6 warps (3 per path), out in 4: compaction pays (adequate).
// Paper rounds 1, 2: B = {0,1,2,3 | 4,7 | 8,9}, C = {5,6 | 10,11}: W0 does not diverge.
//   B's lanes hold 0,4,8 / 1,9 / 2 / 3,7: 3 warps; C's - / 5 / 6,10 / 11: 2. In 5
//   warps, out in 5: compaction does not pay (the paper's Figure 8: lane 0 counts 3,
//   as many as the warps).
// The compaction unit gives each lane's threads to the warps in row order, so warp k
// takes each lane's k-th thread:
//   round 0/3 B: {0,1,6,7} {8,9}; C: {2,3,4,5} {10,11}
//   round 1/2 B: {0,1,2,3} {4,7,9} {8} (the paper's 0123, 49x7, 8xxx); C: {5,6,11} {10}
const A_B_COMPACT: &[&[u32]] = &[&[0, 1, 6, 7], &[8, 9]];
const A_C_COMPACT: &[&[u32]] = &[&[2, 3, 4, 5], &[10, 11]];
const P_B_COMPACT: &[&[u32]] = &[&[0, 1, 2, 3], &[4, 7, 9], &[8]];
const P_C_COMPACT: &[&[u32]] = &[&[5, 6, 11], &[10]];
// Uncompacted: each home warp with threads on the path runs them.
const A_B_HOME: &[&[u32]] = &[&[0, 1], &[6, 7], &[8, 9]];
const A_C_HOME: &[&[u32]] = &[&[2, 3], &[4, 5], &[10, 11]];
const P_B_HOME: &[&[u32]] = &[&[0, 1, 2, 3], &[4, 7], &[8, 9]];
const P_C_HOME: &[&[u32]] = &[&[5, 6], &[10, 11]];

/// PDOM issues the home warps, TBC the compacted ones: 22 warps on B and C against 18,
/// two fewer in each adequate round, none fewer where the paper's masks leave nothing
/// to compact.
#[test]
fn tbc_runs_the_papers_compacted_warps_and_pdom_the_home_ones() {
    let (pdom, pdom_stats, shape) = walk_through(&["divergence=pdom"]);
    assert_eq!(
        pdom,
        expect([
            [A_B_HOME, A_C_HOME],
            [P_B_HOME, P_C_HOME],
            [P_B_HOME, P_C_HOME],
            [A_B_HOME, A_C_HOME],
        ]),
        "PDOM"
    );
    let (tbc, tbc_run, tbc_shape) = walk_through(&["divergence=tbc"]);
    assert_eq!(tbc_shape.entry, shape.entry);
    assert_eq!(
        tbc,
        expect([
            [A_B_COMPACT, A_C_COMPACT],
            [P_B_COMPACT, P_C_COMPACT],
            [P_B_COMPACT, P_C_COMPACT],
            [A_B_COMPACT, A_C_COMPACT],
        ]),
        "TBC"
    );
    // B: 3 + 3 + 3 + 3 = 12 warps under PDOM, 2 + 3 + 3 + 2 = 10 under TBC; C: 3 + 2 +
    // 2 + 3 = 10 against 2 + 2 + 2 + 2 = 8: two rounds save one warp on each path.
    assert_eq!(
        pdom_stats.warp_instructions - tbc_run.warp_instructions,
        2 * (shape.length[0] + shape.length[1]),
        "{shape:?}"
    );
    assert_eq!(
        saved(&shape, &pdom, &tbc),
        2 * (shape.length[0] + shape.length[1]) as i64
    );
    // TBC stalls every warp at every branch and jump. Instances per CTA: the jump into
    // the loop (once), then per round the walk-through's branch, a jump to D at the end
    // of a path that has one (run by that path's warps) and the loop's branch.
    // - jump into the loop: 3 full warps, one path of 12 threads that needs 3: not
    //   adequate; 3 decisions, none diverged: stall, ideally bypass. In 3, out 3.
    // - the branch: rounds 0/3 adequate, every warp diverged (3 stall, ideally stall),
    //   in 6 out 4; rounds 1/2 not adequate (3 stall, ideally bypass), in 5 out 5.
    // - a path's jump: its compacted warps (B 2/3/3/2, C 2/2/2/2), none diverged and no
    //   fewer needed: stall ideally bypass, in = out = those warps.
    // - the loop's branch: 3 full warps (D compacted all 12 threads), uniform: stall
    //   ideally bypass, in 3 out 3.
    // The warps compacted: 3 after the jump into the loop; per round C's and B's warps,
    // 3 when D comes up and 3 after the loop's branch (the next round's A, or the exit).
    // Two paths pop at D per round: 8 reconvergences.
    let jump_warps: u64 = shape.jumps[0] * (2 + 3 + 3 + 2) + shape.jumps[1] * (2 + 2 + 2 + 2);
    let want = TbcStats {
        scheme: "tbc".into(),
        branch_instances: 1 + 4 * (2 + shape.jumps[0] + shape.jumps[1]),
        adequate_instances: 2,
        stall_ideal_stall: 3 + 3,
        stall_ideal_bypass: 3 + (3 + 3) + jump_warps + 4 * 3,
        bypass_ideal_stall: 0,
        bypass_ideal_bypass: 0,
        warps_before: 3 + (6 + 5 + 5 + 6) + jump_warps + 4 * 3,
        warps_after: 3 + (4 + 5 + 5 + 4) + jump_warps + 4 * 3,
        compacted_warps: 3 + (2 + 2 + 3 + 3) + 2 * (2 + 3 + 3 + 3) + (2 + 2 + 3 + 3),
        reconvergences: 8,
        ..TbcStats::default()
    };
    assert_eq!(tbc_stats(&tbc_run), want);
}

/// TBC+ runs the same warps on B and C, without waiting at the jumps and at the loop's
/// branch (proven uniform): its warps there bypass. Instances: the branch and the loop's
/// branch per round (the jumps are no events); the branch's decisions as under TBC
/// (every warp stalls at a branch not proven uniform), the loop's 3 per round bypass,
/// ideally too. Compacted: per round C's and B's warps and D's 3 (the loop's bypassing
/// warps leave nothing to compact).
#[test]
fn tbc_plus_compacts_the_same_warps_without_waiting_at_uniform_branches() {
    let (seen, run, _) = walk_through(&["divergence=tbc+"]);
    assert_eq!(
        seen,
        expect([
            [A_B_COMPACT, A_C_COMPACT],
            [P_B_COMPACT, P_C_COMPACT],
            [P_B_COMPACT, P_C_COMPACT],
            [A_B_COMPACT, A_C_COMPACT],
        ])
    );
    let want = TbcStats {
        scheme: "tbc+".into(),
        branch_instances: 8,
        adequate_instances: 2,
        stall_ideal_stall: 3 + 3,
        stall_ideal_bypass: 3 + 3,
        bypass_ideal_stall: 0,
        bypass_ideal_bypass: 4 * 3,
        warps_before: (6 + 5 + 5 + 6) + 4 * 3,
        warps_after: (4 + 5 + 5 + 4) + 4 * 3,
        compacted_warps: (2 + 2 + 3) + (2 + 3 + 3) + (2 + 3 + 3) + (2 + 2 + 3),
        reconvergences: 8,
        ..TbcStats::default()
    };
    assert_eq!(tbc_stats(&run), want);
}

/// CAPRI with a 1b-Latest CAPT, as the paper's Figure 7 runs it. A warp that did not
/// diverge bypasses without a lookup (§3.2's first outcome); a diverged one looks the
/// branch up. Per round of the branch:
/// - 0 (adequate): the first diverged warp misses, the branch is inserted as adequate
///   and the warp stalls; the other two hit, predict adequate, stall. All ideally stall.
///   The CAPT learns: adequate. Lookups 3, hits 2.
/// - 1 (the paper's): W0 does not diverge, bypasses (ideally too); W1 and W2 hit,
///   predict adequate, stall, ideally bypass (Figure 7 (b)-(c)). B runs W0 and the
///   compacted {4,7,9}, {8} (Figure 7 (d)), C {5,6,11}, {10}. In 5 out 1 + 2 + 2. The
///   CAPT learns: not adequate (Figure 7 (d): the history bit is reset). Lookups 2.
/// - 2 (the paper's): W1 and W2 hit, predict inadequate, bypass, ideally too: each
///   home warp runs its own threads on each path (taken side first, the rest kept
///   aside). In 5 out 5. Lookups 2.
/// - 3 (adequate): every warp diverges, hits, predicts inadequate and bypasses, ideally
///   stalls: the history lags one instance. In 6 out 6. Lookups 3. The CAPT learns:
///   adequate.
///
/// The loop's branch: 3 full warps, none diverged, 4 times: bypass, ideally bypass, in
/// 3 out 3. No jump is an event. Compacted: round 0 C 2, B 2, D 3; round 1 C 2, B 2
/// (W0 bypassed), D 3; rounds 2 and 3 D 3 each (bypassing warps leave nothing to
/// compact).
#[test]
fn capri_misses_once_then_follows_the_latest_adequacy() {
    let (seen, run, _) =
        walk_through(&["divergence=capri", "capt_entries=32", "capt_history=latest"]);
    assert_eq!(
        seen,
        expect([
            [A_B_COMPACT, A_C_COMPACT],
            // W0 bypassed with its own threads, {0,1,2,3}, as compaction would give them.
            [P_B_COMPACT, P_C_COMPACT],
            [P_B_HOME, P_C_HOME],
            [A_B_HOME, A_C_HOME],
        ])
    );
    let want = TbcStats {
        scheme: "capri".into(),
        branch_instances: 8,
        adequate_instances: 2,
        stall_ideal_stall: 3,
        stall_ideal_bypass: 2,
        bypass_ideal_stall: 3,
        bypass_ideal_bypass: 1 + 3 + 4 * 3,
        warps_before: (6 + 5 + 5 + 6) + 4 * 3,
        warps_after: (4 + 5 + 5 + 6) + 4 * 3,
        compacted_warps: (2 + 2 + 3) + (2 + 2 + 3) + 3 + 3,
        reconvergences: 8,
        capt_lookups: 3 + 2 + 2 + 3,
        capt_hits: 2 + 2 + 2 + 3,
        capt_inserts: 1,
        capt_evictions: 0,
        capt_most_entries: 1,
        waits: Default::default(),
        branches: vec![],
    };
    assert_eq!(tbc_stats(&run), want);
}
