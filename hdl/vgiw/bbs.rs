//! Basic block scheduler (`vgiw-control-flow-coalescing.txt` §2, §3.1, §3.2, Figure
//! 5; SPEC §5): holds the kernel's block table and per-block configurations, picks the
//! smallest non-empty block id, reconfigures the fabric, streams the block's thread
//! vector from the CVT to the initiator CVU as `<base, bitmap>` batches (skipping empty
//! words), ORs the terminator CVU's batches into the successor blocks' vectors, and
//! tracks in-flight threads.
//!
//! ```text
//!  IDLE ─start─> INIT (block 0 := all ones, one word per cycle) ─> SELECT
//!  SELECT: nonempty == 0 ─> DONE (kernel_done)
//!          s = lowest non-empty; prefetched entry is s ─> CONFIG, else FETCH ─> CONFIG
//!  CONFIG: RECONF cycles (cfg_busy, cfg_block, cfg_word) ─> STREAM
//!  STREAM: read lowest non-empty word of cur (read-and-reset) ─> batch ─> initiator
//!          terminator batch ─> OR into succ[taken] (dropped when that target exits)
//!          done when cur's vector is empty, no read/batch pending, the initiator is
//!          idle, no thread in flight and the terminator is drained ─> SELECT
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `load_valid`, `load_block` | in | 1, BW | write table entry `load_block` (IDLE or DONE only) |
//! | `load_succ0`, `load_succ1`, `load_exit0`, `load_exit1`, `load_cfg` | in | BW, BW, 1, 1, CW | successors for outcome 0 / 1, "outcome leaves the kernel", configuration word |
//! | `start`, `tile_threads` | in | 1, 16 | (IDLE or DONE) set threads `0 .. tile_threads` in block 0 and run |
//! | `cfg_busy`, `cfg_block`, `cfg_word` | out | 1, BW, CW | the fabric is being configured with `cfg_block`'s configuration (registered) |
//! | `running`, `cur_block` | out | 1, BW | the fabric runs `cur_block` (registered) |
//! | `kernel_done` | out | 1 | every vector is empty (registered) |
//! | `in_flight` | out | 16 | threads injected and not yet retired (registered) |
//! | `cvt_*` | out/in | | master side of the CVT ports (`Cvt`) |
//! | `bat_valid`, `bat_ready`, `bat_base`, `bat_bitmap` | out, in, out, out | 1, 1, 16, 64 | batch to the initiator (registered) |
//! | `inj`, `init_busy` | in | 1, 1 | a thread was injected this cycle; the initiator holds a batch |
//! | `term_valid`, `term_ready`, `term_taken`, `term_base`, `term_bitmap` | in, out, in, in, in | 1, 1, 1, 16, 64 | batch from the terminator; `term_ready` is combinational |
//! | `retire`, `term_empty`, `term_flush` | in, in, out | 1, 1, 1 | a thread reached the terminator; it holds nothing; drain it (`in_flight == 0`) |
//!
//! Timing: SELECT 1 cycle, FETCH 1 cycle only on a prefetch miss, CONFIG exactly
//! `RECONF` cycles (default 34, the paper's prototype). STREAM issues one CVT read
//! every second cycle at most (read, then the batch register fills); one batch is
//! at least one thread and the initiator is double-buffered.
//!
//! Storage: table RAMs `2^BW x (CW + 2 BW + 2)` (rust-hdl `RAM`), the current
//! block's entry `CW + 2 BW + 2`, batch register 81, state 3, counter 16, in-flight 16
//! and a few control bits.
//!
//! Choices where the paper is silent:
//! - Configuration prefetch FIFO of depth 1: while a block streams, the table entry of
//!   the lowest non-empty *other* block is read every cycle; if it is the block picked
//!   next, CONFIG starts at once, else one FETCH cycle reads it.
//! - A configuration is one `CW`-bit word standing in for the configuration tokens;
//!   `cfg_word` is held for the whole CONFIG phase.
//! - Tile size (§3.2) is an input, `tile_threads <= WPB * 64` (the runtime divides the
//!   CVT by the kernel's block count); INIT writes every word of block 0 (zero words
//!   past the tile are ignored by the CVT), one per cycle.
//! - The in-flight count is threads injected minus threads accepted by the
//!   terminator; a block is done only once the terminator has also sent its batches.
//! - `term_flush` is `in_flight == 0`: partial batches leave as soon as no thread of
//!   the block can still arrive.
//! - Table loads outside IDLE/DONE are ignored.
use crate::lib::priority_encoder::PriorityEncoder;
use rust_hdl::prelude::*;

