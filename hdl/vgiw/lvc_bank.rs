//! One bank of the live value cache (`vgiw-control-flow-coalescing.txt` §2, §3.4; SPEC
//! §5): a direct-mapped, write-back, write-allocate cache of 32-bit words with per-word
//! valid and dirty bits, one request at a time. See `lvc.rs` for the address layout;
//! this bank sees a request as `(tag, index)` with `index = {set, slot, bank}`.
//!
//! ```text
//!  IDLE ─req─> LOOKUP ─write, same/free or clean line─> IDLE (word written, no fill)
//!                     ─read hit─> RESP ─resp_ready─> IDLE
//!                     ─read miss, same/free/clean line─> FILL_REQ <-> FILL_WAIT ─> RESP
//!                     ─other tag, dirty─> SPILL_RD <-> SPILL_WR ─> REPLAY ─> LOOKUP
//!  IDLE ─flush_start─> FL_META -> FL_LOOK ─dirty─> SPILL_RD.. ─> FL_NEXT ─> FL_META | IDLE
//!  reset ─> INIT (one set per cycle: tag, valid, dirty := 0) ─> IDLE
//! ```
//!
//! Latency: read hit 2 cycles (accept edge, LOOKUP, response presented in RESP); write
//! hit 1 busy cycle after acceptance; a read miss adds one memory read per invalid word
//! of the line (fill), a dirty victim one memory write per dirty word (spill) and 2
//! cycles (REPLAY, LOOKUP). Throughput: one request per 2 cycles per bank on hits.
//!
//! Storage: data `2^LW x 32` (`LW = SW + OW`), tags `2^SW x TAGW`, valid and dirty
//! `2^SW x WPL` each (rust-hdl `RAM`s), plus the request and line registers
//! (`4 + 1 + IDW + 32 + 2 TAGW + IW + 2 WPL + OW + 32 + 1` bits).
//!
//! Choices where the paper is silent:
//! - A line whose valid bits are all clear is free whatever its tag.
//! - A fill reads only the line's invalid words, one at a time, so dirty words written
//!   before the miss are never overwritten by memory.
//! - A dirty victim is spilled word by word (dirty words only), marked clean, then the
//!   request replays its lookup and finds a clean victim.
//! - The memory RAMs need no reset: INIT clears every set's valid and dirty bits.
use rust_hdl::prelude::*;

pub const ST_IDLE: u64 = 0;
pub const ST_LOOKUP: u64 = 1;
pub const ST_SPILL_RD: u64 = 2;
pub const ST_SPILL_WR: u64 = 3;
pub const ST_REPLAY: u64 = 4;
pub const ST_FILL_REQ: u64 = 5;
pub const ST_FILL_WAIT: u64 = 6;
pub const ST_RESP: u64 = 7;
pub const ST_FL_META: u64 = 8;
pub const ST_FL_LOOK: u64 = 9;
pub const ST_FL_NEXT: u64 = 10;
pub const ST_INIT: u64 = 11;

