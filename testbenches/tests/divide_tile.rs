//! Divide tile (`hdl/cgrf/divide_tile.rs`): RTL vs the composed model (token buffer +
//! special compute unit) every cycle over random operands, handshakes, operations and
//! resets, with the pairing contract (every result is the quotient of one pair its
//! thread delivered, per channel in order); a model with other dividers is caught.
use proptest::prelude::*;
use weft_sim::cgrf::divide_tile::{DivideTile as Model, COPIES, LATENCY};
use weft_testbenches::cgrf::divide_tile::DivideTileBench;
use weft_testbenches::run::{run, Outputs};

fn equivalence<const VCS: usize, const VB: usize>(cycles: u64, seed: u64, valid: u32, ready: u32) {
    let mut b = DivideTileBench::<VCS, VB>::default();
    b.valid_percent = valid;
    b.ready_percent = ready;
    if let Err(e) = run(&mut b, cycles, seed, Outputs::default()) {
        panic!("VCS {VCS}, valid {valid}%, ready {ready}%, seed {seed}: {e}");
    }
    assert!(
        b.results > cycles / 100,
        "only {} results in {cycles} cycles",
        b.results
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn model_and_rtl_agree(
        seed in any::<u64>(),
        small in any::<bool>(),
        valid in 10u32..=100,
        ready in 10u32..=100,
    ) {
        if small {
            equivalence::<2, 1>(3_000, seed, valid, ready);
        } else {
            equivalence::<8, 3>(3_000, seed, valid, ready);
        }
    }
}

#[test]
fn long_run_with_the_fabric_channel_count() {
    equivalence::<4, 2>(30_000, 11, 60, 80);
}

#[test]
fn a_model_with_other_dividers_is_caught() {
    for (copies, latency) in [(COPIES - 1, LATENCY), (COPIES, LATENCY - 1)] {
        let mut b = DivideTileBench::<4, 2>::default();
        b.model = Model::with_dividers(4, copies, latency);
        let r = run(&mut b, 3_000, 5, Outputs::default());
        assert!(
            r.is_err(),
            "{copies} copies of latency {latency} went unnoticed"
        );
    }
}
