//! Area and timing on a real standard-cell library: Yosys maps the preset's flip-flops
//! (`dfflibmap`) and logic (`abc` with the library and a delay target) to the library's
//! cells and reports their area in µm² (`stat -liberty`); OpenSTA then finds the shortest
//! clock period that meets the committed SDC (`constraints/weft.sdc`, whose input and
//! output budgets scale with the period), hence the maximum clock. Typical corner, no
//! wires, no placement: a synthesis estimate, not a sign-off figure.
//!
//! The libraries are Debian's OSU cells (`qflow-tech-osu018`, `qflow-tech-osu035`),
//! fetched with `apt-get download` and unpacked with `dpkg -x` under
//! `target/cell-libraries/` (what `./test.sh` does), or installed as packages.
use crate::tools::{Tool, YOSYS};
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
    pub cells: u64,
    pub flip_flops: u64,
    /// The shortest clock period meeting the SDC; `None` when no path is timed.
    pub critical_path_ns: Option<f64>,
    pub fmax_mhz: Option<f64>,
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
    Ok([
        script(name, file, &[], lib, Path::new("constr"), net),
        format!(
            "blocks of at least {} lines in designs over {}",
            crate::verilog::BLOCK_LINES,
            crate::verilog::FLAT_LINES
        ),
        ABC_CONSTRAINTS.to_string(),
        sta_script(name, lib, net, Path::new("sdc"), PeriodSearch::Secant),
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
/// `blocks` keep their hierarchy (see [`crate::area::script`]).
fn script(
    name: &str,
    file: &Path,
    blocks: &[(String, u64)],
    liberty: &Path,
    constr: &Path,
    netlist: &Path,
) -> String {
    let lib = liberty.display();
    let mut read = format!("read_verilog {}", file.display());
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
        "opt_clean".into(),
        format!("tee -a /dev/stdout stat -liberty {lib}"),
        format!("write_verilog -noattr {}", netlist.display()),
    ]
    .join("; ")
}

/// Area, cells and flip-flops from Yosys's `stat -liberty` report.
pub fn parse_stat(log: &str) -> Result<(f64, u64, u64), String> {
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
    let cells = lines
        .next()
        .and_then(|l| l.split_whitespace().last()?.parse().ok())
        .ok_or("no cell count in the Yosys log")?;
    // The per-type lines follow the count; flip-flops are the library's DFF cells.
    let flip_flops = lines
        .map_while(|l| {
            let mut w = l.split_whitespace();
            let (kind, n) = (w.next()?, w.next()?.parse::<u64>().ok()?);
            Some((kind.to_string(), n))
        })
        .filter(|(kind, _)| kind.starts_with("DFF") || kind.starts_with("\\DFF"))
        .map(|(_, n)| n)
        .sum();
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
        .find(|cell| !modules.contains(&cell.trim_start_matches('\\')));
    if let Some(cell) = unknown {
        return Err(format!(
            "a cell without an area in the library: {cell} (see the Yosys log)"
        ));
    }
    Ok((area, cells, flip_flops))
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
    format!(
        r#"read_liberty {lib}
read_verilog {net}
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
/// `search` with OpenSTA run in `dir`; `None` when no path is timed.
pub fn min_period(
    name: &str,
    liberty: &Path,
    netlist: &Path,
    sdc: &Path,
    dir: &Path,
    search: PeriodSearch,
) -> Result<Option<f64>, String> {
    let tcl = dir.join(format!("{name}.sta.tcl"));
    std::fs::write(&tcl, sta_script(name, liberty, netlist, sdc, search))
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
    let Some(out) = YOSYS.run_limited(
        &[
            "-q",
            "-p",
            &script(name, &file, &blocks, &liberty, &constr, &netlist),
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
    let (area_um2, cells, flip_flops) = parse_stat(&log).map_err(|e| format!("{name}: {e}"))?;
    let period = min_period(name, &liberty, &netlist, &sdc, dir, PeriodSearch::Secant)?;
    Ok(Some(AsicFigures {
        library: library.name.into(),
        area_um2,
        cells,
        flip_flops,
        critical_path_ns: period,
        fmax_mhz: period.map(|p| 1000.0 / p),
    }))
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
            f.area_um2, f.cells, f.flip_flops
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
        let (area, cells, ffs) = parse_stat(STAT).unwrap();
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
        assert!(parse_stat(&broken).unwrap_err().contains("without an area"));
    }

    #[test]
    fn a_kept_hierarchy_is_summed_over_its_copies() {
        // Yosys 0.23's `stat -liberty` of lvc_4k mapped with its four banks kept.
        let log = include_str!("../../tests/data/yosys_stat_liberty_osu018_hier.log");
        let (area, cells, flip_flops) = parse_stat(log).unwrap();
        assert_eq!(area, 4.0 * 1884899.0 + 12404.0);
        assert_eq!(
            cells,
            4 * 46499 + 409 - 4,
            "the banks' cells, not the banks"
        );
        assert_eq!(flip_flops, 4 * 9173);
        // A cell that is not one of the design's modules is still an error.
        let broken = log.replace("type \\lvc_4k$bank is", "type \\TIEHI is");
        assert!(parse_stat(&broken).unwrap_err().contains("TIEHI"));
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
