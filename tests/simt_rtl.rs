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
        text(&out).contains("not one (valid: simt_core_4x4, simt_core_2x2)"),
        "{}",
        text(&out)
    );
}
