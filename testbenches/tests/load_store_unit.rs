//! Load/store unit (SPEC §6, VGIW §3.5): model-vs-RTL equivalence against a memory
//! with random latency and reordering, with the contracts (one token per request with
//! the data the memory held, at most RB outstanding, tags unique, stray responses
//! ignored) over sizes; out-of-order overtaking and throughput as directed tests; the
//! export gate.
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::cgrf::load_store_unit::{LsuBench, LsuInputs};
use weft_testbenches::convert::small;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};

fn equivalence<const VB: usize, const RB: usize, const TW: usize, const NW: usize>(
    cycles: u64,
    seed: u64,
    valid: u32,
    ready: u32,
    latency: (u64, u64),
) {
    let mut bench = LsuBench::<VB, RB, TW, NW>::default();
    bench.valid_percent = valid;
    bench.ready_percent = ready;
    bench.latency = latency;
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("RB {RB}, valid {valid}% ready {ready}%, latency {latency:?}, seed {seed}: {e}");
    }
    assert!(bench.tokens > 0, "seed {seed}: no token out");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn model_and_rtl_agree_over_sizes(
        seed in any::<u64>(),
        valid in 1u32..=100,
        ready in 1u32..=100,
        lo in 1u64..=4,
        spread in 0u64..=30,
    ) {
        let latency = (lo, lo + spread);
        equivalence::<1, 1, 1, 1>(2_000, seed, valid, ready, latency);
        equivalence::<2, 2, 1, 2>(2_000, seed, valid, ready, latency);
        equivalence::<3, 3, 2, 2>(2_000, seed, valid, ready, latency);
        equivalence::<4, 6, 3, 3>(2_000, seed, valid, ready, latency);
        equivalence::<5, 16, 4, 5>(2_000, seed, valid, ready, latency);
        equivalence::<5, 32, 5, 6>(2_000, seed, valid, ready, latency);
    }
}

#[test]
fn long_run_paper_size() {
    equivalence::<5, 16, 4, 5>(100_000, 11, 70, 70, (1, 24));
    equivalence::<5, 16, 4, 5>(30_000, 12, 100, 100, (1, 60));
    equivalence::<5, 16, 4, 5>(30_000, 13, 100, 10, (1, 8));
}

fn cycle<const VB: usize, const RB: usize, const TW: usize, const NW: usize>(
    b: &mut LsuBench<VB, RB, TW, NW>,
    i: LsuInputs,
) -> (Option<usize>, Option<(u16, u32)>) {
    b.set_clock(false);
    b.apply(i);
    settle(&mut b.uut).unwrap();
    b.check().unwrap();
    let u = &b.uut;
    let tag = (i.in_valid && u.in_ready.val()).then(|| small(u.mem_req_tag.val()) as usize);
    let token = (u.out_valid.val() && i.out_ready).then(|| {
        (
            small(u.out_tid.val()) as u16,
            small(u.out_data.val()) as u32,
        )
    });
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    b.tick().unwrap();
    (tag, token)
}

/// Three loads; the memory answers the third first, then the first, then the second:
/// the tokens leave in that order (threads overtake blocked ones), each with the
/// word at its address.
#[test]
fn completions_in_any_order_overtake() {
    let mut b = LsuBench::<5, 16, 4, 5>::default();
    cycle(
        &mut b,
        LsuInputs {
            reset: true,
            ..Default::default()
        },
    );
    let words = [(0x40u32, 111u32), (0x44, 222), (0x48, 333)];
    for &(addr, value) in &words {
        b.memory.write(addr, value);
    }
    let mut tags = vec![];
    for (k, &(addr, _)) in words.iter().enumerate() {
        let (tag, _) = cycle(
            &mut b,
            LsuInputs {
                in_valid: true,
                vc: k as u32,
                tid: 100 + k as u16,
                addr,
                mem_req_ready: true,
                ..Default::default()
            },
        );
        tags.push(tag.expect("request taken"));
    }
    let mut tokens = vec![];
    for k in [2usize, 0, 1] {
        let (_, t) = cycle(
            &mut b,
            LsuInputs {
                response: Some((tags[k], words[k].1)),
                out_ready: true,
                ..Default::default()
            },
        );
        tokens.extend(t);
    }
    for _ in 0..3 {
        let (_, t) = cycle(
            &mut b,
            LsuInputs {
                out_ready: true,
                ..Default::default()
            },
        );
        tokens.extend(t);
    }
    assert_eq!(tokens, vec![(102, 333), (100, 111), (101, 222)]);
    assert_eq!(b.owed(), 0);
}

/// Memory latency M = 8 (request edge to response edge) and an always-ready memory and
/// consumer: an entry is held M + 2 cycles (response edge, forward edge, reusable the
/// cycle after), so RB >= M + 2 sustains one operation per cycle and RB = 4 caps the
/// rate at RB / (M + 2).
fn stream_rate<const VB: usize, const RB: usize, const TW: usize, const NW: usize>(
    store: bool,
) -> f64 {
    let mut b = LsuBench::<VB, RB, TW, NW>::default();
    b.valid_percent = 100;
    b.mem_ready_percent = 100;
    b.answer_percent = 100;
    b.ready_percent = 100;
    b.latency = (8, 8);
    b.rogue_percent = 0;
    b.foreign_write_percent = 0;
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(5);
    let (mut first, mut last, mut tokens) = (None, 0, 0u64);
    for c in 0..2_000u64 {
        b.set_clock(false);
        b.drive(c, &mut rng);
        let mut i = b.inputs;
        i.reset = c == 0;
        i.is_store = store;
        i.in_valid = c < 1_000;
        b.apply(i);
        settle(&mut b.uut).unwrap();
        b.check().unwrap();
        if b.uut.out_valid.val() {
            first.get_or_insert(c);
            last = c;
            tokens += 1;
        }
        b.set_clock(true);
        settle(&mut b.uut).unwrap();
        b.tick().unwrap();
    }
    assert_eq!(tokens, b.requests, "every request produced a token");
    tokens as f64 / (last - first.unwrap() + 1) as f64
}

#[test]
fn throughput_one_per_cycle_when_rb_covers_latency() {
    let full = stream_rate::<5, 16, 4, 5>(false);
    let store = stream_rate::<5, 10, 4, 4>(true);
    let short = stream_rate::<5, 4, 2, 3>(false);
    println!("load_store_unit: latency 8: RB 16 {full:.3}, RB 10 (stores) {store:.3}, RB 4 {short:.3} tokens/cycle");
    assert_eq!(full, 1.0);
    assert_eq!(store, 1.0);
    assert!(
        (short - 4.0 / 10.0).abs() < 0.01,
        "RB 4: 4/10 per cycle, got {short}"
    );
}

#[test]
fn lints_clean() {
    assert_lints_clean(
        "load_store_unit",
        &verilog_of::<weft_hdl::presets::LoadStoreUnit32x16>(),
    );
    assert_lints_clean(
        "load_store_unit_1",
        &verilog_of::<weft_hdl::cgrf::load_store_unit::LoadStoreUnit<1, 1, 1, 1>>(),
    );
}
