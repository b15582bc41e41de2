//! Control vector table (`vgiw-control-flow-coalescing.txt` §2, §3.2, §3.3; SPEC §5):
//! one bit vector per basic block, indexed by thread id, in 64-bit words spread over
//! `BANKS` memory banks. Reads are read-and-reset (the word is zeroed), writes OR into
//! the word (a block can be reached along several control paths), and a per-block
//! non-empty summary feeds the scheduler.
//!
//! ```text
//!  word address g = {block, word}  (AW = BW + WW bits)
//!  bank = g mod BANKS, row = g / BANKS
//!          ┌ nz[block] : WPB flip-flops per block ("word holds a set bit") ┐
//!  rd ───> │ bank 0: RAM 2^RB x 64   bank 1 ...   bank BANKS-1            │──> rd_data (t+1)
//!  wr ───> │ OR write: nz=0 -> plain write; nz=1 -> read at t, write at t+1│
//!          └ nonempty[b] = |nz[b];  q_words = nz[q_block]                   ┘
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `rd_valid`, `rd_ready` | in, out | 1, 1 | read-and-reset request; `rd_ready` is combinational |
//! | `rd_block`, `rd_word` | in | BW, WW | the word to read (threads `64*word ..`) |
//! | `rd_data_valid`, `rd_data` | out | 1, 64 | the word read on the previous edge (registered) |
//! | `wr_valid`, `wr_ready` | in, out | 1, 1 | OR-write request; `wr_ready` is combinational |
//! | `wr_block`, `wr_word`, `wr_bits` | in | BW, WW, 64 | the word and the bits to OR in |
//! | `q_block`, `q_words` | in, out | BW, WPB | which words of `q_block` are non-empty (combinational) |
//! | `nonempty` | out | B | bit `b`: block `b`'s vector has a set bit (registered) |
//!
//! Latency: a read issued on edge `t` presents its word in cycle `t+1`. Throughput:
//! one read and one write per cycle when they hit different banks and the written
//! word is empty; an OR into a non-empty word is a read-modify-write that occupies
//! the write path for two cycles.
//!
//! Bank conflicts stall, never drop (the requester holds its request, valid/ready):
//! - a write whose bank is read this cycle waits (`wr_ready = 0`): reads have
//!   priority, the scheduler's stream of reads walks the banks so a write waits at
//!   most until the read stream leaves its bank;
//! - while a read-modify-write is completing, new writes wait (`wr_ready = 0`) and a
//!   read of the word being written waits (`rd_ready = 0`).
//!
//! Storage: `B * WPB * 64` bits of memory (one `2^RB x 64` array per bank, rust-hdl
//! `RAM`: a Verilog memory, not flip-flops) + `B * WPB` non-empty bits + the
//! read-modify-write and response registers. The memory needs no reset: a word is
//! meaningful only while its non-empty bit is set, and reset clears those bits in one
//! cycle. Paper size: 32 blocks x 1024 threads = 32 Kbit in 8 banks of 64 x 64.
//!
//! Choices where the paper is silent:
//! - One read port and one write port at the table boundary (the paper's 8 banks let
//!   replicated graphs issue several; one initiator and one terminator need one each).
//! - Banks interleave words: consecutive words of a block sit in consecutive banks.
//! - A write of zero bits is accepted and ignored (it would not change the vector).
//! - A read of an empty word returns 0.
use rust_hdl::prelude::*;

