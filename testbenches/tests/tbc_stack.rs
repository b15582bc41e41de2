//! TBC CTA-wide stack (SPEC §3.5): model-vs-RTL equivalence with a CTA driver,
//! `WCnt` contracts, and the Figures 6-7 scenario.
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_sim::capri::tbc_stack::Event;
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::capri::tbc_stack::StackInputs;
use weft_testbenches::capri::tbc_stack::TbcStackBench;
use weft_testbenches::convert::{rows_from_bits, small};
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};

fn equivalence<
    const W: usize,
    const L: usize,
    const N: usize,
    const D: usize,
    const DW: usize,
    const CW: usize,
>(
    cycles: u64,
    seed: u64,
) -> u64 {
    let mut bench = TbcStackBench::<W, L, N, D, DW, CW>::default();
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("{W} warps x {L} lanes, depth {D}, seed {seed}: {e}");
    }
    bench.mixed_bypasses
}

#[test]
fn the_depth_rules_are_exercised() {
    // Each rule of a divergent branch's resolution is hit, checked against the
    // bench's own reckoning of the depth, cycle by cycle against the RTL.
    let mut bench = TbcStackBench::<3, 4, 12, 8, 4, 2>::default();
    run(&mut bench, 50_000, 23, Outputs::default()).unwrap();
    let h = bench.hits;
    assert!(h.replaced > 50, "{h:?}");
    assert!(h.path_at_rpc > 50, "{h:?}");
    assert!(h.none_pushed > 10, "{h:?}");
    assert!(h.both_pushed > 50, "{h:?}");
    let mut bench = TbcStackBench::<8, 32, 256, 8, 4, 4>::default();
    run(&mut bench, 20_000, 24, Outputs::default()).unwrap();
    let h = bench.hits;
    assert!(
        h.replaced > 5 && h.path_at_rpc > 5 && h.none_pushed > 0,
        "{h:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]
    #[test]
    fn model_and_rtl_agree(seed in any::<u64>()) {
        equivalence::<1, 1, 1, 3, 2, 1>(2_000, seed);
        equivalence::<2, 3, 6, 4, 3, 2>(2_000, seed);
        equivalence::<3, 4, 12, 8, 4, 2>(2_000, seed);
        equivalence::<5, 8, 40, 5, 3, 3>(2_000, seed);
        equivalence::<8, 32, 256, 8, 4, 4>(1_000, seed);
    }
}

#[test]
fn long_runs() {
    // Compacted warps (threads from several home rows) bypass, not only static ones.
    assert!(equivalence::<3, 4, 12, 8, 4, 2>(100_000, 21) > 100);
    assert!(equivalence::<8, 32, 256, 8, 4, 4>(30_000, 22) > 10);
}

type Fig = TbcStackBench<3, 4, 12, 8, 4, 2>;

/// Applies one event, checks RTL against the model, clocks both; returns the TOS
/// (mask rows, umask rows, wcnt, pc, depth, changed, wcu_useful) seen after the edge.
fn ev(b: &mut Fig, event: Event) -> (Vec<u64>, Vec<u64>, u64, u64, u64, bool, bool) {
    b.set_clock(false);
    b.apply(StackInputs {
        reset: false,
        event,
    });
    settle(&mut b.uut).unwrap();
    b.check().unwrap();
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    b.tick().unwrap();
    b.set_clock(false);
    b.apply(StackInputs {
        reset: false,
        event: Event::None,
    });
    settle(&mut b.uut).unwrap();
    b.check().unwrap();
    (
        rows_from_bits(b.uut.tos_mask.val(), 4),
        rows_from_bits(b.uut.tos_umask.val(), 4),
        small(b.uut.tos_wcnt.val()),
        small(b.uut.tos_pc.val()),
        small(b.uut.depth.val()),
        b.uut.changed.val(),
        b.uut.wcu_useful.val(),
    )
}

fn br(stall: bool, taken: [u64; 3], not_taken: [u64; 3]) -> Event {
    Event::Branch {
        stall,
        taken: taken.to_vec(),
        not_taken: not_taken.to_vec(),
        taken_pc: 0xb0,
        not_taken_pc: 0xc0,
        rpc: 0xd0,
    }
}

#[test]
fn figures_6_7_capri_bypass_stall_and_compaction() {
    let mut b = Fig::default();
    b.set_clock(false);
    b.apply(StackInputs {
        reset: true,
        event: Event::None,
    });
    settle(&mut b.uut).unwrap();
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    b.tick().unwrap();
    // A 12-thread CTA of three 4-lane warps at block A.
    let t = ev(
        &mut b,
        Event::Launch {
            mask: vec![0b1111; 3],
            pc: 0xa0,
            rpc: 0xe0,
        },
    );
    assert_eq!((t.2, t.3, t.4), (3, 0xa0, 1));
    // 7(a): W0 does not diverge (all to B) and bypasses: B's WCnt counts it.
    let t = ev(&mut b, br(false, [0b1111, 0, 0], [0; 3]));
    assert_eq!((t.2, b.uut.pending.val()), (2, true));
    // 7(b): W1 diverges (4xx7 to B, x56x to C) and stalls.
    let t = ev(&mut b, br(true, [0, 0b1001, 0], [0, 0b0110, 0]));
    assert_eq!(t.2, 1);
    // 7(c)-(d): W2 (89xx to B, xxab to C) arrives: WCnt 0, the TOS moves to B. The WCU
    // compacts W1, W2 only (umask: W0's threads clear) into two warps: B's WCnt = 1 + 2 = 3.
    // The compaction removes no warp: the evaluator reports it (history bit cleared).
    let t = ev(&mut b, br(true, [0, 0, 0b0011], [0, 0, 0b1100]));
    assert_eq!(
        t,
        (
            vec![0b1111, 0b1001, 0b0011],
            vec![0, 0b1111, 0b1111],
            3,
            0xb0,
            3,
            true,
            false
        )
    );
    // Three warps reach the reconvergence point: pop to C (W1, W2 waited: 2 warps).
    ev(&mut b, Event::Reconverge);
    ev(&mut b, Event::Reconverge);
    let t = ev(&mut b, Event::Reconverge);
    assert_eq!(
        t,
        (
            vec![0, 0b0110, 0b1100],
            vec![0, 0b1111, 0b1111],
            2,
            0xc0,
            2,
            true,
            false
        )
    );
    ev(&mut b, Event::Reconverge);
    // Reconverged at D with every warp: the whole CTA, three warps.
    let t = ev(&mut b, Event::Reconverge);
    assert_eq!(
        t,
        (vec![0b1111; 3], vec![0b1111; 3], 3, 0xd0, 1, true, false)
    );
    assert!(!b.uut.error.val() && !b.uut.overflow.val());
}

#[test]
fn a_bypassing_compacted_warp_leaves_its_rows_other_threads_waiting() {
    let mut b = Fig::default();
    b.set_clock(false);
    b.apply(StackInputs {
        reset: true,
        event: Event::None,
    });
    settle(&mut b.uut).unwrap();
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    b.tick().unwrap();
    ev(
        &mut b,
        Event::Launch {
            mask: vec![0b1111; 3],
            pc: 0xa0,
            rpc: 0xe0,
        },
    );
    // Every warp stalls; the taken path B holds W0 = 0111, W1 = 1110, W2 = 1001: two
    // compacted warps sharing home row 1, A = W0 lanes 0-2 + W1 lane 3 and
    // B = W2 lanes 0, 3 + W1 lanes 1, 2.
    ev(&mut b, br(true, [0b0111, 0, 0], [0b1000, 0, 0]));
    ev(&mut b, br(true, [0, 0b1110, 0], [0, 0b0001, 0]));
    let t = ev(&mut b, br(true, [0, 0, 0b1001], [0, 0, 0b0110]));
    assert_eq!((t.1, t.2, t.3, t.4), (vec![0b1111; 3], 2, 0xb0, 3));
    // A bypasses, B stalls, both all taken: the TOS stays on one path. Only A's threads
    // leave the compaction; B's two rows compact into one warp (useful). A per-warp bit
    // would clear rows 0 and 1 and lose B's W1 lanes 1, 2.
    ev(&mut b, br(false, [0b0111, 0b1000, 0], [0; 3]));
    let t = ev(&mut b, br(true, [0, 0b0110, 0b1001], [0; 3]));
    assert_eq!(
        t,
        (
            vec![0b0111, 0b1110, 0b1001],
            vec![0b1000, 0b0111, 0b1111],
            2,
            0xb0,
            3,
            true,
            true
        )
    );
    assert!(!b.uut.error.val() && !b.uut.overflow.val());
}

#[test]
fn figure_3_compaction_is_useful_and_underflow_is_flagged() {
    let mut b = Fig::default();
    b.set_clock(false);
    b.apply(StackInputs {
        reset: true,
        event: Event::None,
    });
    settle(&mut b.uut).unwrap();
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    b.tick().unwrap();
    ev(
        &mut b,
        Event::Launch {
            mask: vec![0b1111, 0b1111, 0],
            pc: 0xa0,
            rpc: 0xe0,
        },
    );
    // Figure 3 under TBC: W0 takes lane 0, W1 lanes 2, 3: one compacted warp 0x67.
    ev(&mut b, br(true, [0b0001, 0, 0], [0b1110, 0, 0]));
    let t = ev(&mut b, br(true, [0, 0b1100, 0], [0, 0b0011, 0]));
    assert_eq!((t.2, t.5, t.6), (1, true, true));
    ev(&mut b, Event::Reconverge);
    ev(&mut b, Event::Reconverge);
    ev(&mut b, Event::Reconverge);
    ev(&mut b, Event::Reconverge);
    // Every warp has arrived at the CTA's end: the stack is empty; one more event
    // would underflow WCnt and is refused.
    ev(&mut b, Event::Reconverge);
    assert!(!b.uut.valid.val());
    b.set_clock(false);
    b.apply(StackInputs {
        reset: false,
        event: Event::Reconverge,
    });
    settle(&mut b.uut).unwrap();
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    b.model.clock(false, &Event::Reconverge);
    b.set_clock(false);
    b.apply(StackInputs {
        reset: false,
        event: Event::None,
    });
    settle(&mut b.uut).unwrap();
    assert!(b.uut.error.val() && b.model.error);
}

#[test]
fn other_sizes_lint_clean() {
    use weft_hdl::capri::tbc_stack::TbcStack;
    assert_lints_clean(
        "tbc_stack_5x8_d5",
        &verilog_of::<TbcStack<5, 8, 40, 5, 3, 3>>(),
    );
}