pub const ST_IDLE: u64 = 0;
pub const ST_INIT: u64 = 1;
pub const ST_SELECT: u64 = 2;
pub const ST_FETCH: u64 = 3;
pub const ST_CONFIG: u64 = 4;
pub const ST_STREAM: u64 = 5;
pub const ST_DONE: u64 = 6;

/// Scheduler for `B` blocks of `WPB` words; `BW = clog2(B)` (>= 1), `WW = clog2(WPB)`,
/// `CW` configuration bits, `RECONF` reconfiguration cycles (>= 1).
#[derive(LogicBlock)]
pub struct Bbs<
    const B: usize,
    const WPB: usize,
    const BW: usize,
    const WW: usize,
    const CW: usize,
    const RECONF: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: IDLE, nothing in flight.
    pub reset: Signal<In, Bit>,
    // table load
    pub load_valid: Signal<In, Bit>,
    pub load_block: Signal<In, Bits<BW>>,
    /// Successor when the branch outcome is 0.
    pub load_succ0: Signal<In, Bits<BW>>,
    /// Successor when the branch outcome is 1.
    pub load_succ1: Signal<In, Bits<BW>>,
    /// Outcome 0 leaves the kernel (no successor).
    pub load_exit0: Signal<In, Bit>,
    /// Outcome 1 leaves the kernel (no successor).
    pub load_exit1: Signal<In, Bit>,
    /// The block's configuration word.
    pub load_cfg: Signal<In, Bits<CW>>,
    /// Start the kernel: every thread of the tile enters block 0.
    pub start: Signal<In, Bit>,
    /// Threads in the tile (ids `0 .. tile_threads`), at most `WPB * 64`; held while
    /// INIT runs.
    pub tile_threads: Signal<In, Bits<16>>,
    // fabric
    /// The fabric is being reconfigured.
    pub cfg_busy: Signal<Out, Bit>,
    /// Block being configured.
    pub cfg_block: Signal<Out, Bits<BW>>,
    /// Its configuration word.
    pub cfg_word: Signal<Out, Bits<CW>>,
    /// The fabric runs `cur_block`.
    pub running: Signal<Out, Bit>,
    pub cur_block: Signal<Out, Bits<BW>>,
    /// The kernel (tile) is done.
    pub kernel_done: Signal<Out, Bit>,
    /// Threads injected and not yet retired.
    pub in_flight: Signal<Out, Bits<16>>,
    // CVT master
    pub cvt_rd_valid: Signal<Out, Bit>,
    pub cvt_rd_ready: Signal<In, Bit>,
    pub cvt_rd_block: Signal<Out, Bits<BW>>,
    pub cvt_rd_word: Signal<Out, Bits<WW>>,
    /// `cvt_rd_data` holds the word read on the previous edge.
    pub cvt_rd_data_valid: Signal<In, Bit>,
    pub cvt_rd_data: Signal<In, Bits<64>>,
    pub cvt_wr_valid: Signal<Out, Bit>,
    pub cvt_wr_ready: Signal<In, Bit>,
    pub cvt_wr_block: Signal<Out, Bits<BW>>,
    pub cvt_wr_word: Signal<Out, Bits<WW>>,
    pub cvt_wr_bits: Signal<Out, Bits<64>>,
    pub cvt_q_block: Signal<Out, Bits<BW>>,
    pub cvt_q_words: Signal<In, Bits<WPB>>,
    pub cvt_nonempty: Signal<In, Bits<B>>,
    // initiator
    pub bat_valid: Signal<Out, Bit>,
    pub bat_ready: Signal<In, Bit>,
    pub bat_base: Signal<Out, Bits<16>>,
    pub bat_bitmap: Signal<Out, Bits<64>>,
    /// A thread was injected into the fabric this cycle.
    pub inj: Signal<In, Bit>,
    /// The initiator holds a batch.
    pub init_busy: Signal<In, Bit>,
    // terminator
    pub term_valid: Signal<In, Bit>,
    pub term_ready: Signal<Out, Bit>,
    pub term_taken: Signal<In, Bit>,
    pub term_base: Signal<In, Bits<16>>,
    pub term_bitmap: Signal<In, Bits<64>>,
    /// A thread was accepted by the terminator this cycle.
    pub retire: Signal<In, Bit>,
    /// The terminator holds no batch.
    pub term_empty: Signal<In, Bit>,
    /// Drain the terminator.
    pub term_flush: Signal<Out, Bit>,
    /// Block table: configuration word, successors, exit bits.
    cfg_ram: RAM<Bits<CW>, BW>,
    succ0_ram: RAM<Bits<BW>, BW>,
    succ1_ram: RAM<Bits<BW>, BW>,
    exit_ram: RAM<Bits<2>, BW>,
    /// The table RAMs' read data is block `ram_addr`'s entry (prefetch buffer).
    ram_valid: DFF<Bit>,
    ram_addr: DFF<Bits<BW>>,
    state: DFF<Bits<3>>,
    ctr: DFF<Bits<16>>,
    cur: DFF<Bits<BW>>,
    cur_cfg: DFF<Bits<CW>>,
    cur_succ0: DFF<Bits<BW>>,
    cur_succ1: DFF<Bits<BW>>,
    cur_exit: DFF<Bits<2>>,
    resp_pending: DFF<Bit>,
    resp_word: DFF<Bits<WW>>,
    batv: DFF<Bit>,
    bat_base_q: DFF<Bits<16>>,
    bat_bits_q: DFF<Bits<64>>,
    flight: DFF<Bits<16>>,
    sel_pe: PriorityEncoder<B, BW>,
    cand_pe: PriorityEncoder<B, BW>,
    word_pe: PriorityEncoder<WPB, WW>,
    cur_nonempty: Signal<Local, Bit>,
    load_we: Signal<Local, Bit>,
    exit_wd: Signal<Local, Bits<2>>,
    ram_rd_addr: Signal<Local, Bits<BW>>,
    cur_onehot: Signal<Local, Bits<B>>,
    exit_sel: Signal<Local, Bit>,
    rd_fire: Signal<Local, Bit>,
    done: Signal<Local, Bit>,
    tile_word: Signal<Local, Bits<16>>,
    wr_valid_l: Signal<Local, Bit>,
    wr_block_l: Signal<Local, Bits<BW>>,
    wr_word_l: Signal<Local, Bits<WW>>,
    wr_bits_l: Signal<Local, Bits<64>>,
    term_ready_l: Signal<Local, Bit>,
    six: Constant<Bits<16>>,
    ids: [Constant<Bits<BW>>; B],
    block_bit: [Constant<Bits<B>>; B],
    word_ids: [Constant<Bits<WW>>; WPB],
    word_base: [Constant<Bits<16>>; WPB],
    st_idle: Constant<Bits<3>>,
    st_init: Constant<Bits<3>>,
    st_select: Constant<Bits<3>>,
    st_fetch: Constant<Bits<3>>,
    st_config: Constant<Bits<3>>,
    st_stream: Constant<Bits<3>>,
    st_done: Constant<Bits<3>>,
    reconf_last: Constant<Bits<16>>,
    last_word: Constant<Bits<16>>,
    one16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    zero64: Constant<Bits<64>>,
    ones64: Constant<Bits<64>>,
    zero_b: Constant<Bits<B>>,
    zero_bw: Constant<Bits<BW>>,
    zero_ww: Constant<Bits<WW>>,
    zero_cw: Constant<Bits<CW>>,
    zero2: Constant<Bits<2>>,
    exit0_bit: Constant<Bits<2>>,
    exit1_bit: Constant<Bits<2>>,
}

