//! The FPGA and ASIC flows end to end through the `weft` binary: the iCE40 harness,
//! synthesis, place and route and Fmax; the extended `weft area`; `weft report`, its
//! cache and its seed (the published report); the table `weft export` prints; the
//! messages for a design that does not fit and for a missing tool. Tests named `full_`
//! (place and route) form the full tier.
mod common;
use common::{scratch, text, weft};
use std::path::Path;
use std::process::{Command, Output};

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", text(out));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(out)))
}

/// Flip-flops of the harness: the input chain, the output register (outputs plus the
/// chain's far end) and one register per XOR level of four.
fn harness_flip_flops(inputs: u64, outputs: u64) -> u64 {
    let mut width = outputs + 1;
    let mut total = inputs + width;
    while width > 1 {
        width = width.div_ceil(4);
        total += width;
    }
    total
}

#[test]
fn full_fpga_places_and_routes_a_small_preset() {
    let out = weft(&["fpga", "sub_warp_unit_4x8", "--seeds", "2", "--json"]);
    let r = json(&out);
    // Ports of sub_warp_unit_4x8: reset, load, mask_in[32], mode[2] in; sub_valid,
    // sub_mask[4], sub_rows[12] (4 x 3-bit row numbers), last, stall out.
    assert_eq!(r["harness_input_bits"], 1 + 1 + 32 + 2);
    assert_eq!(r["harness_output_bits"], 1 + 4 + 12 + 1 + 1);
    assert_eq!(r["seeds"], serde_json::json!([1, 2]));
    let per_seed = r["fmax_per_seed_mhz"].as_array().unwrap();
    assert_eq!(per_seed.len(), 2);
    let fmax = r["fmax_median_mhz"].as_f64().unwrap();
    assert!(fmax > 10.0 && fmax < 1000.0, "Fmax {fmax} MHz");
    let mean = per_seed.iter().map(|f| f.as_f64().unwrap()).sum::<f64>() / 2.0;
    assert!(
        (fmax - mean).abs() < 1e-9,
        "median of two seeds is their mean"
    );
    assert!(r["does_not_fit"].is_null());
    let harness_ffs = r["harness"]["flip_flops"].as_u64().unwrap();
    assert_eq!(harness_ffs, harness_flip_flops(36, 19));
    // The block's own registers: the 32-bit mask copy and the 2-bit mode (SPEC §2.1).
    let total_ffs = r["total"]["flip_flops"].as_u64().unwrap();
    assert_eq!(total_ffs - harness_ffs, 32 + 2);
    let lcs = r["logic_cells"].as_u64().unwrap();
    let luts = r["total"]["luts"].as_u64().unwrap();
    assert!(
        lcs >= luts.max(total_ffs) && lcs <= luts + total_ffs && lcs <= 7680,
        "{lcs} logic cells for {luts} LUT4 and {total_ffs} flip-flops"
    );

    let human = weft(&["fpga", "sub_warp_unit_4x8", "--seeds", "1", "--freq", "50"]);
    let t = text(&human);
    assert!(human.status.success(), "{t}");
    assert!(
        t.contains("harness alone") && t.contains("Fmax") && t.contains("target 50 MHz"),
        "{t}"
    );
}

