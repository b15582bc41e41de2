//! VGIW core (`vgiw-control-flow-coalescing.txt` §2, §3.2-3.5; SPEC §5, §6): the
//! control path and the MT-CGRF fabric joined into one core that runs a whole
//! multi-block kernel. The basic block scheduler picks a block; the fabric loader plays
//! that block's configuration program into the fabric; the initiator CVU injects the
//! block's threads; the fabric's finished threads, with their branch outcome (bit 0 of
//! the block's last token), go to the terminator CVU; live values travel between blocks
//! through the live value cache.
//!
//! ```text
//!  host: table load, start ──> vgiw_control ── cfg_busy rises: start at cfg_word ──> fabric_loader <── host: prog_*
//!                               │ thr (held while configuring,                         │ unit writes, route shifts
//!                               │  or D threads outstanding)                           ▼
//!                               └──> thread port 0 | 1 (alternating when replicas2) ─> fabric ── mem 0..7 ──> mem_*[8]
//!                               ┌─── round robin <── done_queue 0, 1 <── done_*[2] ──┘   └─ mem 8, 9 ─> live_value_port ─> lvc ─> lv_mem_*
//!   terminator (fin_*) <────────┘
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `load_*`, `start`, `tile_threads`, `log_dim_x`, `log_dim_y` | in | | block table load and kernel start (`vgiw_control.rs`); `load_cfg` = the block's program address in the loader RAM |
//! | `prog_write`, `prog_addr`, `prog_data` | in | 1, 10, 64 | host write of a configuration command (`fabric_loader.rs`) |
//! | `mem_req_*[8]`, `mem_resp_*[8]` | memory ports | | the fabric's load/store units (`load_store_unit.rs`: tags 4 bits, answers in any order) |
//! | `lv_mem_*` | memory port | | the live value cache's backing memory (`lvc.rs`) |
//! | `lv_flush`, `lv_flush_ready`, `lv_flushing` | in, out, out | 1 | write the live value cache's dirty words back |
//! | `running`, `cur_block`, `kernel_done`, `in_flight`, `nonempty`, `cfg_busy`, `cfg_block` | out | | scheduler state (`vgiw_control.rs`) |
//! | `loading` | out | 1 | the loader is configuring the fabric (threads are held) |
//! | `inject`, `inject_id`, `inject_port` | out | 1, 16, 1 | a thread enters the fabric this cycle, on this thread port |
//! | `retire`, `retire_id`, `retire_taken` | out | 1, 16, 1 | the terminator takes a finished thread and its outcome this cycle |
//! | `fabric_busy` | out | 1 | a thread or token is in the fabric |
//! | `error` | out | 1 | sticky: a token buffer saw two threads in a channel, a token left the grid, a live value address outside the cache, an invalid configuration command, or a done queue overflow |
//!
//! Sizes: the control is `vgiw_control_8x256`'s (8 blocks, 256 threads, 8 CVT banks),
//! the configuration word is the loader's 10-bit address (1 024 commands), the live
//! value cache is `lvc_4k`'s geometry with 5-bit request ids (the live value port tags
//! `{port, tag}`), 128 live values x 256 threads; the fabric has `VCS` channels per
//! unit and `D = 2^QW` threads may be injected and not yet retired.
//!
//! Timing: a block's reconfiguration takes the loader's `U + 45` cycles (`U` unit
//! writes) plus one cycle to start; the scheduler's own CONFIG phase is one cycle, the
//! loader's `busy` holds injection for the rest. One thread injected per cycle when the
//! fabric's thread port and the credit allow; one retired per cycle when the
//! terminator is ready.
//!
//! Storage: the blocks' (see their headers) + `2 D x 17` queue bits + `CW + 4`
//! flip-flops.
//!
//! Choices where the paper is silent:
//! - The scheduler reconfigures only once the previous block has no thread in flight;
//!   a reconfiguration start that finds the loader busy waits for it (one pending bit).
//! - Credits: the fabric's finished threads cannot be held back, so each thread port
//!   reports into a queue of `D` and a thread is injected only while fewer than `D`
//!   are outstanding; neither queue can overflow (`error` says if one did).
//! - With two replicas, threads alternate over the thread ports (a port whose turn it
//!   is and that is not ready holds the next thread); the queues merge round robin.
//! - The fabric's threads carry the linear thread id; the initiator's threadIdx
//!   (x, y, z) is not used by the fabric's blocks.
use crate::cgrf::fabric::Fabric;
use crate::vgiw::done_queue::DoneQueue;
use crate::vgiw::fabric_loader::FabricLoader;
use crate::vgiw::live_value_port::LiveValuePort;
use crate::vgiw::lvc::Lvc;
use crate::vgiw::vgiw_control::VgiwControl;
use rust_hdl::prelude::*;

