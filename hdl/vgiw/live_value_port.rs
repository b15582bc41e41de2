//! Live value port (`vgiw-control-flow-coalescing.txt` §3.4 "live value cache", §3.5
//! "Live value units"; SPEC §5, §6): puts the live value cache behind the fabric's two
//! live value units (fabric memory ports 8 and 9). Each LVU addresses the word of
//! (live value id, thread id) by byte address (`sim/cgrf/dataflow.rs`:
//! `LV_BASE + 4 x (lv x 65536 + tid)`); the port maps it to the LVC's word address
//! `{lv, tid}`, arbitrates the LVC's one request port and routes the answers back.
//!
//! ```text
//!  LVU 8 ─req─┐  round robin   ┌──> lvc req (write, {lv[LVW], tid[TIDW]}, data, id = {port, tag})
//!  LVU 9 ─req─┘                │
//!  LVU p <─resp── lvc read data for id[4] = p, tag id[3:0]
//!                 else the lowest pending write acknowledgement of port p (data 0)
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `req_valid[p]`, `req_ready[p]`, `req_addr[p]`, `req_data[p]`, `req_write[p]`, `req_tag[p]` | in, out, in.. | 1, 1, 32, 32, 1, 4 | LVU `p`'s memory request (the fabric's memory port shape) |
//! | `resp_valid[p]`, `resp_tag[p]`, `resp_data[p]` | out | 1, 4, 32 | its answer (no ready: the LVU takes every answer) |
//! | `lvc_req_*`, `lvc_resp_*` | out / in | | the LVC's request and response ports (`lvc.rs`), `lvc_resp_ready = 1` |
//! | `addr_error` | out | 1 | sticky until reset: a request outside the live value array (see below) |
//!
//! Timing: combinational request path (one request per cycle, the other port waits);
//! a read's answer is the LVC's response in its cycle; a write is acknowledged from the
//! cycle after the LVC took it, unless that port gets a read answer in the same cycle
//! (the acknowledgement waits).
//!
//! Storage: 16 pending-acknowledgement bits per port + 1 round-robin bit.
//!
//! Choices where the paper is silent:
//! - The LVC answers only reads, but the LVU (a load/store unit) frees its tag only on
//!   an answer, so writes are acknowledged here: one bit per tag (tags are unique while
//!   outstanding, so bits suffice and acknowledgements may go in any order).
//! - A request outside the array (below `LV_BASE`, not word-aligned, `lv >= 2^LVW` or
//!   `tid >= 2^TIDW`) is still passed on, with the address bits beyond the array cut,
//!   so the LVU gets its answer and nothing hangs; `addr_error` says it happened.
use crate::lib::priority_encoder::PriorityEncoder;
use crate::lib::widen::Widen;
use rust_hdl::prelude::*;