#[test]
fn full_a_preset_too_big_for_the_part_says_so_and_exits_cleanly() {
    // The 256-thread sub_warp_unit with its harness needs about 1 600 logic cells; an
    // iCE40HX1K has 1 280 (the big presets overflow an HX8K the same way, but their
    // synthesis takes minutes).
    let out = weft(&["fpga", "sub_warp_unit", "--device", "hx1k", "--seeds", "1"]);
    let t = text(&out);
    assert!(out.status.success(), "not fitting is a clean exit: {t}");
    let line = t
        .lines()
        .find(|l| l.contains("sub_warp_unit does not fit an iCE40HX1K-TQ144: "))
        .unwrap_or_else(|| panic!("{t}"));
    let needed: u64 = line
        .split(": ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(needed > 1280, "{line}");
    assert!(
        line.contains("logic cells needed, 1280 available"),
        "{line}"
    );
    assert!(!t.contains("Fmax"), "{t}");

    let out = weft(&[
        "fpga",
        "sub_warp_unit",
        "--device",
        "hx1k",
        "--seeds",
        "1",
        "--json",
    ]);
    let r = json(&out);
    assert!(r["fmax_median_mhz"].is_null() && r["fmax_per_seed_mhz"] == serde_json::json!([]));
    assert_eq!(r["logic_cells"], needed);
}

#[test]
fn missing_nextpnr_names_the_package() {
    let bin = scratch("nopnr");
    let yosys = std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|d| d.join("yosys"))
        .find(|p| p.is_file())
        .expect("yosys on PATH");
    std::os::unix::fs::symlink(&yosys, bin.join("yosys")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(["fpga", "sub_warp_unit_4x8"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("PATH", &bin)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let t = text(&out);
    assert!(
        t.contains("`nextpnr-ice40` not found") && t.contains("apt-get install -y nextpnr-ice40"),
        "{t}"
    );
}

/// Each bad option is refused by weft's own check (exit 1, not the argument parser's 2)
/// with the message that names it.
#[test]
fn bad_fpga_options_are_refused() {
    for (args, says) in [
        (
            &["fpga", "sub_warp_unit_4x8", "--seeds", "0"][..],
            "--seeds must be at least 1",
        ),
        // `--freq=-5`: as two words the parser would take `-5` for a flag.
        (
            &["fpga", "sub_warp_unit_4x8", "--freq=-5"],
            "--freq must be a positive number of MHz, got -5",
        ),
        (
            &["fpga", "sub_warp_unit_4x8", "--pnr-minutes", "0"],
            "--pnr-minutes must be at least 1",
        ),
        (
            &["fpga", "no_such_preset"],
            "unknown preset `no_such_preset`; valid presets: ",
        ),
        (
            &[
                "report",
                "--out",
                "target/never",
                "--synth-minutes",
                "0",
                "bbs",
            ],
            "--synth-minutes must be at least 1",
        ),
        (
            &["area", "--synth-minutes", "0", "bbs"],
            "--synth-minutes must be at least 1",
        ),
    ] {
        let out = weft(args);
        let t = text(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {t}");
        assert!(t.contains(&format!("weft: {says}")), "{args:?}: {t}");
    }
}

/// RAM bits of every `reg[hi:lo] name[a:b];` array of every instance in an exported
/// file (a merged module is declared once and instantiated many times: the elaborated
/// tree counts each instance).
fn declared_ram_bits(file: &Path, top: &str) -> u64 {
    let range = |r: &str| -> u64 {
        let (hi, lo) = r.trim_matches(['[', ']']).split_once(':').unwrap();
        hi.trim()
            .parse::<i64>()
            .unwrap()
            .abs_diff(lo.trim().parse().unwrap())
            + 1
    };
    let verilog = std::fs::read_to_string(file).unwrap();
    weft_flow::verilog::instance_tree(&verilog, top)
        .unwrap()
        .iter()
        .flat_map(|(_, text)| text.lines())
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("reg[")?;
            let (width, rest) = rest.split_once(']')?;
            let depth = rest.split_once('[')?.1.split_once(']')?.0;
            Some(range(width) * range(depth))
        })
        .sum()
}

#[test]
fn area_reports_ram_bits_gates_depth_and_xilinx_figures() {
    let out = weft(&["area", "--json", "sub_warp_unit_4x8", "cvt_8x256"]);
    let rows = json(&out);
    let rows = rows.as_array().unwrap();
    let swu = &rows[0];
    assert_eq!(swu["preset"], "sub_warp_unit_4x8");
    assert_eq!(swu["flip_flops"], 32 + 2);
    assert_eq!(swu["ram_bits"], 0);
    assert_eq!(swu["xilinx_ffs"], 32 + 2);
    let gates = swu["gates"].as_u64().unwrap();
    let depth = swu["logic_depth"].as_u64().unwrap();
    assert!(gates > 50 && depth >= 3 && depth < gates, "{swu}");
    assert!(swu["xilinx_luts"].as_u64().unwrap() > 0);

    let cvt = &rows[1];
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("verilog_out/cvt_8x256.v");
    let bits = declared_ram_bits(&file, "cvt_8x256");
    assert!(bits > 0, "cvt_8x256 has RAM widgets");
    assert_eq!(cvt["ram_bits"], bits);
    assert!(
        cvt["flip_flops"].as_u64().unwrap() < bits,
        "RAM contents are not counted as flip-flops: {cvt}"
    );
}

#[test]
fn full_report_writes_table_json_chart_and_reuses_its_cache() {
    let out_dir = scratch("report");
    let cache = out_dir.join("cache");
    // Progress lines: `[ i/n] preset   cached` or `[ i/n] preset   12.3 s  iCE40: ...`.
    let cached_lines = |t: &str| {
        t.lines()
            .filter(|l| l.starts_with('[') && l.trim_end().ends_with("cached"))
            .count()
    };
    let args = [
        "report",
        "--out",
        out_dir.to_str().unwrap(),
        "--cache",
        cache.to_str().unwrap(),
        "--seeds",
        "1",
        "round_robin_scheduler",
        "sub_warp_unit_4x8",
    ];
    let first = weft(&args);
    let t = text(&first);
    assert!(first.status.success(), "{t}");
    assert!(t.contains("[ 2/2]") && cached_lines(&t) == 0, "{t}");
    let md = std::fs::read_to_string(out_dir.join("report.md")).unwrap();
    let rows: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("report.json")).unwrap())
            .unwrap();
    let svg = std::fs::read_to_string(out_dir.join("report.svg")).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for r in rows {
        let name = r["preset"].as_str().unwrap();
        assert!(md.contains(&format!("| `{name}` |")), "{md}");
        assert!(svg.contains(name));
        let fmax = r["fpga"]["fmax_median_mhz"].as_f64().unwrap();
        assert!(md.contains(&format!("| {fmax:.1} |")), "{md}");
        // The cell-library columns: area, cells, critical path, Fmax on osu018.
        let asic = &r["asic"];
        assert_eq!(asic["library"], "osu018", "{r}");
        let (area, path) = (
            asic["area_um2"].as_f64().unwrap(),
            asic["critical_path_ns"].as_f64().unwrap(),
        );
        assert!(area > 0.0 && path > 0.0, "{r}");
        let cells = format!("| {area:.0} | {} | {path:.3} |", asic["cells"]);
        assert!(md.contains(&cells), "{cells} not in {md}");
        assert!(r["asic_key"].is_string(), "{r}");
    }
    assert!(
        md.contains("Typical corner, no wires, no placement"),
        "{md}"
    );
    assert_eq!(rows[1]["area"]["flip_flops"], 32 + 2);

    let second = weft(&args);
    let t = text(&second);
    assert!(second.status.success(), "{t}");
    assert_eq!(cached_lines(&t), 2, "{t}");
    let again = std::fs::read_to_string(out_dir.join("report.json")).unwrap();
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&again).unwrap(),
        serde_json::Value::Array(rows.clone())
    );
}

