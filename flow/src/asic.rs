//! Area and timing on a real standard-cell library: Yosys maps the preset's flip-flops
//! (`dfflibmap`) and logic (`abc` with the library and a delay target) to the library's
//! cells and reports their area in µm² (`stat -liberty`); OpenSTA then finds the shortest
//! clock period that meets the committed SDC (`constraints/weft.sdc`, whose input and
//! output budgets scale with the period), hence the maximum clock. Typical corner, no
//! wires, no placement: a synthesis estimate, not a sign-off figure. The libraries have
//! no memories, so rust-hdl's RAMs stay macros without area, timed at their ports
//! ([`memory_liberty`]): the logic's area and timing, the RAM bits counted apart.
//!
//! The libraries are Debian's OSU cells (`qflow-tech-osu018`, `qflow-tech-osu035`),
//! fetched with `apt-get download` and unpacked with `dpkg -x` under
//! `target/cell-libraries/` (what `./test.sh` does), or installed as packages.
use crate::tools::{Tool, YOSYS};
use crate::verilog::Memory;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// OpenSTA, Debian's static timing analyser.
pub const OPENSTA: Tool = Tool {
    program: "sta",
    package: "opensta",
};

/// A standard-cell library weft can map to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Library {
    pub name: &'static str,
    pub package: &'static str,
    /// The Liberty file inside the package.
    pub liberty: &'static str,
}

/// OSU 0.18 µm cells.
pub const OSU018: Library = Library {
    name: "osu018",
    package: "qflow-tech-osu018",
    liberty: "usr/share/qflow/tech/osu018/osu018_stdcells.lib",
};
/// OSU 0.35 µm cells: how the figures scale with the node.
pub const OSU035: Library = Library {
    name: "osu035",
    package: "qflow-tech-osu035",
    liberty: "usr/share/qflow/tech/osu035/osu035_stdcells.lib",
};
pub const LIBRARIES: [Library; 2] = [OSU018, OSU035];

/// Where `./test.sh` unpacks the libraries, from the project root.
pub const UNPACKED: &str = "target/cell-libraries";

impl Library {
    pub fn by_name(name: &str) -> Result<Library, String> {
        LIBRARIES
            .into_iter()
            .find(|l| l.name == name)
            .ok_or_else(|| format!("no cell library `{name}` (osu018 or osu035)"))
    }

    /// The Liberty file, or a message with the commands that fetch it.
    pub fn find(&self) -> Result<PathBuf, String> {
        let unpacked = Path::new(UNPACKED).join(self.liberty);
        let installed = Path::new("/").join(self.liberty);
        [unpacked, installed]
            .into_iter()
            .find(|p| p.is_file())
            .ok_or_else(|| {
                format!(
                    "the {} cell library is missing; fetch it (from the project root) with: mkdir -p {UNPACKED} && cd {UNPACKED} && apt-get download {} && dpkg -x {}_*.deb .",
                    self.name, self.package, self.package
                )
            })
    }
}

/// A preset's figures on one library. Keys name their unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AsicFigures {
    pub library: String,
    pub area_um2: f64,
    /// Library cells, memory macros not counted.
    pub cells: u64,
    pub flip_flops: u64,
    /// Memory macros: instances of the design's RAMs, kept out of the mapping (see
    /// [`memory_liberty`]); their bits are the area table's RAM bits.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub memory_macros: u64,
    /// The shortest clock period meeting the SDC; `None` when no path is timed.
    pub critical_path_ns: Option<f64>,
    pub fmax_mhz: Option<f64>,
}

