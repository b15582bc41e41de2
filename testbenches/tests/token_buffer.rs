//! Token buffer (SPEC §6, VGIW §3.5): model-vs-RTL equivalence with the contracts
//! (conservation, no overwrite, one thread per entry, round robin) over channel counts
//! 2..32 and random handshakes; the paper's dataflow firing rule and out-of-order
//! threads as directed tests; one fire per cycle; the export gate on other sizes.
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_sim::cgrf::token_buffer::{OperandToken, TokenBufferIn};
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::cgrf::token_buffer::TokenBufferBench;
use weft_testbenches::convert::small;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};

#[derive(Clone, Copy, Debug)]
struct Knobs {
    valid: u32,
    ready: u32,
    foreign: u32,
}

fn equivalence_at<const VCS: usize, const VB: usize>(cycles: u64, seed: u64, k: Knobs) {
    let mut bench = TokenBufferBench::<VCS, VB>::default();
    bench.valid_percent = k.valid;
    bench.ready_percent = k.ready;
    bench.foreign_tid_per_mille = k.foreign;
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("VCS {VCS}, {k:?}, seed {seed}: {e}");
    }
    assert!(
        bench.fired > 0,
        "VCS {VCS}, {k:?}, seed {seed}: nothing fired"
    );
}

fn equivalence(vb: u32, cycles: u64, seed: u64, k: Knobs) {
    match vb {
        1 => equivalence_at::<2, 1>(cycles, seed, k),
        2 => equivalence_at::<4, 2>(cycles, seed, k),
        3 => equivalence_at::<8, 3>(cycles, seed, k),
        4 => equivalence_at::<16, 4>(cycles, seed, k),
        _ => equivalence_at::<32, 5>(cycles, seed, k),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn model_and_rtl_agree(
        seed in any::<u64>(),
        vb in 1u32..=5,
        valid in 1u32..=100,
        ready in 1u32..=100,
        foreign in prop_oneof![Just(0u32), 1u32..=50],
    ) {
        equivalence(vb, 2_000, seed, Knobs { valid, ready, foreign });
    }
}

#[test]
fn long_run_at_the_preset_size() {
    let k = Knobs {
        valid: 40,
        ready: 70,
        foreign: 0,
    };
    equivalence(5, 60_000, 11, k);
    equivalence(5, 20_000, 12, Knobs { ready: 100, ..k });
    equivalence(2, 20_000, 13, Knobs { foreign: 5, ..k });
}

/// Applies `i`, checks the RTL against the model and the contracts, clocks; returns
/// the entry fired on this edge as (vc, tid, operands).
fn cycle<const VCS: usize, const VB: usize>(
    b: &mut TokenBufferBench<VCS, VB>,
    i: TokenBufferIn,
) -> Option<(usize, u16, [u32; 3])> {
    b.set_clock(false);
    b.apply(i);
    settle(&mut b.uut).unwrap();
    b.check().unwrap();
    let u = &b.uut;
    let fired = (u.out_valid.val() && i.out_ready).then(|| {
        (
            small(u.out_vc.val()) as usize,
            small(u.out_tid.val()) as u16,
            [u.out_a.val(), u.out_b.val(), u.out_c.val()].map(|x| small(x) as u32),
        )
    });
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    b.tick().unwrap();
    fired
}

fn configured<const VCS: usize, const VB: usize>(operands: u8) -> TokenBufferBench<VCS, VB> {
    let mut b = TokenBufferBench::<VCS, VB>::default();
    cycle(
        &mut b,
        TokenBufferIn {
            reset: true,
            ..Default::default()
        },
    );
    cycle(
        &mut b,
        TokenBufferIn {
            cfg: Some(operands),
            ..Default::default()
        },
    );
    b
}

fn op(vc: usize, tid: u16, data: u32) -> Option<OperandToken> {
    Some(OperandToken { vc, tid, data })
}

/// §3.5 dataflow firing: `select` needs three operands. Thread A (channel 2) gets its
/// first operand before thread B (channel 9) arrives, but B completes first and fires
/// first: threads overtake each other. Nothing fires with a missing operand.
#[test]
fn three_operand_entries_fire_in_completion_order() {
    let mut b = configured::<16, 4>(3);
    let (a, bb) = (b.thread_of(2), b.thread_of(9));
    let take = |links| TokenBufferIn {
        links,
        out_ready: true,
        ..Default::default()
    };
    assert_eq!(cycle(&mut b, take([op(2, a, 10), None, None])), None);
    assert_eq!(
        cycle(&mut b, take([op(9, bb, 20), op(2, a, 11), None])),
        None
    );
    assert_eq!(
        cycle(&mut b, take([None, op(9, bb, 21), op(9, bb, 22)])),
        None
    );
    // B is complete now and fires while A still waits for its third operand.
    assert_eq!(
        cycle(&mut b, take([None, None, op(2, a, 12)])),
        Some((9, bb, [20, 21, 22]))
    );
    assert_eq!(cycle(&mut b, take([None; 3])), Some((2, a, [10, 11, 12])));
    assert_eq!(cycle(&mut b, take([None; 3])), None);
    assert_eq!((b.accepted, b.fired), (6, 2));
}

/// A second operand for an occupied slot is held back (`x_ready` low) until the
/// entry fires; then it is accepted for the channel's next thread. A link beyond
/// the configured count never accepts.
#[test]
fn full_slot_backpressures_until_the_entry_fires() {
    let mut b = configured::<4, 2>(2);
    let t = b.thread_of(1);
    let idle = TokenBufferIn::default();
    cycle(
        &mut b,
        TokenBufferIn {
            links: [op(1, t, 5), None, None],
            ..idle
        },
    );
    b.set_clock(false);
    b.apply(TokenBufferIn {
        links: [op(1, t, 6), op(1, t, 7), op(1, t, 8)],
        ..idle
    });
    settle(&mut b.uut).unwrap();
    assert!(!b.uut.a_ready.val(), "slot a of channel 1 is held");
    assert!(b.uut.b_ready.val());
    assert!(!b.uut.c_ready.val(), "link c is beyond the count of 2");
    cycle(
        &mut b,
        TokenBufferIn {
            links: [op(1, t, 6), op(1, t, 7), None],
            ..idle
        },
    );
    // The consumer stalls for a while: the entry stays, nothing is overwritten.
    for _ in 0..5 {
        assert_eq!(
            cycle(
                &mut b,
                TokenBufferIn {
                    links: [op(1, t, 99), None, None],
                    ..idle
                }
            ),
            None
        );
    }
    assert_eq!(
        cycle(
            &mut b,
            TokenBufferIn {
                out_ready: true,
                ..idle
            }
        ),
        Some((1, t, [5, 7, 0]))
    );
    let next = b.thread_of(1);
    assert_ne!(next, t);
    cycle(
        &mut b,
        TokenBufferIn {
            links: [op(1, next, 6), None, None],
            ..idle
        },
    );
    assert_eq!(b.accepted, 3);
}

/// The fabric's throughput rule: with every entry ready, one fires per cycle, in
/// round-robin order, and the links keep refilling other channels at full rate.
#[test]
fn one_fire_per_cycle_round_robin() {
    let mut b = configured::<8, 3>(1);
    for v in 0..8 {
        let t = b.thread_of(v);
        cycle(
            &mut b,
            TokenBufferIn {
                links: [op(v, t, v as u32), None, None],
                ..Default::default()
            },
        );
    }
    let mut order = vec![];
    for _ in 0..8 {
        let f = cycle(
            &mut b,
            TokenBufferIn {
                out_ready: true,
                ..Default::default()
            },
        );
        order.push(f.expect("an entry fires every cycle").0);
    }
    // Reset leaves `last` at 0: the search starts at channel 1.
    assert_eq!(order, vec![1, 2, 3, 4, 5, 6, 7, 0]);
    // Streaming: each cycle one operand arrives and one entry fires.
    let mut fires = 0;
    for c in 0..64usize {
        let v = c % 8;
        let t = b.thread_of(v);
        if cycle(
            &mut b,
            TokenBufferIn {
                links: [op(v, t, c as u32), None, None],
                out_ready: true,
                ..Default::default()
            },
        )
        .is_some()
        {
            fires += 1;
        }
    }
    assert_eq!(fires, 63, "one fire per cycle after the first operand");
}

/// An operand of another thread for a held entry (a broken fabric) is kept, not
/// dropped, and raises the sticky `tid_error`; reset clears it.
#[test]
fn foreign_thread_operand_raises_tid_error() {
    let mut b = configured::<4, 2>(2);
    let t = b.thread_of(3);
    cycle(
        &mut b,
        TokenBufferIn {
            links: [op(3, t, 1), op(3, t.wrapping_add(1000), 2), None],
            ..Default::default()
        },
    );
    assert!(b.uut.tid_error.val());
    assert_eq!(
        cycle(
            &mut b,
            TokenBufferIn {
                out_ready: true,
                ..Default::default()
            }
        ),
        Some((3, t, [1, 2, 0]))
    );
    assert!(b.uut.tid_error.val(), "sticky");
    cycle(
        &mut b,
        TokenBufferIn {
            reset: true,
            ..Default::default()
        },
    );
    assert!(!b.uut.tid_error.val());
}

#[test]
fn lints_clean() {
    assert_lints_clean(
        "token_buffer_2",
        &verilog_of::<weft_hdl::cgrf::token_buffer::TokenBuffer<2, 1>>(),
    );
    assert_lints_clean(
        "token_buffer",
        &verilog_of::<weft_hdl::presets::TokenBuffer32>(),
    );
}
