//! `weft area`: technology-independent and FPGA area of a preset, all from one Yosys run.
//!
//! - `cells`, `flip_flops`: Yosys's generic gate library after `synth -flatten`, except
//!   that memories stay `$mem_v2` cells (the fine-grained steps of `synth` are run
//!   without `memory_map`), so RAM widgets are not counted as flip-flops; their storage
//!   is `ram_bits` (sum of SIZE x WIDTH over the memory cells).
//! - `gates`, `logic_depth`: the same netlist mapped by ABC to 2-input gates (AND, NAND,
//!   OR, NOR, XOR, XNOR, ANDNOT, ORNOT, plus inverters); `gates` excludes flip-flops and
//!   memories, `logic_depth` is Yosys `ltp -noff` (gates on the longest path between
//!   registers and ports), a timing figure that does not depend on a cell library.
//! - `transistors`: `stat -tech cmos` after legalizing every flip-flop to a plain
//!   `$_DFF_P_` (synchronous resets and enables become logic) and `abc -g cmos2`;
//!   memories are not included (Yosys has no transistor figure for them).
//! - `xilinx_*`: `synth_xilinx -flatten` (7-series): LUT1..LUT6, FD* flip-flops, LUT-RAM
//!   and block-RAM primitives.
use crate::jobs::parallel;
use crate::tools::{transcript, YOSYS};
use crate::verilog::Synthesis;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Area {
    pub preset: String,
    pub cells: u64,
    pub flip_flops: u64,
    pub transistors: u64,
    pub ram_bits: u64,
    pub gates: u64,
    pub logic_depth: u64,
    pub xilinx_luts: u64,
    pub xilinx_ffs: u64,
    pub xilinx_lutram: u64,
    pub xilinx_bram: u64,
}

/// Column names of [`Area::figures`], in order.
pub const FIGURES: [&str; 10] = [
    "cells",
    "FFs",
    "RAM bits",
    "gates",
    "depth",
    "transistors",
    "xc LUT",
    "xc FF",
    "xc LUTRAM",
    "BRAM",
];

impl Area {
    /// Every figure, in the order of [`FIGURES`].
    pub fn figures(&self) -> [u64; 10] {
        [
            self.cells,
            self.flip_flops,
            self.ram_bits,
            self.gates,
            self.logic_depth,
            self.transistors,
            self.xilinx_luts,
            self.xilinx_ffs,
            self.xilinx_lutram,
            self.xilinx_bram,
        ]
    }
}

const GENERIC: &str = "==weft generic==";
const GATES: &str = "==weft gates==";
const CMOS: &str = "==weft cmos==";
const XILINX: &str = "==weft xilinx==";

/// The Yosys script behind every figure; markers split its log into sections. `blocks`
/// (from [`crate::verilog::synthesis_blocks`]: module, copies) keep their hierarchy: each
/// is synthesised once, flat inside, and `stat` sums the design over its copies; the
/// memories are dumped per module after a `weft-copies N` line that weights them.
pub fn script(name: &str, file: &Path, blocks: &[(String, u64)]) -> String {
    let marker = |m: &str| format!("tee -a /dev/stdout log {m}");
    let mut read = vec![format!("read_verilog {}", file.display())];
    let mut memories = vec!["tee -a /dev/stdout dump t:$mem_v2 t:$mem %u".to_string()];
    if !blocks.is_empty() {
        let names: Vec<&str> = blocks.iter().map(|b| b.0.as_str()).collect();
        read.push(format!("hierarchy -top {name}"));
        read.push(format!(
            "setattr -mod -set keep_hierarchy 1 {}",
            names.join(" ")
        ));
        memories = std::iter::once((name, 1))
            .chain(blocks.iter().map(|(b, n)| (b.as_str(), *n)))
            .map(|(m, n)| {
                format!("tee -a /dev/stdout log weft-copies {n}; tee -a /dev/stdout dump {m}/t:$mem_v2 {m}/t:$mem %u")
            })
            .collect();
    }
    [
        read.join("; "),
        "design -save read".into(),
        format!("synth -flatten -top {name} -run :fine"),
        // `synth`'s fine and check steps without memory_map: RAMs stay $mem_v2 cells.
        "opt -fast -full; opt -full; techmap; opt -fast; abc -fast; opt -fast; check".into(),
        marker(GENERIC),
        "tee -a /dev/stdout stat".into(),
        memories.join("; "),
        "design -save generic".into(),
        "abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT; opt_clean".into(),
        marker(GATES),
        "tee -a /dev/stdout stat".into(),
        ltp(blocks),
        "design -load generic".into(),
        "dfflegalize -cell $_DFF_P_ 01; abc -g cmos2; opt_clean".into(),
        marker(CMOS),
        "tee -a /dev/stdout stat -tech cmos".into(),
        "design -load read".into(),
        format!("synth_xilinx -flatten -top {name}"),
        marker(XILINX),
        "tee -a /dev/stdout stat".into(),
    ]
    .join("; ")
}