/// Control vector table: `B` blocks, `WPB` 64-bit words per block, `BANKS` banks.
/// `BW = clog2(B)`, `WW = clog2(WPB)`, `AW = BW + WW`, `BKW = clog2(BANKS)`,
/// `RB = AW - BKW` (row address bits per bank).
#[derive(LogicBlock)]
pub struct Cvt<
    const B: usize,
    const WPB: usize,
    const BANKS: usize,
    const BW: usize,
    const WW: usize,
    const AW: usize,
    const BKW: usize,
    const RB: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: empties every vector in one cycle.
    pub reset: Signal<In, Bit>,
    // read-and-reset port
    /// Read (and zero) the word `rd_word` of block `rd_block`.
    pub rd_valid: Signal<In, Bit>,
    /// The read offered now is taken on this edge.
    pub rd_ready: Signal<Out, Bit>,
    pub rd_block: Signal<In, Bits<BW>>,
    pub rd_word: Signal<In, Bits<WW>>,
    /// `rd_data` holds the word read on the previous edge.
    pub rd_data_valid: Signal<Out, Bit>,
    /// The word read on the previous edge (0 when `rd_data_valid` is 0).
    pub rd_data: Signal<Out, Bits<64>>,
    // OR-write port
    /// OR `wr_bits` into word `wr_word` of block `wr_block`.
    pub wr_valid: Signal<In, Bit>,
    /// The write offered now is taken on this edge.
    pub wr_ready: Signal<Out, Bit>,
    pub wr_block: Signal<In, Bits<BW>>,
    pub wr_word: Signal<In, Bits<WW>>,
    pub wr_bits: Signal<In, Bits<64>>,
    // summary
    /// Block whose word summary `q_words` shows.
    pub q_block: Signal<In, Bits<BW>>,
    /// Bit `w`: word `w` of `q_block` has a set bit.
    pub q_words: Signal<Out, Bits<WPB>>,
    /// Bit `b`: block `b`'s vector is non-empty.
    pub nonempty: Signal<Out, Bits<B>>,
    /// The word memories.
    bank: [RAM<Bits<64>, RB>; BANKS],
    /// Non-empty bit of every word, one register per block.
    nz: [DFF<Bits<WPB>>; B],
    /// A read-modify-write completes on the next edge: its address and bits.
    pend: DFF<Bit>,
    pend_bank: DFF<Bits<BKW>>,
    pend_row: DFF<Bits<RB>>,
    pend_bits: DFF<Bits<64>>,
    /// Read response: valid, bank, and whether the word held a set bit.
    resp_valid: DFF<Bit>,
    resp_bank: DFF<Bits<BKW>>,
    resp_nz: DFF<Bit>,
    rd_bank: Signal<Local, Bits<BKW>>,
    wr_bank: Signal<Local, Bits<BKW>>,
    rd_row: Signal<Local, Bits<RB>>,
    wr_row: Signal<Local, Bits<RB>>,
    rd_word_bit: Signal<Local, Bits<WPB>>,
    wr_word_bit: Signal<Local, Bits<WPB>>,
    rd_nz: Signal<Local, Bit>,
    wr_nz: Signal<Local, Bit>,
    rd_fire: Signal<Local, Bit>,
    wr_fire: Signal<Local, Bit>,
    acc: Signal<Local, Bits<B>>,
    q_acc: Signal<Local, Bits<WPB>>,
    rd_word_q: Signal<Local, Bits<64>>,
    clr: Signal<Local, Bits<WPB>>,
    set: Signal<Local, Bits<WPB>>,
    ids: [Constant<Bits<BW>>; B],
    bank_ids: [Constant<Bits<BKW>>; BANKS],
    /// Bank and row contributions of block `b` (`b*WPB`) and of word `w`.
    bank_of_block: [Constant<Bits<BKW>>; B],
    row_of_block: [Constant<Bits<RB>>; B],
    word_ids: [Constant<Bits<WW>>; WPB],
    bank_of_word: [Constant<Bits<BKW>>; WPB],
    row_of_word: [Constant<Bits<RB>>; WPB],
    block_bit: [Constant<Bits<B>>; B],
    one_w: Constant<Bits<WPB>>,
    zero_w: Constant<Bits<WPB>>,
    zero_b: Constant<Bits<B>>,
    zero64: Constant<Bits<64>>,
    zero_bk: Constant<Bits<BKW>>,
    zero_rb: Constant<Bits<RB>>,
}

