//! Formal proofs of a block's contract on its exported Verilog. A block's properties
//! are a harness module `weft_prove` (Verilog under `read_verilog -formal`) written next
//! to its bench: it instantiates `WEFT_UUT` (replaced by the preset's module), takes
//! the preset's parameters, assumes reset in its first cycle and states each property
//! as an assertion labelled `p_<name>`.
//!
//! A harness states the invariants its properties' inductions stand on as properties
//! of their own, labelled `p_inv_<what>`. Each property is proved with the invariants
//! asserted beside it (the other assertions removed with `chformal`; an invariant's
//! proof is the invariants' joint proof), so a failure is the property's or an
//! invariant's, and the induction assumes both held in the earlier steps; a planted
//! bug is checked on the property alone (`Keep::Alone`), so its failure is the
//! property's own clause. Proofs use Yosys's `sat -tempinduct`: the base case is bounded model checking from reset,
//! the induction step k-induction, both with Yosys's built-in SAT solver. Measured on
//! `sub_warp_unit_4x8`: `yosys-smtbmc` with Debian's z3 4.8.12 had not finished step 0
//! of a two-assertion harness after 5 minutes (Debian's boolector crashes in its
//! unroll mode), while `sat` proves ten properties by induction in seconds.
use crate::jobs::parallel;
use crate::tools::YOSYS;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What a proof found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Outcome {
    /// Holds in every reachable state: k-induction succeeded at this length.
    Proved { induction_length: u32 },
    /// No counterexample within `depth` cycles of reset; induction did not close.
    HoldsTo { depth: u32 },
    /// A counterexample: the cycle the assertion fails (1 = the reset cycle), the
    /// harness's signals in that cycle, and the trace as a VCD.
    Failed {
        cycle: u32,
        signals: Vec<(String, String)>,
        vcd: PathBuf,
    },
    /// The solver ran past its time limit.
    Stopped { minutes: u64 },
}

/// One property's result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Proof {
    pub property: String,
    pub outcome: Outcome,
    pub seconds: f64,
}

impl Proof {
    /// One line: the property, the result and the time.
    pub fn line(&self) -> String {
        let what = match &self.outcome {
            Outcome::Proved { induction_length } => {
                format!("proved (induction, length {induction_length})")
            }
            Outcome::HoldsTo { depth } => format!("holds to depth {depth} (induction open)"),
            Outcome::Failed {
                cycle,
                signals,
                vcd,
            } => format!(
                "FAILED in cycle {cycle}: {}; trace {}",
                signals
                    .iter()
                    .map(|(n, v)| format!("{n}={v}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                vcd.display()
            ),
            Outcome::Stopped { minutes } => format!("stopped after {minutes} min"),
        };
        format!("{:<44} {what} ({:.1} s)", self.property, self.seconds)
    }
}

/// The label prefix of a harness's invariants.
pub const INVARIANT: &str = "p_inv_";

/// Whether the property `name` is an invariant (`p_inv_<what>`).
pub fn is_invariant(name: &str) -> bool {
    name.starts_with(INVARIANT)
}

/// Which assertions a property's proof keeps beside its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// The harness's invariants (`p_inv_*`): the induction stands on them, and a
    /// failure is the property's or an invariant's (what `weft prove` runs).
    Invariants,
    /// None: a failure is the property's own (what a planted bug is checked with).
    Alone,
}

/// How far a proof searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// Bounded model checking from reset and k-induction: [`Outcome::Proved`] when the
    /// induction closes (what `weft prove` runs).
    Induction,
    /// Bounded model checking from reset only: no counterexample within the depth is
    /// [`Outcome::HoldsTo`]. What the invariants on a planted bug's Verilog need (every
    /// state the property's counterexample passes through); measured on `capt_8`'s
    /// invariants to depth 8 on a planted bug: 23 s, where the induction search ran for
    /// minutes without closing.
    BaseOnly,
}

/// A block's property harness with the parameters of one preset.
pub struct Harness<'a> {
    pub text: &'a str,
    pub params: Vec<(String, u64)>,
}

/// The property labels of a harness (`p_name:` before an assertion), in order.
pub fn properties(harness: &str) -> Vec<String> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut names: Vec<String> = vec![];
    let mut rest = harness;
    while let Some(at) = rest.find("p_") {
        let before = rest[..at].chars().next_back();
        let tail = &rest[at..];
        let end = tail.find(|c: char| !ident(c)).unwrap_or(tail.len());
        let (label, after) = tail.split_at(end);
        let labelled = before.is_none_or(|c| !ident(c))
            && after
                .trim_start()
                .strip_prefix(':')
                .is_some_and(|a| a.trim_start().starts_with("assert"));
        if labelled && !names.iter().any(|n| n == label) {
            names.push(label.to_string());
        }
        rest = after;
    }
    names
}

