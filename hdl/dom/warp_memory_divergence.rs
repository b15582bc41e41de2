//! Diverge on miss for one warp (`diverge-on-miss.txt` §4.1, §4.3, §5.1; SPEC §4):
//! the warp's MDT, one MCB entry per MDT entry and a one-warp slip controller, driven
//! from the warp's load stream.
//!
//! ```text
//!  op, pc, hit_mask, addr ──> E = active, H = E&hit, X = E&!hit
//!        │   divergent (H,X != 0), !forbid, PC found or entry free ──> MDT merge/alloc X,
//!        │                                         MCB[target] waits X on their lines
//!        │   X != 0 otherwise ──────────────────> block (blocking SIMD: replay the op)
//!        └── completes at a PC found in the MDT ──> re-enable that entry's ready threads
//!  reconverge (barrier, call, return) ──────────> re-enable every entry's ready threads
//!  fill line ──> every MCB entry: waiting threads on the line -> ready, data captured
//!  active = branch_mask & !waiting     slip: event = op executes (refused too), slipped = op diverged
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | clock, reset | in | 1 | reset: MDT and MCB empty, counters 0, max-slip `INIT` |
//! | branch_mask | in | LANES | TOS mask of the warp's branch divergence stack |
//! | op | in | 1 | the warp executes a load at `pc` this cycle |
//! | pc | in | PCW | PC of the load |
//! | hit_mask | in | LANES | per-thread cache result (1 = hit); only executing threads matter |
//! | addr | in | NA | per-lane byte addresses of the load |
//! | reconverge | in | 1 | forced reconvergence (barrier, call, return); beats `op` |
//! | fill, fill_addr, fill_data | in | 1, AW, ND | a line returns (see `mcb_entry`) |
//! | raise, lower | in | 1 | max-slip + `STEP` / - `STEP` (saturating) from the core's `adaptive_diff` |
//! | active | out | LANES | comb.: threads that execute: `branch_mask & !waiting` |
//! | block | out | 1 | comb.: the load cannot complete: stall and replay it (blocking SIMD) |
//! | release_mask | out | LANES | comb.: threads re-enabled on this edge (active next cycle) |
//! | release_data | out | ND | comb.: their loaded values (to the register file) |
//! | waiting | out | LANES | registered: threads masked off by the MDT (waiting or ready) |
//! | ready | out | LANES | registered: masked-off threads whose data has arrived |
//! | slip_limit | out | LANES | registered: the warp's slip-limit bitmask |
//! | max_slip | out | 8 | registered: the max-slip register |
//! | mdt_valid | out | M | registered: MDT entries in use |
//! | mdt_full, mcb_busy | out | 1, M | registered: MDT full; MCB entries holding threads |
//! | pc_found, pc_waiting | out | 1, LANES | comb.: the MDT holds `pc`; its masked-off threads |
//! | mem_waiting | out | LANES | registered: masked-off threads still waiting on memory |
//! | pending_addr | out | NA | registered: per lane the address it waits on (0 elsewhere), for the fill crossbar |
//! | tail, slip_grow, slip_shrink | out | LANES, 1, 1 | comb.: slip counter status (see `slip_controller`) |
//!
//! Latency: decisions are combinational in the op's cycle; state changes on its edge.
//! Storage: MDT `M x (PCW + LANES)` + MCB `M x LANES x (2 + AW + DW)` + counters
//! `LANES x 8` + slip limit `LANES` + max-slip 8.
//!
//! Choices where the paper is silent:
//! - Blocking (allocation refused: MDT full, slip limit, or every executing thread
//!   missed) is a replay: the op changes nothing, `block` tells the core to stall the
//!   warp and re-issue the load until its lines are in (§4.1 step 3's fallback).
//! - Re-enabling happens when the op at the entry's PC completes (a blocked op
//!   re-enables nothing), or on `reconverge`, which re-enables the ready threads of
//!   every entry at once (§4.3 repeats "until the MDT is empty"; the core repeats
//!   `reconverge` while `waiting` is not empty). Threads still waiting stay masked off.
//! - Released threads take their value from the MCB; they rejoin `active` next cycle.
//! - Every load the warp executes is a slip event with its lookup's hits, a refused
//!   (blocking) one included; `slipped` is the MDT's accept; `considered` is
//!   `branch_mask`. §5.1: threads at the limit "are disabled and their counters get
//!   decremented when the remaining threads hit". If only completed ops counted, a warp
//!   whose leaders reached the limit would be stuck: its divergent loads are refused
//!   (no event), and the replay of a refused load completes all-hit, which lowers
//!   nobody (the shrink rule lowers considered threads that did not hit). Counting the
//!   refused load lets its hitting tail lower the missing leaders. A replay is an event
//!   too; all-hit, it changes no counter.
use crate::dom::mcb_entry::McbEntry;
use crate::dom::mdt::Mdt;
use crate::dom::slip_controller::SlipController;
use rust_hdl::prelude::*;