/// The longest-path command: a kept block is a cell of its parent that `ltp` would take
/// for one gate from every input to every output, making loops of the blocks' registered
/// feedback (the fabric's tiles); leaving those cells out measures each module's own paths.
fn ltp(blocks: &[(String, u64)]) -> String {
    let skip: String = blocks.iter().map(|(b, _)| format!(" t:{b} %d")).collect();
    match skip.is_empty() {
        true => "tee -a /dev/stdout ltp -noff".into(),
        false => format!("tee -a /dev/stdout ltp -noff *{skip}"),
    }
}

/// Synthesizes `file` (top `name`) and reads every figure from Yosys's log.
pub fn area_of(name: &str, file: &Path) -> Result<Area, String> {
    area_within(name, file, None).map(|a| a.expect("an unlimited run is never stopped"))
}

/// [`area_of`], stopping Yosys after `limit`: `Ok(None)` when it was stopped.
pub fn area_within(
    name: &str,
    file: &Path,
    limit: Option<Duration>,
) -> Result<Option<Area>, String> {
    area_as(name, file, limit, Synthesis::Auto)
}

/// [`area_within`], synthesised as `mode` says.
pub fn area_as(
    name: &str,
    file: &Path,
    limit: Option<Duration>,
    mode: Synthesis,
) -> Result<Option<Area>, String> {
    let dir = std::env::current_dir().map_err(|e| e.to_string())?;
    let verilog = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let blocks = crate::verilog::blocks_for(&verilog, name, mode);
    let script = script(name, file, &blocks);
    let Some(out) = YOSYS.run_limited(&["-q", "-p", &script], &dir, limit)? else {
        return Ok(None);
    };
    if !out.status.success() {
        return Err(format!(
            "yosys synthesis of {name} failed:\n{}",
            transcript(&out)
        ));
    }
    parse_stats(name, &String::from_utf8_lossy(&out.stdout)).map(Some)
}

/// The text between `marker` and the next marker (or the end).
fn section<'a>(log: &'a str, marker: &str) -> Option<&'a str> {
    let start = log.find(marker)? + marker.len();
    let rest = &log[start..];
    let end = rest.find("==weft ").unwrap_or(rest.len());
    Some(&rest[..end])
}

/// A number as Yosys prints it: decimal, or sized binary (`32'00..0100`).
fn yosys_number(text: &str) -> Option<u64> {
    let t = text.trim().trim_end_matches('+');
    match t.split_once('\'') {
        Some((_, bits)) => u64::from_str_radix(bits.trim_start_matches(['s', 'b']), 2).ok(),
        None => t.parse().ok(),
    }
}

/// `(cell type, count)` for every cell line of the first `stat` report in `text`.
pub fn cell_counts(text: &str) -> Vec<(String, u64)> {
    let Some(start) = text.find("Number of cells:") else {
        return vec![];
    };
    text[start..]
        .lines()
        .skip(1)
        .map_while(|l| {
            let mut words = l.split_whitespace();
            let (kind, n, extra) = (words.next()?, words.next()?, words.next());
            if extra.is_some() {
                return None;
            }
            Some((kind.to_string(), yosys_number(n)?))
        })
        .collect()
}

fn last_number(line: &str) -> Option<u64> {
    line.split_whitespace().last().and_then(yosys_number)
}

/// Total storage of the memory cells in a `dump` of `$mem`/`$mem_v2` cells, each
/// counted as many times as the last `weft-copies N` line before it says (once without).
pub fn memory_bits(dump: &str) -> u64 {
    let mut total = 0;
    let mut copies = 1;
    let (mut size, mut width) = (None, None);
    for line in dump.lines().map(str::trim) {
        if let Some(n) = line.strip_prefix("weft-copies ").and_then(yosys_number) {
            copies = n;
        } else if line.starts_with("cell $mem") {
            (size, width) = (Some(0), Some(0));
        } else if let Some(v) = line.strip_prefix("parameter \\SIZE ") {
            size = yosys_number(v);
        } else if let Some(v) = line.strip_prefix("parameter \\WIDTH ") {
            width = yosys_number(v);
        } else if line == "end" {
            if let (Some(s), Some(w)) = (size, width) {
                total += s * w * copies;
            }
            (size, width) = (None, None);
        }
    }
    total
}

/// A `stat` report's figures for the whole design: the `design hierarchy` part (the
/// modules summed over their copies) when the design kept a hierarchy, else all of it.
fn summed(stat: &str) -> &str {
    stat.find("=== design hierarchy ===")
        .map_or(stat, |at| &stat[at..])
}

