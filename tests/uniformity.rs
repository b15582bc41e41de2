//! The uniform branches of every kernel against the kernel's own execution: each CTA
//! runs as one CTA-wide warp under a PDOM stack (the block-wide stack of thread block
//! compaction, where TBC+ uses the analysis), written here from the threads'
//! interpreter and the reconvergence points alone, and at every dynamic execution of a
//! branch the analysis calls uniform, every active thread must take the same
//! direction. Threads that reach a branch together under PDOM are exactly the threads
//! of one dynamic execution, so a branch inside a divergent region is checked for the
//! threads that reach it, as TBC+ needs.
//!
//! The uniform branches outside every divergent region are also checked on the
//! functional run's order (each thread runs alone up to a barrier): every thread of a
//! CTA takes each of them the same number of times, the same way each time.
mod common;
use common::all_kernels;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use weft_sim::core::cfg::{Cfg, Flow, Reconvergence};
use weft_sim::core::functional::{self, Launch, Program, Stack, ThreadMemory};
use weft_sim::core::image::Image;
use weft_sim::core::simt::kernel::Kernel;
use weft_sim::core::thread::{Effect, EXIT_PC};
use weft_sim::core::uniformity::{analyse, uniform_branches};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const LIMIT: u64 = 500_000_000;

fn device_image(name: &str) -> Image {
    let elf = weft_flow::kernel::load(&Path::new(ROOT).join(format!("kernels/{name}.c")))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    Image::from_elf(&elf).unwrap()
}

/// What the CTA-wide PDOM runs of a launch saw.
#[derive(Default, Debug)]
struct Observed {
    /// The branches whose active threads split at some execution.
    split: BTreeSet<u32>,
    /// Executions of a branch in `claimed` whose threads split: (pc, taken, not taken).
    violations: Vec<(u32, usize, usize)>,
    /// Barriers reached by only part of the live threads (inside a divergent region).
    partial_barriers: u64,
}

/// One entry of the CTA-wide divergence stack.
struct Entry {
    pc: u32,
    threads: Vec<usize>,
    /// Where the entry's threads wait for the others (`None`: the bottom entry).
    reconverge: Option<u32>,
}

