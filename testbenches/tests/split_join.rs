//! Split/join unit (SPEC §6, VGIW §3.5): model-vs-RTL equivalence with the contracts
//! (no token lost or duplicated; a join fires exactly once per thread, after all its
//! predecessors; unconfigured ports never take a token) over sizes and random
//! configurations; the paper's store-after-loads join and split throughput as directed
//! tests; the export gate.
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_sim::cgrf::split_join::{SjConfig, SjToken};
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::cgrf::split_join::{SjBench, SjInputs};
use weft_testbenches::convert::small;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};

fn equivalence<const VB: usize, const VCS: usize, const PORTS: usize, const CB: usize>(
    cycles: u64,
    seed: u64,
    valid: u32,
    ready: u32,
    start: u32,
) -> (u64, u64) {
    let mut bench = SjBench::<VB, VCS, PORTS, CB>::default();
    bench.valid_percent = valid;
    bench.ready_percent = ready;
    bench.start_percent = start;
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("VCS {VCS}, PORTS {PORTS}, valid {valid}% ready {ready}% start {start}%, seed {seed}: {e}");
    }
    (bench.delivered, bench.joined)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn model_and_rtl_agree_over_sizes(
        seed in any::<u64>(),
        valid in 1u32..=100,
        ready in 1u32..=100,
        start in 1u32..=100,
    ) {
        equivalence::<1, 2, 1, 1>(3_000, seed, valid, ready, start);
        equivalence::<1, 2, 2, 2>(3_000, seed, valid, ready, start);
        equivalence::<2, 4, 3, 2>(3_000, seed, valid, ready, start);
        equivalence::<3, 8, 5, 3>(3_000, seed, valid, ready, start);
        equivalence::<5, 32, 4, 3>(3_000, seed, valid, ready, start);
    }
}

#[test]
fn long_run_paper_size() {
    let (delivered, joined) = equivalence::<5, 32, 4, 3>(100_000, 11, 70, 70, 30);
    assert!(
        delivered > 10_000 && joined > 1_000,
        "delivered {delivered}, joined {joined}"
    );
    equivalence::<5, 32, 4, 3>(30_000, 12, 100, 100, 100);
    equivalence::<5, 32, 4, 3>(30_000, 13, 100, 10, 100);
}

fn cycle<const VB: usize, const VCS: usize, const PORTS: usize, const CB: usize>(
    b: &mut SjBench<VB, VCS, PORTS, CB>,
    i: SjInputs,
) -> (Vec<bool>, Vec<Option<SjToken>>) {
    b.set_clock(false);
    b.apply(i.clone());
    settle(&mut b.uut).unwrap();
    b.check().unwrap();
    let u = &b.uut;
    let taken = (0..PORTS)
        .map(|p| i.tokens[p].is_some() && u.in_ready[p].val())
        .collect();
    let sent = (0..PORTS)
        .map(|k| {
            (u.out_valid[k].val() && i.out_ready[k]).then(|| SjToken {
                vc: small(u.out_vc[k].val()) as u32,
                tid: small(u.out_tid[k].val()) as u16,
                data: small(u.out_data[k].val()) as u32,
            })
        })
        .collect();
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    b.tick().unwrap();
    (taken, sent)
}

fn inputs(cfg: SjConfig, tokens: Vec<Option<SjToken>>, out_ready: Vec<bool>) -> SjInputs {
    SjInputs {
        reset: false,
        cfg,
        idle_vc: vec![0; tokens.len()],
        tokens,
        out_ready,
    }
}

fn tok(vc: u32, tid: u16) -> Option<SjToken> {
    Some(SjToken { vc, tid, data: 0 })
}

/// §3.5's example: a store waits for the loads before it. Three loads of two threads
/// report on ports 0..2 in scrambled order; each thread's control token reaches the
/// store (output 0) only after its third load, exactly once.
#[test]
fn join_releases_the_store_after_all_loads() {
    let cfg = SjConfig {
        join_mode: true,
        in_mask: 0b0111,
        out_mask: 0b0001,
        join_count: 3,
    };
    let mut b = SjBench::<5, 32, 4, 3>::default();
    let mut reset = inputs(cfg, vec![None; 4], vec![true; 4]);
    reset.reset = true;
    cycle(&mut b, reset);
    // thread 7 on channel 4, thread 9 on channel 20, interleaved
    let arrivals = [
        vec![tok(4, 7), None, tok(20, 9), None],
        vec![None, tok(20, 9), None, None],
        vec![None, None, tok(4, 7), None],
        vec![tok(20, 9), tok(4, 7), None, None],
    ];
    let mut sent = vec![];
    for (c, a) in arrivals.iter().enumerate() {
        let (taken, out) = cycle(&mut b, inputs(cfg, a.clone(), vec![true; 4]));
        assert!(
            taken.iter().zip(a).all(|(t, x)| *t == x.is_some()),
            "cycle {c}: every load token taken"
        );
        sent.extend(
            out.into_iter()
                .enumerate()
                .filter_map(|(k, t)| t.map(|t| (c, k, t.tid))),
        );
    }
    assert!(
        sent.is_empty(),
        "nothing before the last load of a thread: {sent:?}"
    );
    for c in 4..10 {
        let (_, out) = cycle(&mut b, inputs(cfg, vec![None; 4], vec![true; 4]));
        sent.extend(
            out.into_iter()
                .enumerate()
                .filter_map(|(k, t)| t.map(|t| (c, k, t.tid))),
        );
    }
    // both completed on the edge of cycle 3; sent from cycles 5 and 6, round robin
    // after channel 0 (channel 4 first).
    assert_eq!(sent, vec![(5, 0, 7), (6, 0, 9)]);
}