impl<
        const B: usize,
        const WPB: usize,
        const BANKS: usize,
        const BW: usize,
        const WW: usize,
        const AW: usize,
        const BKW: usize,
        const RB: usize,
    > Default for Cvt<B, WPB, BANKS, BW, WW, AW, BKW, RB>
{
    fn default() -> Self {
        assert!(B >= 2, "at least two blocks");
        assert!(
            WPB >= 2 && WPB.is_power_of_two(),
            "words per block: a power of two >= 2"
        );
        assert!(
            BANKS >= 2 && BANKS.is_power_of_two(),
            "banks: a power of two >= 2"
        );
        assert_eq!(BW, clog2(B), "BW must be clog2(B)");
        assert_eq!(WW, clog2(WPB), "WW must be clog2(WPB)");
        assert_eq!(AW, BW + WW, "AW must be BW + WW");
        assert_eq!(BKW, clog2(BANKS), "BKW must be clog2(BANKS)");
        assert!(AW > BKW, "more words than banks");
        assert_eq!(RB, AW - BKW, "RB must be AW - BKW");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            rd_valid: Default::default(),
            rd_ready: Default::default(),
            rd_block: Default::default(),
            rd_word: Default::default(),
            rd_data_valid: Default::default(),
            rd_data: Default::default(),
            wr_valid: Default::default(),
            wr_ready: Default::default(),
            wr_block: Default::default(),
            wr_word: Default::default(),
            wr_bits: Default::default(),
            q_block: Default::default(),
            q_words: Default::default(),
            nonempty: Default::default(),
            bank: array_init::array_init(|_| Default::default()),
            nz: array_init::array_init(|_| Default::default()),
            pend: Default::default(),
            pend_bank: Default::default(),
            pend_row: Default::default(),
            pend_bits: Default::default(),
            resp_valid: Default::default(),
            resp_bank: Default::default(),
            resp_nz: Default::default(),
            rd_bank: Default::default(),
            wr_bank: Default::default(),
            rd_row: Default::default(),
            wr_row: Default::default(),
            rd_word_bit: Default::default(),
            wr_word_bit: Default::default(),
            rd_nz: Default::default(),
            wr_nz: Default::default(),
            rd_fire: Default::default(),
            wr_fire: Default::default(),
            acc: Default::default(),
            q_acc: Default::default(),
            rd_word_q: Default::default(),
            clr: Default::default(),
            set: Default::default(),
            ids: array_init::array_init(|i| Constant::new(Bits::<BW>::from(i as u64))),
            bank_of_block: array_init::array_init(|b| {
                Constant::new(Bits::<BKW>::from(((b * WPB) % BANKS) as u64))
            }),
            row_of_block: array_init::array_init(|b| {
                Constant::new(Bits::<RB>::from(((b * WPB) / BANKS) as u64))
            }),
            word_ids: array_init::array_init(|w| Constant::new(Bits::<WW>::from(w as u64))),
            bank_of_word: array_init::array_init(|w| {
                Constant::new(Bits::<BKW>::from((w % BANKS) as u64))
            }),
            row_of_word: array_init::array_init(|w| {
                Constant::new(Bits::<RB>::from((w / BANKS) as u64))
            }),
            bank_ids: array_init::array_init(|i| Constant::new(Bits::<BKW>::from(i as u64))),
            block_bit: array_init::array_init(|i| {
                let mut v = Bits::<B>::default();
                v.set_bits::<1>(i, Bits::<1>::from(true));
                Constant::new(v)
            }),
            one_w: Constant::new(Bits::<WPB>::from(1u64)),
            zero_w: Constant::new(Bits::default()),
            zero_b: Constant::new(Bits::default()),
            zero64: Constant::new(Bits::default()),
            zero_bk: Constant::new(Bits::default()),
            zero_rb: Constant::new(Bits::default()),
        }
    }
}