/// Runs every CTA of the launch as one warp under PDOM, checking the branches of
/// `claimed`. A barrier needs no waiting: the threads of a CTA-wide warp run in
/// lockstep, so every one of them has done all that precedes an aligned barrier.
fn run_cta_wide(program: &Program, cfg: &Cfg, claimed: &BTreeSet<u32>) -> Observed {
    let mut image = program.image.clone();
    let (threads, cta) = image.launch.expect("WEFT_LAUNCH");
    let launch = Launch::new(threads, cta).unwrap();
    functional::run_setup(&program.code, &mut image, launch, LIMIT).unwrap();
    let mut seen = Observed::default();
    let mut executed = 0u64;
    for first in (0..threads).step_by(cta as usize) {
        let n = cta as usize;
        let mut ts: Vec<_> = (0..n)
            .map(|_| functional::start_thread(&image, image.kernel))
            .collect();
        let mut stacks = vec![Stack::default(); n];
        // Each thread's return addresses: where a branch reconverging at its function's
        // return meets.
        let mut calls: Vec<Vec<u32>> = vec![vec![]; n];
        let mut live = n;
        let mut stack = vec![Entry {
            pc: image.kernel,
            threads: (0..n).collect(),
            reconverge: None,
        }];
        while let Some(top) = stack.last_mut() {
            if Some(top.pc) == top.reconverge {
                stack.pop();
                continue;
            }
            let pc = top.pc;
            if pc == EXIT_PC {
                assert!(top.reconverge.is_none(), "threads left inside a region");
                stack.pop();
                continue;
            }
            let inst = *program.fetch(pc).unwrap();
            let flow = cfg.flows[&pc];
            let mut next = vec![];
            let mut taken = vec![];
            let mut barrier = false;
            for &i in &top.threads {
                let env = launch.env(first + i as u32);
                let mut memory = ThreadMemory {
                    image: &mut image,
                    stack: &mut stacks[i],
                    cta: Some(env.ctaid),
                };
                let effect = ts[i]
                    .step(&inst, &mut memory, &env)
                    .unwrap_or_else(|f| panic!("thread {}: {f}", env.tid));
                match effect {
                    Effect::Branch { taken: true } => taken.push(i),
                    Effect::Barrier => barrier = true,
                    _ => {}
                }
                match flow {
                    Flow::Call { .. } => calls[i].push(pc.wrapping_add(4)),
                    Flow::Return => {
                        calls[i].pop();
                    }
                    _ => {}
                }
                if ts[i].pc == EXIT_PC {
                    live -= 1;
                }
                next.push(ts[i].pc);
            }
            executed += top.threads.len() as u64;
            assert!(
                executed < LIMIT,
                "stopped after {LIMIT} thread instructions"
            );
            // Threads still in the kernel wait elsewhere: the barrier is in a divergent
            // region (where the lockstep run decides the order of memory accesses).
            if barrier && top.threads.len() < live {
                seen.partial_barriers += 1;
            }
            if inst.is_branch() && !taken.is_empty() && taken.len() < top.threads.len() {
                seen.split.insert(pc);
                if claimed.contains(&pc) {
                    seen.violations
                        .push((pc, taken.len(), top.threads.len() - taken.len()));
                }
                let reconverge = match cfg.reconvergence_of(pc).unwrap() {
                    Reconvergence::At(p) => p,
                    Reconvergence::AtReturn => *calls[top.threads[0]].last().unwrap_or(&EXIT_PC),
                };
                let target = pc.wrapping_add(inst.imm as u32);
                let stay: Vec<usize> = top
                    .threads
                    .iter()
                    .copied()
                    .filter(|i| !taken.contains(i))
                    .collect();
                top.pc = reconverge;
                for (pc, threads) in [(pc.wrapping_add(4), stay), (target, taken)] {
                    stack.push(Entry {
                        pc,
                        threads,
                        reconverge: Some(reconverge),
                    });
                }
                continue;
            }
            assert!(
                next.iter().all(|&p| p == next[0]),
                "threads of one entry went apart at {pc:#x} without a branch"
            );
            top.pc = next[0];
        }
        assert_eq!(live, 0, "every thread of CTA {} returned", first / cta);
    }
    seen
}

/// Each thread's outcomes of the branches of `watched`, per CTA, on the functional
/// run's order: threads take turns, each running until it returns or reaches
/// `weft_barrier`, as `functional::run` does.
fn per_thread_outcomes(program: &Program, watched: &BTreeSet<u32>) -> Vec<Vec<Vec<(u32, bool)>>> {
    let mut image = program.image.clone();
    let (threads, cta) = image.launch.expect("WEFT_LAUNCH");
    let launch = Launch::new(threads, cta).unwrap();
    functional::run_setup(&program.code, &mut image, launch, LIMIT).unwrap();
    let mut ctas = vec![];
    let mut executed = 0u64;
    for first in (0..threads).step_by(cta as usize) {
        let n = cta as usize;
        let mut ts: Vec<_> = (0..n)
            .map(|_| functional::start_thread(&image, image.kernel))
            .collect();
        let mut stacks = vec![Stack::default(); n];
        let mut outcomes: Vec<Vec<(u32, bool)>> = vec![vec![]; n];
        let mut live = vec![true; n];
        while live.iter().any(|&l| l) {
            for i in 0..n {
                if !live[i] {
                    continue;
                }
                let env = launch.env(first + i as u32);
                let mut memory = ThreadMemory {
                    image: &mut image,
                    stack: &mut stacks[i],
                    cta: Some(env.ctaid),
                };
                loop {
                    let pc = ts[i].pc;
                    if pc == EXIT_PC {
                        live[i] = false;
                        break;
                    }
                    let inst = *program.fetch(pc).unwrap();
                    let effect = ts[i]
                        .step(&inst, &mut memory, &env)
                        .unwrap_or_else(|f| panic!("thread {}: {f}", env.tid));
                    executed += 1;
                    assert!(
                        executed < LIMIT,
                        "stopped after {LIMIT} thread instructions"
                    );
                    match effect {
                        Effect::Branch { taken } if watched.contains(&pc) => {
                            outcomes[i].push((pc, taken))
                        }
                        Effect::Barrier => break,
                        _ => {}
                    }
                }
            }
        }
        ctas.push(outcomes);
    }
    ctas
}

