//! `weft prove`: a preset's properties (its block's `.props.v` harness) proved on its
//! exported Verilog with `weft_flow::prove`, and the planted bugs that show no property
//! is vacuous.
use crate::presets::{Preset, Properties};
use std::path::Path;
use std::time::Duration;
use weft_flow::prove::{self, Harness, Outcome, Proof};

/// The preset's properties, or a message naming the presets that have some.
pub fn properties(p: &Preset) -> Result<Properties, String> {
    (p.properties)().ok_or_else(|| {
        let with: Vec<&str> = crate::presets::all()
            .iter()
            .filter(|q| (q.properties)().is_some())
            .map(|q| q.name)
            .collect();
        format!(
            "{} has no formal properties yet; presets with properties: {}",
            p.name,
            with.join(", ")
        )
    })
}

fn harness(p: &Preset, properties: &Properties) -> Harness<'static> {
    Harness {
        text: properties.harness,
        params: (p.params)()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v as u64))
            .collect(),
    }
}

/// Every property of the preset on the Verilog in `verilog`; work files in `dir`.
pub fn prove(
    p: &Preset,
    verilog: &Path,
    depth: u32,
    dir: &Path,
    limit: Option<Duration>,
) -> Result<Vec<Proof>, String> {
    let props = properties(p)?;
    prove::prove(p.name, verilog, &harness(p, &props), depth, dir, limit)
}

/// Each planted bug in turn: the preset's Verilog with the text replaced, and the
/// proof of the property that must catch it. A planted text that is not in the
/// Verilog exactly once is an error (the bug would not be planted).
pub fn planted(
    p: &Preset,
    verilog: &str,
    depth: u32,
    dir: &Path,
) -> Result<Vec<(String, Proof)>, String> {
    let props = properties(p)?;
    let h = harness(p, &props);
    let names = prove::properties(props.harness);
    let mut results = vec![];
    for (i, (property, find, replace)) in props.planted.iter().enumerate() {
        if !names.iter().any(|n| n == property) {
            return Err(format!("planted bug {i}: no property {property}"));
        }
        let n = verilog.matches(find).count();
        if n != 1 {
            return Err(format!(
                "planted bug {i} for {property}: `{find}` occurs {n} times in {}",
                p.name
            ));
        }
        let bug_dir = dir.join(format!("planted-{i}"));
        std::fs::create_dir_all(&bug_dir)
            .map_err(|e| format!("cannot create {}: {e}", bug_dir.display()))?;
        let file = bug_dir.join(format!("{}.v", p.name));
        std::fs::write(&file, verilog.replace(find, replace))
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        let proof = prove::prove_one(p.name, &file, &h, property, depth, &bug_dir, None)?;
        results.push((property.to_string(), proof));
    }
    Ok(results)
}

/// Whether a proof failed.
pub fn failed(proof: &Proof) -> bool {
    matches!(proof.outcome, Outcome::Failed { .. })
}
