//! Co-simulation replay: the ports recorded from the Rust simulation (a vector file:
//! a `# names` header, then one line per cycle of every input then every output,
//! MSB-first binary) are replayed on the exported Verilog under Icarus and Verilator;
//! every output is compared every cycle.
//!
//! The generated testbench (Verilog for Icarus, a C++ harness for Verilator) reads one
//! vector line per cycle, applies the inputs with the clock low, compares every output
//! once they settle, then raises the clock: the same order as the Rust runner. A mismatch prints
//! `MISMATCH cycle=<n> signal=<name> expected=<hex> got=<hex>`; the end prints
//! `COSIM cycles=<n> mismatches=<m>`.
use crate::tools::{transcript, IVERILOG, VERILATOR, VVP};
use crate::verilog::Port;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

/// The simulators weft co-simulates on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Simulator {
    Icarus,
    Verilator,
}

impl Simulator {
    pub fn name(&self) -> &'static str {
        match self {
            Simulator::Icarus => "iverilog",
            Simulator::Verilator => "verilator",
        }
    }

    /// The tool that builds the replay.
    pub fn tool(&self) -> crate::tools::Tool {
        match self {
            Simulator::Icarus => IVERILOG,
            Simulator::Verilator => VERILATOR,
        }
    }
}

/// What one replay found.
#[derive(Clone, Debug)]
pub struct CosimReport {
    pub simulator: Simulator,
    pub cycles: u64,
    pub mismatches: u64,
    /// The first mismatch lines the testbench printed.
    pub first_mismatches: Vec<String>,
    /// Time spent simulating (build excluded).
    pub seconds: f64,
}

/// Writes the replay testbench for `top` with `ports` (vector-file order). The
/// testbench's own names start with `weft_` so that no port name can clash with them.
pub fn testbench(top: &str, clocked: bool, ports: &[Port], vectors: &str) -> String {
    let decl = |w: usize| {
        if w > 1 {
            format!("[{}:0] ", w - 1)
        } else {
            String::new()
        }
    };
    let mut tb = String::new();
    let _ = writeln!(
        tb,
        "// Replays vectors recorded from weft's Rust simulation on `{top}`."
    );
    let _ = writeln!(tb, "`timescale 1ns/1ps");
    let _ = writeln!(tb, "module weft_cosim;");
    let _ = writeln!(tb, "  reg clock = 1'b0;");
    for p in ports {
        if p.input {
            let _ = writeln!(tb, "  reg {}{} = 0;", decl(p.width), p.name);
        } else {
            let _ = writeln!(tb, "  wire {}{};", decl(p.width), p.name);
            let _ = writeln!(tb, "  reg {}weft_expected_{};", decl(p.width), p.name);
        }
    }
    let _ = writeln!(
        tb,
        "  integer weft_fd, weft_got, weft_cycle, weft_mismatches, weft_done;"
    );
    let _ = writeln!(tb, "  reg [8*4096-1:0] weft_header;");
    // A combinational block has no clock port; the testbench clock then only paces
    // the replay.
    let clock_conn = clocked.then(|| ".clock(clock)".to_string());
    let conns: Vec<String> = clock_conn
        .into_iter()
        .chain(ports.iter().map(|p| format!(".{0}({0})", p.name)))
        .collect();
    let _ = writeln!(tb, "  {top} dut({});", conns.join(", "));
    let _ = writeln!(tb, "  initial begin");
    let _ = writeln!(tb, "    weft_fd = $fopen(\"{vectors}\", \"r\");");
    let _ = writeln!(
        tb,
        "    if (weft_fd == 0) begin $display(\"COSIM error: cannot open {vectors}\"); $finish; end"
    );
    let _ = writeln!(
        tb,
        "    weft_got = $fgets(weft_header, weft_fd); // header line"
    );
    let _ = writeln!(
        tb,
        "    weft_cycle = 0; weft_mismatches = 0; weft_done = 0;"
    );
    let targets: Vec<String> = ports
        .iter()
        .map(|p| {
            if p.input {
                p.name.clone()
            } else {
                format!("weft_expected_{}", p.name)
            }
        })
        .collect();
    let fmt = vec!["%b"; ports.len()].join(" ");
    let _ = writeln!(tb, "    while (weft_done == 0) begin");
    let _ = writeln!(
        tb,
        "      weft_got = $fscanf(weft_fd, \"{fmt}\\n\", {});",
        targets.join(", ")
    );
    let _ = writeln!(tb, "      if (weft_got != {}) weft_done = 1;", ports.len());
    let _ = writeln!(tb, "      else begin");
    let _ = writeln!(tb, "        clock = 1'b0;");
    let _ = writeln!(tb, "        #5;");
    for p in ports.iter().filter(|p| !p.input) {
        let _ = writeln!(tb, "        if ({0} !== weft_expected_{0}) begin", p.name);
        let _ = writeln!(tb, "          weft_mismatches = weft_mismatches + 1;");
        let _ = writeln!(
            tb,
            "          if (weft_mismatches <= 10) $display(\"MISMATCH cycle=%0d signal={0} expected=%h got=%h\", weft_cycle, weft_expected_{0}, {0});",
            p.name
        );
        let _ = writeln!(tb, "        end");
    }
    let _ = writeln!(tb, "        clock = 1'b1;");
    let _ = writeln!(tb, "        #5;");
    let _ = writeln!(tb, "        weft_cycle = weft_cycle + 1;");
    let _ = writeln!(tb, "      end");
    let _ = writeln!(tb, "    end");
    let _ = writeln!(
        tb,
        "    $display(\"COSIM cycles=%0d mismatches=%0d\", weft_cycle, weft_mismatches);"
    );
    let _ = writeln!(tb, "    $finish;");
    let _ = writeln!(tb, "  end");
    let _ = writeln!(tb, "endmodule");
    tb
}

