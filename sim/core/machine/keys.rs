//! The machine's keys as written: one flat table of every key (the names of `--set`, of a
//! machine file, of `--list-keys` and of `--json`'s `machine`), unchecked. A key that does
//! not exist and a value of the wrong type are refused here, one key at a time; the
//! machine as a whole is checked by [`Keys::check`].
use serde::{Deserialize, Serialize};

/// How a warp handles divergent branches: the `divergence` key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mechanism {
    /// One divergence stack per warp, reconverging at the immediate post-dominator.
    Pdom,
    /// Large warps with sub-warping (the LWM paper's §3.1).
    Lwm,
    /// Thread block compaction: a CTA-wide stack; every warp waits at every branch and
    /// jump for its CTA's others, then the compaction unit forms the warps anew.
    Tbc,
    /// TBC without the wait at jumps and at branches proven uniform.
    #[serde(rename = "tbc+")]
    TbcPlus,
    /// TBC where a warp waits only if the CAPT predicts compaction pays (CAPRI).
    Capri,
    /// PDOM with diverge on miss: a global load whose threads partly miss in the L1 lets
    /// the threads that hit run on; the others wait and rejoin later (DoM §4).
    Dom,
}

impl Mechanism {
    /// The key's value (`tbc+` for [`Mechanism::TbcPlus`]).
    pub fn name(self) -> &'static str {
        match self {
            Mechanism::Pdom => "pdom",
            Mechanism::Lwm => "lwm",
            Mechanism::Tbc => "tbc",
            Mechanism::TbcPlus => "tbc+",
            Mechanism::Capri => "capri",
            Mechanism::Dom => "dom",
        }
    }
}

/// Where threads that diverged on a miss inside a loop come back when they miss the
/// loop's next execution of their load (the DoM paper's §4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DomReconverge {
    /// At the next call, return or barrier: the warp leaves the loop without them.
    Return,
    /// At the loop's exit: the warp does not leave the loop while they wait (they stay
    /// members of its stack entry, §3.1); a call, return or barrier first still brings
    /// them back.
    Loop,
}

/// How a CAPT entry remembers a branch's adequacy (CAPRI §3.2, §5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CaptHistory {
    /// 1b-Latest: the last adequacy.
    Latest,
    /// 1b-Sticky: adequate once, adequate for good.
    Sticky,
    /// A 2-bit saturating counter.
    Counter2,
}

/// The order in which a DRAM bank serves its queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DramScheduler {
    /// First come, first served.
    Fcfs,
    /// First ready (row hits first), then first come, first served.
    FrFcfs,
}

/// Which memory accesses of a VGIW block the lowering orders after which (the alias
/// rule, docs/core.md §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VgiwAlias {
    /// Accesses through one base at disjoint offsets, or at disjoint constant addresses,
    /// are apart; every other pair may alias.
    Base,
    /// `base`, and accesses anchored in distinct data objects (symbols of the ELF:
    /// globals, CTA-shared variables, the stack) are apart.
    Object,
    /// No access waits for another (an upper bound: timing only, results unchanged).
    None,
}

/// When a VGIW store is done for its thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VgiwStoreDone {
    /// When its line is in the L1 (a miss waits for the write-allocate fill).
    Fill,
    /// When the L1 accepts it (the fill and write-back still happen).
    Accept,
}

/// Which model times the run: the SIMT core or the VGIW engine (docs/core.md §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Timing {
    Simt,
    Vgiw,
}

impl Timing {
    pub fn name(self) -> &'static str {
        match self {
            Timing::Simt => "simt",
            Timing::Vgiw => "vgiw",
        }
    }
}

