//! The SIMT core (docs/core.md §8, `--rtl`): `W` warps of `L` lanes that run RV32IM
//! kernels under weft's kernel contract, built from weft's blocks: the round-robin
//! fetch scheduler (`sched/two_level_scheduler.rs` with one group), the PDOM
//! divergence policy (`simt/pdom.rs`: one `divergence_stack` per warp), a lane ALU
//! per lane (`cgrf/int_alu.rs`), the shared multiply/divide unit (`simt/mul_div.rs`),
//! the decoder (`simt/decoder.rs`).
//!
//! ```text
//!  loader ─> instruction RAM {reconvergence PC, instruction} ─┐
//!  launch ─> pdom (per warp: pc, mask) ─> scheduler ─> fetch ─┴> decode ─> register
//!  RAMs (two per lane, W x 32 words) ─> lane ALUs / mul-div (lane by lane) / load-store
//!  unit (a warp's accesses coalesced into lines, one request at a time) ─> write back
//!  ─> pdom: advance, or branch with the table's reconvergence PC
//! ```
//!
//! One warp instruction at a time, as a state machine (cycles per instruction):
//! SCHED (the scheduler grants a ready warp; the instruction RAM reads its PC),
//! DECODE (the register RAMs read rs1 and rs2: each lane's registers are held twice, one
//! copy per operand), EXEC (ALU, branch, CSR, barrier: written back and the warp moved
//! on at its end); a load or store then sends one line request per distinct line (a
//! request waits for `mem_req_ready`; a load waits for its response, any latency); a
//! multiply or divide takes 10 cycles per active lane (the shared unit retires 4 bits a
//! cycle). The cycle an instruction retires is also the next one's SCHED: the scheduler,
//! offered the other ready warps, grants one and its DECODE follows. So a warp
//! instruction takes 2 cycles while another warp is ready, 3 when its own warp is the
//! only one (SCHED again).
//!
//! CTA launch: a CTA needs `cta_warps` warps; when that many are free (before any
//! issue), the lowest free warps take it in turn, 32 cycles each (the stack starts at
//! `entry_pc` with lanes `k L + l < cta_size`; the lanes' 32 registers are written,
//! one a cycle: `ra` the exit PC, `sp` the stack top, `gp`, the others zero, as the
//! model starts a thread; x0 is never written after). CTAs launch in order, so a launch
//! larger than the core runs in waves. A warp whose PC reaches the exit PC frees.
//! `weft_barrier` (a write of CSR 0x8C0) parks the warp until no warp of its CTA runs
//! (a warp that has returned no longer takes part).
//!
//! Memory: one valid/ready port of `L`-word lines (`LB` bits, `SB` byte strobes).
//! Private (stack) addresses `[STACK_TOP - 16 KB, STACK_TOP)` map to each thread's own
//! 16 KB at `0x8000_0000 + (w L + l) 16 KB`; everything else is device memory.
//!
//! `error` (sticky) flags what the loader should have refused or the model refuses: an
//! illegal instruction, a misaligned access, a stack overflow, an indirect jump whose
//! threads go different ways, a warp leaving the kernel inside a divergent region.
//!
//! Storage: `2 L` register RAMs of `W x 32 x 32` bits, the instruction RAM of `2^IAW x
//! 64` bits, the stacks, and per warp 2 + 2 x 32 flip-flops.
use crate::cgrf::int_alu::IntAlu;
use crate::lib::widen::Widen;
use crate::sched::two_level_scheduler::TwoLevelScheduler;
use crate::simt::decoder::{class, operand, Decoder};
use crate::simt::mul_div::MulDiv;
use crate::simt::pdom::Pdom;
use rust_hdl::prelude::*;

/// Where a thread goes when it returns from `weft_kernel` (`sim/core/thread.rs`).
pub const EXIT_PC: u64 = 0xffff_fff0;
/// The private stack's top and size (`sim/core/functional.rs`).
pub const STACK_TOP: u64 = 0x7fff_f000;
pub const STACK_BYTES: u64 = 16 << 10;
/// Where thread slot `s`'s private stack lives: `PRIVATE_BASE + s * STACK_BYTES`.
pub const PRIVATE_BASE: u64 = 0x8000_0000;

/// Core states (`phase` output).
pub mod phase {
    pub const IDLE: u64 = 0;
    pub const SCHED: u64 = 1;
    pub const LAUNCH: u64 = 2;
    pub const LAUNCH_REGS: u64 = 3;
    pub const DECODE: u64 = 4;
    pub const EXEC: u64 = 5;
    pub const MEM_REQ: u64 = 6;
    pub const MEM_WAIT: u64 = 7;
    pub const MD_START: u64 = 8;
    pub const MD_WAIT: u64 = 9;
    pub const DONE: u64 = 10;
}

/// Warp slot states.
mod slot {
    pub const FREE: u64 = 0;
    pub const RUN: u64 = 1;
    pub const BARRIER: u64 = 2;
}

fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(Bits::<N>::from(v))
}

