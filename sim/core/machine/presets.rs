//! The named machines: each paper's machine as the keys it sets (docs/core.md §3), every
//! value with its source.
use super::keys::{
    CaptHistory, DomReconverge, DramScheduler, Keys, Mechanism, Timing, VgiwAlias, VgiwStoreDone,
};

impl Keys {
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
    pub fn lwm() -> Keys {
        Keys {
            cores: 1,
            lanes: 32,
            warps: 32,
            warp_size: 32,
            fetch_group: 32,
            sticky_cta: false,
            max_ctas: 0,
            // No occupancy limit but the warp slots and max_ctas.
            core_registers: 0,
            thread_registers: 16,
            shared_kb: 0,
            divergence: Mechanism::Pdom,
            lwm_memory_opt: true,
            lwm_jump_opt: true,
            stack_entries: 64,
            capt_entries: 32,
            capt_history: CaptHistory::Latest,
            scoreboard: false,
            pipeline_depth: 7,
            sfu_lanes: 8,
            sfu_latency: 8,
            // weft's choice on every paper's machine (none states these): a pipelined
            // unit, multiplies on the ALU lanes.
            sfu_interval: 1,
            sfu_multiply: false,
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
            l1_write_back: false,
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
            dom_reconverge: DomReconverge::Return,
            dom_max_slip: 8,
            dom_slip_step: 1,
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

    /// The CAPRI paper's machine as its simulator models it, baseline WPDOM. Table 1 and
    /// §4: 30 cores of 1024 threads (32 warps of 32, SIMD width 32), 16384 registers and
    /// 32 KB of shared memory per core, sticky round robin by CTA, a 32 KB 8-way L1 and
    /// a 1 MB 64-way L2 with 64-byte lines, 8 DRAM channels with FR-FCFS and 32-request
    /// queues.
    ///
    /// What the paper leaves open, from GPGPU-Sim (the paper's simulator, 2.1.1b) and its
    /// Quadro FX5800 configuration: a 325 MHz core clock, 8 CTAs per core
    /// (`-gpgpu_shader_cta 8`); two L1 lines per cycle (`-gpgpu_cache_port_per_bank 2`,
    /// one bank); one MSHR per thread (`-gpgpu_mshr_per_thread 1`: 1024); a write-back
    /// L1 (`-gpgpu_cache_wt_through 0`; a write miss does not allocate); 8 channels of
    /// two 4-byte GDDR3 chips at 800 MHz DDR (102.4 GB/s), 8 banks each, 2 KB rows; the
    /// GDDR3 timing in core cycles (CL = 10 and CL + tRP + tRCD = 32 at 800 MHz: 4 and 13
    /// at 325 MHz). Chosen here: a DRAM row hit's round trip the configuration's "minimum
    /// DRAM latency (30 core cycles)" (a 26-cycle path through the interconnect and L2,
    /// which an L2 hit takes); barrel processing in 7 stages (GPGPU-Sim 2.x issues a
    /// warp again when its instruction has left the pipeline), 64 stack entries, 8 SFU
    /// lanes with 8 extra cycles and 1-cycle shared memory (as `lwm`), 1-cycle L1 hits,
    /// MSHRs merging one request per warp (32), 16 registers per thread (16384 / 1024:
    /// the register file limits no kernel at the warp slots' 1024 threads).
    pub fn capri() -> Keys {
        Keys {
            l1_ports: 2,
            l1_mshrs: 1024,
            l1_mshr_merge: 32,
            l1_write_back: true,
            l2_latency: 26,
            dram_row_hit: 4,
            dram_row_conflict: 13,
            core_registers: 16384,
            thread_registers: 16,
            shared_kb: 32,
            ..Keys::gt200()
        }
    }

    /// The `capri` machine as weft's CAPRI study first calibrated it, to GT200 hardware
    /// rather than the paper's simulator: Table 1 and §4 as `capri`, with one L1 line per
    /// cycle, 32 MSHRs merging 8 requests, a write-through L1, 30-cycle L2 hits, DRAM
    /// row hits of 100 cycles and conflicts of 110 (about GT200's 440 shader-cycle load
    /// latency at the core clock, and tRP + tRCD of 22 DRAM cycles), and no register or
    /// shared-memory limit on CTAs per core (8 at most, `-gpgpu_shader_cta 8`).
    pub fn gt200() -> Keys {
        Keys {
            cores: 30,
            lanes: 32,
            warps: 32,
            warp_size: 32,
            fetch_group: 32,
            sticky_cta: true,
            max_ctas: 8,
            divergence: Mechanism::Pdom,
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
            ..Keys::lwm()
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
    ///
    /// Diverge on miss (`divergence = dom`): the MDT does not limit (`dom_mdt_entries =
    /// 0`: §7.1, "structures for holding outstanding memory requests are not a limiting
    /// factor"; Table 1's M = 2 is the study's sensitivity row); slipped threads stay
    /// members of their loop (`dom_reconverge = loop`: §3.1's stack, where a loop's
    /// entry holds every thread still in the loop, and §4.3, "diverged lanes can
    /// normally reconverge on the next iteration of the loop"); max-slip starts at 8 (the
    /// hardware's reset value) and moves by 8 per 100 000-cycle period (weft's choice:
    /// the paper gives no step; by 8 the controller crosses 0..255 in 32 periods, within
    /// the study's runs).
    pub fn dom() -> Keys {
        Keys {
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
            dom_mdt_entries: 0,
            dom_reconverge: DomReconverge::Loop,
            dom_slip_step: 8,
            ..Keys::lwm()
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
    /// in the L1); CTA-shared memory 6 cycles; round-robin fetch (weft's core has no GTO
    /// scheduler, no second scheduler and one load in flight per warp: the SIMT-side
    /// features the GTX480 has and this preset lacks).
    pub fn fermi() -> Keys {
        Keys {
            cores: 1,
            lanes: 32,
            warps: 48,
            warp_size: 32,
            fetch_group: 48,
            max_ctas: 8,
            divergence: Mechanism::Pdom,
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
            ..Keys::lwm()
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
    /// per special node (weft's RTL divide tile's 9 cycles and a hop); 4-cycle live value
    /// cache hits; a control vector table of 32 x 1024 bits (weft's `cvt` block at 32
    /// blocks of 1024 threads), so tiles follow the paper's §3.2 rule: 32 768 / blocks
    /// threads (32 768 for one block, 1 024 for 32).
    pub fn vgiw() -> Keys {
        Keys {
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
            ..Keys::fermi()
        }
    }

    /// The named presets.
    pub const PRESETS: &'static [&'static str] = &["lwm", "capri", "gt200", "dom", "fermi", "vgiw"];

    /// A preset by name.
    pub fn preset(name: &str) -> Result<Keys, String> {
        match name {
            "lwm" => Ok(Keys::lwm()),
            "capri" => Ok(Keys::capri()),
            "gt200" => Ok(Keys::gt200()),
            "dom" => Ok(Keys::dom()),
            "fermi" => Ok(Keys::fermi()),
            "vgiw" => Ok(Keys::vgiw()),
            _ => Err(format!(
                "no machine preset `{name}` (presets: {}; or give a .toml file)",
                Keys::PRESETS.join(", ")
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lwm_preset_is_the_papers_table_1() {
        let m = Keys::preset("lwm").unwrap();
        assert_eq!((m.cores, m.lanes, m.warps, m.warp_size), (1, 32, 32, 32));
        assert_eq!(m.fetch_group, m.warps, "round robin");
        assert_eq!(
            (m.l1_kb, m.l1_ways, m.l1_line, m.l1_latency),
            (32, 4, 128, 1)
        );
        assert_eq!((m.dram_banks, m.dram_row_bytes), (8, 4096));
        assert_eq!((m.dram_row_hit, m.dram_row_conflict), (100, 300));
        assert_eq!(m.dram_scheduler, DramScheduler::Fcfs);
        assert!((m.clone().check().unwrap().dram_bytes_per_cycle() - 128e9 / 1.5e9).abs() < 1e-9);
        assert!(m.sfu_lanes < m.lanes);
        m.check().unwrap();
    }

    /// The CAPRI paper's Table 1: 30 cores of 1024 threads, SIMD width 32, L1 32 KB
    /// 8-way 64 B, L2 1 MB 64-way 64 B, 8 channels, FR-FCFS, queues of 32; §4: sticky
    /// round robin by CTA; GPGPU-Sim's FX5800 file: 8 CTAs per core, 325 MHz, 102.4 GB/s.
    #[test]
    fn the_capri_preset_is_the_papers_table_1() {
        let m = Keys::preset("capri").unwrap();
        assert_eq!((m.cores, m.lanes, m.warps * m.warp_size), (30, 32, 1024));
        assert!(m.sticky_cta && m.fetch_group == m.warps);
        assert_eq!((m.l1_kb, m.l1_ways, m.l1_line), (32, 8, 64));
        assert_eq!((m.l2_kb, m.l2_ways), (1024, 64));
        assert_eq!((m.dram_channels, m.dram_queue), (8, 32));
        assert_eq!(m.dram_scheduler, DramScheduler::FrFcfs);
        assert_eq!((m.max_ctas, m.divergence), (8, Mechanism::Pdom));
        assert!((m.clone().check().unwrap().dram_bytes_per_cycle() - 102.4e9 / 325e6).abs() < 1e-9);
        // GPGPU-Sim 2.x: two lines per cycle, one MSHR per thread, a write-back L1;
        // Table 1's register file and shared memory limit CTAs per core.
        assert_eq!((m.l1_ports, m.l1_mshrs), (2, m.warps * m.warp_size));
        assert!(m.l1_write_back);
        assert_eq!((m.core_registers, m.shared_kb), (16384, 32));
        // The FX5800 GDDR3 timing (DRAM cycles at 800 MHz) in 325 MHz core cycles: CL for
        // a row hit, CL + RP + RCD for a conflict; with the L2 path, a row hit's round
        // trip is the configuration's 30-cycle minimum DRAM latency.
        let core = |dram_cycles: f64| (dram_cycles * 325.0 / 800.0).round() as u32;
        assert_eq!(m.dram_row_hit, core(10.0));
        assert_eq!(m.dram_row_conflict, core(10.0 + 10.0 + 12.0));
        assert_eq!(m.dram_row_hit + m.l2_latency, 30);
        m.check().unwrap();
    }

    /// `gt200` keeps the values the CAPRI study first ran (its published page): `capri`
    /// with one L1 line per cycle, 32 MSHRs merging 8, write-through, 30-cycle L2 hits,
    /// 100 / 110-cycle DRAM, no register or shared-memory limit.
    #[test]
    fn the_gt200_preset_is_capri_as_first_calibrated() {
        let g = Keys::preset("gt200").unwrap();
        let unchanged = Keys {
            l1_ports: 1,
            l1_mshrs: 32,
            l1_mshr_merge: 8,
            l1_write_back: false,
            l2_latency: 30,
            dram_row_hit: 100,
            dram_row_conflict: 110,
            core_registers: 0,
            thread_registers: 16,
            shared_kb: 0,
            ..Keys::capri()
        };
        assert_eq!(g, unchanged);
        g.check().unwrap();
    }

    /// The VGIW paper's Table 1 (108 units by class, 1.4 GHz, L1 64 KB 32 banks 128 B
    /// 4-way, a 64 KB live value cache, §2's 34-cycle reconfiguration) on `fermi`'s L2
    /// and DRAM; `fermi` is GPGPU-Sim's GTX480 SM with its share of the chip's memory.
    #[test]
    fn the_vgiw_preset_is_table_1_on_fermis_memory() {
        let v = Keys::preset("vgiw").unwrap();
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
        let f = Keys::preset("fermi").unwrap();
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
        let shared = |m: &Keys| {
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
        // GPGPU-Sim 3.x's L2 (`L:B:m:W`: write-back, write-allocate) on both (§3.6: the
        // memory systems differ only in the L1).
        assert!(f.l2_write_allocate && v.l2_write_allocate);
        assert_eq!((f.l1_latency, v.l1_latency), (2, 2));
        // §3.4: token buffers 70% smaller than the 128 KB register file, over 108 units
        // of three 4-byte operands per entry, one entry per thread.
        assert_eq!(v.vgiw_replica_threads, 128 * 1024 * 3 / 10 / (108 * 12));
        assert_eq!(
            (v.vgiw_alias, v.vgiw_store_done, v.vgiw_launch_constants),
            (VgiwAlias::Object, VgiwStoreDone::Accept, true)
        );
        let l = Keys::preset("lwm").unwrap();
        assert_eq!(
            (
                l.vgiw_alias,
                l.vgiw_store_done,
                l.vgiw_launch_constants,
                l.l2_write_allocate
            ),
            (VgiwAlias::Base, VgiwStoreDone::Fill, false, false),
            "the other presets keep the first behaviour"
        );
        v.check().unwrap();
        f.check().unwrap();
    }
}