impl<
        const B: usize,
        const WPB: usize,
        const BANKS: usize,
        const BW: usize,
        const WW: usize,
        const AW: usize,
        const BKW: usize,
        const RB: usize,
    > Logic for Cvt<B, WPB, BANKS, BW, WW, AW, BKW, RB>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, pend, pend_bank, pend_row, pend_bits, resp_valid, resp_bank, resp_nz
        );
        for b in 0..B {
            self.nz[b].clock.next = self.clock.val();
        }
        // Bank and row of the addressed words: g = b*WPB | w (powers of two), so
        // bank = (b*WPB mod BANKS) | (w mod BANKS), row = (b*WPB / BANKS) | (w / BANKS),
        // built from sized constant tables.
        self.rd_bank.next = self.zero_bk.val();
        self.rd_row.next = self.zero_rb.val();
        self.wr_bank.next = self.zero_bk.val();
        self.wr_row.next = self.zero_rb.val();
        for b in 0..B {
            if self.rd_block.val() == self.ids[b].val() {
                self.rd_bank.next = self.bank_of_block[b].val();
                self.rd_row.next = self.row_of_block[b].val();
            }
            if self.wr_block.val() == self.ids[b].val() {
                self.wr_bank.next = self.bank_of_block[b].val();
                self.wr_row.next = self.row_of_block[b].val();
            }
        }
        for w in 0..WPB {
            if self.rd_word.val() == self.word_ids[w].val() {
                self.rd_bank.next = self.rd_bank.val() | self.bank_of_word[w].val();
                self.rd_row.next = self.rd_row.val() | self.row_of_word[w].val();
            }
            if self.wr_word.val() == self.word_ids[w].val() {
                self.wr_bank.next = self.wr_bank.val() | self.bank_of_word[w].val();
                self.wr_row.next = self.wr_row.val() | self.row_of_word[w].val();
            }
        }
        self.rd_word_bit.next = self.one_w.val() << self.rd_word.val();
        self.wr_word_bit.next = self.one_w.val() << self.wr_word.val();
        // Non-empty bits of the addressed words, the summary and the query.
        self.rd_nz.next = false;
        self.wr_nz.next = false;
        self.q_acc.next = self.zero_w.val();
        self.acc.next = self.zero_b.val();
        for b in 0..B {
            if self.rd_block.val() == self.ids[b].val() {
                self.rd_nz.next = (self.nz[b].q.val() & self.rd_word_bit.val()).any();
            }
            if self.wr_block.val() == self.ids[b].val() {
                self.wr_nz.next = (self.nz[b].q.val() & self.wr_word_bit.val()).any();
            }
            if self.q_block.val() == self.ids[b].val() {
                self.q_acc.next = self.nz[b].q.val();
            }
            if self.nz[b].q.val().any() {
                self.acc.next = self.acc.val() | self.block_bit[b].val();
            }
        }
        // Ports are assigned once: a default-then-override glitch on an output wakes
        // the parent's and the other children's blocks again under Icarus.
        self.nonempty.next = self.acc.val();
        self.q_words.next = self.q_acc.val();
        // Handshakes: reads first; a write yields to a read of its bank and to a
        // read-modify-write in progress; a read of the word being written waits.
        self.rd_ready.next = !(self.pend.q.val()
            & (self.pend_bank.q.val() == self.rd_bank.val())
            & (self.pend_row.q.val() == self.rd_row.val()));
        self.wr_ready.next = !self.pend.q.val()
            & !(self.rd_valid.val() & (self.rd_bank.val() == self.wr_bank.val()));
        self.rd_fire.next = self.rd_valid.val() & self.rd_ready.val();
        self.wr_fire.next = self.wr_valid.val() & self.wr_ready.val() & self.wr_bits.val().any();
        // Banks.
        for k in 0..BANKS {
            self.bank[k].read_clock.next = self.clock.val();
            self.bank[k].write_clock.next = self.clock.val();
            self.bank[k].read_address.next = self.wr_row.val();
            if self.rd_valid.val() & (self.rd_bank.val() == self.bank_ids[k].val()) {
                self.bank[k].read_address.next = self.rd_row.val();
            }
            self.bank[k].write_enable.next = self.wr_fire.val()
                & !self.wr_nz.val()
                & (self.wr_bank.val() == self.bank_ids[k].val());
            self.bank[k].write_address.next = self.wr_row.val();
            self.bank[k].write_data.next = self.wr_bits.val();
            if self.pend.q.val() & (self.pend_bank.q.val() == self.bank_ids[k].val()) {
                self.bank[k].write_enable.next = true;
                self.bank[k].write_address.next = self.pend_row.q.val();
                self.bank[k].write_data.next =
                    self.bank[k].read_data.val() | self.pend_bits.q.val();
            }
        }
        // Read response.
        self.rd_data_valid.next = self.resp_valid.q.val();
        self.rd_word_q.next = self.zero64.val();
        for k in 0..BANKS {
            if self.resp_nz.q.val() & (self.resp_bank.q.val() == self.bank_ids[k].val()) {
                self.rd_word_q.next = self.bank[k].read_data.val();
            }
        }
        self.rd_data.next = self.rd_word_q.val();
        self.resp_valid.d.next = self.rd_fire.val();
        self.resp_nz.d.next = self.rd_fire.val() & self.rd_nz.val();
        self.resp_bank.d.next = self.rd_bank.val();
        // Read-modify-write of a non-empty word: read now, write on the next edge.
        self.pend.d.next = self.wr_fire.val() & self.wr_nz.val();
        self.pend_bank.d.next = self.wr_bank.val();
        self.pend_row.d.next = self.wr_row.val();
        self.pend_bits.d.next = self.wr_bits.val();
        // Non-empty bits: a read clears its word's, a write sets its word's.
        for b in 0..B {
            self.clr.next = self.zero_w.val();
            self.set.next = self.zero_w.val();
            if self.rd_fire.val() & (self.rd_block.val() == self.ids[b].val()) {
                self.clr.next = self.rd_word_bit.val();
            }
            if self.wr_fire.val() & (self.wr_block.val() == self.ids[b].val()) {
                self.set.next = self.wr_word_bit.val();
            }
            self.nz[b].d.next = (self.nz[b].q.val() & !self.clr.val()) | self.set.val();
            if self.reset.val() {
                self.nz[b].d.next = self.zero_w.val();
            }
        }
        if self.reset.val() {
            self.pend.d.next = false;
            self.pend_bank.d.next = self.zero_bk.val();
            self.pend_row.d.next = self.zero_rb.val();
            self.pend_bits.d.next = self.zero64.val();
            self.resp_valid.d.next = false;
            self.resp_nz.d.next = false;
            self.resp_bank.d.next = self.zero_bk.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = Cvt::<4, 2, 2, 2, 1, 3, 1, 2>::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("cvt_4x2", &vlog).unwrap();
    }
}
