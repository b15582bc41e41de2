//! Decision logic at a branch: stall for compaction or bypass, under the policy
//! selected by `policy` (`capri-compaction-adequacy.txt` §3.2, §4, §5.1; SPEC §3.4).
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | policy | in | 2 | 0 TBC, 1 TBC+, 2 CAPRI, 3 WPDOM (never stall; the paper's baseline) |
//! | branch | in | 1 | a warp executes a branch this cycle |
//! | uniform | in | 1 | the branch is unconditional or compiler-uniform (PTX `.uni`) |
//! | diverged | in | 1 | the warp's threads split between both paths |
//! | capt_hit | in | 1 | the CAPT's `hit` for this branch's PC (CAPRI only) |
//! | capt_predict | in | 1 | the CAPT's `predict_adequate` |
//! | stall | out | 1 | the warp waits for compaction (its `umask` bit stays set) |
//! | bypass | out | 1 | `branch && !stall`: the warp keeps its static warp (`umask` bit clears) |
//! | capt_op | out | 2 | the CAPT's `op`: 1 (insert) for a CAPRI miss on a diverged warp, else 0 |
//!
//! ```text
//!   TBC    stall = branch
//!   TBC+   stall = branch & !uniform
//!   CAPRI  stall = branch & diverged & (!capt_hit | capt_predict)
//!   WPDOM  stall = 0
//! ```
//!
//! Latency: combinational. Storage: none. The CAPT's `lookup_pc` is the branch PC
//! (wired by the user); its update (op 2) comes from the adequacy evaluator when the
//! TOS `WCnt` reaches zero, so the user muxes `capt_op` with that update.
//!
//! Choices where the paper is silent:
//! - The policy is a 2-bit input (not a parameter) so one netlist runs all three
//!   policies and the baseline, as the paper's comparison does; value 3 is WPDOM.
//! - A non-diverged warp under CAPRI neither looks up nor inserts (§3.2 outcome 1).
use rust_hdl::prelude::*;

/// `policy` values.
pub const POLICY_TBC: u64 = 0;
pub const POLICY_TBC_PLUS: u64 = 1;
pub const POLICY_CAPRI: u64 = 2;
pub const POLICY_WPDOM: u64 = 3;

/// Stall/bypass decision for one warp at a branch.
#[derive(LogicBlock)]
pub struct CapriDecision {
    /// 0 TBC, 1 TBC+, 2 CAPRI, 3 WPDOM.
    pub policy: Signal<In, Bits<2>>,
    /// A warp executes a branch this cycle.
    pub branch: Signal<In, Bit>,
    /// Unconditional or compiler-uniform branch.
    pub uniform: Signal<In, Bit>,
    /// The warp diverged at this branch.
    pub diverged: Signal<In, Bit>,
    /// CAPT hit for the branch PC.
    pub capt_hit: Signal<In, Bit>,
    /// CAPT prediction for the branch PC (0 on a miss).
    pub capt_predict: Signal<In, Bit>,
    /// The warp waits for compaction.
    pub stall: Signal<Out, Bit>,
    /// The warp bypasses compaction.
    pub bypass: Signal<Out, Bit>,
    /// CAPT operation: 1 insert, else 0.
    pub capt_op: Signal<Out, Bits<2>>,
    wants: Signal<Local, Bit>,
    policy_tbc: Constant<Bits<2>>,
    policy_tbc_plus: Constant<Bits<2>>,
    policy_capri: Constant<Bits<2>>,
    op_none: Constant<Bits<2>>,
    op_insert: Constant<Bits<2>>,
}

impl Default for CapriDecision {
    fn default() -> Self {
        Self {
            policy: Default::default(),
            branch: Default::default(),
            uniform: Default::default(),
            diverged: Default::default(),
            capt_hit: Default::default(),
            capt_predict: Default::default(),
            stall: Default::default(),
            bypass: Default::default(),
            capt_op: Default::default(),
            wants: Default::default(),
            policy_tbc: Constant::new(POLICY_TBC.into()),
            policy_tbc_plus: Constant::new(POLICY_TBC_PLUS.into()),
            policy_capri: Constant::new(POLICY_CAPRI.into()),
            op_none: Constant::new(0u64.into()),
            op_insert: Constant::new(1u64.into()),
        }
    }
}

impl Logic for CapriDecision {
    #[hdl_gen]
    fn update(&mut self) {
        self.wants.next = false;
        self.capt_op.next = self.op_none.val();
        if self.policy.val() == self.policy_tbc.val() {
            self.wants.next = true;
        }
        if self.policy.val() == self.policy_tbc_plus.val() {
            self.wants.next = !self.uniform.val();
        }
        if self.policy.val() == self.policy_capri.val() {
            self.wants.next =
                self.diverged.val() & (!self.capt_hit.val() | self.capt_predict.val());
            if self.branch.val() & self.diverged.val() & !self.capt_hit.val() {
                self.capt_op.next = self.op_insert.val();
            }
        }
        self.stall.next = self.branch.val() & self.wants.val();
        self.bypass.next = self.branch.val() & !self.wants.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = CapriDecision::default();
        uut.connect_all();
        yosys_validate("capri_decision", &generate_verilog(&uut)).unwrap();
    }

    #[test]
    fn capri_stalls_on_a_miss_and_inserts() {
        let mut uut = CapriDecision::default();
        uut.connect_all();
        uut.policy.next = POLICY_CAPRI.into();
        uut.branch.next = true;
        uut.diverged.next = true;
        assert!(simulate(&mut uut, 100));
        assert!(uut.stall.val());
        assert_eq!(uut.capt_op.val(), Bits::<2>::from(1));
        uut.capt_hit.next = true;
        assert!(simulate(&mut uut, 100));
        assert!(uut.bypass.val() && !uut.stall.val());
    }
}