/// The control path: 8 blocks x 256 threads, 10-bit configuration words, one-cycle
/// CONFIG phase (the loader's `busy` holds injection for the rest).
pub type CoreControl = VgiwControl<8, 4, 8, 3, 2, 5, 3, 2, 10, 1>;
/// The live value cache: `lvc_4k`'s geometry with 5-bit request ids.
pub type CoreLvc = Lvc<15, 5, 10, 4, 2, 2, 4, 6, 8, 5>;
/// 128 live values x 256 threads.
pub type CoreLiveValuePort = LiveValuePort<7, 8, 15>;

/// The core over a fabric of `VCS = 2^VB` channels per unit, with `D = 2^QW`
/// outstanding threads (`CW = QW + 1`).
#[derive(LogicBlock)]
pub struct VgiwCore<
    const VCS: usize,
    const VB: usize,
    const D: usize,
    const QW: usize,
    const CW: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: every block to its idle state (the live value cache
    /// then clears its lines for 64 cycles).
    pub reset: Signal<In, Bit>,
    // block table and kernel start
    pub load_valid: Signal<In, Bit>,
    pub load_block: Signal<In, Bits<3>>,
    pub load_succ0: Signal<In, Bits<3>>,
    pub load_succ1: Signal<In, Bits<3>>,
    pub load_exit0: Signal<In, Bit>,
    pub load_exit1: Signal<In, Bit>,
    /// The block's program address in the loader RAM.
    pub load_cfg: Signal<In, Bits<10>>,
    pub start: Signal<In, Bit>,
    pub tile_threads: Signal<In, Bits<16>>,
    pub log_dim_x: Signal<In, Bits<4>>,
    pub log_dim_y: Signal<In, Bits<4>>,
    // configuration programs
    pub prog_write: Signal<In, Bit>,
    pub prog_addr: Signal<In, Bits<10>>,
    pub prog_data: Signal<In, Bits<64>>,
    // data memory: the fabric's load/store units
    pub mem_req_valid: [Signal<Out, Bit>; 8],
    pub mem_req_ready: [Signal<In, Bit>; 8],
    pub mem_req_addr: [Signal<Out, Bits<32>>; 8],
    pub mem_req_data: [Signal<Out, Bits<32>>; 8],
    pub mem_req_write: [Signal<Out, Bit>; 8],
    pub mem_req_tag: [Signal<Out, Bits<4>>; 8],
    pub mem_resp_valid: [Signal<In, Bit>; 8],
    pub mem_resp_tag: [Signal<In, Bits<4>>; 8],
    pub mem_resp_data: [Signal<In, Bits<32>>; 8],
    // live value memory: the cache's backing store
    pub lv_mem_req_valid: Signal<Out, Bit>,
    pub lv_mem_req_ready: Signal<In, Bit>,
    pub lv_mem_req_write: Signal<Out, Bit>,
    pub lv_mem_req_tag: Signal<Out, Bits<5>>,
    pub lv_mem_req_index: Signal<Out, Bits<10>>,
    pub lv_mem_req_data: Signal<Out, Bits<32>>,
    pub lv_mem_req_bank: Signal<Out, Bits<2>>,
    pub lv_mem_resp_valid: Signal<In, Bit>,
    pub lv_mem_resp_bank: Signal<In, Bits<2>>,
    pub lv_mem_resp_data: Signal<In, Bits<32>>,
    pub lv_flush: Signal<In, Bit>,
    pub lv_flush_ready: Signal<Out, Bit>,
    pub lv_flushing: Signal<Out, Bit>,
    // scheduler state
    pub running: Signal<Out, Bit>,
    pub cur_block: Signal<Out, Bits<3>>,
    pub kernel_done: Signal<Out, Bit>,
    pub in_flight: Signal<Out, Bits<16>>,
    pub nonempty: Signal<Out, Bits<8>>,
    pub cfg_busy: Signal<Out, Bit>,
    pub cfg_block: Signal<Out, Bits<3>>,
    /// The loader is configuring the fabric.
    pub loading: Signal<Out, Bit>,
    // thread trace
    /// A thread enters the fabric this cycle (`inject_id` on thread port `inject_port`).
    pub inject: Signal<Out, Bit>,
    pub inject_id: Signal<Out, Bits<16>>,
    pub inject_port: Signal<Out, Bit>,
    /// The terminator takes thread `retire_id`, branch outcome `retire_taken`.
    pub retire: Signal<Out, Bit>,
    pub retire_id: Signal<Out, Bits<16>>,
    pub retire_taken: Signal<Out, Bit>,
    // status
    pub fabric_busy: Signal<Out, Bit>,
    pub error: Signal<Out, Bit>,
    control: CoreControl,
    fabric: Fabric<VCS, VB>,
    loader: FabricLoader<10>,
    lv_port: CoreLiveValuePort,
    lvc: CoreLvc,
    queue: [DoneQueue<D, QW, CW>; 2],
    /// `cfg_busy` one cycle ago: its rise starts the loader.
    cfg_seen: DFF<Bit>,
    /// A loader start that found the loader busy.
    load_pending: DFF<Bit>,
    /// Thread port 1's turn (two replicas).
    turn: DFF<Bit>,
    /// Queue 1's turn to retire.
    merge_turn: DFF<Bit>,
    /// Threads injected and not yet retired.
    credits: DFF<Bits<CW>>,
    credit_one: Constant<Bits<CW>>,
    credit_zero: Constant<Bits<CW>>,
    credit_limit: Constant<Bits<CW>>,
    start_load: Signal<Local, Bit>,
    open: Signal<Local, Bit>,
    port1: Signal<Local, Bit>,
    take1: Signal<Local, Bit>,
    injected: Signal<Local, Bit>,
    retired: Signal<Local, Bit>,
}

