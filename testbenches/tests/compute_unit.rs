//! Compute unit (SPEC §6, VGIW §3.5): model-vs-RTL equivalence with the contracts
//! over channel counts 2..32, every opcode and random handshakes; bit-exact float
//! add / multiply against Rust's `f32` (plus the documented flush and NaN rules) on
//! the cross product of edge cases, on the underflow / overflow / cancellation
//! boundaries and on random words; the 3-cycle latency and one issue per cycle of
//! §3.5 ("all the instructions supported by the unit are pipelined"); stalls drop
//! nothing; immediates (random per configuration, for every opcode) in place of the
//! last operand, `a * b + k` through two chained units; the export gate.
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use weft_flow::lint::assert_lints_clean;
use weft_sim::cgrf::compute_unit::{execute, ComputeUnitIn, Config, Opcode, LATENCY};
use weft_sim::cgrf::token_buffer::OperandToken;
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::cgrf::compute_unit::{ComputeUnitBench, EDGE_OPERANDS};
use weft_testbenches::convert::small;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};

#[derive(Clone, Copy, Debug)]
struct Knobs {
    valid: u32,
    ready: u32,
    opcode: Option<Opcode>,
    /// Percent of configurations with the immediate enabled.
    imm: u32,
}

fn equivalence_at<const VCS: usize, const VB: usize>(cycles: u64, seed: u64, k: Knobs) {
    let mut bench = ComputeUnitBench::<VCS, VB>::default();
    bench.valid_percent = k.valid;
    bench.ready_percent = k.ready;
    bench.fixed_opcode = k.opcode;
    bench.imm_percent = k.imm;
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("VCS {VCS}, {k:?}, seed {seed}: {e}");
    }
    assert!(
        bench.results > 0,
        "VCS {VCS}, {k:?}, seed {seed}: no result"
    );
    // Reconfiguration (drain, write, carry on) happens throughout the run (unless a
    // slow producer or consumer makes every drain long).
    assert!(
        k.valid < 25 || k.ready < 25 || bench.configs * 400 >= cycles,
        "VCS {VCS}, {k:?}, seed {seed}: {} configuration writes in {cycles} cycles",
        bench.configs
    );
    if k.imm == 100 {
        assert_eq!(bench.imm_configs, bench.configs);
    }
    if cycles >= 10_000 {
        println!(
            "VCS {VCS}, {k:?}: {} results, {} configurations ({} with an immediate)",
            bench.results, bench.configs, bench.imm_configs
        );
    }
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
    #![proptest_config(ProptestConfig::with_cases(20))]

    #[test]
    fn model_and_rtl_agree(
        seed in any::<u64>(),
        vb in 1u32..=5,
        valid in 1u32..=100,
        ready in 1u32..=100,
        opcode in prop_oneof![Just(None), (0u8..16).prop_map(|c| Some(Opcode::from_code(c)))],
        imm in prop_oneof![Just(0u32), Just(100u32), 0u32..=100],
    ) {
        equivalence(vb, 1_500, seed, Knobs { valid, ready, opcode, imm });
    }
}

#[test]
fn long_runs_per_float_op_and_mixed() {
    let k = Knobs {
        valid: 70,
        ready: 80,
        opcode: None,
        imm: 50,
    };
    equivalence(5, 30_000, 11, k);
    equivalence(
        3,
        20_000,
        12,
        Knobs {
            opcode: Some(Opcode::FAdd),
            ..k
        },
    );
    equivalence(
        3,
        20_000,
        13,
        Knobs {
            opcode: Some(Opcode::FMul),
            ..k
        },
    );
}

/// One cycle: applies `i`, checks RTL vs model and the contracts, clocks; returns
/// the result token taken on this edge.
fn cycle<const VCS: usize, const VB: usize>(
    b: &mut ComputeUnitBench<VCS, VB>,
    i: ComputeUnitIn,
) -> Option<(usize, u16, u32)> {
    b.set_clock(false);
    b.apply(i);
    settle(&mut b.uut).unwrap();
    if let Err(e) = b.check() {
        panic!("{e}");
    }
    let u = &b.uut;
    let out = (u.out_valid.val() && i.out_ready).then(|| {
        (
            small(u.out_vc.val()) as usize,
            small(u.out_tid.val()) as u16,
            small(u.out_data.val()) as u32,
        )
    });
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    if let Err(e) = b.tick() {
        panic!("{e}");
    }
    out
}

