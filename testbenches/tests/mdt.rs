//! Memory Divergence Table (SPEC §4): model-vs-RTL equivalence over sizes with the
//! table's contracts checked every cycle, and a lint of a non-exported size.
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_testbenches::dom::mdt::MdtBench;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};

fn equivalence<const L: usize, const M: usize, const P: usize>(cycles: u64, seed: u64) {
    let mut bench = MdtBench::<L, M, P>::default();
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("{L} lanes x {M} entries, PC {P} bits, seed {seed}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    #[test]
    fn model_and_rtl_agree(seed in any::<u64>()) {
        equivalence::<1, 1, 8>(2_000, seed);
        equivalence::<2, 2, 8>(2_000, seed);
        equivalence::<5, 3, 8>(2_000, seed);
        equivalence::<32, 2, 32>(2_000, seed);
    }
}

#[test]
fn long_run_at_the_paper_size() {
    equivalence::<32, 2, 32>(100_000, 11);
}

#[test]
fn other_sizes_lint_clean() {
    assert_lints_clean("mdt_1x1", &verilog_of::<weft_hdl::dom::mdt::Mdt<1, 1, 8>>());
    assert_lints_clean("mdt_5x3", &verilog_of::<weft_hdl::dom::mdt::Mdt<5, 3, 8>>());
}