impl AsicFigures {
    /// The cell count as tables print it: `3486`, or `3486 + 16 RAMs` with macros.
    pub fn cells_and_macros(&self) -> String {
        match self.memory_macros {
            0 => self.cells.to_string(),
            n => format!("{} + {n} RAMs", self.cells),
        }
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What a preset's cell-library figures depend on besides its Verilog: the scripts, the
/// library (name and size), the SDC and the tools' versions (part of the report's key).
pub fn flow_identity(name: &str, library: Library, sdc: &Path) -> Result<String, String> {
    let liberty = library.find()?;
    let size = std::fs::metadata(&liberty)
        .map_err(|e| format!("{}: {e}", liberty.display()))?
        .len();
    let sdc_text = std::fs::read_to_string(sdc).map_err(|e| format!("{}: {e}", sdc.display()))?;
    let (file, lib, net) = (Path::new("block.v"), Path::new("lib"), Path::new("net.v"));
    let memory = [Memory {
        module: "ram".into(),
        address_bits: 8,
        width: 32,
        words: 256,
    }];
    Ok([
        script(name, file, &[], &memory, lib, Path::new("constr"), net),
        memory_liberty(&memory),
        format!(
            "blocks of at least {} lines in designs over {}",
            crate::verilog::BLOCK_LINES,
            crate::verilog::FLAT_LINES
        ),
        ABC_CONSTRAINTS.to_string(),
        sta_script(
            name,
            lib,
            Some(lib),
            net,
            Path::new("sdc"),
            PeriodSearch::Secant,
        ),
        sdc_text,
        format!("{} {size}", library.name),
        YOSYS.version()?,
        OPENSTA.version()?,
    ]
    .join("\n"))
}

/// abc's constraints: inputs driven by a small buffer, each output loading 10 fF
/// (about a few gate inputs). With them abc also buffers high-fanout nets and sizes
/// gates (`buffer; upsize; dnsize`), as any synthesis flow for a cell library does;
/// without, one select driving a thousand flip-flop muxes would read as a 500 ns path.
const ABC_CONSTRAINTS: &str = "set_driving_cell BUFX2\nset_load 10\n";

/// The Yosys script: generic synthesis, then the library's flip-flops and gates.
/// `blocks` keep their hierarchy (see [`crate::area::script`]); `memories` are black
/// boxes, kept as macros. Unused wires are purged so that OpenSTA can read the netlist
/// (it takes no concatenation on the left of an `assign`, which the wires to a macro's
/// ports would need).
fn script(
    name: &str,
    file: &Path,
    blocks: &[(String, u64)],
    memories: &[Memory],
    liberty: &Path,
    constr: &Path,
    netlist: &Path,
) -> String {
    let lib = liberty.display();
    let mut read = format!("read_verilog {}", file.display());
    if !memories.is_empty() {
        let names: Vec<&str> = memories.iter().map(|m| m.module.as_str()).collect();
        read += &format!("; blackbox {}", names.join(" "));
    }
    if !blocks.is_empty() {
        let names: Vec<&str> = blocks.iter().map(|b| b.0.as_str()).collect();
        read += &format!(
            "; hierarchy -top {name}; setattr -mod -set keep_hierarchy 1 {}",
            names.join(" ")
        );
    }
    [
        read,
        format!("synth -flatten -top {name}"),
        format!("dfflibmap -liberty {lib}"),
        // A 1 ns delay target: abc favours fast cells, as a timing-driven flow would.
        format!("abc -liberty {lib} -constr {} -D 1000", constr.display()),
        "opt_clean -purge".into(),
        format!("tee -a /dev/stdout stat -liberty {lib}"),
        format!("write_verilog -noattr {}", netlist.display()),
    ]
    .join("; ")
}

/// Area, cells, flip-flops and memory macros (cells of a module named in `memories`)
/// from Yosys's `stat -liberty` report; cells do not count the macros.
pub fn parse_stat(log: &str, memories: &[&str]) -> Result<(f64, u64, u64, u64), String> {
    // A hierarchical design ends with its sum over the copies of each module.
    let chip_area = |prefix: &str| {
        log.lines()
            .filter_map(|l| l.trim().strip_prefix(prefix))
            .filter_map(|rest| rest.rsplit(':').next()?.trim().parse::<f64>().ok())
            .next_back()
    };
    let area = chip_area("Chip area for top module")
        .or_else(|| chip_area("Chip area for module"))
        .ok_or("no `Chip area` line in the Yosys log")?;
    let stat = &log[log
        .rfind("Number of cells:")
        .ok_or("no cell count in the Yosys log")?..];
    let mut lines = stat.lines();
    let cells: u64 = lines
        .next()
        .and_then(|l| l.split_whitespace().last()?.parse().ok())
        .ok_or("no cell count in the Yosys log")?;
    // The per-type lines follow the count; flip-flops are the library's DFF cells.
    let kinds: Vec<(&str, u64)> = lines
        .map_while(|l| {
            let mut w = l.split_whitespace();
            let (kind, n) = (w.next()?, w.next()?.parse::<u64>().ok()?);
            Some((kind.trim_start_matches('\\'), n))
        })
        .collect();
    let count = |pick: &dyn Fn(&str) -> bool| -> u64 {
        kinds.iter().filter(|(k, _)| pick(k)).map(|(_, n)| n).sum()
    };
    let flip_flops = count(&|k| k.starts_with("DFF"));
    let macros = count(&|k| memories.contains(&k));
    // In a kept hierarchy each block is a cell of its parent without a library area
    // (`stat` adds the block's own in the design's sum): only other cells are errors.
    let modules: Vec<&str> = log
        .lines()
        .filter_map(|l| l.trim().strip_prefix("=== ")?.strip_suffix(" ==="))
        .collect();
    let unknown = log
        .lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix("Area for cell type ")?
                .strip_suffix(" is unknown!")
        })
        .map(|cell| cell.trim_start_matches('\\'))
        .find(|cell| !modules.contains(cell) && !memories.contains(cell));
    if let Some(cell) = unknown {
        return Err(format!(
            "a cell without an area in the library: {cell} (see the Yosys log)"
        ));
    }
    Ok((area, cells - macros, flip_flops, macros))
}

