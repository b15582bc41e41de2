//! Live value port (`hdl/vgiw/live_value_port.rs`): RTL vs model every cycle with the
//! contracts (the LVC sees `{lv, tid}`; each request answered once on its own port with
//! its tag and the LVC's word, writes acknowledged; `addr_error` exactly after a request
//! outside the array), over sizes, seeds and handshake rates; a model whose round robin
//! starts on the other port is caught; the export gate.
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_sim::vgiw::live_value_port::LiveValuePort as Model;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};
use weft_testbenches::vgiw::live_value_port::LiveValuePortBench;

fn equivalence<const LVW: usize, const TIDW: usize, const AW: usize>(
    seed: u64,
    valid: u32,
    lvc_ready: u32,
    outside: u32,
) -> u64 {
    let mut b = LiveValuePortBench::<LVW, TIDW, AW>::default();
    b.valid_percent = valid;
    b.lvc_ready_percent = lvc_ready;
    b.outside_per_mille = outside;
    // A request goes out in a cycle its port offers one and, at worst, the LVC is ready:
    // enough cycles for about 100 such cycles at the lowest rates (5% and 5%: 40 000),
    // so the answers counted below measure the port, not the luck of a short run.
    let cycles = (1_000_000 / (valid * lvc_ready)).max(3_000);
    if let Err(e) = run(&mut b, cycles.into(), seed, Outputs::default()) {
        panic!("LVW {LVW}, TIDW {TIDW}, valid {valid}%, LVC ready {lvc_ready}%, outside {outside}‰, seed {seed}: {e}");
    }
    b.answered
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn model_and_rtl_agree(
        seed in any::<u64>(),
        size in 0u32..3,
        valid in 5u32..=100,
        lvc_ready in 5u32..=100,
        outside in prop_oneof![Just(0u32), 1u32..=20],
    ) {
        let answered = match size {
            0 => equivalence::<7, 8, 15>(seed, valid, lvc_ready, outside),
            1 => equivalence::<1, 1, 2>(seed, valid, lvc_ready, outside),
            _ => equivalence::<13, 16, 29>(seed, valid, lvc_ready, outside),
        };
        prop_assert!(answered > 30, "only {answered} answers");
    }
}

/// The lowest rates, where a fixed 3 000-cycle run answered 12 requests (CI, seed and
/// rates from proptest's shrinking): the run's length follows the rates.
#[test]
fn the_lowest_handshake_rates_still_answer_enough_requests() {
    let answered = equivalence::<7, 8, 15>(725_804_538_074_790_866, 5, 6, 0);
    assert!(answered > 30, "only {answered} answers");
}

#[test]
fn requests_outside_the_array_raise_addr_error() {
    let mut seen = false;
    for seed in 1..=5 {
        let mut b = LiveValuePortBench::<7, 8, 15>::default();
        b.outside_per_mille = 200;
        run(&mut b, 500, seed, Outputs::default()).unwrap_or_else(|e| panic!("{e}"));
        seen |= b.uut.addr_error.val();
    }
    assert!(
        seen,
        "no run ended with addr_error although a fifth of the requests were outside"
    );
}

#[test]
fn a_model_with_the_other_round_robin_is_caught() {
    let mut b = LiveValuePortBench::<7, 8, 15>::default();
    b.model = Model::with_flipped_round_robin(7, 8);
    assert!(run(&mut b, 3_000, 9, Outputs::default()).is_err());
}

#[test]
fn other_sizes_pass_the_export_gate() {
    assert_lints_clean(
        "live_value_port_1x1",
        &verilog_of::<weft_hdl::vgiw::live_value_port::LiveValuePort<1, 1, 2>>(),
    );
    assert_lints_clean(
        "live_value_port_13x16",
        &verilog_of::<weft_hdl::vgiw::live_value_port::LiveValuePort<13, 16, 29>>(),
    );
}
