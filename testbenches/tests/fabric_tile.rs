//! Fabric tile (`hdl/cgrf/fabric_tile.rs`, switch + compute unit): RTL vs the composed
//! model every cycle over random routes (any input or none per output, the unit's result
//! included), random unit configurations (every opcode, with and without immediate),
//! random tokens and readies, with the routing contract (a neighbour output carries its
//! route's input in order); a model with the unit's result unwired is caught.
use proptest::prelude::*;
use weft_sim::cgrf::fabric_tile::FabricTile as Model;
use weft_testbenches::cgrf::fabric_tile::FabricTileBench;
use weft_testbenches::run::{run, Outputs};

fn equivalence<const VCS: usize, const VB: usize>(cycles: u64, seed: u64, valid: u32, ready: u32) {
    let mut b = FabricTileBench::<VCS, VB>::default();
    b.valid_percent = valid;
    b.ready_percent = ready;
    if let Err(e) = run(&mut b, cycles, seed, Outputs::default()) {
        panic!("VCS {VCS}, valid {valid}%, ready {ready}%, seed {seed}: {e}");
    }
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
    let mut b = FabricTileBench::<4, 2>::default();
    run(&mut b, 30_000, 11, Outputs::default()).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        b.delivered > 1_000,
        "only {} tokens crossed the tile",
        b.delivered
    );
}

#[test]
fn a_model_without_the_result_link_is_caught() {
    let caught = (1..=5).any(|seed| {
        let mut b = FabricTileBench::<4, 2>::default();
        b.model = Model::without_result_link(4);
        run(&mut b, 5_000, seed, Outputs::default()).is_err()
    });
    assert!(caught, "an unwired result went unnoticed");
}
