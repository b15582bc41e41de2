//! Decision logic (SPEC §3.4): model-vs-RTL on random branch situations; the three
//! outcomes of §3.2 under CAPRI and the TBC / TBC+ rules.
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::capri::capri_decision::{CapriDecisionBench, DecisionInputs};
use weft_testbenches::convert::small;
use weft_testbenches::run::{run, Outputs};

#[test]
fn model_and_rtl_agree() {
    for seed in 0..4 {
        let mut b = CapriDecisionBench::default();
        if let Err(e) = run(&mut b, 50_000, seed, Outputs::default()) {
            panic!("seed {seed}: {e}");
        }
    }
}

fn decide(i: DecisionInputs) -> (bool, u64) {
    let mut b = CapriDecisionBench::default();
    b.apply(i);
    settle(&mut b.uut).unwrap();
    b.check().unwrap();
    (b.uut.stall.val(), small(b.uut.capt_op.val()))
}

#[test]
fn figure_7_outcomes_under_capri() {
    let capri = DecisionInputs {
        policy: 2,
        branch: true,
        ..Default::default()
    };
    // (a) W0 did not diverge: continue, no lookup, no insert.
    assert_eq!(decide(capri), (false, 0));
    // (b) W1 diverged, CAPT miss: stall and insert.
    assert_eq!(
        decide(DecisionInputs {
            diverged: true,
            ..capri
        }),
        (true, 1)
    );
    // (c) W2 diverged, hit, predicted adequate: stall.
    assert_eq!(
        decide(DecisionInputs {
            diverged: true,
            capt_hit: true,
            capt_predict: true,
            ..capri
        }),
        (true, 0)
    );
    // Later: hit, predicted inadequate: bypass.
    assert_eq!(
        decide(DecisionInputs {
            diverged: true,
            capt_hit: true,
            ..capri
        }),
        (false, 0)
    );
}

#[test]
fn tbc_stalls_always_and_tbc_plus_not_on_uniform_branches() {
    let b = DecisionInputs {
        branch: true,
        uniform: true,
        ..Default::default()
    };
    assert_eq!(decide(DecisionInputs { policy: 0, ..b }), (true, 0));
    assert_eq!(decide(DecisionInputs { policy: 1, ..b }), (false, 0));
    assert_eq!(
        decide(DecisionInputs {
            policy: 1,
            uniform: false,
            ..b
        }),
        (true, 0)
    );
    assert_eq!(
        decide(DecisionInputs {
            policy: 3,
            uniform: false,
            diverged: true,
            ..b
        }),
        (false, 0)
    );
}