/// One warp of `LANES` threads with `M` MDT/MCB entries, `PCW`-bit PCs, `AW`-bit byte
/// addresses, `2^OB`-byte lines, `DW`-bit words; `NA = LANES*AW`, `ND = LANES*DW`;
/// max-slip resets to `INIT` and moves by `STEP`.
#[derive(LogicBlock)]
pub struct WarpMemoryDivergence<
    const LANES: usize,
    const M: usize,
    const PCW: usize,
    const AW: usize,
    const OB: usize,
    const DW: usize,
    const NA: usize,
    const ND: usize,
    const INIT: usize,
    const STEP: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high.
    pub reset: Signal<In, Bit>,
    // warp state from the core
    /// TOS mask of the branch divergence stack.
    pub branch_mask: Signal<In, Bits<LANES>>,
    // load stream
    /// The warp executes a load this cycle.
    pub op: Signal<In, Bit>,
    /// PC of the load.
    pub pc: Signal<In, Bits<PCW>>,
    /// Per-thread cache result, 1 = hit.
    pub hit_mask: Signal<In, Bits<LANES>>,
    /// Per-lane byte addresses.
    pub addr: Signal<In, Bits<NA>>,
    /// Forced reconvergence (barrier, call, return); beats `op`.
    pub reconverge: Signal<In, Bit>,
    // memory returns
    /// A line returns this cycle.
    pub fill: Signal<In, Bit>,
    /// Any address in the returning line.
    pub fill_addr: Signal<In, Bits<AW>>,
    /// Per-lane word of the returning line (fill crossbar output).
    pub fill_data: Signal<In, Bits<ND>>,
    // adaptive diff
    /// Max-slip + `STEP`.
    pub raise: Signal<In, Bit>,
    /// Max-slip - `STEP`.
    pub lower: Signal<In, Bit>,
    // outputs
    /// Threads that execute this cycle.
    pub active: Signal<Out, Bits<LANES>>,
    /// The load cannot complete: stall the warp and replay it.
    pub block: Signal<Out, Bit>,
    /// Threads re-enabled on this edge.
    pub release_mask: Signal<Out, Bits<LANES>>,
    /// Loaded values of the re-enabled threads (0 in other lanes).
    pub release_data: Signal<Out, Bits<ND>>,
    /// Threads masked off by the MDT.
    pub waiting: Signal<Out, Bits<LANES>>,
    /// Masked-off threads whose data has arrived.
    pub ready: Signal<Out, Bits<LANES>>,
    /// Slip-limit bitmask.
    pub slip_limit: Signal<Out, Bits<LANES>>,
    /// Max-slip register.
    pub max_slip: Signal<Out, Bits<8>>,
    /// MDT entries in use.
    pub mdt_valid: Signal<Out, Bits<M>>,
    /// Every MDT entry in use.
    pub mdt_full: Signal<Out, Bit>,
    /// The MDT holds `pc` (comb.).
    pub pc_found: Signal<Out, Bit>,
    /// Threads masked off at `pc` (comb.).
    pub pc_waiting: Signal<Out, Bits<LANES>>,
    /// Masked-off threads still waiting on memory.
    pub mem_waiting: Signal<Out, Bits<LANES>>,
    /// Per lane, the address a waiting thread waits on (0 elsewhere): for the fill crossbar.
    pub pending_addr: Signal<Out, Bits<NA>>,
    /// MCB entries holding a waiting or ready thread.
    pub mcb_busy: Signal<Out, Bits<M>>,
    /// Considered threads whose slip counter is 0 (comb.).
    pub tail: Signal<Out, Bits<LANES>>,
    /// The slip controller's grow rule applies on this edge (comb.).
    pub slip_grow: Signal<Out, Bit>,
    /// The slip controller's shrink rule applies on this edge (comb.).
    pub slip_shrink: Signal<Out, Bit>,
    /// The memory divergence table.
    pub mdt: Mdt<LANES, M, PCW>,
    /// One MCB entry per MDT entry.
    pub mcb: [McbEntry<LANES, AW, OB, DW, NA, ND>; M],
    /// Slip counters of this warp.
    pub slip: SlipController<LANES, 1, 1, INIT, STEP>,
    e: Signal<Local, Bits<LANES>>,
    h: Signal<Local, Bits<LANES>>,
    x: Signal<Local, Bits<LANES>>,
    do_op: Signal<Local, Bit>,
    complete: Signal<Local, Bit>,
    rel: [Signal<Local, Bits<LANES>>; M],
    rel_all: Signal<Local, Bits<LANES>>,
    ready_all: Signal<Local, Bits<LANES>>,
    rdata: Signal<Local, Bits<ND>>,
    mem_wait: Signal<Local, Bits<LANES>>,
    paddr: Signal<Local, Bits<NA>>,
    busy: Signal<Local, Bits<M>>,
    onehot: [Constant<Bits<M>>; M],
    zero_lanes: Constant<Bits<LANES>>,
    zero_d: Constant<Bits<ND>>,
    zero_a: Constant<Bits<NA>>,
    zero_m: Constant<Bits<M>>,
    warp0: Constant<Bits<1>>,
}