/// A Yosys run past the report's time limit is stopped and comes back as "stopped", not
/// as figures or an error; without a limit the same run gives its figures.
#[test]
fn a_synthesis_past_its_limit_is_stopped() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("verilog_out/bbs.v");
    let quick = std::time::Duration::from_millis(200);
    let stopped = weft_flow::area::area_within("bbs", &file, Some(quick));
    assert_eq!(stopped, Ok(None));
    let done = weft_flow::area::area_within("bbs", &file, None).unwrap();
    assert!(done.is_some_and(|a| a.cells > 0));
}

/// The published rows, by preset.
fn published() -> Vec<serde_json::Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(weft_flow::report::PUBLISHED);
    let rows: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    rows.as_array().unwrap().clone()
}

/// The key of a committed preset's Verilog under the published flow options.
fn current_key(name: &str) -> String {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("verilog_out/{name}.v"));
    let verilog = std::fs::read_to_string(file).unwrap();
    // Tests run from the package root, where the flow finds `constraints/`.
    let tools = weft_flow::report::tool_versions().unwrap();
    let options = weft_flow::fpga::FpgaOptions::published();
    weft_flow::report::key_of(name, &verilog, &options, &tools).unwrap()
}

/// A fresh clone knows every published figure: `weft export` prints the published row of
/// each preset whose Verilog is unchanged, without running the flow for it.
#[test]
fn export_prints_the_published_figures_of_unchanged_presets() {
    let dir = scratch("export-table");
    let out = weft(&["export", "--out", dir.to_str().unwrap()]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    let mut compared = 0;
    for row in published() {
        let name = row["preset"].as_str().unwrap();
        if row["key"] != current_key(name).as_str() {
            continue;
        }
        let Some(area) = row["area"].as_object() else {
            continue;
        };
        compared += 1;
        let line = t
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no line for {name}: {t}"));
        let figures: Vec<&str> = line.split_whitespace().skip(1).take(3).collect();
        assert_eq!(
            figures,
            [
                area["cells"].to_string(),
                area["flip_flops"].to_string(),
                area["ram_bits"].to_string()
            ],
            "{line}"
        );
        assert!(
            !t.contains(&format!("area {name} ")),
            "{name} was measured again: {t}"
        );
    }
    assert!(
        compared > 0,
        "sub_warp_unit_4x8 at least is unchanged and has its area"
    );
}

/// `weft report` with the published options takes an unchanged preset's row from the
/// published report: nothing runs, and the row written is the published one.
#[test]
fn report_starts_from_the_published_rows() {
    let name = "sub_warp_unit_4x8";
    let row = published()
        .into_iter()
        .find(|r| r["preset"] == name)
        .unwrap();
    assert_eq!(
        row["key"],
        current_key(name).as_str(),
        "{name} changed: republish it"
    );
    let out_dir = scratch("report-seed");
    let cache = out_dir.join("cache");
    let out = weft(&[
        "report",
        "--out",
        out_dir.to_str().unwrap(),
        "--cache",
        cache.to_str().unwrap(),
        name,
    ]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(
        t.contains("[ 1/1] sub_warp_unit_4x8") && t.contains("cached"),
        "{t}"
    );
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("report.json")).unwrap())
            .unwrap();
    assert_eq!(written, serde_json::Value::Array(vec![row]));
}

