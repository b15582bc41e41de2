//! The export gate (`weft lint`, `weft_flow::lint`) refuses what it is there to refuse.
//! Every exported preset passing it (tests/cli.rs) shows nothing unless the gate can
//! fail: here it is fed small planted modules, a latch, a latch hidden from Verilator
//! (so that Yosys's own latch check is seen to work, not masked by Verilator's), a
//! width mismatch and a clean module, and each finding must name its problem.
mod common;
use common::scratch;
use std::path::Path;
use std::process::Command;
use weft_flow::lint::{committed_waivers, lint_file};

/// Writes `verilog` as `<module>.v` (Verilator's DECLFILENAME wants the file named after
/// the module) and runs the gate on it.
fn gate(module: &str, verilog: &str) -> Result<(), String> {
    let dir = scratch(module);
    let file = dir.join(format!("{module}.v"));
    std::fs::write(&file, verilog).unwrap();
    let result = lint_file(module, &file, &committed_waivers());
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// The findings of one tool (`yosys` or `verilator`), if it reported any: the gate
/// writes Yosys's section first, then Verilator's, each under the tool's name.
fn section<'a>(findings: &'a str, tool: &str) -> Option<&'a str> {
    let at = findings.find("verilator:\n").unwrap_or(findings.len());
    let (yosys, verilator) = findings.split_at(at);
    let part = if tool == "yosys" { yosys } else { verilator };
    part.starts_with(&format!("{tool}:\n")).then_some(part)
}

/// `q` keeps its value when `en` is low: a latch.
fn latch(module: &str, hidden_from_verilator: bool) -> String {
    let (off, on) = if hidden_from_verilator {
        (
            "  /* verilator lint_off LATCH */\n",
            "  /* verilator lint_on LATCH */\n",
        )
    } else {
        ("", "")
    };
    format!(
        "module {module}(input wire en, input wire [7:0] d, output reg [7:0] q);\n\
         {off}  always @(*) begin\n    if (en) q = d;\n  end\n{on}endmodule\n"
    )
}

/// An 8-bit sum assigned to a 4-bit output.
const WIDTH: &str =
    "module width_mismatch(input wire [7:0] a, input wire [7:0] b, output wire [3:0] y);
  assign y = a + b;
endmodule
";

/// A register with a synchronous reset: every bit used, every path assigned.
fn clean(module: &str) -> String {
    format!(
        "module {module}(input wire clk, input wire rst, input wire [7:0] d, output reg [7:0] q);
  always @(posedge clk) begin
    if (rst) q <= 8'd0;
    else q <= d;
  end
endmodule
"
    )
}

#[test]
fn a_clean_module_passes_the_gate() {
    if let Err(findings) = gate("clean", &clean("clean")) {
        panic!("a clean module is refused:\n{findings}");
    }
}

#[test]
fn a_latch_is_refused_by_both_tools() {
    let findings = gate("latch", &latch("latch", false)).expect_err("a latch passes the gate");
    let yosys = section(&findings, "yosys").unwrap_or_else(|| panic!("{findings}"));
    assert!(
        yosys.contains("selection is not empty") && yosys.contains("dlatch"),
        "Yosys does not name the latch cell:\n{findings}"
    );
    let verilator = section(&findings, "verilator").unwrap_or_else(|| panic!("{findings}"));
    assert!(
        verilator.contains("%Warning-LATCH") && verilator.contains("signal 'q'"),
        "Verilator does not name the latch:\n{findings}"
    );
}

/// Yosys's latch check stands on its own: with Verilator's warning waived in the source,
/// the latch is still refused, by Yosys alone.
#[test]
fn a_latch_hidden_from_verilator_is_refused_by_yosys() {
    let findings =
        gate("hidden_latch", &latch("hidden_latch", true)).expect_err("a latch passes the gate");
    let yosys = section(&findings, "yosys").unwrap_or_else(|| panic!("{findings}"));
    assert!(
        yosys.contains("dlatch"),
        "Yosys does not name the latch cell:\n{findings}"
    );
    assert!(
        section(&findings, "verilator").is_none(),
        "the waiver should leave Verilator quiet:\n{findings}"
    );
}

/// Yosys accepts a truncating assignment; Verilator's `-Wall` is what refuses it.
#[test]
fn a_width_mismatch_is_refused_by_verilator() {
    let findings = gate("width_mismatch", WIDTH).expect_err("a width mismatch passes the gate");
    assert!(section(&findings, "yosys").is_none(), "{findings}");
    let verilator = section(&findings, "verilator").unwrap_or_else(|| panic!("{findings}"));
    // WIDTH in Verilator 5.006; later versions split it into WIDTHTRUNC and WIDTHEXPAND.
    assert!(
        verilator.contains("%Warning-WIDTH") && verilator.contains("expects 4 bits"),
        "Verilator does not name the width mismatch:\n{findings}"
    );
}

/// `weft lint` as users run it: a planted file in place of an exported preset makes it
/// print the finding, name the preset and exit non-zero; a clean one passes.
#[test]
fn weft_lint_exits_non_zero_on_a_planted_latch() {
    let preset = "sub_warp_unit_4x8";
    let run = |verilog: &str| {
        let dir = scratch("cli");
        std::fs::write(dir.join(format!("{preset}.v")), verilog).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_weft"))
            .args(["lint", "--dir", dir.to_str().unwrap(), preset])
            // The waiver file is found from the project root, as `weft lint` is run.
            .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
            .output()
            .expect("weft runs");
        let _ = std::fs::remove_dir_all(&dir);
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.success(), text)
    };
    let (ok, t) = run(&latch(preset, false));
    assert!(!ok, "{t}");
    assert!(
        t.contains(&format!("lint FAIL {preset}"))
            && t.contains(&format!("lint findings in: {preset}"))
            && t.contains("dlatch")
            && t.contains("%Warning-LATCH"),
        "{t}"
    );
    let (ok, t) = run(&clean(preset));
    assert!(ok && t.contains(&format!("lint ok   {preset}")), "{t}");
}
