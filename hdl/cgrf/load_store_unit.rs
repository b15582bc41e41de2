//! Load/store unit, LDSTU (`vgiw-control-flow-coalescing.txt` §3.5 "Load/store units";
//! SPEC §6): issues one memory operation per cycle and keeps the thread of each
//! outstanding one in a reservation buffer, so completions in any order are forwarded
//! as tokens at once: threads overtake blocked ones.
//!
//! ```text
//!  in (vc, tid, addr, data) ─> lowest free entry e ─> mem_req (addr, data, write, tag = e)
//!                               entry e: busy, vc, tid
//!  mem_resp (tag, data) ─────> entry tag: done, data
//!  done entries ─> round robin ─> out (vc, tid, load data | 0) ─> entry freed
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `is_store` | in | 1 | configuration: 0 load, 1 store |
//! | `in_valid`, `in_ready` | in, out | 1, 1 | operation handshake |
//! | `in_vc`, `in_tid` | in | VB, 16 | the thread |
//! | `in_a`, `in_b` | in | 32, 32 | address, store data (ignored by a load) |
//! | `mem_req_valid`, `mem_req_ready` | out, in | 1, 1 | memory request handshake |
//! | `mem_req_addr`, `mem_req_data`, `mem_req_write`, `mem_req_tag` | out | 32, 32, 1, TW | the request; tag = its reservation entry |
//! | `mem_resp_valid`, `mem_resp_tag`, `mem_resp_data` | in | 1, TW, 32 | a completion (always accepted), any order |
//! | `out_valid`, `out_ready` | out, in | 1, 1 | result token handshake |
//! | `out_vc`, `out_tid`, `out_data` | out | VB, 16, 32 | load: the data; store: a control token (data 0); all 0 when `out_valid` is low |
//! | `outstanding` | out | NW | reservation entries in use |
//!
//! The input is the fire port of a token buffer (`cgrf/token_buffer.rs`: `out_vc`,
//! `out_tid`, `out_a`, `out_b`): the fabric puts the unit's token buffer in front and
//! the LDSTU stores no operands.
//!
//! Timing: the request is combinational from the input (`mem_req_valid = in_valid &
//! free entry`, `in_ready = free entry & mem_req_ready`); a response on edge `t` is
//! presented as a token from cycle `t + 1`. One operation issues and one token leaves
//! per cycle. An entry is held from its request edge to the cycle after its token's
//! edge: with a memory of latency `M` (request edge to response edge) that is `M + 2`
//! cycles, so the unit sustains one operation per cycle when `RB >= M + 2` (measured
//! in `testbenches/tests/load_store_unit.rs`: 1.0 token/cycle at `M = 8`, `RB = 10`).
//!
//! Storage: `RB x (2 + VB + 16 + 32)` + `TW` (round-robin pointer) flip-flops.
//!
//! Choices where the paper is silent:
//! - Request and response carry a tag (the reservation entry) instead of the thread
//!   id: the memory side needs `TW` bits, not `VB + 16`.
//! - A new operation takes the lowest free entry; completed entries leave round robin
//!   after the last one that left, so none waits more than `RB - 1` tokens.
//! - An entry freed on an edge is reusable from the next cycle (the free search reads
//!   registers only, so `in_ready` never depends on `out_ready`).
//! - The response port has no ready: the memory may answer any outstanding tag on any
//!   cycle. A response for a tag that is free or already answered is ignored (it
//!   changes nothing), so a faulty memory cannot forge a token.
//! - A store's token carries data 0; its response data is ignored.
//! - Reset frees every entry (operations in flight are forgotten; responses to them
//!   are then ignored).
use crate::lib::priority_encoder::PriorityEncoder;
use crate::lib::round_robin_arbiter::RoundRobinArbiter;
use rust_hdl::prelude::*;

