//! Policy accuracy (CAPRI §5.1) on a random branch-outcome stream, measured with the
//! golden models: each per-warp decision at a dynamic branch is Bypass/Bypass,
//! Stall/Stall (right) or Bypass/Stall, Stall/Bypass (wrong), the first word being the
//! decision and the second the ideal. Run with `--nocapture` to see the table.
//!
//! Ideal: a warp should stall exactly when it diverged at a dynamic branch whose
//! compaction removes at least one warp on either path (the adequacy evaluator over
//! all warps: `min_warps(taken) + min_warps(not taken) < active(taken) + active(not
//! taken)`). A non-diverged warp gains nothing by waiting (its full row adds one to
//! every lane's count). CAPRI's CAPT is updated with that same adequacy when `WCnt`
//! reaches zero.
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use weft_sim::capri::adequacy_evaluator::evaluate;
use weft_sim::capri::capri_decision::{decide, Policy};
use weft_sim::capri::capt::{Capt, History, Op};

const WARPS: usize = 8;
const LANES: usize = 32;
const FULL: u64 = (1 << LANES) - 1;

/// Static branches of the stream: (PC, kind, share of dynamic branches in percent).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// Loop end: every warp goes the same way (Figure 4(b)).
    LoopEnd,
    /// `if (tx == 0)`: lane 0 of every warp taken (Figure 4(c)): diverges, never adequate.
    TxZero,
    /// Data-dependent, each thread taken with probability 1/2: usually adequate.
    Random,
    /// Irregular: one or two warps diverge on a few lanes, the rest are uniform.
    Sparse,
    /// Unconditional or `.uni`: never diverges, known to the compiler.
    Uniform,
}

const MIX: [(u32, Kind, u32); 5] = [
    (0x100, Kind::LoopEnd, 30),
    (0x200, Kind::TxZero, 20),
    (0x300, Kind::Random, 15),
    (0x400, Kind::Sparse, 15),
    (0x500, Kind::Uniform, 20),
];

fn outcome(kind: Kind, rng: &mut ChaCha8Rng) -> Vec<u64> {
    let way = if rng.gen_bool(0.5) { FULL } else { 0 };
    let chosen = rng.gen_range(0..WARPS);
    (0..WARPS)
        .map(|w| match kind {
            Kind::LoopEnd | Kind::Uniform => way,
            Kind::TxZero => 1,
            Kind::Random => rng.gen::<u64>() & FULL,
            Kind::Sparse => {
                if w == chosen || rng.gen_ratio(1, 8) {
                    way ^ (rng.gen::<u64>() & rng.gen::<u64>() & FULL)
                } else {
                    way
                }
            }
        })
        .collect()
}

#[derive(Default, Debug, Clone, Copy)]
struct Tally {
    bypass_bypass: u64,
    stall_stall: u64,
    bypass_stall: u64,
    stall_bypass: u64,
}

impl Tally {
    fn total(&self) -> u64 {
        self.bypass_bypass + self.stall_stall + self.bypass_stall + self.stall_bypass
    }
    fn right(&self) -> f64 {
        (self.bypass_bypass + self.stall_stall) as f64 / self.total() as f64
    }
    fn frac(&self, n: u64) -> f64 {
        n as f64 / self.total() as f64
    }
}

/// Runs `branches` dynamic branches of the mix under `policy`.
fn measure(policy: Policy, history: History, branches: usize, seed: u64) -> Tally {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut capt = Capt::new(32, history);
    let mut t = Tally::default();
    let total: u32 = MIX.iter().map(|m| m.2).sum();
    for _ in 0..branches {
        let mut pick = rng.gen_range(0..total);
        let &(pc, kind, _) = MIX
            .iter()
            .find(|m| {
                if pick < m.2 {
                    true
                } else {
                    pick -= m.2;
                    false
                }
            })
            .unwrap();
        let taken = outcome(kind, &mut rng);
        let not_taken: Vec<u64> = taken.iter().map(|&m| !m & FULL).collect();
        let (a, b) = (evaluate(&taken, LANES), evaluate(&not_taken, LANES));
        let adequate = a.min_warps + b.min_warps < a.active_warps + b.active_warps;
        for &warp_taken in taken.iter().take(WARPS) {
            let diverged = warp_taken != 0 && warp_taken != FULL;
            let (hit, predict) = capt.lookup(pc);
            let d = decide(policy, true, kind == Kind::Uniform, diverged, hit, predict);
            if d.insert {
                capt.clock(false, Op::Insert, pc);
            }
            let ideal_stall = adequate && diverged;
            match (d.stall, ideal_stall) {
                (false, false) => t.bypass_bypass += 1,
                (true, true) => t.stall_stall += 1,
                (false, true) => t.bypass_stall += 1,
                (true, false) => t.stall_bypass += 1,
            }
        }
        // WCnt reached zero: the evaluator updates the CAPT (ignored when absent).
        capt.clock(false, Op::Update(adequate), pc);
    }
    t
}

