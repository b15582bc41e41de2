//! Benches of the warp schedulers.
use crate::presets::Preset;
use weft_hdl::presets::{RoundRobinScheduler32, TwoLevelScheduler32x8, TwoLevelScheduler4x2};

pub mod two_level_scheduler;

pub fn presets() -> Vec<Preset> {
    vec![
        Preset::of::<TwoLevelScheduler32x8>(
            "two_level_scheduler",
            "two-level round-robin fetch scheduler, 32 warps in groups of 8 (LWM §3.2, 2Lev8)",
        ),
        Preset::of::<TwoLevelScheduler4x2>(
            "two_level_scheduler_4x2",
            "two-level fetch scheduler, 4 large warps in groups of 2 (LWM §3.2.3, LWM256+2Lev2)",
        ),
        Preset::of::<RoundRobinScheduler32>(
            "round_robin_scheduler",
            "baseline round-robin fetch scheduler, 32 warps in one group (LWM §3.2)",
        ),
    ]
}