/// The export's table for presets with no known figures: a small one is measured on the
/// spot, a large one is named with the command that measures it.
#[test]
fn a_changed_preset_is_measured_if_small_and_deferred_if_large() {
    let verilog = "module weft_probe(clock, a, b, y);\n  input wire clock;\n  input wire [3:0] a;\n  input wire [3:0] b;\n  output reg [3:0] y;\n  always @(posedge clock) y <= a & b;\nendmodule\n";
    let known = weft_flow::report::Known {
        cache: None,
        published: None,
    };
    let options = weft_flow::fpga::FpgaOptions::published();
    let small = weft_flow::report::Overview::default();
    let measured =
        weft_flow::report::overview(&[("weft_probe", verilog)], &options, &known, small).unwrap();
    let large = weft_flow::report::Overview {
        small_bytes: 10,
        ..small
    };
    let deferred =
        weft_flow::report::overview(&[("weft_probe", verilog)], &options, &known, large).unwrap();
    let line = measured
        .lines()
        .find(|l| l.starts_with("weft_probe "))
        .unwrap_or_else(|| panic!("{measured}"));
    let figures: Vec<&str> = line.split_whitespace().skip(1).take(2).collect();
    assert_eq!(
        figures,
        ["8", "4"],
        "four AND gates and four flip-flops: {line}"
    );
    assert!(line.contains("run `weft report weft_probe`"), "{line}");
    assert!(
        deferred.contains(
            "weft_probe: changed since its figures; `cargo run --release -- report weft_probe` measures it (never measured)"
        ),
        "{deferred}"
    );
}

/// One small preset through the whole ASIC flow: mapped to OSU 0.18 µm cells (the same
/// flip-flops as the generic synthesis), timed by OpenSTA against the committed SDC, with
/// the figures the published report holds for it; the 0.35 µm library gives a larger and
/// slower block.
#[test]
fn the_asic_flow_maps_a_preset_to_cells_and_times_it() {
    let name = "sub_warp_unit_4x8";
    let figures = |library: &str| {
        let rows = json(&weft(&["area", "--json", "--asic", library, name]));
        rows[0].clone()
    };
    let row = figures("osu018");
    let asic = &row["asic"];
    assert_eq!(asic["library"], "osu018", "{row}");
    assert_eq!(asic["flip_flops"], row["flip_flops"], "{row}");
    let area = asic["area_um2"].as_f64().unwrap();
    let path = asic["critical_path_ns"].as_f64().unwrap();
    assert!(area > 0.0 && asic["cells"].as_u64().unwrap() > 0, "{row}");
    assert!(path > 0.1 && path < 10.0, "{row}");
    // The published report's figures for this preset, measured when it was published
    // under the same ASIC key (Verilog, scripts, library, SDC, tool versions): this run
    // must reproduce every one, area, cells, path and Fmax.
    let published_row = published()
        .into_iter()
        .find(|r| r["preset"] == name)
        .unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let verilog = std::fs::read_to_string(root.join(format!("verilog_out/{name}.v"))).unwrap();
    let identity = weft_flow::asic::flow_identity(
        name,
        weft_flow::asic::OSU018,
        &root.join("constraints/weft.sdc"),
    )
    .unwrap();
    assert_eq!(
        published_row["asic_key"],
        weft_flow::report::cache_key(&[&verilog, &identity]).as_str(),
        "{name}'s ASIC flow changed: republish the report"
    );
    assert_eq!(*asic, published_row["asic"], "{row}");
    let coarse = figures("osu035");
    let coarse = &coarse["asic"];
    assert!(
        coarse["area_um2"].as_f64().unwrap() > 2.0 * area,
        "{coarse}"
    );
    assert!(
        coarse["critical_path_ns"].as_f64().unwrap() > path,
        "{coarse}"
    );
}

