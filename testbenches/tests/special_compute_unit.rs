//! Special compute unit (SPEC §6, VGIW §3.5): model-vs-RTL equivalence with the
//! contracts (at most COPIES in flight, one correct result per operation, in issue
//! order) over sizes, one operation per cycle with COPIES >= latency, the RISC-V
//! corner cases, and the export gate.
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_sim::cgrf::special_compute_unit::{divide, DivOp};
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::cgrf::special_compute_unit::{ScuBench, ScuInputs};
use weft_testbenches::convert::small;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};

fn equivalence<
    const VB: usize,
    const C: usize,
    const CW: usize,
    const NW: usize,
    const R: usize,
    const SW: usize,
>(
    cycles: u64,
    seed: u64,
    valid: u32,
    ready: u32,
) {
    let mut bench = ScuBench::<VB, C, CW, NW, R, SW>::default();
    bench.valid_percent = valid;
    bench.ready_percent = ready;
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("COPIES {C}, {R} bits/cycle, valid {valid}% ready {ready}%, seed {seed}: {e}");
    }
    assert!(bench.delivered > 0, "seed {seed}: no result delivered");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    #[test]
    fn model_and_rtl_agree_over_sizes(seed in any::<u64>(), valid in 1u32..=100, ready in 1u32..=100) {
        equivalence::<1, 1, 1, 1, 8, 3>(2_000, seed, valid, ready);
        equivalence::<2, 2, 1, 2, 4, 4>(2_000, seed, valid, ready);
        equivalence::<3, 3, 2, 2, 16, 2>(2_000, seed, valid, ready);
        equivalence::<4, 5, 3, 3, 2, 5>(2_000, seed, valid, ready);
        equivalence::<5, 9, 4, 4, 4, 4>(2_000, seed, valid, ready);
        equivalence::<5, 4, 2, 3, 32, 1>(2_000, seed, valid, ready);
    }
}

#[test]
fn long_run_paper_size() {
    equivalence::<5, 9, 4, 4, 4, 4>(100_000, 11, 70, 70);
    equivalence::<5, 9, 4, 4, 4, 4>(30_000, 12, 100, 100);
    equivalence::<5, 9, 4, 4, 4, 4>(30_000, 13, 100, 15);
}

#[test]
fn long_run_one_bit_per_cycle() {
    equivalence::<5, 8, 3, 4, 1, 6>(30_000, 14, 60, 80);
}

/// Applies `i`, checks the RTL against the model, clocks; returns (accepted, result).
fn cycle<
    const VB: usize,
    const C: usize,
    const CW: usize,
    const NW: usize,
    const R: usize,
    const SW: usize,
>(
    b: &mut ScuBench<VB, C, CW, NW, R, SW>,
    i: ScuInputs,
) -> (bool, Option<u32>) {
    b.set_clock(false);
    b.apply(i);
    settle(&mut b.uut).unwrap();
    b.check().unwrap();
    let accepted = i.in_valid && b.uut.in_ready.val();
    let result = (b.uut.out_valid.val() && i.out_ready).then(|| small(b.uut.out_data.val()) as u32);
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    b.tick().unwrap();
    (accepted, result)
}

/// Streams `operands` with an always-ready consumer; returns the results in order and
/// the operations accepted per cycle (first acceptance to last).
fn stream<
    const VB: usize,
    const C: usize,
    const CW: usize,
    const NW: usize,
    const R: usize,
    const SW: usize,
>(
    op: DivOp,
    operands: &[(u32, u32)],
) -> (Vec<u32>, f64) {
    let mut b = ScuBench::<VB, C, CW, NW, R, SW>::default();
    cycle(
        &mut b,
        ScuInputs {
            reset: true,
            op,
            ..Default::default()
        },
    );
    let (mut next, mut results, mut first, mut last_accept) = (0, vec![], None, 0);
    for c in 0..(operands.len() * 40 + 100) as u64 {
        let (a, bb) = operands.get(next).copied().unwrap_or((0, 0));
        let (accepted, result) = cycle(
            &mut b,
            ScuInputs {
                op,
                in_valid: next < operands.len(),
                vc: next as u32 % (1 << VB),
                tid: next as u16,
                a,
                b: bb,
                out_ready: true,
                ..Default::default()
            },
        );
        if accepted {
            first.get_or_insert(c);
            last_accept = c;
            next += 1;
        }
        results.extend(result);
    }
    let rate = operands.len() as f64 / (last_accept - first.unwrap() + 1) as f64;
    (results, rate)
}