/// One bank: `TAGW` tag bits, `IW` index bits (`SW` set + `OW` slot + `BKW` bank),
/// `WPL` words per line (`OW = clog2(WPL)`), `LW = SW + OW`, `IDW` request id bits.
#[derive(LogicBlock)]
pub struct LvcBank<
    const TAGW: usize,
    const IW: usize,
    const BKW: usize,
    const OW: usize,
    const WPL: usize,
    const SW: usize,
    const LW: usize,
    const IDW: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: IDLE after the INIT walk.
    pub reset: Signal<In, Bit>,
    /// This bank's number in the index's bank field (a constant from the parent).
    pub bank_base: Signal<In, Bits<IW>>,
    // request
    pub req_valid: Signal<In, Bit>,
    /// IDLE: a request is taken on this edge.
    pub req_ready: Signal<Out, Bit>,
    pub req_write: Signal<In, Bit>,
    pub req_tag: Signal<In, Bits<TAGW>>,
    pub req_index: Signal<In, Bits<IW>>,
    pub req_wdata: Signal<In, Bits<32>>,
    pub req_id: Signal<In, Bits<IDW>>,
    // read response
    pub resp_valid: Signal<Out, Bit>,
    pub resp_ready: Signal<In, Bit>,
    pub resp_id: Signal<Out, Bits<IDW>>,
    pub resp_data: Signal<Out, Bits<32>>,
    // memory
    pub mreq_valid: Signal<Out, Bit>,
    pub mreq_ready: Signal<In, Bit>,
    pub mreq_write: Signal<Out, Bit>,
    pub mreq_tag: Signal<Out, Bits<TAGW>>,
    pub mreq_index: Signal<Out, Bits<IW>>,
    pub mreq_data: Signal<Out, Bits<32>>,
    pub mresp_valid: Signal<In, Bit>,
    pub mresp_data: Signal<In, Bits<32>>,
    // flush
    /// Start writing every dirty word back (taken in IDLE).
    pub flush_start: Signal<In, Bit>,
    pub flushing: Signal<Out, Bit>,
    pub idle: Signal<Out, Bit>,
    data: RAM<Bits<32>, LW>,
    tags: RAM<Bits<TAGW>, SW>,
    valids: RAM<Bits<WPL>, SW>,
    dirtys: RAM<Bits<WPL>, SW>,
    state: DFF<Bits<4>>,
    op_write: DFF<Bit>,
    op_id: DFF<Bits<IDW>>,
    op_wdata: DFF<Bits<32>>,
    op_tag: DFF<Bits<TAGW>>,
    /// The request's index; during INIT and flush, the set being walked.
    idx: DFF<Bits<IW>>,
    line_tag: DFF<Bits<TAGW>>,
    line_valid: DFF<Bits<WPL>>,
    line_dirty: DFF<Bits<WPL>>,
    slot: DFF<Bits<OW>>,
    resp_q: DFF<Bits<32>>,
    flushing_q: DFF<Bit>,
    cur_set: Signal<Local, Bits<SW>>,
    cur_bit: Signal<Local, Bits<WPL>>,
    enc_dirty: Signal<Local, Bits<OW>>,
    enc_invalid: Signal<Local, Bits<OW>>,
    found: Signal<Local, Bit>,
    sub_slot: Signal<Local, Bits<OW>>,
    sub_idx: Signal<Local, Bits<IW>>,
    sub_bit: Signal<Local, Bits<WPL>>,
    same: Signal<Local, Bit>,
    left_dirty: Signal<Local, Bits<WPL>>,
    now_valid: Signal<Local, Bits<WPL>>,
    spill_mask: Signal<Local, Bits<32>>,
    meta_we: Signal<Local, Bit>,
    meta_tag_w: Signal<Local, Bits<TAGW>>,
    meta_valid_w: Signal<Local, Bits<WPL>>,
    meta_dirty_w: Signal<Local, Bits<WPL>>,
    st_idle: Constant<Bits<4>>,
    st_lookup: Constant<Bits<4>>,
    st_spill_rd: Constant<Bits<4>>,
    st_spill_wr: Constant<Bits<4>>,
    st_replay: Constant<Bits<4>>,
    st_fill_req: Constant<Bits<4>>,
    st_fill_wait: Constant<Bits<4>>,
    st_resp: Constant<Bits<4>>,
    st_fl_meta: Constant<Bits<4>>,
    st_fl_look: Constant<Bits<4>>,
    st_fl_next: Constant<Bits<4>>,
    st_init: Constant<Bits<4>>,
    /// Offsets of the set field and of `{set, slot}` in the index.
    set_off: Constant<Bits<32>>,
    line_off: Constant<Bits<32>>,
    /// `slot_index[i]`: slot `i` in the index's slot field; `slot_field` its mask.
    slot_index: [Constant<Bits<IW>>; WPL],
    slot_field: Constant<Bits<IW>>,
    slot_clear: Constant<Bits<IW>>,
    slot_bit: [Constant<Bits<WPL>>; WPL],
    slot_ids: [Constant<Bits<OW>>; WPL],
    set_step: Constant<Bits<IW>>,
    set_last: Constant<Bits<SW>>,
    ones_wpl: Constant<Bits<WPL>>,
    zero_wpl: Constant<Bits<WPL>>,
    zero_ow: Constant<Bits<OW>>,
    zero_iw: Constant<Bits<IW>>,
    zero_tag: Constant<Bits<TAGW>>,
    zero_id: Constant<Bits<IDW>>,
    zero32: Constant<Bits<32>>,
    ones32: Constant<Bits<32>>,
}