/// Writes the Verilator replay harness (C++): the same cycle order as the Verilog
/// testbench, with the clock driven from C++ so no timing support is needed.
pub fn verilator_harness(clocked: bool, ports: &[Port], vectors: &str) -> String {
    let mut h = String::new();
    let _ = writeln!(
        h,
        "// Replays vectors recorded from weft's Rust simulation under Verilator."
    );
    let _ = writeln!(h, "#define WEFT_CLOCKED {}", u8::from(clocked));
    h.push_str(HARNESS_PRELUDE);
    let _ = writeln!(h, "static void apply(Vdut* top, char** tok) {{");
    for (i, p) in ports.iter().enumerate().filter(|(_, p)| p.input) {
        let _ = writeln!(
            h,
            "  set_port(top->{}, tok[{i}], {});",
            verilator_member(&p.name),
            p.width
        );
    }
    let _ = writeln!(h, "}}");
    let _ = writeln!(
        h,
        "static void compare(Vdut* top, char** tok, unsigned long cycle) {{"
    );
    for (i, p) in ports.iter().enumerate().filter(|(_, p)| !p.input) {
        let _ = writeln!(
            h,
            "  check(cycle, \"{0}\", port_bits(top->{2}, {1}), tok[{i}]);",
            p.name,
            p.width,
            verilator_member(&p.name)
        );
    }
    let _ = writeln!(h, "}}");
    let _ = writeln!(h, "static const int PORTS = {};", ports.len());
    let _ = writeln!(h, "static const char* VECTORS = \"{vectors}\";");
    h.push_str(HARNESS_MAIN);
    h
}

const HARNESS_PRELUDE: &str = r#"#include "Vdut.h"
#include "verilated.h"
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <string>
static unsigned long mismatches = 0;
static void set_clock(Vdut* top, int level) {
#if WEFT_CLOCKED
    top->clock = level;
#else
    (void)top;
    (void)level;
#endif
}
template <class T> static void set_port(T& port, const char* s, int width) {
    uint64_t v = 0;
    for (int i = 0; i < width; i++) v = (v << 1) | (uint64_t)(s[i] == '1');
    port = (T)v;
}
template <std::size_t W> static void set_port(VlWide<W>& port, const char* s, int width) {
    for (std::size_t w = 0; w < W; w++) port[w] = 0;
    for (int b = 0; b < width; b++)
        if (s[width - 1 - b] == '1') port[b / 32] |= 1u << (b % 32);
}
template <class T> static std::string port_bits(const T& port, int width) {
    std::string s(width, '0');
    for (int b = 0; b < width; b++)
        if (((uint64_t)port >> b) & 1) s[width - 1 - b] = '1';
    return s;
}
template <std::size_t W> static std::string port_bits(const VlWide<W>& port, int width) {
    std::string s(width, '0');
    for (int b = 0; b < width; b++)
        if ((port[b / 32] >> (b % 32)) & 1) s[width - 1 - b] = '1';
    return s;
}
static std::string hex(const std::string& bin) {
    std::string out;
    int lead = bin.size() % 4;
    for (size_t i = 0; i < bin.size();) {
        int n = (i == 0 && lead) ? lead : 4, v = 0;
        for (int k = 0; k < n; k++) v = v * 2 + (bin[i + k] == '1');
        out.push_back("0123456789abcdef"[v]);
        i += n;
    }
    return out;
}
static void check(unsigned long cycle, const char* name, const std::string& got, const char* want) {
    if (got != want) {
        mismatches++;
        if (mismatches <= 10)
            printf("MISMATCH cycle=%lu signal=%s expected=%s got=%s\n", cycle, name, hex(want).c_str(), hex(got).c_str());
    }
}
"#;

