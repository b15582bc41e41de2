//! VGIW control top (`vgiw-control-flow-coalescing.txt` §2, §3.2–3.3, §3.5; SPEC §5):
//! the basic block scheduler, the control vector table, one initiator CVU and one
//! terminator CVU, wired around a fabric port. A testbench stands in for the MT-CGRF
//! fabric: it takes injected threads, runs the current block for them and returns
//! each thread's branch outcome after any latency, in any order.
//!
//! ```text
//!            load/start              cfg_busy, cfg_block, cfg_word, running, cur_block
//!               │                                 ▲
//!           ┌───▼──────────────── bbs ────────────┴──┐
//!           │ rd (read-and-reset)   wr (OR)   summary │
//!           └──┬──────────────────▲────────────▲──────┘
//!        ┌─────▼─────── cvt ──────┴────┐  batches│ ▲ batches
//!        └─────────────────────────────┘         │ │
//!   fabric <── thr_* ── cvu_initiator <──────────┘ │
//!   fabric ── fin_* ──> cvu_terminator ────────────┘
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `load_*`, `start`, `tile_threads` | in | | the scheduler's table load, kernel start and tile size (`Bbs`) |
//! | `log_dim_x`, `log_dim_y` | in | 4, 4 | CUDA block shape for threadIdx (`CvuInitiator`) |
//! | `thr_valid`, `thr_ready`, `thr_id`, `tid_x`, `tid_y`, `tid_z` | out, in, out.. | 1, 1, 16, 16x3 | thread injected into the fabric |
//! | `fin_valid`, `fin_ready`, `fin_id`, `fin_taken` | in, out, in, in | 1, 1, 16, 1 | a thread finished the block with this branch outcome |
//! | `cfg_busy`, `cfg_block`, `cfg_word` | out | 1, BW, CW | reconfiguration (`Bbs`) |
//! | `running`, `cur_block`, `kernel_done`, `in_flight` | out | 1, BW, 1, 16 | scheduler state (`Bbs`) |
//! | `nonempty` | out | B | per-block non-empty summary (`Cvt`) |
//!
//! Storage: the sum of the four blocks (see their headers).
use crate::vgiw::bbs::Bbs;
use crate::vgiw::cvt::Cvt;
use crate::vgiw::cvu_initiator::CvuInitiator;
use crate::vgiw::cvu_terminator::CvuTerminator;
use rust_hdl::prelude::*;

