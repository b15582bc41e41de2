//! Live value cache (`vgiw-control-flow-coalescing.txt` §2, §3.4; SPEC §5): a banked
//! cache of the memory-resident live value array, 32-bit words indexed by
//! (live value id, thread id), backed by memory through one word-wide port that spills
//! dirty words and fills lines.
//!
//! ```text
//!  word address a = {lv, tid} = lv * THREADS + tid           (AW = LVW + TIDW bits)
//!  a = | tag (TAGW) | set (SW) | slot (OW) | bank (BKW) |    index = a[IW-1:0]
//!  req ──bank = a mod BANKS──> bank 0 .. BANKS-1 (LvcBank: direct-mapped, WPL-word
//!                                lines, per-word valid + dirty, write-back, write-allocate)
//!  responses: lowest bank first ──> resp (id, data)
//!  memory requests: lowest bank first ──> mem_req (tag, index); mem_resp routed by bank
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `req_valid`, `req_ready` | in, out | 1, 1 | request handshake; `req_ready` is combinational (the addressed bank is idle, no flush offered) |
//! | `req_write`, `req_addr`, `req_wdata`, `req_id` | in | 1, AW, 32, IDW | write or read of word `req_addr = {lv, tid}`; `req_id` comes back with a read's data |
//! | `resp_valid`, `resp_ready`, `resp_id`, `resp_data` | out, in, out, out | 1, 1, IDW, 32 | read data (writes have no response) |
//! | `mem_req_valid`, `mem_req_ready` | out, in | 1, 1 | memory request handshake |
//! | `mem_req_write`, `mem_req_tag`, `mem_req_index`, `mem_req_data`, `mem_req_bank` | out | 1, TAGW, IW, 32, BKW | spill (write) or fill (read) of word `{tag, index}`; `mem_req_bank` tags a read |
//! | `mem_resp_valid`, `mem_resp_bank`, `mem_resp_data` | in | 1, BKW, 32 | a read's data for bank `mem_resp_bank` (no ready: the bank waits for it) |
//! | `flush`, `flush_ready`, `flushing` | in, out, out | 1, 1, 1 | write every dirty word back; taken when every bank is idle; `flushing` until done |
//!
//! Latency and throughput: one request accepted per cycle (to an idle bank); read hits
//! answer 2 cycles after acceptance, a bank takes a new request every 2 cycles on hits.
//! Misses block their bank only: the other banks keep serving (hit under miss), so
//! responses come back out of order, matched by `req_id`. A request to a busy bank
//! waits (`req_ready = 0`): that is the bank-conflict rule (stall, never drop). Each
//! bank has at most one memory read outstanding, so `mem_req_bank` is enough to route
//! out-of-order memory responses.
//!
//! Storage: `BANKS x 2^SW` lines of `WPL` words: `BANKS x 2^(SW+OW) x 32` data bits +
//! `BANKS x 2^SW x (TAGW + 2 WPL)` tag/valid/dirty bits, all rust-hdl `RAM`s, plus
//! each bank's request and line registers (see `lvc_bank.rs`).
//!
//! Choices where the paper is silent:
//! - One request port (the fabric's live value units would arbitrate in front of it);
//!   banks interleave words, so consecutive thread ids of one live value land in
//!   consecutive banks; a bank's line holds `WPL` words `BANKS` threads apart.
//! - Direct-mapped banks; write-back, write-allocate; a write miss needs no fill (the
//!   per-word valid bits tell which words hold data); a read miss fills the line's
//!   invalid words, one memory read at a time.
//! - Fixed priority (lowest bank) for responses and memory requests.
//! - Reset walks every set clearing valid and dirty bits (`2^SW` cycles) before the
//!   first request is taken.
use crate::vgiw::lvc_bank::LvcBank;
use rust_hdl::prelude::*;

