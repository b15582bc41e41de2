//! The cost of a study's mechanisms: the figures of their blocks' presets from the report
//! (the cache, then the published report), beside what the paper says they store.
use crate::page::table;
use serde_json::{json, Value};

/// A block a mechanism adds: (mechanism, the block's preset, what the paper says of it).
pub type Block = (&'static str, &'static str, &'static str);

/// One JSON row per block: the report's figures, `null` where the report has none.
pub fn rows(blocks: &[Block]) -> Vec<Value> {
    let known = weft_flow::report::Known::project();
    blocks
        .iter()
        .map(|&(mechanism, preset, paper)| {
            let row = known.last(preset);
            let area = row.as_ref().and_then(|r| r.area.as_ref());
            let fpga = row.as_ref().and_then(|r| r.fpga.as_ref());
            json!({
                "mechanism": mechanism,
                "preset": preset,
                "paper_storage": paper,
                "flip_flops": area.map(|a| a.flip_flops),
                "cells": area.map(|a| a.cells),
                "gates": area.map(|a| a.gates),
                "ice40_logic_cells": fpga.map(|f| f.logic_cells),
                "ice40_fmax_mhz": fpga.and_then(|f| f.fmax_median_mhz),
                "asic": row.as_ref().and_then(|r| r.asic.clone()),
            })
        })
        .collect()
}

/// The rows as a Markdown table; `paper` heads the paper's column ("paper (§3.3)").
pub fn markdown(rows: &[Value], paper: &str) -> String {
    let cell = |v: &Value| match v {
        Value::Null => "n/a".to_string(),
        Value::Number(n) => n.to_string(),
        other => other.to_string(),
    };
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let asic = &r["asic"];
            vec![
                r["mechanism"].as_str().unwrap_or("").to_string(),
                format!("`{}`", r["preset"].as_str().unwrap_or("")),
                cell(&r["flip_flops"]),
                cell(&r["cells"]),
                cell(&r["gates"]),
                cell(&r["ice40_logic_cells"]),
                cell(&r["ice40_fmax_mhz"]),
                match (asic["area_um2"].as_f64(), asic["memory_macros"].as_u64()) {
                    (None, _) => "n/a".into(),
                    (Some(a), None | Some(0)) => format!("{a:.0}"),
                    (Some(a), Some(n)) => format!("{a:.0} + {n} RAMs"),
                },
                asic["critical_path_ns"]
                    .as_f64()
                    .map_or("n/a".into(), |a| format!("{a:.3}")),
                r["paper_storage"].as_str().unwrap_or("").to_string(),
            ]
        })
        .collect();
    let with_rams = rows.iter().any(|r| r[7].contains("RAMs"));
    let mut md = table(
        &[
            "mechanism".into(),
            "block (preset)".into(),
            "flip-flops".into(),
            "Yosys cells".into(),
            "2-input gates".into(),
            "iCE40 LCs".into(),
            "iCE40 Fmax MHz".into(),
            "osu018 um2".into(),
            "osu018 critical path ns".into(),
            paper.into(),
        ],
        &rows,
    );
    if with_rams {
        md += "\nosu018 has no memories: `+ N RAMs` are memory macros, outside the um2 \
               (their storage is the report's RAM bits) and timed at their ports.\n";
    }
    md
}

/// `key` of the row of `preset`, when the report has it.
pub fn figure(rows: &[Value], preset: &str, key: &dyn Fn(&Value) -> Option<f64>) -> Option<f64> {
    rows.iter().find(|r| r["preset"] == preset).and_then(key)
}