/// How OpenSTA searches for the shortest period meeting the SDC, to a picosecond; each
/// period tried is applied by re-running the SDC with it and re-times the whole netlist
/// (minutes on a million cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeriodSearch {
    /// The worst slack is piecewise linear in the period (each path's required time is
    /// a fixed share of it), so the secant through the last two periods tried lands on
    /// the limit once both lie on the worst path's line, and a probe a picosecond below
    /// closes the bracket: a handful of timing runs. A step that leaves the bracket, or
    /// one that did not halve it, bisects instead. What the flow uses.
    Secant,
    /// Bisection (with the same closing probe; thirty timing runs or so): the reference
    /// the secant search is checked against.
    Bisection,
}

/// The OpenSTA script: reads the netlist, finds the shortest period by `search`, prints
/// it and the critical path.
fn sta_script(
    name: &str,
    liberty: &Path,
    memories: Option<&Path>,
    netlist: &Path,
    sdc: &Path,
    search: PeriodSearch,
) -> String {
    let step = match search {
        PeriodSearch::Secant => {
            "    if {!$bisect && $pa ne \"\" && $sa != $sb} {\n        set x [expr {$pb - $sb * ($pb - $pa) / ($sb - $sa) + 0.0005}]\n    }"
        }
        PeriodSearch::Bisection => "",
    };
    let memories = memories.map_or(String::new(), |m| format!("read_liberty {}\n", m.display()));
    format!(
        r#"read_liberty {lib}
{memories}read_verilog {net}
link_design {name}
set weft_sdc [read [open {sdc}]]
proc weft_slack {{p}} {{
    global weft_sdc
    regsub -line {{^set clock_period .*$}} $weft_sdc "set clock_period $p" constraints
    eval $constraints
    return [sta::worst_slack_cmd max]
}}
set hi 10.0
set s_hi [weft_slack $hi]
while {{$s_hi < 0 && $hi < 100000}} {{ set hi [expr {{$hi * 2}}]; set s_hi [weft_slack $hi] }}
set lo 0.0
set pa ""
set sa ""
set pb $hi
set sb $s_hi
set bisect 0
while {{$hi - $lo > 0.001}} {{
    set width [expr {{$hi - $lo}}]
    set x ""
{step}
    if {{$x eq "" || $x <= $lo || $x >= $hi}} {{ set x [expr {{($lo + $hi) / 2}}] }}
    set s [weft_slack $x]
    set pa $pb; set sa $sb; set pb $x; set sb $s
    if {{$s >= 0}} {{
        set hi $x
        if {{$hi - 0.001 > $lo}} {{
            set y [expr {{$hi - 0.001}}]
            set s [weft_slack $y]
            set pa $pb; set sa $sb; set pb $y; set sb $s
            if {{$s >= 0}} {{ set hi $y }} else {{ set lo $y }}
        }}
    }} else {{
        set lo $x
    }}
    set bisect [expr {{!$bisect && $hi - $lo > $width / 2}}]
}}
weft_slack $hi
puts "weft_min_period_ns $hi"
report_checks -path_delay max -digits 3
exit
"#,
        lib = liberty.display(),
        net = netlist.display(),
        sdc = sdc.display(),
    )
}

