//! Every kernel of `kernels/` lowered to VGIW basic-block dataflow graphs and run by the
//! lowered program's interpreter in the basic block scheduler's order: the image it
//! leaves (every global, so every dump) equals the SIMT functional run's byte for byte,
//! and so the native run's (tests/kernels.rs checks the functional run against it). A
//! kernel the lowering refuses is listed below with the reason it must give.
mod common;
use common::{all_kernels, first_difference, KERNEL_FOLDERS, ROOT};
use std::path::Path;
use std::time::Instant;
use weft_sim::core::dataflow::graph::{NodeKind, Program as Lowered, Terminator};
use weft_sim::core::dataflow::{self, interpret, lower};
use weft_sim::core::functional::{self, Launch, Program};
use weft_sim::core::image::Image;

const LIMIT: u64 = 2_000_000_000;

/// Kernels the lowering refuses, with a piece of the reason each must give: none (every
/// kernel of `kernels/` is lowered; `micro/shared_edge`, which the functional run
/// refuses for an access straddling shared memory, is lowered and its interpreted run
/// refuses it the same way).
const REFUSED: &[(&str, &str)] = &[];

/// The RV32IMF build of `kernels/<name>.c`.
fn device_elf(name: &str) -> Vec<u8> {
    weft_flow::kernel::load(&Path::new(ROOT).join(format!("kernels/{name}.c"))).unwrap()
}

/// Lowers and interprets `name`; `Err` is the lowering's refusal.
fn check(name: &str) -> Result<(), String> {
    let elf = device_elf(name);
    let image = Image::from_elf(&elf).unwrap();
    let (threads, cta) = image.launch.expect("WEFT_LAUNCH");
    let launch = Launch::new(threads, cta).unwrap();
    let started = Instant::now();
    let lowered = lower::lower(&Program::new(image.clone()))?;
    let lowering = started.elapsed();
    check_structure(name, &lowered);
    // The study's figures come from the ELF through the public entry.
    let c = dataflow::counts(&elf)?;
    assert_eq!(c, lowered.counts(), "{name}");
    eprintln!(
        "{name}: {} blocks, {} nodes, {} live values (at most {} per block), {} order edges; lowered in {lowering:.1?}",
        c.blocks, c.nodes, c.live_values, c.max_block_live_values, c.order_edges
    );
    let started = Instant::now();
    let functional = functional::run(Program::new(image.clone()), launch, LIMIT);
    let simt = started.elapsed();
    let started = Instant::now();
    let run = interpret::run(
        &lowered,
        Program::new(image),
        launch,
        interpret::IN_FLIGHT,
        LIMIT,
    );
    let interpreted = started.elapsed();
    let (functional, run) = match (functional, run) {
        (Ok(f), Ok(r)) => (f, r),
        // A kernel that faults (micro/shared_edge shows the refusal of an access
        // straddling shared memory) faults the same way, same thread and instruction.
        (Err(f), Err(r)) => {
            assert!(
                r.starts_with(&f),
                "{name}: the functional run fails with `{f}`, the interpreted one with `{r}`"
            );
            eprintln!("{name}: both runs fail alike: {r}");
            return Ok(());
        }
        (f, r) => panic!(
            "{name}: functional run {:?}, interpreted run {:?}",
            f.err(),
            r.err()
        ),
    };
    if let Some((addr, symbol)) = first_difference(&run.image, &functional.image) {
        panic!("{name}: the interpreted image differs from the functional run's at {addr:#x} (`{symbol}`)");
    }
    eprintln!(
        "{name}: run: functional {simt:.1?}, interpreted {interpreted:.1?} ({} vectors, {} thread-blocks, {} live-value reads, {} writes)",
        run.vectors, run.thread_blocks, run.live_value_reads, run.live_value_writes
    );
    Ok(())
}

