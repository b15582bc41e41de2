//! The SIMT core's section: how many cores, their lanes and warp slots, the fetch
//! scheduler, the pipeline and the special function unit.
use super::keys::Keys;

/// The SIMT cores (the VGIW engine reads only the two memory-stage latencies).
#[derive(Clone, Debug, PartialEq)]
pub struct Core {
    /// SIMT cores; they share the DRAM.
    pub cores: u32,
    pub lanes: u32,
    pub warps: u32,
    pub warp_size: u32,
    pub fetch_group: u32,
    pub sticky_cta: bool,
    /// 0: as many as the warp slots hold.
    pub max_ctas: u32,
    /// Registers per core (0: no limit) and per thread of the kernel: with them, the
    /// register file bounds CTAs per core (`simt::occupancy`).
    pub core_registers: u32,
    pub thread_registers: u32,
    /// CTA-shared memory per core in KiB (0: no limit).
    pub shared_kb: u32,
    /// Divergence stack entries per warp (per CTA under thread block compaction).
    pub stack_entries: u32,
    pub scoreboard: bool,
    pub pipeline_depth: u32,
    pub sfu_lanes: u32,
    pub sfu_latency: u32,
    /// Cycles a pass of the special function unit holds the issue slot (1: pipelined).
    pub sfu_interval: u32,
    /// Multiplies run on the special function unit (else on the ALU lanes).
    pub sfu_multiply: bool,
    pub private_latency: u32,
    pub shared_latency: u32,
}

impl Core {
    /// The section of `k`, refused when it cannot work.
    pub fn of(k: &Keys) -> Result<Core, String> {
        let c = Core {
            cores: k.cores,
            lanes: k.lanes,
            warps: k.warps,
            warp_size: k.warp_size,
            fetch_group: k.fetch_group,
            sticky_cta: k.sticky_cta,
            max_ctas: k.max_ctas,
            core_registers: k.core_registers,
            thread_registers: k.thread_registers,
            shared_kb: k.shared_kb,
            stack_entries: k.stack_entries,
            scoreboard: k.scoreboard,
            pipeline_depth: k.pipeline_depth,
            sfu_lanes: k.sfu_lanes,
            sfu_latency: k.sfu_latency,
            sfu_interval: k.sfu_interval,
            sfu_multiply: k.sfu_multiply,
            private_latency: k.private_latency,
            shared_latency: k.shared_latency,
        };
        super::at_least_1(&[
            ("cores", c.cores),
            ("lanes", c.lanes),
            ("warps", c.warps),
            ("warp_size", c.warp_size),
            ("fetch_group", c.fetch_group),
            ("stack_entries", c.stack_entries),
            ("pipeline_depth", c.pipeline_depth),
            ("sfu_lanes", c.sfu_lanes),
            ("sfu_interval", c.sfu_interval),
            ("private_latency", c.private_latency),
            ("shared_latency", c.shared_latency),
        ])?;
        if !(1..=64).contains(&c.lanes) {
            return Err(format!("lanes = {}: 1..=64", c.lanes));
        }
        if !(1..=64).contains(&c.warps) {
            return Err(format!("warps = {}: 1..=64", c.warps));
        }
        if !c.warp_size.is_multiple_of(c.lanes) {
            return Err(format!(
                "warp_size = {} is not a multiple of lanes = {}",
                c.warp_size, c.lanes
            ));
        }
        if !c.warps.is_multiple_of(c.fetch_group) {
            return Err(format!(
                "fetch_group = {} does not divide warps = {}",
                c.fetch_group, c.warps
            ));
        }
        if c.stack_entries < 3 {
            return Err(format!(
                "stack_entries = {}: a divergent branch needs the base entry and two more",
                c.stack_entries
            ));
        }
        if c.sfu_lanes > c.lanes {
            return Err(format!(
                "sfu_lanes = {} exceeds lanes = {}",
                c.sfu_lanes, c.lanes
            ));
        }
        if c.core_registers > 0 && c.thread_registers == 0 {
            return Err(
                "thread_registers = 0 with core_registers set: a thread takes at least one register"
                    .to_string(),
            );
        }
        if c.sticky_cta && c.fetch_group != c.warps {
            return Err(format!(
                "sticky_cta = true with fetch_group = {} < warps = {}: the fetch groups are the CTAs (set fetch_group = warps)",
                c.fetch_group, c.warps
            ));
        }
        Ok(c)
    }

    /// Rows of lanes in a warp (more than one: large warps).
    pub fn rows(&self) -> u32 {
        self.warp_size / self.lanes
    }
}