/// Live value cache: `AW`-bit word addresses `{lv, tid}`, `BANKS = 2^BKW` banks of
/// `2^SW` lines of `WPL = 2^OW` words; `TAGW = AW - IW`, `IW = SW + OW + BKW`,
/// `LW = SW + OW`, `IDW` request id bits.
#[derive(LogicBlock)]
pub struct Lvc<
    const AW: usize,
    const TAGW: usize,
    const IW: usize,
    const BANKS: usize,
    const BKW: usize,
    const OW: usize,
    const WPL: usize,
    const SW: usize,
    const LW: usize,
    const IDW: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: every line invalid after `2^SW` cycles.
    pub reset: Signal<In, Bit>,
    // request
    pub req_valid: Signal<In, Bit>,
    pub req_ready: Signal<Out, Bit>,
    /// Write (1) or read (0).
    pub req_write: Signal<In, Bit>,
    /// Word address `{live value id, thread id}`.
    pub req_addr: Signal<In, Bits<AW>>,
    pub req_wdata: Signal<In, Bits<32>>,
    /// Returned with the read's data.
    pub req_id: Signal<In, Bits<IDW>>,
    // read response
    pub resp_valid: Signal<Out, Bit>,
    pub resp_ready: Signal<In, Bit>,
    pub resp_id: Signal<Out, Bits<IDW>>,
    pub resp_data: Signal<Out, Bits<32>>,
    // memory
    pub mem_req_valid: Signal<Out, Bit>,
    pub mem_req_ready: Signal<In, Bit>,
    pub mem_req_write: Signal<Out, Bit>,
    /// Word address `{mem_req_tag, mem_req_index}`.
    pub mem_req_tag: Signal<Out, Bits<TAGW>>,
    pub mem_req_index: Signal<Out, Bits<IW>>,
    pub mem_req_data: Signal<Out, Bits<32>>,
    pub mem_req_bank: Signal<Out, Bits<BKW>>,
    pub mem_resp_valid: Signal<In, Bit>,
    pub mem_resp_bank: Signal<In, Bits<BKW>>,
    pub mem_resp_data: Signal<In, Bits<32>>,
    // flush
    pub flush: Signal<In, Bit>,
    pub flush_ready: Signal<Out, Bit>,
    pub flushing: Signal<Out, Bit>,
    bank: [LvcBank<TAGW, IW, BKW, OW, WPL, SW, LW, IDW>; BANKS],
    sel: Signal<Local, Bits<BANKS>>,
    all_idle: Signal<Local, Bit>,
    resp_grant: Signal<Local, Bits<BANKS>>,
    mem_grant: Signal<Local, Bits<BANKS>>,
    bank_field: Constant<Bits<AW>>,
    bank_addr: [Constant<Bits<AW>>; BANKS],
    bank_base: [Constant<Bits<IW>>; BANKS],
    bank_ids: [Constant<Bits<BKW>>; BANKS],
    bank_bit: [Constant<Bits<BANKS>>; BANKS],
    tag_off: Constant<Bits<32>>,
    zero_off: Constant<Bits<32>>,
    zero_banks: Constant<Bits<BANKS>>,
    zero_bkw: Constant<Bits<BKW>>,
    zero_tag: Constant<Bits<TAGW>>,
    zero_iw: Constant<Bits<IW>>,
    zero_id: Constant<Bits<IDW>>,
    zero32: Constant<Bits<32>>,
}

impl<
        const AW: usize,
        const TAGW: usize,
        const IW: usize,
        const BANKS: usize,
        const BKW: usize,
        const OW: usize,
        const WPL: usize,
        const SW: usize,
        const LW: usize,
        const IDW: usize,
    > Default for Lvc<AW, TAGW, IW, BANKS, BKW, OW, WPL, SW, LW, IDW>
{
    fn default() -> Self {
        assert!(
            BANKS >= 2 && BANKS.is_power_of_two(),
            "banks: a power of two >= 2"
        );
        assert_eq!(BKW, clog2(BANKS), "BKW must be clog2(BANKS)");
        assert_eq!(TAGW + IW, AW, "TAGW must be AW - IW");
        assert!(AW <= 32, "word addresses up to 32 bits");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_write: Default::default(),
            req_addr: Default::default(),
            req_wdata: Default::default(),
            req_id: Default::default(),
            resp_valid: Default::default(),
            resp_ready: Default::default(),
            resp_id: Default::default(),
            resp_data: Default::default(),
            mem_req_valid: Default::default(),
            mem_req_ready: Default::default(),
            mem_req_write: Default::default(),
            mem_req_tag: Default::default(),
            mem_req_index: Default::default(),
            mem_req_data: Default::default(),
            mem_req_bank: Default::default(),
            mem_resp_valid: Default::default(),
            mem_resp_bank: Default::default(),
            mem_resp_data: Default::default(),
            flush: Default::default(),
            flush_ready: Default::default(),
            flushing: Default::default(),
            bank: array_init::array_init(|_| Default::default()),
            sel: Default::default(),
            all_idle: Default::default(),
            resp_grant: Default::default(),
            mem_grant: Default::default(),
            bank_field: Constant::new(Bits::<AW>::from((BANKS - 1) as u64)),
            bank_addr: array_init::array_init(|k| Constant::new(Bits::<AW>::from(k as u64))),
            bank_base: array_init::array_init(|k| Constant::new(Bits::<IW>::from(k as u64))),
            bank_ids: array_init::array_init(|k| Constant::new(Bits::<BKW>::from(k as u64))),
            bank_bit: array_init::array_init(|k| {
                let mut v = Bits::<BANKS>::default();
                v.set_bits::<1>(k, Bits::<1>::from(true));
                Constant::new(v)
            }),
            tag_off: Constant::new(Bits::<32>::from(IW as u64)),
            zero_off: Constant::new(Bits::default()),
            zero_banks: Constant::new(Bits::default()),
            zero_bkw: Constant::new(Bits::default()),
            zero_tag: Constant::new(Bits::default()),
            zero_iw: Constant::new(Bits::default()),
            zero_id: Constant::new(Bits::default()),
            zero32: Constant::new(Bits::default()),
        }
    }
}