/// Live value port for `2^LVW` live values of `2^TIDW` threads; `AW = LVW + TIDW`.
#[derive(LogicBlock)]
pub struct LiveValuePort<const LVW: usize, const TIDW: usize, const AW: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: clears the acknowledgements and the error.
    pub reset: Signal<In, Bit>,
    // the two live value units
    pub req_valid: [Signal<In, Bit>; 2],
    pub req_ready: [Signal<Out, Bit>; 2],
    pub req_addr: [Signal<In, Bits<32>>; 2],
    pub req_data: [Signal<In, Bits<32>>; 2],
    pub req_write: [Signal<In, Bit>; 2],
    pub req_tag: [Signal<In, Bits<4>>; 2],
    pub resp_valid: [Signal<Out, Bit>; 2],
    pub resp_tag: [Signal<Out, Bits<4>>; 2],
    pub resp_data: [Signal<Out, Bits<32>>; 2],
    // the live value cache
    pub lvc_req_valid: Signal<Out, Bit>,
    pub lvc_req_ready: Signal<In, Bit>,
    pub lvc_req_write: Signal<Out, Bit>,
    pub lvc_req_addr: Signal<Out, Bits<AW>>,
    pub lvc_req_wdata: Signal<Out, Bits<32>>,
    pub lvc_req_id: Signal<Out, Bits<5>>,
    pub lvc_resp_valid: Signal<In, Bit>,
    pub lvc_resp_ready: Signal<Out, Bit>,
    pub lvc_resp_id: Signal<In, Bits<5>>,
    pub lvc_resp_data: Signal<In, Bits<32>>,
    pub addr_error: Signal<Out, Bit>,
    /// The last grant went to port 1.
    last: DFF<Bit>,
    pending: [DFF<Bits<16>>; 2],
    error: DFF<Bit>,
    /// This cycle's grant: port 1 (else port 0), and whether anyone requests.
    pick1: Signal<Local, Bit>,
    addr: Signal<Local, Bits<32>>,
    taken: Signal<Local, Bit>,
    lv_wide: Widen<LVW, AW>,
    tid_wide: Widen<TIDW, AW>,
    tag_wide: Widen<4, 5>,
    /// Per port: the lowest pending acknowledgement, its one-hot bit, the bit a write
    /// accepted now sets, and whether the LVC's read answer is for this port.
    lowest: [PriorityEncoder<16, 4>; 2],
    ack_bit: [Signal<Local, Bits<16>>; 2],
    set_bit: [Signal<Local, Bits<16>>; 2],
    read_here: [Signal<Local, Bit>; 2],
    /// Address bits that must be 0 in the array, the array's top bit, shift amounts.
    outside: Constant<Bits<32>>,
    base_bit: Constant<Bits<32>>,
    tidw: Constant<Bits<AW>>,
    port1: Constant<Bits<5>>,
    one16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    zero32: Constant<Bits<32>>,
}

impl<const LVW: usize, const TIDW: usize, const AW: usize> Default
    for LiveValuePort<LVW, TIDW, AW>
{
    fn default() -> Self {
        assert!(
            (1..=13).contains(&LVW) && (1..=16).contains(&TIDW) && AW == LVW + TIDW,
            "LiveValuePort needs 1 <= LVW <= 13, 1 <= TIDW <= 16, AW = LVW + TIDW (got {LVW}, {TIDW}, {AW})"
        );
        // Inside the array: bit 31 set, bits 1:0 clear, tid bits above TIDW and lv bits
        // above LVW clear.
        let tid_high = ((1u64 << 16) - 1) & !((1u64 << TIDW) - 1);
        let lv_high = ((1u64 << 13) - 1) & !((1u64 << LVW) - 1);
        // Byte address: word offset bits 1:0, thread id bits 17:2, live value id above.
        let outside = 0b11 | tid_high << 2 | lv_high << 18;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_addr: Default::default(),
            req_data: Default::default(),
            req_write: Default::default(),
            req_tag: Default::default(),
            resp_valid: Default::default(),
            resp_tag: Default::default(),
            resp_data: Default::default(),
            lvc_req_valid: Default::default(),
            lvc_req_ready: Default::default(),
            lvc_req_write: Default::default(),
            lvc_req_addr: Default::default(),
            lvc_req_wdata: Default::default(),
            lvc_req_id: Default::default(),
            lvc_resp_valid: Default::default(),
            lvc_resp_ready: Default::default(),
            lvc_resp_id: Default::default(),
            lvc_resp_data: Default::default(),
            addr_error: Default::default(),
            last: Default::default(),
            pending: Default::default(),
            error: Default::default(),
            pick1: Default::default(),
            addr: Default::default(),
            taken: Default::default(),
            lv_wide: Default::default(),
            tid_wide: Default::default(),
            tag_wide: Default::default(),
            lowest: Default::default(),
            ack_bit: Default::default(),
            set_bit: Default::default(),
            read_here: Default::default(),
            outside: Constant::new(Bits::<32>::from(outside)),
            base_bit: Constant::new(Bits::<32>::from(1u64 << 31)),
            tidw: Constant::new(Bits::<AW>::from(TIDW as u64)),
            port1: Constant::new(Bits::<5>::from(16u64)),
            one16: Constant::new(Bits::<16>::from(1u64)),
            zero16: Constant::new(Bits::<16>::default()),
            zero32: Constant::new(Bits::<32>::default()),
        }
    }
}

