//! Decision logic bench (SPEC §3.4): combinational, random branch situations.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::capri::capri_decision::CapriDecision;
use weft_sim::capri::capri_decision::{decide, Policy};

#[derive(Clone, Copy, Debug, Default)]
pub struct DecisionInputs {
    pub policy: u64,
    pub branch: bool,
    pub uniform: bool,
    pub diverged: bool,
    pub capt_hit: bool,
    pub capt_predict: bool,
}

pub struct CapriDecisionBench {
    pub uut: CapriDecision,
    pub inputs: DecisionInputs,
}

impl crate::presets::Tested for CapriDecision {
    fn params() -> Vec<(&'static str, usize)> {
        vec![]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(CapriDecisionBench::default())
    }
    fn properties() -> Option<crate::presets::Properties> {
        Some(crate::presets::Properties {
            harness: include_str!("capri_decision.props.v"),
            planted: PLANTED,
        })
    }
}

impl Default for CapriDecisionBench {
    fn default() -> Self {
        let mut uut = CapriDecision::default();
        uut.connect_all();
        CapriDecisionBench {
            uut,
            inputs: DecisionInputs::default(),
        }
    }
}

impl CapriDecisionBench {
    pub fn apply(&mut self, i: DecisionInputs) {
        self.uut.policy.next = i.policy.into();
        self.uut.branch.next = i.branch;
        self.uut.uniform.next = i.uniform;
        self.uut.diverged.next = i.diverged;
        self.uut.capt_hit.next = i.capt_hit;
        self.uut.capt_predict.next = i.capt_predict;
        self.inputs = i;
    }
}

impl Bench for CapriDecisionBench {
    crate::bench_rtl_access!(combinational);
    fn drive(&mut self, _cycle: u64, rng: &mut ChaCha8Rng) {
        let hit = rng.gen_bool(0.6);
        let uniform = rng.gen_bool(0.3);
        self.apply(DecisionInputs {
            policy: rng.gen_range(0..4),
            branch: rng.gen_bool(0.8),
            uniform,
            // A compiler-uniform branch never diverges.
            diverged: !uniform && rng.gen_bool(0.5),
            capt_hit: hit,
            capt_predict: hit && rng.gen_bool(0.5),
        });
    }
    fn check(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let want = decide(
            Policy::from_port(i.policy),
            i.branch,
            i.uniform,
            i.diverged,
            i.capt_hit,
            i.capt_predict,
        );
        expect("stall", want.stall, self.uut.stall.val())?;
        expect("bypass", want.bypass, self.uut.bypass.val())?;
        expect(
            "capt_op",
            u64::from(want.insert),
            small(self.uut.capt_op.val()),
        )?;
        contract(
            "a branch is stalled xor bypassed; no branch, neither",
            (self.uut.stall.val() ^ self.uut.bypass.val()) == i.branch,
            || format!("{i:?}"),
        )?;
        contract(
            "CAPRI never stalls a non-diverged warp",
            !(i.policy == 2 && !i.diverged && self.uut.stall.val()),
            || format!("{i:?}"),
        )
    }
    fn tick(&mut self) -> Result<(), Mismatch> {
        Ok(())
    }
}

/// Bugs planted in the exported Verilog, each caught by the property named.
const PLANTED: &[(&str, &str, &str)] = &[
    // Off a branch, the warp bypasses.
    (
        "p_one_action_at_a_branch",
        "bypass = branch & ~wants;",
        "bypass = ~wants;",
    ),
    // A branch that did not diverge stalls when the CAPT misses.
    (
        "p_capri_uniform_branch_continues",
        "wants = diverged & (~capt_hit | capt_predict);",
        "wants = ~capt_hit | capt_predict;",
    ),
    // A miss is not inserted.
    (
        "p_capri_miss_stalls_and_inserts",
        "capt_op = op_insert;",
        "capt_op = op_none;",
    ),
    // A hit ignores its prediction.
    (
        "p_capri_hit_follows_the_prediction",
        "wants = diverged & (~capt_hit | capt_predict);",
        "wants = diverged & ~capt_hit;",
    ),
    (
        "p_tbc_stalls_at_every_branch",
        "wants = 1'b1;",
        "wants = 1'b0;",
    ),
    (
        "p_tbc_plus_skips_uniform_branches",
        "wants = ~uniform;",
        "wants = 1'b1;",
    ),
];