/// The flow's secant search for the shortest period finds bisection's to the
/// picosecond, on mapped presets whose worst paths start and end at flip-flops, ports
/// or both (`capri_decision` has no flip-flop: input to output, 0.6 of the period).
#[test]
fn the_secant_period_search_finds_bisections_period() {
    use weft_flow::asic::{self, PeriodSearch, OSU018};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sdc = root.join("constraints/weft.sdc");
    let liberty = std::fs::canonicalize(OSU018.find().unwrap()).unwrap();
    for name in ["sub_warp_unit_4x8", "capri_decision", "two_level_scheduler"] {
        let dir = scratch(&format!("period-{name}"));
        let file = root.join(format!("verilog_out/{name}.v"));
        let mode = weft_flow::verilog::Synthesis::Auto;
        let figures = asic::asic_figures(name, &file, OSU018, &sdc, &dir, None, mode)
            .unwrap()
            .unwrap();
        let netlist = dir.join(format!("{name}.osu018.v"));
        let search = |s| asic::min_period(name, &liberty, None, &netlist, &sdc, &dir, s).unwrap();
        let secant = search(PeriodSearch::Secant).unwrap();
        let bisected = search(PeriodSearch::Bisection).unwrap();
        assert_eq!(figures.critical_path_ns, Some(secant), "{name}");
        assert!(
            (secant - bisected).abs() <= 0.001,
            "{name}: secant {secant} ns, bisection {bisected} ns"
        );
    }
}

/// Memories are macros in the cell-library flow: `lvc_4k`'s four banks each hold a data,
/// a tag and two flag RAMs (16 macros), its mapped flip-flops are the design's own (the
/// RAM bits are not built from flip-flops), and its paths into and out of a memory are
/// timed: a design whose only logic runs from its inputs to a RAM's address and from
/// the RAM's word to its outputs has a critical path, longer than its XOR chain's.
#[test]
fn memories_are_macros_timed_at_their_ports() {
    let rows = json(&weft(&["area", "--json", "lvc_4k"]));
    let row = &rows[0];
    let asic = &row["asic"];
    assert_eq!(asic["memory_macros"], 16, "{row}");
    assert_eq!(asic["flip_flops"], row["flip_flops"], "{row}");
    assert!(row["ram_bits"].as_u64().unwrap() > 30_000, "{row}");
    // rust-hdl's RAM, written as the exporter writes it, behind a chain of 12 XORs.
    let chain: Vec<String> = (0..12).map(|i| format!("x[{i}]")).collect();
    let verilog = format!(
        "module top(clock,x,y);\n    input wire clock;\n    input wire [11:0] x;\n    output wire [7:0] y;\n\
         \n    top$ram ram(\n        .read_address({{x[11:1], {}}}),\n        .read_clock(clock),\n        .read_data(y),\n        .write_address(x),\n        .write_clock(clock),\n        .write_data(x[7:0]),\n        .write_enable(x[0])\n    );\nendmodule\n\n\n\
         module top$ram(read_address,read_clock,read_data,write_address,write_clock,write_data,write_enable);\n\n    // Module arguments\n    input wire  [11:0] read_address;\n    input wire  read_clock;\n    output reg  [7:0] read_data;\n    input wire  [11:0] write_address;\n    input wire  write_clock;\n    input wire  [7:0] write_data;\n    input wire  write_enable;\n\n    // Update code (custom)\n    reg[7:0] mem[4095:0];\n\n\n\n    always @(posedge read_clock) begin\n       read_data <= mem[read_address];\n    end\n\n    always @(posedge write_clock) begin\n       if (write_enable) begin\n          mem[write_address] <= write_data;\n       end\n    end\n\nendmodule // top$ram\n",
        chain.join(" ^ ")
    );
    assert_eq!(weft_flow::verilog::memories(&verilog).len(), 1);
    let dir = scratch("memory-macro");
    let file = dir.join("top.v");
    std::fs::write(&file, &verilog).unwrap();
    let sdc = Path::new(env!("CARGO_MANIFEST_DIR")).join("constraints/weft.sdc");
    let mode = weft_flow::verilog::Synthesis::Auto;
    let osu018 = weft_flow::asic::OSU018;
    let figures = weft_flow::asic::asic_figures("top", &file, osu018, &sdc, &dir, None, mode)
        .unwrap()
        .unwrap();
    assert_eq!(
        (figures.memory_macros, figures.flip_flops),
        (1, 0),
        "{figures:?}"
    );
    // Four levels of 2-input XORs at least, in 0.8 of the period (the input's budget).
    let path = figures.critical_path_ns.expect("the RAM's ports are timed");
    assert!(path > 0.4, "{figures:?}");
}

