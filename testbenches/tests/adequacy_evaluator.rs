//! Adequacy evaluator (SPEC §3.1): model-vs-RTL over edge sizes, the contract
//! `adequate == compaction removes a warp`, and the paper's figures.
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::capri::adequacy_evaluator::AdequacyEvaluatorBench;
use weft_testbenches::convert::small;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};

fn equivalence<const W: usize, const L: usize, const N: usize, const CW: usize>(
    cycles: u64,
    seed: u64,
) {
    let mut bench = AdequacyEvaluatorBench::<W, L, N, CW>::default();
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("{W} warps x {L} lanes, seed {seed}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    #[test]
    fn model_and_rtl_agree(seed in any::<u64>()) {
        equivalence::<1, 1, 1, 1>(1_000, seed);
        equivalence::<2, 1, 2, 2>(1_000, seed);
        equivalence::<1, 2, 2, 1>(1_000, seed);
        equivalence::<3, 4, 12, 2>(1_000, seed);
        equivalence::<5, 3, 15, 3>(1_000, seed);
        equivalence::<8, 32, 256, 4>(1_000, seed);
        equivalence::<16, 8, 128, 5>(1_000, seed);
    }
}

#[test]
fn long_run_at_the_paper_size() {
    equivalence::<8, 32, 256, 4>(100_000, 3);
}

fn eval(mask: Vec<u64>) -> (u64, u64, bool) {
    let mut b = AdequacyEvaluatorBench::<3, 4, 12, 2>::default();
    b.apply(mask);
    settle(&mut b.uut).unwrap();
    b.check().unwrap();
    (
        small(b.uut.min_warps.val()),
        small(b.uut.active_warps.val()),
        b.uut.adequate.val(),
    )
}

#[test]
fn figure_3_is_adequate() {
    // W0 = 0xxx, W1 = xx67 (bit 0 = lane 0): one warp 0x67 after compaction.
    assert_eq!(eval(vec![0b0001, 0b1100, 0]), (1, 2, true));
}

#[test]
fn figures_7_8_path_b_is_inadequate() {
    // W0 0123, W1 4xx7, W2 89xx: lane 0 holds three threads, so three warps remain.
    assert_eq!(eval(vec![0b1111, 0b1001, 0b0011]), (3, 3, false));
    // Without W0 (bypassed), the WCU's two warps of Figure 7(d).
    assert_eq!(eval(vec![0, 0b1001, 0b0011]), (2, 2, false));
}

#[test]
fn figure_4_tx_zero_is_never_adequate() {
    assert_eq!(eval(vec![0b0001; 3]), (3, 3, false));
    assert_eq!(eval(vec![0b1110; 3]), (3, 3, false));
    assert_eq!(eval(vec![0; 3]), (0, 0, false));
}

#[test]
fn other_sizes_lint_clean() {
    use weft_hdl::capri::adequacy_evaluator::AdequacyEvaluator;
    assert_lints_clean(
        "adequacy_evaluator_5x3",
        &verilog_of::<AdequacyEvaluator<5, 3, 15, 3>>(),
    );
}
