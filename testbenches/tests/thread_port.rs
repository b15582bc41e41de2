//! The fabric's thread port (`hdl/cgrf/thread_port.rs`) against its golden model
//! (`sim/cgrf/thread_port.rs`), cycle by cycle under random stimulus, with the
//! contracts: a channel is never given to two threads at once, a thread enters only
//! with a free channel, the injected token carries the thread id as data, and a
//! finished thread is reported at once. Property-tested over sizes 2..32 channels,
//! seeds and handshake rates.
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::cgrf::thread_port::ThreadPort;
use weft_sim::cgrf::thread_port::ThreadPort as Model;
use weft_testbenches::bench::settle;
use weft_testbenches::convert::small;

/// Percent of cycles a thread is offered / the first switch is ready / a last token
/// arrives for a channel in use.
#[derive(Clone, Copy, Debug)]
struct Knobs {
    valid: u32,
    ready: u32,
    last: u32,
}

const DEFAULT: Knobs = Knobs {
    valid: 75,
    ready: 80,
    last: 33,
};

/// Runs `cycles` cycles; returns the threads injected.
fn run<const VCS: usize, const VB: usize>(seed: u64, cycles: usize, k: Knobs) -> usize {
    let mut uut = ThreadPort::<VCS, VB>::default();
    uut.connect_all();
    let mut model = Model::new(VCS);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut held: Vec<Option<u16>> = vec![None; VCS];
    let mut injected = 0;
    for cycle in 0..cycles {
        let reset = cycle == 0 || rng.gen_ratio(1, 2000);
        let valid = rng.gen_ratio(k.valid, 100);
        let ready = rng.gen_ratio(k.ready, 100);
        let tid: u16 = rng.gen();
        // a last token for a channel in use (sometimes), never for a free one
        let busy: Vec<usize> = (0..VCS).filter(|&v| held[v].is_some()).collect();
        let last = (!busy.is_empty() && rng.gen_ratio(k.last, 100))
            .then(|| busy[rng.gen_range(0..busy.len())]);
        uut.clock.next = Clock::from(false);
        uut.reset.next = reset;
        uut.thread_valid.next = valid;
        uut.thread_tid.next = u64::from(tid).into();
        uut.inject_ready.next = ready;
        uut.last_valid.next = last.is_some();
        uut.last_vc.next = (last.unwrap_or(0) as u64).into();
        uut.last_tid.next = u64::from(last.and_then(|v| held[v]).unwrap_or(0)).into();
        uut.last_data.next = 0xabcd_u64.into();
        settle(&mut uut).unwrap();
        let free = model.free_channel();
        assert_eq!(
            uut.thread_ready.val(),
            free.is_some() && ready,
            "thread_ready at {cycle}"
        );
        assert_eq!(
            uut.inject_valid.val(),
            free.is_some() && valid,
            "inject_valid at {cycle}"
        );
        if let Some(v) = free {
            assert_eq!(
                small(uut.inject_vc.val()) as usize,
                v,
                "lowest free channel at {cycle}"
            );
            assert_eq!(
                small(uut.inject_data.val()),
                u64::from(tid),
                "thread token data = tid"
            );
        }
        let in_flight = small(uut.in_flight.val());
        for (v, &b) in model.in_flight().iter().enumerate() {
            assert_eq!(in_flight >> v & 1 == 1, b, "in_flight bit {v} at {cycle}");
        }
        assert!(uut.last_ready.val(), "a last token is always taken");
        assert_eq!(uut.done_valid.val(), last.is_some(), "done at {cycle}");
        let inject = valid && ready && free.is_some() && !reset;
        if reset {
            held.iter_mut().for_each(|h| *h = None);
        } else {
            if let Some(v) = last {
                assert_eq!(small(uut.done_tid.val()) as u16, held[v].unwrap());
                held[v] = None;
            }
            if inject {
                let v = free.unwrap();
                assert!(held[v].is_none(), "channel {v} given to two threads");
                held[v] = Some(tid);
                injected += 1;
            }
        }
        model.clock(reset, valid && ready && free.is_some(), last);
        uut.clock.next = Clock::from(true);
        settle(&mut uut).unwrap();
    }
    injected
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn model_and_rtl_agree(
        seed in any::<u64>(),
        vb in 1u32..=5,
        valid in 5u32..=100,
        ready in 5u32..=100,
        last in 5u32..=100,
    ) {
        let k = Knobs { valid, ready, last };
        let injected = match vb {
            1 => run::<2, 1>(seed, 3_000, k),
            2 => run::<4, 2>(seed, 3_000, k),
            3 => run::<8, 3>(seed, 3_000, k),
            4 => run::<16, 4>(seed, 3_000, k),
            _ => run::<32, 5>(seed, 3_000, k),
        };
        prop_assert!(injected > 0, "{k:?}: nothing injected");
    }
}

#[test]
fn matches_the_model_with_4_channels() {
    let injected = run::<4, 2>(1, 20_000, DEFAULT);
    assert!(
        injected > 20_000 / 4,
        "the stimulus injects threads ({injected})"
    );
}

#[test]
fn matches_the_model_with_32_channels() {
    let injected = run::<32, 5>(2, 20_000, DEFAULT);
    assert!(
        injected > 20_000 / 4,
        "the stimulus injects threads ({injected})"
    );
}
