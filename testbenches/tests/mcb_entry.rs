//! MCB entry (SPEC §4): model-vs-RTL equivalence; a returning line wakes every thread
//! waiting on it; a thread's data is its line's value when the line returned.
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_testbenches::dom::mcb_entry::McbEntryBench;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};

fn equivalence<
    const L: usize,
    const AW: usize,
    const OB: usize,
    const DW: usize,
    const NA: usize,
    const ND: usize,
>(
    cycles: u64,
    seed: u64,
) {
    let mut bench = McbEntryBench::<L, AW, OB, DW, NA, ND>::default();
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("{L} lanes, AW {AW}, OB {OB}, DW {DW}, seed {seed}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]
    #[test]
    fn model_and_rtl_agree(seed in any::<u64>()) {
        equivalence::<1, 8, 2, 8, 8, 8>(1_500, seed);
        equivalence::<2, 8, 3, 4, 16, 8>(1_500, seed);
        equivalence::<5, 12, 4, 8, 60, 40>(1_500, seed);
        equivalence::<32, 32, 5, 32, 1024, 1024>(300, seed);
    }
}

#[test]
fn long_run_at_the_paper_size() {
    equivalence::<32, 32, 5, 32, 1024, 1024>(10_000, 12);
    equivalence::<5, 12, 4, 8, 60, 40>(100_000, 13);
}

#[test]
fn other_sizes_lint_clean() {
    assert_lints_clean(
        "mcb_entry_2",
        &verilog_of::<weft_hdl::dom::mcb_entry::McbEntry<2, 8, 3, 4, 16, 8>>(),
    );
}
