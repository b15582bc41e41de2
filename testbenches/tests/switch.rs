//! Fabric switch (SPEC §6): model-vs-RTL equivalence with the conservation contracts
//! over switch sizes, one token per cycle per link, multicast, the route chain, and
//! the export gate.
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_hdl::cgrf::switch::Switch;
use weft_sim::cgrf::switch::Token;
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::cgrf::switch::{SwitchBench, SwitchInputs};
use weft_testbenches::convert::small;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};

fn equivalence<const INS: usize, const OUTS: usize, const VB: usize, const SB: usize>(
    cycles: u64,
    seed: u64,
    valid: u32,
    ready: u32,
) {
    let mut bench = SwitchBench::<INS, OUTS, VB, SB>::default();
    bench.valid_percent = valid;
    bench.ready_percent = ready;
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("{INS}x{OUTS} VB {VB}, valid {valid}% ready {ready}%, seed {seed}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn model_and_rtl_agree(seed in any::<u64>(), valid in 1u32..=100, ready in 1u32..=100) {
        equivalence::<1, 1, 1, 1>(2_000, seed, valid, ready);
        equivalence::<2, 3, 2, 1>(2_000, seed, valid, ready);
        equivalence::<5, 4, 3, 3>(2_000, seed, valid, ready);
        equivalence::<9, 11, 4, 4>(2_000, seed, valid, ready);
    }
}

#[test]
fn long_run() {
    equivalence::<9, 11, 4, 4>(100_000, 31, 60, 80);
    equivalence::<9, 11, 4, 4>(30_000, 32, 100, 100);
}

/// Applies `i`, checks the RTL against the model, clocks; returns the outputs' data
/// that left this cycle.
fn cycle(b: &mut SwitchBench<3, 4, 2, 2>, i: SwitchInputs) -> Vec<Option<u32>> {
    b.set_clock(false);
    b.apply(i);
    settle(&mut b.uut).unwrap();
    b.check().unwrap();
    let left = (0..4)
        .map(|k| {
            b.uut.out_valid[k]
                .val()
                .then(|| small(b.uut.out_data[k].val()) as u32)
        })
        .collect();
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    b.tick().unwrap();
    left
}

fn idle() -> SwitchInputs {
    SwitchInputs {
        tokens: vec![None; 3],
        out_ready: vec![true; 4],
        ..Default::default()
    }
}

/// Loads routes for outputs 0..4 (the chain takes output 3's route first).
fn configure(b: &mut SwitchBench<3, 4, 2, 2>, routes: [Option<usize>; 4]) {
    cycle(
        b,
        SwitchInputs {
            reset: true,
            ..idle()
        },
    );
    for r in routes.iter().rev() {
        cycle(
            b,
            SwitchInputs {
                cfg: Some(*r),
                ..idle()
            },
        );
    }
}

/// Every input streaming into its own output moves one token per cycle per link,
/// one cycle per hop.
#[test]
fn one_token_per_cycle_per_link() {
    let mut b = SwitchBench::<3, 4, 2, 2>::default();
    configure(&mut b, [Some(0), Some(1), Some(2), None]);
    let mut received = vec![vec![]; 4];
    for c in 0..200u32 {
        let tokens = (0..3)
            .map(|i| {
                (c < 100).then_some(Token {
                    vc: 1,
                    tid: 7,
                    data: c * 4 + i,
                })
            })
            .collect();
        for (k, d) in cycle(&mut b, SwitchInputs { tokens, ..idle() })
            .into_iter()
            .enumerate()
        {
            if let Some(d) = d {
                received[k].push((c, d));
            }
        }
    }
    for i in 0..3u32 {
        let got = &received[i as usize];
        assert_eq!(got.len(), 100, "output {i} received every token");
        for (n, &(c, d)) in got.iter().enumerate() {
            assert_eq!(d, n as u32 * 4 + i, "in order, none lost");
            assert_eq!(c, n as u32 + 1, "one cycle per hop, one token per cycle");
        }
    }
    assert!(received[3].is_empty(), "a disabled output stays quiet");
}

/// One input routed to two outputs: a token leaves only when both are ready and then
/// reaches both in the same cycle.
#[test]
fn multicast_waits_for_every_output() {
    let mut b = SwitchBench::<3, 4, 2, 2>::default();
    configure(&mut b, [Some(1), None, Some(1), None]);
    let token = |d| {
        let mut t = vec![None; 3];
        t[1] = Some(Token {
            vc: 0,
            tid: 0,
            data: d,
        });
        t
    };
    cycle(
        &mut b,
        SwitchInputs {
            tokens: token(42),
            ..idle()
        },
    );
    let mut ready = vec![true; 4];
    ready[2] = false;
    let left = cycle(
        &mut b,
        SwitchInputs {
            out_ready: ready,
            ..idle()
        },
    );
    assert_eq!(left, vec![None; 4], "output 2 busy: the token waits");
    let left = cycle(&mut b, idle());
    assert_eq!(
        left,
        vec![Some(42), None, Some(42), None],
        "both copies at once"
    );
    assert_eq!(
        cycle(&mut b, idle()),
        vec![None; 4],
        "exactly one copy each"
    );
}

/// An input no output is routed from holds its tokens (never drops them) and says so
/// with `in_ready` low once full.
#[test]
fn unrouted_input_stalls_instead_of_dropping() {
    let mut b = SwitchBench::<3, 4, 2, 2>::default();
    configure(&mut b, [Some(0), None, None, None]);
    let mut tokens = vec![None; 3];
    tokens[2] = Some(Token {
        vc: 0,
        tid: 0,
        data: 5,
    });
    for _ in 0..3 {
        cycle(
            &mut b,
            SwitchInputs {
                tokens: tokens.clone(),
                ..idle()
            },
        );
    }
    assert!(!b.uut.in_ready[2].val(), "two tokens held, input full");
}

#[test]
fn exported_verilog_lints_clean() {
    assert_lints_clean("switch", &verilog_of::<Switch<9, 11, 4, 4>>());
    assert_lints_clean("switch_2x3", &verilog_of::<Switch<2, 3, 2, 1>>());
}