impl<
        const LANES: usize,
        const M: usize,
        const PCW: usize,
        const AW: usize,
        const OB: usize,
        const DW: usize,
        const NA: usize,
        const ND: usize,
        const INIT: usize,
        const STEP: usize,
    > Default for WarpMemoryDivergence<LANES, M, PCW, AW, OB, DW, NA, ND, INIT, STEP>
{
    fn default() -> Self {
        assert!(M >= 1 && M <= 64, "1..=64 MDT entries");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            branch_mask: Default::default(),
            op: Default::default(),
            pc: Default::default(),
            hit_mask: Default::default(),
            addr: Default::default(),
            reconverge: Default::default(),
            fill: Default::default(),
            fill_addr: Default::default(),
            fill_data: Default::default(),
            raise: Default::default(),
            lower: Default::default(),
            active: Default::default(),
            block: Default::default(),
            release_mask: Default::default(),
            release_data: Default::default(),
            waiting: Default::default(),
            ready: Default::default(),
            slip_limit: Default::default(),
            max_slip: Default::default(),
            mdt_valid: Default::default(),
            mdt_full: Default::default(),
            pc_found: Default::default(),
            pc_waiting: Default::default(),
            mem_waiting: Default::default(),
            pending_addr: Default::default(),
            mcb_busy: Default::default(),
            tail: Default::default(),
            slip_grow: Default::default(),
            slip_shrink: Default::default(),
            mdt: Default::default(),
            mcb: array_init::array_init(|_| Default::default()),
            slip: Default::default(),
            e: Default::default(),
            h: Default::default(),
            x: Default::default(),
            do_op: Default::default(),
            complete: Default::default(),
            rel: array_init::array_init(|_| Default::default()),
            rel_all: Default::default(),
            ready_all: Default::default(),
            rdata: Default::default(),
            mem_wait: Default::default(),
            paddr: Default::default(),
            busy: Default::default(),
            onehot: array_init::array_init(|k| Constant::new(Bits::<M>::from(1u64 << k))),
            zero_lanes: Constant::new(Bits::default()),
            zero_d: Constant::new(Bits::default()),
            zero_a: Constant::new(Bits::default()),
            zero_m: Constant::new(Bits::default()),
            warp0: Constant::new(Bits::default()),
        }
    }
}

