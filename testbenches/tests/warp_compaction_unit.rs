//! Warp compaction unit (SPEC §3.2): model-vs-RTL over edge sizes with conservation,
//! lane keeping, bypass and `min_warps` contracts; the paper's Figures 3 and 7(d).
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::capri::warp_compaction_unit::{WarpCompactionUnitBench, WcuInputs};
use weft_testbenches::convert::{fields_from_bits, small};
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};

fn equivalence<
    const W: usize,
    const L: usize,
    const N: usize,
    const RW: usize,
    const GW: usize,
    const CW: usize,
>(
    cycles: u64,
    seed: u64,
) {
    let mut bench = WarpCompactionUnitBench::<W, L, N, RW, GW, CW>::default();
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("{W} warps x {L} lanes, seed {seed}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10))]
    #[test]
    fn model_and_rtl_agree(seed in any::<u64>()) {
        equivalence::<1, 1, 1, 1, 1, 1>(1_500, seed);
        equivalence::<2, 1, 2, 1, 1, 2>(1_500, seed);
        equivalence::<1, 2, 2, 1, 2, 1>(1_500, seed);
        equivalence::<3, 4, 12, 2, 8, 2>(1_500, seed);
        equivalence::<5, 3, 15, 3, 9, 3>(1_500, seed);
        equivalence::<8, 32, 256, 3, 96, 4>(1_000, seed);
    }
}

#[test]
fn long_runs() {
    equivalence::<3, 4, 12, 2, 8, 2>(100_000, 5);
    equivalence::<8, 32, 256, 3, 96, 4>(30_000, 6);
}

type Small = WarpCompactionUnitBench<3, 4, 12, 2, 8, 2>;

/// (valid, mask, source warps, last, warps_needed) of one cycle.
fn cycle(b: &mut Small, i: WcuInputs) -> (bool, u64, Vec<usize>, bool, u64) {
    b.set_clock(false);
    b.apply(i);
    settle(&mut b.uut).unwrap();
    b.check().unwrap();
    let seen = (
        b.uut.warp_valid.val(),
        small(b.uut.warp_mask.val()),
        fields_from_bits(b.uut.warp_src.val(), 2),
        b.uut.warp_last.val(),
        small(b.uut.warps_needed.val()),
    );
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    b.tick().unwrap();
    seen
}

fn idle() -> WcuInputs {
    WcuInputs {
        mask: vec![0; 3],
        umask: vec![0; 3],
        ..Default::default()
    }
}

fn fresh() -> Small {
    let mut b = Small::default();
    cycle(
        &mut b,
        WcuInputs {
            reset: true,
            ..idle()
        },
    );
    b
}

#[test]
fn figure_3_two_warps_compact_into_one() {
    let mut b = fresh();
    // W0 = 0xxx, W1 = xx67: one warp 0x67, lanes 2 and 3 from W1.
    cycle(
        &mut b,
        WcuInputs {
            load: true,
            mask: vec![0b0001, 0b1100, 0],
            umask: vec![0b1111; 3],
            ..idle()
        },
    );
    assert_eq!(
        cycle(&mut b, idle()),
        (true, 0b1101, vec![0, 0, 1, 1], true, 1)
    );
    assert!(!cycle(&mut b, idle()).0);
}

#[test]
fn figure_7d_bypassed_warp_is_not_compacted() {
    let mut b = fresh();
    // Path B: W0 0123 bypassed (its threads' umask bits clear), W1 4xx7, W2 89xx.
    cycle(
        &mut b,
        WcuInputs {
            load: true,
            mask: vec![0b1111, 0b1001, 0b0011],
            umask: vec![0, 0b1111, 0b1111],
            ..idle()
        },
    );
    assert_eq!(
        cycle(&mut b, idle()),
        (true, 0b1011, vec![1, 2, 0, 1], false, 2)
    );
    assert_eq!(
        cycle(&mut b, idle()),
        (true, 0b0001, vec![2, 0, 0, 0], true, 2)
    );
    assert!(!cycle(&mut b, idle()).0);
}

#[test]
fn a_bypassing_compacted_warp_leaves_its_rows_other_threads() {
    let mut b = fresh();
    // Two compacted warps share home row 1: A = W0 lanes 0-2 + W1 lane 3 bypassed,
    // B = W1 lanes 1, 2 + W2 lanes 0, 3 waited. Only B's threads are compacted, all of
    // them, into one warp (a per-warp bit would lose W1's lanes 1, 2).
    cycle(
        &mut b,
        WcuInputs {
            load: true,
            mask: vec![0b0111, 0b1110, 0b1001],
            umask: vec![0b1000, 0b0111, 0b1111],
            ..idle()
        },
    );
    assert_eq!(
        cycle(&mut b, idle()),
        (true, 0b1111, vec![2, 1, 1, 2], true, 1)
    );
    assert!(b.uut.saves_warps.val());
    assert!(!cycle(&mut b, idle()).0);
}

#[test]
fn other_sizes_lint_clean() {
    use weft_hdl::capri::warp_compaction_unit::WarpCompactionUnit;
    assert_lints_clean(
        "wcu_5x3",
        &verilog_of::<WarpCompactionUnit<5, 3, 15, 3, 9, 3>>(),
    );
}
