//! Memory tile (`hdl/cgrf/memory_tile.rs`, the fabric's LDSTU and live value unit):
//! RTL vs the composed model (token buffer + load/store unit) every cycle over random
//! configurations (load / store, by address / indexed, base), operands, handshakes,
//! memory latencies and answer orders, with the request and answer contracts; a model
//! with another reservation buffer is caught.
use proptest::prelude::*;
use weft_sim::cgrf::memory_tile::{MemoryTile as Model, RESERVATIONS};
use weft_testbenches::cgrf::memory_tile::MemoryTileBench;
use weft_testbenches::run::{run, Outputs};

fn equivalence<const VCS: usize, const VB: usize>(
    cycles: u64,
    seed: u64,
    valid: u32,
    mem_ready: u32,
    latency: u64,
) {
    let mut b = MemoryTileBench::<VCS, VB>::default();
    b.valid_percent = valid;
    b.mem_ready_percent = mem_ready;
    b.latency = (1, latency);
    if let Err(e) = run(&mut b, cycles, seed, Outputs::default()) {
        panic!("VCS {VCS}, valid {valid}%, memory ready {mem_ready}%, latency 1..{latency}, seed {seed}: {e}");
    }
    assert!(
        b.tokens > cycles / 100,
        "only {} tokens in {cycles} cycles",
        b.tokens
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn model_and_rtl_agree(
        seed in any::<u64>(),
        small in any::<bool>(),
        valid in 10u32..=100,
        mem_ready in 10u32..=100,
        latency in 1u64..=40,
    ) {
        if small {
            equivalence::<2, 1>(3_000, seed, valid, mem_ready, latency);
        } else {
            equivalence::<8, 3>(3_000, seed, valid, mem_ready, latency);
        }
    }
}

#[test]
fn long_run_with_the_fabric_channel_count() {
    equivalence::<4, 2>(30_000, 11, 60, 80, 24);
}

#[test]
fn a_model_with_another_reservation_buffer_is_caught() {
    let mut b = MemoryTileBench::<4, 2>::default();
    b.model = Model::with_reservations(4, RESERVATIONS - 1);
    b.latency = (20, 40);
    let r = run(&mut b, 5_000, 5, Outputs::default());
    assert!(
        r.is_err(),
        "{} reservations went unnoticed",
        RESERVATIONS - 1
    );
}
