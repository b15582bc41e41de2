//! The `weft` command as a user meets it: bad input gets a clear message and a
//! non-zero exit, `verilog_out/` is what the exporter writes, every preset lints and
//! co-simulates with zero mismatches, and the VCD reads back. Tests named `full_` form
//! the full tier (`./test.sh`); the rest also run in `./test.sh --quick`.
mod common;
use common::{scratch, text, weft};
use std::path::Path;
use std::process::Command;
use weft_flow::cosim::Simulator;
use weft_flow::verilog::{module_ports, Port};

fn presets() -> Vec<String> {
    let out = weft(&["list"]);
    assert!(out.status.success(), "{}", text(&out));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

#[test]
fn list_names_the_foundation_presets() {
    let names = presets();
    for want in ["sub_warp_unit", "sub_warp_unit_4x8"] {
        assert!(
            names.iter().any(|n| n == want),
            "{want} missing from {names:?}"
        );
    }
}

#[test]
fn unknown_preset_lists_the_valid_ones() {
    for args in [
        vec!["export", "--out", "/tmp/weft-never", "no_such_block"],
        vec!["sim", "no_such_block", "--cycles", "10"],
        vec!["cosim", "no_such_block", "--cycles", "10"],
    ] {
        let out = weft(&args);
        assert!(!out.status.success());
        let t = text(&out);
        assert!(
            t.contains("unknown preset `no_such_block`") && t.contains("sub_warp_unit_4x8"),
            "{t}"
        );
        assert!(!t.contains("panicked"), "{t}");
    }
}

#[test]
fn zero_cycles_is_refused() {
    for cmd in ["sim", "cosim"] {
        let out = weft(&[cmd, "sub_warp_unit_4x8", "--cycles", "0"]);
        assert!(!out.status.success());
        assert!(
            text(&out).contains("--cycles must be at least 1"),
            "{}",
            text(&out)
        );
    }
}

#[test]
fn unwritable_output_folder_is_reported() {
    let dir = scratch("unwritable");
    let file = dir.join("a_file");
    std::fs::write(&file, "not a folder").unwrap();
    let target = file.join("sub");
    let out = weft(&[
        "export",
        "--out",
        target.to_str().unwrap(),
        "sub_warp_unit_4x8",
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("cannot create output folder"),
        "{}",
        text(&out)
    );
}

#[test]
fn missing_tool_names_the_package() {
    let empty = scratch("nopath");
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(["lint", "sub_warp_unit_4x8"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("PATH", &empty)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let t = text(&out);
    assert!(
        t.contains("`yosys` not found") && t.contains("apt-get install -y yosys"),
        "{t}"
    );
}

#[test]
fn verilog_out_is_what_the_exporter_writes() {
    let dir = scratch("export");
    let out = weft(&["export", "--no-area", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out));
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("verilog_out");
    for name in presets() {
        let fresh = std::fs::read_to_string(dir.join(format!("{name}.v"))).unwrap();
        let kept = std::fs::read_to_string(committed.join(format!("{name}.v")))
            .unwrap_or_else(|_| panic!("verilog_out/{name}.v missing: run `weft export`"));
        assert!(
            fresh == kept,
            "verilog_out/{name}.v is stale: run `cargo run --release -- export`"
        );
    }
    let extra: Vec<String> = std::fs::read_dir(&committed)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| !presets().iter().any(|p| format!("{p}.v") == *f))
        .collect();
    assert!(
        extra.is_empty(),
        "verilog_out holds files of no preset: {extra:?}"
    );
}

/// The merge of identical modules keeps every instance's text (hence its behaviour):
/// the exported file and rust-hdl's one module per instance elaborate to the same
/// instance tree, the top's ports are unchanged, and merging again changes nothing.
#[test]
fn merged_exports_keep_every_instance() {
    use weft_flow::verilog::{instance_tree, merge_modules, rename_top};
    let (mut before, mut after) = (0, 0);
    let list = weft_testbenches::presets::all();
    // rust-hdl builds the fabric on the stack: the exporter's big-stack workers.
    let texts = weft_flow::jobs::parallel(&list, 2, |p| {
        (rename_top(&(p.verilog)(), p.name), p.exported())
    });
    for (p, (unmerged, merged)) in list.iter().zip(texts) {
        let tree = instance_tree(&merged, p.name).unwrap();
        let want = instance_tree(&unmerged, p.name).unwrap();
        let changed = tree.iter().zip(&want).find(|(a, b)| a != b);
        assert!(
            tree.len() == want.len() && changed.is_none(),
            "{}: {} instances against {}, first change at {:?}",
            p.name,
            tree.len(),
            want.len(),
            changed.map(|(a, _)| &a.0)
        );
        assert_eq!(
            module_ports(&merged, p.name),
            module_ports(&unmerged, p.name)
        );
        assert!(
            merge_modules(&merged, p.name) == merged,
            "{}: merging again changes the file",
            p.name
        );
        let modules = |v: &str| v.lines().filter(|l| l.starts_with("module ")).count();
        before += modules(&unmerged);
        after += modules(&merged);
        assert!(modules(&merged) <= modules(&unmerged), "{}", p.name);
    }
    assert!(after * 10 < before, "{before} modules merged to {after}");
}

#[test]
fn full_every_preset_lints_clean() {
    let out = weft(&["lint"]);
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn area_reports_presets_as_json() {
    // Three presets, not all: every preset already goes through Yosys in the lint
    // test, and the full area flow (synth_xilinx included) takes tens of minutes.
    let out = weft(&[
        "area",
        "--json",
        "sub_warp_unit",
        "two_level_scheduler_4x2",
        "capri_decision",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let row = |name: &str| rows.iter().find(|r| r["preset"] == name).unwrap().clone();
    // The copy of a 256-thread large warp's mask plus the 2-bit mode (SPEC §2.1).
    assert_eq!(row("sub_warp_unit")["flip_flops"], 258);
    // cur (2 groups: 1 bit) + start of each group (1 bit each): SPEC §2.3 state.
    assert_eq!(row("two_level_scheduler_4x2")["flip_flops"], 3);
    // Combinational: no flip-flops.
    assert_eq!(row("capri_decision")["flip_flops"], 0);
}

/// Co-simulates `names` two at a time (the machine has two cores), in process, and
/// fails with every preset that mismatched: `cycles` recorded, each simulator replaying
/// the first `replayed(simulator, cycles)` of them.
fn cosimulate_all(
    names: Vec<String>,
    simulators: &[Simulator],
    cycles: fn(&str) -> u64,
    replayed: fn(Simulator, u64) -> u64,
) {
    let failures: Vec<String> = weft_flow::jobs::parallel(&names, 2, |name| {
        let preset = weft_testbenches::presets::find(name).unwrap();
        let dir = scratch(&format!("cosim-{name}"));
        let n = cycles(name);
        let replays: Vec<(Simulator, u64)> =
            simulators.iter().map(|&s| (s, replayed(s, n))).collect();
        let r = weft_testbenches::cosim::cosimulate_prefixes(&preset, n, 11, &replays, &dir);
        let _ = std::fs::remove_dir_all(&dir);
        match r {
            Ok(c) => {
                for r in &c.replays {
                    println!(
                        "{name}: {} {} cycles, {} mismatches",
                        r.simulator.name(),
                        r.cycles,
                        r.mismatches
                    );
                }
                let failures = c.failures();
                assert_eq!(c.replays.len(), simulators.len());
                (!failures.is_empty()).then(|| format!("{name}: {}", failures.join("; ")))
            }
            Err(e) => Some(format!("{name}: {e}")),
        }
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Quick tier: every preset co-simulated briefly under Icarus.
#[test]
fn every_preset_cosimulates_briefly() {
    cosimulate_all(
        presets(),
        &[Simulator::Icarus],
        |name| weft_testbenches::presets::suite_cosim_cycles(name).min(2_000) / 4,
        |_, cycles| cycles,
    );
}

/// Full tier: every preset under both simulators, 100 000 cycles each (see
/// `suite_cosim_cycles` for the exceptions), of which Icarus replays the first 20 000:
/// it replays about 5 000 cycles a second, Verilator hundreds of thousands (`weft cosim
/// tbc_stack --cycles 100000`: Icarus 19 s, Verilator 0.4 s, the recording 6 s).
#[test]
fn full_every_preset_cosimulates_under_both_simulators() {
    cosimulate_all(
        presets(),
        &[Simulator::Icarus, Simulator::Verilator],
        weft_testbenches::presets::suite_cosim_cycles,
        |simulator, cycles| match simulator {
            Simulator::Icarus => cycles.min(20_000),
            Simulator::Verilator => cycles,
        },
    );
}

/// A replay of the first cycles of a recording replays exactly those; a prefix longer
/// than the recording is refused before any work.
#[test]
fn a_simulator_replays_the_first_cycles_it_is_asked_for() {
    let preset = weft_testbenches::presets::find("sub_warp_unit_4x8").unwrap();
    let dir = scratch("cosim-prefix");
    let c = weft_testbenches::cosim::cosimulate_prefixes(
        &preset,
        300,
        3,
        &[(Simulator::Icarus, 120), (Simulator::Verilator, 300)],
        &dir,
    )
    .unwrap();
    let replayed: Vec<u64> = c.replays.iter().map(|r| r.cycles).collect();
    assert_eq!(replayed, [120, 300]);
    assert!(c.failures().is_empty(), "{:?}", c.failures());
    let e = weft_testbenches::cosim::cosimulate_prefixes(
        &preset,
        300,
        3,
        &[(Simulator::Icarus, 301)],
        &dir,
    )
    .unwrap_err();
    assert!(e.contains("cannot replay 301 of 300"), "{e}");
}

/// A replay must catch a wrong output: flip one expected bit in the recorded vectors.
#[test]
fn cosim_reports_a_tampered_vector() {
    let dir = scratch("tamper");
    let out = weft(&[
        "cosim",
        "sub_warp_unit_4x8",
        "--cycles",
        "200",
        "--seed",
        "3",
        "--simulator",
        "iverilog",
        "--keep",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let vectors = std::fs::read_to_string(dir.join("vectors.txt")).unwrap();
    let mut lines: Vec<String> = vectors.lines().map(str::to_string).collect();
    // line 51 = cycle 50; the 5th field is sub_valid.
    let mut fields: Vec<String> = lines[51].split(' ').map(str::to_string).collect();
    fields[4] = if fields[4] == "1" {
        "0".into()
    } else {
        "1".into()
    };
    lines[51] = fields.join(" ");
    std::fs::write(dir.join("vectors.txt"), lines.join("\n") + "\n").unwrap();
    for sim in [Simulator::Icarus, Simulator::Verilator] {
        std::fs::write(
            dir.join("harness.cpp"),
            weft_flow::cosim::verilator_harness(true, &ports_of(&dir), "vectors.txt"),
        )
        .unwrap();
        let r = weft_flow::cosim::replay(sim, "sub_warp_unit_4x8", &dir).unwrap();
        assert_eq!(r.mismatches, 1, "{sim:?}: {:?}", r.first_mismatches);
        assert!(
            r.first_mismatches[0].contains("cycle=50 signal=sub_valid"),
            "{:?}",
            r.first_mismatches
        );
    }
}

/// Port list of a kept replay in vector-file order: the header's names, declared as the
/// DUT declares them.
fn ports_of(dir: &Path) -> Vec<Port> {
    let dut = std::fs::read_to_string(dir.join("dut.v")).unwrap();
    let declared = module_ports(&dut, "sub_warp_unit_4x8").unwrap();
    let header = std::fs::read_to_string(dir.join("vectors.txt")).unwrap();
    header
        .lines()
        .next()
        .unwrap()
        .trim_start_matches("# ")
        .split(' ')
        .map(|n| declared.iter().find(|p| p.name == n).unwrap().clone())
        .collect()
}

/// The waveform streamed by `weft sim --vcd` reads back with the `vcd` crate: every
/// port is declared and the clock toggles every half period.
#[test]
fn vcd_reads_back() {
    let dir = scratch("vcd");
    let path = dir.join("swu.vcd");
    let out = weft(&[
        "sim",
        "sub_warp_unit_4x8",
        "--cycles",
        "50",
        "--seed",
        "2",
        "--vcd",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let mut parser = vcd::Parser::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
    let header = parser.parse_header().unwrap();
    for port in [
        "clock",
        "reset",
        "load",
        "mask_in",
        "mode",
        "sub_valid",
        "sub_mask",
        "sub_rows",
        "last",
        "stall",
    ] {
        assert!(
            header.find_var(&["uut", port]).is_some(),
            "{port} not in the VCD"
        );
    }
    let held_mode = header.find_var(&["uut", "held_mode", "q"]);
    assert!(held_mode.is_some(), "the held mode register is readable");
    let clock = header.find_var(&["uut", "clock"]).unwrap().code;
    let mut rises = 0;
    let mut last_time = 0;
    for cmd in parser {
        match cmd.unwrap() {
            vcd::Command::Timestamp(t) => last_time = t,
            vcd::Command::ChangeScalar(code, vcd::Value::V1) if code == clock => rises += 1,
            _ => {}
        }
    }
    assert_eq!(rises, 50, "one rising clock edge per cycle");
    assert_eq!(last_time, 500, "10 ps per cycle");
    // The save file beside it: the inputs, then the outputs, every one a port of the VCD.
    let save = std::fs::read_to_string(dir.join("swu.vcd.gtkw")).unwrap();
    let listed: Vec<&str> = save
        .lines()
        .filter(|l| !l.starts_with(['@', '-', '^', '[']))
        .map(|l| l.split('[').next().unwrap())
        .collect();
    let inputs = ["clock", "reset", "load", "mask_in", "mode"];
    let outputs = ["sub_valid", "sub_mask", "sub_rows", "last", "stall"];
    let expected: Vec<String> = inputs
        .iter()
        .chain(&outputs)
        .map(|p| format!("uut.{p}"))
        .collect();
    assert_eq!(listed, expected, "{save}");
    let groups: Vec<&str> = save.lines().filter(|l| l.starts_with('-')).collect();
    assert_eq!(
        groups,
        ["-inputs", "-inputs", "-outputs", "-outputs"],
        "{save}"
    );
    assert!(
        save.contains("@22\nuut.mask_in[31:0]"),
        "buses in hex: {save}"
    );
}

/// Copies `from` (a folder) into `to`, recursively.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A fresh clone without Yosys: `weft export` prints the published figures of every
/// unchanged preset and names, in one line with the install command, those it cannot
/// measure. The published report is copied without `sub_warp_unit_4x8`'s row, which
/// then stands for a changed preset.
#[test]
fn export_without_yosys_prints_the_published_figures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let clone = scratch("export-no-yosys");
    copy_tree(&root.join("constraints"), &clone.join("constraints"));
    let report = clone.join("docs/report");
    std::fs::create_dir_all(&report).unwrap();
    std::fs::copy(root.join("docs/report/report.md"), report.join("report.md")).unwrap();
    let published: Vec<serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(root.join("docs/report/report.json")).unwrap(),
    )
    .unwrap();
    let decision = published
        .iter()
        .find(|r| r["preset"] == "capri_decision")
        .expect("capri_decision is published");
    let rest: Vec<_> = published
        .iter()
        .filter(|r| r["preset"] != "sub_warp_unit_4x8")
        .collect();
    std::fs::write(
        report.join("report.json"),
        serde_json::to_string(&rest).unwrap(),
    )
    .unwrap();
    let no_tools = scratch("export-no-yosys-path");
    let out = Command::new(env!("CARGO_BIN_EXE_weft"))
        .args([
            "export",
            "--out",
            "v",
            "sub_warp_unit_4x8",
            "capri_decision",
        ])
        .current_dir(&clone)
        .env("PATH", &no_tools)
        .output()
        .unwrap();
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    let line = t
        .lines()
        .find(|l| l.starts_with("capri_decision "))
        .unwrap_or_else(|| panic!("no row for capri_decision: {t}"));
    let figures: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        figures[1],
        decision["area"]["cells"].to_string(),
        "published cells: {line}"
    );
    assert_eq!(
        *figures.last().unwrap(),
        format!(
            "{:.1}",
            decision["fpga"]["fmax_median_mhz"].as_f64().unwrap()
        ),
        "published Fmax: {line}"
    );
    let unmeasured: Vec<&str> = t.lines().filter(|l| l.contains("not measured")).collect();
    assert_eq!(unmeasured.len(), 1, "{t}");
    assert!(
        unmeasured[0].contains("sub_warp_unit_4x8")
            && !unmeasured[0].contains("capri_decision")
            && unmeasured[0].contains("apt-get install -y yosys"),
        "{t}"
    );
    assert!(
        !t.lines().any(|l| l.starts_with("sub_warp_unit_4x8 ")),
        "{t}"
    );
}

/// Every command checks its arguments (presets, libraries, numbers, folders) before it
/// starts a tool or a run: each refusal below comes with its message on a PATH without
/// any tool (a tool started first would fail with "not found" instead), and no output
/// of a run.
/// `weft eval STUDY --render` writes the page and charts its recorded data renders,
/// without running: from the committed data, the committed page.
#[test]
fn eval_render_rewrites_a_page_from_its_recorded_data() {
    let out = scratch("render");
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/eval");
    std::fs::copy(committed.join("capri.json"), out.join("capri.json")).unwrap();
    let run = weft(&["eval", "capri", "--render", "--out", out.to_str().unwrap()]);
    assert!(run.status.success(), "{}", text(&run));
    for file in ["capri.md", "capri.json", "capri-fig11.svg"] {
        assert_eq!(
            std::fs::read_to_string(out.join(file)).unwrap(),
            std::fs::read_to_string(committed.join(file)).unwrap(),
            "{file}"
        );
    }
}

#[test]
fn every_command_refuses_bad_arguments_before_starting() {
    let dir = scratch("refusals");
    let file = dir.join("a_file");
    std::fs::write(&file, "not a folder").unwrap();
    let under_file = |name: &str| file.join(name).to_str().unwrap().to_string();
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let empty = empty.to_str().unwrap().to_string();
    let machine_file = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let malformed = machine_file("malformed.toml", "lanes = \n");
    let unknown = machine_file("unknown.toml", "wraps = 16\n");
    let unworkable = machine_file("unworkable.toml", "warps = 8\n");
    let missing = dir.join("missing.toml").to_str().unwrap().to_string();
    let cases: Vec<(Vec<String>, String)> = [
        (
            vec!["export", "--out", &empty, "no_such_block"],
            "unknown preset `no_such_block`".to_string(),
        ),
        (
            vec!["lint", "--dir", &empty, "sub_warp_unit_4x8"],
            "sub_warp_unit_4x8.v does not exist; run `weft export".into(),
        ),
        (
            vec!["area", "sub_warp_unit_4x8", "--asic", "nosuch"],
            "no cell library `nosuch` (osu018 or osu035)".into(),
        ),
        (
            vec!["area", "sub_warp_unit_4x8", "--synth-minutes", "0"],
            "--synth-minutes must be at least 1".into(),
        ),
        (
            vec!["area", "--dir", &empty, "sub_warp_unit_4x8"],
            "does not exist; run `weft export".into(),
        ),
        (
            vec!["fpga", "sub_warp_unit_4x8", "--seeds", "0"],
            "--seeds must be at least 1".into(),
        ),
        (
            vec!["fpga", "sub_warp_unit_4x8", "--freq", "0"],
            "--freq must be a positive number of MHz".into(),
        ),
        (
            vec!["fpga", "no_such_block"],
            "unknown preset `no_such_block`".into(),
        ),
        (
            vec!["report", "--asic", "nosuch", "capri_decision"],
            "no cell library `nosuch`".into(),
        ),
        (
            vec!["report", "--asic-minutes", "0", "capri_decision"],
            "--asic-minutes must be at least 1".into(),
        ),
        (
            vec!["report", "--jobs", "0", "capri_decision"],
            "--jobs must be at least 1".into(),
        ),
        (
            vec!["report", "--out", &under_file("report"), "capri_decision"],
            "--out".to_string() + " " + &under_file("report") + ": cannot create the folder",
        ),
        (
            vec!["report", "--cache", &under_file("cache"), "capri_decision"],
            "--cache ".to_string() + &under_file("cache") + ": cannot create the folder",
        ),
        (
            vec!["sim", "sub_warp_unit_4x8", "--cycles", "0"],
            "--cycles must be at least 1".into(),
        ),
        (
            vec![
                "sim",
                "sub_warp_unit_4x8",
                "--cycles",
                "10",
                "--vcd",
                &under_file("w.vcd"),
            ],
            "cannot create ".to_string() + &under_file("w.vcd"),
        ),
        (
            vec![
                "cosim",
                "sub_warp_unit_4x8",
                "--cycles",
                "10",
                "--keep",
                &under_file("keep"),
            ],
            "--keep ".to_string() + &under_file("keep") + ": cannot create the folder",
        ),
        (
            vec!["prove", "sub_warp_unit_4x8", "--depth", "1"],
            "--depth must be at least 2".into(),
        ),
        (
            vec!["prove", "sub_warp_unit_4x8", "--minutes", "0"],
            "--minutes must be at least 1".into(),
        ),
        (
            vec!["prove", "sub_warp_unit_4x8", "--out", &under_file("prove")],
            "--out ".to_string() + &under_file("prove") + ": cannot create the folder",
        ),
        (
            vec!["run", "kernels/micro/saxpy.c", "--max-cycles", "0"],
            "--max-cycles must be at least 1".into(),
        ),
        (
            vec!["run", "kernels/micro/saxpy.c", "--max-instructions", "0"],
            "--max-instructions must be at least 1".into(),
        ),
        (
            vec!["run", "kernels/micro/saxpy.c", "--machine", "nosuch"],
            "no machine preset `nosuch`".into(),
        ),
        (
            vec!["run", "kernels/micro/saxpy.c", "--set", "nosuch=1"],
            "unknown machine key `nosuch`".into(),
        ),
        (
            vec!["run", "kernels/micro/saxpy.c", "--set", "warps=65"],
            "--set: warps = 65: 1..=64".into(),
        ),
        (
            vec!["run", "kernels/micro/saxpy.c", "--set", "lanes=x"],
            "--set: lanes = x: invalid type".into(),
        ),
        (
            vec!["run", "kernels/micro/saxpy.c", "--machine", &missing],
            format!("machine file {missing}: "),
        ),
        (
            vec!["run", "kernels/micro/saxpy.c", "--machine", &malformed],
            format!("{malformed}: TOML parse error at line 1"),
        ),
        (
            vec!["run", "kernels/micro/saxpy.c", "--machine", &unknown],
            format!("{unknown}: unknown machine key `wraps`"),
        ),
        (
            vec!["run", "kernels/micro/saxpy.c", "--machine", &unworkable],
            format!("{unworkable}: fetch_group = 32 does not divide warps = 8"),
        ),
        (
            vec!["run", "kernels/micro/no_such.c"],
            "kernel source kernels/micro/no_such.c not found".into(),
        ),
        (
            vec!["workloads", "--set", "nosuch=1"],
            "unknown machine key `nosuch`".into(),
        ),
        (
            vec!["eval", "lwm", "--jobs", "0"],
            "--jobs 0: at least one run at a time".into(),
        ),
        (
            vec!["eval", "lwm", "--only", "nosuch"],
            "--only nosuch: no nosuch.c in kernels/lwm".into(),
        ),
        (
            vec!["eval", "lwm", "--out", &under_file("eval")],
            "--out ".to_string() + &under_file("eval") + ": cannot create the folder",
        ),
        (
            vec!["eval", "capri", "--render", "--out", &under_file("render")],
            "cannot read ".to_string() + &under_file("render") + "/capri.json",
        ),
    ]
    .into_iter()
    .map(|(args, message)| (args.into_iter().map(String::from).collect(), message))
    .collect();
    for (args, message) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_weft"))
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("PATH", &empty)
            .output()
            .unwrap();
        let t = text(&out);
        assert!(!out.status.success(), "weft {args:?} succeeded: {t}");
        assert!(
            t.contains(&message),
            "weft {args:?} should say `{message}`: {t}"
        );
        assert!(
            out.stdout.is_empty() && t.lines().count() == 1,
            "weft {args:?} started before refusing: {t}"
        );
    }
}

/// A key the machine does not read (another policy's, the other timing's) is kept and
/// printed, with one line of warning per key on stderr; the command goes on.
#[test]
fn a_set_the_machine_ignores_is_warned_once() {
    let out = weft(&[
        "run",
        "--list-keys",
        "--set",
        "capt_entries=7",
        "--set",
        "vgiw_tile=64",
        "--set",
        "lanes=32",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let warnings: Vec<&str> = stderr.lines().collect();
    assert_eq!(warnings.len(), 2, "{stderr}");
    assert!(
        warnings[0].starts_with("warning: --set capt_entries is read only with divergence = capri"),
        "{stderr}"
    );
    assert!(
        warnings[1].starts_with("warning: --set vgiw_tile changes nothing with timing = simt"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("capt_entries ") && l.contains(" 7 ")),
        "{stdout}"
    );
}

/// Bad machine input is bad input: exit 2 (as for arguments clap refuses), one line.
#[test]
fn bad_machine_input_exits_2() {
    for args in [
        &["run", "kernels/micro/saxpy.c", "--set", "warps=65"][..],
        &["run", "kernels/micro/saxpy.c", "--machine", "nosuch.toml"],
        &["workloads", "--set", "frobs=1"],
    ] {
        let out = weft(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        assert_eq!(text(&out).lines().count(), 1, "{args:?}: {}", text(&out));
    }
}
