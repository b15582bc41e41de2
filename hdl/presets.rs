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

// VGIW control (SPEC §5)
/// `cvu_initiator`: 64-thread batches, 16-bit thread ids, two 80-bit batch buffers.
pub type CvuInitiator64 = crate::vgiw::cvu_initiator::CvuInitiator;
/// `cvu_terminator`: two targets x two 80-bit batches = 320 bits (VGIW §3.5).
pub type CvuTerminator64 = crate::vgiw::cvu_terminator::CvuTerminator;
/// `cvt`: the paper's table, 32 blocks x 1024 threads (16 words of 64) in 8 banks of
/// 64 x 64 memory; BW 5, WW 4, AW 9, BKW 3, RB 6.
pub type Cvt32x1024 = crate::vgiw::cvt::Cvt<32, 16, 8, 5, 4, 9, 3, 6>;
/// `cvt_8x256`: 8 blocks x 256 threads (4 words) in 8 banks of 4 x 64.
pub type Cvt8x256 = crate::vgiw::cvt::Cvt<8, 4, 8, 3, 2, 5, 3, 2>;
/// `bbs`: the scheduler alone at the paper's sizes: 32 blocks x 1024 threads (16 words),
/// 32-bit configuration words, 34-cycle reconfiguration; BW 5, WW 4.
pub type Bbs32x1024 = crate::vgiw::bbs::Bbs<32, 16, 5, 4, 32, 34>;
/// `lvc_4k`: 4 KB live value cache: 32 live values x 1024 threads (AW 15), 4 banks x
/// 64 sets x 4 words; TAGW 5, IW 10, LW 8, 4-bit request ids.
pub type Lvc4k = crate::vgiw::lvc::Lvc<15, 5, 10, 4, 2, 2, 4, 6, 8, 4>;
/// `fabric_loader`: 1 024 configuration commands of 64 bits.
pub type FabricLoader1k = crate::vgiw::fabric_loader::FabricLoader<10>;
/// `live_value_port`: 128 live values x 256 threads (a 15-bit LVC word address, as
/// `lvc_4k`).
pub type LiveValuePort7x8 = crate::vgiw::live_value_port::LiveValuePort<7, 8, 15>;
/// `lvc`: the paper's 64 KB: 64 live values x 1024 threads (AW 16), 8 banks x 512
/// sets x 4 words; TAGW 2, IW 14, LW 11, 4-bit request ids.
pub type Lvc64k = crate::vgiw::lvc::Lvc<16, 2, 14, 8, 3, 2, 4, 9, 11, 4>;
/// `vgiw_control`: BBS + CVT + initiator + terminator at the paper's sizes: 32 blocks
/// x 1024 threads, 8 banks, 32-bit configuration words, 34-cycle reconfiguration.
pub type VgiwControl32x1024 =
    crate::vgiw::vgiw_control::VgiwControl<32, 16, 8, 5, 4, 9, 3, 6, 32, 34>;
/// `vgiw_control_8x256`: the same with 8 blocks x 256 threads.
pub type VgiwControl8x256 = crate::vgiw::vgiw_control::VgiwControl<8, 4, 8, 3, 2, 5, 3, 2, 32, 34>;
/// `vgiw_core`: the control at 8 blocks x 256 threads, the fabric loader (1 024
/// commands), the 4 x 4 fabric with 4 channels per unit, the live value port and cache;
/// 8 threads outstanding between injection and retirement.
pub type VgiwCore4 = crate::vgiw::vgiw_core::VgiwCore<4, 2, 8, 3, 4>;

// CAPRI (SPEC §3)
/// `adequacy_evaluator`: 8 warps x 32 lanes (SPEC §3.1).
pub type AdequacyEvaluator8x32 = crate::capri::adequacy_evaluator::AdequacyEvaluator<8, 32, 256, 4>;
/// `adequacy_evaluator_3x4`: 3 warps x 4 lanes (the paper's Figures 6-8).
pub type AdequacyEvaluator3x4 = crate::capri::adequacy_evaluator::AdequacyEvaluator<3, 4, 12, 2>;
/// `warp_compaction_unit`: 8 warps x 32 lanes (SPEC §3.2).
pub type WarpCompactionUnit8x32 =
    crate::capri::warp_compaction_unit::WarpCompactionUnit<8, 32, 256, 3, 96, 4>;
