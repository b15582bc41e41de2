//! `weft prove`: a block's properties proved for all inputs on its exported Verilog,
//! each property caught by a bug planted in that Verilog (so none is vacuous), and bad
//! input named.
mod common;
use common::{scratch, text, weft};
use std::path::{Path, PathBuf};
use weft_flow::prove::{is_invariant, properties, Outcome};
use weft_testbenches::formal::{self, Invariants};
use weft_testbenches::presets;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every property of the preset proved by induction (the base case from reset to
/// `depth` cycles); returns the preset, its Verilog file, the work folder and the
/// property names.
fn proved(name: &str, depth: u32) -> (presets::Preset, PathBuf, PathBuf, Vec<String>) {
    let p = presets::find(name).unwrap();
    let file = Path::new(ROOT).join(format!("verilog_out/{name}.v"));
    let dir = scratch(name);
    let names = properties(formal::properties(&p).unwrap().harness);
    let proofs = formal::prove(&p, &file, depth, &dir, None).unwrap();
    assert_eq!(
        proofs.iter().map(|p| &p.property).collect::<Vec<_>>(),
        names.iter().collect::<Vec<_>>()
    );
    for proof in &proofs {
        assert!(
            matches!(proof.outcome, Outcome::Proved { .. }),
            "{name}: {}",
            proof.line()
        );
    }
    (p, file, dir, names)
}

/// Every property of a preset proved by induction (the base case from reset and the
/// planted bugs' search to 20 cycles), and every property failing, with a
/// counterexample trace, on a bug planted for it. The convention: a block's invariants
/// are properties of their own (`p_inv_*`); a property other than an invariant is
/// checked alone on its planted Verilog, where every invariant must still hold up to
/// the cycle the property fails in, so the bug is caught by the property's own clause,
/// not by a broken invariant.
fn proved_and_no_property_vacuous(name: &str) {
    proved_and_no_property_vacuous_to(name, 20, 20, Invariants::Checked);
}

/// [`proved_and_no_property_vacuous`] with the base case to `depth` and the bugs' search
/// from reset (and the invariants' proofs on them, unless `invariants` skips them) to
/// `bug_depth`.
fn proved_and_no_property_vacuous_to(
    name: &str,
    depth: u32,
    bug_depth: u32,
    invariants: Invariants,
) {
    let (p, file, dir, names) = proved(name, depth);
    let verilog = std::fs::read_to_string(&file).unwrap();
    let caught = formal::planted(&p, &verilog, bug_depth, &dir, invariants).unwrap();
    let has_invariants = names.iter().any(|n| is_invariant(n)) && invariants == Invariants::Checked;
    for c in &caught {
        let property = &c.property;
        match &c.proof.outcome {
            Outcome::Failed { cycle, vcd, .. } => {
                assert!(*cycle >= 2, "{property}: fails after the reset cycle");
                let trace = std::fs::read_to_string(vcd).unwrap();
                assert!(
                    trace.contains("$enddefinitions"),
                    "{property}: {}",
                    vcd.display()
                );
            }
            _ => panic!(
                "{name}: {property} missed its planted bug: {}",
                c.proof.line()
            ),
        }
        assert_eq!(
            c.invariants.is_some(),
            has_invariants && !is_invariant(property),
            "{name}: {property}: the invariants are checked on every other property's bug"
        );
        if let Some(inv) = &c.invariants {
            assert!(
                !matches!(inv.outcome, Outcome::Failed { .. }),
                "{name}: {property}'s planted bug breaks an invariant, so it does not show \
                 the property's own clause: {}",
                inv.line()
            );
        }
    }
    for n in &names {
        assert!(
            caught.iter().any(|c| &c.property == n),
            "{name}: {n} has no planted bug"
        );
    }
}

/// The convention's check can fail: the bugs these properties had before their
/// invariants were split off are caught by the property, but through a broken invariant
/// (row 0 never cleared breaks `p_inv_tied`; memory mode packing across rows breaks
/// `p_inv_counted` alone, so the invariants' proof, named after `p_inv_tied`, keeps
/// `p_inv_counted` asserted beside it).
#[test]
fn bugs_that_break_an_invariant_show_no_clause() {
    let name = "sub_warp_unit_4x8";
    let p = presets::find(name).unwrap();
    let file = Path::new(ROOT).join(format!("verilog_out/{name}.v"));
    let verilog = std::fs::read_to_string(&file).unwrap();
    let bugs = [
        (
            "p_held_threads",
            "held$0$d = held$0$q & ~pick_row$0;",
            "held$0$d = held$0$q;",
        ),
        (
            "p_memory_one_row",
            "compactor$one_row = held_mode$q == mode_memory;",
            "compactor$one_row = 1'b0;",
        ),
    ];
    let caught = formal::planted_bugs(
        &p,
        &bugs,
        &verilog,
        20,
        &scratch("broken-invariants"),
        Invariants::Checked,
    )
    .unwrap();
    assert_eq!(caught.len(), 2);
    for c in &caught {
        assert!(
            formal::failed(&c.proof),
            "{}: {}",
            c.property,
            c.proof.line()
        );
        let inv = c.invariants.as_ref().expect("the invariants are checked");
        assert_eq!(inv.property, "p_inv_tied");
        assert!(formal::failed(inv), "{}: {}", c.property, inv.line());
    }
}

#[test]
fn sub_warp_unit_4x8_is_proved_and_every_property_catches_a_planted_bug() {
    proved_and_no_property_vacuous("sub_warp_unit_4x8");
}

#[test]
fn warp_compaction_unit_3x4_is_proved_and_every_property_catches_a_planted_bug() {
    proved_and_no_property_vacuous("warp_compaction_unit_3x4");
}

#[test]
fn adequacy_evaluator_3x4_and_capri_decision_are_proved_and_catch_planted_bugs() {
    proved_and_no_property_vacuous("adequacy_evaluator_3x4");
    proved_and_no_property_vacuous("capri_decision");
}

/// The TBC stack's update mask, bypass counts and depth rules (moved here from
/// `testbenches/tests/tbc_stack.rs`: proved by induction, each property failing on its
/// planted bug).
#[test]
fn tbc_stack_3x4_is_proved_and_every_property_catches_a_planted_bug() {
    proved_and_no_property_vacuous("tbc_stack_3x4");
}

/// The CAPT's contract on its entries (read through `hierconn` wires): all seven
/// properties proved by induction at length 1; those that need them carry the
/// invariants of unique tags and of the LRU ages. About 5 minutes: the full tier.
#[test]
fn full_capt_8_is_proved_and_every_property_catches_a_planted_bug() {
    proved_and_no_property_vacuous("capt_8");
}

/// The switch's ghost FIFOs and routes are tied to its registers (read through
/// `hierconn` wires), so every property closes by induction.
#[test]
fn switch_3x3_is_proved_and_every_property_catches_a_planted_bug() {
    proved_and_no_property_vacuous("switch_3x3");
}

/// The divergence stack's contract on its entries (read through `hierconn` wires).
#[test]
fn divergence_stack_is_proved_and_every_property_catches_a_planted_bug() {
    proved_and_no_property_vacuous("divergence_stack");
}

/// The grant and the fairness bound are stated with the block's pointers read through
/// `hierconn` wires, so every property closes by induction, at 4 and at 32 warps, and
/// with one group (plain round robin).
#[test]
fn schedulers_are_proved_and_every_property_catches_a_planted_bug() {
    proved_and_no_property_vacuous("two_level_scheduler_4x2");
    proved_and_no_property_vacuous("two_level_scheduler");
    proved_and_no_property_vacuous("round_robin_scheduler");
}

/// The SIMT core's issue and stack contracts on 2 warps of 2 lanes, the program free
/// (any words written at any time), its RAMs as flip-flops (16 384 + 4 096 bits): each
/// proof about 20 s of CPU, all six by induction at length 1. Every planted bug shows
/// within 6 cycles of reset, so each is searched to 6 cycles (about 20 s each). Each
/// property fails with a
/// trace and the invariants hold up to the cycle it fails in. Minutes on a loaded
/// machine: the full tier.
#[test]
fn full_simt_core_2x2_is_proved_and_every_property_catches_a_planted_bug() {
    proved_and_no_property_vacuous_to("simt_core_2x2", 20, 6, Invariants::Checked);
}

/// The token buffer's contract on its entries (read through `hierconn` wires).
#[test]
fn token_buffer_4_is_proved_and_every_property_catches_a_planted_bug() {
    proved_and_no_property_vacuous("token_buffer_4");
}

/// VGIW's thread initiator and terminator, stated on their batch registers.
#[test]
fn cvu_initiator_and_terminator_are_proved_and_catch_planted_bugs() {
    proved_and_no_property_vacuous("cvu_initiator");
    proved_and_no_property_vacuous("cvu_terminator");
}

/// Diverge on miss: the memory divergence table and the slip controller.
#[test]
fn mdt_and_slip_controller_1w_are_proved_and_catch_planted_bugs() {
    proved_and_no_property_vacuous("mdt");
    proved_and_no_property_vacuous("slip_controller_1w");
}

/// Larger presets of blocks whose harness is checked against planted bugs on a small
/// preset above: the same properties proved at the paper's sizes (base case to 8
/// cycles). Every property's planted bug is checked on the small preset (with the
/// invariants holding on each); at full size each bug costs about as much as its proof
/// (all of them were 62% of this test: 22 of 36 minutes on 2 busy cores), so one bug a
/// preset, a clause that counts or packs across the full width, shows that the harness
/// binds at that size and its assumptions leave the design free to fail: `p_last_within_rows`
/// (a sub-warp unit's breakdown that never ends shows only at its sub-warp ROWS + 1,
/// cycle ROWS + 2 = 10 from reset), and every bug of the cheap adequacy evaluator.
#[test]
fn full_larger_presets_are_proved_and_catch_planted_bugs() {
    for (name, small, bug_depth, checked) in [
        (
            "adequacy_evaluator",
            "adequacy_evaluator_3x4",
            8,
            &[
                "p_min_warps_is_largest_lane_popcount",
                "p_active_warps_counts_warps_with_a_thread",
                "p_adequate_when_compaction_saves_a_warp",
            ][..],
        ),
        (
            "slip_controller_2w",
            "slip_controller_1w",
            8,
            &["p_grow_counts_hitters"][..],
        ),
        (
            "sub_warp_unit",
            "sub_warp_unit_4x8",
            8 + 2,
            &["p_last_within_rows"][..],
        ),
        (
            "warp_compaction_unit",
            "warp_compaction_unit_3x4",
            8,
            &["p_compacted_warps_minimum"][..],
        ),
    ] {
        let bugs = |n| {
            formal::properties(&presets::find(n).unwrap())
                .unwrap()
                .planted
        };
        assert_eq!(
            bugs(name),
            bugs(small),
            "{name}: the bugs checked on {small}"
        );
        let (p, file, dir, _) = proved(name, 8);
        let verilog = std::fs::read_to_string(&file).unwrap();
        let chosen: Vec<(&str, &str, &str)> = bugs(name)
            .iter()
            .copied()
            .filter(|b| checked.contains(&b.0))
            .collect();
        assert_eq!(chosen.len(), checked.len(), "{name}: {checked:?} have bugs");
        let caught =
            formal::planted_bugs(&p, &chosen, &verilog, bug_depth, &dir, Invariants::Skipped)
                .unwrap();
        assert_eq!(caught.len(), checked.len());
        for c in &caught {
            assert!(
                matches!(c.proof.outcome, Outcome::Failed { cycle, .. } if cycle >= 2),
                "{name}: {} missed its planted bug: {}",
                c.property,
                c.proof.line()
            );
        }
    }
}

/// `verilog` with `find`, which must occur exactly once, replaced.
fn plant(verilog: &str, find: &str, replace: &str) -> String {
    assert_eq!(
        verilog.matches(find).count(),
        1,
        "`{find}` once in the Verilog"
    );
    verilog.replace(find, replace)
}

/// The line of `property` in the command's output, matched by its whole name (`p_last`
/// is not `p_last_within_rows`'s line).
fn property_line<'t>(t: &'t str, property: &str) -> &'t str {
    t.lines()
        .find(|l| l.split_whitespace().next() == Some(property))
        .unwrap_or_else(|| panic!("no line for {property}: {t}"))
}