/// LDSTU with an `RB`-entry reservation buffer; `2^VB` virtual channels;
/// `TW = max(1, clog2(RB))`, `NW = clog2(RB + 1)`.
#[derive(LogicBlock)]
pub struct LoadStoreUnit<const VB: usize, const RB: usize, const TW: usize, const NW: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: frees every entry.
    pub reset: Signal<In, Bit>,
    // configuration
    /// 0: load, 1: store.
    pub is_store: Signal<In, Bit>,
    // operation in (a token buffer's fire port)
    /// An operation is offered.
    pub in_valid: Signal<In, Bit>,
    /// A reservation entry is free and the memory takes a request.
    pub in_ready: Signal<Out, Bit>,
    pub in_vc: Signal<In, Bits<VB>>,
    pub in_tid: Signal<In, Bits<16>>,
    /// Address.
    pub in_a: Signal<In, Bits<32>>,
    /// Store data.
    pub in_b: Signal<In, Bits<32>>,
    // memory request
    /// A request is presented (an operation is offered and an entry is free).
    pub mem_req_valid: Signal<Out, Bit>,
    /// The memory takes the request on this edge.
    pub mem_req_ready: Signal<In, Bit>,
    pub mem_req_addr: Signal<Out, Bits<32>>,
    pub mem_req_data: Signal<Out, Bits<32>>,
    pub mem_req_write: Signal<Out, Bit>,
    /// The reservation entry the response must name.
    pub mem_req_tag: Signal<Out, Bits<TW>>,
    // memory response (any order, always accepted)
    pub mem_resp_valid: Signal<In, Bit>,
    pub mem_resp_tag: Signal<In, Bits<TW>>,
    /// Load data (ignored for stores).
    pub mem_resp_data: Signal<In, Bits<32>>,
    // result token out
    /// A completed operation is presented.
    pub out_valid: Signal<Out, Bit>,
    /// The consumer takes the token on this edge.
    pub out_ready: Signal<In, Bit>,
    pub out_vc: Signal<Out, Bits<VB>>,
    pub out_tid: Signal<Out, Bits<16>>,
    pub out_data: Signal<Out, Bits<32>>,
    /// Reservation entries in use.
    pub outstanding: Signal<Out, Bits<NW>>,
    /// Entry holds an operation (issued, not yet forwarded).
    busy: [DFF<Bit>; RB],
    /// Entry's response arrived.
    done: [DFF<Bit>; RB],
    entry_vc: [DFF<Bits<VB>>; RB],
    entry_tid: [DFF<Bits<16>>; RB],
    entry_data: [DFF<Bits<32>>; RB],
    /// Last entry forwarded (round-robin pointer).
    last: DFF<Bits<TW>>,
    free_pick: PriorityEncoder<RB, TW>,
    done_pick: RoundRobinArbiter<RB, TW>,
    free_mask: Signal<Local, Bits<RB>>,
    done_mask: Signal<Local, Bits<RB>>,
    count: Signal<Local, Bits<NW>>,
    issue: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    ids: [Constant<Bits<TW>>; RB],
    onehot: [Constant<Bits<RB>>; RB],
    zero_mask: Constant<Bits<RB>>,
    count_one: Constant<Bits<NW>>,
    count_zero: Constant<Bits<NW>>,
    zero_tag: Constant<Bits<TW>>,
    zero_vc: Constant<Bits<VB>>,
    zero16: Constant<Bits<16>>,
    zero32: Constant<Bits<32>>,
}

impl<const VB: usize, const RB: usize, const TW: usize, const NW: usize> Default
    for LoadStoreUnit<VB, RB, TW, NW>
{
    fn default() -> Self {
        assert!(
            RB >= 1,
            "a load/store unit needs at least one reservation entry"
        );
        assert!(
            (1..=16).contains(&VB),
            "VB (virtual channel bits) must be 1..=16, got {VB}"
        );
        assert_eq!(TW, clog2(RB).max(1), "TW must be max(1, clog2(RB))");
        assert_eq!(NW, clog2(RB + 1), "NW must be clog2(RB + 1)");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            is_store: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_vc: Default::default(),
            in_tid: Default::default(),
            in_a: Default::default(),
            in_b: Default::default(),
            mem_req_valid: Default::default(),
            mem_req_ready: Default::default(),
            mem_req_addr: Default::default(),
            mem_req_data: Default::default(),
            mem_req_write: Default::default(),
            mem_req_tag: Default::default(),
            mem_resp_valid: Default::default(),
            mem_resp_tag: Default::default(),
            mem_resp_data: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_vc: Default::default(),
            out_tid: Default::default(),
            out_data: Default::default(),
            outstanding: Default::default(),
            busy: array_init::array_init(|_| Default::default()),
            done: array_init::array_init(|_| Default::default()),
            entry_vc: array_init::array_init(|_| Default::default()),
            entry_tid: array_init::array_init(|_| Default::default()),
            entry_data: array_init::array_init(|_| Default::default()),
            last: Default::default(),
            free_pick: Default::default(),
            done_pick: Default::default(),
            free_mask: Default::default(),
            done_mask: Default::default(),
            count: Default::default(),
            issue: Default::default(),
            pop: Default::default(),
            ids: array_init::array_init(|i| Constant::new(Bits::from(i as u64))),
            onehot: array_init::array_init(|i| {
                let mut v = Bits::<RB>::default();
                v.set_bits::<1>(i, Bits::<1>::from(true));
                Constant::new(v)
            }),
            zero_mask: Constant::new(Bits::default()),
            count_one: Constant::new(Bits::from(1u64)),
            count_zero: Constant::new(Bits::default()),
            zero_tag: Constant::new(Bits::default()),
            zero_vc: Constant::new(Bits::default()),
            zero16: Constant::new(Bits::default()),
            zero32: Constant::new(Bits::default()),
        }
    }
}

