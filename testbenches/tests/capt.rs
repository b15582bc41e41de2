//! CAPT (SPEC §3.3): model-vs-RTL (true LRU) for every history kind and several
//! sizes; the 1b-Latest history of Figure 7; LRU replacement.
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::capri::capt::{CaptBench, CaptInputs};
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};

fn equivalence<const E: usize, const H: usize, const HW: usize, const AW: usize>(
    cycles: u64,
    seed: u64,
) {
    let mut bench = CaptBench::<E, H, HW, AW>::default();
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("{E} entries, history {H}, seed {seed}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10))]
    #[test]
    fn model_and_rtl_agree(seed in any::<u64>()) {
        equivalence::<1, 0, 1, 1>(2_000, seed);
        equivalence::<2, 2, 2, 1>(2_000, seed);
        equivalence::<3, 1, 1, 2>(2_000, seed);
        equivalence::<5, 0, 1, 3>(2_000, seed);
        equivalence::<8, 0, 1, 3>(2_000, seed);
        equivalence::<8, 1, 1, 3>(2_000, seed);
        equivalence::<8, 2, 2, 3>(2_000, seed);
        equivalence::<32, 0, 1, 5>(1_000, seed);
    }
}

#[test]
fn long_runs() {
    equivalence::<8, 0, 1, 3>(100_000, 11);
    equivalence::<32, 0, 1, 5>(50_000, 12);
}

type C4 = CaptBench<4, 0, 1, 2>;

fn step(b: &mut C4, i: CaptInputs) -> (bool, bool) {
    b.set_clock(false);
    b.apply(i);
    settle(&mut b.uut).unwrap();
    b.check().unwrap();
    let seen = (b.uut.hit.val(), b.uut.predict_adequate.val());
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    b.tick().unwrap();
    seen
}

fn op(op: u64, pc: u32, adequate: bool) -> CaptInputs {
    CaptInputs {
        op,
        op_pc: pc,
        op_adequate: adequate,
        lookup_pc: pc,
        ..Default::default()
    }
}

fn look(pc: u32) -> CaptInputs {
    CaptInputs {
        lookup_pc: pc,
        ..Default::default()
    }
}

#[test]
fn figure_7_latest_bit_cleared_when_compaction_is_ineffective() {
    let mut b = C4::default();
    step(
        &mut b,
        CaptInputs {
            reset: true,
            ..Default::default()
        },
    );
    // 7(b): W1 diverges at BR_B^C, misses, is inserted as adequate.
    assert_eq!(step(&mut b, op(1, 0xbc, false)), (false, false));
    // 7(c): W2 hits and stalls.
    assert_eq!(step(&mut b, look(0xbc)), (true, true));
    // 7(d): the evaluator finds path B inadequate: history reset.
    step(&mut b, op(2, 0xbc, false));
    assert_eq!(step(&mut b, look(0xbc)), (true, false));
}

#[test]
fn lru_replaces_the_least_recently_touched_entry() {
    let mut b = C4::default();
    step(
        &mut b,
        CaptInputs {
            reset: true,
            ..Default::default()
        },
    );
    for pc in [0x10, 0x20, 0x30, 0x40] {
        step(&mut b, op(1, pc, false));
    }
    step(&mut b, op(2, 0x10, true)); // 0x10 most recent; 0x20 now least recent
    step(&mut b, look(0x20)); // lookups don't count
    step(&mut b, op(1, 0x50, false));
    assert_eq!(step(&mut b, look(0x20)), (false, false));
    for pc in [0x10, 0x30, 0x40, 0x50] {
        assert!(step(&mut b, look(pc)).0, "{pc:#x} kept");
    }
}

#[test]
fn other_sizes_lint_clean() {
    use weft_hdl::capri::capt::Capt;
    assert_lints_clean("capt_5_counter2", &verilog_of::<Capt<5, 2, 2, 3>>());
    assert_lints_clean("capt_1", &verilog_of::<Capt<1, 0, 1, 1>>());
}
