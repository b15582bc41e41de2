//! Control vector table (SPEC §5): model-vs-RTL equivalence over sizes with the
//! contracts (one block per thread, conservation, read-and-reset), directed OR-write
//! and bank-conflict scenarios, and the export gate on other parameter sets.
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_sim::vgiw::cvt::WordAddr;
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::convert::small;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};
use weft_testbenches::vgiw::cvt::{CvtBench, CvtInputs};

fn equivalence<
    const B: usize,
    const WPB: usize,
    const BANKS: usize,
    const BW: usize,
    const WW: usize,
    const AW: usize,
    const BKW: usize,
    const RB: usize,
>(
    cycles: u64,
    seed: u64,
    rd: u32,
    wr: u32,
) {
    let mut bench = CvtBench::<B, WPB, BANKS, BW, WW, AW, BKW, RB>::default();
    bench.rd_percent = rd;
    bench.wr_percent = wr;
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("{B} blocks x {WPB} words, {BANKS} banks, seed {seed}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10))]

    /// Edge sizes (2 blocks, 2 words, 2 banks), a non-power-of-two block count and the
    /// paper's size.
    #[test]
    fn model_and_rtl_agree(seed in any::<u64>(), rd in 1u32..=100, wr in 1u32..=100) {
        equivalence::<2, 2, 2, 1, 1, 2, 1, 1>(1_500, seed, rd, wr);
        equivalence::<3, 2, 4, 2, 1, 3, 2, 1>(1_500, seed, rd, wr);
        equivalence::<5, 8, 8, 3, 3, 6, 3, 3>(1_500, seed, rd, wr);
        equivalence::<8, 4, 8, 3, 2, 5, 3, 2>(1_500, seed, rd, wr);
        equivalence::<32, 16, 8, 5, 4, 9, 3, 6>(1_000, seed, rd, wr);
    }
}

#[test]
fn long_runs() {
    equivalence::<8, 4, 8, 3, 2, 5, 3, 2>(100_000, 31, 50, 60);
    equivalence::<32, 16, 8, 5, 4, 9, 3, 6>(30_000, 32, 40, 70);
}

type Small = CvtBench<8, 4, 8, 3, 2, 5, 3, 2>;

/// Applies `i`, checks against the model, clocks. Returns (rd_ready, wr_ready, rd_data
/// of this cycle).
fn cycle(b: &mut Small, i: CvtInputs) -> (bool, bool, Option<u64>) {
    b.set_clock(false);
    b.apply(i);
    settle(&mut b.uut).unwrap();
    b.check().unwrap();
    let r = (
        b.uut.rd_ready.val(),
        b.uut.wr_ready.val(),
        b.uut
            .rd_data_valid
            .val()
            .then(|| small(b.uut.rd_data.val())),
    );
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    b.tick().unwrap();
    r
}

fn at(block: usize, word: usize) -> WordAddr {
    WordAddr { block, word }
}

fn write(a: WordAddr, bits: u64) -> CvtInputs {
    CvtInputs {
        wr_valid: true,
        wr: a,
        wr_bits: bits,
        ..Default::default()
    }
}

fn read(a: WordAddr) -> CvtInputs {
    CvtInputs {
        rd_valid: true,
        rd: a,
        ..Default::default()
    }
}

/// Two control paths reach block 6: their bits OR (the second write is a
/// read-modify-write); a read returns both and empties the word.
#[test]
fn or_writes_and_read_and_reset() {
    let mut b = Small::default();
    cycle(
        &mut b,
        CvtInputs {
            reset: true,
            ..Default::default()
        },
    );
    assert_eq!(cycle(&mut b, write(at(6, 1), 0b0101)), (true, true, None));
    assert_eq!(
        cycle(&mut b, write(at(6, 1), 0b1000_0000)),
        (true, true, None)
    );
    // The read-modify-write completes on this edge: a read of that word waits.
    let (rd_ready, wr_ready, _) = cycle(&mut b, read(at(6, 1)));
    assert!(!rd_ready && !wr_ready);
    assert_eq!(small(b.uut.nonempty.val()), 1 << 6);
    assert!(cycle(&mut b, read(at(6, 1))).0);
    assert_eq!(cycle(&mut b, CvtInputs::default()).2, Some(0b1000_0101));
    assert_eq!(small(b.uut.nonempty.val()), 0, "the read emptied the word");
}

/// A write to the bank being read waits one cycle and is not dropped.
#[test]
fn bank_conflict_stalls_the_write() {
    let mut b = Small::default();
    cycle(
        &mut b,
        CvtInputs {
            reset: true,
            ..Default::default()
        },
    );
    cycle(&mut b, write(at(0, 0), 1));
    // Word (0,0) and word (2,0) share bank 0 (flat words 0 and 8).
    let both = CvtInputs {
        wr_valid: true,
        wr: at(2, 0),
        wr_bits: 2,
        ..read(at(0, 0))
    };
    assert_eq!(cycle(&mut b, both), (true, false, None));
    assert_eq!(cycle(&mut b, write(at(2, 0), 2)), (true, true, Some(1)));
    assert_eq!(small(b.uut.nonempty.val()), 1 << 2);
}

#[test]
fn other_sizes_lint_clean() {
    assert_lints_clean(
        "cvt_2x2",
        &verilog_of::<weft_hdl::vgiw::cvt::Cvt<2, 2, 2, 1, 1, 2, 1, 1>>(),
    );
    assert_lints_clean(
        "cvt_5x8",
        &verilog_of::<weft_hdl::vgiw::cvt::Cvt<5, 8, 8, 3, 3, 6, 3, 3>>(),
    );
}
