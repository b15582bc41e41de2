//! `weft area`: Yosys synthesis per preset. Cells after `synth -flatten` (Yosys's
//! generic gate library), flip-flop bits, and a transistor estimate from
//! `stat -tech cmos` after legalizing every flip-flop to a plain `$_DFF_P_` (synchronous
//! resets and enables become logic) and mapping to CMOS gates with `abc -g cmos2`.
use crate::tools::{transcript, YOSYS};
use serde::Serialize;
use std::path::Path;

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Area {
    pub preset: String,
    pub cells: u64,
    pub flip_flops: u64,
    pub transistors: u64,
}

/// Synthesizes `file` (top `name`) and reads the three figures from Yosys's log.
pub fn area_of(name: &str, file: &Path) -> Result<Area, String> {
    let script = format!(
        "read_verilog {}; synth -flatten -top {name}; tee -o /dev/stdout stat; \
         dfflegalize -cell $_DFF_P_ 01; abc -g cmos2; opt_clean; tee -o /dev/stdout stat -tech cmos",
        file.display()
    );
    let dir = std::env::current_dir().map_err(|e| e.to_string())?;
    let out = YOSYS.run(&["-q", "-p", &script], &dir)?;
    if !out.status.success() {
        return Err(format!(
            "yosys synthesis of {name} failed:\n{}",
            transcript(&out)
        ));
    }
    parse_stats(name, &String::from_utf8_lossy(&out.stdout))
}

/// Parses two `stat` reports: the generic one, then the `-tech cmos` one.
pub fn parse_stats(name: &str, log: &str) -> Result<Area, String> {
    let generic = log
        .split("Estimated number of transistors")
        .next()
        .unwrap_or_default();
    let first_stat = generic.split("=== ").nth(1).unwrap_or(generic);
    let number = |line: &str| {
        line.split_whitespace()
            .last()
            .and_then(|n| n.parse::<u64>().ok())
    };
    let cells = first_stat
        .lines()
        .find(|l| l.trim_start().starts_with("Number of cells:"))
        .and_then(number)
        .ok_or_else(|| format!("no cell count in Yosys's report for {name}"))?;
    let flip_flops = first_stat
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            t.starts_with("$_") && t.contains("DFF")
        })
        .filter_map(number)
        .sum();
    let transistors = log
        .lines()
        .find(|l| l.contains("Estimated number of transistors"))
        .and_then(number)
        .ok_or_else(|| format!("no transistor estimate in Yosys's report for {name}"))?;
    Ok(Area {
        preset: name.to_string(),
        cells,
        flip_flops,
        transistors,
    })
}

/// The area table as text.
pub fn table(rows: &[Area]) -> String {
    let mut s = format!(
        "{:<28} {:>8} {:>10} {:>12}\n",
        "preset", "cells", "flip-flops", "transistors"
    );
    for a in rows {
        s.push_str(&format!(
            "{:<28} {:>8} {:>10} {:>12}\n",
            a.preset, a.cells, a.flip_flops, a.transistors
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_yosys_stat_reports() {
        let log = "\n=== blk ===\n\n   Number of wires:                208\n   Number of cells:                144\n     $_ANDNOT_                      36\n     $_DFF_P_                       12\n     $_SDFF_PP0_                     3\n     $_OR_                          37\n\n=== blk ===\n   Number of cells:                202\n     $_DFF_P_                       15\n     $_NAND_                        72\n\n   Estimated number of transistors:        878\n";
        let a = parse_stats("blk", log).unwrap();
        assert_eq!(
            a,
            Area {
                preset: "blk".into(),
                cells: 144,
                flip_flops: 15,
                transistors: 878
            }
        );
        assert!(parse_stats("blk", "garbage").is_err());
    }
}
