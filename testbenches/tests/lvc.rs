//! Live value cache (SPEC §5): random reads and writes against the live value array
//! model with a random-latency, out-of-order memory and periodic flushes, over sizes
//! and traffic mixes; the contracts of `LvcBench` (reads see the last write, no
//! response without request, no stale spill, no dirty data lost, bank conflicts stall
//! and never drop); and the export gate on other parameter sets.
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_testbenches::bench::Bench;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};
use weft_testbenches::vgiw::lvc::LvcBench;

/// Edge sizes: 2 banks x 16 sets x 4 words, 2-bit tags, 1-bit ids.
type Tiny = LvcBench<9, 2, 7, 2, 1, 2, 4, 4, 6, 1>;
/// 4 banks x 16 sets x 8-word lines, 3-bit ids.
type Wide = LvcBench<12, 3, 9, 4, 2, 3, 8, 4, 7, 3>;
/// The `lvc_4k` preset: 4 banks x 64 sets x 4 words.
type Small = LvcBench<15, 5, 10, 4, 2, 2, 4, 6, 8, 4>;
/// The paper's 64 KB: 8 banks x 512 sets x 4 words.
type Paper = LvcBench<16, 2, 14, 8, 3, 2, 4, 9, 11, 4>;

fn go<BN: Bench + Default>(cycles: u64, seed: u64, tune: impl FnOnce(&mut BN), what: &str) -> BN {
    let mut bench = BN::default();
    tune(&mut bench);
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("{what}, seed {seed}: {e}");
    }
    bench
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn model_and_rtl_agree(
        seed in any::<u64>(),
        req in 10u32..=100,
        write in 0u32..=100,
        mem_ready in 10u32..=100,
        resp_ready in 10u32..=100,
    ) {
        macro_rules! tuned {
            () => {
                |b| {
                    b.req_percent = req;
                    b.write_percent = write;
                    b.mem_ready_percent = mem_ready;
                    b.resp_ready_percent = resp_ready;
                    b.flush_every = 1_500;
                }
            };
        }
        go::<Tiny>(5_000, seed, tuned!(), "2 banks x 16 sets x 4 words");
        go::<Wide>(5_000, seed, tuned!(), "4 banks x 16 sets x 8 words");
        go::<Small>(5_000, seed, tuned!(), "4 KB");
        go::<Paper>(5_000, seed, tuned!(), "64 KB");
    }
}

/// Long runs spill, fill, flush, answer out of order and serve other banks while one
/// waits on memory, so every contract was exercised.
#[test]
fn long_runs_exercise_every_contract() {
    let b = go::<Small>(100_000, 61, |_| {}, "4 KB");
    println!(
        "4 KB: {} reads, {} writes, {} memory reads, {} spills, {} flushes, {} taken under a miss, longest read {} cycles",
        b.reads, b.writes, b.mem_read_count, b.mem_write_count, b.flushes, b.hit_under_miss, b.max_read_latency
    );
    assert!(b.responses + 16 >= b.reads, "reads answered");
    assert!(b.mem_read_count > 100 && b.mem_write_count > 100);
    assert!(b.flushes >= 5, "{} flushes", b.flushes);
    assert!(b.hit_under_miss > 100);
    let p = go::<Paper>(100_000, 62, |_| {}, "64 KB");
    println!(
        "64 KB: {} reads, {} writes, {} memory reads, {} spills, {} flushes",
        p.reads, p.writes, p.mem_read_count, p.mem_write_count, p.flushes
    );
    assert!(p.mem_write_count > 100 && p.flushes >= 5);
    let t = go::<Tiny>(
        50_000,
        63,
        |b| b.flush_every = 500,
        "tiny, frequent flushes",
    );
    assert!(t.flushes >= 20, "{} flushes", t.flushes);
}

#[test]
fn other_sizes_lint_clean() {
    assert_lints_clean(
        "lvc_tiny",
        &verilog_of::<weft_hdl::vgiw::lvc::Lvc<9, 2, 7, 2, 1, 2, 4, 4, 6, 1>>(),
    );
    assert_lints_clean(
        "lvc_wide",
        &verilog_of::<weft_hdl::vgiw::lvc::Lvc<12, 3, 9, 4, 2, 3, 8, 4, 7, 3>>(),
    );
}