impl<
        const B: usize,
        const WPB: usize,
        const BW: usize,
        const WW: usize,
        const CW: usize,
        const RECONF: usize,
    > Default for Bbs<B, WPB, BW, WW, CW, RECONF>
{
    fn default() -> Self {
        assert!(B >= 2, "at least two blocks");
        assert_eq!(BW, clog2(B), "BW must be clog2(B)");
        assert!(
            WPB >= 2 && WPB.is_power_of_two(),
            "words per block: a power of two >= 2"
        );
        assert_eq!(WW, clog2(WPB), "WW must be clog2(WPB)");
        assert!(WPB * 64 <= 1 << 16, "thread ids are 16 bits");
        assert!((1..=1 << 16).contains(&RECONF), "RECONF in 1..=65536");
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
            cfg_busy: Default::default(),
            cfg_block: Default::default(),
            cfg_word: Default::default(),
            running: Default::default(),
            cur_block: Default::default(),
            kernel_done: Default::default(),
            in_flight: Default::default(),
            cvt_rd_valid: Default::default(),
            cvt_rd_ready: Default::default(),
            cvt_rd_block: Default::default(),
            cvt_rd_word: Default::default(),
            cvt_rd_data_valid: Default::default(),
            cvt_rd_data: Default::default(),
            cvt_wr_valid: Default::default(),
            cvt_wr_ready: Default::default(),
            cvt_wr_block: Default::default(),
            cvt_wr_word: Default::default(),
            cvt_wr_bits: Default::default(),
            cvt_q_block: Default::default(),
            cvt_q_words: Default::default(),
            cvt_nonempty: Default::default(),
            bat_valid: Default::default(),
            bat_ready: Default::default(),
            bat_base: Default::default(),
            bat_bitmap: Default::default(),
            inj: Default::default(),
            init_busy: Default::default(),
            term_valid: Default::default(),
            term_ready: Default::default(),
            term_taken: Default::default(),
            term_base: Default::default(),
            term_bitmap: Default::default(),
            retire: Default::default(),
            term_empty: Default::default(),
            term_flush: Default::default(),
            cfg_ram: Default::default(),
            succ0_ram: Default::default(),
            succ1_ram: Default::default(),
            exit_ram: Default::default(),
            ram_valid: Default::default(),
            ram_addr: Default::default(),
            state: Default::default(),
            ctr: Default::default(),
            cur: Default::default(),
            cur_cfg: Default::default(),
            cur_succ0: Default::default(),
            cur_succ1: Default::default(),
            cur_exit: Default::default(),
            resp_pending: Default::default(),
            resp_word: Default::default(),
            batv: Default::default(),
            bat_base_q: Default::default(),
            bat_bits_q: Default::default(),
            flight: Default::default(),
            sel_pe: Default::default(),
            cand_pe: Default::default(),
            word_pe: Default::default(),
            cur_nonempty: Default::default(),
            load_we: Default::default(),
            exit_wd: Default::default(),
            ram_rd_addr: Default::default(),
            cur_onehot: Default::default(),
            exit_sel: Default::default(),
            rd_fire: Default::default(),
            done: Default::default(),
            tile_word: Default::default(),
            wr_valid_l: Default::default(),
            wr_block_l: Default::default(),
            wr_word_l: Default::default(),
            wr_bits_l: Default::default(),
            term_ready_l: Default::default(),
            six: Constant::new(Bits::<16>::from(6u64)),
            ids: array_init::array_init(|i| Constant::new(Bits::<BW>::from(i as u64))),
            block_bit: array_init::array_init(|i| {
                let mut v = Bits::<B>::default();
                v.set_bits::<1>(i, Bits::<1>::from(true));
                Constant::new(v)
            }),
            word_ids: array_init::array_init(|w| Constant::new(Bits::<WW>::from(w as u64))),
            word_base: array_init::array_init(|w| Constant::new(Bits::<16>::from(64 * w as u64))),
            st_idle: Constant::new(ST_IDLE.into()),
            st_init: Constant::new(ST_INIT.into()),
            st_select: Constant::new(ST_SELECT.into()),
            st_fetch: Constant::new(ST_FETCH.into()),
            st_config: Constant::new(ST_CONFIG.into()),
            st_stream: Constant::new(ST_STREAM.into()),
            st_done: Constant::new(ST_DONE.into()),
            reconf_last: Constant::new(Bits::<16>::from(RECONF as u64 - 1)),
            last_word: Constant::new(Bits::<16>::from(WPB as u64 - 1)),
            one16: Constant::new(Bits::<16>::from(1u64)),
            zero16: Constant::new(Bits::default()),
            zero64: Constant::new(Bits::default()),
            ones64: Constant::new(Bits::<64>::mask()),
            zero_b: Constant::new(Bits::default()),
            zero_bw: Constant::new(Bits::default()),
            zero_ww: Constant::new(Bits::default()),
            zero_cw: Constant::new(Bits::default()),
            zero2: Constant::new(Bits::default()),
            exit0_bit: Constant::new(Bits::<2>::from(1u64)),
            exit1_bit: Constant::new(Bits::<2>::from(2u64)),
        }
    }
}

