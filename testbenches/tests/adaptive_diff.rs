//! Adaptive diff (SPEC §4, §5.2): equivalence with a short period, and the three
//! decisions as directed tests.
use proptest::prelude::*;
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::dom::adaptive_diff::{AdaptiveDiffBench, DiffInputs};
use weft_testbenches::run::{run, Outputs};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]
    #[test]
    fn model_and_rtl_agree(seed in any::<u64>()) {
        let mut b = AdaptiveDiffBench::<64, 4, 32, 16, 7>::default();
        if let Err(e) = run(&mut b, 20_000, seed, Outputs::default()) {
            panic!("period 64, seed {seed}: {e}");
        }
        let mut b = AdaptiveDiffBench::<1, 0, 1, 1, 1>::default();
        if let Err(e) = run(&mut b, 2_000, seed, Outputs::default()) {
            panic!("period 1, seed {seed}: {e}");
        }
    }
}

#[test]
fn long_run_at_the_paper_period() {
    let mut b = AdaptiveDiffBench::<100000, 1000, 50000, 25000, 17>::default();
    run(&mut b, 300_000, 5, Outputs::default()).unwrap();
}

/// Runs one 8-cycle period with constant inputs; returns (raise, lower) after it.
fn period(idle: bool, over: bool, stall: bool) -> (bool, bool) {
    let mut b = AdaptiveDiffBench::<8, 1, 4, 4, 4>::default();
    let step = |b: &mut AdaptiveDiffBench<8, 1, 4, 4, 4>, i: DiffInputs| {
        b.set_clock(false);
        b.apply(i);
        settle(&mut b.uut).unwrap();
        b.check().unwrap();
        b.set_clock(true);
        settle(&mut b.uut).unwrap();
        b.tick().unwrap();
    };
    step(
        &mut b,
        DiffInputs {
            reset: true,
            ..Default::default()
        },
    );
    for _ in 0..8 {
        step(
            &mut b,
            DiffInputs {
                reset: false,
                idle,
                over_share: over,
                mem_stall: stall,
            },
        );
    }
    b.set_clock(false);
    settle(&mut b.uut).unwrap();
    (b.uut.raise.val(), b.uut.lower.val())
}

#[test]
fn neither_alu_nor_bandwidth_bound_raises() {
    assert_eq!(period(true, false, true), (true, false));
}

#[test]
fn alu_or_bandwidth_bound_lowers() {
    assert_eq!(period(false, false, false), (false, true), "ALU bound");
    assert_eq!(period(true, true, false), (false, true), "bandwidth bound");
}

#[test]
fn balanced_keeps() {
    assert_eq!(period(true, true, true), (false, false));
}