/// Per kernel: the conditional branches the kernel reaches, those proven uniform, and
/// what the CTA-wide run saw. Every execution of a proven branch keeps its threads
/// together.
#[test]
fn uniform_branches_never_split_a_cta_in_any_kernel() {
    // `micro/shared_edge`'s run must be refused (its access straddles the shared section's
    // edge; `tests/kernels.rs` checks the refusal). A scaled input runs the code of its
    // `_small` twin, which is checked.
    let names: Vec<String> = all_kernels()
        .into_iter()
        .filter(|n| n != "micro/shared_edge" && !common::has_small_twin(n))
        .collect();
    assert!(names.iter().any(|n| n.starts_with("micro/")));
    assert!(names.iter().any(|n| n.starts_with("lwm/")));
    let results = weft_flow::jobs::parallel(&names, 2, |name| {
        let program = Program::new(device_image(name));
        let cfg = program.cfg().unwrap_or_else(|e| panic!("{name}: {e}"));
        let started = std::time::Instant::now();
        let claimed = uniform_branches(&cfg, |pc| program.fetch(pc).ok().copied());
        let analysis = started.elapsed();
        let branches: BTreeSet<u32> = cfg
            .flows
            .iter()
            .filter(|(_, f)| matches!(f, Flow::Branch { .. }))
            .map(|(&pc, _)| pc)
            .collect();
        assert!(
            claimed.is_subset(&branches),
            "{name}: only branches are claimed"
        );
        // The core's kernel carries the same answer on every step.
        let kernel = Kernel::new(&program).unwrap();
        for &pc in &branches {
            assert_eq!(
                kernel.step(pc).unwrap().uniform,
                claimed.contains(&pc),
                "{name} {pc:#x}"
            );
        }
        let seen = run_cta_wide(&program, &cfg, &claimed);
        let whole = analyse(&cfg, |pc| program.fetch(pc).ok().copied()).whole_cta;
        assert!(whole.is_subset(&claimed), "{name}");
        let mut recorded = 0;
        for (c, outcomes) in per_thread_outcomes(&program, &whole).iter().enumerate() {
            recorded += outcomes[0].len();
            for (t, o) in outcomes.iter().enumerate() {
                assert!(
                    o == &outcomes[0],
                    "{name}: thread {t} of CTA {c} takes the whole-CTA uniform branches {whole:x?} otherwise than thread 0"
                );
            }
        }
        assert!(
            seen.violations.is_empty(),
            "{name}: branches proven uniform split a CTA (pc, taken, not taken): {:x?}",
            seen.violations
        );
        let line = format!(
            "{name:<20} branches {:>3}  uniform {:>3} (whole CTA {:>2}, {recorded:>6} outcomes of thread 0 per CTA, summed)  split at run time {:>3}  partial barriers {:>2}  analysis {analysis:.1?}",
            branches.len(),
            claimed.len(),
            whole.len(),
            seen.split.len(),
            seen.partial_barriers
        );
        (line, claimed.len())
    });
    let mut proven_in: BTreeMap<&str, usize> = BTreeMap::new();
    for (name, (line, proven)) in names.iter().zip(results) {
        println!("{line}");
        proven_in.insert(name, proven);
    }
    // Kernels with an obvious uniform branch, a loop bounded by a constant: matrix_mult's
    // `k < M`, histogram's `b < BINS` and `k < WORDS`, the `k < 64` loop of
    // branch_aligned and branch_split (around their thread-dependent `if`).
    for name in [
        "lwm/matrix_mult",
        "lwm/histogram",
        "micro/branch_aligned",
        "micro/branch_split",
    ] {
        assert!(
            proven_in[name] >= 1,
            "{name}: its constant-bounded loop is uniform"
        );
    }
}