/// `W` warps x `L` lanes; stacks of `DEPTH` entries (`DW = clog2(DEPTH+1)`); `WW =
/// clog2(W)`, `LW = clog2(L)`; `2^IAW` instructions; `RAW = WW + 5` (register RAM
/// address); lines of `LB = 32 L` bits with `SB = 4 L` byte strobes; fetch groups of `G`
/// warps (`GS = W / G` groups, `GW = max(1, clog2(GS))`, `GLW = max(1, clog2(G))`): `G = W`
/// is round robin, fewer the two-level scheduler (a group keeps priority while any of its
/// warps runs).
#[derive(LogicBlock)]
pub struct SimtCore<
    const W: usize,
    const L: usize,
    const DEPTH: usize,
    const DW: usize,
    const WW: usize,
    const LW: usize,
    const IAW: usize,
    const RAW: usize,
    const LB: usize,
    const SB: usize,
    const G: usize,
    const GS: usize,
    const GW: usize,
    const GLW: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: idle, every warp free.
    pub reset: Signal<In, Bit>,
    // loader: the kernel's code and reconvergence table
    /// Write instruction `prog_addr` (word index from `code_base`) and the
    /// reconvergence PC of the branch there (0 for other instructions).
    pub prog_write: Signal<In, Bit>,
    pub prog_addr: Signal<In, Bits<IAW>>,
    pub prog_inst: Signal<In, Bits<32>>,
    pub prog_rpc: Signal<In, Bits<32>>,
    // launch, held for the whole run
    /// Start the launch (from idle or done).
    pub start: Signal<In, Bit>,
    /// Address of instruction 0 in the instruction RAM.
    pub code_base: Signal<In, Bits<32>>,
    /// `weft_kernel`'s address.
    pub entry_pc: Signal<In, Bits<32>>,
    /// Every thread's `gp` (the linker's global pointer).
    pub gp: Signal<In, Bits<32>>,
    /// Threads in the launch (CSR 0xCC1), threads per CTA (0xCC3), CTAs, warps per CTA.
    pub ntid: Signal<In, Bits<32>>,
    pub cta_size: Signal<In, Bits<32>>,
    pub ctas: Signal<In, Bits<32>>,
    pub cta_warps: Signal<In, Bits<8>>,
    // memory port (lines of L words)
    pub mem_req_valid: Signal<Out, Bit>,
    pub mem_req_ready: Signal<In, Bit>,
    /// Byte address of the line (a multiple of 4 L).
    pub mem_req_addr: Signal<Out, Bits<32>>,
    pub mem_req_write: Signal<Out, Bit>,
    /// Write data and byte strobes: word `i` of the line at bits `[32 i, 32 i + 32)`.
    pub mem_req_data: Signal<Out, Bits<LB>>,
    pub mem_req_strobe: Signal<Out, Bits<SB>>,
    /// A load's line, one response per load request, in order.
    pub mem_resp_valid: Signal<In, Bit>,
    pub mem_resp_data: Signal<In, Bits<LB>>,
    // status
    /// Every CTA has finished.
    pub done: Signal<Out, Bit>,
    /// Sticky: something the core cannot run (see the header).
    pub error: Signal<Out, Bit>,
    /// A warp instruction starts (decode): its warp, PC and active threads.
    pub issue: Signal<Out, Bit>,
    pub issue_warp: Signal<Out, Bits<WW>>,
    pub issue_pc: Signal<Out, Bits<32>>,
    pub issue_mask: Signal<Out, Bits<L>>,
    /// The state machine's state (`phase::*`).
    pub phase: Signal<Out, Bits<4>>,
    // blocks
    imem: RAM<Bits<64>, IAW>,
    /// Each lane's registers, read for rs1 ...
    regs: [RAM<Bits<32>, RAW>; L],
    /// ... and their copy, written alike, read for rs2 (a second read port).
    regs_rs2: [RAM<Bits<32>, RAW>; L],
    alu: [IntAlu; L],
    decoder: Decoder,
    /// Public so that a bench can check the issue order against the scheduler's
    /// contract from the warps it was offered (`ready`).
    pub scheduler: TwoLevelScheduler<W, G, GS, WW, GW, GLW>,
    policy: Pdom<W, L, DEPTH, DW, WW>,
    mul_div: MulDiv,
    widen_rpc: Widen<32, 64>,
    widen_inst: Widen<32, 64>,
    widen_rd: Widen<5, RAW>,
    widen_rs1: Widen<5, RAW>,
    widen_rs2: Widen<5, RAW>,
    line_data: [Widen<32, LB>; L],
    line_bits: [Widen<32, LB>; L],
    line_strobe: [Widen<4, SB>; L],
    // state
    state: DFF<Bits<4>>,
    warp_state: [DFF<Bits<2>>; W],
    warp_cta: [DFF<Bits<32>>; W],
    /// Thread index of the warp's lane 0.
    warp_tid: [DFF<Bits<32>>; W],
    cur_warp: DFF<Bits<WW>>,
    cur_pc: DFF<Bits<32>>,
    cur_mask: DFF<Bits<L>>,
    op_a: [DFF<Bits<32>>; L],
    op_b: [DFF<Bits<32>>; L],
    /// Lanes still to serve (memory, multiply/divide) and those of the request in flight.
    pending: DFF<Bits<L>>,
    served: DFF<Bits<L>>,
    md_lane: DFF<Bits<LW>>,
    next_cta: DFF<Bits<32>>,
    /// `next_cta * cta_size`.
    cta_tid: DFF<Bits<32>>,
    launch_k: DFF<Bits<8>>,
    /// `launch_k * L`.
    launch_base: DFF<Bits<32>>,
    launch_warp: DFF<Bits<WW>>,
    error_q: DFF<Bit>,
    // combinational
    rpc: Signal<Local, Bits<32>>,
    live: Signal<Local, Bits<W>>,
    parked: Signal<Local, Bits<W>>,
    free: Signal<Local, Bits<W>>,
    free_count: Signal<Local, Bits<8>>,
    launch_ok: Signal<Local, Bit>,
    launch_sel: Signal<Local, Bits<WW>>,
    /// Lanes of the warp being launched: `launch_base + l < cta_size`.
    launch_mask: Signal<Local, Bits<L>>,
    grant_pc: Signal<Local, Bits<32>>,
    grant_mask: Signal<Local, Bits<L>>,
    fetch_pc: Signal<Local, Bits<32>>,
    fetch_off: Signal<Local, Bits<32>>,
    cur_tid: Signal<Local, Bits<32>>,
    cur_cta: Signal<Local, Bits<32>>,
    warp_reg_base: Signal<Local, Bits<RAW>>,
    launch_reg_base: Signal<Local, Bits<RAW>>,
    warp_private: Signal<Local, Bits<32>>,
    pc_next: Signal<Local, Bits<32>>,
    pc_target: Signal<Local, Bits<32>>,
    jump_base: Signal<Local, Bits<32>>,
    lead_found: Signal<Local, Bit>,
    /// A lowest-index search found its bit.
    sel_found: Signal<Local, Bit>,
    lead_line: Signal<Local, Bits<32>>,
    lead_lane: Signal<Local, Bits<LW>>,
    taken: Signal<Local, Bits<L>>,
    served_now: Signal<Local, Bits<L>>,
    left: Signal<Local, Bits<L>>,
    finish: Signal<Local, Bit>,
    /// The instruction moves its warp on this cycle: the next one may be granted.
    retire: Signal<Local, Bit>,
    /// The warps offered to the scheduler: the live ones but the one in flight.
    offered: Signal<Local, Bits<W>>,
    req_data: Signal<Local, Bits<LB>>,
    req_strobe: Signal<Local, Bits<SB>>,
    addr: [Signal<Local, Bits<32>>; L],
    phys: [Signal<Local, Bits<32>>; L],
    word_shift: [Signal<Local, Bits<16>>; L],
    strobe_shift: [Signal<Local, Bits<16>>; L],
    byte_shift: [Signal<Local, Bits<32>>; L],
    store_word: [Signal<Local, Bits<32>>; L],
    store_bits: [Signal<Local, Bits<32>>; L],
    store_strobe: [Signal<Local, Bits<4>>; L],
    resp_line: [Signal<Local, Bits<LB>>; L],
    load_word: [Signal<Local, Bits<32>>; L],
    load_value: [Signal<Local, Bits<32>>; L],
    wb_data: [Signal<Local, Bits<32>>; L],
    wb_enable: [Signal<Local, Bit>; L],
    // Each input of a block is written once per evaluation, from these: a default then
    // an override on both sides of a block loops forever in an event-driven simulator
    // (Icarus), although the values settle.
    sched_accept: Signal<Local, Bit>,
    pol_init: Signal<Local, Bit>,
    pol_branch: Signal<Local, Bit>,
    pol_advance: Signal<Local, Bit>,
    pol_next_pc: Signal<Local, Bits<32>>,
    md_start: Signal<Local, Bit>,
    md_a: Signal<Local, Bits<32>>,
    md_b: Signal<Local, Bits<32>>,
    alu_a: [Signal<Local, Bits<32>>; L],
    alu_b: [Signal<Local, Bits<32>>; L],
    reg_waddr: [Signal<Local, Bits<RAW>>; L],
    /// The register a launch writes (all 32, one a cycle).
    launch_reg: DFF<Bits<RAW>>,
    // constants
    at_idle: Constant<Bits<4>>,
    at_sched: Constant<Bits<4>>,
    at_launch: Constant<Bits<4>>,
    at_launch_regs: Constant<Bits<4>>,
    at_decode: Constant<Bits<4>>,
    at_exec: Constant<Bits<4>>,
    at_mem_req: Constant<Bits<4>>,
    at_mem_wait: Constant<Bits<4>>,
    at_md_start: Constant<Bits<4>>,
    at_md_wait: Constant<Bits<4>>,
    at_done: Constant<Bits<4>>,
    slot_free: Constant<Bits<2>>,
    slot_run: Constant<Bits<2>>,
    slot_barrier: Constant<Bits<2>>,
    is_jal: Constant<Bits<4>>,
    is_jalr: Constant<Bits<4>>,
    is_branch: Constant<Bits<4>>,
    is_load: Constant<Bits<4>>,
    is_store: Constant<Bits<4>>,
    is_muldiv: Constant<Bits<4>>,
    is_csr: Constant<Bits<4>>,
    is_barrier: Constant<Bits<4>>,
    operand_pc: Constant<Bits<2>>,
    operand_zero: Constant<Bits<2>>,
    operand_imm: Constant<Bits<2>>,
    operand_four: Constant<Bits<2>>,
    csr_ntid: Constant<Bits<2>>,
    csr_ctaid: Constant<Bits<2>>,
    warp_ids: [Constant<Bits<WW>>; W],
    warp_bit: [Constant<Bits<W>>; W],
    lane_ids: [Constant<Bits<LW>>; L],
    lane_bit: [Constant<Bits<L>>; L],
    lane_num: [Constant<Bits<32>>; L],
    lane_private: [Constant<Bits<32>>; L],
    warp_private_base: [Constant<Bits<32>>; W],
    warp_regs: [Constant<Bits<RAW>>; W],
    word_shifts: [Constant<Bits<16>>; L],
    strobe_shifts: [Constant<Bits<16>>; L],
    f3: [Constant<Bits<3>>; 8],
    reg_ra: Constant<Bits<RAW>>,
    reg_sp: Constant<Bits<RAW>>,
    reg_gp: Constant<Bits<RAW>>,
    one_raw: Constant<Bits<RAW>>,
    last_reg: Constant<Bits<RAW>>,
    exit_pc: Constant<Bits<32>>,
    stack_top: Constant<Bits<32>>,
    stack_low: Constant<Bits<32>>,
    stack_bytes: Constant<Bits<32>>,
    stack_mask: Constant<Bits<32>>,
    private_base: Constant<Bits<32>>,
    line_mask: Constant<Bits<32>>,
    lanes32: Constant<Bits<32>>,
    one8: Constant<Bits<8>>,
    one32: Constant<Bits<32>>,
    two32: Constant<Bits<32>>,
    three32: Constant<Bits<32>>,
    four32: Constant<Bits<32>>,
    not_one32: Constant<Bits<32>>,
    byte_mask: Constant<Bits<32>>,
    half_mask: Constant<Bits<32>>,
    byte_sign: Constant<Bits<32>>,
    half_sign: Constant<Bits<32>>,
    byte_ext: Constant<Bits<32>>,
    half_ext: Constant<Bits<32>>,
    all32: Constant<Bits<32>>,
    s8: Constant<Bits<32>>,
    s32: Constant<Bits<8>>,
    s16: Constant<Bits<32>>,
    s24: Constant<Bits<32>>,
    strobe_byte: Constant<Bits<4>>,
    strobe_half: Constant<Bits<4>>,
    strobe_word: Constant<Bits<4>>,
    zero_w: Constant<Bits<W>>,
    zero_l: Constant<Bits<L>>,
    zero8: Constant<Bits<8>>,
    zero32: Constant<Bits<32>>,
    zero_lb: Constant<Bits<LB>>,
    zero_sb: Constant<Bits<SB>>,
}