/// Parses the sectioned log of [`script`].
pub fn parse_stats(name: &str, log: &str) -> Result<Area, String> {
    let missing = |what: &str| format!("no {what} in Yosys's report for {name}");
    let generic = section(log, GENERIC).ok_or_else(|| missing("generic statistics"))?;
    let ram_bits = memory_bits(generic);
    let generic = summed(generic);
    let cells = generic
        .lines()
        .find(|l| l.trim_start().starts_with("Number of cells:"))
        .and_then(last_number)
        .ok_or_else(|| missing("cell count"))?;
    let counts = cell_counts(generic);
    let is_ff = |k: &str| k.starts_with("$_") && k.contains("DFF");
    let flip_flops = counts.iter().filter(|(k, _)| is_ff(k)).map(|c| c.1).sum();

    let gate_text = section(log, GATES).ok_or_else(|| missing("gate statistics"))?;
    const GATE_TYPES: [&str; 11] = [
        "$_AND_",
        "$_NAND_",
        "$_OR_",
        "$_NOR_",
        "$_XOR_",
        "$_XNOR_",
        "$_ANDNOT_",
        "$_ORNOT_",
        "$_NOT_",
        "$_BUF_",
        "$_MUX_",
    ];
    let gate_counts = cell_counts(summed(gate_text));
    if gate_counts.is_empty() && !gate_text.contains("Number of cells:") {
        return Err(missing("gate count"));
    }
    let gates = gate_counts
        .iter()
        .filter(|(k, _)| GATE_TYPES.contains(&k.as_str()))
        .map(|c| c.1)
        .sum();
    // One path per module: the design's depth is the longest (a block's ports count as
    // path ends, so a path crossing a block boundary is counted in pieces).
    let logic_depth = gate_text
        .lines()
        .filter(|l| l.starts_with("Longest topological path"))
        .filter_map(|l| l.split("length=").nth(1))
        .filter_map(|r| yosys_number(r.trim_end_matches(['(', ')', ':'])))
        .max()
        .ok_or_else(|| missing("longest path (ltp)"))?;

    let transistors = section(log, CMOS)
        .and_then(|s| {
            summed(s)
                .lines()
                .find(|l| l.contains("Estimated number of transistors"))
                .and_then(last_number)
        })
        .ok_or_else(|| missing("transistor estimate"))?;

    let xilinx = section(log, XILINX).ok_or_else(|| missing("synth_xilinx statistics"))?;
    let xc = cell_counts(summed(xilinx));
    if xc.is_empty() {
        return Err(missing("synth_xilinx cell count"));
    }
    let sum_of = |keep: &dyn Fn(&str) -> bool| -> u64 {
        xc.iter().filter(|(k, _)| keep(k)).map(|c| c.1).sum()
    };
    let xilinx_luts = sum_of(&|k| k.len() == 4 && k.starts_with("LUT"));
    let xilinx_ffs = sum_of(&|k| k.starts_with("FD"));
    let xilinx_bram = sum_of(&|k| k.starts_with("RAMB"));
    let xilinx_lutram = sum_of(&|k| k.starts_with("RAM") && !k.starts_with("RAMB") && k.len() > 3);
    Ok(Area {
        preset: name.to_string(),
        cells,
        flip_flops,
        transistors,
        ram_bits,
        gates,
        logic_depth,
        xilinx_luts,
        xilinx_ffs,
        xilinx_lutram,
        xilinx_bram,
    })
}

/// The area table's header, `extra` titling a last column; each row comes from
/// [`table_line`].
pub fn table_header(extra: &str) -> String {
    line("preset", FIGURES.map(String::from).to_vec(), extra)
}

/// One preset's row of the area table, `extra` in a last column (the iCE40 figure, or
/// nothing).
pub fn table_line(a: &Area, extra: &str) -> String {
    line(
        &a.preset,
        a.figures().map(|n| n.to_string()).to_vec(),
        extra,
    )
}

fn line(name: &str, cells: Vec<String>, extra: &str) -> String {
    let cells: Vec<String> = cells
        .iter()
        .zip(FIGURES)
        .map(|(c, title)| format!("{c:>w$}", w = title.len().max(7)))
        .collect();
    format!("{name:<28} {}  {extra}", cells.join(" "))
        .trim_end()
        .to_string()
        + "\n"
}

/// The area table as text.
pub fn table(rows: &[Area]) -> String {
    let mut s = table_header("");
    for a in rows {
        s.push_str(&table_line(a, ""));
    }
    s
}

/// `flat`, or `hierarchical:` with each block and its copies, as `mode` synthesises `file`.
pub fn how_synthesised(name: &str, file: &Path, mode: Synthesis) -> String {
    let verilog = std::fs::read_to_string(file).unwrap_or_default();
    let blocks = crate::verilog::blocks_for(&verilog, name, mode);
    if blocks.is_empty() {
        return "flat".into();
    }
    let each: Vec<String> = blocks.iter().map(|(b, n)| format!("{n} x {b}")).collect();
    format!("hierarchical: {}", each.join(", "))
}

