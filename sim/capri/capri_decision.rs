//! Decision logic model (SPEC §3.4): stall for compaction or bypass.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Tbc,
    TbcPlus,
    Capri,
    Wpdom,
}

impl Policy {
    pub fn from_port(v: u64) -> Policy {
        match v & 3 {
            0 => Policy::Tbc,
            1 => Policy::TbcPlus,
            2 => Policy::Capri,
            _ => Policy::Wpdom,
        }
    }
}

/// The decision for one warp at a branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub stall: bool,
    pub bypass: bool,
    /// The CAPT insert the decision asks for (CAPRI miss on a diverged warp).
    pub insert: bool,
}

pub fn decide(
    policy: Policy,
    branch: bool,
    uniform: bool,
    diverged: bool,
    capt_hit: bool,
    capt_predict: bool,
) -> Decision {
    let wants = match policy {
        Policy::Tbc => true,
        Policy::TbcPlus => !uniform,
        Policy::Capri => diverged && (!capt_hit || capt_predict),
        Policy::Wpdom => false,
    };
    Decision {
        stall: branch && wants,
        bypass: branch && !wants,
        insert: policy == Policy::Capri && branch && diverged && !capt_hit,
    }
}
