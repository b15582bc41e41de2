//! The paper-scale VGIW engine (`weft run --machine vgiw`) on the kernels of `kernels/`:
//! every kernel the lowering accepts runs on the `vgiw` preset and leaves the functional
//! run's image byte for byte (so every dump; tests/kernels.rs checks the functional run
//! against the native one); a pointer chase pays the DRAM latency per step; the command
//! line prints the engine's figures and dumps, and refuses bad input with a message.
mod common;
use common::{all_kernels, first_difference, text, weft, ROOT};
use std::path::Path;
use std::time::Instant;
use weft_sim::core::dataflow::engine;
use weft_sim::core::functional::{self, Launch, Program};
use weft_sim::core::image::Image;
use weft_sim::core::machine::Machine;

const LIMIT: u64 = 2_000_000_000;

/// The RV32IMF build of `kernels/<name>.c`, its image and its launch.
fn kernel(name: &str) -> (Image, Launch) {
    let elf = weft_flow::kernel::load(&Path::new(ROOT).join(format!("kernels/{name}.c"))).unwrap();
    let image = Image::from_elf(&elf).unwrap();
    let (threads, cta) = image.launch.expect("WEFT_LAUNCH");
    (image, Launch::new(threads, cta).unwrap())
}

/// Runs `name` on the `vgiw` preset with `sets` and functionally; a difference names the
/// symbol.
fn check(name: &str, sets: &[&str]) -> Result<(), String> {
    let (image, launch) = kernel(name);
    let functional = functional::run(Program::new(image.clone()), launch, LIMIT);
    let started = Instant::now();
    let mut machine = Machine::vgiw();
    machine.set_all(sets)?;
    let run = engine::run(Program::new(image), launch, &machine, LIMIT);
    let seconds = started.elapsed().as_secs_f64();
    let (functional, run) = match (functional, run) {
        (Ok(f), Ok(r)) => (f, r),
        // micro/shared_edge faults (an access straddling shared memory) alike.
        (Err(f), Err(r)) if r.starts_with(&f) => {
            eprintln!("{name}: both runs fail alike: {r}");
            return Ok(());
        }
        (f, r) => {
            return Err(format!(
                "{name}: functional run {:?}, VGIW run {:?}",
                f.err(),
                r.err()
            ))
        }
    };
    if let Some((addr, symbol)) = first_difference(&run.image, &functional.image) {
        return Err(format!(
            "{name} {sets:?}: the VGIW image differs from the functional run's at {addr:#x} (`{symbol}`)"
        ));
    }
    let s = &run.stats;
    eprintln!(
        "{name}: {} cycles, {} block executions, {} reconfiguration cycles, {} LVC accesses; {seconds:.1} s",
        s.cycles,
        s.block_executions,
        s.reconfiguration_cycles,
        s.lvc_reads + s.lvc_writes
    );
    assert!(s.cycles > 0 && s.thread_instructions > 0, "{name}");
    Ok(())
}

