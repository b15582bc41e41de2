//! Memory tile of the MT-CGRF fabric: a token buffer in front of a load/store unit
//! (`vgiw-control-flow-coalescing.txt` §3.5 "Load/store units" and "Live value units";
//! SPEC §6). The same tile is the fabric's LDSTU (its port goes to memory) and its
//! live value unit (its port goes to the live value cache): an LVU reads or writes the
//! word of (configured live value id, thread id), which is the tile's indexed mode with
//! the id's region as base.
//!
//! ```text
//!  a, b ─> token_buffer (1 or 2 operands) ─> address: indexed ? base + 4 x tid : a ─> load_store_unit ─> mem
//!                                            data:    indexed ? a : b                        │
//!                                                                          out (load word | store done)
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `cfg_valid`, `cfg_store`, `cfg_indexed`, `cfg_base` | in | 1, 1, 1, 32 | configuration write (while idle) |
//! | `a_*`, `b_*` | token links (`cgrf/mod.rs`) | | operands: indexed load a = trigger; indexed store a = data; else a = address, b = store data |
//! | `out_*` | out link | | load: the word; store: a control token (data 0) once memory took the write |
//! | `mem_*` | memory port | | as `load_store_unit.rs` (16-entry reservation buffer, 4-bit tags) |
//! | `busy`, `tid_error` | out | 1, 1 | an operand or an operation is held; the token buffer's sticky error |
//!
//! Timing: as the token buffer (operand to fire: 1 cycle) then the LDSTU (request
//! combinational from the fire; response on edge `t` leaves from `t + 1`). One memory
//! operation per cycle.
//!
//! Storage: token buffer (`VCS x 115 + VB + 3`) + LDSTU (`16 x (50 + VB) + 4`) +
//! configuration 34 flip-flops.
//!
//! Choices where the paper is silent: the indexed mode (address from the thread id)
//! saves a compute unit per array access of the form `x[tid]`, the common case of a
//! basic block over a thread's own element; words are 4 bytes.
use crate::cgrf::load_store_unit::LoadStoreUnit;
use crate::cgrf::token_buffer::TokenBuffer;
use crate::lib::widen::Widen;
use rust_hdl::prelude::*;

/// Memory tile with `VCS = 2^VB` virtual channels and a 16-entry reservation buffer.
#[derive(LogicBlock)]
pub struct MemoryTile<const VCS: usize, const VB: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: empties the buffer and the reservation entries.
    pub reset: Signal<In, Bit>,
    // configuration
    pub cfg_valid: Signal<In, Bit>,
    /// 0: load, 1: store.
    pub cfg_store: Signal<In, Bit>,
    /// Address `base + 4 x tid` instead of operand a.
    pub cfg_indexed: Signal<In, Bit>,
    pub cfg_base: Signal<In, Bits<32>>,
    // operand link a
    pub a_valid: Signal<In, Bit>,
    pub a_ready: Signal<Out, Bit>,
    pub a_vc: Signal<In, Bits<VB>>,
    pub a_tid: Signal<In, Bits<16>>,
    pub a_data: Signal<In, Bits<32>>,
    // operand link b
    pub b_valid: Signal<In, Bit>,
    pub b_ready: Signal<Out, Bit>,
    pub b_vc: Signal<In, Bits<VB>>,
    pub b_tid: Signal<In, Bits<16>>,
    pub b_data: Signal<In, Bits<32>>,
    // result link
    pub out_valid: Signal<Out, Bit>,
    pub out_ready: Signal<In, Bit>,
    pub out_vc: Signal<Out, Bits<VB>>,
    pub out_tid: Signal<Out, Bits<16>>,
    pub out_data: Signal<Out, Bits<32>>,
    // memory port
    pub mem_req_valid: Signal<Out, Bit>,
    pub mem_req_ready: Signal<In, Bit>,
    pub mem_req_addr: Signal<Out, Bits<32>>,
    pub mem_req_data: Signal<Out, Bits<32>>,
    pub mem_req_write: Signal<Out, Bit>,
    pub mem_req_tag: Signal<Out, Bits<4>>,
    pub mem_resp_valid: Signal<In, Bit>,
    pub mem_resp_tag: Signal<In, Bits<4>>,
    pub mem_resp_data: Signal<In, Bits<32>>,
    // status
    pub busy: Signal<Out, Bit>,
    pub tid_error: Signal<Out, Bit>,
    store: DFF<Bit>,
    indexed: DFF<Bit>,
    base: DFF<Bits<32>>,
    buffer: TokenBuffer<VCS, VB>,
    lsu: LoadStoreUnit<VB, 16, 4, 5>,
    tid_wide: Widen<16, 32>,
    two: Constant<Bits<32>>,
    unused_c: Constant<Bits<32>>,
    one_operand: Constant<Bits<2>>,
    two_operands: Constant<Bits<2>>,
    no_vc: Constant<Bits<VB>>,
    no_tid: Constant<Bits<16>>,
}