fn configured(config: Config) -> ComputeUnitBench<16, 4> {
    let mut b = ComputeUnitBench::<16, 4>::default();
    cycle(
        &mut b,
        ComputeUnitIn {
            reset: true,
            ..Default::default()
        },
    );
    cycle(
        &mut b,
        ComputeUnitIn {
            cfg: Some(config),
            ..Default::default()
        },
    );
    b
}

/// The golden result written out per case (not through `Config::execute`): the
/// immediate is `c` for `select`, else `b`.
fn golden(config: Config, [a, b, c]: [u32; 3]) -> u32 {
    match (config.imm_en, config.opcode) {
        (false, op) => execute(op, a, b, c),
        (true, Opcode::Select) => execute(Opcode::Select, a, b, config.imm),
        (true, op) => execute(op, a, config.imm, 0),
    }
}

/// Links that carry operands under `config`.
fn linked(config: Config) -> usize {
    config.opcode.operands() as usize - usize::from(config.imm_en)
}

/// Streams `operands` through the RTL (one entry per cycle, channels in turn, the
/// consumer always ready; only the linked operands are sent) and returns the results
/// in order.
fn stream(config: Config, operands: &[[u32; 3]]) -> Vec<u32> {
    let mut b = configured(config);
    let mut results = vec![];
    let mut sent = 0;
    while results.len() < operands.len() {
        let mut links = [None; 3];
        if let Some(ops) = operands.get(sent) {
            let vc = sent % 16;
            let tid = b.thread_of(vc);
            for slot in 0..linked(config) {
                links[slot] = Some(OperandToken {
                    vc,
                    tid,
                    data: ops[slot],
                });
            }
            sent += 1;
        }
        if let Some((_, _, data)) = cycle(
            &mut b,
            ComputeUnitIn {
                links,
                out_ready: true,
                ..Default::default()
            },
        ) {
            results.push(data);
        }
    }
    results
}

fn assert_bit_exact(op: Opcode, operands: &[[u32; 3]]) {
    assert_bit_exact_with(Config::op(op), operands);
}

fn assert_bit_exact_with(config: Config, operands: &[[u32; 3]]) {
    let got = stream(config, operands);
    assert_eq!(got.len(), operands.len());
    for (ops, got) in operands.iter().zip(got) {
        let want = golden(config, *ops);
        assert_eq!(
            got, want,
            "{config:x?} on ({:#010x}, {:#010x}, {:#010x}): RTL {got:#010x}, golden {want:#010x}",
            ops[0], ops[1], ops[2]
        );
    }
}

#[test]
fn float_edge_cases_cross_product() {
    let pairs: Vec<[u32; 3]> = EDGE_OPERANDS
        .iter()
        .flat_map(|&a| EDGE_OPERANDS.iter().map(move |&b| [a, b, 0]))
        .collect();
    assert_bit_exact(Opcode::FAdd, &pairs);
    assert_bit_exact(Opcode::FMul, &pairs);
}