impl<const VB: usize, const RB: usize, const TW: usize, const NW: usize> Logic
    for LoadStoreUnit<VB, RB, TW, NW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, last);
        self.free_mask.next = self.zero_mask.val();
        self.done_mask.next = self.zero_mask.val();
        self.count.next = self.count_zero.val();
        for i in 0..RB {
            self.busy[i].clock.next = self.clock.val();
            self.done[i].clock.next = self.clock.val();
            self.entry_vc[i].clock.next = self.clock.val();
            self.entry_tid[i].clock.next = self.clock.val();
            self.entry_data[i].clock.next = self.clock.val();
            self.busy[i].d.next = self.busy[i].q.val();
            self.done[i].d.next = self.done[i].q.val();
            self.entry_vc[i].d.next = self.entry_vc[i].q.val();
            self.entry_tid[i].d.next = self.entry_tid[i].q.val();
            self.entry_data[i].d.next = self.entry_data[i].q.val();
            if self.busy[i].q.val() {
                self.count.next = self.count.val() + self.count_one.val();
            } else {
                self.free_mask.next = self.free_mask.val() | self.onehot[i].val();
            }
            if self.done[i].q.val() {
                self.done_mask.next = self.done_mask.val() | self.onehot[i].val();
            }
        }
        self.outstanding.next = self.count.val();
        // Issue: the lowest free entry tags the request.
        self.free_pick.mask.next = self.free_mask.val();
        self.mem_req_valid.next = self.in_valid.val() & self.free_pick.valid.val();
        self.in_ready.next = self.free_pick.valid.val() & self.mem_req_ready.val();
        self.issue.next = self.in_valid.val() & self.in_ready.val();
        self.mem_req_addr.next = self.in_a.val();
        self.mem_req_data.next = self.in_b.val();
        self.mem_req_write.next = self.is_store.val();
        self.mem_req_tag.next = self.free_pick.index.val();
        // Forward: completed entries round robin.
        self.done_pick.request.next = self.done_mask.val();
        self.done_pick.last.next = self.last.q.val();
        self.out_valid.next = self.done_pick.grant_valid.val();
        self.out_vc.next = self.zero_vc.val();
        self.out_tid.next = self.zero16.val();
        self.out_data.next = self.zero32.val();
        for i in 0..RB {
            if self.out_valid.val() & (self.done_pick.grant.val() == self.ids[i].val()) {
                self.out_vc.next = self.entry_vc[i].q.val();
                self.out_tid.next = self.entry_tid[i].q.val();
                self.out_data.next = self.entry_data[i].q.val();
            }
        }
        self.pop.next = self.out_valid.val() & self.out_ready.val();
        if self.pop.val() {
            self.last.d.next = self.done_pick.grant.val();
        }
        for i in 0..RB {
            if self.issue.val() & (self.free_pick.index.val() == self.ids[i].val()) {
                self.busy[i].d.next = true;
                self.done[i].d.next = false;
                self.entry_vc[i].d.next = self.in_vc.val();
                self.entry_tid[i].d.next = self.in_tid.val();
            }
            if self.mem_resp_valid.val()
                & (self.mem_resp_tag.val() == self.ids[i].val())
                & self.busy[i].q.val()
                & !self.done[i].q.val()
            {
                self.done[i].d.next = true;
                self.entry_data[i].d.next = self.mem_resp_data.val();
                if self.is_store.val() {
                    self.entry_data[i].d.next = self.zero32.val();
                }
            }
            if self.pop.val() & (self.done_pick.grant.val() == self.ids[i].val()) {
                self.busy[i].d.next = false;
                self.done[i].d.next = false;
            }
            if self.reset.val() {
                self.busy[i].d.next = false;
                self.done[i].d.next = false;
            }
        }
        if self.reset.val() {
            self.last.d.next = self.zero_tag.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Lsu = LoadStoreUnit<2, 3, 2, 2>;

    #[test]
    fn synthesizes() {
        let mut uut = Lsu::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("load_store_unit", &vlog).unwrap();
    }

    /// Two loads; the second one's response comes first and its token leaves first.
    #[test]
    fn later_load_overtakes() {
        let mut uut = Lsu::default();
        uut.connect_all();
        let edge = |uut: &mut Lsu| {
            uut.clock.next = Clock::from(true);
            assert!(simulate(uut, 100));
            uut.clock.next = Clock::from(false);
            assert!(simulate(uut, 100));
        };
        uut.reset.next = true;
        assert!(simulate(&mut uut, 100));
        edge(&mut uut);
        uut.reset.next = false;
        uut.mem_req_ready.next = true;
        uut.out_ready.next = true;
        let mut tags = vec![];
        for tid in [10u64, 11] {
            uut.in_valid.next = true;
            uut.in_tid.next = tid.into();
            uut.in_a.next = (tid * 4).into();
            assert!(simulate(&mut uut, 100));
            assert!(uut.in_ready.val() && uut.mem_req_valid.val());
            tags.push(uut.mem_req_tag.val());
            edge(&mut uut);
        }
        assert_ne!(tags[0], tags[1]);
        uut.in_valid.next = false;
        uut.mem_resp_valid.next = true;
        uut.mem_resp_tag.next = tags[1];
        uut.mem_resp_data.next = 0xbeefu64.into();
        assert!(simulate(&mut uut, 100));
        assert!(!uut.out_valid.val());
        edge(&mut uut);
        uut.mem_resp_valid.next = false;
        assert!(simulate(&mut uut, 100));
        assert!(uut.out_valid.val());
        assert_eq!(uut.out_tid.val().index(), 11);
        assert_eq!(uut.out_data.val().index(), 0xbeef);
        assert_eq!(uut.outstanding.val().index(), 2);
    }
}