impl<
        const LANES: usize,
        const M: usize,
        const PCW: usize,
        const AW: usize,
        const OB: usize,
        const DW: usize,
        const NA: usize,
        const ND: usize,
        const INIT: usize,
        const STEP: usize,
    > Logic for WarpMemoryDivergence<LANES, M, PCW, AW, OB, DW, NA, ND, INIT, STEP>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.mdt.clock.next = self.clock.val();
        self.mdt.reset.next = self.reset.val();
        self.slip.clock.next = self.clock.val();
        self.slip.reset.next = self.reset.val();
        // Who executes the load.
        self.e.next = self.branch_mask.val() & !self.mdt.waiting.val();
        self.h.next = self.e.val() & self.hit_mask.val();
        self.x.next = self.e.val() & !self.hit_mask.val();
        self.active.next = self.e.val();
        self.do_op.next = self.op.val() & !self.reconverge.val();
        // MDT: merge or allocate the misses of a divergent load the slip controller allows.
        self.mdt.access.next = self.do_op.val();
        self.mdt.pc.next = self.pc.val();
        self.mdt.miss_mask.next = self.x.val();
        self.mdt.forbid.next = self.slip.forbid.val() | !self.h.val().any();
        self.block.next = self.mdt.refuse.val();
        self.complete.next = self.do_op.val() & !self.mdt.refuse.val();
        // Re-enable: the ready threads of the re-executed PC's entry, or of every entry.
        self.rel_all.next = self.zero_lanes.val();
        self.ready_all.next = self.zero_lanes.val();
        self.rdata.next = self.zero_d.val();
        self.mem_wait.next = self.zero_lanes.val();
        self.paddr.next = self.zero_a.val();
        self.busy.next = self.zero_m.val();
        for k in 0..M {
            self.mem_wait.next = self.mem_wait.val() | self.mcb[k].waiting.val();
            self.paddr.next = self.paddr.val() | self.mcb[k].waiting_addr.val();
            if self.mcb[k].busy.val() {
                self.busy.next = self.busy.val() | self.onehot[k].val();
            }
            self.rel[k].next = self.zero_lanes.val();
            if self.reconverge.val()
                | (self.complete.val() & (self.mdt.match_entry.val() & self.onehot[k].val()).any())
            {
                self.rel[k].next = self.mcb[k].ready.val();
            }
            self.rel_all.next = self.rel_all.val() | self.rel[k].val();
            self.ready_all.next = self.ready_all.val() | self.mcb[k].ready.val();
            self.mcb[k].clock.next = self.clock.val();
            self.mcb[k].reset.next = self.reset.val();
            self.mcb[k].capture.next = (self.mdt.target.val() & self.onehot[k].val()).any();
            self.mcb[k].capture_mask.next = self.x.val();
            self.mcb[k].addr_in.next = self.addr.val();
            self.mcb[k].fill.next = self.fill.val();
            self.mcb[k].fill_addr.next = self.fill_addr.val();
            self.mcb[k].fill_data.next = self.fill_data.val();
            self.mcb[k].release_en.next = self.rel[k].val().any();
            self.mcb[k].release_mask.next = self.rel[k].val();
            self.rdata.next = self.rdata.val() | self.mcb[k].release_data.val();
        }
        self.mdt.release_mask.next = self.rel_all.val();
        self.release_mask.next = self.rel_all.val();
        self.release_data.next = self.rdata.val();
        // Slip counters see every executed load, refused (blocking) ones too.
        self.slip.warp.next = self.warp0.val();
        self.slip.clear.next = false;
        self.slip.mem_op.next = self.do_op.val();
        self.slip.considered.next = self.branch_mask.val();
        self.slip.exec_mask.next = self.e.val();
        self.slip.hit_mask.next = self.hit_mask.val();
        self.slip.slipped.next = self.mdt.accept.val();
        self.slip.raise.next = self.raise.val();
        self.slip.lower.next = self.lower.val();
        self.waiting.next = self.mdt.waiting.val();
        self.ready.next = self.ready_all.val();
        self.slip_limit.next = self.slip.limit_mask.val();
        self.max_slip.next = self.slip.max_slip.val();
        self.mdt_valid.next = self.mdt.valid.val();
        self.mdt_full.next = self.mdt.full.val();
        self.pc_found.next = self.mdt.matched.val();
        self.pc_waiting.next = self.mdt.match_mask.val();
        self.mem_waiting.next = self.mem_wait.val();
        self.pending_addr.next = self.paddr.val();
        self.mcb_busy.next = self.busy.val();
        self.tail.next = self.slip.tail.val();
        self.slip_grow.next = self.slip.grow.val();
        self.slip_shrink.next = self.slip.shrink.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = crate::presets::WarpMemoryDivergence32::default();
        uut.connect_all();
        yosys_validate("warp_memory_divergence", &generate_verilog(&uut)).unwrap();
    }
}
