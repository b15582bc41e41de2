//! Kernels on the core model against their native oracle: each barrier-free kernel of
//! `kernels/` is built twice, for RV32IMF (run by the model) and for the host (run
//! natively, threads one after another, by the host variant of `weft.h`), and every
//! byte of every global it defines must agree. Barrier kernels are checked against
//! their known answers; bad input gets a message and a non-zero exit, never a panic.
mod common;
use common::{all_kernels, kernel_source, scratch, text, weft};
use std::path::Path;
use std::process::Command;
use weft_flow::native::Part;
use weft_sim::core::functional::{self, Launch, Program};
use weft_sim::core::image::Image;
use weft_sim::core::machine::{Divergence, Machine};
use weft_sim::core::simt::divergence::{lwm::LwmStats, tbc::TbcStats, DivergenceStats};
use weft_sim::core::simt::{self, Options, Stats};
use weft_sim::core::trace::{Sample, Trace, WarpState};
use weft_sim::lib::column_compactor::min_groups;
use weft_sim::lwm::sub_warp_unit::Mode;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// Thread instructions a run may take before the test stops it (a guard against a kernel
/// that never ends, `weft run`'s default): the scaled capri inputs take up to 1.13 G (pflt).
const LIMIT: u64 = 2_000_000_000;

/// The RV32IMF build of `kernels/<name>.c`.
fn device_image(name: &str) -> Image {
    // Tests run from the package root, where `load` finds `weft.h`.
    let elf = weft_flow::kernel::load(&Path::new(ROOT).join(format!("kernels/{name}.c"))).unwrap();
    Image::from_elf(&elf).unwrap()
}

/// Every data symbol of the native build with its bytes after the native run (the host
/// build and its flags are `weft_flow::native`'s, shared with tests/native_references.rs).
fn native_symbols(name: &str) -> Vec<(String, Vec<u8>)> {
    let dir = scratch(&format!("host-{}", name.replace('/', "-")));
    let source = Path::new(ROOT).join(format!("kernels/{name}.c"));
    let include = Path::new(ROOT).join(weft_flow::kernel::INCLUDE);
    let globals = weft_flow::native::globals(&source, &include, Part::Launch, &dir)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    // The kernel's own globals: the names the device build defines too.
    let device = device_image(name);
    globals
        .into_iter()
        .filter(|(symbol, bytes)| {
            !symbol.starts_with("weft_")
                && device
                    .symbols
                    .get(symbol)
                    .is_some_and(|d| d.size as usize == bytes.len())
        })
        .collect()
}

/// Machines that change when threads run, never what they compute: scheduling, warp
/// width and count, large warps, cores, caches, MSHRs, DRAM order, the SFU and diverge on
/// miss. Each holds a CTA of 1024 threads.
const VARIANTS: &[&[&str]] = &[
    &[],
    &["fetch_group=8"],
    &[
        "lanes=16",
        "warp_size=16",
        "warps=64",
        "fetch_group=8",
        "sfu_lanes=1",
        "pipeline_depth=1",
    ],
    &["cores=2", "l2_kb=64"],
    &["l1_mshrs=1", "l1_mshr_merge=1", "dram_scheduler=fr-fcfs"],
    &[
        "l1_kb=1",
        "l1_ways=1",
        "dram_gbps=4",
        "sfu_latency=0",
        "sfu_interval=3",
        "sfu_multiply=true",
    ],
    &["scoreboard=true", "fetch_group=4"],
    LWM256_2LEV2,
    &[
        "divergence=lwm",
        "warp_size=512",
        "warps=2",
        "fetch_group=2",
        "stack_entries=256",
        "lwm_memory_opt=false",
        "lwm_jump_opt=false",
    ],
    &[
        "divergence=lwm",
        "lanes=16",
        "sfu_lanes=4",
        "warp_size=64",
        "warps=16",
        "fetch_group=4",
        "scoreboard=true",
    ],
    DOM_FIXED,
    DOM_ADAPTIVE,
];

/// Diverge on miss on a small L1 (threads of a warp hit and miss apart): a fixed slip,
/// and the adaptive diff over short periods with one MDT entry.
const DOM_FIXED: &[&str] = &[
    "divergence=dom",
    "l1_kb=1",
    "l1_ways=2",
    "l1_line=32",
    "dom_adaptive=false",
    "dom_max_slip=4",
];
const DOM_ADAPTIVE: &[&str] = &[
    "divergence=dom",
    "l1_kb=2",
    "l1_line=32",
    "dom_mdt_entries=1",
    "dom_period=300",
];

/// The LWM paper's best machine: 4 large warps of 256 threads, fetch groups of 2, on a
/// stack of 9 entries: the stack is bounded by the kernels' nesting, not by how many
/// iterations threads leave a loop at (measured: lwm/blackjack needs 9, micro/control 7,
/// collatz 3; before the bound, control needed 105).
const LWM256_2LEV2: &[&str] = &[
    "divergence=lwm",
    "warp_size=256",
    "warps=4",
    "fetch_group=2",
    "stack_entries=9",
];

/// A machine too small to hold every CTA at once: CTAs wait for free warps.
const QUEUEING: &[&str] = &["warps=8", "fetch_group=2"];

fn machine(sets: &[&str]) -> Machine {
    let mut m = Machine::lwm();
    m.set_all(sets).unwrap();
    m
}

/// `name` timed on the `lwm` machine with `sets`, at its WEFT_LAUNCH.
fn timed(name: &str, sets: &[&str]) -> (Image, Stats) {
    timed_with(name, sets, None, false)
}