/// `warp_compaction_unit_3x4`: 3 warps x 4 lanes (Figures 3, 6-7).
pub type WarpCompactionUnit3x4 =
    crate::capri::warp_compaction_unit::WarpCompactionUnit<3, 4, 12, 2, 8, 2>;
/// `capt`: 32 entries, 1b-Latest (the paper's default, §4).
pub type Capt32 = crate::capri::capt::Capt<32, 0, 1, 5>;
/// `capt_8`: 8 entries, 1b-Latest: 272 bits + 24 LRU bits (§5.5).
pub type Capt8 = crate::capri::capt::Capt<8, 0, 1, 3>;
/// `capt_8_sticky`: 8 entries, 1b-Sticky.
pub type Capt8Sticky = crate::capri::capt::Capt<8, 1, 1, 3>;
/// `capt_8_counter2`: 8 entries, 2-bit saturating counters.
pub type Capt8Counter2 = crate::capri::capt::Capt<8, 2, 2, 3>;
/// `capri_decision`: stall/bypass decision, policy TBC / TBC+ / CAPRI / WPDOM (SPEC §3.4).
pub type CapriDecisionLogic = crate::capri::capri_decision::CapriDecision;
/// `tbc_stack`: CTA-wide stack, 8 warps x 32 lanes, 8 entries, 32-bit PCs (SPEC §3.5).
pub type TbcStack8x32 = crate::capri::tbc_stack::TbcStack<8, 32, 256, 8, 4, 4>;
/// `tbc_stack_3x4`: 3 warps x 4 lanes, 8 entries (Figures 6-7).
pub type TbcStack3x4 = crate::capri::tbc_stack::TbcStack<3, 4, 12, 8, 4, 2>;

// Diverge on miss (SPEC §4)
/// `mdt`: one warp's Memory Divergence Table, M = 2 entries x (32-bit PC + 32 lanes).
pub type Mdt32 = crate::dom::mdt::Mdt<32, 2, 32>;
/// `mcb_entry`: 32 lanes, 32-bit byte addresses, 32-byte lines, 32-bit words.
pub type McbEntry32 = crate::dom::mcb_entry::McbEntry<32, 32, 5, 32, 1024, 1024>;
/// `slip_controller_1w` / `_2w` / `_4w` / `_16w`: per-core slip counters, 32 lanes,
/// max-slip 8 after reset, moved by 8 per raise or lower (the `dom` machine's
/// `dom_max_slip` and `dom_slip_step`).
pub type SlipController32x1 = crate::dom::slip_controller::SlipController<32, 1, 1, 8, 8>;
pub type SlipController32x2 = crate::dom::slip_controller::SlipController<32, 2, 1, 8, 8>;
pub type SlipController32x4 = crate::dom::slip_controller::SlipController<32, 4, 2, 8, 8>;
pub type SlipController32x16 = crate::dom::slip_controller::SlipController<32, 16, 4, 8, 8>;
/// `adaptive_diff`: 100 000-cycle period; ALU bound at <= 1 % idle, bandwidth bound at
/// >= 50 % over share, latency bound at >= 25 % memory stall.
pub type AdaptiveDiff100k = crate::dom::adaptive_diff::AdaptiveDiff<100000, 1000, 50000, 25000, 17>;
/// `warp_memory_divergence_unlimited`: the same warp with M = LANES = 32 entries, an MDT
/// that never fills (a thread waits on one load at a time): the `dom` machine's
/// `dom_mdt_entries = 0` (§7.1, "not a limiting factor").
pub type WarpMemoryDivergence32Unlimited = crate::dom::warp_memory_divergence::WarpMemoryDivergence<
    32,
    32,
    32,
    32,
    5,
    32,
    1024,
    1024,
    8,
    8,
>;
/// `warp_memory_divergence`: one 32-lane warp, M = 2, 32-bit PCs and addresses,
/// 32-byte lines, 32-bit words, max-slip 8 after reset moved by 8.
pub type WarpMemoryDivergence32 = crate::dom::warp_memory_divergence::WarpMemoryDivergence<
    32,
    2,
    32,
    32,
    5,
    32,
    1024,
    1024,
    8,
    8,
>;

