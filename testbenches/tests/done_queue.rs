//! The VGIW core's done queue (`hdl/vgiw/done_queue.rs`) against its golden model
//! (`sim/vgiw/done_queue.rs`), cycle by cycle under random pushes, pops and resets,
//! with the contracts: threads leave in the order they came, none is lost or duplicated
//! while the queue has room, and a push into a full queue that does not pop is flagged.
//! Property-tested over 2..16 slots, seeds and rates; a model one slot short is caught.
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::VecDeque;
use weft_hdl::vgiw::done_queue::DoneQueue;
use weft_sim::vgiw::done_queue::{DoneQueue as Model, DoneQueueIn};
use weft_testbenches::bench::settle;
use weft_testbenches::convert::small;

/// Runs `cycles` cycles against `model`; returns the threads popped, or the first
/// difference between RTL and model.
fn run<const D: usize, const QW: usize, const CW: usize>(
    mut model: Model,
    seed: u64,
    cycles: usize,
    push_percent: u32,
    pop_percent: u32,
) -> Result<usize, String> {
    let mut uut = DoneQueue::<D, QW, CW>::default();
    uut.connect_all();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Contract reference: what went in and has not come out, while nothing was lost.
    let mut expected: VecDeque<(u16, bool)> = VecDeque::new();
    let mut popped = 0;
    for cycle in 0..cycles {
        let i = DoneQueueIn {
            reset: cycle == 0 || rng.gen_ratio(1, 3000),
            push: rng
                .gen_ratio(push_percent, 100)
                .then(|| (rng.gen(), rng.gen())),
            out_ready: rng.gen_ratio(pop_percent, 100),
        };
        uut.clock.next = Clock::from(false);
        uut.reset.next = i.reset;
        uut.push.next = i.push.is_some();
        let (tid, taken) = i.push.unwrap_or_default();
        uut.push_tid.next = u64::from(tid).into();
        uut.push_taken.next = taken;
        uut.out_ready.next = i.out_ready;
        settle(&mut uut).map_err(|e| e.to_string())?;
        let want = model.outputs();
        let got = uut
            .out_valid
            .val()
            .then(|| (small(uut.out_tid.val()) as u16, uut.out_taken.val()));
        if got != want.out || uut.overflow.val() != want.overflow {
            return Err(format!(
                "cycle {cycle}: RTL out {got:?} overflow {}, model {want:?}",
                uut.overflow.val()
            ));
        }
        if !want.overflow {
            assert_eq!(got, expected.front().copied(), "oldest first at {cycle}");
        }
        if i.reset {
            expected.clear();
        } else {
            if i.out_ready && got.is_some() {
                expected.pop_front();
                popped += 1;
            }
            expected.extend(i.push);
        }
        model.clock(&i);
        uut.clock.next = Clock::from(true);
        settle(&mut uut).map_err(|e| e.to_string())?;
    }
    Ok(popped)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn model_and_rtl_agree(
        seed in any::<u64>(),
        qw in 1u32..=4,
        push in 5u32..=100,
        pop in 5u32..=100,
    ) {
        let d = 1usize << qw;
        let popped = match qw {
            1 => run::<2, 1, 2>(Model::new(d), seed, 3_000, push, pop),
            2 => run::<4, 2, 3>(Model::new(d), seed, 3_000, push, pop),
            3 => run::<8, 3, 4>(Model::new(d), seed, 3_000, push, pop),
            _ => run::<16, 4, 5>(Model::new(d), seed, 3_000, push, pop),
        };
        prop_assert!(popped.map_err(TestCaseError::fail)? > 0);
    }
}

/// The core's size, pushes faster than pops: the queue fills, overflows and is reset.
#[test]
fn matches_the_model_at_eight_slots() {
    let popped = run::<8, 3, 4>(Model::new(8), 1, 20_000, 60, 50).unwrap();
    assert!(popped > 5_000, "the stimulus moves threads ({popped})");
}

#[test]
fn a_model_one_slot_short_is_caught() {
    let err = run::<8, 3, 4>(Model::new(7), 1, 20_000, 60, 50).expect_err("caught");
    assert!(err.contains("overflow"), "{err}");
}
