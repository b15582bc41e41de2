//! VGIW control top (SPEC §5): BBS + CVT + CVUs against the composed model with a
//! stand-in fabric on random kernels (random CFGs with loops, random per-thread paths,
//! out-of-order completion), the paper's Figure 2 as a directed test, and the
//! reconfiguration latency.
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_sim::vgiw::bbs::Entry;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};
use weft_testbenches::vgiw::vgiw_control::{Kernel, VgiwControlBench};

/// 8 blocks x 256 threads, 8 banks, 32-bit configurations, 34-cycle reconfiguration.
type Small = VgiwControlBench<8, 4, 8, 3, 2, 5, 3, 2, 32, 34>;
/// The paper's sizes: 32 blocks x 1024 threads, 8 banks.
type Paper = VgiwControlBench<32, 16, 8, 5, 4, 9, 3, 6, 32, 34>;
/// Edge sizes: 2 blocks x 128 threads, 2 banks, 1-cycle reconfiguration.
type Tiny = VgiwControlBench<2, 2, 2, 1, 1, 2, 1, 1, 4, 1>;
/// Non-power-of-two block count.
type Odd = VgiwControlBench<5, 2, 4, 3, 1, 4, 2, 2, 8, 3>;

fn go<BN: weft_testbenches::bench::Bench + Default>(
    cycles: u64,
    seed: u64,
    tune: impl FnOnce(&mut BN),
    what: &str,
) -> BN {
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
    fn model_and_rtl_agree_on_random_kernels(seed in any::<u64>(), ready in 20u32..=100) {
        go::<Tiny>(4_000, seed, |b| b.ready_percent = ready, "2 blocks x 128");
        go::<Odd>(4_000, seed, |b| b.ready_percent = ready, "5 blocks x 128");
        go::<Small>(6_000, seed, |b| b.ready_percent = ready, "8 blocks x 256");
    }
}

#[test]
fn long_runs_complete_many_kernels() {
    let b = go::<Small>(100_000, 41, |_| {}, "8 blocks x 256");
    println!(
        "8x256: {} kernels, {} reconfigurations, {:.2} config cycles each",
        b.kernels_done,
        b.reconfigs,
        b.config_cycles as f64 / b.reconfigs as f64
    );
    assert!(b.kernels_done >= 5, "{} kernels", b.kernels_done);
    let p = go::<Paper>(60_000, 42, |_| {}, "32 blocks x 1024");
    println!(
        "32x1024: {} kernels, {} reconfigurations",
        p.kernels_done, p.reconfigs
    );
    assert!(p.kernels_done >= 1);
}

/// Figure 1a/2: BB1..BB6 are blocks 0..5; threads 1..8 are ids 0..7.
fn figure_2_outcome(_: u64, thread: usize, block: usize, _: u32) -> bool {
    match block {
        // BB1: threads 1,3,8 go to BB2 (outcome 0), 2,4-7 to BB3.
        0 => ![0, 2, 7].contains(&thread),
        // BB3: threads 2,7 go to BB4 (outcome 0), 4-6 to BB5.
        2 => ![1, 6].contains(&thread),
        _ => false,
    }
}

fn figure_2_kernel() -> Kernel {
    let e = |s0: usize, s1: usize| Entry {
        cfg: 0xb0 + s0 as u64,
        succ: [s0, s1],
        exit: [false, false],
    };
    let exit = Entry {
        cfg: 0xe,
        succ: [0, 0],
        exit: [true, true],
    };
    Kernel {
        table: vec![
            e(1, 2),
            e(5, 5),
            e(3, 4),
            e(5, 5),
            e(5, 5),
            exit,
            exit,
            exit,
        ],
        outcome: figure_2_outcome,
        seed: 0,
        tile: 8,
    }
}

#[test]
fn figure_2_control_flow_coalescing() {
    let b = go::<Small>(3_000, 5, |b| b.fixed = Some(figure_2_kernel()), "figure 2");
    assert_eq!(b.kernels_done, 1);
    assert_eq!(
        b.picks,
        vec![0, 1, 2, 3, 4, 5],
        "BB1, BB2, BB3, BB4, BB5, BB6"
    );
    let ids = |v: &[usize]| v.iter().fold(0u64, |a, &t| a | 1 << t);
    // Word 0 of each block's vector after each block completes (Figure 2b-f).
    let mut expected = vec![
        (0, vec![(1, ids(&[0, 2, 7])), (2, ids(&[1, 3, 4, 5, 6]))]),
        (1, vec![(2, ids(&[1, 3, 4, 5, 6])), (5, ids(&[0, 2, 7]))]),
        (
            2,
            vec![
                (3, ids(&[1, 6])),
                (4, ids(&[3, 4, 5])),
                (5, ids(&[0, 2, 7])),
            ],
        ),
        (3, vec![(4, ids(&[3, 4, 5])), (5, ids(&[0, 1, 2, 6, 7]))]),
        (4, vec![(5, 0xff)]),
        (5, vec![]),
    ];
    for (block, vectors) in &b.snapshots {
        let (want_block, want) = expected.remove(0);
        assert_eq!(*block, want_block);
        for (bb, words) in vectors.iter().enumerate() {
            let w = want.iter().find(|(x, _)| *x == bb).map_or(0, |&(_, m)| m);
            assert_eq!(words[0], w, "after BB{}: vector of BB{}", block + 1, bb + 1);
            assert!(words[1..].iter().all(|&x| x == 0));
        }
    }
    assert!(expected.is_empty(), "six blocks ran");
    assert!(b.all_paths_complete());
}

/// Reconfiguration takes exactly RECONF cycles (34 by default) per block.
#[test]
fn reconfiguration_takes_34_cycles() {
    let b = go::<Small>(3_000, 6, |b| b.fixed = Some(figure_2_kernel()), "figure 2");
    assert_eq!(b.reconfigs, 6);
    assert_eq!(b.config_cycles, 6 * 34);
}

#[test]
fn other_sizes_lint_clean() {
    assert_lints_clean(
        "vgiw_control_2x128",
        &verilog_of::<weft_hdl::vgiw::vgiw_control::VgiwControl<2, 2, 2, 1, 1, 2, 1, 1, 4, 1>>(),
    );
    assert_lints_clean(
        "vgiw_control_5x128",
        &verilog_of::<weft_hdl::vgiw::vgiw_control::VgiwControl<5, 2, 4, 3, 1, 4, 2, 2, 8, 3>>(),
    );
}