// MT-CGRF fabric units (SPEC §6)
// -- token buffer and compute unit
/// `token_buffer`: 16 virtual channels x 3 operands. The paper gives no depth; its
/// buffer budget (§3.4: 70% below Fermi's 128 KB register file over 108 units) allows
/// about 32 entries of 3 x 32 bits, which `TokenBuffer32` is (tested and linted, not
/// exported: its Icarus replay is too slow for CI's 100 000-cycle co-simulation).
pub type TokenBuffer16 = crate::cgrf::token_buffer::TokenBuffer<16, 4>;
pub type TokenBuffer32 = crate::cgrf::token_buffer::TokenBuffer<32, 5>;
/// `token_buffer_4`: 4 virtual channels: small enough for the formal proofs (`weft prove`).
pub type TokenBuffer4 = crate::cgrf::token_buffer::TokenBuffer<4, 2>;
/// `compute_unit`: the 16-channel token buffer + the 3-stage integer / binary32
/// pipeline (`ComputeUnit32` tested and linted, not exported).
pub type ComputeUnit16 = crate::cgrf::compute_unit::ComputeUnit<16, 4>;
pub type ComputeUnit32 = crate::cgrf::compute_unit::ComputeUnit<32, 5>;
// -- special compute unit, load/store unit, split/join
/// `special_compute_unit`: 32 virtual channels, 9 divider copies retiring 4 bits per
/// cycle (latency 9 = 32/4 + 1), so one division starts every cycle (VGIW §3.5).
pub type SpecialComputeUnit32x9 =
    crate::cgrf::special_compute_unit::SpecialComputeUnit<5, 9, 4, 4, 4, 4>;
/// `load_store_unit`: 32 virtual channels, a 16-entry reservation buffer (VGIW §3.5).
pub type LoadStoreUnit32x16 = crate::cgrf::load_store_unit::LoadStoreUnit<5, 16, 4, 5>;
/// `split_join`: 32 virtual channels, 4 input and 4 output ports, joins of up to 7.
pub type SplitJoin32x4 = crate::cgrf::split_join::SplitJoin<5, 32, 4, 3>;
// -- fabric switch
/// `switch`: 9 inputs (8 neighbours + the unit's result), 11 outputs (8 neighbours +
/// the unit's 3 operand ports), 16 virtual channels.
pub type Switch9x11 = crate::cgrf::switch::Switch<9, 11, 4, 4>;
/// `switch_3x3`: 3 inputs, 3 outputs, 2 virtual channels: small enough for the formal
/// proofs (`weft prove`).
pub type Switch3x3 = crate::cgrf::switch::Switch<3, 3, 1, 2>;
// -- fabric top
/// `fabric`: the 4 x 4 grid with its edge units, 4 virtual channels per unit (the
/// exported preset keeps co-simulation affordable; the end-to-end tests also run 32).
pub type Fabric4 = crate::cgrf::fabric::Fabric<4, 2>;
pub type Fabric32 = crate::cgrf::fabric::Fabric<32, 5>;

// The SIMT core (docs/core.md §8)
/// `simt_core_4x4`: 4 warps x 4 lanes, 8-entry stacks, 4 096 instructions, lines of
/// 4 words (16 bytes): the small core for tests and an FPGA.
pub type SimtCore4x4 =
    crate::simt::simt_core::SimtCore<4, 4, 8, 4, 2, 2, 12, 7, 128, 16, 4, 1, 1, 2>;
/// `simt_core_4x4` with the two-level scheduler: 2 fetch groups of 2 warps (a test
/// instance, not exported).
pub type SimtCore4x4TwoLevel =
    crate::simt::simt_core::SimtCore<4, 4, 8, 4, 2, 2, 12, 7, 128, 16, 2, 2, 1, 1>;
/// `simt_core_2x2`: 2 warps x 2 lanes, 4-entry stacks (a 2-lane warp nests at most
/// base + 2 paths), 256 instructions (4 iCE40 block RAMs), lines of 2 words (8 bytes):
/// the core for the formal proofs and an iCE40.
pub type SimtCore2x2 = crate::simt::simt_core::SimtCore<2, 2, 4, 3, 1, 1, 8, 6, 64, 8, 2, 1, 1, 1>;
/// `simt_core_8x8`: 8 warps x 8 lanes, 16-entry stacks (weft's choice: 7 nested
/// divergent branches; deeper raises `error`), 4 096 instructions, lines of 8 words (32
/// bytes): the larger core, 64 threads, the largest whose report flow ends in minutes
/// (docs/core.md §8).
pub type SimtCore8x8 =
    crate::simt::simt_core::SimtCore<8, 8, 16, 5, 3, 3, 12, 8, 256, 32, 8, 1, 1, 3>;