impl<
        const TAGW: usize,
        const IW: usize,
        const BKW: usize,
        const OW: usize,
        const WPL: usize,
        const SW: usize,
        const LW: usize,
        const IDW: usize,
    > Default for LvcBank<TAGW, IW, BKW, OW, WPL, SW, LW, IDW>
{
    fn default() -> Self {
        assert!(
            WPL >= 4 && WPL.is_power_of_two() && WPL <= 64,
            "words per line: a power of two in 4..=64"
        );
        assert_eq!(OW, clog2(WPL), "OW must be clog2(WPL)");
        assert!(SW >= 2, "at least 4 sets per bank");
        assert!(BKW >= 1, "at least 2 banks");
        assert_eq!(IW, SW + OW + BKW, "IW must be SW + OW + BKW");
        assert_eq!(LW, SW + OW, "LW must be SW + OW");
        assert!(
            TAGW >= 2,
            "at least 2 tag bits (the cache is smaller than memory)"
        );
        assert!(IDW >= 1, "request ids need a bit");
        let slot_field = ((1u64 << OW) - 1) << BKW;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            bank_base: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_write: Default::default(),
            req_tag: Default::default(),
            req_index: Default::default(),
            req_wdata: Default::default(),
            req_id: Default::default(),
            resp_valid: Default::default(),
            resp_ready: Default::default(),
            resp_id: Default::default(),
            resp_data: Default::default(),
            mreq_valid: Default::default(),
            mreq_ready: Default::default(),
            mreq_write: Default::default(),
            mreq_tag: Default::default(),
            mreq_index: Default::default(),
            mreq_data: Default::default(),
            mresp_valid: Default::default(),
            mresp_data: Default::default(),
            flush_start: Default::default(),
            flushing: Default::default(),
            idle: Default::default(),
            data: Default::default(),
            tags: Default::default(),
            valids: Default::default(),
            dirtys: Default::default(),
            state: Default::default(),
            op_write: Default::default(),
            op_id: Default::default(),
            op_wdata: Default::default(),
            op_tag: Default::default(),
            idx: Default::default(),
            line_tag: Default::default(),
            line_valid: Default::default(),
            line_dirty: Default::default(),
            slot: Default::default(),
            resp_q: Default::default(),
            flushing_q: Default::default(),
            cur_set: Default::default(),
            cur_bit: Default::default(),
            enc_dirty: Default::default(),
            enc_invalid: Default::default(),
            found: Default::default(),
            sub_slot: Default::default(),
            sub_idx: Default::default(),
            sub_bit: Default::default(),
            same: Default::default(),
            left_dirty: Default::default(),
            now_valid: Default::default(),
            spill_mask: Default::default(),
            meta_we: Default::default(),
            meta_tag_w: Default::default(),
            meta_valid_w: Default::default(),
            meta_dirty_w: Default::default(),
            st_idle: Constant::new(ST_IDLE.into()),
            st_lookup: Constant::new(ST_LOOKUP.into()),
            st_spill_rd: Constant::new(ST_SPILL_RD.into()),
            st_spill_wr: Constant::new(ST_SPILL_WR.into()),
            st_replay: Constant::new(ST_REPLAY.into()),
            st_fill_req: Constant::new(ST_FILL_REQ.into()),
            st_fill_wait: Constant::new(ST_FILL_WAIT.into()),
            st_resp: Constant::new(ST_RESP.into()),
            st_fl_meta: Constant::new(ST_FL_META.into()),
            st_fl_look: Constant::new(ST_FL_LOOK.into()),
            st_fl_next: Constant::new(ST_FL_NEXT.into()),
            st_init: Constant::new(ST_INIT.into()),
            set_off: Constant::new(Bits::<32>::from((OW + BKW) as u64)),
            line_off: Constant::new(Bits::<32>::from(BKW as u64)),
            slot_index: array_init::array_init(|i| {
                Constant::new(Bits::<IW>::from((i as u64) << BKW))
            }),
            slot_field: Constant::new(Bits::<IW>::from(slot_field)),
            slot_clear: Constant::new(!Bits::<IW>::from(slot_field)),
            slot_bit: array_init::array_init(|i| {
                let mut v = Bits::<WPL>::default();
                v.set_bits::<1>(i, Bits::<1>::from(true));
                Constant::new(v)
            }),
            slot_ids: array_init::array_init(|i| Constant::new(Bits::<OW>::from(i as u64))),
            set_step: Constant::new(Bits::<IW>::from(1u64 << (OW + BKW))),
            set_last: Constant::new(Bits::<SW>::mask()),
            ones_wpl: Constant::new(Bits::<WPL>::mask()),
            zero_wpl: Constant::new(Bits::default()),
            zero_ow: Constant::new(Bits::default()),
            zero_iw: Constant::new(Bits::default()),
            zero_tag: Constant::new(Bits::default()),
            zero_id: Constant::new(Bits::default()),
            zero32: Constant::new(Bits::default()),
            ones32: Constant::new(Bits::<32>::mask()),
        }
    }
}

