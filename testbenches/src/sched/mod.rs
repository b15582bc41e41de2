//! Benches of the warp schedulers.
use crate::presets::{verilog_of, Preset};
use weft_hdl::presets::{RoundRobinScheduler32, TwoLevelScheduler32x8, TwoLevelScheduler4x2};

pub mod two_level_scheduler;

pub fn presets() -> Vec<Preset> {
    vec![
        Preset {
            name: "two_level_scheduler",
            summary:
                "two-level round-robin fetch scheduler, 32 warps in groups of 8 (LWM §3.2, 2Lev8)",
            params: &[("WARPS", 32), ("GROUP", 8)],
            verilog: verilog_of::<TwoLevelScheduler32x8>,
            bench: || {
                Box::new(two_level_scheduler::TwoLevelSchedulerBench::<
                    32,
                    8,
                    4,
                    5,
                    2,
                    3,
                >::default())
            },
        },
        Preset {
            name: "two_level_scheduler_4x2",
            summary:
                "two-level fetch scheduler, 4 large warps in groups of 2 (LWM §3.2.3, LWM256+2Lev2)",
            params: &[("WARPS", 4), ("GROUP", 2)],
            verilog: verilog_of::<TwoLevelScheduler4x2>,
            bench: || {
                Box::new(two_level_scheduler::TwoLevelSchedulerBench::<
                    4,
                    2,
                    2,
                    2,
                    1,
                    1,
                >::default())
            },
        },
        Preset {
            name: "round_robin_scheduler",
            summary: "baseline round-robin fetch scheduler, 32 warps in one group (LWM §3.2)",
            params: &[("WARPS", 32), ("GROUP", 32)],
            verilog: verilog_of::<RoundRobinScheduler32>,
            bench: || {
                Box::new(two_level_scheduler::TwoLevelSchedulerBench::<
                    32,
                    32,
                    1,
                    5,
                    1,
                    5,
                >::default())
            },
        },
    ]
}
