//! The presets `tests/prove.rs` proves at the paper's sizes with no planted bug: each of
//! their properties fails on its block's planted bug at that size too, and the block's
//! invariants (`p_inv_*`) still hold on a bug planted for another property, so the
//! full-size proofs are not vacuous either.
mod common;
use common::scratch;
use std::path::Path;
use weft_flow::prove::{self, Harness, Outcome};
use weft_testbenches::{formal, presets};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Each planted bug of the preset's block on the preset's exported Verilog: its
/// property fails after the reset cycle, every `p_inv_*` property holds (a bug for
/// another property must not break an invariant, else the invariant alone would catch
/// it); every property has a bug.
fn every_planted_bug_caught(name: &str, depth: u32) {
    let p = presets::find(name).unwrap();
    let props = formal::properties(&p).unwrap();
    let harness = Harness {
        text: props.harness,
        params: (p.params)()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v as u64))
            .collect(),
    };
    let names = prove::properties(props.harness);
    let invariants: Vec<&String> = names.iter().filter(|n| n.starts_with("p_inv_")).collect();
    let verilog =
        std::fs::read_to_string(Path::new(ROOT).join(format!("verilog_out/{name}.v"))).unwrap();
    for n in &names {
        assert!(
            props.planted.iter().any(|(q, _, _)| q == n),
            "{name}: {n} has no planted bug"
        );
    }
    for (i, (property, find, replace)) in props.planted.iter().enumerate() {
        assert_eq!(
            verilog.matches(find).count(),
            1,
            "{name}: bug {i} for {property}: `{find}` once in the Verilog"
        );
        let dir = scratch(&format!("{name}-planted-{i}"));
        let file = dir.join(format!("{name}.v"));
        std::fs::write(&file, verilog.replace(find, replace)).unwrap();
        let proof = prove::prove_one(name, &file, &harness, property, depth, &dir, None).unwrap();
        assert!(
            matches!(proof.outcome, Outcome::Failed { cycle, .. } if cycle >= 2),
            "{name}: {property} missed its planted bug: {}",
            proof.line()
        );
        if property.starts_with("p_inv_") {
            continue;
        }
        for inv in &invariants {
            let proof = prove::prove_one(name, &file, &harness, inv, depth, &dir, None).unwrap();
            assert!(
                !matches!(proof.outcome, Outcome::Failed { .. }),
                "{name}: the bug planted for {property} breaks the invariant {}",
                proof.line()
            );
        }
    }
}

/// The block's planted bugs on the full-size presets (the same texts as on the small
/// presets `tests/prove.rs` checks; a bug is searched for up to 20 cycles).
#[test]
fn full_larger_presets_catch_every_planted_bug() {
    for name in [
        "adequacy_evaluator",
        "slip_controller_2w",
        "sub_warp_unit",
        "warp_compaction_unit",
    ] {
        every_planted_bug_caught(name, 20);
    }
}