impl<
        const AW: usize,
        const TAGW: usize,
        const IW: usize,
        const BANKS: usize,
        const BKW: usize,
        const OW: usize,
        const WPL: usize,
        const SW: usize,
        const LW: usize,
        const IDW: usize,
    > Logic for Lvc<AW, TAGW, IW, BANKS, BKW, OW, WPL, SW, LW, IDW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Request to its bank; flush when every bank is idle.
        self.sel.next = self.zero_banks.val();
        self.all_idle.next = true;
        self.flushing.next = false;
        for k in 0..BANKS {
            if (self.req_addr.val() & self.bank_field.val()) == self.bank_addr[k].val() {
                self.sel.next = self.bank_bit[k].val();
            }
            self.all_idle.next = self.all_idle.val() & self.bank[k].idle.val();
            self.flushing.next = self.flushing.val() | self.bank[k].flushing.val();
        }
        self.flush_ready.next = self.all_idle.val();
        self.req_ready.next = false;
        for k in 0..BANKS {
            self.bank[k].clock.next = self.clock.val();
            self.bank[k].reset.next = self.reset.val();
            self.bank[k].bank_base.next = self.bank_base[k].val();
            self.bank[k].req_valid.next = self.req_valid.val()
                & !self.flush.val()
                & (self.sel.val() & self.bank_bit[k].val()).any();
            self.bank[k].req_write.next = self.req_write.val();
            self.bank[k].req_tag.next = self
                .req_addr
                .val()
                .get_bits::<TAGW>(self.tag_off.val().index());
            self.bank[k].req_index.next = self
                .req_addr
                .val()
                .get_bits::<IW>(self.zero_off.val().index());
            self.bank[k].req_wdata.next = self.req_wdata.val();
            self.bank[k].req_id.next = self.req_id.val();
            self.bank[k].flush_start.next = self.flush.val() & self.all_idle.val();
            if (self.sel.val() & self.bank_bit[k].val()).any() & self.bank[k].req_ready.val() {
                self.req_ready.next = !self.flush.val();
            }
            self.bank[k].mresp_valid.next =
                self.mem_resp_valid.val() & (self.mem_resp_bank.val() == self.bank_ids[k].val());
            self.bank[k].mresp_data.next = self.mem_resp_data.val();
        }
        // Responses and memory requests: lowest bank first. Each bank input is
        // assigned once (a default-then-override glitch on a child's port makes
        // Icarus ping-pong between parent and child forever).
        self.resp_valid.next = false;
        self.resp_id.next = self.zero_id.val();
        self.resp_data.next = self.zero32.val();
        self.resp_grant.next = self.zero_banks.val();
        for k in 0..BANKS {
            if self.bank[k].resp_valid.val() & !self.resp_grant.val().any() {
                self.resp_valid.next = true;
                self.resp_id.next = self.bank[k].resp_id.val();
                self.resp_data.next = self.bank[k].resp_data.val();
                self.resp_grant.next = self.bank_bit[k].val();
            }
        }
        self.mem_req_valid.next = false;
        self.mem_req_write.next = false;
        self.mem_req_tag.next = self.zero_tag.val();
        self.mem_req_index.next = self.zero_iw.val();
        self.mem_req_data.next = self.zero32.val();
        self.mem_req_bank.next = self.zero_bkw.val();
        self.mem_grant.next = self.zero_banks.val();
        for k in 0..BANKS {
            if self.bank[k].mreq_valid.val() & !self.mem_grant.val().any() {
                self.mem_req_valid.next = true;
                self.mem_req_write.next = self.bank[k].mreq_write.val();
                self.mem_req_tag.next = self.bank[k].mreq_tag.val();
                self.mem_req_index.next = self.bank[k].mreq_index.val();
                self.mem_req_data.next = self.bank[k].mreq_data.val();
                self.mem_req_bank.next = self.bank_ids[k].val();
                self.mem_grant.next = self.bank_bit[k].val();
            }
        }
        for k in 0..BANKS {
            self.bank[k].resp_ready.next =
                self.resp_ready.val() & (self.resp_grant.val() & self.bank_bit[k].val()).any();
            self.bank[k].mreq_ready.next =
                self.mem_req_ready.val() & (self.mem_grant.val() & self.bank_bit[k].val()).any();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = Lvc::<10, 3, 7, 4, 2, 2, 4, 3, 5, 2>::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("lvc_small", &vlog).unwrap();
    }
}
