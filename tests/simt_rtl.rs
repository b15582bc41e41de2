//! `weft run --rtl` (docs/core.md §8): a kernel on the RTL SIMT core leaves the bytes
//! of the functional run, reports `timing: rtl`, and a kernel the core cannot run is
//! refused before any work with exit 2.
mod common;
use common::{text, weft};

#[test]
fn rtl_run_dumps_equal_the_functional_run() {
    let args = |mode: &'static str| -> Vec<&'static str> {
        vec![
            "run",
            "kernels/micro/intops.c",
            mode,
            "--threads",
            "32",
            "--cta",
            "16",
            "--json",
            "--dump",
            "out",
            "--dump",
            "bytes_out",
            "--dump",
            "halves_out",
        ]
    };
    let rtl = weft(&args("--rtl"));
    assert!(rtl.status.success(), "{}", text(&rtl));
    let functional = weft(&args("--functional"));
    assert!(functional.status.success(), "{}", text(&functional));
    let rtl: serde_json::Value = serde_json::from_slice(&rtl.stdout).unwrap();
    let functional: serde_json::Value = serde_json::from_slice(&functional.stdout).unwrap();
    assert_eq!(rtl["timing"], "rtl");
    assert_eq!(rtl["machine"]["preset"], "simt_core_4x4");
    assert!(rtl["cycles"].as_u64().unwrap() > 0);
    assert_eq!(rtl["dumps"], functional["dumps"]);
    assert_eq!(rtl["dumps"].as_object().unwrap().len(), 3);
}

/// The small core takes CTAs of up to 4 threads (2 warps of 2 lanes), in waves, and
/// refuses a larger CTA before any work.
#[test]
fn rtl_run_on_the_2x2_core() {
    let args = |mode: &'static str, cta: &'static str| -> Vec<&'static str> {
        vec![
            "run",
            "kernels/micro/rtl_diamond.c",
            mode,
            "--machine",
            "simt_core_2x2",
            "--threads",
            "8",
            "--cta",
            cta,
            "--json",
            "--dump",
            "sum",
            "--dump",
            "odd",
        ]
    };
    let rtl = weft(&args("--rtl", "4"));
    assert!(rtl.status.success(), "{}", text(&rtl));
    let mut functional = args("--functional", "4");
    functional.retain(|a| *a != "--machine" && *a != "simt_core_2x2");
    let functional = weft(&functional);
    assert!(functional.status.success(), "{}", text(&functional));
    let rtl: serde_json::Value = serde_json::from_slice(&rtl.stdout).unwrap();
    let functional: serde_json::Value = serde_json::from_slice(&functional.stdout).unwrap();
    assert_eq!(rtl["machine"]["preset"], "simt_core_2x2");
    assert_eq!(rtl["dumps"], functional["dumps"]);
    let out = weft(&args("--rtl", "8"));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("needs 4 warps of 2; the core has 2"),
        "{}",
        text(&out)
    );
}

#[test]
fn rtl_run_refuses_float_kernels_with_exit_2() {
    let out = weft(&["run", "kernels/micro/floatops.c", "--rtl"]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(t.contains("at 0x") && t.contains("RV32F"), "{t}");
    assert!(!t.contains("cycle"), "refused before any work: {t}");
    let out = weft(&["run", "kernels/micro/intops.c", "--rtl", "--machine", "lwm"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("not one (valid: simt_core_4x4, simt_core_2x2, simt_core_8x8)"),
        "{}",
        text(&out)
    );
}

/// The exported Verilog under Verilator (`--rtl-sim verilator`) runs the kernel in the
/// same cycles, with the same counts and bytes, as the rust-hdl simulation (byte and
/// halfword stores included); `--vcd` does not go with it (exit 2, no file written).
#[test]
fn rtl_run_under_verilator_equals_the_rust_hdl_simulation() {
    const LAUNCH: [&str; 11] = [
        "--threads",
        "8",
        "--cta",
        "4",
        "--json",
        "--dump",
        "out",
        "--dump",
        "bytes_out",
        "--dump",
        "halves_out",
    ];
    let kernel = "kernels/micro/intops.c";
    let args = |sim: &'static str| -> Vec<&'static str> {
        let rtl = [
            "run",
            kernel,
            "--rtl",
            "--rtl-sim",
            sim,
            "--machine",
            "simt_core_2x2",
        ];
        rtl.into_iter().chain(LAUNCH).collect()
    };
    let json = |sim| {
        let out = weft(&args(sim));
        assert!(out.status.success(), "{}", text(&out));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let rust = json("rust-hdl");
    let verilator = json("verilator");
    assert_eq!(rust["simulator"], "rust-hdl");
    assert_eq!(verilator["simulator"], "verilator");
    assert!(verilator["cycles"].as_u64().unwrap() > 0);
    for key in [
        "cycles",
        "warp_instructions",
        "thread_instructions",
        "line_requests",
        "cycles_by_state",
        "dumps",
    ] {
        assert_eq!(verilator[key], rust[key], "{key}");
    }
    let states = rust["cycles_by_state"].as_object().unwrap();
    let sum: u64 = states.values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(sum, rust["cycles"].as_u64().unwrap(), "{states:?}");
    assert_eq!(states["decode"], rust["warp_instructions"], "{states:?}");
    let functional: Vec<&str> = ["run", kernel, "--functional"]
        .into_iter()
        .chain(LAUNCH)
        .collect();
    let functional = weft(&functional);
    let functional: serde_json::Value = serde_json::from_slice(&functional.stdout).unwrap();
    assert_eq!(verilator["dumps"], functional["dumps"]);
    assert_eq!(verilator["dumps"].as_object().unwrap().len(), 3);

    let vcd = std::env::temp_dir().join(format!("weft-verilator-{}.vcd", std::process::id()));
    let mut with_vcd = args("verilator");
    let path = vcd.display().to_string();
    with_vcd.extend(["--vcd", path.as_str()]);
    let out = weft(&with_vcd);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("--vcd records the rust-hdl simulation"),
        "{}",
        text(&out)
    );
    assert!(!vcd.exists(), "refused before any work");
}