/// The boundaries where a datapath goes wrong: products whose exact value sits just
/// below the smallest normal (rounds up to it, or flushes), products that carry into
/// the exponent or overflow, sums with massive cancellation, alignment by 0..70
/// places, rounding ties.
#[test]
fn float_boundaries() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let min_normal = 0x0080_0000u32;
    let mut mul = vec![
        // (1 - 2^-24) * 2^-126 = 2^-126 - 2^-150 exactly: the tie rounds up to the
        // smallest normal (its significand is even)
        [0x3f7f_ffff, 0x0080_0000, 0],
        [0x3fff_ffff, 0x3f00_0000, 0],
        [min_normal, 0x3f7f_fffe, 0], // below the tie: flushed to zero
        [min_normal, 0x3f80_0000, 0],
        [0x7f7f_ffff, 0x3f80_0001, 0], // overflow by rounding
        [0x7f7f_ffff, 0x3f7f_ffff, 0],
        [0x3fc0_0000, 0x3fc0_0000, 0], // 1.5 * 1.5: carry into the exponent
        [0x3fff_ffff, 0x3fff_ffff, 0],
    ];
    // The documented rule, on the golden side: the tie stays normal, below it flushes.
    assert_eq!(
        execute(Opcode::FMul, 0x3f7f_ffff, min_normal, 0),
        min_normal
    );
    assert_eq!(
        execute(Opcode::FMul, 0xbf7f_fffe, min_normal, 0),
        0x8000_0000
    );
    // Products near 2^-126 with all-ones significands and every sign.
    for _ in 0..3000 {
        let ea: u32 = rng.gen_range(1..=127);
        let eb = (128 + rng.gen_range(-3i32..=1) - ea as i32).clamp(1, 254) as u32;
        let fa = if rng.gen() {
            0x7f_ffff
        } else {
            rng.gen::<u32>() & 0x7f_ffff
        };
        let fb = if rng.gen() {
            0x7f_ffff - rng.gen_range(0..4)
        } else {
            rng.gen::<u32>() & 0x7f_ffff
        };
        let sign = rng.gen::<u32>() & 0x8000_0000;
        mul.push([sign | ea << 23 | fa, eb << 23 | fb, 0]);
    }
    assert_bit_exact(Opcode::FMul, &mul);
    let mut add = vec![
        [0x3f80_0000, 0xbf7f_ffff, 0], // 1 - (1 - 2^-24)
        [0x0080_0001, 0x8080_0000, 0], // difference is subnormal: flushed
        [0x4b80_0000, 0x3f80_0000, 0], // 2^24 + 1: tie to even
        [0x4b80_0000, 0x4000_0000, 0],
        [0x7f7f_ffff, 0x7360_0000, 0], // max + half an ulp: ties to even (stays)
        [0x7f7f_ffff, 0x7380_0000, 0], // max + one ulp: overflow
    ];
    for _ in 0..4000 {
        let a: u32 = rng.gen::<u32>() & 0x7fff_ffff | 0x0080_0000;
        let e = ((a >> 23) as i32 - rng.gen_range(0..70)).clamp(1, 254) as u32;
        let b = match rng.gen_range(0..3) {
            0 => (a ^ 0x8000_0000)
                .wrapping_add(rng.gen_range(0..16))
                .wrapping_sub(8),
            1 => (rng.gen::<u32>() & 0x807f_ffff) | e << 23,
            _ => rng.gen(),
        };
        add.push([a, b, 0]);
    }
    assert_bit_exact(Opcode::FAdd, &add);
}

#[test]
fn every_opcode_on_random_and_edge_words() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for op in Opcode::ALL {
        let mut operands: Vec<[u32; 3]> = EDGE_OPERANDS
            .iter()
            .zip(EDGE_OPERANDS.iter().rev())
            .map(|(&a, &b)| [a, b, rng.gen()])
            .collect();
        for _ in 0..500 {
            let a = if rng.gen_ratio(1, 4) { 0 } else { rng.gen() };
            let b = if rng.gen() {
                rng.gen_range(0..64)
            } else {
                rng.gen()
            };
            operands.push([a, if rng.gen_ratio(1, 8) { a } else { b }, rng.gen()]);
        }
        assert_bit_exact(op, &operands);
        // The same operands with an immediate: edge words, small shift amounts, an
        // immediate equal to some `a` (eq / cancellation), random words.
        let mut imms = EDGE_OPERANDS.to_vec();
        imms.extend([5, 31, 32, operands[40][0], rng.gen(), rng.gen()]);
        for imm in imms {
            assert_bit_exact_with(Config::with_imm(op, imm), &operands[..60]);
        }
    }
}