const HARNESS_MAIN: &str = r#"int main(int argc, char** argv) {
    Verilated::commandArgs(argc, argv);
    Vdut* top = new Vdut;
    FILE* f = fopen(VECTORS, "r");
    if (!f) { printf("COSIM error: cannot open %s\n", VECTORS); return 1; }
    static char line[1 << 20];
    char* tok[4096];
    unsigned long cycle = 0;
    set_clock(top, 0);
    top->eval();
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        int n = 0;
        for (char* t = strtok(line, " \n"); t && n < 4096; t = strtok(nullptr, " \n")) tok[n++] = t;
        if (n != PORTS) break;
        set_clock(top, 0);
        apply(top, tok);
        top->eval();
        compare(top, tok, cycle);
        set_clock(top, 1);
        top->eval();
        cycle++;
    }
    printf("COSIM cycles=%lu mismatches=%lu\n", cycle, mismatches);
    top->final();
    delete top;
    return 0;
}
"#;

/// Builds and runs the replay in `dir`, which holds `dut.v` (top `top`), `tb.v`,
/// `harness.cpp` and the vectors.
pub fn replay(simulator: Simulator, top: &str, dir: &Path) -> Result<CosimReport, String> {
    let output = match simulator {
        Simulator::Icarus => {
            let build = IVERILOG.run(
                &[
                    "-g2012",
                    "-o",
                    "cosim.vvp",
                    "-s",
                    "weft_cosim",
                    "tb.v",
                    "dut.v",
                ],
                dir,
            )?;
            if !build.status.success() {
                return Err(format!(
                    "iverilog failed to build the replay:\n{}",
                    transcript(&build)
                ));
            }
            let start = Instant::now();
            let out = VVP.run(&["-n", "cosim.vvp"], dir)?;
            (out, start.elapsed().as_secs_f64())
        }
        Simulator::Verilator => {
            verilator_build(dir, top, "obj_verilator", "cosim", "the replay")?;
            let start = Instant::now();
            let exe = dir.join("obj_verilator").join("cosim");
            let out = std::process::Command::new(&exe)
                .current_dir(dir)
                .output()
                .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
            (out, start.elapsed().as_secs_f64())
        }
    };
    let (out, seconds) = output;
    let text = transcript(&out);
    let summary = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("COSIM cycles="))
        .ok_or_else(|| format!("{} printed no COSIM summary:\n{text}", simulator.name()))?;
    let (cycles, mismatches) = summary
        .split_once(" mismatches=")
        .and_then(|(c, m)| Some((c.trim().parse().ok()?, m.trim().parse().ok()?)))
        .ok_or_else(|| format!("malformed COSIM summary `{summary}`"))?;
    Ok(CosimReport {
        simulator,
        cycles,
        mismatches,
        first_mismatches: text
            .lines()
            .filter(|l| l.contains("MISMATCH"))
            .map(str::to_string)
            .collect(),
        seconds,
    })
}

/// Builds `dut.v` (top `top`, C++ class `Vdut`) with `harness.cpp` in `dir` under
/// Verilator into `dir/obj/exe`; `what` names it in an error.
pub fn verilator_build(
    dir: &Path,
    top: &str,
    obj: &str,
    exe: &str,
    what: &str,
) -> Result<(), String> {
    let build = VERILATOR.run(
        &[
            "--cc",
            "--exe",
            "--build",
            "-j",
            "2",
            "-O2",
            "-Wno-fatal",
            "-Wno-lint",
            "-Wno-style",
            "--top-module",
            top,
            "--prefix",
            "Vdut",
            "-Mdir",
            obj,
            "-o",
            exe,
            "dut.v",
            "harness.cpp",
        ],
        dir,
    )?;
    if !build.status.success() {
        return Err(format!(
            "verilator failed to build {what} (in {}):\n{}",
            dir.display(),
            transcript(&build)
        ));
    }
    Ok(())
}

/// Verilator's C++ member for a Verilog port: characters C++ identifiers cannot hold
/// become `__0XX` (hex code), so rust-hdl's array ports `x$3` are `x__0243`.
fn verilator_member(port: &str) -> String {
    port.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c.to_string()
            } else {
                format!("__0{:x}", c as u32)
            }
        })
        .collect()
}