/// Without the cell library the other figures still print, and the message names the
/// commands that fetch it.
#[test]
fn a_missing_cell_library_is_named_and_the_other_figures_still_print() {
    let dir = scratch("no-library");
    let verilog = Path::new(env!("CARGO_MANIFEST_DIR")).join("verilog_out");
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args([
            "area",
            "--json",
            "--dir",
            verilog.to_str().unwrap(),
            "capri_decision",
        ])
        .current_dir(&dir)
        .output()
        .unwrap();
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(
        t.contains("cell library is missing") && t.contains("apt-get download qflow-tech-osu018"),
        "{t}"
    );
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rows[0]["flip_flops"], 0, "{rows}");
    assert!(rows[0].get("asic").is_none(), "{rows}");
}

/// Hierarchical synthesis of two copies of a block whose outputs are registered and fed
/// back into each other: the depth is the block's own (each a chain of 12 XORs), as flat,
/// not a path through the kept blocks taken for gates (which loop); the other figures
/// are the flat ones summed over the copies.
#[test]
fn a_kept_block_is_timed_inside_not_through() {
    // rust-hdl's shape: one port per line, instances as `module name(`.
    let pad = "    wire unused_pad;\n".repeat(weft_flow::verilog::FORCED_BLOCK_LINES);
    let chain: Vec<String> = (0..12).map(|i| format!("a[{i}]")).collect();
    let verilog = format!(
        "module top(clock,x,y);\n    input wire clock;\n    input wire [11:0] x;\n    output wire [1:0] y;\n    wire [1:0] q;\n\
         \n    top$blk b$0(\n        .clock(clock),\n        .a(x ^ {{12{{q[1]}}}}),\n        .y(q[0])\n    );\n\
         \n    top$blk b$1(\n        .clock(clock),\n        .a(x ^ {{12{{q[0]}}}}),\n        .y(q[1])\n    );\n\
         \n    assign y = q;\nendmodule\n\n\n\
         module top$blk(clock,a,y);\n    input wire clock;\n    input wire [11:0] a;\n    output reg y;\n{pad}\
         \n    always @(posedge clock) y <= {};\nendmodule\n",
        chain.join(" ^ ")
    );
    let dir = scratch("kept-block-depth");
    let file = dir.join("top.v");
    std::fs::write(&file, &verilog).unwrap();
    use weft_flow::verilog::Synthesis;
    assert_eq!(
        weft_flow::verilog::blocks_for(&verilog, "top", Synthesis::Hierarchical),
        [("top$blk".to_string(), 2)]
    );
    let area = |mode| {
        weft_flow::area::area_as("top", &file, None, mode)
            .unwrap()
            .unwrap()
    };
    let (flat, kept) = (area(Synthesis::Flat), area(Synthesis::Hierarchical));
    assert_eq!(kept.logic_depth, flat.logic_depth, "{kept:?}\n{flat:?}");
    assert!(
        flat.logic_depth >= 4,
        "12 XORs need 4 levels of 2-input gates: {flat:?}"
    );
    assert_eq!(kept.flip_flops, 2);
    // Flat, Yosys shares the parity of `x` between the copies: kept apart, it cannot.
    assert!(kept.gates > flat.gates, "{kept:?}\n{flat:?}");
}