/// Every design's area, `jobs` at a time (Yosys is single-threaded), with a progress
/// line per design on stderr; a run past `limit` is stopped and named in the second
/// vector instead.
pub fn areas(
    designs: &[(&str, &Path)],
    limit: Option<Duration>,
    jobs: usize,
    mode: Synthesis,
) -> Result<(Vec<Area>, Vec<String>), String> {
    let done = AtomicUsize::new(0);
    let results = parallel(designs, jobs, |(name, file)| {
        let start = Instant::now();
        let r = area_as(name, file, limit, mode);
        let n = done.fetch_add(1, Ordering::SeqCst) + 1;
        let what = match &r {
            Ok(Some(_)) => format!(
                "{:.1} s, {}",
                start.elapsed().as_secs_f64(),
                how_synthesised(name, file, mode)
            ),
            Ok(None) => "stopped at --synth-minutes".into(),
            Err(_) => "failed".into(),
        };
        eprintln!("[{n:>2}/{}] area {name:<28} {what}", designs.len());
        r
    });
    let mut rows = vec![];
    let mut stopped = vec![];
    for ((name, _), r) in designs.iter().zip(results) {
        match r? {
            Some(a) => rows.push(a),
            None => stopped.push(format!(
                "{name}: synthesis > {} min (raise --synth-minutes)",
                limit.map_or(0, |l| l.as_secs() / 60)
            )),
        }
    }
    Ok((rows, stopped))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Trimmed from a real Yosys 0.23 run of `script` on cvt_8x256 (memory dump shortened
    /// to two of its eight banks and the path listing to its ends).
    const CAPTURED: &str = include_str!("../../tests/data/yosys_area_cvt.log");

    #[test]
    fn parses_a_captured_area_log() {
        let a = parse_stats("cvt_8x256", CAPTURED).unwrap();
        assert_eq!(
            a,
            Area {
                preset: "cvt_8x256".into(),
                cells: 2277,
                flip_flops: 107,
                transistors: 18338,
                ram_bits: 2 * 4 * 64,
                gates: 50 + 577 + 1945 + 573 + 5 + 533 + 5,
                logic_depth: 17,
                xilinx_luts: 105 + 66 + 525 + 51 + 317,
                xilinx_ffs: 619,
                xilinx_lutram: 88,
                xilinx_bram: 0,
            }
        );
    }

    #[test]
    fn a_truncated_log_is_an_error_not_zeroes() {
        assert!(parse_stats("blk", "garbage").is_err());
        let without_xilinx = CAPTURED.split(XILINX).next().unwrap();
        let err = parse_stats("cvt_8x256", without_xilinx).unwrap_err();
        assert!(err.contains("synth_xilinx"), "{err}");
        let without_ltp: String = CAPTURED
            .lines()
            .filter(|l| !l.starts_with("Longest"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(parse_stats("cvt_8x256", &without_ltp).is_err());
    }

    #[test]
    fn a_kept_hierarchy_counts_every_copy() {
        // Each module's memories after the number of copies the design holds of it.
        let dump = "weft-copies 1\ncell $mem_v2 \\a\n parameter \\SIZE 4\n parameter \\WIDTH 8\nend\n\
                    weft-copies 16\ncell $mem_v2 \\b\n parameter \\SIZE 2\n parameter \\WIDTH 3\nend\n";
        assert_eq!(memory_bits(dump), 4 * 8 + 16 * 2 * 3);
        // Yosys 0.23 `stat` of a kept hierarchy (trimmed): each module, then the sum.
        let stat = "=== blk$t ===\n   Number of cells:                 3\n     $_AND_                          2\n     $_DFF_P_                        1\n\n\
                    === blk ===\n   Number of cells:                17\n     $_DFF_P_                        1\n     blk$t                          16\n\n\
                    === design hierarchy ===\n\n   blk                               1\n     blk$t                          16\n\n\
                       Number of cells:                49\n     $_AND_                         32\n     $_DFF_P_                       17\n";
        assert_eq!(
            cell_counts(summed(stat)),
            [("$_AND_".to_string(), 32), ("$_DFF_P_".to_string(), 17)]
        );
        assert_eq!(
            summed("Number of cells: 3"),
            "Number of cells: 3",
            "flat: all of it"
        );
    }

    #[test]
    fn reads_sized_binary_parameters() {
        let dump = "cell $mem_v2 \\m\n parameter \\SIZE 32'00000000000000000000000100000000\n parameter \\WIDTH 8\nend\n";
        assert_eq!(memory_bits(dump), 256 * 8);
    }
}
