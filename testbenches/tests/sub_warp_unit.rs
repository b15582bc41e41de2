//! Sub-warp unit (SPEC §2.1): model-vs-RTL equivalence over several sizes with the
//! contracts checked every cycle, the paper's Figure 7 breakdown, and the memory and
//! jump modes of §3.1.2.
use proptest::prelude::*;
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::convert::{fields_from_bits, small};
use weft_testbenches::lwm::sub_warp_unit::{SubWarpInputs, SubWarpUnitBench};
use weft_testbenches::run::{run, Outputs};

fn equivalence<const L: usize, const R: usize, const N: usize, const RW: usize, const GW: usize>(
    cycles: u64,
    seed: u64,
    load_percent: u32,
) {
    let mut bench = SubWarpUnitBench::<L, R, N, RW, GW>::default();
    bench.load_percent = load_percent;
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("{L} lanes x {R} rows, seed {seed}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Edge sizes (1, 2), non-powers of two (3, 5) and the paper's sizes.
    #[test]
    fn model_and_rtl_agree(seed in any::<u64>(), load in 5u32..60) {
        equivalence::<1, 1, 1, 1, 1>(1_500, seed, load);
        equivalence::<2, 1, 2, 1, 2>(1_500, seed, load);
        equivalence::<1, 2, 2, 1, 1>(1_500, seed, load);
        equivalence::<3, 3, 9, 2, 6>(1_500, seed, load);
        equivalence::<5, 3, 15, 2, 10>(1_500, seed, load);
        equivalence::<4, 8, 32, 3, 12>(1_500, seed, load);
        equivalence::<8, 5, 40, 3, 24>(1_500, seed, load);
        equivalence::<32, 8, 256, 3, 96>(1_500, seed, load);
    }
}

#[test]
fn long_runs_at_the_paper_sizes() {
    equivalence::<4, 8, 32, 3, 12>(100_000, 7, 20);
    equivalence::<32, 8, 256, 3, 96>(50_000, 8, 20);
}

type Fig7 = SubWarpUnitBench<4, 8, 32, 3, 12>;

/// What the unit presents in one cycle.
#[derive(Debug, PartialEq)]
struct Seen {
    valid: bool,
    mask: u64,
    rows: Vec<usize>,
    last: bool,
    stall: bool,
}

/// Applies `inputs`, reads the outputs (checked against the model by the bench), then
/// clocks RTL and model.
fn cycle(b: &mut Fig7, inputs: SubWarpInputs) -> Seen {
    b.set_clock(false);
    b.apply(inputs);
    settle(&mut b.uut).unwrap();
    b.check().unwrap();
    let seen = Seen {
        valid: b.uut.sub_valid.val(),
        mask: small(b.uut.sub_mask.val()),
        rows: fields_from_bits(b.uut.sub_rows.val(), 3),
        last: b.uut.last.val(),
        stall: b.uut.stall.val(),
    };
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    b.tick().unwrap();
    seen
}

fn idle() -> SubWarpInputs {
    SubWarpInputs {
        mask: vec![0; 8],
        ..Default::default()
    }
}

fn load(mask: &[u64], mode: u64) -> SubWarpInputs {
    SubWarpInputs {
        load: true,
        mask: mask.to_vec(),
        mode,
        ..Default::default()
    }
}

/// A 32-thread large warp on 4 lanes, diverged: rows as lane bit masks (bit 0 = lane 0).
/// Column popcounts 4, 3, 3, 3: four sub-warps where the baseline would issue eight
/// partly empty warps.
const FIG7: [u64; 8] = [
    0b1001, 0b0010, 0b0011, 0b0100, 0b1101, 0b0010, 0b1001, 0b0100,
];

fn sub(mask: u64, rows: [usize; 4], last: bool) -> Seen {
    Seen {
        valid: true,
        mask,
        rows: rows.to_vec(),
        last,
        stall: !last,
    }
}

fn fresh() -> Fig7 {
    let mut b = Fig7::default();
    cycle(
        &mut b,
        SubWarpInputs {
            reset: true,
            ..idle()
        },
    );
    b
}

#[test]
fn figure_7_four_sub_warps_in_four_cycles() {
    let mut b = fresh();
    let loading = cycle(&mut b, load(&FIG7, 0));
    assert!(!loading.valid, "nothing is presented in the load cycle");
    // Worked by hand: each lane takes its lowest remaining row.
    assert_eq!(cycle(&mut b, idle()), sub(0b1111, [0, 1, 3, 0], false));
    assert_eq!(cycle(&mut b, idle()), sub(0b1111, [2, 2, 4, 4], false));
    assert_eq!(cycle(&mut b, idle()), sub(0b1111, [4, 5, 7, 6], false));
    assert_eq!(cycle(&mut b, idle()), sub(0b0001, [6, 0, 0, 0], true));
    let after = cycle(&mut b, idle());
    assert!(!after.valid && !after.stall, "the breakdown is complete");
}

#[test]
fn memory_mode_keeps_rows_whole() {
    let mut b = fresh();
    cycle(&mut b, load(&FIG7, 1));
    for (r, &row) in FIG7.iter().enumerate() {
        let lanes: Vec<usize> = (0..4)
            .map(|c| if row >> c & 1 == 1 { r } else { 0 })
            .collect();
        let s = cycle(&mut b, idle());
        assert_eq!((s.valid, s.mask, s.rows), (true, row, lanes), "row {r}");
        assert_eq!(s.last, r == 7);
    }
    assert!(!cycle(&mut b, idle()).valid);
}

#[test]
fn jump_mode_takes_one_sub_warp() {
    let mut b = fresh();
    cycle(&mut b, load(&[0b1111; 8], 2));
    assert_eq!(cycle(&mut b, idle()), sub(0b1111, [0, 0, 0, 0], true));
    assert!(
        !cycle(&mut b, idle()).valid,
        "the whole copy cleared after the jump"
    );
}

#[test]
fn load_wins_over_clearing_and_empty_masks_yield_nothing() {
    let mut b = fresh();
    cycle(&mut b, load(&FIG7, 0));
    assert!(cycle(&mut b, load(&[0b0100, 0, 0, 0, 0, 0, 0, 0], 3)).valid);
    // Mode 3 is normal: the single thread left is the whole new large warp.
    assert_eq!(cycle(&mut b, idle()), sub(0b0100, [0, 0, 0, 0], true));
    cycle(&mut b, load(&[0; 8], 0));
    assert!(!cycle(&mut b, idle()).valid);
}

#[test]
fn reset_clears_the_copy() {
    let mut b = fresh();
    cycle(&mut b, load(&FIG7, 0));
    cycle(
        &mut b,
        SubWarpInputs {
            reset: true,
            ..idle()
        },
    );
    assert!(!cycle(&mut b, idle()).valid);
}