/// The Yosys script proving `property` of the harness against `verilog`.
#[allow(clippy::too_many_arguments)]
fn script(
    verilog: &Path,
    harness: &Path,
    params: &[(String, u64)],
    property: &str,
    keep: Keep,
    search: Search,
    depth: u32,
    vcd: &Path,
) -> String {
    let chparam: String = params
        .iter()
        .map(|(k, v)| format!(" -set {k} {v}"))
        .collect();
    let mut steps = vec![
        format!("read_verilog {}", verilog.display()),
        format!("read_verilog -formal {}", harness.display()),
    ];
    if !chparam.is_empty() {
        steps.push(format!("chparam{chparam} weft_prove"));
    }
    steps.extend([
        "prep -flatten -top weft_prove".to_string(),
        // Memories (the SIMT core's instruction and register RAMs) become flip-flops:
        // `sat` has no memory cells.
        "memory_map".to_string(),
        match keep {
            Keep::Invariants => {
                format!("chformal -remove t:$assert n:{property} n:{INVARIANT}* %u %d")
            }
            Keep::Alone => format!("chformal -remove t:$assert n:{property} %d"),
        },
        // Keep the property's cone of influence only: logic that fed just the removed
        // assertions goes (a 4-channel token buffer, one property to depth 6: 14 s -> 1.3 s).
        "opt_clean".to_string(),
        "async2sync".to_string(),
        // Registers start at zero except those with an initial value (the harness's
        // `init`, which assumes reset); cycle 1 is the reset cycle and is not checked.
        format!(
            "sat -tempinduct{} -prove-asserts -set-assumes -set-init-zero -seq 1 -maxsteps {depth} \
             -show-public -dump_vcd {} weft_prove",
            match search {
                Search::Induction => "",
                Search::BaseOnly => " -tempinduct-baseonly",
            },
            vcd.display()
        ),
    ]);
    steps.join("; ")
}

/// The outcome in a `sat -tempinduct` log.
pub fn parse_sat(log: &str, depth: u32, vcd: &Path) -> Result<Outcome, String> {
    if log.contains("Induction step proven: SUCCESS!") {
        let induction_length = log
            .lines()
            .filter_map(|l| l.strip_prefix("** Trying induction with length "))
            .filter_map(|l| l.split_whitespace().next()?.parse().ok())
            .next_back()
            .ok_or("no induction length in the log")?;
        return Ok(Outcome::Proved { induction_length });
    }
    if log.contains("model found for base case: FAIL!") {
        // The model's table: `  <step> \<signal>  <dec>  <hex>  <bin>`.
        let rows: Vec<(u32, String, String)> = log
            .lines()
            .filter_map(|l| {
                let mut words = l.split_whitespace();
                let step = words.next()?.parse().ok()?;
                let name = words.next()?.strip_prefix('\\')?;
                let _dec = words.next()?;
                let hex = words.next()?;
                Some((step, name.to_string(), hex.to_string()))
            })
            .collect();
        let cycle = rows
            .iter()
            .map(|r| r.0)
            .max()
            .ok_or("a failed proof without its model")?;
        let signals = rows
            .into_iter()
            .filter(|(step, name, _)| {
                *step == cycle && !name.contains('.') && !name.starts_with('$')
            })
            .map(|(_, name, hex)| (name, hex))
            .collect();
        return Ok(Outcome::Failed {
            cycle,
            signals,
            vcd: vcd.to_path_buf(),
        });
    }
    if log.contains("Reached maximum number of time steps") {
        return Ok(Outcome::HoldsTo { depth });
    }
    Err("the solver's log has no result".into())
}