/// [`timed`] with a trace, or with the two-level scheduler for one fetch group.
fn timed_with(
    name: &str,
    sets: &[&str],
    trace: Option<&mut (dyn Trace + 'static)>,
    two_level_always: bool,
) -> (Image, Stats) {
    timed_launch(name, sets, trace, two_level_always, None)
}

/// [`timed_with`] in CTAs of `cta` threads instead of the kernel's own.
fn timed_launch(
    name: &str,
    sets: &[&str],
    trace: Option<&mut (dyn Trace + 'static)>,
    two_level_always: bool,
    cta: Option<u32>,
) -> (Image, Stats) {
    run_on(machine(sets), name, sets, trace, two_level_always, cta)
}

/// `name` timed on the `dom` preset with `sets`.
fn timed_dom(name: &str, sets: &[&str]) -> (Image, Stats) {
    let mut m = Machine::dom();
    m.set_all(sets).unwrap();
    run_on(m, name, sets, None, false, None)
}

/// `name` timed on machine `m` (`sets` names it in messages).
fn run_on(
    m: Machine,
    name: &str,
    sets: &[&str],
    trace: Option<&mut (dyn Trace + 'static)>,
    two_level_always: bool,
    cta: Option<u32>,
) -> (Image, Stats) {
    let image = device_image(name);
    let (threads, own) = image.launch.expect("WEFT_LAUNCH");
    let cta = cta.unwrap_or(own);
    let mut quiet = |_, _, _, _| {};
    let options = Options {
        max_cycles: 1 << 40,
        max_instructions: LIMIT,
        progress: &mut quiet,
        trace: trace.map(|t| t as &mut dyn Trace),
        two_level_always,
    };
    let run = simt::run(
        Program::new(image),
        Launch::new(threads, cta).unwrap(),
        &m,
        options,
    )
    .unwrap_or_else(|e| panic!("{name} with {sets:?}: {e}"));
    check_counts(name, sets, &m, &run.stats);
    (run.image, run.stats)
}

/// Threads of large-warp jumps beyond the lanes their one sub-warp carried.
fn jump_opt_threads(s: &Stats) -> u64 {
    match &s.divergence {
        DivergenceStats::Lwm(lwm) => lwm.jump_opt_threads,
        DivergenceStats::Pdom | DivergenceStats::Tbc(_) | DivergenceStats::Dom(_) => 0,
    }
}

/// What holds for every timed run, each check between two counts kept apart: IPC within
/// the lanes; the cycles in which threads started (timing.rs, as they start) fit the
/// core cycles; the histogram weighted by lanes gives the thread instructions (core.rs,
/// at issue); the stall reasons (core.rs `stall`, timing.rs) give the idle cycles (what
/// the histogram leaves). Bucket 0 is that remainder by definition, so it is never
/// compared with the idle cycles nor summed with the others.
fn check_counts(name: &str, sets: &[&str], m: &Machine, s: &Stats) {
    let at = format!("{name} with {sets:?}");
    // The lanes never carry more threads than they have; IPC counts the program's
    // instructions, so a large warp's jump issued as one sub-warp may lift it above.
    let on_lanes = (s.thread_instructions - jump_opt_threads(s)) as f64 / s.cycles as f64;
    assert!(
        on_lanes <= f64::from(m.keys().lanes * m.keys().cores) + 1e-9,
        "{at}: IPC {} ({on_lanes} on the lanes)",
        s.ipc
    );
    let h = &s.active_lanes_histogram;
    assert_eq!(h.len(), m.keys().lanes as usize + 1, "{at}");
    // Bucket 0 is the remainder of the core cycles: the cycles in which threads started
    // must fit in them (one issue slot per core).
    let busy: u64 = h[1..].iter().sum();
    assert!(
        busy <= s.cycles * u64::from(m.keys().cores),
        "{at}: {busy} busy cycles"
    );
    let weighted: u64 = h.iter().enumerate().map(|(k, n)| k as u64 * n).sum();
    assert_eq!(
        weighted + jump_opt_threads(s),
        s.thread_instructions,
        "{at}: every thread starts once (a large warp's jump as one sub-warp)"
    );
    if !matches!(m.divergence(), Divergence::Lwm(l) if l.jump_opt) {
        assert_eq!(jump_opt_threads(s), 0, "{at}");
    }
    assert!(s.simd_utilisation <= 1.0 + 1e-9, "{at}");
    let st = &s.stalls;
    let reasons = st.memory_serialization
        + st.sfu
        + st.memory
        + st.barrier
        + st.compaction
        + st.pipeline
        + st.empty
        + st.drain;
    // The stall reasons are counted as the cycles pass; the idle cycles are what the
    // histogram leaves: two counts of one thing.
    assert_eq!(reasons, s.idle_cycles, "{at}: {st:?}");
    assert!(
        s.dram_bandwidth_used <= 1.0 + 1e-9,
        "{at}: {}",
        s.dram_bandwidth_used
    );
    if let DivergenceStats::Dom(d) = &s.divergence {
        // Every thread that left its warp at a divergent load (counted at the load)
        // came back exactly once (counted where it came back: its load, its loop's exit
        // or a forced point).
        assert_eq!(
            d.rejoined_threads + d.exit_threads + d.forced_threads,
            d.divergent_threads - d.divergent_hits,
            "{at}: {d:?}"
        );
        assert!(matches!(m.divergence(), Divergence::Dom(_)), "{at}");
    }
}

fn assert_same_symbols(name: &str, what: &str, ours: &Image, theirs: &[(String, Vec<u8>)]) {
    for (symbol, bytes) in theirs {
        let ours = ours.symbol_bytes(symbol).unwrap();
        if ours != bytes.as_slice() {
            let first = ours.iter().zip(bytes).position(|(a, b)| a != b).unwrap();
            panic!(
                "{name} ({what}): `{symbol}` differs from the native run first at byte {first} (model {:02x?}, native {:02x?})",
                &ours[first..(first + 8).min(ours.len())],
                &bytes[first..(first + 8).min(bytes.len())]
            );
        }
    }
}

/// The functional run of `name` at its WEFT_LAUNCH.
fn functional_run(name: &str) -> functional::FunctionalRun {
    let image = device_image(name);
    let (threads, cta) = image.launch.expect("WEFT_LAUNCH");
    let run = functional::run(
        Program::new(image),
        Launch::new(threads, cta).unwrap(),
        LIMIT,
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(run.thread_instructions >= u64::from(threads));
    run
}

/// The timed runs on every variant machine leave exactly the functional run's image,
/// having executed as many thread instructions.
fn assert_timed_matches_functional(
    name: &str,
    run: &functional::FunctionalRun,
    variants: &[&[&str]],
) {
    for sets in variants {
        assert_run_matches_functional(name, run, &format!("{sets:?}"), timed(name, sets));
    }
}

/// A timed run (`what` names its machine) leaves the functional run's image and
/// executes its thread instructions, loads and stores.
fn assert_run_matches_functional(
    name: &str,
    run: &functional::FunctionalRun,
    what: &str,
    (image, stats): (Image, Stats),
) {
    if let Some(at) = (0..image.bytes.len()).find(|&i| image.bytes[i] != run.image.bytes[i]) {
        panic!(
            "{name} with {what}: the timed image differs from the functional one at {:#x}",
            image.base as usize + at
        );
    }
    assert_eq!(
        stats.thread_instructions, run.thread_instructions,
        "{name} with {what}: the timed run executes what the functional run does"
    );
    assert_eq!(
        stats.memory_thread_instructions, run.memory_thread_instructions,
        "{name} with {what}: the timed run's loads and stores are the functional run's"
    );
}

/// The functional run leaves exactly the native run's bytes in every global, and so do
/// the timed runs on every variant machine.
fn assert_matches_native(name: &str) {
    let run = functional_run(name);
    let native = native_symbols(name);
    assert!(!native.is_empty(), "{name}: no globals compared");
    assert_same_symbols(name, "functional", &run.image, &native);
    let queueing: &[&[&str]] = &[QUEUEING];
    assert_timed_matches_functional(name, &run, VARIANTS);
    assert_timed_matches_functional(name, &run, queueing);
}

#[test]
fn saxpy_matches_the_native_run() {
    assert_matches_native("micro/saxpy");
}

#[test]
fn integer_and_m_operations_match_the_native_run() {
    assert_matches_native("micro/intops");
}

#[test]
fn float_operations_match_the_native_run() {
    assert_matches_native("micro/floatops");
}

#[test]
fn branches_calls_and_copies_match_the_native_run() {
    assert_matches_native("micro/control");
}

/// The micro-kernels written for the RTL VGIW core (testbenches/tests/vgiw_c_kernels.rs
/// runs them there against the functional run checked here).
#[test]
fn rtl_micro_kernels_match_the_native_run() {
    for name in [
        "micro/rtl_saxpy",
        "micro/rtl_diamond",
        "micro/rtl_loop",
        "micro/rtl_bounds",
    ] {
        assert_matches_native(name);
    }
}

#[test]
fn timing_micro_kernels_match_the_native_run() {
    for name in [
        "micro/branch_aligned",
        "micro/branch_split",
        "micro/stream",
        "micro/ilp",
    ] {
        assert_matches_native(name);
    }
    // The chain's addresses depend on where the build puts `mem`: no native oracle.
    assert_timed_matches_functional("micro/chase", &functional_run("micro/chase"), VARIANTS);
}

/// A CTA tree reduction through `weft_barrier`: CTA c of 64 threads sums the values
/// i + 1 of its threads i = 64c..64c+63, that is 4096c + 2080.
#[test]
fn barriers_order_a_cta_reduction() {
    let image = device_image("micro/cta_sum");
    let (_, cta) = image.launch.expect("WEFT_LAUNCH");
    let run = functional::run(Program::new(image), Launch::new(256, 64).unwrap(), LIMIT).unwrap();
    let sums: Vec<u32> = run
        .image
        .symbol_bytes("sums")
        .unwrap()
        .chunks(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    assert_eq!(sums, (0..4).map(|c| 4096 * c + 2080).collect::<Vec<u32>>());
    for sets in VARIANTS {
        let (image, stats) = timed("micro/cta_sum", sets);
        assert_eq!(
            image.symbol_bytes("sums").unwrap(),
            run.image.symbol_bytes("sums").unwrap(),
            "{sets:?}"
        );
        // CTAs packed into one large warp share its PC: none waits for another.
        let packed = machine(sets).keys().warp_size >= cta;
        assert!(
            stats.stalls.barrier > 0 || sets.contains(&"pipeline_depth=1") || packed,
            "{sets:?}: {:?}",
            stats.stalls
        );
    }
}

/// What a control-flow graph must hold: `weft_kernel` first, every call followed, every
/// reached instruction classified, every branch with a reconvergence point inside its
/// own function.
fn check_cfg(program: &Program, cfg: &weft_sim::core::cfg::Cfg) -> Result<(), String> {
    use weft_sim::core::cfg::{Flow, Reconvergence};
    if cfg.functions.first() != Some(&program.image.kernel) {
        return Err(format!(
            "the first function is not weft_kernel: {:x?}",
            cfg.functions
        ));
    }
    for (f, reached) in &cfg.instructions {
        for pc in reached {
            let flow = cfg
                .flows
                .get(pc)
                .ok_or(format!("{pc:#x} is reached with no flow"))?;
            match flow {
                Flow::Call { target } if !cfg.functions.contains(target) => {
                    return Err(format!("the call at {pc:#x} is not followed"));
                }
                Flow::Branch { .. } => match cfg.reconvergence.get(pc) {
                    None => return Err(format!("branch {pc:#x} has no reconvergence point")),
                    Some(Reconvergence::At(r)) if !reached.contains(r) => {
                        return Err(format!(
                            "branch {pc:#x} reconverges at {r:#x}, outside its function {f:#x}"
                        ));
                    }
                    _ => {}
                },
                _ => {}
            }
        }
    }
    Ok(())
}

/// Every kernel's control-flow graph builds and holds what [`check_cfg`] asks.
/// `micro/shared_edge` is included: the model refuses its run (a word across the shared
/// section's edge), not its code.
#[test]
fn every_kernel_has_a_control_flow_graph() {
    let names = all_kernels();
    for folder in ["micro/", "lwm/", "capri/"] {
        assert!(
            names.iter().any(|n| n.starts_with(folder)),
            "no kernel under kernels/{folder}: {names:?}"
        );
    }
    for name in ["micro/control", "micro/shared_edge", "capri/mum_switch"] {
        assert!(names.iter().any(|n| n == name), "{name} missing: {names:?}");
    }
    let results = weft_flow::jobs::parallel(&names, 2, |name| {
        let program = Program::new(device_image(name));
        let cfg = program.cfg()?;
        check_cfg(&program, &cfg)?;
        if name == "micro/control" && (cfg.functions.len() < 2 || cfg.reconvergence.is_empty()) {
            return Err(format!(
                "collatz_steps is a called function and the kernel branches: {:x?}",
                cfg.functions
            ));
        }
        Ok(())
    });
    let failures: Vec<String> = names
        .iter()
        .zip(results)
        .filter_map(|(name, r)| r.err().map(|e| format!("{name}: {e}")))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// [`check_cfg`] can fail: on micro/control's graph, a branch without its reconvergence
/// point, a branch reconverging in another function and an unfollowed call are refused.
#[test]
fn the_control_flow_graph_check_refuses_broken_graphs() {
    use weft_sim::core::cfg::{Flow, Reconvergence};
    let program = Program::new(device_image("micro/control"));
    let cfg = program.cfg().unwrap();
    check_cfg(&program, &cfg).unwrap();
    let (&branch, _) = cfg
        .flows
        .iter()
        .find(|(pc, f)| {
            matches!(f, Flow::Branch { .. }) && cfg.instructions[&program.image.kernel].contains(pc)
        })
        .expect("the kernel branches");
    let mut no_point = cfg.clone();
    no_point.reconvergence.remove(&branch);
    let e = check_cfg(&program, &no_point).unwrap_err();
    assert!(e.contains("no reconvergence point"), "{e}");
    let callee = cfg.functions[1];
    let mut elsewhere = cfg.clone();
    elsewhere
        .reconvergence
        .insert(branch, Reconvergence::At(callee));
    let e = check_cfg(&program, &elsewhere).unwrap_err();
    assert!(e.contains("outside its function"), "{e}");
    let mut unfollowed = cfg.clone();
    unfollowed.functions.retain(|&f| f != callee);
    unfollowed.instructions.remove(&callee);
    let e = check_cfg(&program, &unfollowed).unwrap_err();
    assert!(e.contains("is not followed"), "{e}");
}

/// `weft run --listing` prints every instruction of the code at its address, under the
/// symbols that start there, and each branch the kernel reaches with its reconvergence
/// point, as the control-flow graph has it.
#[test]
fn listing_shows_each_instruction_and_each_branch_reconvergence() {
    let name = "micro/control";
    let out = weft(&["run", &format!("kernels/{name}.c"), "--listing"]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    let program = Program::new(device_image(name));
    let cfg = program.cfg().unwrap();
    let line_at = |pc: u32| {
        t.lines()
            .find(|l| l.trim_start().starts_with(&format!("{pc:08x} ")))
            .unwrap_or_else(|| panic!("no line for {pc:#x}: {t}"))
    };
    let kernel_label = t.lines().position(|l| l == "weft_kernel:").expect(&t);
    assert!(t
        .lines()
        .nth(kernel_label + 1)
        .unwrap()
        .contains(&format!("{:08x}", program.image.kernel)));
    let words: u32 = program
        .image
        .text
        .iter()
        .map(|(lo, hi)| (hi - lo) / 4)
        .sum();
    let listed = t.lines().filter(|l| l.starts_with("  ")).count() as u32;
    assert_eq!(listed, words, "one line per word of code");
    assert!(!cfg.reconvergence.is_empty());
    for (pc, point) in &cfg.reconvergence {
        let line = line_at(*pc);
        let inst = program.fetch(*pc).unwrap();
        assert!(line.contains(&inst.mnemonic()), "{line}");
        let want = match point {
            weft_sim::core::cfg::Reconvergence::At(r) => format!("# reconverges at {r:#x}"),
            weft_sim::core::cfg::Reconvergence::AtReturn => {
                "# reconverges at the function's return".into()
            }
        };
        assert!(line.ends_with(&want), "{line} should end with {want}");
    }
    // A plain instruction carries no note.
    let first = line_at(program.image.kernel);
    assert!(!first.contains('#'), "{first}");
}

/// A `--dump` symbol the kernel lacks is refused before the run: a run limited to one
/// cycle would otherwise stop at its limit first.
#[test]
fn a_missing_dump_symbol_is_refused_before_the_run() {
    let out = weft(&[
        "run",
        "kernels/micro/saxpy.c",
        "--dump",
        "nope",
        "--max-cycles",
        "1",
    ]);
    let t = text(&out);
    assert!(!out.status.success(), "{t}");
    assert!(t.contains("no symbol `nope`"), "{t}");
    assert!(!t.contains("--max-cycles"), "{t}");
}

/// `weft run --dump` prints the symbol's bytes in address order, lower-case hex, and
/// `--json` the same under `dumps`.
#[test]
fn run_dumps_symbols_as_text_and_json() {
    let out = weft(&["run", "kernels/micro/cta_sum.c", "--dump", "sums"]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    let expected: String = (0..4u32)
        .flat_map(|c| (4096 * c + 2080).to_le_bytes())
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(t.lines().any(|l| l == format!("sums {expected}")), "{t}");
    let out = weft(&["run", "kernels/micro/cta_sum.c", "--dump", "sums", "--json"]);
    assert!(out.status.success(), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["dumps"]["sums"], expected.as_str());
    // Every one of the 256 threads runs at least its own return.
    assert!(v["thread_instructions"].as_u64().unwrap() >= 256, "{v}");
}

#[test]
fn bad_input_gets_a_message_not_a_panic() {
    let dir = scratch("bad");
    let junk = dir.join("junk.elf");
    std::fs::write(&junk, b"\x7fELF but not really").unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["run".into(), junk.display().to_string()], "ELF"),
        (
            vec!["run".into(), "kernels/micro/no_such.c".into()],
            "not found",
        ),
        (
            vec![
                "run".into(),
                "kernels/micro/saxpy.c".into(),
                "--dump".into(),
                "nope".into(),
            ],
            "no symbol `nope`",
        ),
        (
            vec![
                "run".into(),
                "kernels/micro/saxpy.c".into(),
                "--threads".into(),
                "100".into(),
                "--cta".into(),
                "64".into(),
            ],
            "whole CTAs",
        ),
        (
            vec![
                "run".into(),
                "kernels/micro/control.c".into(),
                "--max-instructions".into(),
                "1000".into(),
            ],
            "stopped after 1000 thread instructions",
        ),
    ];
    // A kernel built with the D extension runs until its first double instruction,
    // which is refused with its address.
    let double = dir.join("double.c");
    std::fs::write(
        &double,
        "#include \"weft.h\"\nWEFT_LAUNCH(32, 32);\nvolatile double d[32];\nvoid weft_kernel(void) { d[weft_tid()] = d[weft_tid()] * 3.0 + 1.0; }\n",
    )
    .unwrap();
    let elf = dir.join("double.elf");
    let build = Command::new("clang")
        .args([
            "--target=riscv32-unknown-elf",
            "-march=rv32imfd",
            "-mabi=ilp32f",
            "-O2",
        ])
        .args([
            "-ffreestanding",
            "-nostdlib",
            "-fuse-ld=lld",
            "-Wl,-e,weft_kernel",
        ])
        .arg(format!("-I{ROOT}/kernels/include"))
        .arg(&double)
        .arg("-o")
        .arg(&elf)
        .output()
        .unwrap();
    assert!(build.status.success(), "{}", text(&build));
    let out = weft(&["run", elf.to_str().unwrap()]);
    let t = text(&out);
    assert!(!out.status.success() && !t.contains("panicked"), "{t}");
    assert!(t.contains("outside RV32IMF") && t.contains("at 0x"), "{t}");
    for (args, want) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = weft(&args);
        let t = text(&out);
        assert!(!out.status.success(), "{args:?}: {t}");
        assert!(t.contains(want), "{args:?} should say `{want}`: {t}");
        assert!(!t.contains("panicked"), "{t}");
    }
}

/// Branches whose outcome is the same across each warp cost nothing: every warp
/// instruction is full and, with no memory in the loop, the core issues nearly every
/// cycle. The same work split inside every warp costs PDOM exactly the extra warp
/// instructions: both paths issue, each with half the lanes.
#[test]
fn warp_aligned_branches_keep_ipc_near_the_lanes_and_split_ones_cost_pdom_their_share() {
    let (_, aligned) = timed("micro/branch_aligned", &[]);
    assert_eq!(aligned.thread_instructions, aligned.warp_instructions * 32);
    assert!(aligned.ipc >= 0.95 * 32.0, "{}", aligned.ipc);
    let (_, split) = timed("micro/branch_split", &[]);
    assert_eq!(
        split.thread_instructions, aligned.thread_instructions,
        "the same work: half the threads on each path in both kernels"
    );
    assert!(split.simd_utilisation < 0.75, "{}", split.simd_utilisation);
    // Issue-bound in both: time grows with the warp instructions, nothing else.
    let slower = split.cycles as f64 / aligned.cycles as f64;
    let more = split.warp_instructions as f64 / aligned.warp_instructions as f64;
    assert!(more > 1.3, "both paths issue: {more}");
    assert!(
        (slower / more - 1.0).abs() < 0.02,
        "cycles x{slower}, warp instructions x{more}"
    );
}

/// One thread chases pointers through 2 MB: every step misses and waits for DRAM. Run
/// with three settings of the row-hit and row-conflict latencies, the cycles move by
/// exactly the configured latency per step of each kind: the steps are serialised and
/// nothing else depends on these latencies.
#[test]
fn a_pointer_chase_pays_the_configured_dram_latency_per_step() {
    let run = |hit: u32, conflict: u32| {
        timed(
            "micro/chase",
            &[
                &format!("dram_row_hit={hit}"),
                &format!("dram_row_conflict={conflict}"),
            ],
        )
        .1
    };
    let base = run(100, 300);
    // 16 steps 32 KB apart open a new row each; the 64 steps 128 bytes apart stay in
    // their row but for the first line of each of their three rows.
    assert_eq!(base.l1.hits, 0, "nothing of the chain is cached");
    assert!(base.dram.row_conflicts >= 16 + 3, "{:?}", base.dram);
    assert!(base.dram.row_hits >= 64 - 3, "{:?}", base.dram);
    let conflicts = run(100, 600);
    assert_eq!(
        conflicts.cycles - base.cycles,
        300 * base.dram.row_conflicts,
        "each row conflict costs its configured latency"
    );
    let both = run(400, 700);
    assert_eq!(
        both.cycles - conflicts.cycles,
        300 * base.dram.row_hits + 100 * base.dram.row_conflicts,
        "each row hit costs its configured latency"
    );
    assert_eq!(
        (both.dram.row_hits, both.dram.row_conflicts),
        (base.dram.row_hits, base.dram.row_conflicts),
        "the same requests in every run"
    );
}

/// 1024 threads stream 256 KB: with little bandwidth the kernel runs at the limit, never
/// above it (the DRAM bus carries one line at a time at the configured bytes per cycle).
#[test]
fn a_streaming_kernel_reaches_but_never_exceeds_the_bandwidth_limit() {
    for gbps in [4, 8] {
        let (_, s) = timed("micro/stream", &[&format!("dram_gbps={gbps}")]);
        assert!(
            (0.9..=1.0).contains(&s.dram_bandwidth_used),
            "{gbps} GB/s: {} of the limit",
            s.dram_bandwidth_used
        );
        assert!(s.dram.reads >= 2048, "every line of the input is read once");
    }
    // At the paper's 128 GB/s one core's 32 MSHRs cannot fill the bus.
    let (_, s) = timed("micro/stream", &[]);
    assert!(s.dram_bandwidth_used < 0.5, "{}", s.dram_bandwidth_used);
}

/// `weft run` on the core model: the statistics CORE.md lists, machine keys listed and
/// settable, and bad machine input refused with a message.
#[test]
fn run_reports_the_core_statistics_and_takes_machine_keys() {
    let out = weft(&[
        "run",
        "kernels/micro/saxpy.c",
        "--json",
        "--set",
        "fetch_group=8",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in [
        "cycles",
        "thread_instructions",
        "warp_instructions",
        "ipc",
        "simd_utilisation",
        "active_lanes_histogram",
        "idle_cycles",
        "stalls",
        "l1",
        "dram",
    ] {
        assert!(!v[key].is_null(), "{key} missing: {v}");
    }
    assert_eq!(v["machine"]["fetch_group"], 8);
    let ipc = v["ipc"].as_f64().unwrap();
    let cycles = v["cycles"].as_f64().unwrap();
    let threads = v["thread_instructions"].as_f64().unwrap();
    assert!((ipc - threads / cycles).abs() < 1e-9);
    let t = text(&weft(&["run", "kernels/micro/saxpy.c"]));
    for line in [
        "cycles",
        "IPC",
        "SIMD utilisation",
        "idle cycles",
        "L1",
        "DRAM",
    ] {
        assert!(t.contains(line), "{line}: {t}");
    }
    let keys = weft(&["run", "--list-keys"]);
    let listed = text(&keys);
    assert!(keys.status.success(), "{listed}");
    for (key, _) in weft_sim::core::machine::KEYS {
        assert!(
            listed.lines().any(|l| l.starts_with(key)),
            "{key}: {listed}"
        );
    }
    let dir = scratch("machine");
    let file = dir.join("small.toml");
    std::fs::write(&file, "warps = 8\nfetch_group = 2\n").unwrap();
    let out = weft(&[
        "run",
        "kernels/micro/saxpy.c",
        "--json",
        "--machine",
        file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (
            v["machine"]["warps"].as_u64(),
            v["machine"]["fetch_group"].as_u64()
        ),
        (Some(8), Some(2))
    );
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "wraps = 8\n").unwrap();
    for (args, want) in [
        (vec!["--set", "frobs=1"], "unknown machine key `frobs`"),
        (vec!["--set", "warps=0"], "warps = 0"),
        (vec!["--machine", "kepler"], "no machine preset `kepler`"),
        (vec!["--machine", bad.to_str().unwrap()], "wraps"),
        (vec!["--max-cycles", "100"], "stopped at cycle 100"),
        (
            vec!["--set", "divergence=lwm", "--set", "warp_size=4096"],
            "at most 64 rows",
        ),
        (vec!["--set", "warp_size=64"], "divergence = pdom"),
    ] {
        let mut all = vec!["run", "kernels/micro/saxpy.c"];
        all.extend(&args);
        let out = weft(&all);
        let t = text(&out);
        assert!(!out.status.success(), "{args:?}: {t}");
        assert!(t.contains(want), "{args:?} should say `{want}`: {t}");
        assert!(!t.contains("panicked"), "{t}");
    }
}

/// The DoM paper's workloads (`kernels/dom/`, with their first inputs and other layouts)
/// leave the native run's bytes on the `dom` machine, blocking and diverging on miss (one
/// warp, the preset's adaptive diff, unlimited MDT and reconvergence at the loop; four
/// warps, a fixed slip of 4, two MDT entries, back at a return), having executed the
/// functional run's thread instructions.
#[test]
fn dom_workloads_match_the_native_run_blocking_and_diverging_on_miss() {
    let names = workloads("dom");
    assert_eq!(names.len(), 10, "{names:?}");
    weft_flow::jobs::parallel(&names, 2, |name| {
        let run = functional_run(name);
        let native = native_symbols(name);
        assert!(!native.is_empty(), "{name}: no globals compared");
        assert_same_symbols(name, "functional", &run.image, &native);
        for sets in [
            &["divergence=pdom"][..],
            &["divergence=dom"],
            &[
                "divergence=dom",
                "warps=4",
                "fetch_group=4",
                "dom_adaptive=false",
                "dom_max_slip=4",
                "dom_mdt_entries=2",
                "dom_reconverge=return",
            ],
        ] {
            assert_run_matches_functional(name, &run, &format!("{sets:?}"), timed_dom(name, sets));
        }
    });
}

/// The LWM paper's workloads (`kernels/lwm/`): a kernel's `expected_<output>` symbols
/// (serial references computed in `weft_setup`, or known answers) equal its outputs; a
/// barrier-free kernel also leaves the native run's bytes (a kernel with barriers has no
/// native oracle, so it must carry references); the timed runs leave the functional
/// run's image.
fn check_workload(name: &str, variants: &[&[&str]]) {
    let run = check_oracle(name);
    assert_timed_matches_functional(name, &run, variants);
}

/// `name`'s functional run against its oracle (its `expected_` references, and the
/// native run's globals when it has no barrier); returns the functional run.
fn check_oracle(name: &str) -> functional::FunctionalRun {
    let run = functional_run(name);
    let expected: Vec<String> = run
        .image
        .symbols
        .keys()
        .filter(|s| s.starts_with("expected_"))
        .cloned()
        .collect();
    for reference in &expected {
        let output = &reference["expected_".len()..];
        assert_eq!(
            run.image.symbol_bytes(output).unwrap(),
            run.image.symbol_bytes(reference).unwrap(),
            "{name}: `{output}` differs from its reference"
        );
    }
    if kernel_source(name).contains("weft_barrier(") {
        assert!(
            !expected.is_empty(),
            "{name} uses barriers: it needs expected_ references"
        );
    } else {
        let native = native_symbols(name);
        assert!(!native.is_empty(), "{name}: no globals compared");
        assert_same_symbols(name, "functional", &run.image, &native);
    }
    run
}

/// The kernels of one study's folder (`kernels/<dir>/*.c`), as `dir/name`, sorted.
fn workloads(dir: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(Path::new(ROOT).join("kernels").join(dir))
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            let stem = p.file_stem()?.to_str()?.to_string();
            (p.extension()? == "c").then(|| format!("{dir}/{stem}"))
        })
        .collect();
    names.sort();
    names
}

#[test]
fn lwm_workloads_match_their_oracle_on_the_baseline_and_with_large_warps() {
    let names = workloads("lwm");
    assert!(!names.is_empty());
    weft_flow::jobs::parallel(&names, 2, |name| {
        check_workload(name, &[&[], LWM256_2LEV2, DOM_FIXED])
    });
}

#[test]
fn full_lwm_workloads_match_their_oracle_on_every_variant_machine() {
    weft_flow::jobs::parallel(&workloads("lwm"), 2, |name| check_workload(name, VARIANTS));
}

/// `weft run --vcd` writes the core's state per cycle: the cycles with an issuing warp
/// are the warp instructions, their active lanes sum to the thread instructions, and
/// every warp's state is one of the codes of `WarpState::NAMES`.
#[test]
fn run_writes_the_core_state_as_a_vcd() {
    let dir = scratch("vcd");
    let path = dir.join("cta_sum.vcd");
    let out = weft(&[
        "run",
        "kernels/micro/cta_sum.c",
        "--json",
        "--vcd",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut parser = vcd::Parser::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
    let header = parser.parse_header().unwrap();
    let id = |path: &[&str]| {
        header
            .find_var(path)
            .unwrap_or_else(|| panic!("{path:?}"))
            .code
    };
    let valid = id(&["gpu", "core0", "issue_valid"]);
    let lanes = id(&["gpu", "core0", "active_lanes"]);
    let pc = id(&["gpu", "core0", "issue_pc"]);
    let mask = id(&["gpu", "core0", "issue_lanes"]);
    let image = device_image("micro/cta_sum");
    let (mut pc_now, mut mask_now, mut issues_checked) = (0u64, 0u64, 0u64);
    // What issued in the cycles up to a change: a PC of the kernel's code, and as many
    // lanes in the mask as threads executed (a warp is one row on this machine).
    let mut check_issue = |valid: u64, lanes: u64, pc: u64, mask: u64| {
        if valid == 1 {
            assert!(
                image.is_text(pc as u32),
                "issue_pc {pc:#x} outside the code"
            );
            assert_eq!(u64::from(mask.count_ones()), lanes, "mask {mask:#x}");
            issues_checked += 1;
        }
    };
    let states: Vec<vcd::IdCode> = (0..32)
        .map(|w| id(&["gpu", "core0", &format!("warp{w:02}_state")]))
        .collect();
    let number = |bits: &[vcd::Value]| {
        bits.iter()
            .fold(0u64, |n, b| n << 1 | u64::from(*b == vcd::Value::V1))
    };
    let (mut t, mut valid_now, mut lanes_now) = (0u64, 0u64, 0u64);
    let (mut issue_cycles, mut thread_instructions) = (0u64, 0u64);
    let cycles = v["cycles"].as_u64().unwrap();
    for command in parser {
        let (at, change) = match command.unwrap() {
            vcd::Command::Timestamp(at) => (Some(at), None),
            vcd::Command::ChangeScalar(i, b) => (None, Some((i, u64::from(b == vcd::Value::V1)))),
            vcd::Command::ChangeVector(i, bits) => (None, Some((i, number(&bits)))),
            _ => (None, None),
        };
        if let Some(at) = at {
            assert!(
                at >= t && at <= cycles,
                "time {at} after {t}, run of {cycles}"
            );
            issue_cycles += valid_now * (at - t);
            thread_instructions += valid_now * lanes_now * (at - t);
            check_issue(valid_now, lanes_now, pc_now, mask_now);
            t = at;
        }
        if let Some((i, n)) = change {
            if i == valid {
                valid_now = n;
            } else if i == lanes {
                lanes_now = n;
            } else if i == pc {
                pc_now = n;
            } else if i == mask {
                mask_now = n;
            } else if states.contains(&i) {
                assert!(
                    (n as usize) < weft_sim::core::trace::WarpState::NAMES.len(),
                    "warp state code {n}"
                );
            }
        }
    }
    issue_cycles += valid_now * (cycles - t);
    thread_instructions += valid_now * lanes_now * (cycles - t);
    check_issue(valid_now, lanes_now, pc_now, mask_now);
    assert!(issues_checked > 0, "no issue seen");
    assert_eq!(issue_cycles, v["warp_instructions"].as_u64().unwrap());
    assert_eq!(
        thread_instructions,
        v["thread_instructions"].as_u64().unwrap()
    );
    // The GTKWave save file beside it: per core the issue, warps and memory groups, every
    // signal of the VCD, warp states through the filter written beside it.
    let save = std::fs::read_to_string(dir.join("cta_sum.vcd.gtkw")).unwrap();
    for group in ["dram", "core0 issue", "core0 warps", "core0 memory"] {
        assert!(
            save.lines().any(|l| l == format!("-{group}")),
            "{group}: {save}"
        );
    }
    let listed: Vec<&str> = save
        .lines()
        .filter(|l| !l.starts_with(['@', '-', '^', '[']))
        .map(|l| l.split('[').next().unwrap())
        .collect();
    assert_eq!(listed.len(), 1 + 5 + 32 + 1, "{save}");
    let header = vcd::Parser::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()))
        .parse_header()
        .unwrap();
    for signal in &listed {
        let scopes: Vec<&str> = signal.split('.').collect();
        assert!(
            header.find_var(&scopes).is_some(),
            "{signal} not in the VCD"
        );
    }
    let filter = std::fs::read_to_string(dir.join("cta_sum.vcd.warp_states.txt")).unwrap();
    assert!(filter.lines().any(|l| l == "1 ready"), "{filter}");
    assert!(save.contains(&format!(
        "^1 {}",
        dir.join("cta_sum.vcd.warp_states.txt").display()
    )));
}

/// Debian's GTKWave opens a core waveform with its save file: a Tcl script lists the
/// traces as GTKWave loaded them (name, flags, value at a cycle where warps are running)
/// and exits. The groups are GTKWave groups, PCs show in hex, warp states by name.
#[test]
fn full_gtkwave_opens_the_core_waveform_with_its_save_file() {
    use weft_flow::tools::{GTKWAVE, XVFB_RUN};
    for tool in [GTKWAVE, XVFB_RUN] {
        tool.find().unwrap_or_else(|e| panic!("{e}"));
    }
    let dir = scratch("gtkwave");
    let vcd = dir.join("core.vcd");
    let out = weft(&[
        "run",
        "kernels/micro/branch_split.c",
        "--vcd",
        vcd.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let script = dir.join("list.tcl");
    std::fs::write(
        &script,
        "gtkwave::setMarker 100\n\
         set n [gtkwave::getTotalNumTraces]\n\
         for {set i 0} {$i < $n} {incr i} {\n\
           puts \"trace|[gtkwave::getTraceNameFromIndex $i]|[gtkwave::getTraceFlagsFromIndex $i]|[gtkwave::getTraceValueAtMarkerFromIndex $i]\"\n\
         }\n\
         gtkwave::/File/Quit\n",
    )
    .unwrap();
    let out = Command::new("xvfb-run")
        .args(["-a", "gtkwave", "-S"])
        .arg(&script)
        .arg(dir.join("core.vcd.gtkw"))
        .current_dir(&dir)
        .output()
        .unwrap();
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    // (name, flags, value) per trace, in the order GTKWave shows them.
    let traces: Vec<(&str, u32, &str)> = t
        .lines()
        .filter_map(|l| l.strip_prefix("trace|"))
        .map(|l| {
            let f: Vec<&str> = l.splitn(3, '|').collect();
            (f[0], f[1].parse().unwrap(), f[2])
        })
        .collect();
    const HEX: u32 = 0x02;
    const GROUP_BEGIN: u32 = 0x80_0000;
    const GROUP_END: u32 = 0x100_0000;
    const FILE_FILTER: u32 = 0x2000;
    let groups: Vec<&str> = traces
        .iter()
        .filter(|(_, flags, _)| flags & GROUP_BEGIN != 0)
        .map(|(name, _, _)| *name)
        .collect();
    assert_eq!(
        groups,
        ["dram", "core0 issue", "core0 warps", "core0 memory"],
        "{t}"
    );
    assert_eq!(
        traces.iter().filter(|(_, f, _)| f & GROUP_END != 0).count(),
        groups.len(),
        "{t}"
    );
    let flags_of = |name: &str| {
        traces
            .iter()
            .find(|(n, _, _)| *n == name)
            .unwrap_or_else(|| panic!("{name} not loaded: {t}"))
    };
    for signal in [
        "dram_queue[15:0]",
        "issue_valid",
        "issue_warp[5:0]",
        "active_lanes[6:0]",
        "mshrs[7:0]",
    ] {
        flags_of(signal);
    }
    let (_, pc_flags, pc) = flags_of("issue_pc[31:0]");
    assert!(pc_flags & HEX != 0, "issue_pc in hex: {t}");
    assert!(
        u32::from_str_radix(pc, 16).is_ok_and(|pc| pc % 4 == 0 && pc > 0),
        "issue_pc reads as a hex address: {pc}"
    );
    assert!(flags_of("issue_lanes[31:0]").1 & HEX != 0, "{t}");
    let states: Vec<&(&str, u32, &str)> = traces
        .iter()
        .filter(|(n, _, _)| n.ends_with("_state[2:0]"))
        .collect();
    assert_eq!(states.len(), 32, "{t}");
    for (name, flags, value) in states {
        assert!(flags & FILE_FILTER != 0, "{name} through the filter: {t}");
        assert!(
            weft_sim::core::trace::WarpState::NAMES.contains(value),
            "{name} shows `{value}`, not a state's name"
        );
    }
}

/// One warp with four independent multiply-add chains: barrel processing issues one
/// instruction per pipeline pass; the scoreboard overlaps the chains, yet never issues
/// an instruction before its operands are written (each chain's multiply then add takes
/// two pipeline passes per iteration).
#[test]
fn a_scoreboard_overlaps_independent_instructions_and_respects_dependences() {
    let (_, barrel) = timed("micro/ilp", &[]);
    let (_, scoreboard) = timed("micro/ilp", &["scoreboard=true"]);
    assert_eq!(barrel.thread_instructions, scoreboard.thread_instructions);
    let depth = u64::from(Machine::lwm().keys().pipeline_depth);
    assert!(
        barrel.cycles >= barrel.warp_instructions * depth,
        "barrel: one instruction per pass"
    );
    assert!(
        scoreboard.cycles * 10 <= barrel.cycles * 7,
        "scoreboard {} cycles, barrel {}",
        scoreboard.cycles,
        barrel.cycles
    );
    assert!(
        scoreboard.cycles >= 256 * 2 * depth,
        "256 iterations of a multiply-add chain: {}",
        scoreboard.cycles
    );
}

/// Records every fetch's mask, sub-warping mode and sub-warp count.
#[derive(Default)]
struct Fetches(Vec<(Vec<u64>, Mode, u32)>);

impl Trace for Fetches {
    fn core(&mut self, _: u64, _: usize, _: &Sample) -> std::io::Result<()> {
        Ok(())
    }
    fn dram(&mut self, _: u64, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn fetch(
        &mut self,
        _: usize,
        _: usize,
        mask: &[u64],
        mode: Mode,
        n: u32,
    ) -> std::io::Result<()> {
        self.0.push((mask.to_vec(), mode, n));
        Ok(())
    }
}

/// Per visited cycle: the issuing warp, and every warp's state after the issue.
#[derive(Default)]
struct Occupancy(Vec<(Option<usize>, Vec<WarpState>)>);

impl Trace for Occupancy {
    fn core(&mut self, _: u64, _: usize, sample: &Sample) -> std::io::Result<()> {
        self.0
            .push((sample.issued.map(|i| i.warp), sample.warps.to_vec()));
        Ok(())
    }
    fn dram(&mut self, _: u64, _: usize) -> std::io::Result<()> {
        Ok(())
    }
}

/// `max_ctas` bounds the CTAs resident on a core (cta_sum: 4 CTAs of 2 warps, which all
/// fit without the limit), and `sticky_cta` keeps the issuing CTA's priority: a warp of
/// another CTA is granted only when no warp of the last issuing CTA is ready (plain round
/// robin breaks that rule on the same kernel). The results stay the same.
#[test]
fn ctas_resident_are_bounded_and_a_sticky_cta_keeps_priority() {
    let occupied = |o: &Occupancy| {
        o.0.iter()
            .map(|(_, w)| w.iter().filter(|&&s| s != WarpState::Free).count())
            .max()
            .unwrap()
    };
    let reference = functional_run("micro/cta_sum");
    let mut free = Occupancy::default();
    timed_with("micro/cta_sum", &[], Some(&mut free), false);
    assert!(
        occupied(&free) > 2,
        "without a limit several CTAs are resident"
    );
    let mut one = Occupancy::default();
    let (image, _) = timed_with("micro/cta_sum", &["max_ctas=1"], Some(&mut one), false);
    assert_eq!(occupied(&one), 2, "one CTA of two warps at a time");
    let sums = |i: &Image| i.symbol_bytes("sums").unwrap().to_vec();
    assert_eq!(sums(&image), sums(&reference.image), "max_ctas=1");
    // Priority: the CTA (fetch group of 2 warps) of the last issue keeps it.
    let broken = |o: &Occupancy| {
        let mut last: Option<usize> = None;
        let mut broken = 0;
        for (issued, states) in &o.0 {
            let Some(w) = *issued else { continue };
            if let Some(g) = last {
                let waiting = (2 * g..2 * g + 2).any(|v| states[v] == WarpState::Ready);
                broken += usize::from(w / 2 != g && waiting);
            }
            last = Some(w / 2);
        }
        broken
    };
    // One-cycle issue, so that a CTA's warps are ready again at once.
    let mut plain = Occupancy::default();
    timed_with(
        "micro/cta_sum",
        &["pipeline_depth=1"],
        Some(&mut plain),
        false,
    );
    assert!(
        broken(&plain) > 0,
        "round robin moves between CTAs with warps ready"
    );
    let mut sticky = Occupancy::default();
    let sets = ["pipeline_depth=1", "sticky_cta=true"];
    let (image, _) = timed_with("micro/cta_sum", &sets, Some(&mut sticky), false);
    assert_eq!(broken(&sticky), 0);
    assert_eq!(sums(&image), sums(&reference.image), "sticky_cta");
}

/// A large warp issues as many sub-warps as its mask's largest column popcount (the
/// column compactor's minimum, checked on every recorded mask), one per non-empty row
/// for global memory (`lwm_memory_opt`) and one for `jal x0` (`lwm_jump_opt`); the
/// packing is not vacuous: some masks pack into fewer sub-warps than they have rows.
#[test]
fn a_large_warp_issues_max_column_popcount_sub_warps() {
    let lwm: &[&str] = &[
        "divergence=lwm",
        "warp_size=256",
        "warps=4",
        "fetch_group=4",
    ];
    let plain: Vec<&str> = lwm
        .iter()
        .copied()
        .chain(["lwm_memory_opt=false", "lwm_jump_opt=false"])
        .collect();
    for name in ["lwm/blackjack", "lwm/sort", "lwm/bfs"] {
        for (sets, optimised) in [(lwm, true), (plain.as_slice(), false)] {
            let mut fetches = Fetches::default();
            let (_, stats) = timed_with(name, sets, Some(&mut fetches), false);
            let at = format!("{name} with {sets:?}");
            let mut packed = 0;
            let mut seen = [0u64; 3];
            for (mask, mode, n) in &fetches.0 {
                let rows = mask.iter().filter(|&&r| r != 0).count() as u32;
                let want = match mode {
                    Mode::Normal => min_groups(mask, 32) as u32,
                    Mode::Memory => rows,
                    Mode::Jump => 1,
                };
                assert_eq!(*n, want, "{at}: {mode:?} mask {mask:x?}");
                packed += u32::from(*mode == Mode::Normal && want < rows);
                seen[*mode as usize] += 1;
            }
            assert_eq!(
                fetches.0.iter().map(|f| u64::from(f.2)).sum::<u64>(),
                stats.warp_instructions,
                "{at}"
            );
            assert!(packed > 0, "{at}: no divergent mask was packed");
            if optimised {
                assert!(
                    seen[Mode::Memory as usize] > 0 && seen[Mode::Jump as usize] > 0,
                    "{at}: {seen:?}"
                );
                assert!(jump_opt_threads(&stats) > 0, "{at}");
            } else {
                assert_eq!(
                    seen[0],
                    fetches.0.len() as u64,
                    "{at}: only normal sub-warping"
                );
            }
        }
    }
}

/// With one fetch group the two-level scheduler is round robin, cycle for cycle, for
/// normal and large warps; a large warp of one row is a PDOM warp; fetch groups of 8
/// do change the timing (so the comparison can fail).
#[test]
fn one_fetch_group_is_round_robin_and_one_row_is_pdom_cycle_for_cycle() {
    let lwm256: &[&str] = &[
        "divergence=lwm",
        "warp_size=256",
        "warps=4",
        "fetch_group=4",
    ];
    for name in ["lwm/histogram", "lwm/sort", "lwm/needleman"] {
        for sets in [&[][..], lwm256] {
            let (_, rr) = timed_with(name, sets, None, false);
            let (_, two_level) = timed_with(name, sets, None, true);
            assert_eq!(rr, two_level, "{name} with {sets:?}");
        }
        let (_, base) = timed(name, &[]);
        let (_, one_row) = timed(name, &["divergence=lwm"]);
        // Every core statistic equal; the LWM section counts no jump beyond its lanes.
        assert_eq!(
            one_row.divergence,
            DivergenceStats::Lwm(LwmStats::default())
        );
        let one_row = Stats {
            divergence: DivergenceStats::Pdom,
            ..one_row
        };
        assert_eq!(base, one_row, "{name}: a large warp of one row");
        let (_, grouped) = timed(name, &["fetch_group=8"]);
        assert_ne!(base.cycles, grouped.cycles, "{name}: 2Lev8 changes nothing");
    }
}

/// `weft eval` reaches the studies of weft-eval (whose tests regenerate each committed
/// page): a workload that is not there is named, not skipped, and an unknown study is
/// refused with the list of studies.
#[test]
fn eval_names_a_missing_workload_and_the_studies() {
    let dir = scratch("eval");
    let out = weft(&[
        "eval",
        "lwm",
        "--only",
        "nosuch",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("no nosuch.c"), "{}", text(&out));
    let out = weft(&["eval", "nosuch"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("[possible values: lwm, capri, dom, vgiw]"),
        "{}",
        text(&out)
    );
}

/// A loop with data-dependent trip counts (each thread's Collatz steps, 0 to a few
/// hundred): it matches the native run on every variant machine, and with SPEC §2.4's
/// refinements its warps' stacks stay within 8 entries, at warps of 32 and at large
/// warps of 256 (without them: 63 and 277 entries, one or two per exit iteration).
#[test]
fn collatz_matches_the_native_run_in_a_stack_of_eight_entries() {
    assert_matches_native("micro/collatz");
    let run = functional_run("micro/collatz");
    assert_timed_matches_functional(
        "micro/collatz",
        &run,
        &[
            &["stack_entries=8"],
            &["divergence=lwm", "warp_size=256", "stack_entries=8"],
        ],
    );
}

/// CTA-shared memory (`WEFT_SHARED`): 64 CTAs of 64 threads exchange words, halfwords
/// and bytes through shared arrays, 16 CTAs resident on the core at once on the
/// baseline (so CTAs sharing one copy would clobber each other's entries); the result
/// equals the serial reference computed in `weft_setup`, functionally and on every
/// variant machine. Shared accesses cost no L1 or DRAM traffic: the kernel's only global
/// access is its `out` store, so the L1 sees no load and DRAM no read.
#[test]
fn shared_memory_gives_each_cta_its_own_copy() {
    let name = "micro/shared_exchange";
    check_workload(name, VARIANTS);
    let m = Machine::lwm();
    let (_, cta) = device_image(name).launch.unwrap();
    assert!(
        m.keys().warps * m.keys().warp_size / cta >= 2,
        "several CTAs per core"
    );
    let (_, stats) = timed(name, &[]);
    // Per warp of 32: 3 stores and 4 loads (`stamp` included) in the first round, a
    // store and a load in the second; thread 0's warp of each CTA also loads and stores
    // `stamp`: 128 warps x 9 + 64 CTAs x 2.
    assert_eq!(stats.shared_accesses, 128 * 9 + 64 * 2);
    assert_eq!((stats.l1.loads, stats.dram.reads), (0, 0), "{stats:?}");
    assert!(stats.l1.stores > 0);
    // The shared latency costs time, never results.
    let (image, slow) = timed(name, &["shared_latency=20"]);
    assert!(
        slow.cycles > stats.cycles,
        "{} {}",
        slow.cycles,
        stats.cycles
    );
    assert_eq!(
        image.symbol_bytes("out").unwrap(),
        image.symbol_bytes("expected_out").unwrap()
    );
}

/// A shared variable cannot be dumped (each CTA's copy is gone when it ends), and an
/// access straddling the shared section's edge is refused, in the timed and the
/// functional run: a message and a non-zero exit, no panic.
#[test]
fn shared_dumps_and_straddling_accesses_are_refused() {
    for (args, want) in [
        (
            vec!["run", "kernels/micro/shared_exchange.c", "--dump", "words"],
            "`words` is in CTA-shared memory",
        ),
        (
            vec!["run", "kernels/micro/shared_edge.c"],
            "straddles the edge of CTA-shared memory",
        ),
        (
            vec!["run", "kernels/micro/shared_edge.c", "--functional"],
            "straddles the edge of CTA-shared memory",
        ),
    ] {
        let out = weft(&args);
        let t = text(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {t}");
        assert!(t.contains(want), "{args:?} should say `{want}`: {t}");
        assert!(!t.contains("panicked"), "{t}");
    }
}

/// The CAPRI paper's workloads (`kernels/capri/`, with the variants that change one of
/// their choices) match their oracle on the baseline, with large warps, and under thread
/// block compaction, TBC+ and CAPRI. A scaled input with a `_small` twin (the same code at
/// the study's first input) is left to `capri_scaled_inputs_match_their_oracle`; its twin
/// runs every variant here. A variant that `#include`s a scaled input (tpacf_branch) runs
/// here on the baseline only, and every variant there.
#[test]
fn capri_workloads_match_their_oracle_on_the_baseline_and_under_compaction() {
    let names: Vec<String> = workloads("capri")
        .into_iter()
        .filter(|n| !common::has_small_twin(n))
        .collect();
    assert!(names.iter().any(|n| is_twin(n)));
    let variants = capri_variants();
    weft_flow::jobs::parallel(&names, 2, |name| {
        let baseline_only = includes_scaled(name);
        check_workload(
            name,
            &variants[..if baseline_only { 1 } else { variants.len() }],
        )
    });
}

/// The scaled capri inputs (a few billion thread instructions, minutes of CPU: a
/// benchmark, not CI's) match their oracle: each workload with a `_small` twin on the
/// baseline (its twin runs every variant in CI), each variant that `#include`s one on
/// every variant. `weft eval capri` checks every one of its runs (each scheme of the
/// study on these inputs) against the workload's functional run and its `expected_`
/// references, failing on a byte that differs (eval/workload.rs `check_memory`); what
/// only this test checks is the functional run against the native build (the kernels
/// without barriers) and tpacf_branch under large warps and DoM.
#[test]
#[ignore = "the scaled capri inputs, minutes of CPU: `cargo test --release --test kernels capri_scaled -- --ignored`"]
fn capri_scaled_inputs_match_their_oracle() {
    let names: Vec<String> = workloads("capri")
        .into_iter()
        .filter(|n| common::has_small_twin(n) || includes_scaled(n))
        .collect();
    assert!(names.iter().any(|n| includes_scaled(n)));
    let variants = capri_variants();
    weft_flow::jobs::parallel(&names, 2, |name| {
        let baseline_only = common::has_small_twin(name);
        check_workload(
            name,
            &variants[..if baseline_only { 1 } else { variants.len() }],
        )
    });
}

/// The machines a capri workload runs on: the baseline first, then large warps, DoM and
/// [`COMPACTION`].
fn capri_variants() -> Vec<&'static [&'static str]> {
    [&[][..], &["divergence=lwm", "warp_size=64"][..], DOM_FIXED]
        .into_iter()
        .chain(COMPACTION.iter().copied())
        .collect()
}

/// Whether `name` is a scaled input's `_small` twin.
fn is_twin(name: &str) -> bool {
    name.strip_suffix("_small")
        .is_some_and(common::has_small_twin)
}

/// Whether `name`, not a twin, `#include`s a scaled input (a kernel with a `_small` twin).
fn includes_scaled(name: &str) -> bool {
    let (dir, _) = name.rsplit_once('/').expect("folder/stem");
    let source =
        std::fs::read_to_string(Path::new(ROOT).join(format!("kernels/{name}.c"))).unwrap();
    !is_twin(name)
        && source
            .lines()
            .filter_map(|l| {
                l.strip_prefix("#include \"")
                    .and_then(|l| l.strip_suffix(".c\""))
            })
            .any(|other| common::has_small_twin(&format!("{dir}/{other}")))
}

/// The divergence policies of thread block compaction, and CAPRI with a CAPT of one
/// 1b-Sticky entry (evicting at every new branch).
const COMPACTION: &[&[&str]] = &[
    &["divergence=tbc"],
    &["divergence=tbc+"],
    &["divergence=capri"],
    &["divergence=capri", "capt_entries=1", "capt_history=sticky"],
];

/// Every micro and LWM kernel leaves the functional run's memory and executes its thread
/// instructions under thread block compaction, TBC+ and CAPRI (the CTA-wide stack
/// reconverging, splitting and compacting warps on their branches, barriers and shared
/// memory). `micro/shared_edge` is the refused-access kernel, `micro/chase` runs CTAs of
/// one thread, which a CTA-wide stack refuses (checked here).
#[test]
fn every_kernel_runs_the_same_under_thread_block_compaction() {
    let names: Vec<String> = workloads("micro")
        .into_iter()
        .chain(workloads("lwm"))
        .filter(|n| n != "micro/shared_edge" && n != "micro/chase")
        .collect();
    weft_flow::jobs::parallel(&names, 2, |name| {
        assert_timed_matches_functional(name, &functional_run(name), COMPACTION)
    });
    let out = weft(&["run", "kernels/micro/chase.c", "--set", "divergence=tbc"]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("CTAs of 1 threads with divergence = tbc: a CTA-wide stack needs CTAs of at least one warp"),
        "{}",
        text(&out)
    );
}

fn tbc_stats(s: &Stats) -> TbcStats {
    match &s.divergence {
        DivergenceStats::Tbc(t) => t.clone(),
        other => panic!("not a thread block compaction run: {other:?}"),
    }
}

/// CTAs of one warp on kernels whose warps never diverge: a warp that did not diverge
/// bypasses (CAPRI's decision), and a CTA of one warp never waits for another, so CAPRI
/// runs cycle for cycle as WPDOM, every stall reason and histogram bucket alike; the
/// branches did reach the stack (decisions were made, every one a bypass).
#[test]
fn capri_is_wpdom_cycle_for_cycle_with_one_warp_per_cta_that_never_diverges() {
    for name in ["micro/branch_aligned", "micro/stream", "capri/lib_small"] {
        let (_, pdom) = timed_launch(name, &[], None, false, Some(32));
        let (_, capri) = timed_launch(name, &["divergence=capri"], None, false, Some(32));
        assert_eq!(
            (pdom.cycles, &pdom.stalls, &pdom.active_lanes_histogram),
            (capri.cycles, &capri.stalls, &capri.active_lanes_histogram),
            "{name}"
        );
        let t = tbc_stats(&capri);
        assert!(
            t.branch_instances > 0,
            "{name}: no branch reached the stack"
        );
        assert_eq!(t.bypass_ideal_bypass, t.branch_instances, "{name}: {t:?}");
    }
}

/// Compaction forms fewer warps only where lanes allow: `branch_split` sends the same
/// lanes down each path in every warp (no instance adequate, as many warps out as in),
/// BFS's frontier test scatters them (adequate instances, fewer warps out, higher SIMD
/// utilisation than WPDOM). TBC stalls every warp at every branch; the oracle calls a
/// stall ideal only where the instance was adequate and the warp diverged.
#[test]
fn compaction_packs_threads_only_where_lanes_allow() {
    let (_, split) = timed("micro/branch_split", &["divergence=tbc"]);
    let t = tbc_stats(&split);
    assert!(t.branch_instances > 0);
    assert_eq!(
        (t.adequate_instances, t.warps_after),
        (0, t.warps_before),
        "{t:?}"
    );
    let (_, pdom) = timed("lwm/bfs", &[]);
    let (_, tbc) = timed("lwm/bfs", &["divergence=tbc"]);
    let t = tbc_stats(&tbc);
    assert!(
        t.adequate_instances > 0 && t.warps_after < t.warps_before,
        "{t:?}"
    );
    assert!(tbc.simd_utilisation > pdom.simd_utilisation + 0.1);
    assert_eq!(
        t.bypass_ideal_stall + t.bypass_ideal_bypass,
        0,
        "TBC always stalls"
    );
    assert!(t.stall_ideal_stall > 0 && t.stall_ideal_bypass > 0, "{t:?}");
}

/// Diverge on miss changes when threads run, never what they compute: `micro/slip`
/// (scattered loads in nested loops with divergent exits, a call and early returns in
/// the slipping region) equals its native run on every variant machine (two of them
/// diverge on miss), and its functional run on the `dom` machine at 1, 2, 4 and 16 warps
/// with fixed slips of 1, 2 and 255 and with the adaptive diff, on MDTs of 1, 2 and
/// unlimited entries, with slipped threads back at a return and at their loop's exit;
/// so does `micro/slip_barrier` (the same around barriers, early returns after them).
/// Every part of the mechanism ran: threads left and rejoined at a load, came back at
/// their loop's exit and at a call, return or barrier (waiting there for a line too),
/// loads blocked at the slip limit and with the MDT full, and the adaptive diff moved
/// max-slip.
#[test]
fn diverge_on_miss_changes_when_threads_run_never_what_they_compute() {
    assert_matches_native("micro/slip");
    let mut seen = weft_sim::core::simt::divergence::dom::DomStats::default();
    let mut moved = false;
    for name in ["micro/slip", "micro/slip_barrier"] {
        let run = functional_run(name);
        for warps in [1, 2, 4, 16] {
            let (w, f) = (format!("warps={warps}"), format!("fetch_group={warps}"));
            for slip in [
                &["dom_adaptive=false", "dom_max_slip=1", "dom_mdt_entries=2"][..],
                &["dom_adaptive=false", "dom_max_slip=2", "dom_mdt_entries=0"],
                &[
                    "dom_adaptive=false",
                    "dom_max_slip=255",
                    "dom_mdt_entries=1",
                ],
                &["dom_period=400", "dom_slip_step=3"],
            ] {
                for rule in ["dom_reconverge=return", "dom_reconverge=loop"] {
                    let mut sets = vec!["divergence=dom", w.as_str(), f.as_str(), rule];
                    sets.extend(slip);
                    let (image, stats) = timed_dom(name, &sets);
                    assert!(
                        image.bytes == run.image.bytes,
                        "{name} with {sets:?}: the image differs from the functional run's"
                    );
                    assert_eq!(stats.thread_instructions, run.thread_instructions);
                    let DivergenceStats::Dom(d) = stats.divergence else {
                        panic!("{sets:?}: not diverge on miss");
                    };
                    if rule.ends_with("return") {
                        assert_eq!(d.exit_threads, 0, "{name} {sets:?}: {d:?}");
                    }
                    moved |= d.max_slip.iter().any(|&(_, s)| s != d.max_slip[0].1);
                    seen = seen.combined(&d);
                }
            }
        }
    }
    assert!(seen.divergent_loads > 0 && seen.rejoins > 0, "{seen:?}");
    assert!(seen.forced > 0 && seen.forced_waits > 0, "{seen:?}");
    assert!(seen.exits > 0 && seen.exit_waits > 0, "{seen:?}");
    assert!(seen.blocked_slip > 0 && seen.blocked_full > 0, "{seen:?}");
    assert!(seen.all_missed > 0, "{seen:?}");
    assert!(moved, "the adaptive diff never moved max-slip");
}

/// Diverge on miss degenerates to blocking cycle for cycle (every count but the
/// policy's own equal to `pdom`'s): with `dom_max_slip = 0` and a fixed slip every load
/// blocks, whatever the MDT and the reconvergence rule (`micro/slip`,
/// `micro/slip_barrier`, `dom/km`: loads that partly missed were there and blocked); and
/// on `micro/broadcast`, whose every load hits or misses for the whole warp, no load
/// ever splits a warp, whatever the slip.
#[test]
fn diverge_on_miss_without_slip_or_partial_misses_is_blocking_cycle_for_cycle() {
    let no_slip: &[&str] = &["dom_adaptive=false", "dom_max_slip=0"];
    let no_slip_return: &[&str] = &[
        "dom_adaptive=false",
        "dom_max_slip=0",
        "dom_reconverge=return",
        "dom_mdt_entries=2",
    ];
    for (name, warps, slip) in [
        ("micro/slip", "1", no_slip),
        ("micro/slip", "4", no_slip),
        ("micro/slip", "2", no_slip_return),
        ("micro/slip_barrier", "1", no_slip),
        ("micro/slip_barrier", "16", no_slip_return),
        ("dom/km", "2", no_slip),
        ("micro/broadcast", "1", &[][..]),
        ("micro/broadcast", "4", &["dom_max_slip=255"][..]),
    ] {
        let (w, f) = (format!("warps={warps}"), format!("fetch_group={warps}"));
        let (_, blocking) = timed_dom(name, &["divergence=pdom", &w, &f]);
        let mut sets = vec!["divergence=dom", w.as_str(), f.as_str()];
        sets.extend(slip);
        let (_, dom) = timed_dom(name, &sets);
        let DivergenceStats::Dom(d) = &dom.divergence else {
            panic!("{name} {sets:?}: not diverge on miss");
        };
        assert_eq!(d.divergent_loads, 0, "{name} {sets:?}");
        if name == "micro/broadcast" {
            assert!(d.all_missed > 0, "{name}: no load missed: {d:?}");
        } else {
            assert!(d.blocked_slip > 0, "{name}: no load partly missed: {d:?}");
        }
        let counts = |s: &Stats| {
            let mut v = serde_json::to_value(s).unwrap();
            v.as_object_mut().unwrap().remove("divergence");
            v
        };
        assert_eq!(counts(&blocking), counts(&dom), "{name} {sets:?}");
    }
}

/// The VGIW paper's Rodinia kernels (`kernels/vgiw/`) match their oracle on the `fermi`
/// preset, the VGIW study's baseline (the engine's runs are tests/vgiw_engine.rs's).
#[test]
fn vgiw_workloads_match_their_oracle_on_the_fermi_sm() {
    let names = workloads("vgiw");
    assert!(!names.is_empty());
    weft_flow::jobs::parallel(&names, 2, |name| {
        let run = check_oracle(name);
        let timed = run_on(Machine::fermi(), name, &[], None, false, None);
        assert_run_matches_functional(name, &run, "the fermi preset", timed);
    });
}

/// The same on a Fermi SM whose L2 writes through (`l2_write_allocate = false`, the
/// preset's other value).
#[test]
fn full_vgiw_workloads_match_their_oracle_on_a_write_through_l2() {
    let names = workloads("vgiw");
    weft_flow::jobs::parallel(&names, 2, |name| {
        let run = check_oracle(name);
        let timed = run_on(
            Machine::fermi(),
            name,
            &["l2_write_allocate=false"],
            None,
            false,
            None,
        );
        assert_run_matches_functional(name, &run, "fermi, write-through L2", timed);
    });
}
