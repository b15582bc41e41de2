//! The VGIW core end to end (VGIW §2, §3): whole multi-block kernels loaded through the
//! host ports (configuration programs, block table), run by the scheduler, the fabric
//! loader, the fabric and the live value cache under random memory latency (answers in
//! any order); every thread's block sequence and branch outcomes, every data write and
//! the final memory checked against the program run sequentially per thread.
use proptest::prelude::*;
use weft_sim::vgiw::program::Program;
use weft_testbenches::memory::Timing;
use weft_testbenches::run::on_big_stack;
use weft_testbenches::vgiw::vgiw_core::{CoreKernel, VgiwCoreBench, THREADS};

type Bench = VgiwCoreBench<4, 2, 8, 3, 4>;

fn kernel(program: Program, seed: u64) -> CoreKernel {
    CoreKernel::new(program, THREADS, 3 * 1024, seed).expect("the program fits the core")
}

/// Runs `kernel` to `kernel_done`; gives the bench and the cycles from start to done.
fn run(kernel: CoreKernel, seed: u64) -> (Bench, u64) {
    run_on::<4, 2, 8, 3, 4>(kernel, seed)
}

fn run_on<const VCS: usize, const VB: usize, const D: usize, const QW: usize, const CW: usize>(
    kernel: CoreKernel,
    seed: u64,
) -> (VgiwCoreBench<VCS, VB, D, QW, CW>, u64) {
    let mut bench = VgiwCoreBench::<VCS, VB, D, QW, CW>::new(kernel);
    let cycles = bench
        .run_kernel(200_000, seed)
        .unwrap_or_else(|e| panic!("{e}"));
    (bench, cycles)
}

fn report<const VCS: usize, const VB: usize, const D: usize, const QW: usize, const CW: usize>(
    name: &str,
    bench: &VgiwCoreBench<VCS, VB, D, QW, CW>,
    cycles: u64,
) {
    let visits: usize = bench.ran.iter().map(Vec::len).sum();
    println!(
        "{name}: {} threads, {visits} block runs in {cycles} cycles ({:.3} block runs/cycle), \
         {} reconfigurations, loader busy {} cycles",
        bench.kernel.threads,
        visits as f64 / cycles as f64,
        bench.reconfigs,
        bench.loading_cycles
    );
}

#[test]
fn diamond_on_one_and_two_replicas() {
    on_big_stack(|| {
        let diamond = |replicas| Program::diamond(0x0000, 0x1000, 0x2000, replicas);
        let (one, one_cycles) = run(kernel(diamond(1), 3), 1);
        report("diamond, one replica", &one, one_cycles);
        let (two, two_cycles) = run(kernel(diamond(2), 3), 1);
        report("diamond, two replicas", &two, two_cycles);
        // Both sides of the branch ran: the data decides.
        let sides: Vec<usize> = [1, 2]
            .iter()
            .map(|&b| one.ran.iter().filter(|r| r.contains(&b)).count())
            .collect();
        assert!(sides.iter().all(|&n| n > 0), "threads per side {sides:?}");
        assert_eq!(one.reconfigs, 4, "each block configured once");
        assert!(
            two_cycles < one_cycles,
            "two replicas should run the kernel faster: {two_cycles} vs {one_cycles} cycles"
        );
    });
}