/// §3.5: all instructions pipelined, a new set of tokens each cycle. An entry fired
/// on edge t is presented at t + 3 for every opcode; 200 back-to-back entries leave
/// in 200 consecutive cycles.
#[test]
fn three_cycle_latency_one_issue_per_cycle() {
    assert_eq!(LATENCY, 3);
    for config in [
        Config::op(Opcode::Add),
        Config::op(Opcode::Mul),
        Config::op(Opcode::FAdd),
        Config::op(Opcode::FMul),
        Config::op(Opcode::Select),
        Config::with_imm(Opcode::Add, 0x1234_5678),
        Config::with_imm(Opcode::FMul, 0x4040_0000),
        Config::with_imm(Opcode::Select, 77),
    ] {
        let mut b = configured(config);
        let mut out_cycles = vec![];
        let mut out_data = vec![];
        for c in 0..220u32 {
            let mut links = [None; 3];
            if c < 200 {
                let vc = c as usize % 16;
                let tid = b.thread_of(vc);
                for (slot, link) in links.iter_mut().enumerate().take(linked(config)) {
                    *link = Some(OperandToken {
                        vc,
                        tid,
                        data: c + slot as u32,
                    });
                }
            }
            if let Some((_, _, data)) = cycle(
                &mut b,
                ComputeUnitIn {
                    links,
                    out_ready: true,
                    ..Default::default()
                },
            ) {
                out_cycles.push(c);
                out_data.push(data);
            }
        }
        assert_eq!(out_cycles.len(), 200, "{config:?}");
        for (c, &data) in (0..200u32).zip(&out_data) {
            assert_eq!(
                data,
                golden(config, [c, c + 1, c + 2]),
                "{config:?}: entry {c}"
            );
        }
        // Accepted on edge 0, fired on edge 1, presented from cycle 1 + 3.
        assert_eq!(out_cycles[0], 1 + LATENCY as u32, "{config:?}: latency");
        assert!(
            out_cycles.windows(2).all(|w| w[1] == w[0] + 1),
            "{config:?}: one result per cycle"
        );
    }
}

/// A consumer that stalls for a while: the pipeline holds, the token buffer keeps
/// accepting into free slots, and every result comes out once, in firing order.
#[test]
fn stalls_drop_nothing() {
    let mut b = configured(Config::op(Opcode::Sub));
    let mut results = vec![];
    for c in 0..120u32 {
        let mut links = [None; 3];
        if c < 40 {
            let vc = c as usize % 16;
            let tid = b.thread_of(vc);
            links[0] = Some(OperandToken {
                vc,
                tid,
                data: 1000 + c,
            });
            links[1] = Some(OperandToken { vc, tid, data: c });
        }
        let ready = !(10..30).contains(&c) && c % 3 != 0;
        if let Some((_, _, d)) = cycle(
            &mut b,
            ComputeUnitIn {
                links,
                out_ready: ready,
                ..Default::default()
            },
        ) {
            results.push(d);
        }
    }
    assert_eq!(results.len(), b.fired as usize);
    assert!(b.in_flight.is_empty() && !b.uut.busy.val());
    // Every accepted thread produced 1000 (a - b); the ones stuck behind a full slot
    // were not accepted, so fewer than 40 may have gone through, none twice.
    assert!(results.iter().all(|&r| r == 1000));
    assert!(b.fired >= 16, "at least one thread per channel");
}

#[test]
fn lints_clean() {
    assert_lints_clean(
        "compute_unit_2",
        &verilog_of::<weft_hdl::cgrf::compute_unit::ComputeUnit<2, 1>>(),
    );
    assert_lints_clean(
        "compute_unit",
        &verilog_of::<weft_hdl::presets::ComputeUnit32>(),
    );
}