impl<
        const W: usize,
        const L: usize,
        const DEPTH: usize,
        const DW: usize,
        const WW: usize,
        const LW: usize,
        const IAW: usize,
        const RAW: usize,
        const LB: usize,
        const SB: usize,
        const G: usize,
        const GS: usize,
        const GW: usize,
        const GLW: usize,
    > Default for SimtCore<W, L, DEPTH, DW, WW, LW, IAW, RAW, LB, SB, G, GS, GW, GLW>
{
    fn default() -> Self {
        assert!(W >= 2 && L >= 2, "at least 2 warps of 2 lanes");
        assert!(W * L <= 1 << 15, "private stacks fit below the exit PC");
        assert_eq!(WW, clog2(W), "WW must be clog2(W)");
        assert_eq!(LW, clog2(L), "LW must be clog2(L)");
        assert_eq!(1 << LW, L, "lanes are a power of two (lines of L words)");
        assert_eq!(DW, clog2(DEPTH + 1), "DW must be clog2(DEPTH+1)");
        assert_eq!(RAW, WW + 5, "RAW must be WW + 5");
        assert_eq!(LB, 32 * L, "LB must be 32 L");
        assert_eq!(SB, 4 * L, "SB must be 4 L");
        assert!(W <= 255, "warps per CTA count in 8 bits");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            prog_write: Default::default(),
            prog_addr: Default::default(),
            prog_inst: Default::default(),
            prog_rpc: Default::default(),
            start: Default::default(),
            code_base: Default::default(),
            entry_pc: Default::default(),
            gp: Default::default(),
            ntid: Default::default(),
            cta_size: Default::default(),
            ctas: Default::default(),
            cta_warps: Default::default(),
            mem_req_valid: Default::default(),
            mem_req_ready: Default::default(),
            mem_req_addr: Default::default(),
            mem_req_write: Default::default(),
            mem_req_data: Default::default(),
            mem_req_strobe: Default::default(),
            mem_resp_valid: Default::default(),
            mem_resp_data: Default::default(),
            done: Default::default(),
            error: Default::default(),
            issue: Default::default(),
            issue_warp: Default::default(),
            issue_pc: Default::default(),
            issue_mask: Default::default(),
            phase: Default::default(),
            imem: Default::default(),
            regs: array_init::array_init(|_| Default::default()),
            regs_rs2: array_init::array_init(|_| Default::default()),
            alu: array_init::array_init(|_| Default::default()),
            decoder: Default::default(),
            scheduler: Default::default(),
            policy: Default::default(),
            mul_div: Default::default(),
            widen_rpc: Default::default(),
            widen_inst: Default::default(),
            widen_rd: Default::default(),
            widen_rs1: Default::default(),
            widen_rs2: Default::default(),
            line_data: array_init::array_init(|_| Default::default()),
            line_bits: array_init::array_init(|_| Default::default()),
            line_strobe: array_init::array_init(|_| Default::default()),
            state: Default::default(),
            warp_state: array_init::array_init(|_| Default::default()),
            warp_cta: array_init::array_init(|_| Default::default()),
            warp_tid: array_init::array_init(|_| Default::default()),
            cur_warp: Default::default(),
            cur_pc: Default::default(),
            cur_mask: Default::default(),
            op_a: array_init::array_init(|_| Default::default()),
            op_b: array_init::array_init(|_| Default::default()),
            pending: Default::default(),
            served: Default::default(),
            md_lane: Default::default(),
            next_cta: Default::default(),
            cta_tid: Default::default(),
            launch_k: Default::default(),
            launch_base: Default::default(),
            launch_warp: Default::default(),
            error_q: Default::default(),
            rpc: Default::default(),
            live: Default::default(),
            parked: Default::default(),
            free: Default::default(),
            free_count: Default::default(),
            launch_ok: Default::default(),
            launch_sel: Default::default(),
            launch_mask: Default::default(),
            grant_pc: Default::default(),
            grant_mask: Default::default(),
            fetch_pc: Default::default(),
            fetch_off: Default::default(),
            cur_tid: Default::default(),
            cur_cta: Default::default(),
            warp_reg_base: Default::default(),
            launch_reg_base: Default::default(),
            warp_private: Default::default(),
            pc_next: Default::default(),
            pc_target: Default::default(),
            jump_base: Default::default(),
            lead_found: Default::default(),
            sel_found: Default::default(),
            lead_line: Default::default(),
            lead_lane: Default::default(),
            taken: Default::default(),
            served_now: Default::default(),
            left: Default::default(),
            finish: Default::default(),
            retire: Default::default(),
            offered: Default::default(),
            req_data: Default::default(),
            req_strobe: Default::default(),
            addr: array_init::array_init(|_| Default::default()),
            phys: array_init::array_init(|_| Default::default()),
            word_shift: array_init::array_init(|_| Default::default()),
            strobe_shift: array_init::array_init(|_| Default::default()),
            byte_shift: array_init::array_init(|_| Default::default()),
            store_word: array_init::array_init(|_| Default::default()),
            store_bits: array_init::array_init(|_| Default::default()),
            store_strobe: array_init::array_init(|_| Default::default()),
            resp_line: array_init::array_init(|_| Default::default()),
            load_word: array_init::array_init(|_| Default::default()),
            load_value: array_init::array_init(|_| Default::default()),
            wb_data: array_init::array_init(|_| Default::default()),
            wb_enable: array_init::array_init(|_| Default::default()),
            sched_accept: Default::default(),
            pol_init: Default::default(),
            pol_branch: Default::default(),
            pol_advance: Default::default(),
            pol_next_pc: Default::default(),
            md_start: Default::default(),
            md_a: Default::default(),
            md_b: Default::default(),
            alu_a: array_init::array_init(|_| Default::default()),
            alu_b: array_init::array_init(|_| Default::default()),
            reg_waddr: array_init::array_init(|_| Default::default()),
            launch_reg: Default::default(),
            at_idle: k(phase::IDLE),
            at_sched: k(phase::SCHED),
            at_launch: k(phase::LAUNCH),
            at_launch_regs: k(phase::LAUNCH_REGS),
            at_decode: k(phase::DECODE),
            at_exec: k(phase::EXEC),
            at_mem_req: k(phase::MEM_REQ),
            at_mem_wait: k(phase::MEM_WAIT),
            at_md_start: k(phase::MD_START),
            at_md_wait: k(phase::MD_WAIT),
            at_done: k(phase::DONE),
            slot_free: k(slot::FREE),
            slot_run: k(slot::RUN),
            slot_barrier: k(slot::BARRIER),
            is_jal: k(class::JAL),
            is_jalr: k(class::JALR),
            is_branch: k(class::BRANCH),
            is_load: k(class::LOAD),
            is_store: k(class::STORE),
            is_muldiv: k(class::MULDIV),
            is_csr: k(class::CSR),
            is_barrier: k(class::BARRIER),
            operand_pc: k(operand::PC),
            operand_zero: k(operand::ZERO),
            operand_imm: k(operand::IMM),
            operand_four: k(operand::FOUR),
            csr_ntid: k(1),
            csr_ctaid: k(2),
            warp_ids: array_init::array_init(|w| k(w as u64)),
            warp_bit: array_init::array_init(|w| k(1 << w)),
            lane_ids: array_init::array_init(|l| k(l as u64)),
            lane_bit: array_init::array_init(|l| k(1 << l)),
            lane_num: array_init::array_init(|l| k(l as u64)),
            lane_private: array_init::array_init(|l| k((l as u64) * STACK_BYTES)),
            warp_private_base: array_init::array_init(|w| {
                k(PRIVATE_BASE + (w * L) as u64 * STACK_BYTES)
            }),
            warp_regs: array_init::array_init(|w| k((w as u64) << 5)),
            word_shifts: array_init::array_init(|l| k(32 * l as u64)),
            strobe_shifts: array_init::array_init(|l| k(4 * l as u64)),
            f3: array_init::array_init(|i| k(i as u64)),
            reg_ra: k(1),
            reg_sp: k(2),
            reg_gp: k(3),
            one_raw: k(1),
            last_reg: k(31),
            exit_pc: k(EXIT_PC),
            stack_top: k(STACK_TOP),
            stack_low: k(STACK_TOP - STACK_BYTES),
            stack_bytes: k(STACK_BYTES),
            stack_mask: k(STACK_BYTES - 1),
            private_base: k(PRIVATE_BASE),
            line_mask: k(!(4 * L as u64 - 1) & 0xffff_ffff),
            lanes32: k(L as u64),
            one8: k(1),
            one32: k(1),
            two32: k(2),
            three32: k(3),
            four32: k(4),
            not_one32: k(0xffff_fffe),
            byte_mask: k(0xff),
            half_mask: k(0xffff),
            byte_sign: k(0x80),
            half_sign: k(0x8000),
            byte_ext: k(0xffff_ff00),
            half_ext: k(0xffff_0000),
            all32: k(0xffff_ffff),
            s8: k(8),
            s32: k(32),
            s16: k(16),
            s24: k(24),
            strobe_byte: k(1),
            strobe_half: k(3),
            strobe_word: k(0xf),
            zero_w: k(0),
            zero_l: k(0),
            zero8: k(0),
            zero32: k(0),
            zero_lb: Constant::new(Bits::<LB>::default()),
            zero_sb: Constant::new(Bits::<SB>::default()),
        }
    }
}