/// Every key of the machine with its value, as written (a preset, a file, `--set`).
/// Field names are the keys; a machine file gives any subset, the rest from `lwm`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Keys {
    pub timing: Timing,
    pub cores: u32,
    pub lanes: u32,
    pub warps: u32,
    pub warp_size: u32,
    pub fetch_group: u32,
    pub sticky_cta: bool,
    pub max_ctas: u32,
    pub core_registers: u32,
    pub thread_registers: u32,
    pub shared_kb: u32,
    pub divergence: Mechanism,
    pub lwm_memory_opt: bool,
    pub lwm_jump_opt: bool,
    pub stack_entries: u32,
    pub capt_entries: u32,
    pub capt_history: CaptHistory,
    pub scoreboard: bool,
    pub pipeline_depth: u32,
    pub sfu_lanes: u32,
    pub sfu_latency: u32,
    pub sfu_interval: u32,
    pub sfu_multiply: bool,
    pub private_latency: u32,
    pub shared_latency: u32,
    pub l1_kb: u32,
    pub l1_ways: u32,
    pub l1_line: u32,
    pub l1_latency: u32,
    pub l1_ports: u32,
    pub l1_mshrs: u32,
    pub l1_mshr_merge: u32,
    pub l1_write_back: bool,
    pub l2_kb: u32,
    pub l2_ways: u32,
    pub l2_latency: u32,
    pub l2_write_allocate: bool,
    pub dram_channels: u32,
    pub dram_banks: u32,
    pub dram_queue: u32,
    pub dram_row_bytes: u32,
    pub dram_row_hit: u32,
    pub dram_row_conflict: u32,
    pub dram_scheduler: DramScheduler,
    pub dram_gbps: f64,
    pub clock_mhz: f64,
    pub dom_mdt_entries: u32,
    pub dom_reconverge: DomReconverge,
    pub dom_max_slip: u32,
    pub dom_slip_step: u32,
    pub dom_adaptive: bool,
    pub dom_period: u32,
    pub dom_idle_max: f64,
    pub dom_bw_min: f64,
    pub dom_stall_min: f64,
    pub l1_banks: u32,
    pub vgiw_alu_units: u32,
    pub vgiw_special_units: u32,
    pub vgiw_lv_units: u32,
    pub vgiw_ldst_units: u32,
    pub vgiw_split_join_units: u32,
    pub vgiw_cvus: u32,
    pub vgiw_reconfig: u32,
    pub vgiw_alu_latency: u32,
    pub vgiw_special_latency: u32,
    pub vgiw_replica_threads: u32,
    pub vgiw_tile: u32,
    pub vgiw_cvt_bits: u32,
    pub lvc_kb: u32,
    pub lvc_latency: u32,
    pub vgiw_alias: VgiwAlias,
    pub vgiw_store_done: VgiwStoreDone,
    pub vgiw_launch_constants: bool,
}