/// COPIES = latency = 9 (4 bits per cycle) and an always-ready consumer: one
/// division starts every cycle; fewer copies than the latency cap the rate at
/// COPIES / latency.
#[test]
fn one_operation_per_cycle_with_copies_at_least_latency() {
    let ops: Vec<(u32, u32)> = (0..200u32)
        .map(|k| (k.wrapping_mul(2_654_435_761), k % 17))
        .collect();
    let want: Vec<u32> = ops.iter().map(|&(a, b)| divide(DivOp::Div, a, b)).collect();
    let (results, rate) = stream::<5, 9, 4, 4, 4, 4>(DivOp::Div, &ops);
    println!("special_compute_unit: COPIES 9, latency 9: {rate:.3} operations/cycle");
    assert_eq!(results, want);
    assert_eq!(rate, 1.0, "one operation per cycle");
    let (results, rate) = stream::<5, 12, 4, 4, 4, 4>(DivOp::Div, &ops);
    assert_eq!(results, want);
    assert_eq!(
        rate, 1.0,
        "more copies than the latency: still one per cycle"
    );
    let (results, rate) = stream::<5, 3, 2, 2, 4, 4>(DivOp::Div, &ops);
    println!("special_compute_unit: COPIES 3, latency 9: {rate:.3} operations/cycle");
    assert_eq!(results, want);
    assert!(
        (rate - 3.0 / 9.0).abs() < 0.01,
        "3 copies of a 9-cycle op: 1/3 per cycle, got {rate}"
    );
}

/// RISC-V M corner cases through the RTL, every opcode.
#[test]
fn riscv_division_corner_cases() {
    let min = i32::MIN as u32;
    let pairs = [
        (7u32, 0u32),
        ((-7i32) as u32, 0),
        (min, (-1i32) as u32),
        (min, 1),
        ((-7i32) as u32, 2),
        (7, (-2i32) as u32),
        ((-7i32) as u32, (-2i32) as u32),
        (u32::MAX, u32::MAX),
        (0, 0),
        (123_456_789, 1000),
    ];
    for op in DivOp::ALL {
        let (results, _) = stream::<5, 9, 4, 4, 4, 4>(op, &pairs);
        let want: Vec<u32> = pairs.iter().map(|&(a, b)| divide(op, a, b)).collect();
        assert_eq!(results, want, "{op:?}");
    }
    // Spot values written out by hand (RISC-V spec table).
    let (div, _) = stream::<5, 9, 4, 4, 4, 4>(DivOp::Div, &pairs[..3]);
    assert_eq!(div, vec![u32::MAX, u32::MAX, min]);
    let (rem, _) = stream::<5, 9, 4, 4, 4, 4>(DivOp::Rem, &pairs[..3]);
    assert_eq!(rem, vec![7, (-7i32) as u32, 0]);
    let (div, _) = stream::<5, 9, 4, 4, 4, 4>(DivOp::Div, &pairs[4..7]);
    assert_eq!(div, vec![(-3i32) as u32, (-3i32) as u32, 3]);
    let (rem, _) = stream::<5, 9, 4, 4, 4, 4>(DivOp::Rem, &pairs[4..7]);
    assert_eq!(rem, vec![(-1i32) as u32, 1, (-1i32) as u32]);
}

#[test]
fn lints_clean() {
    assert_lints_clean(
        "special_compute_unit",
        &verilog_of::<weft_hdl::presets::SpecialComputeUnit32x9>(),
    );
    assert_lints_clean(
        "special_compute_unit_1",
        &verilog_of::<weft_hdl::cgrf::special_compute_unit::SpecialComputeUnit<1, 1, 1, 1, 32, 1>>(
        ),
    );
}
