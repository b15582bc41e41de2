//! `weft prove`: a preset's properties (its block's `.props.v` harness) proved on its
//! exported Verilog with `weft_flow::prove`, and the planted bugs that show no property
//! is vacuous: each breaks its property's own clause while the block's invariants
//! (`p_inv_*`) hold.
use crate::presets::{Preset, Properties};
use std::path::Path;
use std::time::Duration;
use weft_flow::jobs::parallel;
use weft_flow::prove::{self, Harness, Keep, Outcome, Proof, Search};

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

/// The preset's property harness with its parameters.
pub fn harness_of(p: &Preset) -> Result<Harness<'static>, String> {
    Ok(harness(p, &properties(p)?))
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
    prove::prove(p.name, verilog, &harness_of(p)?, depth, dir, limit)
}

/// One planted bug checked: the property's own proof on the planted Verilog and, for a
/// property other than an invariant of a block that has some, the invariants' proof on
/// the same Verilog.
pub struct Caught {
    pub property: String,
    /// The property alone ([`Keep::Alone`]): a failure is its own clause's.
    pub proof: Proof,
    /// Every `p_inv_*` asserted together, to the same depth: a bug that the property
    /// catches only through a broken invariant fails this proof too (none when
    /// [`Invariants::Skipped`]).
    pub invariants: Option<Proof>,
}

/// Whether [`planted`] proves the invariants on each planted Verilog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invariants {
    /// On the bug of every property other than an invariant.
    Checked,
    /// Not: for a larger preset whose bugs are the same texts as those of a smaller
    /// preset of its block, where they are checked (at full size the joint proof costs
    /// minutes per bug and shows nothing the small preset's does not).
    Skipped,
}

/// Each planted bug (two at a time): the preset's Verilog with the text replaced, the
/// proof of the property that must catch it and, for a property other than an
/// invariant (`p_inv_*`), the proof that the invariants still hold on it (the
/// convention: invariants are their own properties, a property's planted bug must
/// break its own clause and leave the invariants holding). A planted text that is not in
/// the Verilog exactly once is an error (the bug would not be planted). Each bug's
/// property is searched from reset to `depth` (bounded model checking, no induction
/// step): a bug is caught by a counterexample from reset, which only the base case
/// finds, so the induction steps `sat -tempinduct` would interleave change no outcome
/// and cost most of the time (capt_8's LRU bug: the same failure at cycle 10 in 7 s of
/// CPU instead of 67 s).
pub fn planted(
    p: &Preset,
    verilog: &str,
    depth: u32,
    dir: &Path,
    invariants: Invariants,
) -> Result<Vec<Caught>, String> {
    let props = properties(p)?;
    planted_bugs(p, props.planted, verilog, depth, dir, invariants)
}

/// [`planted`] with the bugs given: (property, text of the Verilog, replacement).
pub fn planted_bugs(
    p: &Preset,
    bugs: &[(&str, &str, &str)],
    verilog: &str,
    depth: u32,
    dir: &Path,
    invariants: Invariants,
) -> Result<Vec<Caught>, String> {
    let props = properties(p)?;
    let h = harness(p, &props);
    let names = prove::properties(props.harness);
    let invariant = names
        .iter()
        .find(|n| prove::is_invariant(n))
        .filter(|_| invariants == Invariants::Checked);
    let mut files = vec![];
    for (i, (property, find, replace)) in bugs.iter().enumerate() {
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
        files.push((*property, file, bug_dir));
    }
    parallel(&files, 2, |(property, file, bug_dir)| {
        let proof = prove::prove_one(
            p.name,
            file,
            &h,
            property,
            Keep::Alone,
            Search::BaseOnly,
            depth,
            bug_dir,
            None,
        )?;
        // Asserted together, the invariants are one proof, whichever one names it. They
        // must hold in every state the property's counterexample can pass through: up
        // to the cycle it fails in (the whole depth when it does not fail, which the test
        // then reports). Deeper, a bug may break them in states the failure never needs,
        // and the search would cost minutes per bug for nothing; so is the induction
        // (bounded model checking only).
        let invariants = match invariant {
            Some(inv) if !prove::is_invariant(property) => {
                let inv_dir = bug_dir.join("invariants");
                let through = match proof.outcome {
                    prove::Outcome::Failed { cycle, .. } => cycle.min(depth),
                    _ => depth,
                };
                Some(prove::prove_one(
                    p.name,
                    file,
                    &h,
                    inv,
                    Keep::Invariants,
                    Search::BaseOnly,
                    through,
                    &inv_dir,
                    None,
                )?)
            }
            _ => None,
        };
        Ok(Caught {
            property: property.to_string(),
            proof,
            invariants,
        })
    })
    .into_iter()
    .collect()
}

/// Whether a proof failed.
pub fn failed(proof: &Proof) -> bool {
    matches!(proof.outcome, Outcome::Failed { .. })
}