/// A kernel where only control dependence separates the threads: a constant assigned
/// on one side of a thread-dependent `if` bounds a loop after the join. Each value is a
/// constant, so only the join makes the bound divergent; the second loop's bound is
/// the CTA size, uniform.
const JOIN: &str = r#"
#include "weft.h"
WEFT_LAUNCH(128, 64);
uint32_t out[128];
void weft_kernel(void) {
    uint32_t t = weft_tid(), n = 5, s = 0;
    if (t & 1) {
        n = 3;
        __asm__ volatile("" : "+r"(n)); /* keep the branch */
    }
    uint32_t k = 0;
    do { /* no zero-trip guard: the `if` joins before the loop */
        s = s * 3 + k;
        __asm__ volatile("" : "+r"(s));
    } while (++k < n);
    for (k = 0; k < weft_cta_size(); k++) {
        s ^= k;
        __asm__ volatile("" : "+r"(s));
    }
    out[t] = s;
}
"#;

#[test]
fn a_bound_assigned_under_a_divergent_branch_splits_the_loop_after_the_join() {
    let dir = std::env::temp_dir().join(format!("weft-uniformity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("join.c");
    std::fs::write(&source, JOIN).unwrap();
    let elf = weft_flow::kernel::load(&source).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let program = Program::new(Image::from_elf(&elf).unwrap());
    let cfg = program.cfg().unwrap();
    let proven = uniform_branches(&cfg, |pc| program.fetch(pc).ok().copied());
    let seen = run_cta_wide(&program, &cfg, &proven);
    assert!(seen.violations.is_empty(), "{seen:?}");
    // The `if` and the loop after it split at run time; the CTA-size loop is proven.
    assert_eq!(seen.split.len(), 2, "{seen:?}");
    assert!(!proven.is_empty() && proven.is_disjoint(&seen.split));
}

/// The reference run catches a branch wrongly called uniform: claiming every branch of
/// a kernel that splits its warps on the thread index must fail.
#[test]
fn the_cta_wide_run_catches_a_wrong_uniform_claim() {
    let program = Program::new(device_image("micro/branch_split"));
    let cfg = program.cfg().unwrap();
    let every: BTreeSet<u32> = cfg
        .flows
        .iter()
        .filter(|(_, f)| matches!(f, Flow::Branch { .. }))
        .map(|(&pc, _)| pc)
        .collect();
    let seen = run_cta_wide(&program, &cfg, &every);
    assert!(!seen.violations.is_empty(), "{seen:?}");
    let proven = uniform_branches(&cfg, |pc| program.fetch(pc).ok().copied());
    for (pc, _, _) in &seen.violations {
        assert!(
            !proven.contains(pc),
            "{pc:#x} splits and is claimed uniform"
        );
    }
    // So does the per-thread comparison on the functional run's order.
    let ctas = per_thread_outcomes(&program, &every);
    assert!(ctas
        .iter()
        .any(|threads| threads.iter().any(|o| o != &threads[0])));
}

/// `weft run --listing` marks exactly the proven branches `# uniform`, after their
/// reconvergence point.
#[test]
fn listing_marks_the_uniform_branches() {
    let name = "lwm/matrix_mult";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(["run", &format!("kernels/{name}.c"), "--listing"])
        .current_dir(ROOT)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let program = Program::new(device_image(name));
    let cfg = program.cfg().unwrap();
    let proven = uniform_branches(&cfg, |pc| program.fetch(pc).ok().copied());
    assert!(!proven.is_empty());
    let mut marked = BTreeSet::new();
    for line in text.lines().filter(|l| l.ends_with("# uniform")) {
        let pc = u32::from_str_radix(line.split_whitespace().next().unwrap(), 16).unwrap();
        assert!(line.contains("# reconverges at "), "{line}");
        marked.insert(pc);
    }
    assert_eq!(marked, proven, "{text}");
}
