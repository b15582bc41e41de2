//! The RTL SIMT core (`hdl/simt/simt_core.rs`, preset `simt_core_4x4`) runs kernels:
//! the bench's hand-assembled kernel and C kernels of `kernels/` built by clang, each
//! through the rust-hdl simulation with the bench's random memory (85% ready, 70%
//! answering, latency 1..12) and with no-stall memory. The bench checks every cycle
//! that `error` stays low, and at `done` that every word of the image equals the
//! functional run's (`weft_sim::core::functional`, which tests/kernels.rs checks against
//! the native build); every integer kernel of `kernels/` also runs on the exported
//! Verilog under Verilator to the functional run's image. Float kernels are refused
//! before any work with the instruction and its address. Launches are small (tests,
//! not benchmarks).
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use weft_sim::core::functional::{self, Launch, Program};
use weft_sim::core::image::Image;
use weft_testbenches::memory::Timing;
use weft_testbenches::run::{self, on_big_stack};
use weft_testbenches::simt::random_kernel;
use weft_testbenches::simt::simt_core::{
    check, clone_program, preset_kernel, Counts, Issued, SimtCoreBench,
};
use weft_testbenches::simt::{run_kernel, RtlOptions, RtlSimulator};

type Core4x4 = SimtCoreBench<4, 4, 8, 4, 2, 2, 12, 7, 128, 16, 4, 1, 1, 2>;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The RV32IMF build of `kernel` (a path from the project root).
fn program(kernel: &str) -> Program {
    let root = root();
    let stem = Path::new(kernel)
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .to_string();
    // One folder per build: tests running at once build the same kernels.
    static BUILDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = BUILDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let work = std::env::temp_dir().join(format!("weft-simt-{stem}-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let elf = weft_flow::kernel::compile(
        &root.join(kernel),
        &root.join(weft_flow::kernel::INCLUDE),
        &work.join("kernel.elf"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let bytes = std::fs::read(elf).unwrap();
    let _ = std::fs::remove_dir_all(&work);
    Program::new(Image::from_elf(&bytes).expect("a valid ELF"))
}

/// Runs the bench until `done` (the golden check is the bench's); returns the counts.
fn run_to_done(mut bench: Core4x4, limit: u64, seed: u64) -> Counts {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    run::start(&mut bench).unwrap();
    for cycle in 0..limit {
        if let Err(e) = run::step(&mut bench, cycle, &mut rng) {
            panic!("seed {seed}: {e}");
        }
        if bench.finished.is_some() {
            return bench.counts.clone();
        }
    }
    panic!("seed {seed}: the core did not finish in {limit} cycles");
}

#[test]
fn preset_kernel_matches_the_functional_run() {
    on_big_stack(|| {
        let p = preset_kernel::program();
        for (timing, seed) in [(Timing::default(), 1), (Timing::no_stalls(), 2)] {
            let bench =
                Core4x4::for_program(&p, preset_kernel::launch(), timing, 1_000_000).unwrap();
            let c = run_to_done(bench, 50_000, seed);
            // 23 instructions; the two branch paths are 3 each: 20 per thread.
            assert_eq!(c.thread_instructions, 20 * 32, "{c:?}");
            eprintln!("preset kernel: {c:?}");
        }
    });
}

/// Integer kernels small enough for a test (each runs for well under a second of
/// simulation at these launches): ALU and M operations with byte and halfword
/// accesses, barriers, divergent loops, a call, a pointer chase; CTAs of 16 threads
/// fill the 4 x 4 core, so two CTAs run in two waves. [`ALL_KERNELS`] lists every
/// kernel the core takes (all of them run under Verilator, below).
const TEST_KERNELS: &[(&str, u32, u32)] = &[
    ("kernels/micro/intops.c", 32, 16),
    ("kernels/micro/cta_sum.c", 32, 16),
    ("kernels/micro/walkthrough.c", 32, 16),
    ("kernels/micro/rtl_diamond.c", 32, 16),
    ("kernels/micro/rtl_loop.c", 32, 16),
    ("kernels/micro/chase.c", 1, 1),
    ("kernels/lwm/bfs.c", 16, 16),
];

#[test]
fn integer_kernels_match_the_functional_run() {
    on_big_stack(|| {
        for (i, &(k, threads, cta)) in TEST_KERNELS.iter().enumerate() {
            let p = program(k);
            let launch = Launch::new(threads, cta).unwrap();
            // No-stall memory, and the bench's random memory for the first two.
            let timings = if i < 2 {
                vec![Timing::no_stalls(), Timing::default()]
            } else {
                vec![Timing::no_stalls()]
            };
            for (seed, timing) in timings.into_iter().enumerate() {
                let bench = Core4x4::for_program(&p, launch, timing, 10_000_000)
                    .unwrap_or_else(|e| panic!("{k}: {e}"));
                let c = run_to_done(bench, 200_000, seed as u64 + 1);
                assert!(c.thread_instructions > 0, "{k}: {c:?}");
                eprintln!("{k}: {c:?}");
            }
        }
    });
}

/// The model in the configuration that mirrors a core of `warps` x `lanes` with
/// `stack` entries and lines of `lanes` words (docs/core.md §8).
fn mirror(warps: usize, lanes: usize, stack: usize) -> weft_sim::core::machine::Machine {
    let mut m = weft_sim::core::machine::Machine::lwm();
    m.set_all(&[
        &format!("lanes={lanes}"),
        &format!("warps={warps}"),
        &format!("warp_size={lanes}"),
        &format!("fetch_group={warps}"),
        &format!("stack_entries={stack}"),
        "pipeline_depth=3",
        &format!("l1_line={}", 4 * lanes),
        "sfu_lanes=1",
    ])
    .unwrap();
    m
}

/// The model's thread and warp instructions for `program` on `machine`.
fn model_counts(
    program: Program,
    launch: Launch,
    machine: &weft_sim::core::machine::Machine,
) -> (u64, u64) {
    use weft_sim::core::simt::{run as model_run, Options};
    let options = Options {
        max_cycles: 10_000_000,
        max_instructions: 100_000_000,
        progress: &mut |_, _, _, _| {},
        trace: None,
        two_level_always: false,
    };
    let stats = model_run(program, launch, machine, options).unwrap().stats;
    (stats.thread_instructions, stats.warp_instructions)
}

/// Random kernels (`random_kernel`: ALU, multiply and divide with any divisor, CSR
/// reads, loads and stores of every width, private-stack round trips, divergent
/// branches nested two deep, divergent loops, barriers) run on the 4x4 and 2x2 cores to
/// the functional run's image, under no-stall and random memory, with the model's
/// thread and warp instructions in the mirroring configuration: the stacks split and
/// join every warp where the model's PDOM does.
#[test]
fn random_kernels_match_the_functional_run_and_the_models_counts() {
    on_big_stack(|| {
        let cores = [
            ("simt_core_4x4", 4, 4, 8, Launch::new(32, 16).unwrap()),
            ("simt_core_2x2", 2, 2, 4, Launch::new(8, 4).unwrap()),
        ];
        let (mut idle_lanes, mut words) = (0, 0);
        for seed in 0..12u64 {
            let p = random_kernel::program(seed, 40);
            words += p.image.text[0].1 - p.image.text[0].0;
            for &(preset, warps, lanes, stack, launch) in &cores {
                let functional = functional::run(clone_program(&p), launch, 10_000_000)
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}"))
                    .image;
                let mut progress = |_| {};
                let mut options = no_stall_run(&mut progress);
                if seed % 2 == 1 {
                    options.memory = Timing::default();
                    options.seed = seed;
                }
                let r = run_kernel(preset, clone_program(&p), launch, options)
                    .unwrap_or_else(|e| panic!("seed {seed}, {preset}: {e}"));
                assert!(
                    r.image.bytes == functional.bytes,
                    "seed {seed}, {preset}: the image differs from the functional run's"
                );
                let model = model_counts(clone_program(&p), launch, &mirror(warps, lanes, stack));
                let c = &r.counts;
                assert_eq!(
                    (c.thread_instructions, c.warp_instructions),
                    model,
                    "seed {seed}, {preset}"
                );
                idle_lanes += lanes as u64 * c.warp_instructions - c.thread_instructions;
            }
        }
        // The kernels diverge (lanes idle under the stacks) and are not trivial.
        assert!(idle_lanes > 0, "no random kernel diverged");
        assert!(words / 4 > 12 * 60, "{words} bytes of code");
    });
}

/// What the core refuses, before any work, with the reason (and the instruction and
/// its address for an instruction).
#[test]
fn refused_kernels_are_named() {
    on_big_stack(|| {
        for (k, threads, cta, want) in [
            (
                "kernels/micro/floatops.c",
                32,
                16,
                "RV32F: the RTL core has no floating point",
            ),
            ("kernels/micro/shared_edge.c", 32, 32, "WEFT_SHARED"),
            (
                "kernels/micro/control.c",
                32,
                16,
                "reconverges only at the return of the function",
            ),
            (
                "kernels/micro/intops.c",
                32,
                32,
                "a CTA of 32 threads needs 8 warps of 4; the core has 4",
            ),
        ] {
            let p = program(k);
            let e = check(&p, Launch::new(threads, cta).unwrap(), 4, 4, 12).expect_err(k);
            assert!(e.contains(want), "{k}: {e}");
            if want.starts_with("RV32F") {
                assert!(
                    e.starts_with("`flw` at 0x"),
                    "{k} names the instruction and its address: {e}"
                );
            }
        }
    });
}

/// Every integer kernel of `kernels/` the core takes, at a small launch (CTAs of at
/// most 16 threads). Refused: `control.c` and `slip.c` (a branch
/// reconverging at a callee's return), `tpacf_branch.c`, `cfd_rows.c` and every other
/// float kernel (RV32F), `shared_edge.c`, `shared_exchange.c`, `vgiw/nw.c` (CTA-shared
/// memory).
pub const ALL_KERNELS: &[(&str, u32, u32)] = &[
    ("kernels/micro/intops.c", 32, 16),
    ("kernels/micro/collatz.c", 16, 8),
    ("kernels/micro/branch_split.c", 32, 16),
    ("kernels/micro/branch_aligned.c", 32, 16),
    ("kernels/micro/cta_sum.c", 32, 16),
    ("kernels/micro/broadcast.c", 32, 16),
    ("kernels/micro/chase.c", 1, 1),
    ("kernels/micro/ilp.c", 16, 16),
    ("kernels/micro/walkthrough.c", 32, 16),
    ("kernels/micro/rtl_bounds.c", 32, 16),
    ("kernels/micro/rtl_diamond.c", 32, 16),
    ("kernels/micro/rtl_loop.c", 32, 16),
    ("kernels/lwm/histogram.c", 32, 16),
    ("kernels/lwm/sort.c", 16, 16),
    ("kernels/lwm/decrypt.c", 16, 16),
    ("kernels/lwm/blackjack.c", 16, 16),
    ("kernels/lwm/viterbi.c", 16, 16),
    ("kernels/lwm/needleman.c", 16, 16),
    ("kernels/lwm/reduction.c", 16, 16),
    ("kernels/lwm/bfs.c", 16, 16),
    ("kernels/capri/bfs.c", 16, 16),
    ("kernels/capri/mum.c", 16, 16),
    ("kernels/capri/mum_switch.c", 16, 16),
    ("kernels/capri/mumpp.c", 16, 16),
    ("kernels/dom/gf.c", 16, 16),
    ("kernels/dom/sa.c", 16, 16),
    ("kernels/vgiw/bfs.c", 16, 16),
    ("kernels/vgiw/bfs2.c", 16, 16),
];

/// Every kernel of [`ALL_KERNELS`] on the core's exported Verilog under Verilator (the
/// same cycles as the rust-hdl simulation: tests/simt_rtl.rs), each leaving every word
/// of its image as the functional run does; the cycles and the simulation speed printed
/// (`-- --nocapture`).
#[test]
fn every_integer_kernel_runs_on_the_core_under_verilator_to_the_functional_image() {
    on_big_stack(|| {
        for &(k, threads, cta) in ALL_KERNELS {
            let p = program(k);
            let launch = Launch::new(threads, cta).unwrap();
            let functional = functional::run(clone_program(&p), launch, 1_000_000_000)
                .unwrap_or_else(|e| panic!("{k}: {e}"))
                .image;
            let mut progress = |_| {};
            let options = RtlOptions {
                simulator: RtlSimulator::Verilator,
                max_cycles: 5_000_000,
                max_instructions: 1_000_000_000,
                memory: Timing::no_stalls(),
                seed: 1,
                vcd: None,
                progress: &mut progress,
            };
            let r = run_kernel("simt_core_4x4", p, launch, options)
                .unwrap_or_else(|e| panic!("{k}: {e}"));
            assert_eq!(r.image.base, functional.base, "{k}");
            let c = &r.counts;
            assert!(c.cycles > 0 && c.thread_instructions > 0, "{k}");
            assert_eq!(
                c.states.iter().sum::<u64>(),
                c.cycles,
                "{k}: {:?}",
                c.states
            );
            let differ = r
                .image
                .bytes
                .iter()
                .zip(&functional.bytes)
                .position(|(a, b)| a != b);
            assert_eq!(
                (differ, r.image.bytes.len()),
                (None, functional.bytes.len()),
                "{k}: the first byte that differs from the functional run (offset from {:#x})",
                r.image.base
            );
            eprintln!(
                "{k} ({threads} threads, CTAs of {cta}): {} cycles, {} thread / {} warp instructions, {} line requests, {:.0} cycles/s under Verilator",
                c.cycles, c.thread_instructions, c.warp_instructions, c.line_requests, r.cycles_per_second
            );
        }
    });
}

/// Options of a rust-hdl run with memory that never stalls.
fn no_stall_run(progress: &mut dyn FnMut(u64)) -> RtlOptions<'_> {
    RtlOptions {
        simulator: RtlSimulator::RustHdl,
        max_cycles: 1_000_000,
        max_instructions: 100_000_000,
        memory: Timing::no_stalls(),
        seed: 1,
        vcd: None,
        progress,
    }
}

/// Whether `order` is the issue order of the two-level scheduler's contract (SPEC §2.3)
/// with fetch groups of `group` of `warps` warps, given the warps offered at each grant:
/// the first group from the current one (round robin over groups) with a ready warp,
/// within it the first ready warp after the group's last; the granted warp's group
/// becomes the current one. `group = warps` is plain round robin. Err names the first
/// issue that differs.
fn follows_two_level_order(order: &[Issued], warps: usize, group: usize) -> Result<(), String> {
    let groups = warps / group;
    let mut cur = 0;
    let mut last: Vec<usize> = (0..groups).map(|g| g * group + group - 1).collect();
    for (i, issued) in order.iter().enumerate() {
        let ready = |w: usize| issued.ready >> w & 1 == 1;
        let g = (0..groups)
            .map(|k| (cur + k) % groups)
            .find(|&g| (g * group..(g + 1) * group).any(ready))
            .ok_or_else(|| format!("issue {i}: warp {} issued with no warp ready", issued.warp))?;
        let want = (1..=group)
            .map(|k| g * group + (last[g] - g * group + k) % group)
            .find(|&w| ready(w))
            .unwrap();
        if issued.warp != want {
            return Err(format!(
                "issue {i}: warp {} issued, the contract grants warp {want} (ready {:#b}, current group {cur})",
                issued.warp, issued.ready
            ));
        }
        cur = g;
        last[g] = want;
    }
    Ok(())
}

/// The core with the two-level scheduler (`simt_core_4x4_two_level`: 2 fetch groups of 2
/// warps) runs kernels to the functional run's image with the thread and warp
/// instructions of the model in the matching configuration (`fetch_group = 2`; PDOM per warp, so the counts do not
/// depend on the order the warps issue in), and issues in the two-level order: checked
/// against the contract from the warps offered at each grant, and shown to differ from
/// round robin's (the same kernel on the round-robin core follows round robin's order
/// and not the two-level one, and the two-level core's order is not round robin's).
#[test]
fn the_two_level_scheduler_core_issues_in_its_order_and_runs_kernels_with_the_models_counts() {
    on_big_stack(|| {
        for (k, threads, cta) in [("micro/cta_sum.c", 32, 16), ("micro/rtl_diamond.c", 32, 8)] {
            let k = format!("kernels/{k}");
            let launch = Launch::new(threads, cta).unwrap();
            let functional = functional::run(clone_program(&program(&k)), launch, 100_000_000)
                .unwrap()
                .image;
            let mut progress = |_| {};
            let r = run_kernel(
                "simt_core_4x4_two_level",
                program(&k),
                launch,
                no_stall_run(&mut progress),
            )
            .unwrap_or_else(|e| panic!("{k}: {e}"));
            assert_eq!(r.image.bytes, functional.bytes, "{k}");
            let order = &r.counts.issue_order;
            assert_eq!(order.len() as u64, r.counts.warp_instructions, "{k}");
            follows_two_level_order(order, 4, 2).unwrap_or_else(|e| panic!("{k}: {e}"));
            assert!(
                follows_two_level_order(order, 4, 4).is_err(),
                "{k}: round robin's order too"
            );
            let round_robin = run_kernel(
                "simt_core_4x4",
                program(&k),
                launch,
                no_stall_run(&mut progress),
            )
            .unwrap_or_else(|e| panic!("{k}: {e}"));
            let order = &round_robin.counts.issue_order;
            follows_two_level_order(order, 4, 4)
                .unwrap_or_else(|e| panic!("{k}, round robin: {e}"));
            assert!(
                follows_two_level_order(order, 4, 2).is_err(),
                "{k}: round robin in the two-level order"
            );
            let mut m = mirror(4, 4, 8);
            m.set_all(&["fetch_group=2"]).unwrap();
            assert_eq!(
                (r.counts.thread_instructions, r.counts.warp_instructions),
                model_counts(program(&k), launch, &m),
                "{k}"
            );
        }
    });
}
