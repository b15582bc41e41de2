//! Adaptive slip controller (SPEC §4, §5.1): model-vs-RTL equivalence over sizes, and
//! each rule of the block header tested on its own.
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_sim::dom::slip_controller::SlipInputs;
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::convert::small;
use weft_testbenches::dom::slip_controller::SlipControllerBench;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};

fn equivalence<const L: usize, const W: usize, const WW: usize, const I: usize, const S: usize>(
    cycles: u64,
    seed: u64,
) {
    let mut bench = SlipControllerBench::<L, W, WW, I, S>::default();
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("{L} lanes x {W} warps, init {I}, step {S}, seed {seed}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10))]
    #[test]
    fn model_and_rtl_agree(seed in any::<u64>()) {
        equivalence::<1, 1, 1, 1, 1>(3_000, seed);
        equivalence::<2, 2, 1, 3, 3>(3_000, seed);
        equivalence::<5, 3, 2, 2, 255>(3_000, seed);
        equivalence::<32, 4, 2, 8, 8>(2_000, seed);
        equivalence::<32, 16, 4, 255, 1>(500, seed);
    }
}

#[test]
fn long_runs_reach_saturation() {
    // max-slip 255 from reset: counters climb to the 255 ceiling and must not wrap.
    equivalence::<2, 1, 1, 255, 1>(200_000, 3);
    equivalence::<32, 16, 4, 8, 8>(30_000, 4);
}

type B = SlipControllerBench<4, 2, 1, 2, 1>;

fn cycle(b: &mut B, i: SlipInputs) -> (bool, bool) {
    b.set_clock(false);
    b.apply(i);
    settle(&mut b.uut).unwrap();
    b.check().unwrap();
    let seen = (b.uut.grow.val(), b.uut.shrink.val());
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    b.tick().unwrap();
    seen
}

fn op(considered: u64, exec: u64, hit: u64, slipped: bool) -> SlipInputs {
    SlipInputs {
        event: true,
        considered,
        exec,
        hit,
        slipped,
        ..Default::default()
    }
}

fn fresh() -> B {
    let mut b = B::default();
    cycle(
        &mut b,
        SlipInputs {
            reset: true,
            ..Default::default()
        },
    );
    b
}

#[test]
fn rule_1_hitters_of_an_undiverged_warp_count_up() {
    let mut b = fresh();
    assert_eq!(
        cycle(&mut b, op(0b1111, 0b1111, 0b0011, true)),
        (true, false)
    );
    assert_eq!(b.counters(0), vec![1, 1, 0, 0]);
    // Not slipped (blocked / refused): no growth.
    assert_eq!(
        cycle(&mut b, op(0b1111, 0b1111, 0b0011, false)),
        (false, false)
    );
    assert_eq!(b.counters(0), vec![1, 1, 0, 0]);
}

#[test]
fn rule_2_tail_hits_leaders_that_miss_or_wait_count_down() {
    let mut b = fresh();
    cycle(&mut b, op(0b1111, 0b1111, 0b0011, true)); // 1 1 0 0
    cycle(&mut b, op(0b1111, 0b0011, 0b0001, true)); // tail not executing: no rule
    assert_eq!(b.counters(0), vec![1, 1, 0, 0]);
    // Tail (2, 3) executes and hits; lane 0 hits too, lane 1 misses: lane 1 -1.
    assert_eq!(
        cycle(&mut b, op(0b1111, 0b1111, 0b1101, false)),
        (false, true)
    );
    assert_eq!(b.counters(0), vec![1, 0, 0, 0]);
    // Tail executes and hits, lane 0 not executing: lane 0 -1.
    assert_eq!(
        cycle(&mut b, op(0b1111, 0b1110, 0b1110, false)),
        (false, true)
    );
    assert_eq!(b.counters(0), vec![0, 0, 0, 0]);
}

#[test]
fn rule_3_limit_is_counter_at_least_max_slip_and_forbids() {
    let mut b = fresh(); // max-slip 2
    cycle(&mut b, op(0b1111, 0b1111, 0b0001, true));
    cycle(&mut b, op(0b1111, 0b1111, 0b0001, true));
    assert_eq!(b.counters(0), vec![2, 0, 0, 0]);
    assert_eq!(small(b.uut.limit_mask.val()), 0b0001);
    assert!(b.uut.forbid.val());
    // A lane outside `considered` does not forbid.
    cycle(
        &mut b,
        SlipInputs {
            considered: 0b1110,
            ..Default::default()
        },
    );
    assert!(!b.uut.forbid.val());
    // Raising max-slip lifts the limit on the next edge.
    cycle(
        &mut b,
        SlipInputs {
            raise: true,
            ..Default::default()
        },
    );
    assert_eq!(small(b.uut.max_slip.val()), 3);
    assert_eq!(small(b.uut.limit_mask.val()), 0);
}

#[test]
fn rule_4_clear_zeroes_one_warp_and_rule_5_ignores_unconsidered_threads() {
    let mut b = fresh();
    cycle(&mut b, op(0b0111, 0b1111, 0b1001, true)); // lane 3 not considered
    assert_eq!(b.counters(0), vec![1, 0, 0, 0]);
    cycle(
        &mut b,
        SlipInputs {
            warp: 1,
            ..op(0b1111, 0b1111, 0b0010, true)
        },
    );
    assert_eq!(b.counters(1), vec![0, 1, 0, 0]);
    cycle(
        &mut b,
        SlipInputs {
            clear: true,
            ..Default::default()
        },
    );
    assert_eq!(b.counters(0), vec![0; 4]);
    assert_eq!(b.counters(1), vec![0, 1, 0, 0]);
}

#[test]
fn presets_lint_clean_at_other_sizes() {
    assert_lints_clean(
        "slip_controller_5x3",
        &verilog_of::<weft_hdl::dom::slip_controller::SlipController<5, 3, 2, 2, 3>>(),
    );
}

/// Max-slip moves by `STEP` per raise or lower and saturates at 255 and 0 (the core
/// model's `dom_slip_step`: one pulse where it used to give `STEP` one-step pulses).
#[test]
fn max_slip_moves_by_step_and_saturates() {
    let mut b = SlipControllerBench::<4, 1, 1, 8, 100>::default();
    let at = |b: &mut SlipControllerBench<4, 1, 1, 8, 100>, i: SlipInputs| {
        b.set_clock(false);
        b.apply(i);
        settle(&mut b.uut).unwrap();
        b.check().unwrap();
        b.set_clock(true);
        settle(&mut b.uut).unwrap();
        b.tick().unwrap();
        small(b.uut.max_slip.val())
    };
    let reset = SlipInputs {
        reset: true,
        ..Default::default()
    };
    let raise = SlipInputs {
        raise: true,
        ..Default::default()
    };
    let lower = SlipInputs {
        lower: true,
        ..Default::default()
    };
    let both = SlipInputs {
        raise: true,
        lower: true,
        ..Default::default()
    };
    assert_eq!(at(&mut b, reset), 8);
    assert_eq!(at(&mut b, raise.clone()), 108);
    assert_eq!(at(&mut b, raise.clone()), 208);
    assert_eq!(at(&mut b, raise.clone()), 255, "saturates");
    assert_eq!(at(&mut b, both), 255, "both keep");
    assert_eq!(at(&mut b, lower.clone()), 155);
    assert_eq!(at(&mut b, lower.clone()), 55);
    assert_eq!(at(&mut b, lower.clone()), 0, "saturates");
    assert_eq!(at(&mut b, lower), 0);
    assert_eq!(at(&mut b, raise), 100);
}