/// The shortest period meeting `sdc` of a mapped `netlist` (top `name`), in ns, found by
/// `search` with OpenSTA run in `dir` (`memories`: the Liberty of its memory macros);
/// `None` when no path is timed.
pub fn min_period(
    name: &str,
    liberty: &Path,
    memories: Option<&Path>,
    netlist: &Path,
    sdc: &Path,
    dir: &Path,
    search: PeriodSearch,
) -> Result<Option<f64>, String> {
    let tcl = dir.join(format!("{name}.sta.tcl"));
    std::fs::write(
        &tcl,
        sta_script(name, liberty, memories, netlist, sdc, search),
    )
    .map_err(|e| format!("{}: {e}", tcl.display()))?;
    let tcl = std::fs::canonicalize(&tcl).map_err(|e| format!("{}: {e}", tcl.display()))?;
    let out = OPENSTA.run(
        &["-no_splash", "-exit", tcl.to_str().ok_or("path not UTF-8")?],
        dir,
    )?;
    let text = String::from_utf8_lossy(&out.stdout);
    parse_min_period(&text).map_err(|e| format!("{name}: {e}"))
}

/// The shortest period OpenSTA found, in ns; `None` when nothing limits it (no timed
/// path: the bisection ran down to its resolution).
pub fn parse_min_period(out: &str) -> Result<Option<f64>, String> {
    let ns: f64 = out
        .lines()
        .find_map(|l| l.strip_prefix("weft_min_period_ns "))
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| {
            format!(
                "OpenSTA gave no period:\n{}",
                out.lines().rev().take(20).collect::<Vec<_>>().join("\n")
            )
        })?;
    if ns >= 100_000.0 {
        return Err("OpenSTA: no period up to 100 µs meets the constraints".into());
    }
    Ok((ns > 0.002).then_some(ns))
}