#[test]
fn policy_accuracy_on_a_random_branch_stream() {
    let n = 20_000;
    let runs = [
        ("WPDOM", Policy::Wpdom, History::Latest),
        ("TBC", Policy::Tbc, History::Latest),
        ("TBC+", Policy::TbcPlus, History::Latest),
        ("CAPRI 1b-Latest", Policy::Capri, History::Latest),
        ("CAPRI 1b-Sticky", Policy::Capri, History::Sticky),
        ("CAPRI 2b-counter", Policy::Capri, History::Counter2),
    ];
    println!(
        "{n} dynamic branches x {WARPS} warps of {LANES} lanes; mix: {}",
        MIX.iter()
            .map(|(pc, k, p)| format!("{k:?}@{pc:#x} {p}%"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!("policy             right   Byp/Byp Stall/Stall Byp/Stall Stall/Byp");
    let mut right = std::collections::HashMap::new();
    for (name, policy, history) in runs {
        let t = measure(policy, history, n, 42);
        println!(
            "{name:<18} {:>6.1}% {:>8.1}% {:>10.1}% {:>8.1}% {:>8.1}%",
            100.0 * t.right(),
            100.0 * t.frac(t.bypass_bypass),
            100.0 * t.frac(t.stall_stall),
            100.0 * t.frac(t.bypass_stall),
            100.0 * t.frac(t.stall_bypass)
        );
        if policy == Policy::Tbc {
            assert_eq!(t.bypass_bypass + t.bypass_stall, 0, "TBC only stalls");
        }
        if policy == Policy::Wpdom {
            assert_eq!(t.stall_stall + t.stall_bypass, 0, "WPDOM never stalls");
        }
        right.insert(name, t.right());
    }
    // The paper's qualitative ordering (§5.1): TBC worst, TBC+ a little better, CAPRI
    // best; sticky below latest.
    assert!(right["TBC"] < right["TBC+"]);
    assert!(right["TBC+"] < right["CAPRI 1b-Latest"]);
    assert!(right["WPDOM"] < right["CAPRI 1b-Latest"]);
    assert!(right["CAPRI 1b-Sticky"] <= right["CAPRI 1b-Latest"]);
    assert!(right["CAPRI 1b-Latest"] > 0.9);
}

#[test]
fn capri_bypasses_the_tx_zero_branch_after_one_evaluation() {
    let mut capt = Capt::new(32, History::Latest);
    let taken = vec![1u64; WARPS];
    let pc = 0x200;
    for visit in 0..3 {
        let mut stalls = 0;
        for _ in 0..WARPS {
            let (hit, predict) = capt.lookup(pc);
            let d = decide(Policy::Capri, true, false, true, hit, predict);
            if d.insert {
                capt.clock(false, Op::Insert, pc);
            }
            stalls += usize::from(d.stall);
        }
        let e = evaluate(&taken, LANES);
        assert!(!e.adequate, "tx == 0 is never adequate");
        capt.clock(false, Op::Update(e.adequate), pc);
        assert_eq!(stalls, if visit == 0 { WARPS } else { 0 }, "visit {visit}");
    }
    // The loop-end branch never diverges: CAPRI never looks it up, never stalls.
    let d = decide(Policy::Capri, true, false, false, false, false);
    assert!(!d.stall && !d.insert);
}