/// Every key with its meaning, in the order `weft run --list-keys` prints them.
pub const KEYS: &[(&str, &str)] = &[
    (
        "timing",
        "simt (the SIMT core) or vgiw (the VGIW engine: the kernel lowered to basic-block dataflow graphs on a fabric of vgiw_* units)",
    ),
    ("cores", "SIMT cores; they share the DRAM"),
    ("lanes", "SIMD lanes per core (1..=64)"),
    ("warps", "warp slots per core (1..=64)"),
    (
        "warp_size",
        "threads per warp; a multiple of lanes (larger than lanes: large warps of warp_size/lanes rows, divergence = lwm)",
    ),
    (
        "fetch_group",
        "warps per fetch group of the two-level scheduler; = warps is plain round robin",
    ),
    (
        "sticky_cta",
        "the two-level scheduler with one fetch group per CTA: a CTA's warps keep priority until all are stalled (a CTA's warp slots are an aligned group; fetch_group must equal warps)",
    ),
    ("max_ctas", "CTAs resident per core at most; 0 = as many as the warp slots hold"),
    (
        "core_registers",
        "registers per core: a core holds at most core_registers / (thread_registers x the CTA's threads, rounded up to whole warps) CTAs; 0 = no limit",
    ),
    (
        "thread_registers",
        "registers each thread of the kernel takes (its CUDA original's count where published); with core_registers, limits CTAs per core",
    ),
    (
        "shared_kb",
        "CTA-shared memory per core in KiB: a core holds at most shared_kb x 1024 / (the kernel's WEFT_SHARED bytes) CTAs; 0 = no limit",
    ),
    (
        "divergence",
        "pdom (WPDOM: a divergence stack per warp), lwm (large warps with sub-warping), tbc (thread block compaction: a CTA-wide stack, every warp waits at every branch and jump for its CTA's others, then warps are formed anew), tbc+ (tbc without the wait at jumps and at branches proven uniform), capri (tbc where a diverged warp waits only if the CAPT predicts compaction pays), dom (pdom with diverge on miss: the threads of a global load that hit in the L1 run on, the threads that miss wait and rejoin at the load's next execution once their lines are in)",
    ),
    ("lwm_memory_opt", "lwm: a global memory instruction issues one row per sub-warp"),
    ("lwm_jump_opt", "lwm: an unconditional jump issues as one sub-warp"),
    (
        "stack_entries",
        "divergence stack entries per warp (per CTA with tbc, tbc+, capri)",
    ),
    (
        "capt_entries",
        "capri: CAPT entries per core, fully associative, LRU; 0 = one per branch of the kernel (unlimited)",
    ),
    (
        "capt_history",
        "capri: latest (1b-Latest), sticky (1b-Sticky) or counter2 (2-bit saturating counter)",
    ),
    (
        "scoreboard",
        "false: barrel processing (a warp is fetched again when its instruction completes); true: a warp issues its next instruction once the registers it reads and writes are written (loads outstanding, one at a time)",
    ),
    (
        "pipeline_depth",
        "pipeline stages from fetch to writeback: a warp is fetched again this many cycles after its last fetch at the earliest (barrel processing)",
    ),
    ("sfu_lanes", "special function unit lanes (divide, remainder, square root)"),
    ("sfu_latency", "extra cycles of a special function unit operation"),
    (
        "sfu_interval",
        "cycles each pass of the special function unit (sfu_lanes threads) holds the issue slot: 1 = pipelined, a pass a cycle; more = an unpipelined unit (the RTL core's shared multiply/divide unit: 10, one lane a pass)",
    ),
    (
        "sfu_multiply",
        "true: multiplies (mul, mulh*) run on the special function unit, as on the RTL core's shared multiply/divide unit; false: on the ALU lanes, one cycle",
    ),
    ("private_latency", "cycles of a private (per-thread stack) access in the memory stage"),
    (
        "shared_latency",
        "cycles of a CTA-shared (WEFT_SHARED) access in the memory stage; banks without conflicts (every warp instruction takes this latency whatever its addresses)",
    ),
    ("l1_kb", "L1 data cache size in KiB"),
    ("l1_ways", "L1 ways"),
    ("l1_line", "L1 line size in bytes (the coalescing unit)"),
    ("l1_latency", "L1 hit latency in cycles"),
    (
        "l1_ports",
        "distinct lines the L1 looks up per cycle: a global memory instruction holds the issue slot ceil(lines / l1_ports) cycles (1: one line per cycle, the LWM paper's coalescer)",
    ),
    ("l1_mshrs", "L1 miss status holding registers (distinct lines in flight)"),
    ("l1_mshr_merge", "requests merged into one MSHR at most"),
    (
        "l1_write_back",
        "false: stores write through to DRAM (a line present in a cache is updated); true: a store that hits the L1, or a line an MSHR is fetching, makes it dirty and goes no further, a store that misses writes through without allocating, a dirty line goes to the L2 and DRAM when evicted (the VGIW engine's L1 is write-back with allocation whatever this key)",
    ),
    ("l2_kb", "shared L2 size in KiB; 0 = no L2"),
    ("l2_ways", "L2 ways"),
    ("l2_latency", "L2 hit latency in cycles"),
    (
        "l2_write_allocate",
        "false: the L2 passes writes through to DRAM (a line present is updated); true: write-back with write allocation (a write hit dirties the line, a write miss goes on to DRAM and reads as many bytes to allocate the line; dirty lines go to DRAM when evicted)",
    ),
    (
        "dram_channels",
        "DRAM channels, each with its own data bus (dram_gbps / dram_channels) and dram_banks / dram_channels banks; consecutive 256-byte blocks go to consecutive channels",
    ),
    ("dram_banks", "DRAM banks over all channels"),
    (
        "dram_queue",
        "requests waiting per DRAM channel at most; a request that finds the queue full waits (in its MSHR, or as a write) until one is served; 0 = unbounded",
    ),
    ("dram_row_bytes", "DRAM row (page) size in bytes per bank"),
    ("dram_row_hit", "cycles of a request that finds its row open"),
    ("dram_row_conflict", "cycles of a request that must close a row and open another"),
    ("dram_scheduler", "fcfs or fr-fcfs (row hits first)"),
    ("dram_gbps", "DRAM bandwidth in GB/s (10^9 bytes per second)"),
    ("clock_mhz", "core clock in MHz: turns dram_gbps into bytes per cycle"),
    (
        "dom_mdt_entries",
        "dom: memory divergence table entries per warp (the DoM paper's M): loads, by PC, whose missing threads a warp may have waiting; 0 = unlimited (one per lane: a thread waits on one load at a time)",
    ),
    (
        "dom_reconverge",
        "dom: where threads waiting on a load inside a loop come back when the warp leaves the loop first: return (at the next call, return or barrier; the warp runs on without them) or loop (at the loop's exit: the warp waits there for their lines and runs them to it first)",
    ),
    (
        "dom_max_slip",
        "dom: the core's max-slip at the start, 0..=255 (how many divergent loads a thread may run ahead of its warp's slowest); 0 runs every load blocking",
    ),
    (
        "dom_adaptive",
        "dom: true moves max-slip by dom_slip_step at the end of each dom_period (the adaptive diff), starting at dom_max_slip; false keeps dom_max_slip (fixed slip)",
    ),
    (
        "dom_slip_step",
        "dom: how far the adaptive diff moves max-slip at the end of a period, 1..=255",
    ),
    ("dom_period", "dom: the adaptive diff's sampling period in cycles"),
    (
        "dom_idle_max",
        "dom: a period is ALU bound when at most this share of its cycles started no instruction",
    ),
    (
        "dom_bw_min",
        "dom: a period is bandwidth bound when the DRAM bus moved data in at least this share of its cycles",
    ),
    (
        "dom_stall_min",
        "dom: a period is latency bound when the core waited on memory in at least this share of its cycles",
    ),
    (
        "l1_banks",
        "vgiw: L1 banks of 4-byte words (word w in bank w % l1_banks); a bank takes one access per cycle",
    ),
    ("vgiw_alu_units", "vgiw: combined FPU-ALU units (ALU, multiply, FPU ops, branch compares)"),
    (
        "vgiw_special_units",
        "vgiw: special compute units (divide, remainder, float divide, square root)",
    ),
    ("vgiw_lv_units", "vgiw: live value units (one per live-value read or write of a block)"),
    ("vgiw_ldst_units", "vgiw: load/store units (one per load or store of a block)"),
    (
        "vgiw_split_join_units",
        "vgiw: split/join units (one per memory access that waits on an earlier one of its block)",
    ),
    (
        "vgiw_cvus",
        "vgiw: control vector units; a replica of a block takes two (its initiator and terminator)",
    ),
    (
        "vgiw_reconfig",
        "vgiw: cycles to configure the fabric for a block (paid when the scheduled block is not the configured one)",
    ),
    (
        "vgiw_alu_latency",
        "vgiw: cycles of an FPU-ALU node, its hop to the next unit included",
    ),
    (
        "vgiw_special_latency",
        "vgiw: cycles of a special compute node, its hop included (pipelined: one thread per cycle)",
    ),
    (
        "vgiw_replica_threads",
        "vgiw: threads in flight per replica at most (the token buffers' virtual channels); a thread holds one from injection to its end",
    ),
    (
        "vgiw_tile",
        "vgiw: threads in a tile (whole CTAs, at least one; tiles run one after the other); 0: the VGIW paper's rule, vgiw_cvt_bits over the kernel's basic blocks",
    ),
    (
        "vgiw_cvt_bits",
        "vgiw: bits of the control vector table (one per thread per basic block); sets the tile when vgiw_tile = 0",
    ),
    (
        "lvc_kb",
        "vgiw: live value cache size in KiB (4-way, 128-byte lines of 32 threads' values of one live value)",
    ),
    (
        "lvc_latency",
        "vgiw: cycles of a live value cache hit; a miss adds l2_latency (backed by the L2)",
    ),
    (
        "vgiw_alias",
        "vgiw: the lowering's alias rule for ordering a block's memory accesses: base (one base at disjoint offsets, or disjoint constant addresses, are apart), object (also accesses anchored in distinct data objects of the ELF), none (no order: an upper bound)",
    ),
    (
        "vgiw_store_done",
        "vgiw: a store is done for its thread when its line is in the L1 (fill) or when the L1 accepts it (accept)",
    ),
    (
        "vgiw_launch_constants",
        "vgiw: a load from a constant address no store of the kernel may write (an argument or other launch value) is a constant of the block's configuration, not an L1 access",
    ),
];

