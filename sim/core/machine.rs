//! A machine: the core model's parameters, as a TOML file or a named preset, with
//! `--set KEY=VALUE` overrides (docs/core.md §2, §3). Every key has a meaning and a
//! default (the `lwm` preset); a key that does not exist, a value of the wrong type and a
//! combination that cannot work are refused with a message.
use serde::{Deserialize, Serialize};

/// How a warp handles divergent branches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Divergence {
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

impl Divergence {
    /// The key's value (`tbc+` for [`Divergence::TbcPlus`]).
    pub fn name(self) -> &'static str {
        match self {
            Divergence::Pdom => "pdom",
            Divergence::Lwm => "lwm",
            Divergence::Tbc => "tbc",
            Divergence::TbcPlus => "tbc+",
            Divergence::Capri => "capri",
            Divergence::Dom => "dom",
        }
    }
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

/// Every parameter of the modelled GPU. Field names are the keys of `--set` and of a
/// machine file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Machine {
    pub timing: Timing,
    pub cores: u32,
    pub lanes: u32,
    pub warps: u32,
    pub warp_size: u32,
    pub fetch_group: u32,
    pub sticky_cta: bool,
    pub max_ctas: u32,
    pub divergence: Divergence,
    pub lwm_memory_opt: bool,
    pub lwm_jump_opt: bool,
    pub stack_entries: u32,
    pub capt_entries: u32,
    pub capt_history: CaptHistory,
    pub scoreboard: bool,
    pub pipeline_depth: u32,
    pub sfu_lanes: u32,
    pub sfu_latency: u32,
    pub private_latency: u32,
    pub shared_latency: u32,
    pub l1_kb: u32,
    pub l1_ways: u32,
    pub l1_line: u32,
    pub l1_latency: u32,
    pub l1_ports: u32,
    pub l1_mshrs: u32,
    pub l1_mshr_merge: u32,
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
    pub dom_max_slip: u32,
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
        "dom: memory divergence table entries per warp (the DoM paper's M): loads, by PC, whose missing threads a warp may have waiting",
    ),
    (
        "dom_max_slip",
        "dom: the core's max-slip at the start, 0..=255 (how many divergent loads a thread may run ahead of its warp's slowest); 0 runs every load blocking",
    ),
    (
        "dom_adaptive",
        "dom: true moves max-slip by one at the end of each dom_period (the adaptive diff); false keeps dom_max_slip (fixed slip)",
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

impl Default for Machine {
    fn default() -> Machine {
        Machine::lwm()
    }
}

impl Machine {
    /// The LWM paper's baseline (its Table 1 and §2, §6.3): one core, 32 lanes, 32 warps
    /// of 32 threads, barrel processing in a 7-stage pipeline, round-robin fetch; a 32 KB
    /// 4-way L1 with 128-byte lines and single-cycle hits; DRAM of 8 banks, 4 KB rows,
    /// 100-cycle row hits, 300-cycle row conflicts, open-row FCFS, 128 GB/s.
    ///
    /// What the paper leaves open, chosen here: a 1.5 GHz clock (the shader clock of its
    /// contemporaries, so 128 GB/s is 85.3 bytes per cycle); 8 SFU lanes (a quarter of the
    /// lanes, as GT200's 2 SFUs per 8 SPs; the paper says only "fewer complex FUs") with 8
    /// extra cycles; 32 MSHRs merging up to 32 requests; no L2; CTA-shared memory
    /// (which the paper does not model) on chip with the L1's 1-cycle latency, banked
    /// without conflicts.
    pub fn lwm() -> Machine {
        Machine {
            cores: 1,
            lanes: 32,
            warps: 32,
            warp_size: 32,
            fetch_group: 32,
            sticky_cta: false,
            max_ctas: 0,
            divergence: Divergence::Pdom,
            lwm_memory_opt: true,
            lwm_jump_opt: true,
            stack_entries: 64,
            capt_entries: 32,
            capt_history: CaptHistory::Latest,
            scoreboard: false,
            pipeline_depth: 7,
            sfu_lanes: 8,
            sfu_latency: 8,
            private_latency: 1,
            // The paper gives no shared memory; on chip like its L1, so its latency.
            shared_latency: 1,
            l1_kb: 32,
            l1_ways: 4,
            l1_line: 128,
            l1_latency: 1,
            l1_ports: 1,
            l1_mshrs: 32,
            l1_mshr_merge: 32,
            l2_kb: 0,
            l2_ways: 8,
            l2_latency: 20,
            l2_write_allocate: false,
            dram_channels: 1,
            dram_banks: 8,
            dram_queue: 0,
            dram_row_bytes: 4096,
            dram_row_hit: 100,
            dram_row_conflict: 300,
            dram_scheduler: DramScheduler::Fcfs,
            dram_gbps: 128.0,
            clock_mhz: 1500.0,
            // Diverge on miss (divergence = dom): the DoM paper's Table 1 (M = 2) and
            // the slip presets of its hardware (max-slip 8 after reset; 100 000-cycle
            // periods, §5.2); the thresholds are not in the paper: 1% idle cycles is
            // ALU bound, half the cycles moving data bandwidth bound, a quarter of them
            // waiting on memory latency bound.
            dom_mdt_entries: 2,
            dom_max_slip: 8,
            dom_adaptive: true,
            dom_period: 100_000,
            dom_idle_max: 0.01,
            dom_bw_min: 0.5,
            dom_stall_min: 0.25,
            // The VGIW engine's keys (used only with timing = vgiw): the vgiw preset's.
            timing: Timing::Simt,
            l1_banks: 32,
            vgiw_alu_units: 32,
            vgiw_special_units: 12,
            vgiw_lv_units: 16,
            vgiw_ldst_units: 16,
            vgiw_split_join_units: 16,
            vgiw_cvus: 16,
            vgiw_reconfig: 34,
            vgiw_alu_latency: 4,
            vgiw_special_latency: 10,
            vgiw_replica_threads: 64,
            vgiw_tile: 0,
            vgiw_cvt_bits: 32 * 1024,
            lvc_kb: 64,
            lvc_latency: 4,
            vgiw_alias: VgiwAlias::Base,
            vgiw_store_done: VgiwStoreDone::Fill,
            vgiw_launch_constants: false,
        }
    }

    /// The CAPRI paper's machine (its Table 1 and §4), baseline WPDOM: 30 cores of 1024
    /// threads (32 warps of 32, SIMD width 32), sticky round robin by CTA, a 32 KB 8-way
    /// L1 and a 1 MB 64-way L2 with 64-byte lines, 8 DRAM channels with FR-FCFS and
    /// 32-request queues.
    ///
    /// What the paper leaves open, from GPGPU-Sim's Quadro FX5800 configuration (the card
    /// the paper's simulator matches): a 325 MHz core clock; 8 CTAs per core
    /// (`-gpgpu_shader_cta 8`); 8 channels of two 4-byte GDDR3 chips at 800 MHz DDR
    /// (102.4 GB/s) with 8 banks each (64 banks), 2 KB rows. Chosen here: barrel
    /// processing in 7 stages (GPGPU-Sim 2.x issues a warp again when its instruction
    /// has left the pipeline), 64 stack entries, 8 SFU lanes with 8 extra cycles (as
    /// `lwm`), 1-cycle shared memory (as `lwm`), 1-cycle L1 and 30-cycle L2 hits, 32 MSHRs merging 8 requests, 100-cycle
    /// row hits and 110-cycle row conflicts (about GT200's 440 shader-cycle load latency
    /// at the core clock, and tRP + tRCD of 22 DRAM cycles).
    pub fn capri() -> Machine {
        Machine {
            cores: 30,
            lanes: 32,
            warps: 32,
            warp_size: 32,
            fetch_group: 32,
            sticky_cta: true,
            max_ctas: 8,
            divergence: Divergence::Pdom,
            lwm_memory_opt: false,
            lwm_jump_opt: false,
            stack_entries: 64,
            capt_entries: 32,
            capt_history: CaptHistory::Latest,
            scoreboard: false,
            pipeline_depth: 7,
            sfu_lanes: 8,
            sfu_latency: 8,
            private_latency: 1,
            shared_latency: 1,
            l1_kb: 32,
            l1_ways: 8,
            l1_line: 64,
            l1_latency: 1,
            l1_ports: 1,
            l1_mshrs: 32,
            l1_mshr_merge: 8,
            l2_kb: 1024,
            l2_ways: 64,
            l2_latency: 30,
            dram_channels: 8,
            dram_banks: 64,
            dram_queue: 32,
            dram_row_bytes: 2048,
            dram_row_hit: 100,
            dram_row_conflict: 110,
            dram_scheduler: DramScheduler::FrFcfs,
            dram_gbps: 102.4,
            clock_mhz: 325.0,
            ..Machine::lwm()
        }
    }

    /// The DoM paper's machine (its §7.1-7.2), baseline blocking (`divergence = pdom`;
    /// `divergence = dom` turns diverge on miss on): one of its 32 cores, 32 lanes, one
    /// warp (the eval sets `warps` = `fetch_group` = 1..16: plain round robin), a CPI of
    /// one for every instruction (`pipeline_depth = 1`, SFU as wide as the lanes, no extra
    /// latency), a 32 KB 4-way L1 with 32-byte lines, 500-cycle memory and the core's
    /// fair share of the chip's 256 GB/s at 2 GHz (8 GB/s: 4 bytes per cycle, a line per
    /// 8 cycles), outstanding misses not a limit.
    ///
    /// What the paper leaves open, chosen here: every line of a memory instruction
    /// looked up in one cycle (`l1_ports = 32`: its simulator charges a memory
    /// instruction one cycle, and its k-means runs at peak with one warp); 1-cycle L1
    /// hits; memory as one bank whose every access takes 499 cycles plus the L1's 1
    /// (the bus, not the bank, limits bandwidth); 1024 MSHRs merging 64 requests;
    /// 128 stack entries (a divergent loop exit takes two); the optional L2 (§8.4,
    /// `l2_kb = 256`) 16-way with 20-cycle hits.
    pub fn dom() -> Machine {
        Machine {
            cores: 1,
            warps: 1,
            fetch_group: 1,
            stack_entries: 128,
            pipeline_depth: 1,
            sfu_lanes: 32,
            sfu_latency: 0,
            l1_kb: 32,
            l1_ways: 4,
            l1_line: 32,
            l1_latency: 1,
            l1_ports: 32,
            l1_mshrs: 1024,
            l1_mshr_merge: 64,
            l2_kb: 0,
            l2_ways: 16,
            l2_latency: 20,
            dram_channels: 1,
            dram_banks: 1,
            dram_queue: 0,
            dram_row_bytes: 2048,
            dram_row_hit: 499,
            dram_row_conflict: 499,
            dram_scheduler: DramScheduler::Fcfs,
            dram_gbps: 8.0,
            clock_mhz: 2000.0,
            ..Machine::lwm()
        }
    }

    /// The VGIW paper's baseline (its §4): one GTX480 SM as GPGPU-Sim models it, with
    /// the SM's share of the chip's L2 and DRAM. The paper gives only "GTX480"; every
    /// value is from GPGPU-Sim's GTX480 configuration (`SM2_GTX480`): 48 warps of 32
    /// (1536 threads), 1.4 GHz shader clock (its 700 MHz core clock counts two-cycle
    /// issues of 16 lanes: one 32-wide issue per 1.4 GHz cycle is the same peak), a
    /// scoreboard, 4 SFU lanes, up to 8 CTAs, the 48 KB L1 of the "prefer L1" split
    /// (6-way, 128-byte lines, 64 MSHRs merging 8); a 768 KB L2 over 15 SMs (48 KB here;
    /// 16-way as the paper's Table 1), write-back with write allocation (GPGPU-Sim 3.x's
    /// `-gpgpu_cache:dl2 64:128:8,L:B:m:W:L`: `B` write-back, `W` write-allocate),
    /// 120 cycles at 700 MHz (240); GDDR5 at 177.4 GB/s over 15 SMs (11.83 GB/s), 16
    /// banks, FR-FCFS, 100 cycles at 700 MHz plus CAS (200 row hit), tRP + tRCD of 24
    /// cycles at 924 MHz (235 row conflict); floating-point divide 39 cycles at 700 MHz
    /// (78 of SFU latency).
    ///
    /// Chosen here (not in either source): an L1 hit in 2 cycles, one cycle at 700 MHz
    /// (GPGPU-Sim 3.x has no L1 hit latency option, its LD/ST unit's pipeline times a
    /// hit; `-gpgpu_l1_latency` is 4.x's); 2 KB DRAM rows; an 8-stage pipeline (an add
    /// takes 4 cycles at 700 MHz); private memory as the L1 (Fermi caches local memory
    /// in the L1); CTA-shared memory 6 cycles; round-robin fetch (weft's
    /// core has no GTO scheduler, no second scheduler and one load in flight per warp:
    /// the SIMT-side features the GTX480 has and this preset lacks).
    pub fn fermi() -> Machine {
        Machine {
            cores: 1,
            lanes: 32,
            warps: 48,
            warp_size: 32,
            fetch_group: 48,
            max_ctas: 8,
            divergence: Divergence::Pdom,
            lwm_memory_opt: false,
            lwm_jump_opt: false,
            stack_entries: 64,
            scoreboard: true,
            pipeline_depth: 8,
            sfu_lanes: 4,
            sfu_latency: 78,
            private_latency: 2,
            shared_latency: 6,
            l1_kb: 48,
            l1_ways: 6,
            l1_line: 128,
            l1_latency: 2,
            l1_ports: 1,
            l1_mshrs: 64,
            l1_mshr_merge: 8,
            l2_kb: 48,
            l2_ways: 16,
            l2_latency: 240,
            l2_write_allocate: true,
            dram_channels: 1,
            dram_banks: 16,
            dram_queue: 0,
            dram_row_bytes: 2048,
            dram_row_hit: 200,
            dram_row_conflict: 235,
            dram_scheduler: DramScheduler::FrFcfs,
            dram_gbps: 11.83,
            clock_mhz: 1400.0,
            ..Machine::lwm()
        }
    }

    /// One VGIW core at the paper's scale (its Table 1, §2-3): 108 units (32 FPU-ALU, 12
    /// special compute, 16 live value, 16 load/store, 16 split/join, 16 control vector
    /// units), 1.4 GHz, a 64 KB 4-way L1 of 32 banks and 128-byte lines (write-back with
    /// allocation, §3.6), a 64 KB live value cache, 34-cycle reconfiguration (§2), and
    /// `fermi`'s L2 and DRAM share (§3.6: the memory system is Fermi's).
    ///
    /// From the paper's text: 30 threads in flight per replica (§3.4: the token buffers
    /// hold 70% less than Fermi's 128 KB register file, 39 322 bytes over 108 units of
    /// entries of three 4-byte operands, 30 entries, one per thread, per unit); a store
    /// done when the L1 accepts it (§3.5: the load/store unit's reservation buffer lets
    /// threads overtake it).
    ///
    /// Chosen here after the paper's compiler (§4 compiles LLVM's SSA form, where distinct
    /// objects are told apart and kernel arguments are values, not loads): memory accesses
    /// ordered only within a data object (`vgiw_alias = object`); kernel arguments and
    /// other launch values as constants of the block's configuration.
    ///
    /// Chosen here (not in the paper): the L1 hit latency of `fermi` (the same memory
    /// pipeline); 4 cycles per FPU-ALU node (a 3-cycle operation and a 1-cycle hop), 10
    /// per special node (weft's RTL divide tile's 9 cycles and a hop);
    /// 4-cycle live value cache hits; a control vector table of
    /// 32 x 1024 bits (weft's `cvt` block at 32 blocks of 1024 threads), so tiles follow
    /// the paper's §3.2 rule: 32 768 / blocks threads (32 768 for one block, 1 024 for 32).
    pub fn vgiw() -> Machine {
        Machine {
            timing: Timing::Vgiw,
            l1_kb: 64,
            l1_ways: 4,
            l1_line: 128,
            l1_banks: 32,
            vgiw_alu_units: 32,
            vgiw_special_units: 12,
            vgiw_lv_units: 16,
            vgiw_ldst_units: 16,
            vgiw_split_join_units: 16,
            vgiw_cvus: 16,
            vgiw_reconfig: 34,
            vgiw_replica_threads: 30,
            lvc_kb: 64,
            vgiw_alias: VgiwAlias::Object,
            vgiw_store_done: VgiwStoreDone::Accept,
            vgiw_launch_constants: true,
            ..Machine::fermi()
        }
    }

    /// The named presets.
    pub const PRESETS: &'static [&'static str] = &["lwm", "capri", "dom", "fermi", "vgiw"];

    /// A preset by name.
    pub fn preset(name: &str) -> Result<Machine, String> {
        match name {
            "lwm" => Ok(Machine::lwm()),
            "capri" => Ok(Machine::capri()),
            "dom" => Ok(Machine::dom()),
            "fermi" => Ok(Machine::fermi()),
            "vgiw" => Ok(Machine::vgiw()),
            _ => Err(format!(
                "no machine preset `{name}` (presets: {}; or give a .toml file)",
                Machine::PRESETS.join(", ")
            )),
        }
    }

    /// A machine file: any subset of the keys, the rest from the `lwm` preset.
    pub fn from_toml(text: &str) -> Result<Machine, String> {
        let m: Machine = toml::from_str(text).map_err(|e| e.message().to_string())?;
        m.check()?;
        Ok(m)
    }

    /// Sets the keys of `KEY=VALUE` assignments in turn, then checks the machine (one
    /// change may need another: `warps=8 fetch_group=8`).
    pub fn set_all<S: AsRef<str>>(&mut self, assignments: &[S]) -> Result<(), String> {
        let mut m = self.clone();
        for a in assignments {
            m.set(a.as_ref())?;
        }
        m.check()?;
        *self = m;
        Ok(())
    }

    /// Sets one key from `KEY=VALUE` (VALUE as TOML: `32`, `true`, `fr-fcfs`); the value's
    /// type is checked here, the machine as a whole by [`Machine::check`].
    pub fn set(&mut self, assignment: &str) -> Result<(), String> {
        let (key, value) = assignment
            .split_once('=')
            .ok_or_else(|| format!("`{assignment}`: expected KEY=VALUE"))?;
        let (key, value) = (key.trim(), value.trim());
        if !KEYS.iter().any(|(k, _)| *k == key) {
            return Err(format!(
                "unknown machine key `{key}` (weft run --list-keys lists them)"
            ));
        }
        let mut table = toml::Table::try_from(&*self).map_err(|e| e.to_string())?;
        let parsed = format!("v = {value}")
            .parse::<toml::Table>()
            .ok()
            .and_then(|mut t| t.remove("v"))
            .unwrap_or_else(|| toml::Value::String(value.to_string()));
        table.insert(key.to_string(), parsed);
        let m: Machine = table
            .try_into()
            .map_err(|e: toml::de::Error| format!("{key} = {value}: {}", e.message()))?;
        *self = m;
        Ok(())
    }

    /// Each key's value as TOML text, in `KEYS` order.
    pub fn values(&self) -> Vec<(&'static str, String)> {
        let table = toml::Table::try_from(self).expect("a machine serializes");
        KEYS.iter()
            .map(|(k, _)| (*k, table[*k].to_string()))
            .collect()
    }

    /// Refuses a machine that cannot work.
    pub fn check(&self) -> Result<(), String> {
        let positive = [
            ("cores", self.cores),
            ("lanes", self.lanes),
            ("warps", self.warps),
            ("warp_size", self.warp_size),
            ("fetch_group", self.fetch_group),
            ("stack_entries", self.stack_entries),
            ("pipeline_depth", self.pipeline_depth),
            ("sfu_lanes", self.sfu_lanes),
            ("private_latency", self.private_latency),
            ("shared_latency", self.shared_latency),
            ("l1_kb", self.l1_kb),
            ("l1_ways", self.l1_ways),
            ("l1_line", self.l1_line),
            ("l1_latency", self.l1_latency),
            ("l1_ports", self.l1_ports),
            ("l1_mshrs", self.l1_mshrs),
            ("l1_mshr_merge", self.l1_mshr_merge),
            ("l2_ways", self.l2_ways),
            ("l2_latency", self.l2_latency),
            ("dram_channels", self.dram_channels),
            ("dram_banks", self.dram_banks),
            ("dram_row_bytes", self.dram_row_bytes),
            ("dram_row_hit", self.dram_row_hit),
            ("dram_row_conflict", self.dram_row_conflict),
        ];
        for (key, v) in positive {
            if v == 0 {
                return Err(format!("{key} = 0: must be at least 1"));
            }
        }
        if !(1..=64).contains(&self.lanes) {
            return Err(format!("lanes = {}: 1..=64", self.lanes));
        }
        if !(1..=64).contains(&self.warps) {
            return Err(format!("warps = {}: 1..=64", self.warps));
        }
        if !self.warp_size.is_multiple_of(self.lanes) {
            return Err(format!(
                "warp_size = {} is not a multiple of lanes = {}",
                self.warp_size, self.lanes
            ));
        }
        crate::core::simt::divergence::check(self)?;
        if !self.warps.is_multiple_of(self.fetch_group) {
            return Err(format!(
                "fetch_group = {} does not divide warps = {}",
                self.fetch_group, self.warps
            ));
        }
        if self.stack_entries < 3 {
            return Err(format!(
                "stack_entries = {}: a divergent branch needs the base entry and two more",
                self.stack_entries
            ));
        }
        if self.sfu_lanes > self.lanes {
            return Err(format!(
                "sfu_lanes = {} exceeds lanes = {}",
                self.sfu_lanes, self.lanes
            ));
        }
        for (key, v) in [
            ("l1_line", self.l1_line),
            ("dram_row_bytes", self.dram_row_bytes),
        ] {
            if !v.is_power_of_two() || v < 4 {
                return Err(format!("{key} = {v}: a power of two, at least 4"));
            }
        }
        if self.dram_row_bytes < self.l1_line {
            return Err(format!(
                "dram_row_bytes = {} is smaller than a line (l1_line = {})",
                self.dram_row_bytes, self.l1_line
            ));
        }
        for (key, kb) in [("l1", self.l1_kb), ("l2", self.l2_kb)] {
            let ways = if key == "l1" {
                self.l1_ways
            } else {
                self.l2_ways
            };
            let lines = u64::from(kb) * 1024 / u64::from(self.l1_line);
            if kb > 0 && (lines == 0 || !lines.is_multiple_of(u64::from(ways))) {
                return Err(format!(
                    "{key}_kb = {kb} with {key}_ways = {ways} and lines of {} bytes: the lines do not make whole sets",
                    self.l1_line
                ));
            }
        }
        if !self.dram_banks.is_multiple_of(self.dram_channels) {
            return Err(format!(
                "dram_banks = {} is not a multiple of dram_channels = {}: every channel has as many banks",
                self.dram_banks, self.dram_channels
            ));
        }
        if self.sticky_cta && self.fetch_group != self.warps {
            return Err(format!(
                "sticky_cta = true with fetch_group = {} < warps = {}: the fetch groups are the CTAs (set fetch_group = warps)",
                self.fetch_group, self.warps
            ));
        }
        if self.dram_row_conflict < self.dram_row_hit {
            return Err(format!(
                "dram_row_conflict = {} is shorter than dram_row_hit = {}",
                self.dram_row_conflict, self.dram_row_hit
            ));
        }
        if self.dom_max_slip > 255 {
            return Err(format!(
                "dom_max_slip = {}: 0..=255 (the slip counters are 8 bits)",
                self.dom_max_slip
            ));
        }
        if !(1..=64).contains(&self.dom_mdt_entries) {
            return Err(format!(
                "dom_mdt_entries = {}: 1..=64",
                self.dom_mdt_entries
            ));
        }
        if self.dom_period == 0 {
            return Err("dom_period = 0: must be at least 1".to_string());
        }
        for (key, v) in [
            ("dom_idle_max", self.dom_idle_max),
            ("dom_bw_min", self.dom_bw_min),
            ("dom_stall_min", self.dom_stall_min),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return Err(format!("{key} = {v}: a share of the period, 0..=1"));
            }
        }
        for (key, v) in [
            ("l1_banks", self.l1_banks),
            ("vgiw_alu_units", self.vgiw_alu_units),
            ("vgiw_special_units", self.vgiw_special_units),
            ("vgiw_lv_units", self.vgiw_lv_units),
            ("vgiw_ldst_units", self.vgiw_ldst_units),
            ("vgiw_split_join_units", self.vgiw_split_join_units),
            ("vgiw_alu_latency", self.vgiw_alu_latency),
            ("vgiw_special_latency", self.vgiw_special_latency),
            ("vgiw_replica_threads", self.vgiw_replica_threads),
            ("vgiw_cvt_bits", self.vgiw_cvt_bits),
            ("lvc_kb", self.lvc_kb),
            ("lvc_latency", self.lvc_latency),
        ] {
            if v == 0 {
                return Err(format!("{key} = 0: must be at least 1"));
            }
        }
        if self.vgiw_cvus < 2 {
            return Err(format!(
                "vgiw_cvus = {}: a replica needs two control vector units (initiator and terminator)",
                self.vgiw_cvus
            ));
        }
        for (key, v) in [("dram_gbps", self.dram_gbps), ("clock_mhz", self.clock_mhz)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!("{key} = {v}: must be a positive number"));
            }
        }
        Ok(())
    }

    /// DRAM bytes per core cycle.
    pub fn dram_bytes_per_cycle(&self) -> f64 {
        self.dram_gbps * 1e3 / self.clock_mhz
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lwm_preset_is_the_papers_table_1() {
        let m = Machine::preset("lwm").unwrap();
        assert_eq!((m.cores, m.lanes, m.warps, m.warp_size), (1, 32, 32, 32));
        assert_eq!(m.fetch_group, m.warps, "round robin");
        assert_eq!(
            (m.l1_kb, m.l1_ways, m.l1_line, m.l1_latency),
            (32, 4, 128, 1)
        );
        assert_eq!((m.dram_banks, m.dram_row_bytes), (8, 4096));
        assert_eq!((m.dram_row_hit, m.dram_row_conflict), (100, 300));
        assert_eq!(m.dram_scheduler, DramScheduler::Fcfs);
        assert!((m.dram_bytes_per_cycle() - 128e9 / 1.5e9).abs() < 1e-9);
        assert!(m.sfu_lanes < m.lanes);
        m.check().unwrap();
    }

    /// The CAPRI paper's Table 1: 30 cores of 1024 threads, SIMD width 32, L1 32 KB
    /// 8-way 64 B, L2 1 MB 64-way 64 B, 8 channels, FR-FCFS, queues of 32; §4: sticky
    /// round robin by CTA; GPGPU-Sim's FX5800 file: 8 CTAs per core, 325 MHz, 102.4 GB/s.
    #[test]
    fn the_capri_preset_is_the_papers_table_1() {
        let m = Machine::preset("capri").unwrap();
        assert_eq!((m.cores, m.lanes, m.warps * m.warp_size), (30, 32, 1024));
        assert!(m.sticky_cta && m.fetch_group == m.warps);
        assert_eq!((m.l1_kb, m.l1_ways, m.l1_line), (32, 8, 64));
        assert_eq!((m.l2_kb, m.l2_ways), (1024, 64));
        assert_eq!((m.dram_channels, m.dram_queue), (8, 32));
        assert_eq!(m.dram_scheduler, DramScheduler::FrFcfs);
        assert_eq!((m.max_ctas, m.divergence), (8, Divergence::Pdom));
        assert!((m.dram_bytes_per_cycle() - 102.4e9 / 325e6).abs() < 1e-9);
        m.check().unwrap();
    }

    /// The VGIW paper's Table 1 (108 units by class, 1.4 GHz, L1 64 KB 32 banks 128 B
    /// 4-way, a 64 KB live value cache, §2's 34-cycle reconfiguration) on `fermi`'s L2
    /// and DRAM; `fermi` is GPGPU-Sim's GTX480 SM with its share of the chip's memory.
    #[test]
    fn the_vgiw_preset_is_table_1_on_fermis_memory() {
        let v = Machine::preset("vgiw").unwrap();
        let units = [
            v.vgiw_alu_units,
            v.vgiw_special_units,
            v.vgiw_lv_units,
            v.vgiw_ldst_units,
            v.vgiw_split_join_units,
            v.vgiw_cvus,
        ];
        assert_eq!(units, [32, 12, 16, 16, 16, 16]);
        assert_eq!(units.iter().sum::<u32>(), 108);
        assert_eq!(
            (v.timing, v.clock_mhz, v.vgiw_reconfig),
            (Timing::Vgiw, 1400.0, 34)
        );
        assert_eq!(
            (v.l1_kb, v.l1_banks, v.l1_line, v.l1_ways),
            (64, 32, 128, 4)
        );
        assert_eq!(v.lvc_kb, 64);
        let f = Machine::preset("fermi").unwrap();
        assert_eq!(f.timing, Timing::Simt);
        assert_eq!(
            (f.warps * f.warp_size, f.lanes, f.clock_mhz),
            (1536, 32, 1400.0)
        );
        assert_eq!((f.l1_kb, f.l1_line), (48, 128));
        assert!(
            (f.dram_gbps * 15.0 - 177.4).abs() < 0.1,
            "a fifteenth of 177.4 GB/s"
        );
        let shared = |m: &Machine| {
            (
                m.l2_kb,
                m.l2_ways,
                m.l2_latency,
                m.dram_banks,
                m.dram_row_hit,
                m.dram_row_conflict,
                m.dram_scheduler,
            )
        };
        assert_eq!(shared(&v), shared(&f));
        assert_eq!(v.dram_gbps, f.dram_gbps);
        v.check().unwrap();
        f.check().unwrap();
    }

    #[test]
    fn every_key_is_listed_once_and_has_a_value() {
        let values = Machine::lwm().values();
        assert_eq!(values.len(), KEYS.len());
        let table = toml::Table::try_from(Machine::lwm()).unwrap();
        assert_eq!(table.len(), KEYS.len(), "a field without a KEYS line");
    }

    #[test]
    fn set_parses_each_type_and_refuses_what_cannot_work() {
        let mut m = Machine::lwm();
        m.set_all(&["fetch_group=8"]).unwrap();
        assert_eq!(m.fetch_group, 8);
        m.set("dram_scheduler=fr-fcfs").unwrap();
        assert_eq!(m.dram_scheduler, DramScheduler::FrFcfs);
        m.set("lwm_jump_opt = false").unwrap();
        assert!(!m.lwm_jump_opt);
        m.set("dram_gbps=64").unwrap();
        assert_eq!(m.dram_gbps, 64.0);
        for (bad, says) in [
            ("frobs=3", "unknown machine key `frobs`"),
            ("fetch_group=5", "does not divide"),
            ("warps=65", "1..=64"),
            ("lanes=x", "lanes = x"),
            ("divergence=sideways", "divergence = sideways"),
            ("l1_line=96", "power of two"),
            ("fetch_group", "expected KEY=VALUE"),
            ("dram_row_conflict=50", "shorter than"),
            ("dram_channels=3", "not a multiple of dram_channels = 3"),
            ("dram_channels=0", "dram_channels = 0: must be at least 1"),
            ("sticky_cta=true", "fetch_group = 8 < warps = 32"),
        ] {
            let err = m.clone().set_all(&[bad]).unwrap_err();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }

    #[test]
    fn a_machine_file_overrides_some_keys_and_refuses_unknown_ones() {
        let m = Machine::from_toml("warps = 16\nfetch_group = 4\n").unwrap();
        assert_eq!((m.warps, m.fetch_group, m.lanes), (16, 4, 32));
        let err = Machine::from_toml("wraps = 16\n").unwrap_err();
        assert!(err.contains("wraps"), "{err}");
        assert!(Machine::preset("kepler").unwrap_err().contains("lwm"));
        let mut m = Machine::lwm();
        m.set_all(&["warps=8", "fetch_group=2"]).unwrap();
        assert_eq!(
            (m.warps, m.fetch_group),
            (8, 2),
            "checked after every change"
        );
    }
}
