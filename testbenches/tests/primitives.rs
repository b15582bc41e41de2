//! Shared primitives (SPEC §1): priority encoder, popcount and round-robin arbiter,
//! RTL vs model. Exhaustive for N = 1..=8 (every mask, and for the arbiter every
//! `last` value the port can carry), random (proptest) for N = 32 and 33; every
//! block's Verilog through `verilator --lint-only -Wall`.
use proptest::prelude::*;
use rust_hdl::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_hdl::lib::popcount::Popcount;
use weft_hdl::lib::priority_encoder::PriorityEncoder;
use weft_hdl::lib::round_robin_arbiter::RoundRobinArbiter;
use weft_sim::lib::{popcount, priority_encoder, round_robin_arbiter};
use weft_testbenches::convert::small;
use weft_testbenches::presets::verilog_of;

/// The RTL priority encoder's (valid, index) against the model for one mask.
fn check_encoder<const N: usize, const W: usize>(
    uut: &mut PriorityEncoder<N, W>,
    mask: u64,
) -> Result<(), String> {
    uut.mask.next = Bits::<N>::from(mask);
    assert!(simulate(uut, 100), "priority encoder does not settle");
    let want = priority_encoder::lowest(mask, N);
    let got = (uut.valid.val(), small(uut.index.val()) as usize);
    let want = (want.is_some(), want.unwrap_or(0));
    if got == want {
        Ok(())
    } else {
        Err(format!(
            "priority_encoder<{N}> mask {mask:#x}: (valid, index) expected {want:?}, got {got:?}"
        ))
    }
}

fn check_popcount<const N: usize, const W: usize>(
    uut: &mut Popcount<N, W>,
    bits: u64,
) -> Result<(), String> {
    uut.bits.next = Bits::<N>::from(bits);
    assert!(simulate(uut, 100), "popcount does not settle");
    let want = popcount::count(bits, N);
    let got = small(uut.count.val()) as usize;
    if got == want {
        Ok(())
    } else {
        Err(format!(
            "popcount<{N}> bits {bits:#x}: expected {want}, got {got}"
        ))
    }
}

fn check_arbiter<const N: usize, const W: usize>(
    uut: &mut RoundRobinArbiter<N, W>,
    request: u64,
    last: u64,
) -> Result<(), String> {
    uut.request.next = Bits::<N>::from(request);
    uut.last.next = Bits::<W>::from(last);
    assert!(simulate(uut, 100), "arbiter does not settle");
    let want = round_robin_arbiter::grant(request, N, last as usize);
    let got = (uut.grant_valid.val(), small(uut.grant.val()) as usize);
    let want = (want.is_some(), want.unwrap_or(0));
    if got != want {
        return Err(format!(
            "round_robin_arbiter<{N}> request {request:#x} last {last}: (valid, grant) expected {want:?}, got {got:?}"
        ));
    }
    // Contract: a grant names a requester, and no requester lies strictly between
    // `last` and the grant in cyclic order (checked directly, not via the model).
    if got.0 {
        let g = got.1;
        if request >> g & 1 == 0 {
            return Err(format!("arbiter<{N}> granted non-requester {g}"));
        }
        let last = (last as usize).min(N - 1);
        let skipped = (1..N)
            .map(|k| (last + k) % N)
            .take_while(|&i| i != g)
            .find(|&i| request >> i & 1 == 1);
        if let Some(i) = skipped {
            return Err(format!(
                "arbiter<{N}> request {request:#x} last {last}: skipped requester {i} for {g}"
            ));
        }
    }
    Ok(())
}

fn exhaustive<const N: usize, const W: usize, const CW: usize>() -> u64 {
    let mut enc = PriorityEncoder::<N, W>::default();
    enc.connect_all();
    let mut pop = Popcount::<N, CW>::default();
    pop.connect_all();
    let mut arb = RoundRobinArbiter::<N, W>::default();
    arb.connect_all();
    let mut cases = 0;
    for mask in 0..1u64 << N {
        check_encoder(&mut enc, mask).unwrap();
        check_popcount(&mut pop, mask).unwrap();
        cases += 2;
        for last in 0..1u64 << W {
            check_arbiter(&mut arb, mask, last).unwrap();
            cases += 1;
        }
    }
    cases
}

#[test]
fn exhaustive_small_sizes() {
    let cases = exhaustive::<1, 1, 1>()
        + exhaustive::<2, 1, 2>()
        + exhaustive::<3, 2, 2>()
        + exhaustive::<4, 2, 3>()
        + exhaustive::<5, 3, 3>()
        + exhaustive::<6, 3, 3>()
        + exhaustive::<7, 3, 3>()
        + exhaustive::<8, 3, 4>();
    eprintln!("primitives: {cases} exhaustive cases");
}

/// A random mask of varied density: `density` 0..4 ANDs (sparse) or ORs (dense)
/// extra random words into `a`.
fn shaped(a: u64, b: u64, c: u64, density: u8) -> u64 {
    match density % 6 {
        0 => a & b & c,
        1 => a & b,
        2 => a,
        3 => a | b,
        4 => a | b | c,
        _ => 1 << (a % 64),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_32_and_33(a in any::<u64>(), b in any::<u64>(), c in any::<u64>(), density in any::<u8>(), last in 0u64..64) {
        let mask = shaped(a, b, c, density);
        let m32 = mask & 0xffff_ffff;
        let m33 = mask & 0x1_ffff_ffff;
        let mut enc32 = PriorityEncoder::<32, 5>::default();
        enc32.connect_all();
        let mut enc33 = PriorityEncoder::<33, 6>::default();
        enc33.connect_all();
        let mut pop32 = Popcount::<32, 6>::default();
        pop32.connect_all();
        let mut pop33 = Popcount::<33, 6>::default();
        pop33.connect_all();
        let mut arb32 = RoundRobinArbiter::<32, 5>::default();
        arb32.connect_all();
        let mut arb33 = RoundRobinArbiter::<33, 6>::default();
        arb33.connect_all();
        check_encoder(&mut enc32, m32).map_err(TestCaseError::fail)?;
        check_encoder(&mut enc33, m33).map_err(TestCaseError::fail)?;
        check_popcount(&mut pop32, m32).map_err(TestCaseError::fail)?;
        check_popcount(&mut pop33, m33).map_err(TestCaseError::fail)?;
        check_arbiter(&mut arb32, m32, last & 31).map_err(TestCaseError::fail)?;
        check_arbiter(&mut arb33, m33, last).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn verilator_lint_clean() {
    assert_lints_clean("priority_encoder_1", &verilog_of::<PriorityEncoder<1, 1>>());
    assert_lints_clean("priority_encoder_6", &verilog_of::<PriorityEncoder<6, 3>>());
    assert_lints_clean(
        "priority_encoder_32",
        &verilog_of::<PriorityEncoder<32, 5>>(),
    );
    assert_lints_clean("popcount_1", &verilog_of::<Popcount<1, 1>>());
    assert_lints_clean("popcount_7", &verilog_of::<Popcount<7, 3>>());
    assert_lints_clean("popcount_32", &verilog_of::<Popcount<32, 6>>());
    assert_lints_clean(
        "round_robin_arbiter_1",
        &verilog_of::<RoundRobinArbiter<1, 1>>(),
    );
    assert_lints_clean(
        "round_robin_arbiter_6",
        &verilog_of::<RoundRobinArbiter<6, 3>>(),
    );
    assert_lints_clean(
        "round_robin_arbiter_32",
        &verilog_of::<RoundRobinArbiter<32, 5>>(),
    );
}