impl<const LVW: usize, const TIDW: usize, const AW: usize> Logic for LiveValuePort<LVW, TIDW, AW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, last, error);
        for p in 0..2 {
            self.pending[p].clock.next = self.clock.val();
        }
        // Round robin: with both requesting, the port not granted last.
        self.pick1.next = self.req_valid[1].val() & (!self.req_valid[0].val() | !self.last.q.val());
        self.addr.next = self.req_addr[0].val();
        self.lvc_req_write.next = self.req_write[0].val();
        self.lvc_req_wdata.next = self.req_data[0].val();
        self.tag_wide.narrow.next = self.req_tag[0].val();
        if self.pick1.val() {
            self.addr.next = self.req_addr[1].val();
            self.lvc_req_write.next = self.req_write[1].val();
            self.lvc_req_wdata.next = self.req_data[1].val();
            self.tag_wide.narrow.next = self.req_tag[1].val();
        }
        self.lvc_req_valid.next = self.req_valid[0].val() | self.req_valid[1].val();
        self.lvc_req_id.next = self.tag_wide.wide.val();
        if self.pick1.val() {
            self.lvc_req_id.next = self.tag_wide.wide.val() | self.port1.val();
        }
        self.lv_wide.narrow.next = self.addr.val().get_bits::<LVW>(18);
        self.tid_wide.narrow.next = self.addr.val().get_bits::<TIDW>(2);
        self.lvc_req_addr.next =
            (self.lv_wide.wide.val() << self.tidw.val()) | self.tid_wide.wide.val();
        self.req_ready[0].next = self.lvc_req_ready.val() & !self.pick1.val();
        self.req_ready[1].next = self.lvc_req_ready.val() & self.pick1.val();
        self.taken.next = self.lvc_req_valid.val() & self.lvc_req_ready.val();
        if self.taken.val() {
            self.last.d.next = self.pick1.val();
            if ((self.addr.val() & self.outside.val()).any())
                | !(self.addr.val() & self.base_bit.val()).any()
            {
                self.error.d.next = true;
            }
        }
        self.addr_error.next = self.error.q.val();

        // Answers: the LVC's read data for its port, else a pending acknowledgement;
        // an accepted write owes its port one.
        self.lvc_resp_ready.next = true;
        self.read_here[0].next =
            self.lvc_resp_valid.val() & !(self.lvc_resp_id.val() & self.port1.val()).any();
        self.read_here[1].next =
            self.lvc_resp_valid.val() & (self.lvc_resp_id.val() & self.port1.val()).any();
        for p in 0..2 {
            self.lowest[p].mask.next = self.pending[p].q.val();
            self.ack_bit[p].next = self.one16.val() << self.lowest[p].index.val();
            self.set_bit[p].next = self.zero16.val();
        }
        if self.taken.val() & self.lvc_req_write.val() {
            if self.pick1.val() {
                self.set_bit[1].next = self.one16.val() << self.req_tag[1].val();
            } else {
                self.set_bit[0].next = self.one16.val() << self.req_tag[0].val();
            }
        }
        for p in 0..2 {
            self.resp_valid[p].next = self.read_here[p].val() | self.lowest[p].valid.val();
            self.resp_tag[p].next = self.lowest[p].index.val();
            self.resp_data[p].next = self.zero32.val();
            self.pending[p].d.next =
                (self.pending[p].q.val() & !self.ack_bit[p].val()) | self.set_bit[p].val();
            if self.read_here[p].val() {
                self.resp_tag[p].next = self.lvc_resp_id.val().get_bits::<4>(0);
                self.resp_data[p].next = self.lvc_resp_data.val();
                self.pending[p].d.next = self.pending[p].q.val() | self.set_bit[p].val();
            }
        }
        if self.reset.val() {
            self.last.d.next = false;
            self.error.d.next = false;
            self.pending[0].d.next = self.zero16.val();
            self.pending[1].d.next = self.zero16.val();
        }
    }
}