impl<const VCS: usize, const VB: usize> Default for MemoryTile<VCS, VB> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cfg_valid: Default::default(),
            cfg_store: Default::default(),
            cfg_indexed: Default::default(),
            cfg_base: Default::default(),
            a_valid: Default::default(),
            a_ready: Default::default(),
            a_vc: Default::default(),
            a_tid: Default::default(),
            a_data: Default::default(),
            b_valid: Default::default(),
            b_ready: Default::default(),
            b_vc: Default::default(),
            b_tid: Default::default(),
            b_data: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_vc: Default::default(),
            out_tid: Default::default(),
            out_data: Default::default(),
            mem_req_valid: Default::default(),
            mem_req_ready: Default::default(),
            mem_req_addr: Default::default(),
            mem_req_data: Default::default(),
            mem_req_write: Default::default(),
            mem_req_tag: Default::default(),
            mem_resp_valid: Default::default(),
            mem_resp_tag: Default::default(),
            mem_resp_data: Default::default(),
            busy: Default::default(),
            tid_error: Default::default(),
            store: Default::default(),
            indexed: Default::default(),
            base: Default::default(),
            buffer: Default::default(),
            lsu: Default::default(),
            tid_wide: Default::default(),
            two: Constant::new(Bits::<32>::from(2u64)),
            unused_c: Constant::new(Bits::<32>::default()),
            one_operand: Constant::new(Bits::<2>::from(1u64)),
            two_operands: Constant::new(Bits::<2>::from(2u64)),
            no_vc: Constant::new(Bits::<VB>::default()),
            no_tid: Constant::new(Bits::<16>::default()),
        }
    }
}

impl<const VCS: usize, const VB: usize> Logic for MemoryTile<VCS, VB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, store, indexed, base);
        self.buffer.clock.next = self.clock.val();
        self.buffer.reset.next = self.reset.val();
        self.lsu.clock.next = self.clock.val();
        self.lsu.reset.next = self.reset.val();
        if self.cfg_valid.val() {
            self.store.d.next = self.cfg_store.val();
            self.indexed.d.next = self.cfg_indexed.val();
            self.base.d.next = self.cfg_base.val();
        }
        if self.reset.val() {
            self.store.d.next = false;
            self.indexed.d.next = false;
            self.base.d.next = 0.into();
        }
        // Only a store by address needs two operands.
        self.buffer.cfg_valid.next = self.cfg_valid.val();
        self.buffer.cfg_operands.next = self.one_operand.val();
        if self.cfg_store.val() & !self.cfg_indexed.val() {
            self.buffer.cfg_operands.next = self.two_operands.val();
        }
        self.buffer.a_valid.next = self.a_valid.val();
        self.buffer.a_vc.next = self.a_vc.val();
        self.buffer.a_tid.next = self.a_tid.val();
        self.buffer.a_data.next = self.a_data.val();
        self.a_ready.next = self.buffer.a_ready.val();
        self.buffer.b_valid.next = self.b_valid.val();
        self.buffer.b_vc.next = self.b_vc.val();
        self.buffer.b_tid.next = self.b_tid.val();
        self.buffer.b_data.next = self.b_data.val();
        self.b_ready.next = self.buffer.b_ready.val();
        self.buffer.c_valid.next = false;
        self.buffer.c_vc.next = self.no_vc.val();
        self.buffer.c_tid.next = self.no_tid.val();
        self.buffer.c_data.next = self.unused_c.val();
        // The fired entry becomes the memory operation.
        self.tid_wide.narrow.next = self.buffer.out_tid.val();
        self.lsu.is_store.next = self.store.q.val();
        self.lsu.in_valid.next = self.buffer.out_valid.val();
        self.buffer.out_ready.next = self.lsu.in_ready.val();
        self.lsu.in_vc.next = self.buffer.out_vc.val();
        self.lsu.in_tid.next = self.buffer.out_tid.val();
        if self.indexed.q.val() {
            self.lsu.in_a.next = self.base.q.val() + (self.tid_wide.wide.val() << self.two.val());
            self.lsu.in_b.next = self.buffer.out_a.val();
        } else {
            self.lsu.in_a.next = self.buffer.out_a.val();
            self.lsu.in_b.next = self.buffer.out_b.val();
        }
        self.mem_req_valid.next = self.lsu.mem_req_valid.val();
        self.lsu.mem_req_ready.next = self.mem_req_ready.val();
        self.mem_req_addr.next = self.lsu.mem_req_addr.val();
        self.mem_req_data.next = self.lsu.mem_req_data.val();
        self.mem_req_write.next = self.lsu.mem_req_write.val();
        self.mem_req_tag.next = self.lsu.mem_req_tag.val();
        self.lsu.mem_resp_valid.next = self.mem_resp_valid.val();
        self.lsu.mem_resp_tag.next = self.mem_resp_tag.val();
        self.lsu.mem_resp_data.next = self.mem_resp_data.val();
        self.out_valid.next = self.lsu.out_valid.val();
        self.lsu.out_ready.next = self.out_ready.val();
        self.out_vc.next = self.lsu.out_vc.val();
        self.out_tid.next = self.lsu.out_tid.val();
        self.out_data.next = self.lsu.out_data.val();
        self.busy.next = self.buffer.busy.val() | self.lsu.outstanding.val().any();
        self.tid_error.next = self.buffer.tid_error.val();
    }
}
