//! Every kernel of `kernels/` lowered to VGIW basic-block dataflow graphs and run by the
//! lowered program's interpreter in the basic block scheduler's order: the image it
//! leaves (every global, so every dump) equals the SIMT functional run's byte for byte,
//! and so the native run's (tests/kernels.rs checks the functional run against it). A
//! kernel the lowering refuses is listed below with the reason it must give.
mod common;
use common::{all_kernels, ROOT};
use std::path::Path;
use std::time::Instant;
use weft_sim::core::dataflow::{interpret, lower};
use weft_sim::core::functional::{self, Launch, Program};
use weft_sim::core::image::Image;

const LIMIT: u64 = 2_000_000_000;

/// Kernels the lowering refuses, with a piece of the reason each must give.
const REFUSED: &[(&str, &str)] = &[];

fn device_image(name: &str) -> Image {
    let elf = weft_flow::kernel::load(&Path::new(ROOT).join(format!("kernels/{name}.c"))).unwrap();
    Image::from_elf(&elf).unwrap()
}

/// Lowers and interprets `name`; `Err` is the lowering's refusal.
fn check(name: &str) -> Result<(), String> {
    let image = device_image(name);
    let (threads, cta) = image.launch.expect("WEFT_LAUNCH");
    let launch = Launch::new(threads, cta).unwrap();
    let started = Instant::now();
    let lowered = lower::lower(&Program::new(image.clone()))?;
    let lowering = started.elapsed();
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
    if let Some(at) =
        (0..run.image.bytes.len()).find(|&i| run.image.bytes[i] != functional.image.bytes[i])
    {
        let addr = run.image.base + at as u32;
        let symbol = run
            .image
            .symbols
            .iter()
            .find(|(_, s)| s.addr <= addr && addr < s.addr + s.size.max(1))
            .map_or("?", |(n, _)| n.as_str());
        panic!("{name}: the interpreted image differs from the functional run's at {addr:#x} (`{symbol}`)");
    }
    let c = lowered.counts();
    eprintln!(
        "{name}: {} blocks, {} nodes, {} live values (at most {} per block), {} order edges; lowered in {:.1?}, functional {:.1?}, interpreted {:.1?} ({} vectors)",
        c.blocks, c.nodes, c.live_values, c.max_block_live_values, c.order_edges, lowering, simt, interpreted, run.vectors
    );
    Ok(())
}

/// Checks every kernel of `folder`: equal bytes, or the listed refusal.
fn check_folder(folder: &str) {
    let mut failures = vec![];
    for name in all_kernels()
        .into_iter()
        .filter(|k| k.starts_with(&format!("{folder}/")))
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