impl<const VCS: usize, const VB: usize, const D: usize, const QW: usize, const CW: usize> Default
    for VgiwCore<VCS, VB, D, QW, CW>
{
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            load_valid: Default::default(),
            load_block: Default::default(),
            load_succ0: Default::default(),
            load_succ1: Default::default(),
            load_exit0: Default::default(),
            load_exit1: Default::default(),
            load_cfg: Default::default(),
            start: Default::default(),
            tile_threads: Default::default(),
            log_dim_x: Default::default(),
            log_dim_y: Default::default(),
            prog_write: Default::default(),
            prog_addr: Default::default(),
            prog_data: Default::default(),
            mem_req_valid: Default::default(),
            mem_req_ready: Default::default(),
            mem_req_addr: Default::default(),
            mem_req_data: Default::default(),
            mem_req_write: Default::default(),
            mem_req_tag: Default::default(),
            mem_resp_valid: Default::default(),
            mem_resp_tag: Default::default(),
            mem_resp_data: Default::default(),
            lv_mem_req_valid: Default::default(),
            lv_mem_req_ready: Default::default(),
            lv_mem_req_write: Default::default(),
            lv_mem_req_tag: Default::default(),
            lv_mem_req_index: Default::default(),
            lv_mem_req_data: Default::default(),
            lv_mem_req_bank: Default::default(),
            lv_mem_resp_valid: Default::default(),
            lv_mem_resp_bank: Default::default(),
            lv_mem_resp_data: Default::default(),
            lv_flush: Default::default(),
            lv_flush_ready: Default::default(),
            lv_flushing: Default::default(),
            running: Default::default(),
            cur_block: Default::default(),
            kernel_done: Default::default(),
            in_flight: Default::default(),
            nonempty: Default::default(),
            cfg_busy: Default::default(),
            cfg_block: Default::default(),
            loading: Default::default(),
            inject: Default::default(),
            inject_id: Default::default(),
            inject_port: Default::default(),
            retire: Default::default(),
            retire_id: Default::default(),
            retire_taken: Default::default(),
            fabric_busy: Default::default(),
            error: Default::default(),
            control: Default::default(),
            fabric: Default::default(),
            loader: Default::default(),
            lv_port: Default::default(),
            lvc: Default::default(),
            queue: array_init::array_init(|_| Default::default()),
            cfg_seen: Default::default(),
            load_pending: Default::default(),
            turn: Default::default(),
            merge_turn: Default::default(),
            credits: Default::default(),
            credit_one: Constant::new(Bits::<CW>::from(1u64)),
            credit_zero: Constant::new(Bits::<CW>::default()),
            credit_limit: Constant::new(Bits::<CW>::from(D as u64)),
            start_load: Default::default(),
            open: Default::default(),
            port1: Default::default(),
            take1: Default::default(),
            injected: Default::default(),
            retired: Default::default(),
        }
    }
}

