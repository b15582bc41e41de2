//! One warp with diverge on miss (SPEC §4): model-vs-RTL equivalence with the issue's
//! contracts (never active and waiting, no thread lost, data = line at fill, no
//! divergent op at the slip limit), and Figure 2 against blocking execution.
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use weft_flow::lint::assert_lints_clean;
use weft_sim::dom::warp_memory_divergence::WarpInputs;
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::convert::small;
use weft_testbenches::dom::warp_memory_divergence::WarpMemoryDivergenceBench;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};

fn equivalence<
    const L: usize,
    const M: usize,
    const AW: usize,
    const OB: usize,
    const DW: usize,
    const NA: usize,
    const ND: usize,
    const INIT: usize,
    const STEP: usize,
>(
    cycles: u64,
    seed: u64,
    hit: u32,
) {
    let mut bench = WarpMemoryDivergenceBench::<L, M, 8, AW, OB, DW, NA, ND, INIT, STEP>::default();
    bench.hit_percent = hit;
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("{L} lanes, M {M}, init {INIT}, step {STEP}, hit {hit}%, seed {seed}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]
    #[test]
    fn model_and_rtl_agree(seed in any::<u64>(), hit in 20u32..95) {
        equivalence::<1, 1, 10, 3, 8, 10, 8, 1, 1>(2_000, seed, hit);
        equivalence::<2, 2, 10, 3, 8, 20, 16, 2, 3>(2_000, seed, hit);
        equivalence::<5, 3, 10, 3, 8, 50, 40, 3, 1>(2_000, seed, hit);
        // An entry per lane: the MDT that does not limit (`dom_mdt_entries = 0`).
        equivalence::<4, 4, 10, 3, 8, 40, 32, 2, 8>(2_000, seed, hit);
        equivalence::<5, 5, 10, 3, 8, 50, 40, 8, 8>(2_000, seed, hit);
        equivalence::<32, 2, 10, 3, 8, 320, 256, 8, 8>(800, seed, hit);
    }
}

#[test]
fn long_runs() {
    equivalence::<4, 2, 10, 3, 8, 40, 32, 2, 1>(100_000, 21, 60);
    let mut bench = WarpMemoryDivergenceBench::<32, 2, 32, 32, 5, 32, 1024, 1024, 8, 8>::default();
    run(&mut bench, 5_000, 22, Outputs::default()).unwrap();
}

#[test]
fn other_sizes_lint_clean() {
    assert_lints_clean(
        "warp_memory_divergence_2",
        &verilog_of::<
            weft_hdl::dom::warp_memory_divergence::WarpMemoryDivergence<
                2,
                2,
                8,
                10,
                3,
                8,
                20,
                16,
                2,
                1,
            >,
        >(),
    );
}

type Fig2 = WarpMemoryDivergenceBench<2, 2, 8, 10, 3, 8, 20, 16, 8, 1>;

/// Figure 2: a 2-thread warp runs `for i in 0..3 { load; alu; alu }`. Thread 0 misses
/// in iteration 0, thread 1 in iteration 1; every other access hits; memory answers
/// after `LATENCY` cycles. Returns (cycle thread 1 issued its iteration-1 miss, cycle
/// the warp finished).
fn figure_2(blocking: bool) -> (u64, u64) {
    const LATENCY: u64 = 10;
    let line = |t: u64, i: u64| 0x40 + ((t * 4 + i) << 3);
    let mut cached: BTreeSet<u64> = [line(1, 0), line(0, 1), line(0, 2), line(1, 2)].into();
    let mut in_flight: BTreeMap<u64, u64> = BTreeMap::new(); // line -> return cycle
    let mut iter = [0u64; 2];
    let mut b = Fig2::default();
    let step = |b: &mut Fig2, i: WarpInputs| {
        b.set_clock(false);
        b.apply(i);
        settle(&mut b.uut).unwrap();
        b.check().unwrap();
        let seen = (
            small(b.uut.active.val()),
            b.uut.block.val(),
            small(b.uut.release_mask.val()),
        );
        b.set_clock(true);
        settle(&mut b.uut).unwrap();
        b.tick().unwrap();
        seen
    };
    let idle = |pc: u64| WarpInputs {
        branch_mask: 0b11,
        pc,
        addr: vec![0; 2],
        fill_data: vec![0; 2],
        ..Default::default()
    };
    step(
        &mut b,
        WarpInputs {
            reset: true,
            ..idle(0)
        },
    );
    if blocking {
        // Max-slip 0: every thread is at its limit, the warp never diverges.
        for _ in 0..8 {
            step(
                &mut b,
                WarpInputs {
                    lower: true,
                    ..idle(0)
                },
            );
        }
    }
    let mut second_miss = None;
    let mut alu = 0;
    for cycle in 0..200u64 {
        let mut i = idle(0x10);
        if let Some((&l, _)) = in_flight.iter().find(|(_, &at)| at == cycle) {
            in_flight.remove(&l);
            cached.insert(l);
            b.fill_inputs(l, &mut i);
        }
        if iter.iter().all(|&n| n >= 3) && b.model.mdt.waiting() == 0 {
            return (second_miss.expect("thread 1 missed"), cycle);
        }
        if alu > 0 {
            alu -= 1;
            step(&mut b, i);
            continue;
        }
        let active = b.model.outputs(&i).active;
        if active == 0 {
            // Everyone left is masked off: forced reconvergence (the loop exit).
            i.reconverge = true;
            step(&mut b, i);
            continue;
        }
        i.op = true;
        for t in 0..2u64 {
            let l = line(t, iter[t as usize].min(2));
            i.addr[t as usize] = l;
            if active >> t & 1 == 1 && iter[t as usize] < 3 {
                if cached.contains(&l) {
                    i.hit_mask |= 1 << t;
                } else if let std::collections::btree_map::Entry::Vacant(e) = in_flight.entry(l) {
                    e.insert(cycle + LATENCY);
                    if (t, iter[t as usize]) == (1, 1) {
                        second_miss = Some(cycle);
                    }
                }
            } else {
                i.hit_mask |= 1 << t; // done threads do not access
            }
        }
        let (act, block, released) = step(&mut b, i.clone());
        if block {
            continue; // blocking SIMD: replay the load next cycle
        }
        for (t, n) in iter.iter_mut().enumerate() {
            if (act & i.hit_mask | released) >> t & 1 == 1 && *n < 3 {
                *n += 1;
            }
        }
        alu = 2;
    }
    panic!("the warp did not finish (blocking = {blocking})");
}

#[test]
fn figure_2_the_hitting_thread_runs_ahead_and_misses_early() {
    let (dom_miss, dom_done) = figure_2(false);
    let (blk_miss, blk_done) = figure_2(true);
    assert!(
        dom_miss < 10 && blk_miss > 10,
        "diverge on miss issues thread 1's next miss before thread 0's line returns \
         (cycle {dom_miss}); blocking only after it (cycle {blk_miss})"
    );
    assert!(
        dom_done < blk_done,
        "diverge on miss finishes first: {dom_done} vs {blk_done}"
    );
}

type Stuck = WarpMemoryDivergenceBench<4, 2, 8, 10, 3, 8, 40, 32, 1, 1>;

/// Registered state after an edge: (slip_limit, waiting), from the RTL.
fn state(b: &Stuck) -> (u64, u64) {
    (small(b.uut.slip_limit.val()), small(b.uut.waiting.val()))
}

/// One cycle on model and RTL (every output compared): returns `block` before the edge.
fn cycle(b: &mut Stuck, i: WarpInputs) -> bool {
    b.set_clock(false);
    b.apply(i);
    settle(&mut b.uut).unwrap();
    b.check().unwrap();
    let block = b.uut.block.val();
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    b.tick().unwrap();
    block
}

/// Issue 30: a warp whose leaders reached the slip limit must not stay there. With
/// max-slip 1, lanes 0-1 lead after one divergent load. A load where the tail (2-3)
/// hits and the leaders miss is refused (blocking), and by §5.1 ("they are disabled and
/// their counters get decremented when the remaining threads hit") it lowers the
/// leaders, so a later divergent load diverges again. Under the old rule (only
/// completed loads are slip events) the refused load changed nothing, its all-hit replay
/// lowers nobody, and the last load here was refused too.
#[test]
fn leaders_at_the_slip_limit_are_lowered_by_a_refused_load_the_tail_hits() {
    let mut b = Stuck::default();
    let load = |pc: u64, hit_mask: u64| WarpInputs {
        branch_mask: 0b1111,
        op: true,
        pc,
        hit_mask,
        addr: vec![0x40, 0x48, 0x50, 0x58],
        fill_data: vec![0; 4],
        ..Default::default()
    };
    let quiet = WarpInputs {
        op: false,
        ..load(0, 0)
    };
    cycle(
        &mut b,
        WarpInputs {
            reset: true,
            ..quiet.clone()
        },
    );
    assert_eq!(small(b.uut.max_slip.val()), 1);

    // Leaders hit, the tail misses: the warp diverges, the leaders reach max-slip 1.
    assert!(!cycle(&mut b, load(0x10, 0b0011)), "first divergent load");
    assert_eq!(
        state(&b),
        (0b0011, 0b1100),
        "leaders at the limit, tail waits"
    );

    // The tail's lines come in, then forced reconvergence re-enables it.
    let mut i = quiet.clone();
    b.fill_inputs(0x50, &mut i);
    cycle(&mut b, i);
    let mut i = quiet.clone();
    b.fill_inputs(0x58, &mut i);
    cycle(&mut b, i);
    assert_eq!(small(b.uut.ready.val()), 0b1100);
    cycle(
        &mut b,
        WarpInputs {
            reconverge: true,
            ..quiet.clone()
        },
    );
    assert_eq!(
        state(&b),
        (0b0011, 0),
        "tail rejoined, leaders still at the limit"
    );

    // Tail hits, leaders miss: refused at the limit, yet a slip event that lowers them.
    assert!(cycle(&mut b, load(0x20, 0b1100)), "refused: slip limit");
    assert_eq!(
        state(&b),
        (0, 0),
        "the refused load lowered the leaders below the limit and masked nobody off"
    );
    assert_eq!(b.model.slip.counters[0], vec![0; 4]);

    // Its replay hits everywhere and completes.
    assert!(!cycle(&mut b, load(0x20, 0b1111)), "all-hit replay");
    assert_eq!(state(&b), (0, 0));

    // A later divergent load diverges again.
    assert!(
        !cycle(&mut b, load(0x30, 0b0011)),
        "divergent load accepted again"
    );
    assert_eq!(state(&b), (0b0011, 0b1100));
}