/// What reads a key: every timing, one of them, or one divergence policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// The SIMT core and the VGIW engine (the memory system, the clock).
    Both,
    Simt,
    Vgiw,
    /// The SIMT core under this policy only.
    Policy(Mechanism),
}

/// What reads `key` (one of [`KEYS`]).
pub fn reader(key: &str) -> Reader {
    match key {
        "lwm_memory_opt" | "lwm_jump_opt" => Reader::Policy(Mechanism::Lwm),
        "capt_entries" | "capt_history" => Reader::Policy(Mechanism::Capri),
        k if k.starts_with("dom_") => Reader::Policy(Mechanism::Dom),
        k if k.starts_with("vgiw_") || k.starts_with("lvc_") || k == "l1_banks" => Reader::Vgiw,
        "private_latency" | "shared_latency" | "clock_mhz" | "timing" => Reader::Both,
        "l1_write_back" => Reader::Simt,
        k if k.starts_with("l1_") && k != "l1_ports" => Reader::Both,
        k if k.starts_with("l2_") || k.starts_with("dram_") => Reader::Both,
        _ => Reader::Simt,
    }
}

impl Default for Keys {
    fn default() -> Keys {
        Keys::lwm()
    }
}

impl Keys {
    /// A machine file's keys: any subset, the rest from the `lwm` preset. A malformed
    /// file, an unknown key and a value of the wrong type are refused.
    pub fn from_toml(text: &str) -> Result<Keys, String> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            // toml's message spans lines (the offending line quoted): its first says it.
            e.to_string().lines().next().unwrap_or_default().to_string()
        })?;
        let mut keys = Keys::lwm();
        keys.apply(table.into_iter().collect())?;
        Ok(keys)
    }

    /// Sets the keys of `KEY=VALUE` assignments (VALUE as TOML: `32`, `true`,
    /// `fr-fcfs`), in turn: a later one of a key wins. Each key and its value's type are
    /// checked; the machine as a whole is not (one change may need another: `warps=8
    /// fetch_group=8`).
    pub fn set_all<S: AsRef<str>>(&mut self, assignments: &[S]) -> Result<(), String> {
        let mut values = Vec::with_capacity(assignments.len());
        for a in assignments {
            let a = a.as_ref();
            let (key, value) = a
                .split_once('=')
                .ok_or_else(|| format!("`{a}`: expected KEY=VALUE"))?;
            let (key, value) = (key.trim(), value.trim());
            let parsed = format!("v = {value}")
                .parse::<toml::Table>()
                .ok()
                .and_then(|mut t| t.remove("v"))
                .unwrap_or_else(|| toml::Value::String(value.to_string()));
            values.push((key.to_string(), parsed));
        }
        self.apply(values)
    }

    /// Sets each `(key, value)` in turn, all or none: each key must exist and its value
    /// have the key's type.
    fn apply(&mut self, values: Vec<(String, toml::Value)>) -> Result<(), String> {
        if values.is_empty() {
            return Ok(());
        }
        let mut table = toml::Table::try_from(&*self).map_err(|e| e.to_string())?;
        for (key, value) in values {
            if !KEYS.iter().any(|(k, _)| *k == key) {
                return Err(format!(
                    "unknown machine key `{key}` (weft run --list-keys lists them)"
                ));
            }
            // The value's type, for this key alone (the others at their defaults).
            let alone = toml::Table::from_iter([(key.clone(), value.clone())]);
            if let Err(e) = Keys::deserialize(alone) {
                let shown = match &value {
                    toml::Value::String(s) => s.clone(),
                    v => v.to_string(),
                };
                return Err(format!("{key} = {shown}: {}", e.message()));
            }
            table.insert(key, value);
        }
        *self = table
            .try_into()
            .map_err(|e: toml::de::Error| e.message().to_string())?;
        Ok(())
    }

    /// Each key's value as TOML text, in `KEYS` order.
    pub fn values(&self) -> Vec<(&'static str, String)> {
        let table = toml::Table::try_from(self).expect("the keys serialize");
        KEYS.iter()
            .map(|(k, _)| (*k, table[*k].to_string()))
            .collect()
    }
}