/// What every lowered program must be, checked apart from running it:
/// - block IDs are the blocks' places, block 0 has no predecessor, and an edge goes to a
///   smaller or equal ID only when its target dominates its source (a loop's back edge:
///   reverse postorder), every other edge to a larger ID;
/// - operand and order edges point at earlier nodes of the block, order edges join two
///   memory accesses one of which is a store, and a branch tests a node of its block;
/// - every live value a block reads was written on every path from the entry (a
///   forward must-analysis over the blocks), so no read sees a value no block wrote.
fn check_structure(name: &str, p: &Lowered) {
    let n = p.blocks.len();
    let mut preds = vec![vec![]; n];
    for (i, b) in p.blocks.iter().enumerate() {
        assert_eq!(b.id, i, "{name}");
        for s in b.terminator.successors() {
            assert!(s < n, "{name}: block {i} goes to {s}, past the last block");
            preds[s].push(i);
        }
    }
    assert!(
        preds[0].is_empty(),
        "{name}: the entry block has predecessors"
    );
    // Dominators, as bit sets, to a fixpoint.
    let words = n.div_ceil(64);
    let mut dom = vec![vec![u64::MAX; words]; n];
    dom[0] = vec![0; words];
    dom[0][0] = 1;
    let mut changed = true;
    while changed {
        changed = false;
        for b in 1..n {
            let mut d = vec![u64::MAX; words];
            for &q in &preds[b] {
                for w in 0..words {
                    d[w] &= dom[q][w];
                }
            }
            if preds[b].is_empty() {
                d = vec![0; words];
            }
            d[b / 64] |= 1 << (b % 64);
            if d != dom[b] {
                dom[b] = d;
                changed = true;
            }
        }
    }
    for (u, b) in p.blocks.iter().enumerate() {
        for v in b.terminator.successors() {
            if v <= u {
                assert!(
                    dom[u][v / 64] & (1 << (v % 64)) != 0,
                    "{name}: edge {u} -> {v} goes back to a block that does not dominate it"
                );
            }
        }
        for (i, node) in b.nodes.iter().enumerate() {
            assert!(
                node.args.iter().chain(&node.after).all(|&a| a < i),
                "{name}: block {u} node {i} uses a later node"
            );
            for &a in &node.after {
                let other = &b.nodes[a];
                assert!(
                    (node.is_store() || other.is_store())
                        && (node.is_load() || node.is_store())
                        && (other.is_load() || other.is_store()),
                    "{name}: block {u}: order edge {a} -> {i} not between accesses with a store"
                );
            }
        }
        if let Terminator::Branch { cond, .. } = b.terminator {
            assert!(
                cond < b.nodes.len(),
                "{name}: block {u}'s branch tests no node of it"
            );
        }
    }
    // Live values written on every path before they are read.
    let mut written_in = vec![u64::MAX; n];
    written_in[0] = 0;
    let written_out = |b: usize, w: &[u64]| {
        p.blocks[b]
            .writes
            .iter()
            .fold(w[b], |m, &(r, _)| m | 1 << r)
    };
    let mut changed = true;
    while changed {
        changed = false;
        for b in 1..n {
            let w = preds[b]
                .iter()
                .fold(u64::MAX, |m, &q| m & written_out(q, &written_in));
            if w != written_in[b] {
                written_in[b] = w;
                changed = true;
            }
        }
    }
    for (u, b) in p.blocks.iter().enumerate() {
        for node in &b.nodes {
            if let NodeKind::LiveIn(r) = node.kind {
                assert!(
                    written_in[u] & (1 << r) != 0,
                    "{name}: block {u} reads live value {r}, which some path does not write"
                );
            }
        }
    }
}

