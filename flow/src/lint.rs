//! `weft lint`: the export gate. Yosys (`hierarchy -check; proc; check`, any latch is
//! an error) and `verilator --lint-only -Wall` with the committed waiver file
//! `lint/verilator_waivers.vlt`.
use crate::tools::{transcript, VERILATOR, YOSYS};
use std::path::{Path, PathBuf};

/// The waiver file, relative to the project root.
pub const WAIVERS: &str = "lint/verilator_waivers.vlt";

/// Lints one exported file; `Err` carries every finding.
pub fn lint_file(name: &str, file: &Path, waivers: &Path) -> Result<(), String> {
    let file_s = file.display().to_string();
    let script = format!(
        "read_verilog {file_s}; hierarchy -check -top {name}; proc; check -assert; \
         select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$_DLATCH_* t:$_DLATCHSR_*"
    );
    let dir = std::env::current_dir().map_err(|e| e.to_string())?;
    let y = YOSYS.run(&["-q", "-p", &script], &dir)?;
    let mut findings = vec![];
    if !y.status.success() {
        findings.push(format!("yosys:\n{}", transcript(&y)));
    }
    let waivers_s = waivers.display().to_string();
    let v = VERILATOR.run(
        &[
            "--lint-only",
            "-Wall",
            "--top-module",
            name,
            &waivers_s,
            &file_s,
        ],
        &dir,
    )?;
    let v_text = transcript(&v);
    if !v.status.success() || v_text.contains("%Warning") || v_text.contains("%Error") {
        findings.push(format!("verilator:\n{v_text}"));
    }
    if findings.is_empty() {
        Ok(())
    } else {
        Err(findings.join("\n"))
    }
}

/// Lints every design, printing `lint ok` or `lint FAIL` with the findings for each;
/// `Err` names the designs with findings.
pub fn lint_all(designs: &[(&str, &Path)], waivers: &Path) -> Result<(), String> {
    if !waivers.is_file() {
        return Err(format!(
            "waiver file {} not found; run weft from the project root",
            waivers.display()
        ));
    }
    let mut failed = vec![];
    for (name, file) in designs {
        match lint_file(name, file, waivers) {
            Ok(()) => println!("lint ok   {name}"),
            Err(findings) => {
                println!("lint FAIL {name}\n{findings}");
                failed.push(*name);
            }
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("lint findings in: {}", failed.join(", ")))
    }
}

/// The committed waiver file, wherever the tests run from.
pub fn committed_waivers() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(WAIVERS)
}

/// Lints rust-hdl's Verilog of any block (top module `top`) with the same gate as
/// `weft lint`, so parameter sets that are not exported are held to it too. Panics
/// with every finding: for tests.
pub fn assert_lints_clean(what: &str, verilog: &str) {
    let dir = std::env::temp_dir().join(format!(
        "weft-lint-{}-{}-{what}",
        std::process::id(),
        std::thread::current()
            .name()
            .unwrap_or("main")
            .replace("::", "-")
    ));
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    let file = dir.join("top.v");
    std::fs::write(&file, verilog)
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", file.display()));
    let result = lint_file("top", &file, &committed_waivers());
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(findings) = result {
        panic!("lint of {what}:\n{findings}");
    }
}