// The kernel keeps one `if` per state (the state machine reads as its states) and the
// compare form `!(a < b)` that the exported, linted Verilog was produced from.
#[allow(clippy::nonminimal_bool, clippy::collapsible_if)]
impl<
        const W: usize,
        const L: usize,
        const DEPTH: usize,
        const DW: usize,
        const WW: usize,
        const LW: usize,
        const IAW: usize,
        const RAW: usize,
        const LB: usize,
        const SB: usize,
        const G: usize,
        const GS: usize,
        const GW: usize,
        const GLW: usize,
    > Logic for SimtCore<W, L, DEPTH, DW, WW, LW, IAW, RAW, LB, SB, G, GS, GW, GLW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            cur_warp,
            cur_pc,
            cur_mask,
            pending,
            served,
            md_lane,
            next_cta,
            cta_tid,
            launch_k,
            launch_base,
            launch_warp,
            launch_reg,
            error_q
        );
        for w in 0..W {
            self.warp_state[w].clock.next = self.clock.val();
            self.warp_state[w].d.next = self.warp_state[w].q.val();
            self.warp_cta[w].clock.next = self.clock.val();
            self.warp_cta[w].d.next = self.warp_cta[w].q.val();
            self.warp_tid[w].clock.next = self.clock.val();
            self.warp_tid[w].d.next = self.warp_tid[w].q.val();
        }
        for l in 0..L {
            self.op_a[l].clock.next = self.clock.val();
            self.op_a[l].d.next = self.op_a[l].q.val();
            self.op_b[l].clock.next = self.clock.val();
            self.op_b[l].d.next = self.op_b[l].q.val();
            self.regs[l].read_clock.next = self.clock.val();
            self.regs[l].write_clock.next = self.clock.val();
            self.regs_rs2[l].read_clock.next = self.clock.val();
            self.regs_rs2[l].write_clock.next = self.clock.val();
        }
        self.imem.read_clock.next = self.clock.val();
        self.imem.write_clock.next = self.clock.val();
        self.scheduler.clock.next = self.clock.val();
        self.scheduler.reset.next = self.reset.val();
        self.policy.clock.next = self.clock.val();
        self.policy.reset.next = self.reset.val();
        self.mul_div.clock.next = self.clock.val();
        self.mul_div.reset.next = self.reset.val();
        // Loader: {reconvergence PC, instruction} per word of code.
        self.imem.write_enable.next = self.prog_write.val();
        self.imem.write_address.next = self.prog_addr.val();
        self.widen_rpc.narrow.next = self.prog_rpc.val();
        self.widen_inst.narrow.next = self.prog_inst.val();
        self.imem.write_data.next =
            (self.widen_rpc.wide.val() << self.s32.val()) | self.widen_inst.wide.val();
        self.decoder.inst.next = self.imem.read_data.val().get_bits::<32>(0);
        self.rpc.next = self.imem.read_data.val().get_bits::<32>(32);
        // Warp slots: live (runs, not returned), parked at a barrier, free.
        self.live.next = self.zero_w.val();
        self.parked.next = self.zero_w.val();
        self.free_count.next = self.zero8.val();
        for w in 0..W {
            if (self.warp_state[w].q.val() == self.slot_run.val())
                & (self.policy.pc[w].val() != self.exit_pc.val())
            {
                self.live.next = self.live.val() | self.warp_bit[w].val();
            }
            if self.warp_state[w].q.val() == self.slot_barrier.val() {
                self.parked.next = self.parked.val() | self.warp_bit[w].val();
            }
        }
        self.free.next = !(self.live.val() | self.parked.val());
        self.launch_sel.next = self.warp_ids[0].val();
        for w in 0..W {
            if (self.free.val() & self.warp_bit[w].val()).any() {
                self.free_count.next = self.free_count.val() + self.one8.val();
            }
        }
        self.sel_found.next = false;
        for w in 0..W {
            if (self.free.val() & self.warp_bit[w].val()).any() & !self.sel_found.val() {
                self.launch_sel.next = self.warp_ids[w].val();
                self.sel_found.next = true;
            }
        }
        self.launch_ok.next = (self.next_cta.q.val() != self.ctas.val())
            & !(self.free_count.val() < self.cta_warps.val());
        // A warp that returned frees; a warp leaving inside a divergent region is an error.
        for w in 0..W {
            if (self.warp_state[w].q.val() == self.slot_run.val())
                & (self.policy.pc[w].val() == self.exit_pc.val())
            {
                self.warp_state[w].d.next = self.slot_free.val();
                if !self.policy.converged[w].val() {
                    self.error_q.d.next = true;
                }
            }
        }
        // Barrier: a parked warp goes on when no warp of its CTA is live.
        for w in 0..W {
            if (self.parked.val() & self.warp_bit[w].val()).any() {
                self.warp_state[w].d.next = self.slot_run.val();
                for v in 0..W {
                    if (self.live.val() & self.warp_bit[v].val()).any()
                        & (self.warp_cta[v].q.val() == self.warp_cta[w].q.val())
                    {
                        self.warp_state[w].d.next = self.slot_barrier.val();
                    }
                }
            }
        }
        // The scheduler is offered the live warps but the one whose instruction is in
        // flight (outside SCHED: the grant is taken as that instruction retires).
        self.offered.next = self.live.val();
        if self.state.q.val() != self.at_sched.val() {
            for w in 0..W {
                if self.cur_warp.q.val() == self.warp_ids[w].val() {
                    self.offered.next = self.live.val() & !self.warp_bit[w].val();
                }
            }
        }
        self.scheduler.ready.next = self.offered.val();
        // The granted warp's PC and mask; the current warp's ids.
        self.sched_accept.next = false;
        self.grant_pc.next = self.zero32.val();
        self.grant_mask.next = self.zero_l.val();
        self.cur_tid.next = self.zero32.val();
        self.cur_cta.next = self.zero32.val();
        self.warp_reg_base.next = self.warp_regs[0].val();
        self.launch_reg_base.next = self.warp_regs[0].val();
        self.warp_private.next = self.warp_private_base[0].val();
        for w in 0..W {
            if self.scheduler.grant.val() == self.warp_ids[w].val() {
                self.grant_pc.next = self.policy.pc[w].val();
                self.grant_mask.next = self.policy.mask[w].val();
            }
            if self.cur_warp.q.val() == self.warp_ids[w].val() {
                self.cur_tid.next = self.warp_tid[w].q.val();
                self.cur_cta.next = self.warp_cta[w].q.val();
                self.warp_reg_base.next = self.warp_regs[w].val();
                self.warp_private.next = self.warp_private_base[w].val();
            }
            if self.launch_warp.q.val() == self.warp_ids[w].val() {
                self.launch_reg_base.next = self.warp_regs[w].val();
            }
        }
        // Register RAMs: rs1 and rs2 of the decoded instruction, ready in EXEC.
        self.widen_rd.narrow.next = self.decoder.rd.val();
        self.widen_rs1.narrow.next = self.decoder.rs1.val();
        self.widen_rs2.narrow.next = self.decoder.rs2.val();
        for l in 0..L {
            self.reg_waddr[l].next = self.warp_reg_base.val() | self.widen_rd.wide.val();
            self.wb_enable[l].next = false;
            self.wb_data[l].next = self.alu[l].result.val();
        }
        // Lane ALUs (EXEC): a = rs1 | pc | 0, b = rs2 | imm | 4.
        for l in 0..L {
            self.alu[l].op.next = self.decoder.alu_op.val();
            self.alu_a[l].next = self.regs[l].read_data.val();
            if self.decoder.a_sel.val() == self.operand_pc.val() {
                self.alu_a[l].next = self.cur_pc.q.val();
            }
            if self.decoder.a_sel.val() == self.operand_zero.val() {
                self.alu_a[l].next = self.zero32.val();
            }
            self.alu_b[l].next = self.regs_rs2[l].read_data.val();
            if self.decoder.b_sel.val() == self.operand_imm.val() {
                self.alu_b[l].next = self.decoder.imm.val();
            }
            if self.decoder.b_sel.val() == self.operand_four.val() {
                self.alu_b[l].next = self.four32.val();
            }
            self.alu[l].c.next = self.zero32.val();
            self.alu[l].product.next = self.zero32.val();
        }
        // The lowest pending lane: the lead of a line request, the next mul/div lane.
        self.lead_found.next = false;
        self.lead_lane.next = self.lane_ids[0].val();
        self.lead_line.next = self.zero32.val();
        for l in 0..L {
            // Lane addresses; private ones to the thread's own stack.
            self.addr[l].next = self.op_a[l].q.val() + self.decoder.imm.val();
            self.phys[l].next = self.addr[l].val();
            if (self.addr[l].val() - self.stack_low.val()) < self.stack_bytes.val() {
                self.phys[l].next = self.warp_private.val()
                    + self.lane_private[l].val()
                    + ((self.addr[l].val() - self.stack_low.val()) & self.stack_mask.val());
            }
        }
        for l in 0..L {
            if (self.pending.q.val() & self.lane_bit[l].val()).any() & !self.lead_found.val() {
                self.lead_found.next = true;
                self.lead_lane.next = self.lane_ids[l].val();
                self.lead_line.next = self.phys[l].val() & self.line_mask.val();
            }
        }
        // A line request: the pending lanes on the lead's line, data merged in lane
        // order (a later lane's bytes win, as threads run in lane order).
        self.served_now.next = self.zero_l.val();
        self.req_data.next = self.zero_lb.val();
        self.req_strobe.next = self.zero_sb.val();
        for l in 0..L {
            if (self.pending.q.val() & self.lane_bit[l].val()).any()
                & ((self.phys[l].val() & self.line_mask.val()) == self.lead_line.val())
            {
                self.served_now.next = self.served_now.val() | self.lane_bit[l].val();
            }
            self.word_shift[l].next = self.word_shifts[0].val();
            self.strobe_shift[l].next = self.strobe_shifts[0].val();
            for s in 0..L {
                if self.phys[l].val().get_bits::<LW>(2) == self.lane_ids[s].val() {
                    self.word_shift[l].next = self.word_shifts[s].val();
                    self.strobe_shift[l].next = self.strobe_shifts[s].val();
                }
            }
            self.byte_shift[l].next =
                (self.phys[l].val() & self.three32.val()) << self.three32.val();
            // Store data in its byte lanes.
            self.store_word[l].next = self.op_b[l].q.val();
            self.store_bits[l].next = self.all32.val();
            self.store_strobe[l].next = self.strobe_word.val();
            if !(self.decoder.funct3.val().get_bit(0) | self.decoder.funct3.val().get_bit(1)) {
                self.store_word[l].next = (self.op_b[l].q.val() & self.byte_mask.val())
                    | ((self.op_b[l].q.val() & self.byte_mask.val()) << self.s8.val())
                    | ((self.op_b[l].q.val() & self.byte_mask.val()) << self.s16.val())
                    | ((self.op_b[l].q.val() & self.byte_mask.val()) << self.s24.val());
                self.store_bits[l].next = self.byte_mask.val() << self.byte_shift[l].val();
                self.store_strobe[l].next =
                    self.strobe_byte.val() << (self.phys[l].val() & self.three32.val());
            }
            if self.decoder.funct3.val().get_bit(0) & !self.decoder.funct3.val().get_bit(1) {
                self.store_word[l].next = (self.op_b[l].q.val() & self.half_mask.val())
                    | ((self.op_b[l].q.val() & self.half_mask.val()) << self.s16.val());
                self.store_bits[l].next = self.half_mask.val() << self.byte_shift[l].val();
                self.store_strobe[l].next =
                    self.strobe_half.val() << (self.phys[l].val() & self.three32.val());
            }
            self.line_data[l].narrow.next = self.store_word[l].val() & self.store_bits[l].val();
            self.line_bits[l].narrow.next = self.store_bits[l].val();
            self.line_strobe[l].narrow.next = self.store_strobe[l].val();
            if (self.served_now.val() & self.lane_bit[l].val()).any() {
                self.req_data.next = (self.req_data.val()
                    & !(self.line_bits[l].wide.val() << self.word_shift[l].val()))
                    | (self.line_data[l].wide.val() << self.word_shift[l].val());
                self.req_strobe.next = self.req_strobe.val()
                    | (self.line_strobe[l].wide.val() << self.strobe_shift[l].val());
            }
            // Load data from the response line.
            self.resp_line[l].next = self.mem_resp_data.val() >> self.word_shift[l].val();
            self.load_word[l].next =
                self.resp_line[l].val().get_bits::<32>(0) >> self.byte_shift[l].val();
            self.load_value[l].next = self.load_word[l].val();
            if self.decoder.funct3.val() == self.f3[0].val() {
                self.load_value[l].next = self.load_word[l].val() & self.byte_mask.val();
                if (self.load_word[l].val() & self.byte_sign.val()).any() {
                    self.load_value[l].next =
                        (self.load_word[l].val() & self.byte_mask.val()) | self.byte_ext.val();
                }
            }
            if self.decoder.funct3.val() == self.f3[4].val() {
                self.load_value[l].next = self.load_word[l].val() & self.byte_mask.val();
            }
            if self.decoder.funct3.val() == self.f3[1].val() {
                self.load_value[l].next = self.load_word[l].val() & self.half_mask.val();
                if (self.load_word[l].val() & self.half_sign.val()).any() {
                    self.load_value[l].next =
                        (self.load_word[l].val() & self.half_mask.val()) | self.half_ext.val();
                }
            }
            if self.decoder.funct3.val() == self.f3[5].val() {
                self.load_value[l].next = self.load_word[l].val() & self.half_mask.val();
            }
        }
        self.left.next = self.pending.q.val() & !self.served_now.val();
        // Branches: taken lanes; the jump target of jal / jalr (the first active lane's rs1).
        self.taken.next = self.zero_l.val();
        self.jump_base.next = self.zero32.val();
        for l in 0..L {
            if self.alu[l].result.val().get_bit(0) ^ self.decoder.invert.val() {
                self.taken.next = self.taken.val() | self.lane_bit[l].val();
            }
        }
        self.sel_found.next = false;
        for l in 0..L {
            if (self.cur_mask.q.val() & self.lane_bit[l].val()).any() & !self.sel_found.val() {
                self.jump_base.next = self.regs[l].read_data.val();
                self.sel_found.next = true;
            }
        }
        self.pc_next.next = self.cur_pc.q.val() + self.four32.val();
        self.pc_target.next = self.cur_pc.q.val() + self.decoder.imm.val();
        // Multiply / divide: the lead lane's operands.
        self.md_start.next = false;
        self.mul_div.op.next = self.decoder.funct3.val();
        self.md_a.next = self.op_a[0].q.val();
        self.md_b.next = self.op_b[0].q.val();
        for l in 0..L {
            if self.lead_lane.val() == self.lane_ids[l].val() {
                self.md_a.next = self.op_a[l].q.val();
                self.md_b.next = self.op_b[l].q.val();
            }
        }
        // Policy and memory defaults.
        self.pol_init.next = false;
        self.policy.init_warp.next = self.launch_sel.val();
        self.policy.init_pc.next = self.entry_pc.val();
        self.launch_mask.next = self.zero_l.val();
        for l in 0..L {
            if (self.launch_base.q.val() + self.lane_num[l].val()) < self.cta_size.val() {
                self.launch_mask.next = self.launch_mask.val() | self.lane_bit[l].val();
            }
        }
        self.policy.init_mask.next = self.launch_mask.val();
        self.policy.sel.next = self.cur_warp.q.val();
        self.pol_branch.next = false;
        self.pol_advance.next = false;
        self.policy.taken_mask.next = self.taken.val();
        self.policy.taken_pc.next = self.pc_target.val();
        self.policy.not_taken_pc.next = self.pc_next.val();
        self.policy.reconv_pc.next = self.rpc.val();
        self.pol_next_pc.next = self.pc_next.val();
        self.mem_req_valid.next = false;
        self.mem_req_addr.next = self.lead_line.val();
        // Read only with `mem_req_valid`; gated so that it never shows the instruction
        // RAM's unwritten words.
        self.mem_req_write.next = (self.decoder.kind.val() == self.is_store.val())
            & (self.state.q.val() == self.at_mem_req.val());
        self.mem_req_data.next = self.req_data.val();
        self.mem_req_strobe.next = self.req_strobe.val();
        self.finish.next = false;
        self.retire.next = false;
        // The state machine.
        if self.state.q.val() == self.at_idle.val() {
            self.next_cta.d.next = self.zero32.val();
            self.cta_tid.d.next = self.zero32.val();
        }
        if self.state.q.val() == self.at_sched.val() {
            if self.launch_ok.val() {
                self.state.d.next = self.at_launch.val();
                self.launch_k.d.next = self.zero8.val();
                self.launch_base.d.next = self.zero32.val();
            } else if !self.scheduler.grant_valid.val()
                & (self.next_cta.q.val() == self.ctas.val())
                & !(self.live.val() | self.parked.val()).any()
            {
                self.state.d.next = self.at_done.val();
            }
        }
        if self.state.q.val() == self.at_launch.val() {
            // The lowest free warp takes warp `launch_k` of the CTA.
            self.pol_init.next = true;
            self.launch_warp.d.next = self.launch_sel.val();
            for w in 0..W {
                if self.launch_sel.val() == self.warp_ids[w].val() {
                    self.warp_state[w].d.next = self.slot_run.val();
                    self.warp_cta[w].d.next = self.next_cta.q.val();
                    self.warp_tid[w].d.next = self.cta_tid.q.val() + self.launch_base.q.val();
                    self.launch_reg_base.next = self.warp_regs[w].val();
                }
            }
            // Register 0 (x0) now, 1..31 in LAUNCH_REGS.
            for l in 0..L {
                self.reg_waddr[l].next = self.launch_reg_base.val();
                self.wb_enable[l].next = true;
                self.wb_data[l].next = self.zero32.val();
            }
            self.launch_reg.d.next = self.one_raw.val();
            self.state.d.next = self.at_launch_regs.val();
        }
        if self.state.q.val() == self.at_launch_regs.val() {
            // Every register starts as the model starts a thread: `ra` the exit PC, `sp`
            // the stack top, `gp` the kernel's, the others zero (the RAM holds the last
            // warp's values, and an ASIC's RAM starts unknown).
            for l in 0..L {
                self.reg_waddr[l].next = self.launch_reg_base.val() | self.launch_reg.q.val();
                self.wb_enable[l].next = true;
                self.wb_data[l].next = self.zero32.val();
                if self.launch_reg.q.val() == self.reg_ra.val() {
                    self.wb_data[l].next = self.exit_pc.val();
                }
                if self.launch_reg.q.val() == self.reg_sp.val() {
                    self.wb_data[l].next = self.stack_top.val();
                }
                if self.launch_reg.q.val() == self.reg_gp.val() {
                    self.wb_data[l].next = self.gp.val();
                }
            }
            self.launch_reg.d.next = self.launch_reg.q.val() + self.one_raw.val();
            if self.launch_reg.q.val() == self.last_reg.val() {
                if (self.launch_k.q.val() + self.one8.val()) == self.cta_warps.val() {
                    self.next_cta.d.next = self.next_cta.q.val() + self.one32.val();
                    self.cta_tid.d.next = self.cta_tid.q.val() + self.cta_size.val();
                    self.state.d.next = self.at_sched.val();
                } else {
                    self.launch_k.d.next = self.launch_k.q.val() + self.one8.val();
                    self.launch_base.d.next = self.launch_base.q.val() + self.lanes32.val();
                    self.state.d.next = self.at_launch.val();
                }
            }
        }
        if self.state.q.val() == self.at_decode.val() {
            self.state.d.next = self.at_exec.val();
        }
        if self.state.q.val() == self.at_exec.val() {
            // The operands, kept for the memory and multiply/divide states.
            for l in 0..L {
                self.op_a[l].d.next = self.regs[l].read_data.val();
                self.op_b[l].d.next = self.regs_rs2[l].read_data.val();
                self.wb_enable[l].next = self.decoder.writes.val()
                    & (self.cur_mask.q.val() & self.lane_bit[l].val()).any();
                if self.decoder.kind.val() == self.is_csr.val() {
                    self.wb_data[l].next = self.cur_tid.val() + self.lane_num[l].val();
                    if self.decoder.csr.val() == self.csr_ntid.val() {
                        self.wb_data[l].next = self.ntid.val();
                    }
                    if self.decoder.csr.val() == self.csr_ctaid.val() {
                        self.wb_data[l].next = self.cur_cta.val();
                    }
                    if self.decoder.csr.val().all() {
                        self.wb_data[l].next = self.cta_size.val();
                    }
                }
            }
            self.retire.next = true;
            self.pol_advance.next = true;
            if self.decoder.kind.val() == self.is_jal.val() {
                self.pol_next_pc.next = self.pc_target.val();
            }
            if self.decoder.kind.val() == self.is_jalr.val() {
                self.pol_next_pc.next =
                    (self.jump_base.val() + self.decoder.imm.val()) & self.not_one32.val();
                for l in 0..L {
                    if (self.cur_mask.q.val() & self.lane_bit[l].val()).any()
                        & (self.regs[l].read_data.val() != self.jump_base.val())
                    {
                        self.error_q.d.next = true;
                    }
                }
            }
            if self.decoder.kind.val() == self.is_branch.val() {
                self.pol_advance.next = false;
                self.pol_branch.next = true;
            }
            if self.decoder.kind.val() == self.is_barrier.val() {
                for w in 0..W {
                    if self.cur_warp.q.val() == self.warp_ids[w].val() {
                        self.warp_state[w].d.next = self.slot_barrier.val();
                    }
                }
            }
            if (self.decoder.kind.val() == self.is_load.val())
                | (self.decoder.kind.val() == self.is_store.val())
            {
                self.retire.next = false;
                self.pol_advance.next = false;
                self.pending.d.next = self.cur_mask.q.val();
                self.state.d.next = self.at_mem_req.val();
            }
            if self.decoder.kind.val() == self.is_muldiv.val() {
                self.retire.next = false;
                self.pol_advance.next = false;
                self.pending.d.next = self.cur_mask.q.val();
                self.state.d.next = self.at_md_start.val();
            }
            if self.decoder.illegal.val() {
                self.error_q.d.next = true;
            }
        }
        if self.state.q.val() == self.at_mem_req.val() {
            self.mem_req_valid.next = true;
            for l in 0..L {
                // Misaligned: a halfword at an odd address, a word not at a multiple of 4.
                if (self.pending.q.val() & self.lane_bit[l].val()).any()
                    & ((self.decoder.funct3.val().get_bit(0) & self.addr[l].val().get_bit(0))
                        | (self.decoder.funct3.val().get_bit(1)
                            & (self.addr[l].val() & self.three32.val()).any()))
                {
                    self.error_q.d.next = true;
                }
            }
            if self.mem_req_ready.val() {
                self.served.d.next = self.served_now.val();
                self.pending.d.next = self.left.val();
                if self.decoder.kind.val() == self.is_store.val() {
                    if !self.left.val().any() {
                        self.finish.next = true;
                    }
                } else {
                    self.state.d.next = self.at_mem_wait.val();
                }
            }
        }
        if self.state.q.val() == self.at_mem_wait.val() {
            if self.mem_resp_valid.val() {
                for l in 0..L {
                    self.wb_enable[l].next = self.decoder.writes.val()
                        & (self.served.q.val() & self.lane_bit[l].val()).any();
                    self.wb_data[l].next = self.load_value[l].val();
                }
                if self.pending.q.val().any() {
                    self.state.d.next = self.at_mem_req.val();
                } else {
                    self.finish.next = true;
                }
            }
        }
        if self.state.q.val() == self.at_md_start.val() {
            self.md_start.next = true;
            self.md_lane.d.next = self.lead_lane.val();
            self.state.d.next = self.at_md_wait.val();
        }
        if self.state.q.val() == self.at_md_wait.val() {
            if self.mul_div.done.val() {
                for l in 0..L {
                    if self.md_lane.q.val() == self.lane_ids[l].val() {
                        self.wb_enable[l].next = self.decoder.writes.val();
                        self.wb_data[l].next = self.mul_div.result.val();
                        self.pending.d.next = self.pending.q.val() & !self.lane_bit[l].val();
                        if !(self.pending.q.val() & !self.lane_bit[l].val()).any() {
                            self.finish.next = true;
                        } else {
                            self.state.d.next = self.at_md_start.val();
                        }
                    }
                }
            }
        }
        if self.finish.val() {
            self.pol_advance.next = true;
            self.retire.next = true;
        }
        if self.retire.val() {
            self.state.d.next = self.at_sched.val();
        }
        // A warp instruction starts: the grant, taken in SCHED or as the previous
        // instruction retires, unless a CTA is to launch.
        if self.scheduler.grant_valid.val()
            & !self.launch_ok.val()
            & ((self.state.q.val() == self.at_sched.val()) | self.retire.val())
        {
            self.sched_accept.next = true;
            self.cur_warp.d.next = self.scheduler.grant.val();
            self.cur_pc.d.next = self.grant_pc.val();
            self.cur_mask.d.next = self.grant_mask.val();
            self.state.d.next = self.at_decode.val();
        }
        if self.state.q.val() == self.at_done.val() {
            self.state.d.next = self.at_done.val();
        }
        if self.start.val()
            & ((self.state.q.val() == self.at_idle.val())
                | (self.state.q.val() == self.at_done.val()))
        {
            self.state.d.next = self.at_sched.val();
            self.next_cta.d.next = self.zero32.val();
            self.cta_tid.d.next = self.zero32.val();
        }
        if self.policy.overflow.val() {
            self.error_q.d.next = true;
        }
        for l in 0..L {
            self.regs[l].write_enable.next = self.wb_enable[l].val();
            self.regs[l].write_data.next = self.wb_data[l].val();
            self.regs_rs2[l].write_enable.next = self.wb_enable[l].val();
            self.regs_rs2[l].write_data.next = self.wb_data[l].val();
        }
        if self.reset.val() {
            self.state.d.next = self.at_idle.val();
            self.error_q.d.next = false;
            for w in 0..W {
                self.warp_state[w].d.next = self.slot_free.val();
            }
        }
        // The blocks' inputs, once each.
        self.scheduler.accept.next = self.sched_accept.val();
        self.policy.init.next = self.pol_init.val();
        self.policy.branch.next = self.pol_branch.val();
        self.policy.advance.next = self.pol_advance.val();
        self.policy.next_pc.next = self.pol_next_pc.val();
        self.mul_div.start.next = self.md_start.val();
        self.mul_div.a.next = self.md_a.val();
        self.mul_div.b.next = self.md_b.val();
        // Fetch: the granted warp's PC while it is granted, then the current warp's.
        self.fetch_pc.next = self.cur_pc.q.val();
        if self.sched_accept.val() {
            self.fetch_pc.next = self.grant_pc.val();
        }
        self.fetch_off.next = self.fetch_pc.val() - self.code_base.val();
        self.imem.read_address.next = self.fetch_off.val().get_bits::<IAW>(2);
        for l in 0..L {
            self.alu[l].a.next = self.alu_a[l].val();
            self.alu[l].b.next = self.alu_b[l].val();
            self.regs[l].read_address.next = self.warp_reg_base.val() | self.widen_rs1.wide.val();
            self.regs[l].write_address.next = self.reg_waddr[l].val();
            self.regs_rs2[l].read_address.next =
                self.warp_reg_base.val() | self.widen_rs2.wide.val();
            self.regs_rs2[l].write_address.next = self.reg_waddr[l].val();
        }
        // Outputs.
        self.done.next = self.state.q.val() == self.at_done.val();
        self.error.next = self.error_q.q.val();
        self.issue.next = self.state.q.val() == self.at_decode.val();
        self.issue_warp.next = self.cur_warp.q.val();
        self.issue_pc.next = self.cur_pc.q.val();
        self.issue_mask.next = self.cur_mask.q.val();
        self.phase.next = self.state.q.val();
    }
}

#[cfg(test)]
mod tests {
    use crate::presets::SimtCore4x4;
    use rust_hdl::prelude::*;

    #[test]
    fn synthesizes() {
        let mut uut = SimtCore4x4::default();
        uut.connect_all();
        yosys_validate("simt_core_4x4", &generate_verilog(&uut)).unwrap();
    }
}