/// Every kernel of `folder` (the lowering refuses none: tests/lowering.rs lists the
/// refusals, and it is empty), on the `vgiw` preset with `sets`. A scaled input with a
/// `_small` twin is checked through the twin (the same code).
fn check_folder_with(folder: &str, sets: &[&str]) {
    let failures: Vec<String> = all_kernels()
        .into_iter()
        .filter(|k| k.starts_with(&format!("{folder}/")))
        .filter(|k| !common::has_small_twin(k))
        .filter_map(|k| check(&k, sets).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn check_folder(folder: &str) {
    check_folder_with(folder, &[]);
}

#[test]
fn micro_kernels_on_vgiw_leave_the_functional_runs_bytes() {
    check_folder("micro");
}

#[test]
fn lwm_kernels_on_vgiw_leave_the_functional_runs_bytes() {
    check_folder("lwm");
}

#[test]
fn capri_kernels_on_vgiw_leave_the_functional_runs_bytes() {
    check_folder("capri");
}

#[test]
fn dom_kernels_on_vgiw_leave_the_functional_runs_bytes() {
    check_folder("dom");
}

#[test]
fn vgiw_kernels_on_vgiw_leave_the_functional_runs_bytes() {
    check_folder("vgiw");
}

/// The preset's values of the alias rule, store completion, launch constants and L2
/// policy are `object`, `accept`, `true`, `true`: here every other value.
#[test]
fn full_vgiw_kernels_leave_the_functional_runs_bytes_under_every_value_of_the_engines_keys() {
    check_folder_with(
        "vgiw",
        &[
            "vgiw_alias=base",
            "vgiw_store_done=fill",
            "vgiw_launch_constants=false",
            "l2_write_allocate=false",
        ],
    );
    check_folder_with("vgiw", &["vgiw_alias=none"]);
}

/// micro/chase: one thread, each load's address the previous load's value, every step
/// a new line: the steps are serial, so adding D cycles to every DRAM access (row hit
/// and row conflict alike) adds D cycles per DRAM access, the final write-back of the
/// one line it stores included.
#[test]
fn a_pointer_chase_pays_the_dram_latency_per_step() {
    let (image, launch) = kernel("micro/chase");
    let run = |hit: u32| {
        let mut m = Machine::vgiw();
        // A write-through L2, so that the final write-back reaches DRAM.
        m.set_all(&[
            format!("dram_row_hit={hit}"),
            format!("dram_row_conflict={hit}"),
            "l2_write_allocate=false".into(),
        ])
        .unwrap();
        engine::run(Program::new(image.clone()), launch, &m, LIMIT)
            .unwrap()
            .stats
    };
    let (fast, slow) = (run(200), run(700));
    // 80 steps and the load of `start`, each from DRAM; `last` written back at the end.
    assert_eq!((fast.dram.reads, fast.dram.writes), (81, 1));
    assert_eq!((slow.dram.reads, slow.dram.writes), (81, 1));
    assert_eq!(slow.cycles - fast.cycles, 82 * 500);
    // And each step costs at least its L1, L2 and DRAM latencies.
    let m = Machine::vgiw();
    assert!(fast.cycles > 81 * u64::from(m.keys().l1_latency + m.keys().l2_latency + 200));
}

/// `weft run --machine vgiw` prints the engine's figures and the functional run's
/// dumps, as text and as JSON (`timing` = `vgiw`).
#[test]
fn weft_run_on_vgiw_prints_the_engines_figures_and_the_dumps() {
    let saxpy = format!("{ROOT}/kernels/micro/saxpy.c");
    let functional = weft(&["run", &saxpy, "--functional", "--dump", "y"]);
    assert!(functional.status.success(), "{}", text(&functional));
    let want = text(&functional)
        .lines()
        .find(|l| l.starts_with("y "))
        .unwrap()
        .to_string();
    let out = weft(&["run", &saxpy, "--machine", "vgiw", "--dump", "y"]);
    let printed = text(&out);
    assert!(out.status.success(), "{printed}");
    assert!(printed.lines().any(|l| l == want), "{printed}");
    for figure in ["cycles", "reconfigurations", "LVC reads", "utilisation ALU"] {
        assert!(printed.contains(figure), "{figure}: {printed}");
    }
    let out = weft(&["run", &saxpy, "--machine", "vgiw", "--json", "--dump", "y"]);
    assert!(out.status.success(), "{}", text(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["timing"], "vgiw");
    assert_eq!(json["machine"]["timing"], "vgiw");
    assert_eq!(format!("y {}", json["dumps"]["y"].as_str().unwrap()), want);
    assert!(json["cycles"].as_u64().unwrap() > 0);
    assert!(json["ipc"].as_f64().unwrap() > 0.0);
    assert!(json["warp_instructions"].is_null());
    for key in [
        "reconfigurations",
        "lvc_reads",
        "l1",
        "dram",
        "unit_utilisation",
    ] {
        assert!(!json[key].is_null(), "{key}");
    }
    // The SIMT run of the same machine's memory says which model timed it.
    let out = weft(&["run", &saxpy, "--machine", "fermi", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["timing"], "simt");
}

/// A kernel the lowering refuses and a machine without the units a replica needs are
/// refused with a message, not a panic.
#[test]
fn bad_input_gives_a_message() {
    let dir = common::scratch("vgiw-engine-refusals");
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
    let source = source.to_str().unwrap();
    let out = weft(&["run", source, "--machine", "vgiw"]);
    assert!(!out.status.success());
    assert!(text(&out).contains("recursive call"), "{}", text(&out));
    let saxpy = format!("{ROOT}/kernels/micro/saxpy.c");
    for (set, says) in [
        ("vgiw_cvus=1", "initiator and terminator"),
        ("vgiw_ldst_units=0", "vgiw_ldst_units = 0"),
        ("timing=systolic", "timing = systolic"),
    ] {
        let out = weft(&["run", &saxpy, "--machine", "vgiw", "--set", set]);
        assert!(!out.status.success(), "{set}");
        assert!(text(&out).contains(says), "{set}: {}", text(&out));
        assert!(!text(&out).contains("panicked"), "{set}: {}", text(&out));
    }
}