/// Maps `file` (top `name`) to `library` and times it; `dir` holds the netlist and
/// scripts. Stops Yosys after `limit` (`Ok(None)`).
pub fn asic_figures(
    name: &str,
    file: &Path,
    library: Library,
    sdc: &Path,
    dir: &Path,
    limit: Option<Duration>,
    mode: crate::verilog::Synthesis,
) -> Result<Option<AsicFigures>, String> {
    let liberty = library.find()?;
    OPENSTA.find()?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let abs = |p: &Path| std::fs::canonicalize(p).map_err(|e| format!("{}: {e}", p.display()));
    let (file, liberty, sdc) = (abs(file)?, abs(&liberty)?, abs(sdc)?);
    let netlist = abs(dir)?.join(format!("{name}.{}.v", library.name));
    let constr = abs(dir)?.join("abc.constr");
    std::fs::write(&constr, ABC_CONSTRAINTS).map_err(|e| format!("{}: {e}", constr.display()))?;
    let verilog = std::fs::read_to_string(&file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let blocks = crate::verilog::blocks_for(&verilog, name, mode);
    let memories = crate::verilog::memories(&verilog);
    let Some(out) = YOSYS.run_limited(
        &[
            "-q",
            "-p",
            &script(name, &file, &blocks, &memories, &liberty, &constr, &netlist),
        ],
        dir,
        limit,
    )?
    else {
        return Ok(None);
    };
    let log = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "yosys mapping of {name} to {} failed:\n{log}{}",
            library.name,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let names: Vec<&str> = memories.iter().map(|m| m.module.as_str()).collect();
    let (area_um2, cells, flip_flops, memory_macros) =
        parse_stat(&log, &names).map_err(|e| format!("{name}: {e}"))?;
    let macros = if memories.is_empty() {
        None
    } else {
        let path = abs(dir)?.join(format!("{name}.memories.lib"));
        std::fs::write(&path, memory_liberty(&memories))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Some(path)
    };
    let period = min_period(
        name,
        &liberty,
        macros.as_deref(),
        &netlist,
        &sdc,
        dir,
        PeriodSearch::Secant,
    )?;
    Ok(Some(AsicFigures {
        library: library.name.into(),
        area_um2,
        cells,
        flip_flops,
        memory_macros,
        critical_path_ns: period,
        fmax_mhz: period.map(|p| 1000.0 / p),
    }))
}

/// The Liberty of the memory macros: one cell per RAM module, without area, whose ports
/// are timed as an ideal register's: a path ends at a read or write input (no setup
/// time) and starts at `read_data` on `read_clock` (no access time). The OSU libraries
/// have no memories (a memory compiler's macros would come with their own area and
/// timing); a RAM mapped to their flip-flops and multiplexers is neither an SRAM's area
/// nor its timing, and takes Yosys over 20 minutes on the live value cache (`lvc`).
pub fn memory_liberty(memories: &[Memory]) -> String {
    let mut widths: Vec<usize> = memories
        .iter()
        .flat_map(|m| [m.address_bits, m.width])
        .collect();
    widths.sort_unstable();
    widths.dedup();
    let mut lib = String::from(
        "library (weft_memories) {
  delay_model : table_lookup;
  time_unit : \"1ns\";
  voltage_unit : \"1V\";
  current_unit : \"1mA\";
  capacitive_load_unit (1, pf);
  pulling_resistance_unit : \"1kohm\";
  leakage_power_unit : \"1nW\";
  input_threshold_pct_rise : 50;
  input_threshold_pct_fall : 50;
  output_threshold_pct_rise : 50;
  output_threshold_pct_fall : 50;
  slew_lower_threshold_pct_rise : 20;
  slew_upper_threshold_pct_rise : 80;
  slew_lower_threshold_pct_fall : 20;
  slew_upper_threshold_pct_fall : 80;
",
    );
    for w in widths {
        lib += &format!(
            "  type (bus{w}) {{ base_type : array; data_type : bit; bit_width : {w}; bit_from : {}; bit_to : 0; downto : true; }}\n",
            w - 1
        );
    }
    let ideal = |kind: &str, clock: &str| {
        let values = match kind {
            "setup_rising" => "rise_constraint (scalar) { values (\"0\"); } fall_constraint (scalar) { values (\"0\"); }",
            _ => "cell_rise (scalar) { values (\"0\"); } cell_fall (scalar) { values (\"0\"); } rise_transition (scalar) { values (\"0\"); } fall_transition (scalar) { values (\"0\"); }",
        };
        format!("      timing () {{ related_pin : \"{clock}\"; timing_type : {kind}; {values} }}\n")
    };
    for m in memories {
        lib += &format!(
            "  cell (\"{}\") {{\n    area : 0;\n    dont_use : true;\n",
            m.module
        );
        for clock in ["read_clock", "write_clock"] {
            lib += &format!(
                "    pin ({clock}) {{ direction : input; clock : true; capacitance : 0; }}\n"
            );
        }
        for (port, width, clock) in [
            ("read_address", m.address_bits, "read_clock"),
            ("write_address", m.address_bits, "write_clock"),
            ("write_data", m.width, "write_clock"),
            ("write_enable", 1, "write_clock"),
        ] {
            // A one-bit port is a scalar in the Verilog, so a pin here.
            let group = if width == 1 {
                format!("    pin ({port}) {{ direction : input; capacitance : 0;\n")
            } else {
                format!("    bus ({port}) {{ bus_type : bus{width}; direction : input; capacitance : 0;\n")
            };
            lib += &group;
            lib += &ideal("setup_rising", clock);
            lib += "    }\n";
        }
        lib += &if m.width == 1 {
            "    pin (read_data) { direction : output;\n".to_string()
        } else {
            format!(
                "    bus (read_data) {{ bus_type : bus{}; direction : output;\n",
                m.width
            )
        };
        lib += &ideal("rising_edge", "read_clock");
        lib += "    }\n  }\n";
    }
    lib + "}\n"
}

/// The cell-library table of `weft area`.
pub fn table(rows: &[(String, Option<AsicFigures>)]) -> String {
    let mut s = String::new();
    for (name, f) in rows {
        let Some(f) = f else {
            s += &format!("{name:<28} (stopped by the time limit)\n");
            continue;
        };
        if s.is_empty() {
            s += &format!(
                "\n{:<28} {:>12} {:>7} {:>7} {:>12} {:>9}\n",
                format!("preset ({})", f.library),
                "area µm²",
                "cells",
                "FFs",
                "path ns",
                "Fmax MHz"
            );
        }
        let (path, fmax) = match (f.critical_path_ns, f.fmax_mhz) {
            (Some(p), Some(m)) => (format!("{p:.3}"), format!("{m:.1}")),
            _ => ("-".into(), "-".into()),
        };
        s += &format!(
            "{name:<28} {:>12.0} {:>7} {:>7} {path:>12} {fmax:>9}\n",
            f.area_um2,
            f.cells_and_macros(),
            f.flip_flops
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAT: &str = include_str!("../../tests/data/yosys_stat_liberty_osu018.log");
    const STA: &str = include_str!("../../tests/data/opensta_min_period.log");

    #[test]
    fn yosys_stat_liberty_gives_area_cells_and_flip_flops() {
        let (area, cells, ffs, _) = parse_stat(STAT, &[]).unwrap();
        assert_eq!(area, 12060.0);
        assert_eq!(cells, 342);
        assert_eq!(ffs, 34);
    }

    #[test]
    fn a_cell_without_area_is_an_error_not_a_smaller_figure() {
        let broken = STAT.replace(
            "   Chip area",
            "   Area for cell type \\TIEHI is unknown!\n   Chip area",
        );
        assert!(parse_stat(&broken, &[])
            .unwrap_err()
            .contains("without an area"));
    }

    #[test]
    fn a_kept_hierarchy_is_summed_over_its_copies() {
        // Yosys 0.23's `stat -liberty` of lvc_4k mapped with its four banks kept.
        let log = include_str!("../../tests/data/yosys_stat_liberty_osu018_hier.log");
        let (area, cells, flip_flops, _) = parse_stat(log, &[]).unwrap();
        assert_eq!(area, 4.0 * 1884899.0 + 12404.0);
        assert_eq!(
            cells,
            4 * 46499 + 409 - 4,
            "the banks' cells, not the banks"
        );
        assert_eq!(flip_flops, 4 * 9173);
        // A cell that is not one of the design's modules is still an error.
        let broken = log.replace("type \\lvc_4k$bank is", "type \\TIEHI is");
        assert!(parse_stat(&broken, &[]).unwrap_err().contains("TIEHI"));
    }

    #[test]
    fn opensta_output_gives_the_period() {
        assert_eq!(parse_min_period(STA).unwrap(), Some(2.8216552734375));
        assert_eq!(
            parse_min_period("weft_min_period_ns 0.0009765625\n").unwrap(),
            None,
            "nothing timed"
        );
        assert!(parse_min_period("Error: cannot read").is_err());
    }

    #[test]
    fn a_missing_library_names_the_commands_that_fetch_it() {
        let nowhere = Library {
            name: "osu999",
            package: "qflow-tech-osu999",
            liberty: "nowhere/osu999.lib",
        };
        let err = nowhere.find().unwrap_err();
        assert!(err.contains("apt-get download qflow-tech-osu999"), "{err}");
        assert!(err.contains("dpkg -x"), "{err}");
    }
}