/// Split from port 1 (the lowest port of `in_mask` 0b0110) to three successors that
/// take the token on different cycles: each gets every token once, in order; with all
/// ready, one token per cycle; the other ports never take.
#[test]
fn split_copies_once_per_successor() {
    let cfg = SjConfig {
        join_mode: false,
        in_mask: 0b0110,
        out_mask: 0b1011,
        join_count: 0,
    };
    let mut b = SjBench::<5, 32, 4, 3>::default();
    let mut reset = inputs(cfg, vec![None; 4], vec![true; 4]);
    reset.reset = true;
    cycle(&mut b, reset);
    let mut got: Vec<Vec<u16>> = vec![vec![]; 4];
    let mut next = 0u16;
    for c in 0..100u16 {
        let token = (next < 20).then(|| SjToken {
            vc: u32::from(next % 32),
            tid: next,
            data: u32::from(next) * 3,
        });
        // output 1 is slow: ready one cycle in three
        let ready = vec![true, c % 3 == 0, true, true];
        let (taken, sent) = cycle(&mut b, inputs(cfg, vec![None, token, None, None], ready));
        if taken[1] {
            next += 1;
        }
        for (k, t) in sent.iter().enumerate() {
            if let Some(t) = t {
                assert_eq!(t.data, u32::from(t.tid) * 3);
                got[k].push(t.tid);
            }
        }
    }
    let all: Vec<u16> = (0..20).collect();
    assert_eq!(got[0], all);
    assert_eq!(got[1], all);
    assert!(got[2].is_empty(), "output 2 is not configured");
    assert_eq!(got[3], all);
    // all successors ready: one token per cycle
    let mut b = SjBench::<5, 32, 4, 3>::default();
    let mut reset = inputs(cfg, vec![None; 4], vec![true; 4]);
    reset.reset = true;
    cycle(&mut b, reset);
    let mut taken_cycles = 0;
    for c in 0..100u16 {
        let (taken, _) = cycle(
            &mut b,
            inputs(
                cfg,
                vec![tok(1, c), tok(2, c), tok(3, c), None],
                vec![true; 4],
            ),
        );
        assert!(!taken[0] && !taken[2], "only the source port takes");
        taken_cycles += u32::from(taken[1]);
    }
    println!("split_join: split, all successors ready: {taken_cycles} tokens in 100 cycles");
    assert_eq!(taken_cycles, 100);
}

/// A join of 2 on two ports with a new thread on every cycle (channels in turn):
/// one control token out per cycle.
#[test]
fn join_sustains_one_thread_per_cycle() {
    let cfg = SjConfig {
        join_mode: true,
        in_mask: 0b0011,
        out_mask: 0b0100,
        join_count: 2,
    };
    let mut b = SjBench::<5, 32, 4, 3>::default();
    let mut reset = inputs(cfg, vec![None; 4], vec![true; 4]);
    reset.reset = true;
    cycle(&mut b, reset);
    let mut sent = 0;
    for c in 0..200u32 {
        let t = (c < 150).then_some(SjToken {
            vc: c % 32,
            tid: c as u16,
            data: 0,
        });
        let (taken, out) = cycle(&mut b, inputs(cfg, vec![t, t, None, None], vec![true; 4]));
        if c < 150 {
            assert!(taken[0] && taken[1], "cycle {c}: both predecessors taken");
        }
        sent += out.iter().flatten().count();
    }
    println!("split_join: join of 2: {sent} threads out for 150 in");
    assert_eq!(sent, 150);
}

#[test]
fn lints_clean() {
    assert_lints_clean(
        "split_join",
        &verilog_of::<weft_hdl::presets::SplitJoin32x4>(),
    );
    assert_lints_clean(
        "split_join_1",
        &verilog_of::<weft_hdl::cgrf::split_join::SplitJoin<1, 2, 1, 1>>(),
    );
}
