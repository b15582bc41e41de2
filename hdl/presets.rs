//! Named presets: the parameter sets that are exported, linted and measured.
//! Derived widths are computed here once, next to the parameters they come from.
use crate::lib::divergence_stack::DivergenceStack;
use crate::lwm::branch_buffers::BranchBuffers;
use crate::lwm::sub_warp_unit::SubWarpUnit;
use crate::sched::two_level_scheduler::TwoLevelScheduler;

/// `sub_warp_unit`: 32 lanes x 8 rows (256-thread large warps, the paper's LWM256).
pub type SubWarpUnit32x8 = SubWarpUnit<32, 8, 256, 3, 96>;
/// `sub_warp_unit_4x8`: 4 lanes x 8 rows (32-thread large warp on 4 lanes, Figure 7).
pub type SubWarpUnit4x8 = SubWarpUnit<4, 8, 32, 3, 12>;

/// `two_level_scheduler`: 32 warps in 4 fetch groups of 8 (the paper's "2Lev8").
pub type TwoLevelScheduler32x8 = TwoLevelScheduler<32, 8, 4, 5, 2, 3>;
/// `two_level_scheduler_4x2`: 4 large warps in 2 fetch groups of 2 ("LWM256+2Lev2").
pub type TwoLevelScheduler4x2 = TwoLevelScheduler<4, 2, 2, 2, 1, 1>;
/// `round_robin_scheduler`: 32 warps in one group of 32, plain round robin (the
/// baseline); `group` is 1 bit wide and always 0.
pub type RoundRobinScheduler32 = TwoLevelScheduler<32, 32, 1, 5, 1, 5>;
/// `divergence_stack`: one 32-lane warp, 8 entries, 32-bit PCs. Eight entries hold
/// three nested divergent branches on any path (1 + 2x3 = 7) and a fourth inside the
/// innermost not-taken path; 8 x 96 = 768 bits, the same budget the LWM paper spends
/// per large warp (§3.3). Deeper nesting is flagged by `overflow`, never lost silently.
pub type DivergenceStack32 = DivergenceStack<32, 8, 32, 4>;
/// `branch_buffers`: 256-thread large warps on 32 lanes (8 rows), 2 x 256 = 512 bits.
pub type BranchBuffers32x8 = BranchBuffers<32, 8, 256, 3, 96>;