impl<const VCS: usize, const VB: usize, const D: usize, const QW: usize, const CW: usize> Logic
    for VgiwCore<VCS, VB, D, QW, CW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            cfg_seen,
            load_pending,
            turn,
            merge_turn,
            credits
        );
        self.control.clock.next = self.clock.val();
        self.fabric.clock.next = self.clock.val();
        self.loader.clock.next = self.clock.val();
        self.lv_port.clock.next = self.clock.val();
        self.lvc.clock.next = self.clock.val();
        self.control.reset.next = self.reset.val();
        self.fabric.reset.next = self.reset.val();
        self.loader.reset.next = self.reset.val();
        self.lv_port.reset.next = self.reset.val();
        self.lvc.reset.next = self.reset.val();
        for k in 0..2 {
            self.queue[k].clock.next = self.clock.val();
            self.queue[k].reset.next = self.reset.val();
        }
        // host: block table, start
        self.control.load_valid.next = self.load_valid.val();
        self.control.load_block.next = self.load_block.val();
        self.control.load_succ0.next = self.load_succ0.val();
        self.control.load_succ1.next = self.load_succ1.val();
        self.control.load_exit0.next = self.load_exit0.val();
        self.control.load_exit1.next = self.load_exit1.val();
        self.control.load_cfg.next = self.load_cfg.val();
        self.control.start.next = self.start.val();
        self.control.tile_threads.next = self.tile_threads.val();
        self.control.log_dim_x.next = self.log_dim_x.val();
        self.control.log_dim_y.next = self.log_dim_y.val();
        // reconfiguration: the scheduler's CONFIG phase starts the block's program
        self.loader.prog_write.next = self.prog_write.val();
        self.loader.prog_addr.next = self.prog_addr.val();
        self.loader.prog_data.next = self.prog_data.val();
        self.start_load.next =
            (self.control.cfg_busy.val() & !self.cfg_seen.q.val()) | self.load_pending.q.val();
        self.loader.start.next = self.start_load.val();
        self.loader.start_addr.next = self.control.cfg_word.val();
        self.load_pending.d.next = self.start_load.val() & self.loader.busy.val();
        self.cfg_seen.d.next = self.control.cfg_busy.val();
        self.fabric.route_shift.next = self.loader.route_shift.val();
        for r in 0..4 {
            self.fabric.route_in_en[r].next = self.loader.route_in_en[r].val();
            self.fabric.route_in_sel[r].next = self.loader.route_in_sel[r].val();
        }
        self.fabric.cfg_unit_valid.next = self.loader.cfg_unit_valid.val();
        self.fabric.cfg_unit_id.next = self.loader.cfg_unit_id.val();
        self.fabric.cfg_opcode.next = self.loader.cfg_opcode.val();
        self.fabric.cfg_imm_en.next = self.loader.cfg_imm_en.val();
        self.fabric.cfg_imm.next = self.loader.cfg_imm.val();
        self.fabric.cfg_store.next = self.loader.cfg_store.val();
        self.fabric.cfg_indexed.next = self.loader.cfg_indexed.val();
        // threads in: held while configuring or while D threads are outstanding
        self.open.next =
            !(self.control.cfg_busy.val() | self.loader.busy.val() | self.load_pending.q.val())
                & (self.credits.q.val() != self.credit_limit.val());
        self.port1.next = self.turn.q.val() & self.loader.replicas2.val();
        self.fabric.thread_valid[0].next =
            self.control.thr_valid.val() & self.open.val() & !self.port1.val();
        self.fabric.thread_valid[1].next =
            self.control.thr_valid.val() & self.open.val() & self.port1.val();
        self.fabric.thread_tid[0].next = self.control.thr_id.val();
        self.fabric.thread_tid[1].next = self.control.thr_id.val();
        self.control.thr_ready.next = self.open.val() & self.fabric.thread_ready[0].val();
        if self.port1.val() {
            self.control.thr_ready.next = self.open.val() & self.fabric.thread_ready[1].val();
        }
        self.injected.next = self.control.thr_valid.val() & self.control.thr_ready.val();
        self.turn.d.next = (self.turn.q.val() ^ self.injected.val()) & self.loader.replicas2.val();
        if self.loader.busy.val() {
            self.turn.d.next = false;
        }
        // threads out: per-port queues, merged round robin into the terminator
        for k in 0..2 {
            self.queue[k].push.next = self.fabric.done_valid[k].val();
            self.queue[k].push_tid.next = self.fabric.done_tid[k].val();
            self.queue[k].push_taken.next = self.fabric.done_data[k].val().get_bit(0);
        }
        self.take1.next = self.queue[1].out_valid.val()
            & (self.merge_turn.q.val() | !self.queue[0].out_valid.val());
        self.control.fin_valid.next = self.queue[0].out_valid.val() | self.queue[1].out_valid.val();
        self.control.fin_id.next = self.queue[0].out_tid.val();
        self.control.fin_taken.next = self.queue[0].out_taken.val();
        if self.take1.val() {
            self.control.fin_id.next = self.queue[1].out_tid.val();
            self.control.fin_taken.next = self.queue[1].out_taken.val();
        }
        self.queue[0].out_ready.next = self.control.fin_ready.val() & !self.take1.val();
        self.queue[1].out_ready.next = self.control.fin_ready.val() & self.take1.val();
        self.retired.next = self.control.fin_valid.val() & self.control.fin_ready.val();
        if self.retired.val() {
            self.merge_turn.d.next = !self.take1.val();
        }
        if self.injected.val() & !self.retired.val() {
            self.credits.d.next = self.credits.q.val() + self.credit_one.val();
        }
        if self.retired.val() & !self.injected.val() {
            self.credits.d.next = self.credits.q.val() - self.credit_one.val();
        }
        // data memory: the fabric's ports 0..7
        for m in 0..8 {
            self.mem_req_valid[m].next = self.fabric.mem_req_valid[m].val();
            self.fabric.mem_req_ready[m].next = self.mem_req_ready[m].val();
            self.mem_req_addr[m].next = self.fabric.mem_req_addr[m].val();
            self.mem_req_data[m].next = self.fabric.mem_req_data[m].val();
            self.mem_req_write[m].next = self.fabric.mem_req_write[m].val();
            self.mem_req_tag[m].next = self.fabric.mem_req_tag[m].val();
            self.fabric.mem_resp_valid[m].next = self.mem_resp_valid[m].val();
            self.fabric.mem_resp_tag[m].next = self.mem_resp_tag[m].val();
            self.fabric.mem_resp_data[m].next = self.mem_resp_data[m].val();
        }
        // live values: the fabric's ports 8, 9 through the port into the cache
        for p in 0..2 {
            self.lv_port.req_valid[p].next = self.fabric.mem_req_valid[8 + p].val();
            self.fabric.mem_req_ready[8 + p].next = self.lv_port.req_ready[p].val();
            self.lv_port.req_addr[p].next = self.fabric.mem_req_addr[8 + p].val();
            self.lv_port.req_data[p].next = self.fabric.mem_req_data[8 + p].val();
            self.lv_port.req_write[p].next = self.fabric.mem_req_write[8 + p].val();
            self.lv_port.req_tag[p].next = self.fabric.mem_req_tag[8 + p].val();
            self.fabric.mem_resp_valid[8 + p].next = self.lv_port.resp_valid[p].val();
            self.fabric.mem_resp_tag[8 + p].next = self.lv_port.resp_tag[p].val();
            self.fabric.mem_resp_data[8 + p].next = self.lv_port.resp_data[p].val();
        }
        self.lvc.req_valid.next = self.lv_port.lvc_req_valid.val();
        self.lv_port.lvc_req_ready.next = self.lvc.req_ready.val();
        self.lvc.req_write.next = self.lv_port.lvc_req_write.val();
        self.lvc.req_addr.next = self.lv_port.lvc_req_addr.val();
        self.lvc.req_wdata.next = self.lv_port.lvc_req_wdata.val();
        self.lvc.req_id.next = self.lv_port.lvc_req_id.val();
        self.lv_port.lvc_resp_valid.next = self.lvc.resp_valid.val();
        self.lvc.resp_ready.next = self.lv_port.lvc_resp_ready.val();
        self.lv_port.lvc_resp_id.next = self.lvc.resp_id.val();
        self.lv_port.lvc_resp_data.next = self.lvc.resp_data.val();
        self.lv_mem_req_valid.next = self.lvc.mem_req_valid.val();
        self.lvc.mem_req_ready.next = self.lv_mem_req_ready.val();
        self.lv_mem_req_write.next = self.lvc.mem_req_write.val();
        self.lv_mem_req_tag.next = self.lvc.mem_req_tag.val();
        self.lv_mem_req_index.next = self.lvc.mem_req_index.val();
        self.lv_mem_req_data.next = self.lvc.mem_req_data.val();
        self.lv_mem_req_bank.next = self.lvc.mem_req_bank.val();
        self.lvc.mem_resp_valid.next = self.lv_mem_resp_valid.val();
        self.lvc.mem_resp_bank.next = self.lv_mem_resp_bank.val();
        self.lvc.mem_resp_data.next = self.lv_mem_resp_data.val();
        self.lvc.flush.next = self.lv_flush.val();
        self.lv_flush_ready.next = self.lvc.flush_ready.val();
        self.lv_flushing.next = self.lvc.flushing.val();
        // state and trace out
        self.running.next = self.control.running.val();
        self.cur_block.next = self.control.cur_block.val();
        self.kernel_done.next = self.control.kernel_done.val();
        self.in_flight.next = self.control.in_flight.val();
        self.nonempty.next = self.control.nonempty.val();
        self.cfg_busy.next = self.control.cfg_busy.val();
        self.cfg_block.next = self.control.cfg_block.val();
        self.loading.next = self.loader.busy.val();
        self.inject.next = self.injected.val();
        self.inject_id.next = self.control.thr_id.val();
        self.inject_port.next = self.port1.val();
        self.retire.next = self.retired.val();
        self.retire_id.next = self.control.fin_id.val();
        self.retire_taken.next = self.control.fin_taken.val();
        self.fabric_busy.next = self.fabric.busy.val();
        self.error.next = self.fabric.tid_error.val()
            | self.fabric.misrouted.val()
            | self.lv_port.addr_error.val()
            | self.loader.prog_error.val()
            | self.queue[0].overflow.val()
            | self.queue[1].overflow.val();
        if self.reset.val() {
            self.cfg_seen.d.next = false;
            self.load_pending.d.next = false;
            self.turn.d.next = false;
            self.merge_turn.d.next = false;
            self.credits.d.next = self.credit_zero.val();
        }
    }
}