/// The VGIW control path; parameters as in `Cvt` and `Bbs`.
#[derive(LogicBlock)]
pub struct VgiwControl<
    const B: usize,
    const WPB: usize,
    const BANKS: usize,
    const BW: usize,
    const WW: usize,
    const AW: usize,
    const BKW: usize,
    const RB: usize,
    const CW: usize,
    const RECONF: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: every block to its idle state.
    pub reset: Signal<In, Bit>,
    // table load and start
    pub load_valid: Signal<In, Bit>,
    pub load_block: Signal<In, Bits<BW>>,
    pub load_succ0: Signal<In, Bits<BW>>,
    pub load_succ1: Signal<In, Bits<BW>>,
    pub load_exit0: Signal<In, Bit>,
    pub load_exit1: Signal<In, Bit>,
    pub load_cfg: Signal<In, Bits<CW>>,
    pub start: Signal<In, Bit>,
    /// Threads in the tile (`Bbs::tile_threads`).
    pub tile_threads: Signal<In, Bits<16>>,
    pub log_dim_x: Signal<In, Bits<4>>,
    pub log_dim_y: Signal<In, Bits<4>>,
    // fabric: thread injection
    pub thr_valid: Signal<Out, Bit>,
    pub thr_ready: Signal<In, Bit>,
    pub thr_id: Signal<Out, Bits<16>>,
    pub tid_x: Signal<Out, Bits<16>>,
    pub tid_y: Signal<Out, Bits<16>>,
    pub tid_z: Signal<Out, Bits<16>>,
    // fabric: thread termination
    pub fin_valid: Signal<In, Bit>,
    pub fin_ready: Signal<Out, Bit>,
    pub fin_id: Signal<In, Bits<16>>,
    pub fin_taken: Signal<In, Bit>,
    // scheduler state
    pub cfg_busy: Signal<Out, Bit>,
    pub cfg_block: Signal<Out, Bits<BW>>,
    pub cfg_word: Signal<Out, Bits<CW>>,
    pub running: Signal<Out, Bit>,
    pub cur_block: Signal<Out, Bits<BW>>,
    pub kernel_done: Signal<Out, Bit>,
    pub in_flight: Signal<Out, Bits<16>>,
    pub nonempty: Signal<Out, Bits<B>>,
    bbs: Bbs<B, WPB, BW, WW, CW, RECONF>,
    cvt: Cvt<B, WPB, BANKS, BW, WW, AW, BKW, RB>,
    init: CvuInitiator,
    term: CvuTerminator,
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
        const CW: usize,
        const RECONF: usize,
    > Default for VgiwControl<B, WPB, BANKS, BW, WW, AW, BKW, RB, CW, RECONF>
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
            thr_valid: Default::default(),
            thr_ready: Default::default(),
            thr_id: Default::default(),
            tid_x: Default::default(),
            tid_y: Default::default(),
            tid_z: Default::default(),
            fin_valid: Default::default(),
            fin_ready: Default::default(),
            fin_id: Default::default(),
            fin_taken: Default::default(),
            cfg_busy: Default::default(),
            cfg_block: Default::default(),
            cfg_word: Default::default(),
            running: Default::default(),
            cur_block: Default::default(),
            kernel_done: Default::default(),
            in_flight: Default::default(),
            nonempty: Default::default(),
            bbs: Default::default(),
            cvt: Default::default(),
            init: Default::default(),
            term: Default::default(),
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
        const CW: usize,
        const RECONF: usize,
    > Logic for VgiwControl<B, WPB, BANKS, BW, WW, AW, BKW, RB, CW, RECONF>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.bbs.clock.next = self.clock.val();
        self.cvt.clock.next = self.clock.val();
        self.init.clock.next = self.clock.val();
        self.term.clock.next = self.clock.val();
        self.bbs.reset.next = self.reset.val();
        self.cvt.reset.next = self.reset.val();
        self.init.reset.next = self.reset.val();
        self.term.reset.next = self.reset.val();
        // table load, start
        self.bbs.load_valid.next = self.load_valid.val();
        self.bbs.load_block.next = self.load_block.val();
        self.bbs.load_succ0.next = self.load_succ0.val();
        self.bbs.load_succ1.next = self.load_succ1.val();
        self.bbs.load_exit0.next = self.load_exit0.val();
        self.bbs.load_exit1.next = self.load_exit1.val();
        self.bbs.load_cfg.next = self.load_cfg.val();
        self.bbs.start.next = self.start.val();
        self.bbs.tile_threads.next = self.tile_threads.val();
        // scheduler <-> table
        self.cvt.rd_valid.next = self.bbs.cvt_rd_valid.val();
        self.cvt.rd_block.next = self.bbs.cvt_rd_block.val();
        self.cvt.rd_word.next = self.bbs.cvt_rd_word.val();
        self.bbs.cvt_rd_ready.next = self.cvt.rd_ready.val();
        self.bbs.cvt_rd_data.next = self.cvt.rd_data.val();
        self.bbs.cvt_rd_data_valid.next = self.cvt.rd_data_valid.val();
        self.cvt.wr_valid.next = self.bbs.cvt_wr_valid.val();
        self.cvt.wr_block.next = self.bbs.cvt_wr_block.val();
        self.cvt.wr_word.next = self.bbs.cvt_wr_word.val();
        self.cvt.wr_bits.next = self.bbs.cvt_wr_bits.val();
        self.bbs.cvt_wr_ready.next = self.cvt.wr_ready.val();
        self.cvt.q_block.next = self.bbs.cvt_q_block.val();
        self.bbs.cvt_q_words.next = self.cvt.q_words.val();
        self.bbs.cvt_nonempty.next = self.cvt.nonempty.val();
        // scheduler -> initiator -> fabric
        self.init.in_valid.next = self.bbs.bat_valid.val();
        self.init.in_base.next = self.bbs.bat_base.val();
        self.init.in_bitmap.next = self.bbs.bat_bitmap.val();
        self.bbs.bat_ready.next = self.init.in_ready.val();
        self.init.log_dim_x.next = self.log_dim_x.val();
        self.init.log_dim_y.next = self.log_dim_y.val();
        self.init.out_ready.next = self.thr_ready.val();
        self.thr_valid.next = self.init.out_valid.val();
        self.thr_id.next = self.init.out_id.val();
        self.tid_x.next = self.init.tid_x.val();
        self.tid_y.next = self.init.tid_y.val();
        self.tid_z.next = self.init.tid_z.val();
        self.bbs.inj.next = self.init.out_valid.val() & self.thr_ready.val();
        self.bbs.init_busy.next = self.init.busy.val();
        // fabric -> terminator -> scheduler
        self.term.in_valid.next = self.fin_valid.val();
        self.term.in_id.next = self.fin_id.val();
        self.term.in_taken.next = self.fin_taken.val();
        self.fin_ready.next = self.term.in_ready.val();
        self.term.flush.next = self.bbs.term_flush.val();
        self.term.out_ready.next = self.bbs.term_ready.val();
        self.bbs.term_valid.next = self.term.out_valid.val();
        self.bbs.term_taken.next = self.term.out_taken.val();
        self.bbs.term_base.next = self.term.out_base.val();
        self.bbs.term_bitmap.next = self.term.out_bitmap.val();
        self.bbs.retire.next = self.fin_valid.val() & self.term.in_ready.val();
        self.bbs.term_empty.next = self.term.empty.val();
        // state out
        self.cfg_busy.next = self.bbs.cfg_busy.val();
        self.cfg_block.next = self.bbs.cfg_block.val();
        self.cfg_word.next = self.bbs.cfg_word.val();
        self.running.next = self.bbs.running.val();
        self.cur_block.next = self.bbs.cur_block.val();
        self.kernel_done.next = self.bbs.kernel_done.val();
        self.in_flight.next = self.bbs.in_flight.val();
        self.nonempty.next = self.cvt.nonempty.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = VgiwControl::<8, 4, 8, 3, 2, 5, 3, 2, 8, 4>::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("vgiw_control_8x4", &vlog).unwrap();
    }
}