impl<
        const TAGW: usize,
        const IW: usize,
        const BKW: usize,
        const OW: usize,
        const WPL: usize,
        const SW: usize,
        const LW: usize,
        const IDW: usize,
    > Logic for LvcBank<TAGW, IW, BKW, OW, WPL, SW, LW, IDW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, op_write, op_id, op_wdata, op_tag, idx, line_tag, line_valid,
            line_dirty, slot, resp_q, flushing_q
        );
        self.data.read_clock.next = self.clock.val();
        self.data.write_clock.next = self.clock.val();
        self.tags.read_clock.next = self.clock.val();
        self.tags.write_clock.next = self.clock.val();
        self.valids.read_clock.next = self.clock.val();
        self.valids.write_clock.next = self.clock.val();
        self.dirtys.read_clock.next = self.clock.val();
        self.dirtys.write_clock.next = self.clock.val();
        // Fields of the current index: set, and the request's slot as a bit.
        self.cur_set.next = self.idx.q.val().get_bits::<SW>(self.set_off.val().index());
        self.cur_bit.next = self.zero_wpl.val();
        for i in 0..WPL {
            if (self.idx.q.val() & self.slot_field.val()) == self.slot_index[i].val() {
                self.cur_bit.next = self.slot_bit[i].val();
            }
        }
        // Lowest dirty and lowest invalid word of the line.
        self.enc_dirty.next = self.zero_ow.val();
        self.found.next = false;
        for i in 0..WPL {
            if !self.found.val() & (self.line_dirty.q.val() & self.slot_bit[i].val()).any() {
                self.enc_dirty.next = self.slot_ids[i].val();
                self.found.next = true;
            }
        }
        self.enc_invalid.next = self.zero_ow.val();
        self.found.next = false;
        for i in 0..WPL {
            if !self.found.val() & !(self.line_valid.q.val() & self.slot_bit[i].val()).any() {
                self.enc_invalid.next = self.slot_ids[i].val();
                self.found.next = true;
            }
        }
        // The word a spill or fill step works on.
        self.sub_slot.next = self.slot.q.val();
        if self.state.q.val() == self.st_spill_rd.val() {
            self.sub_slot.next = self.enc_dirty.val();
        }
        if self.state.q.val() == self.st_fill_req.val() {
            self.sub_slot.next = self.enc_invalid.val();
        }
        self.sub_idx.next = self.idx.q.val();
        self.sub_bit.next = self.zero_wpl.val();
        for i in 0..WPL {
            if self.sub_slot.val() == self.slot_ids[i].val() {
                self.sub_idx.next =
                    (self.idx.q.val() & self.slot_clear.val()) | self.slot_index[i].val();
                self.sub_bit.next = self.slot_bit[i].val();
            }
        }
        // RAM reads: the request's line (IDLE), the spill word, else the current line.
        self.tags.read_address.next = self.cur_set.val();
        self.valids.read_address.next = self.cur_set.val();
        self.dirtys.read_address.next = self.cur_set.val();
        self.data.read_address.next = self.idx.q.val().get_bits::<LW>(self.line_off.val().index());
        if self.state.q.val() == self.st_idle.val() {
            self.tags.read_address.next = self
                .req_index
                .val()
                .get_bits::<SW>(self.set_off.val().index());
            self.valids.read_address.next = self
                .req_index
                .val()
                .get_bits::<SW>(self.set_off.val().index());
            self.dirtys.read_address.next = self
                .req_index
                .val()
                .get_bits::<SW>(self.set_off.val().index());
            self.data.read_address.next = self
                .req_index
                .val()
                .get_bits::<LW>(self.line_off.val().index());
        }
        if (self.state.q.val() == self.st_spill_rd.val())
            | (self.state.q.val() == self.st_spill_wr.val())
        {
            self.data.read_address.next = self
                .sub_idx
                .val()
                .get_bits::<LW>(self.line_off.val().index());
        }
        // RAM writes, assigned by the states below.
        self.data.write_enable.next = false;
        self.data.write_address.next = self.idx.q.val().get_bits::<LW>(self.line_off.val().index());
        self.data.write_data.next = self.op_wdata.q.val();
        self.meta_we.next = false;
        self.meta_tag_w.next = self.line_tag.q.val();
        self.meta_valid_w.next = self.line_valid.q.val();
        self.meta_dirty_w.next = self.line_dirty.q.val();
        // Outputs.
        self.req_ready.next = self.state.q.val() == self.st_idle.val();
        self.idle.next = self.state.q.val() == self.st_idle.val();
        self.flushing.next = self.flushing_q.q.val();
        self.resp_valid.next = self.state.q.val() == self.st_resp.val();
        self.resp_id.next = self.op_id.q.val();
        self.resp_data.next = self.resp_q.q.val();
        self.mreq_valid.next = (self.state.q.val() == self.st_spill_wr.val())
            | (self.state.q.val() == self.st_fill_req.val());
        self.mreq_write.next = self.state.q.val() == self.st_spill_wr.val();
        self.mreq_tag.next = self.line_tag.q.val();
        self.mreq_index.next = self.sub_idx.val();
        // Only a spilled word leaves (other read data may be a never-written word).
        // Outputs are assigned once: a default-then-override glitch on a port makes
        // Icarus ping-pong between this block and its parent forever.
        self.spill_mask.next = self.zero32.val();
        if self.state.q.val() == self.st_spill_wr.val() {
            self.spill_mask.next = self.ones32.val();
        }
        self.mreq_data.next = self.data.read_data.val() & self.spill_mask.val();
        self.same.next =
            (self.tags.read_data.val() == self.op_tag.q.val()) | !self.valids.read_data.val().any();
        self.left_dirty.next = self.line_dirty.q.val() & !self.sub_bit.val();
        self.now_valid.next = self.line_valid.q.val() | self.sub_bit.val();
        // The state machine.
        if self.state.q.val() == self.st_idle.val() {
            if self.flush_start.val() {
                self.idx.d.next = self.bank_base.val();
                self.flushing_q.d.next = true;
                self.state.d.next = self.st_fl_meta.val();
            } else if self.req_valid.val() {
                self.op_write.d.next = self.req_write.val();
                self.op_id.d.next = self.req_id.val();
                self.op_wdata.d.next = self.req_wdata.val();
                self.op_tag.d.next = self.req_tag.val();
                self.idx.d.next = self.req_index.val();
                self.state.d.next = self.st_lookup.val();
            }
        }
        if self.state.q.val() == self.st_lookup.val() {
            self.line_tag.d.next = self.tags.read_data.val();
            self.line_valid.d.next = self.valids.read_data.val();
            self.line_dirty.d.next = self.dirtys.read_data.val();
            if self.same.val() {
                self.line_tag.d.next = self.op_tag.q.val();
                if self.op_write.q.val() {
                    self.data.write_enable.next = true;
                    self.meta_we.next = true;
                    self.meta_tag_w.next = self.op_tag.q.val();
                    self.meta_valid_w.next = self.valids.read_data.val() | self.cur_bit.val();
                    self.meta_dirty_w.next = self.dirtys.read_data.val() | self.cur_bit.val();
                    self.state.d.next = self.st_idle.val();
                } else if (self.valids.read_data.val() & self.cur_bit.val()).any() {
                    self.resp_q.d.next = self.data.read_data.val();
                    self.state.d.next = self.st_resp.val();
                } else {
                    self.state.d.next = self.st_fill_req.val();
                }
            } else if self.dirtys.read_data.val().any() {
                self.state.d.next = self.st_spill_rd.val();
            } else {
                // A clean victim is dropped.
                self.line_tag.d.next = self.op_tag.q.val();
                self.line_valid.d.next = self.zero_wpl.val();
                self.line_dirty.d.next = self.zero_wpl.val();
                if self.op_write.q.val() {
                    self.data.write_enable.next = true;
                    self.meta_we.next = true;
                    self.meta_tag_w.next = self.op_tag.q.val();
                    self.meta_valid_w.next = self.cur_bit.val();
                    self.meta_dirty_w.next = self.cur_bit.val();
                    self.state.d.next = self.st_idle.val();
                } else {
                    self.state.d.next = self.st_fill_req.val();
                }
            }
        }
        if self.state.q.val() == self.st_spill_rd.val() {
            self.slot.d.next = self.enc_dirty.val();
            self.state.d.next = self.st_spill_wr.val();
        }
        if (self.state.q.val() == self.st_spill_wr.val()) & self.mreq_ready.val() {
            self.line_dirty.d.next = self.left_dirty.val();
            if self.left_dirty.val().any() {
                self.state.d.next = self.st_spill_rd.val();
            } else {
                // The line is clean now.
                self.meta_we.next = true;
                self.meta_dirty_w.next = self.zero_wpl.val();
                self.state.d.next = self.st_replay.val();
                if self.flushing_q.q.val() {
                    self.state.d.next = self.st_fl_next.val();
                }
            }
        }
        if self.state.q.val() == self.st_replay.val() {
            self.state.d.next = self.st_lookup.val();
        }
        if (self.state.q.val() == self.st_fill_req.val()) & self.mreq_ready.val() {
            self.slot.d.next = self.enc_invalid.val();
            self.state.d.next = self.st_fill_wait.val();
        }
        if (self.state.q.val() == self.st_fill_wait.val()) & self.mresp_valid.val() {
            self.data.write_enable.next = true;
            self.data.write_address.next = self
                .sub_idx
                .val()
                .get_bits::<LW>(self.line_off.val().index());
            self.data.write_data.next = self.mresp_data.val();
            self.line_valid.d.next = self.now_valid.val();
            if self.sub_bit.val() == self.cur_bit.val() {
                self.resp_q.d.next = self.mresp_data.val();
            }
            self.state.d.next = self.st_fill_req.val();
            if self.now_valid.val() == self.ones_wpl.val() {
                self.meta_we.next = true;
                self.meta_valid_w.next = self.ones_wpl.val();
                self.state.d.next = self.st_resp.val();
            }
        }
        if (self.state.q.val() == self.st_resp.val()) & self.resp_ready.val() {
            self.state.d.next = self.st_idle.val();
        }
        if self.state.q.val() == self.st_fl_meta.val() {
            self.state.d.next = self.st_fl_look.val();
        }
        if self.state.q.val() == self.st_fl_look.val() {
            self.line_tag.d.next = self.tags.read_data.val();
            self.line_valid.d.next = self.valids.read_data.val();
            self.line_dirty.d.next = self.dirtys.read_data.val();
            self.state.d.next = self.st_fl_next.val();
            if self.dirtys.read_data.val().any() {
                self.state.d.next = self.st_spill_rd.val();
            }
        }
        if self.state.q.val() == self.st_fl_next.val() {
            self.idx.d.next = self.idx.q.val() + self.set_step.val();
            self.state.d.next = self.st_fl_meta.val();
            if self.cur_set.val() == self.set_last.val() {
                self.flushing_q.d.next = false;
                self.state.d.next = self.st_idle.val();
            }
        }
        if self.state.q.val() == self.st_init.val() {
            self.meta_we.next = true;
            self.meta_tag_w.next = self.zero_tag.val();
            self.meta_valid_w.next = self.zero_wpl.val();
            self.meta_dirty_w.next = self.zero_wpl.val();
            self.idx.d.next = self.idx.q.val() + self.set_step.val();
            if self.cur_set.val() == self.set_last.val() {
                self.state.d.next = self.st_idle.val();
            }
        }
        self.tags.write_enable.next = self.meta_we.val();
        self.valids.write_enable.next = self.meta_we.val();
        self.dirtys.write_enable.next = self.meta_we.val();
        self.tags.write_address.next = self.cur_set.val();
        self.valids.write_address.next = self.cur_set.val();
        self.dirtys.write_address.next = self.cur_set.val();
        self.tags.write_data.next = self.meta_tag_w.val();
        self.valids.write_data.next = self.meta_valid_w.val();
        self.dirtys.write_data.next = self.meta_dirty_w.val();
        if self.reset.val() {
            self.state.d.next = self.st_init.val();
            self.op_write.d.next = false;
            self.op_id.d.next = self.zero_id.val();
            self.op_wdata.d.next = self.zero32.val();
            self.op_tag.d.next = self.zero_tag.val();
            self.idx.d.next = self.zero_iw.val();
            self.line_tag.d.next = self.zero_tag.val();
            self.line_valid.d.next = self.zero_wpl.val();
            self.line_dirty.d.next = self.zero_wpl.val();
            self.slot.d.next = self.zero_ow.val();
            self.resp_q.d.next = self.zero32.val();
            self.flushing_q.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = LvcBank::<3, 5, 1, 2, 4, 2, 4, 2>::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("lvc_bank", &vlog).unwrap();
    }
}