/// Proves `property` of `harness` (with the assertions `keep` says) on the module
/// `preset` in `verilog`; the harness and any counterexample are written into `dir`.
#[allow(clippy::too_many_arguments)]
pub fn prove_one(
    preset: &str,
    verilog: &Path,
    harness: &Harness,
    property: &str,
    keep: Keep,
    search: Search,
    depth: u32,
    dir: &Path,
    limit: Option<Duration>,
) -> Result<Proof, String> {
    let start = Instant::now();
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let abs = |p: &Path| std::fs::canonicalize(p).map_err(|e| format!("{}: {e}", p.display()));
    // Properties run two at a time on one harness file: each writes its own copy and
    // renames it into place, so a Yosys never reads a file another one is rewriting.
    let harness_file = dir.join(format!("{preset}.props.v"));
    let own_copy = dir.join(format!("{preset}.{property}.props.v"));
    std::fs::write(&own_copy, harness.text.replace("WEFT_UUT", preset))
        .and_then(|()| std::fs::rename(&own_copy, &harness_file))
        .map_err(|e| format!("cannot write {}: {e}", harness_file.display()))?;
    let vcd = abs(dir)?.join(format!("{preset}.{property}.vcd"));
    let text = script(
        &abs(verilog)?,
        &abs(&harness_file)?,
        &harness.params,
        property,
        keep,
        search,
        depth,
        &vcd,
    );
    let outcome = match YOSYS.run_limited(&["-p", &text], dir, limit)? {
        None => Outcome::Stopped {
            minutes: limit.map_or(0, |l| l.as_secs() / 60),
        },
        Some(out) => {
            let log = String::from_utf8_lossy(&out.stdout);
            if !out.status.success() {
                let error = log
                    .lines()
                    .chain(String::from_utf8_lossy(&out.stderr).lines())
                    .filter(|l| l.contains("ERROR"))
                    .collect::<Vec<_>>()
                    .join("\n");
                return Err(format!("{preset} {property}: yosys failed: {error}"));
            }
            parse_sat(&log, depth, &vcd).map_err(|e| format!("{preset} {property}: {e}"))?
        }
    };
    Ok(Proof {
        property: property.to_string(),
        outcome,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The properties of `harness` (on `preset`), in order; none is an error.
pub fn labelled(preset: &str, harness: &Harness) -> Result<Vec<String>, String> {
    let names = properties(harness.text);
    if names.is_empty() {
        return Err(format!(
            "{preset}: the harness labels no assertion `p_<name>:`"
        ));
    }
    Ok(names)
}

/// Proves `property` as `weft prove` does: with the invariants, by induction.
pub fn prove_property(
    preset: &str,
    verilog: &Path,
    harness: &Harness,
    property: &str,
    depth: u32,
    dir: &Path,
    limit: Option<Duration>,
) -> Result<Proof, String> {
    prove_one(
        preset,
        verilog,
        harness,
        property,
        Keep::Invariants,
        Search::Induction,
        depth,
        dir,
        limit,
    )
}

/// Proves every property of `harness` (two at a time, each with the invariants), in
/// the harness's order.
pub fn prove(
    preset: &str,
    verilog: &Path,
    harness: &Harness,
    depth: u32,
    dir: &Path,
    limit: Option<Duration>,
) -> Result<Vec<Proof>, String> {
    let names = labelled(preset, harness)?;
    parallel(&names, 2, |p| {
        prove_property(preset, verilog, harness, p, depth, dir, limit)
    })
    .into_iter()
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_the_properties_once_each() {
        let harness = "always @(*) begin\n  p_one: assert(a);\n  p_two:\n assert(b);\n  p_one: assert(c);\n  q_x: assert(d);\n  p_three: assume(e);\n  top_p_x: assert(f);\nend\n";
        assert_eq!(properties(harness), ["p_one", "p_two"]);
        assert_eq!(properties("  p_a_1: assert (x);\n"), ["p_a_1"]);
    }

    #[test]
    fn sat_logs_give_proofs_bounds_and_counterexamples() {
        let vcd = Path::new("t.vcd");
        let proved = "** Trying induction with length 1 **\n** Trying induction with length 8 **\nInduction step proven: SUCCESS!\n";
        assert_eq!(
            parse_sat(proved, 20, vcd),
            Ok(Outcome::Proved {
                induction_length: 8
            })
        );
        let bounded =
            "Reached maximum number of time steps -> proved base case for 20 steps: SUCCESS!\n";
        assert_eq!(
            parse_sat(bounded, 20, vcd),
            Ok(Outcome::HoldsTo { depth: 20 })
        );
        let failed = "SAT temporal induction proof finished - model found for base case: FAIL!\n\
            \x20 Time Signal Name   Dec   Hex   Bin\n\
            \x20 init \\init    1   1   1\n\
            \x20    1 \\reset   1   1   1\n\
            \x20    2 \\reset   0   0   0\n\
            \x20    2 \\mask_in  -137  ffffff77  1111\n\
            \x20    2 \\uut.held  3  3  11\n";
        assert_eq!(
            parse_sat(failed, 20, vcd),
            Ok(Outcome::Failed {
                cycle: 2,
                signals: vec![
                    ("reset".into(), "0".into()),
                    ("mask_in".into(), "ffffff77".into())
                ],
                vcd: vcd.into()
            })
        );
        assert!(parse_sat("ERROR: nothing", 20, vcd).is_err());
    }
}