/// The exported core has 4 channels per unit, so at most 4 threads of a replica are in
/// the fabric: with 32 channels and 64 outstanding threads the same kernel runs faster.
#[test]
fn diamond_with_32_channels() {
    on_big_stack(|| {
        let diamond = Program::diamond(0x0000, 0x1000, 0x2000, 2);
        let (narrow, narrow_cycles) = run(kernel(diamond.clone(), 3), 1);
        let (wide, wide_cycles) = run_on::<32, 5, 64, 6, 7>(kernel(diamond, 3), 1);
        report("diamond, two replicas, 4 channels", &narrow, narrow_cycles);
        report("diamond, two replicas, 32 channels", &wide, wide_cycles);
        assert!(
            wide_cycles < narrow_cycles,
            "more channels should run faster: {wide_cycles} vs {narrow_cycles} cycles"
        );
    });
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]
    /// Whatever the memory's readiness, answer rate and latency, and whatever the data,
    /// every thread runs its golden block sequence and the memories end golden
    /// (`run_kernel` checks both and fails otherwise).
    #[test]
    fn any_memory_timing_gives_the_golden_run(
        data_seed in any::<u64>(),
        run_seed in any::<u64>(),
        ready_percent in 20u32..=100,
        answer_percent in 20u32..=100,
        max_latency in 1u64..=30,
        replicas in 1usize..=2,
        looped in any::<bool>(),
    ) {
        let timing = Timing { ready_percent, answer_percent, latency: (1, max_latency) };
        let cycles = on_big_stack(move || {
            let program = if looped {
                Program::counted_loop(0x0000, 0x1000, 0x2000)
            } else {
                Program::diamond(0x0000, 0x1000, 0x2000, replicas)
            };
            let kernel = CoreKernel::new(program, 48, 3 * 1024, data_seed)
                .expect("the program fits the core");
            let mut bench = Bench::new(kernel);
            bench.memory_timing = timing;
            bench.run_kernel(200_000, run_seed).map_err(|e| e.to_string())
        });
        prop_assert!(cycles.is_ok(), "{timing:?}: {}", cycles.unwrap_err());
    }
}

#[test]
fn a_data_dependent_loop() {
    on_big_stack(|| {
        let (bench, cycles) = run(kernel(Program::counted_loop(0x0000, 0x1000, 0x2000), 7), 2);
        report("counted loop", &bench, cycles);
        let longest = bench.ran.iter().map(Vec::len).max().unwrap_or(0);
        assert_eq!(longest, 6, "a thread with count 3 runs the body four times");
    });
}

/// The bench must catch a core that runs the wrong program: a block table whose
/// branch successors are swapped sends threads to the wrong side of the diamond.
#[test]
fn a_wrong_successor_is_caught() {
    on_big_stack(|| {
        let mut k = kernel(Program::diamond(0x0000, 0x1000, 0x2000, 1), 3);
        k.table[0].succ.swap(0, 1);
        let err = Bench::new(k)
            .run_kernel(50_000, 1)
            .expect_err("a swapped successor must be caught");
        let text = err.to_string();
        assert!(text.contains("golden path"), "{text}");
    });
}

/// A fabric configured with a different opcode computes other values: caught by the
/// golden write check.
#[test]
fn a_wrong_opcode_is_caught() {
    on_big_stack(|| {
        let mut k = kernel(Program::diamond(0x0000, 0x1000, 0x2000, 1), 3);
        // Block 3's shift by one becomes an add of one (unit command: opcode bits 8:5).
        let start = k.image.starts[3];
        let shl = weft_sim::cgrf::compute_unit::Opcode::Shl as u64;
        let i = (start..k.image.words.len())
            .find(|&i| {
                k.image.words[i] >> 62 == 0
                    && (k.image.words[i] >> 5) & 15 == shl
                    && k.image.words[i] & 31 < 16
            })
            .expect("block 3 configures a shift");
        k.image.words[i] &= !(15 << 5);
        let err = Bench::new(k)
            .run_kernel(50_000, 1)
            .expect_err("a wrong opcode must be caught");
        let text = err.to_string();
        assert!(text.contains("golden"), "{text}");
    });
}

/// The preset's own bench (what `weft cosim vgiw_core` replays) finishes its kernel
/// within the cycles the test suite co-simulates.
#[test]
fn the_preset_kernel_finishes_within_the_cosim_cycles() {
    on_big_stack(|| {
        let limit = weft_testbenches::presets::suite_cosim_cycles("vgiw_core");
        let mut bench = Bench::new(CoreKernel::preset_kernel());
        let cycles = bench.run_kernel(limit, 1).unwrap_or_else(|e| panic!("{e}"));
        println!(
            "preset kernel: {} threads done {cycles} cycles after the start (cycle {})",
            bench.kernel.threads,
            bench.finished.unwrap_or(0)
        );
        assert!(bench.finished.is_some_and(|c| c < limit));
    });
}