impl<
        const B: usize,
        const WPB: usize,
        const BW: usize,
        const WW: usize,
        const CW: usize,
        const RECONF: usize,
    > Logic for Bbs<B, WPB, BW, WW, CW, RECONF>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            ram_valid,
            ram_addr,
            state,
            ctr,
            cur,
            cur_cfg,
            cur_succ0,
            cur_succ1,
            cur_exit,
            resp_pending,
            resp_word,
            batv,
            bat_base_q,
            bat_bits_q,
            flight
        );
        // Block selection: lowest non-empty block; prefetch candidate: lowest
        // non-empty block other than the current one.
        self.cur_onehot.next = self.zero_b.val();
        for b in 0..B {
            if self.cur.q.val() == self.ids[b].val() {
                self.cur_onehot.next = self.block_bit[b].val();
            }
        }
        self.cur_nonempty.next = (self.cvt_nonempty.val() & self.cur_onehot.val()).any();
        self.sel_pe.mask.next = self.cvt_nonempty.val();
        self.cand_pe.mask.next = self.cvt_nonempty.val() & !self.cur_onehot.val();
        self.cvt_q_block.next = self.cur.q.val();
        self.word_pe.mask.next = self.cvt_q_words.val();
        // Table RAMs: loads; reads for the prefetch (STREAM) or the selection.
        self.cfg_ram.read_clock.next = self.clock.val();
        self.cfg_ram.write_clock.next = self.clock.val();
        self.succ0_ram.read_clock.next = self.clock.val();
        self.succ0_ram.write_clock.next = self.clock.val();
        self.succ1_ram.read_clock.next = self.clock.val();
        self.succ1_ram.write_clock.next = self.clock.val();
        self.exit_ram.read_clock.next = self.clock.val();
        self.exit_ram.write_clock.next = self.clock.val();
        self.load_we.next = self.load_valid.val()
            & ((self.state.q.val() == self.st_idle.val())
                | (self.state.q.val() == self.st_done.val()));
        self.cfg_ram.write_enable.next = self.load_we.val();
        self.succ0_ram.write_enable.next = self.load_we.val();
        self.succ1_ram.write_enable.next = self.load_we.val();
        self.exit_ram.write_enable.next = self.load_we.val();
        self.cfg_ram.write_address.next = self.load_block.val();
        self.succ0_ram.write_address.next = self.load_block.val();
        self.succ1_ram.write_address.next = self.load_block.val();
        self.exit_ram.write_address.next = self.load_block.val();
        self.cfg_ram.write_data.next = self.load_cfg.val();
        self.succ0_ram.write_data.next = self.load_succ0.val();
        self.succ1_ram.write_data.next = self.load_succ1.val();
        self.exit_wd.next = self.zero2.val();
        if self.load_exit0.val() {
            self.exit_wd.next = self.exit0_bit.val();
        }
        if self.load_exit1.val() {
            self.exit_wd.next = self.exit_wd.val() | self.exit1_bit.val();
        }
        self.exit_ram.write_data.next = self.exit_wd.val();
        self.ram_rd_addr.next = self.sel_pe.index.val();
        self.ram_valid.d.next = self.state.q.val() == self.st_select.val();
        if self.state.q.val() == self.st_stream.val() {
            self.ram_rd_addr.next = self.cand_pe.index.val();
            self.ram_valid.d.next = self.cand_pe.valid.val();
        }
        self.cfg_ram.read_address.next = self.ram_rd_addr.val();
        self.succ0_ram.read_address.next = self.ram_rd_addr.val();
        self.succ1_ram.read_address.next = self.ram_rd_addr.val();
        self.exit_ram.read_address.next = self.ram_rd_addr.val();
        self.ram_addr.d.next = self.ram_rd_addr.val();
        // Outputs from registers.
        self.cfg_busy.next = self.state.q.val() == self.st_config.val();
        self.cfg_block.next = self.cur.q.val();
        self.cfg_word.next = self.cur_cfg.q.val();
        self.running.next = self.state.q.val() == self.st_stream.val();
        self.cur_block.next = self.cur.q.val();
        self.kernel_done.next = self.state.q.val() == self.st_done.val();
        self.in_flight.next = self.flight.q.val();
        self.term_flush.next = !self.flight.q.val().any();
        self.bat_valid.next = self.batv.q.val();
        self.bat_base.next = self.bat_base_q.q.val();
        self.bat_bitmap.next = self.bat_bits_q.q.val();
        // CVT reads: the lowest non-empty word of the current block.
        self.cvt_rd_valid.next = (self.state.q.val() == self.st_stream.val())
            & self.word_pe.valid.val()
            & !self.resp_pending.q.val()
            & !self.batv.q.val();
        self.cvt_rd_block.next = self.cur.q.val();
        self.cvt_rd_word.next = self.word_pe.index.val();
        self.rd_fire.next = self.cvt_rd_valid.val() & self.cvt_rd_ready.val();
        // CVT writes: the entry block's words in INIT, terminator batches otherwise.
        self.exit_sel.next = (self.cur_exit.q.val() & self.exit0_bit.val()).any();
        self.wr_block_l.next = self.cur_succ0.q.val();
        if self.term_taken.val() {
            self.exit_sel.next = (self.cur_exit.q.val() & self.exit1_bit.val()).any();
            self.wr_block_l.next = self.cur_succ1.q.val();
        }
        // Batches are 64-aligned: the word whose base matches (a full compare, so a
        // base outside the table cannot alias a word).
        self.wr_word_l.next = self.zero_ww.val();
        for w in 0..WPB {
            if self.term_base.val() == self.word_base[w].val() {
                self.wr_word_l.next = self.word_ids[w].val();
            }
        }
        self.wr_bits_l.next = self.term_bitmap.val();
        self.wr_valid_l.next = self.term_valid.val() & !self.exit_sel.val();
        self.term_ready_l.next = self.exit_sel.val() | self.cvt_wr_ready.val();
        if self.state.q.val() == self.st_init.val() {
            self.wr_valid_l.next = true;
            self.wr_block_l.next = self.zero_bw.val();
            self.wr_word_l.next = self.ctr.q.val().get_bits::<WW>(0);
            // Word w of the tile: all ones below the last word, the remainder in it.
            self.wr_bits_l.next = self.zero64.val();
            if self.ctr.q.val() == self.tile_word.val() {
                self.wr_bits_l.next =
                    !(self.ones64.val() << self.tile_threads.val().get_bits::<6>(0));
            }
            if self.ctr.q.val() < self.tile_word.val() {
                self.wr_bits_l.next = self.ones64.val();
            }
            self.term_ready_l.next = false;
        }
        self.tile_word.next = self.tile_threads.val() >> self.six.val();
        // In-flight threads.
        if self.inj.val() & !self.retire.val() {
            self.flight.d.next = self.flight.q.val() + self.one16.val();
        }
        if !self.inj.val() & self.retire.val() {
            self.flight.d.next = self.flight.q.val() - self.one16.val();
        }
        // Read responses become the batch register.
        if self.batv.q.val() & self.bat_ready.val() {
            self.batv.d.next = false;
        }
        if self.resp_pending.q.val() {
            self.resp_pending.d.next = false;
        }
        if self.cvt_rd_data_valid.val() {
            self.batv.d.next = self.cvt_rd_data.val().any();
            self.bat_bits_q.d.next = self.cvt_rd_data.val();
            self.bat_base_q.d.next = self.zero16.val();
            for w in 0..WPB {
                if self.resp_word.q.val() == self.word_ids[w].val() {
                    self.bat_base_q.d.next = self.word_base[w].val();
                }
            }
        }
        if self.rd_fire.val() {
            self.resp_pending.d.next = true;
            self.resp_word.d.next = self.word_pe.index.val();
        }
        self.done.next = !self.cur_nonempty.val()
            & !self.resp_pending.q.val()
            & !self.batv.q.val()
            & !self.init_busy.val()
            & !self.flight.q.val().any()
            & self.term_empty.val()
            & !self.term_valid.val();
        // The state machine.
        if ((self.state.q.val() == self.st_idle.val()) | (self.state.q.val() == self.st_done.val()))
            & self.start.val()
        {
            self.state.d.next = self.st_init.val();
            self.ctr.d.next = self.zero16.val();
        }
        if (self.state.q.val() == self.st_init.val()) & self.cvt_wr_ready.val() {
            self.ctr.d.next = self.ctr.q.val() + self.one16.val();
            if self.ctr.q.val() == self.last_word.val() {
                self.state.d.next = self.st_select.val();
            }
        }
        if self.state.q.val() == self.st_select.val() {
            self.cur.d.next = self.sel_pe.index.val();
            self.ctr.d.next = self.zero16.val();
            if !self.sel_pe.valid.val() {
                self.state.d.next = self.st_done.val();
            } else if self.ram_valid.q.val() & (self.ram_addr.q.val() == self.sel_pe.index.val()) {
                self.state.d.next = self.st_config.val();
                self.cur_cfg.d.next = self.cfg_ram.read_data.val();
                self.cur_succ0.d.next = self.succ0_ram.read_data.val();
                self.cur_succ1.d.next = self.succ1_ram.read_data.val();
                self.cur_exit.d.next = self.exit_ram.read_data.val();
            } else {
                self.state.d.next = self.st_fetch.val();
            }
        }
        if self.state.q.val() == self.st_fetch.val() {
            self.state.d.next = self.st_config.val();
            self.cur_cfg.d.next = self.cfg_ram.read_data.val();
            self.cur_succ0.d.next = self.succ0_ram.read_data.val();
            self.cur_succ1.d.next = self.succ1_ram.read_data.val();
            self.cur_exit.d.next = self.exit_ram.read_data.val();
        }
        if self.state.q.val() == self.st_config.val() {
            self.ctr.d.next = self.ctr.q.val() + self.one16.val();
            if self.ctr.q.val() == self.reconf_last.val() {
                self.state.d.next = self.st_stream.val();
            }
        }
        if (self.state.q.val() == self.st_stream.val()) & self.done.val() {
            self.state.d.next = self.st_select.val();
        }
        // Ports to the CVT and the terminator are assigned once: a default-then-override
        // glitch wakes the parent's and the other children's blocks again under Icarus.
        self.cvt_wr_valid.next = self.wr_valid_l.val();
        self.cvt_wr_block.next = self.wr_block_l.val();
        self.cvt_wr_word.next = self.wr_word_l.val();
        self.cvt_wr_bits.next = self.wr_bits_l.val();
        self.term_ready.next = self.term_ready_l.val();
        if self.reset.val() {
            self.ram_valid.d.next = false;
            self.ram_addr.d.next = self.zero_bw.val();
            self.state.d.next = self.st_idle.val();
            self.ctr.d.next = self.zero16.val();
            self.cur.d.next = self.zero_bw.val();
            self.cur_cfg.d.next = self.zero_cw.val();
            self.cur_succ0.d.next = self.zero_bw.val();
            self.cur_succ1.d.next = self.zero_bw.val();
            self.cur_exit.d.next = self.zero2.val();
            self.resp_pending.d.next = false;
            self.resp_word.d.next = self.zero_ww.val();
            self.batv.d.next = false;
            self.bat_base_q.d.next = self.zero16.val();
            self.bat_bits_q.d.next = self.zero64.val();
            self.flight.d.next = self.zero16.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = Bbs::<4, 2, 2, 1, 8, 3>::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("bbs_4x2", &vlog).unwrap();
    }
}
