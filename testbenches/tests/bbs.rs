//! Basic block scheduler (SPEC §5) alone, with models of the CVT, the CVUs and a
//! stand-in fabric on its ports: model-vs-RTL equivalence over sizes and random
//! stalls, the contracts of `BbsBench` (lowest block first, reconfiguration length,
//! prefetch, empty words skipped, block and kernel completion), the measured
//! reconfiguration latency, and the export gate on other parameter sets.
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_sim::vgiw::bbs::Entry;
use weft_testbenches::bench::Bench;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};
use weft_testbenches::vgiw::bbs::BbsBench;
use weft_testbenches::vgiw::vgiw_control::Kernel;

/// Edge sizes: 2 blocks x 128 threads, 1-cycle reconfiguration.
type Tiny = BbsBench<2, 2, 1, 1, 4, 1>;
/// Non-power-of-two block count, 3-cycle reconfiguration.
type Odd = BbsBench<5, 2, 3, 1, 8, 3>;
/// 8 blocks x 256 threads, the paper's 34 cycles.
type Small = BbsBench<8, 4, 3, 2, 32, 34>;
/// The paper's sizes: 32 blocks x 1024 threads, 64-bit batches, 34 cycles.
type Paper = BbsBench<32, 16, 5, 4, 32, 34>;

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
    fn model_and_rtl_agree_on_random_kernels(
        seed in any::<u64>(),
        ready in 20u32..=100,
        stall in 0u32..=60,
    ) {
        let tune = |r: &mut u32, s: &mut u32| {
            *r = ready;
            *s = stall;
        };
        go::<Tiny>(4_000, seed, |b| tune(&mut b.ready_percent, &mut b.stall_percent), "2 blocks x 128");
        go::<Odd>(4_000, seed, |b| tune(&mut b.ready_percent, &mut b.stall_percent), "5 blocks x 128");
        go::<Small>(6_000, seed, |b| tune(&mut b.ready_percent, &mut b.stall_percent), "8 blocks x 256");
        go::<Paper>(6_000, seed, |b| tune(&mut b.ready_percent, &mut b.stall_percent), "32 blocks x 1024");
    }
}

/// Long runs finish many kernels; every block after a kernel's first is prefetched,
/// the first one of each kernel is fetched.
#[test]
fn long_runs_exercise_every_contract() {
    let b = go::<Small>(100_000, 51, |_| {}, "8 blocks x 256");
    println!(
        "8x256: {} kernels, {} reconfigurations ({} prefetched, {} fetched), {} batches, {} threads",
        b.kernels_done, b.reconfigs, b.prefetch_hits, b.prefetch_misses, b.batches, b.injected
    );
    assert!(b.kernels_done >= 5, "{} kernels", b.kernels_done);
    assert!(b.prefetch_hits > 0);
    assert!(b.prefetch_misses >= b.kernels_done && b.prefetch_misses <= b.kernels_done + 1);
    let p = go::<Paper>(100_000, 52, |_| {}, "32 blocks x 1024");
    println!(
        "32x1024: {} kernels, {} reconfigurations ({} prefetched, {} fetched), {} batches, {} threads",
        p.kernels_done, p.reconfigs, p.prefetch_hits, p.prefetch_misses, p.batches, p.injected
    );
    assert!(p.kernels_done >= 2, "{} kernels", p.kernels_done);
    assert!(p.prefetch_hits > 0);
    assert!(p.prefetch_misses >= p.kernels_done && p.prefetch_misses <= p.kernels_done + 1);
    let t = go::<Tiny>(
        50_000,
        53,
        |b| b.stall_percent = 50,
        "2 blocks x 128, heavy stalls",
    );
    assert!(t.kernels_done >= 5, "{} kernels", t.kernels_done);
}

/// Reconfiguration measured against the paper's 34 cycles: every pick spends exactly
/// 34 cycles with `cfg_busy` high.
#[test]
fn reconfiguration_takes_34_cycles() {
    let b = go::<Paper>(30_000, 54, |_| {}, "32 blocks x 1024");
    assert!(b.reconfigs > 0);
    assert_eq!(b.config_cycles, 34 * b.reconfigs);
    println!(
        "{} reconfigurations, {} config cycles = {} each",
        b.reconfigs,
        b.config_cycles,
        b.config_cycles / b.reconfigs
    );
}

/// A straight-line kernel (0 -> 1 -> 2, every thread) with a full tile: blocks are
/// picked in ascending order, each once, and the kernel ends.
#[test]
fn straight_line_kernel_picks_blocks_in_order() {
    let table = (0..4)
        .map(|b| Entry {
            cfg: 0x100 + b as u64,
            succ: [(b + 1) % 4, (b + 1) % 4],
            exit: [b == 2, b == 2],
        })
        .collect();
    let k = Kernel {
        table,
        outcome: |_, _, _, _| false,
        seed: 0,
        tile: 256,
    };
    let b = go::<BbsBench<4, 4, 2, 2, 16, 5>>(
        20_000,
        55,
        |b| b.fixed = Some(k),
        "straight line, 4 blocks x 256",
    );
    assert_eq!(b.kernels_done, 1);
    assert_eq!(b.picks, vec![0, 1, 2]);
    assert_eq!(b.injected, 3 * 256);
    // 256 threads in 4 words: at least 4 batches per block.
    assert!(b.batches >= 12, "{} batches", b.batches);
}

#[test]
fn other_sizes_lint_clean() {
    assert_lints_clean(
        "bbs_2x2",
        &verilog_of::<weft_hdl::vgiw::bbs::Bbs<2, 2, 1, 1, 4, 1>>(),
    );
    assert_lints_clean(
        "bbs_5x2",
        &verilog_of::<weft_hdl::vgiw::bbs::Bbs<5, 2, 3, 1, 8, 3>>(),
    );
}