/// The command prints one line per property and exits non-zero on a failure and on a
/// property left open (unless `--accept-open`); a preset without properties, an unknown
/// one and a depth that checks nothing are named.
#[test]
fn prove_reports_each_property_and_refuses_bad_input() {
    let dir = scratch("cli");
    let out = weft(&["prove", "sub_warp_unit_4x8", "--out", dir.to_str().unwrap()]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    let p = presets::find("sub_warp_unit_4x8").unwrap();
    let names = properties(formal::properties(&p).unwrap().harness);
    for n in &names {
        let line = property_line(&t, n);
        assert!(line.contains("proved (induction"), "{line}");
    }
    // A planted bug through the command: the failing property, its cycle and trace.
    let planted = scratch("cli-bug");
    let exported =
        std::fs::read_to_string(Path::new(ROOT).join("verilog_out/sub_warp_unit_4x8.v")).unwrap();
    let verilog = plant(
        &exported,
        "stall = compactor$group_valid & ~(compactor$group_last | is_jump);",
        "stall = compactor$group_valid;",
    );
    std::fs::write(planted.join("sub_warp_unit_4x8.v"), verilog).unwrap();
    let out = weft(&[
        "prove",
        "sub_warp_unit_4x8",
        "--dir",
        planted.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    let line = property_line(&t, "p_stall");
    assert!(
        line.contains("FAILED in cycle") && line.contains(".vcd"),
        "{line}"
    );
    assert!(t.contains("1 properties failed"), "{t}");

    // A bug deeper than --depth: `stall` drops once a saturating cycle counter reaches 7
    // (cycle 9 from reset). At --depth 2 the base case cannot reach it and induction
    // cannot close (the counter may be 7 in an arbitrary state): p_stall is left open, and
    // the command refuses it by name unless --accept-open; --depth 20 finds the bug.
    let deep = scratch("cli-deep");
    let verilog = plant(
        &exported,
        "    reg  is_jump;\n",
        "    reg  is_jump;\n    reg  [2:0] age;\n    \
         always @(posedge clock) age <= reset ? 3'd0 : age + {2'd0, age != 3'd7};\n",
    );
    let verilog = plant(
        &verilog,
        "stall = compactor$group_valid & ~(compactor$group_last | is_jump);",
        "stall = compactor$group_valid & ~(compactor$group_last | is_jump) & (age != 3'd7);",
    );
    std::fs::write(deep.join("sub_warp_unit_4x8.v"), verilog).unwrap();
    let at_depth = |depth: &str, accept: bool| {
        let mut args = vec![
            "prove",
            "sub_warp_unit_4x8",
            "--dir",
            deep.to_str().unwrap(),
            "--out",
            dir.to_str().unwrap(),
            "--depth",
            depth,
        ];
        if accept {
            args.push("--accept-open");
        }
        let out = weft(&args);
        (out.status.code(), text(&out))
    };
    let (code, t) = at_depth("2", false);
    assert_eq!(code, Some(1), "{t}");
    let open = "p_stall (holds to depth 2, induction open)";
    assert!(
        property_line(&t, "p_stall").contains("holds to depth 2 (induction open)"),
        "{t}"
    );
    assert!(
        t.contains(&format!(
            "weft: 1 properties left open: sub_warp_unit_4x8 {open}"
        )) && t.contains("--accept-open accepts them"),
        "{t}"
    );
    // The counter feeds `stall` only: every other property is still proved.
    for n in names.iter().filter(|n| *n != "p_stall") {
        assert!(property_line(&t, n).contains("proved (induction"), "{t}");
    }
    let (code, t) = at_depth("2", true);
    assert_eq!(code, Some(0), "{t}");
    assert!(
        t.contains(&format!(
            "1 properties left open, accepted by --accept-open: sub_warp_unit_4x8 {open}"
        )),
        "{t}"
    );
    let (code, t) = at_depth("20", true);
    assert_eq!(code, Some(1), "a failure is never accepted: {t}");
    assert!(
        property_line(&t, "p_stall").contains("FAILED in cycle"),
        "{t}"
    );
    for (args, says) in [
        (&["prove", "nosuch"][..], "nosuch"),
        (
            &["prove", "slip_controller_16w"][..],
            "has no formal properties yet",
        ),
        (
            &["prove", "sub_warp_unit_4x8", "--depth", "1"][..],
            "--depth must be at least 2",
        ),
    ] {
        let out = weft(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", text(&out));
        assert!(text(&out).contains(says), "{args:?}: {}", text(&out));
    }
}