/// Checks every kernel of `folder`: equal bytes, or the listed refusal.
/// A scaled input with a `_small` twin is checked through the twin (the same code).
fn check_folder(folder: &str) {
    let mut failures = vec![];
    for name in all_kernels()
        .into_iter()
        .filter(|k| k.starts_with(&format!("{folder}/")))
        .filter(|k| !common::has_small_twin(k))
    {
        let expected = REFUSED.iter().find(|r| r.0 == name);
        match (check(&name), expected) {
            (Ok(()), None) => {}
            (Ok(()), Some((_, why))) => {
                failures.push(format!("{name}: lowered, but listed as refused ({why})"))
            }
            (Err(e), Some((_, why))) if e.contains(why) => {
                eprintln!("{name}: refused as listed: {e}")
            }
            (Err(e), _) => failures.push(format!("{name}: refused unexpectedly: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A C kernel with a recursive function is refused with the function's address (the
/// ELF's symbol for it), by the lowering and by the study's counts.
#[test]
fn a_recursive_c_kernel_is_refused_with_the_functions_address() {
    let dir = common::scratch("lowering-recursion");
    let source = dir.join("fib.c");
    std::fs::write(
        &source,
        r#"#include "weft.h"
#include <stdint.h>
uint32_t out[64];
__attribute__((noinline)) uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
void weft_kernel(void) { uint32_t t = weft_tid(); out[t] = fib(t % 8); }
WEFT_LAUNCH(64, 32);
"#,
    )
    .unwrap();
    let elf = weft_flow::kernel::load(&source).unwrap();
    let image = Image::from_elf(&elf).unwrap();
    let fib = image.symbols["fib"].addr;
    let err = lower::lower(&Program::new(image)).unwrap_err();
    assert!(
        err.starts_with(&format!("recursive call to the function at {fib:#x}")),
        "{err}"
    );
    assert_eq!(dataflow::counts(&elf).unwrap_err(), err);
}

#[test]
fn micro_kernels_interpret_to_the_functional_runs_bytes() {
    check_folder("micro");
}

#[test]
fn lwm_kernels_interpret_to_the_functional_runs_bytes() {
    check_folder("lwm");
}

#[test]
fn capri_kernels_interpret_to_the_functional_runs_bytes() {
    check_folder("capri");
}

#[test]
fn dom_kernels_interpret_to_the_functional_runs_bytes() {
    check_folder("dom");
}

#[test]
fn vgiw_kernels_interpret_to_the_functional_runs_bytes() {
    check_folder("vgiw");
}

/// Each folder of `kernels/` has its test above: a new folder must be added there and
/// to `KERNEL_FOLDERS`, or this fails.
#[test]
fn every_kernel_folder_is_checked() {
    let mut folders: Vec<String> = all_kernels()
        .iter()
        .map(|k| k.split('/').next().unwrap().to_string())
        .collect();
    folders.dedup();
    let mut known: Vec<String> = KERNEL_FOLDERS.iter().map(|f| f.to_string()).collect();
    known.sort();
    assert_eq!(folders, known);
}

/// The check above can fail on a real kernel: micro/cta_sum (a CTA reduction through
/// shared memory) interpreted without its memory-order edges, in the interpreter's
/// latest-ready-first order, leaves other bytes than the functional run; with them, the
/// same bytes whether a wave holds one CTA or all of them.
#[test]
fn without_its_order_edges_a_kernel_computes_something_else() {
    let image = Image::from_elf(&device_elf("micro/cta_sum")).unwrap();
    let (threads, cta) = image.launch.unwrap();
    let launch = Launch::new(threads, cta).unwrap();
    let lowered = lower::lower(&Program::new(image.clone())).unwrap();
    let reference = functional::run(Program::new(image.clone()), launch, LIMIT)
        .unwrap()
        .image
        .bytes;
    let run = |p: &Lowered, in_flight| {
        interpret::run(p, Program::new(image.clone()), launch, in_flight, LIMIT)
            .unwrap()
            .image
            .bytes
    };
    assert!(run(&lowered, cta) == reference);
    assert!(run(&lowered, interpret::IN_FLIGHT) == reference);
    let mut unordered = lowered.clone();
    for b in unordered.blocks.iter_mut() {
        for n in b.nodes.iter_mut() {
            n.after.clear();
        }
    }
    assert!(lowered.counts().order_edges > 0);
    assert!(run(&unordered, interpret::IN_FLIGHT) != reference);
}