/// `c = a * b + k`: a `mul` unit feeds an `add` unit whose `b` is the immediate `k`
/// (no unit produces `k`; the add unit's `b` link is never used). The add unit takes
/// each product on link a the cycle after it leaves the mul unit.
#[test]
fn multiply_then_add_an_immediate() {
    const K: u32 = 0x0001_e240; // 123 456
    let mut mul = configured(Config::op(Opcode::Mul));
    let mut add = configured(Config::with_imm(Opcode::Add, K));
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let pairs: Vec<(u32, u32)> = (0..300)
        .map(|i| match i % 3 {
            0 => (rng.gen_range(0..1000), rng.gen_range(0..1000)),
            1 => (rng.gen(), rng.gen()),
            _ => (u32::MAX - rng.gen_range(0..4), rng.gen_range(0..4)),
        })
        .collect();
    let mut products = std::collections::VecDeque::new();
    let mut results = vec![];
    let mut sent = 0;
    for _ in 0..2_000 {
        if results.len() == pairs.len() {
            break;
        }
        let mut mul_links = [None; 3];
        if let Some(&(x, y)) = pairs.get(sent) {
            let vc = sent % 16;
            let tid = mul.thread_of(vc);
            mul_links[0] = Some(OperandToken { vc, tid, data: x });
            mul_links[1] = Some(OperandToken { vc, tid, data: y });
        }
        // The add unit's b link is offered garbage: it must never accept it.
        let mut add_links = [None; 3];
        if let Some(&(vc, tid, data)) = products.front() {
            add_links[0] = Some(OperandToken { vc, tid, data });
            add_links[1] = Some(OperandToken {
                vc,
                tid,
                data: 0xdead_beef,
            });
        }
        let add_vcs = add_links.map(|l| l.map_or(0, |t: OperandToken| t.vc));
        let add_ready = add.model.outputs(add_vcs).link_ready;
        assert!(!add_ready[1], "the replaced operand's link never accepts");
        if let Some(r) = cycle(
            &mut add,
            ComputeUnitIn {
                links: add_links,
                out_ready: true,
                ..Default::default()
            },
        ) {
            results.push(r);
        }
        if add_links[0].is_some() && add_ready[0] {
            products.pop_front();
        }
        let mul_ready = mul
            .model
            .outputs([mul_links[0].map_or(0, |t| t.vc); 3])
            .link_ready;
        if mul_links[0].is_some() && mul_ready[0] && mul_ready[1] {
            sent += 1;
        }
        if let Some(p) = cycle(
            &mut mul,
            ComputeUnitIn {
                links: mul_links,
                out_ready: true,
                ..Default::default()
            },
        ) {
            products.push_back(p);
        }
    }
    assert_eq!(results.len(), pairs.len(), "every a * b + k came out");
    // Channels in turn and one entry in flight per channel: results in order.
    for (i, (&(x, y), &(vc, _, data))) in pairs.iter().zip(&results).enumerate() {
        assert_eq!(vc, i % 16);
        assert_eq!(data, x.wrapping_mul(y).wrapping_add(K), "{x} * {y} + {K}");
    }
    assert!(!add.uut.busy.val() && !mul.uut.busy.val());
}

/// The immediate is captured at the fire like the opcode: rewriting the
/// configuration while results are in flight changes only later entries.
#[test]
fn reconfiguring_keeps_results_in_flight() {
    let mut b = configured(Config::with_imm(Opcode::Add, 5));
    let token = |b: &ComputeUnitBench<16, 4>, vc: usize, data| {
        let mut links = [None; 3];
        links[0] = Some(OperandToken {
            vc,
            tid: b.thread_of(vc),
            data,
        });
        links
    };
    let go = ComputeUnitIn {
        out_ready: true,
        ..Default::default()
    };
    let mut results = vec![];
    let mut step = |b: &mut ComputeUnitBench<16, 4>, i: ComputeUnitIn| {
        if let Some(r) = cycle(b, i) {
            results.push(r.2);
        }
    };
    let links = token(&b, 0, 100);
    step(&mut b, ComputeUnitIn { links, ..go }); // accepted
    step(&mut b, go); // fired: in stage 1 from here on
    assert!(b.uut.busy.val() && b.model.outputs([0; 3]).out.is_none());
    step(
        &mut b,
        ComputeUnitIn {
            cfg: Some(Config::with_imm(Opcode::Sub, 1000)),
            ..go
        },
    );
    let links = token(&b, 1, 3000);
    step(&mut b, ComputeUnitIn { links, ..go });
    for _ in 0..8 {
        step(&mut b, go);
    }
    assert_eq!(results, vec![105, 2000]);
}
