//! VGIW control top model (SPEC §5): the scheduler, table and CVU models composed
//! with the same wiring as the RTL top.
use crate::vgiw::bbs::{Bbs, BbsSees, Entry, CONFIG, DONE, STREAM};
use crate::vgiw::cvt::{Cvt, WordAddr};
use crate::vgiw::cvu_initiator::CvuInitiator;
use crate::vgiw::cvu_terminator::{CvuTerminator, Finished};

/// Inputs of one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct TopIn {
    pub reset: bool,
    pub load: Option<(usize, Entry)>,
    pub start: bool,
    pub tile_threads: u16,
    pub log_dim_x: u32,
    pub log_dim_y: u32,
    pub thr_ready: bool,
    pub fin: Option<Finished>,
}

/// Outputs of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TopOut {
    pub thr_valid: bool,
    pub thr_id: u16,
    pub tid: (u16, u16, u16),
    pub fin_ready: bool,
    pub cfg_busy: bool,
    pub cfg_block: usize,
    pub cfg_word: u64,
    pub running: bool,
    pub cur_block: usize,
    pub kernel_done: bool,
    pub in_flight: u16,
    pub nonempty: u64,
}

#[derive(Clone, Debug)]
pub struct VgiwControl {
    pub bbs: Bbs,
    pub cvt: Cvt,
    pub init: CvuInitiator,
    pub term: CvuTerminator,
}

/// Every signal of one cycle, for the outputs and the edge.
struct Wires {
    out: TopOut,
    sees: BbsSees,
    rd: Option<WordAddr>,
    wr: Option<(WordAddr, u64)>,
}

impl VgiwControl {
    pub fn new(blocks: usize, words: usize, banks: usize, reconf: u64) -> Self {
        VgiwControl {
            bbs: Bbs::new(blocks, words, reconf),
            cvt: Cvt::new(blocks, words, banks),
            init: CvuInitiator::new(),
            term: CvuTerminator::new(),
        }
    }

    fn wires(&self, i: &TopIn) -> Wires {
        let b = &self.bbs;
        let flush = b.term_flush();
        let cur = WordAddr {
            block: b.cur,
            word: 0,
        };
        let pre = self.cvt.outputs(None, cur, cur, b.cur);
        let mut sees = BbsSees {
            q_words: pre.q_words,
            nonempty: pre.nonempty,
            rd_data: pre.rd_data,
            tile_threads: i.tile_threads,
            ..Default::default()
        };
        // The scheduler's read request depends on registers and q_words only.
        let d0 = b.drives(&sees);
        let rd = d0.rd.map(|(block, word)| WordAddr { block, word });
        let rd_addr = WordAddr {
            block: b.cur,
            word: d0.rd_word,
        };
        // Terminator batch (does not depend on its out_ready).
        let t0 = self.term.outputs(i.fin, flush, false);
        sees.term_valid = t0.out_valid;
        sees.term_taken = t0.out_taken;
        sees.term = t0.out;
        sees.term_empty = t0.empty;
        let d1 = b.drives(&sees);
        let wr_addr = WordAddr {
            block: d1.wr.0,
            word: d1.wr.1,
        };
        let c = self.cvt.outputs(rd, rd_addr, wr_addr, b.cur);
        sees.rd_ready = c.rd_ready;
        sees.wr_ready = c.wr_ready;
        let d = b.drives(&sees);
        let t = self.term.outputs(i.fin, flush, d.term_ready);
        let io = self.init.outputs(i.log_dim_x, i.log_dim_y);
        sees.bat_ready = io.in_ready;
        sees.inj = io.out_valid && i.thr_ready;
        sees.init_busy = io.busy;
        sees.retire = i.fin.is_some() && t.in_ready;
        Wires {
            out: TopOut {
                thr_valid: io.out_valid,
                thr_id: io.out_id,
                tid: io.tid,
                fin_ready: t.in_ready,
                cfg_busy: b.state == CONFIG,
                cfg_block: b.cur,
                cfg_word: b.cur_entry.cfg,
                running: b.state == STREAM,
                cur_block: b.cur,
                kernel_done: b.state == DONE,
                in_flight: b.flight,
                nonempty: c.nonempty,
            },
            sees,
            rd,
            wr: d.wr_valid.then_some((wr_addr, d.wr_bits)),
        }
    }

    pub fn outputs(&self, i: &TopIn) -> TopOut {
        self.wires(i).out
    }

    /// Rising edge.
    pub fn clock(&mut self, i: &TopIn) {
        let w = self.wires(i);
        let flush = self.bbs.term_flush();
        let term_ready = self.bbs.drives(&w.sees).term_ready;
        let bat = self.bbs.bat_valid.then_some(self.bbs.bat);
        self.cvt.clock(i.reset, w.rd, w.wr);
        self.init.clock(i.reset, bat, i.thr_ready);
        self.term.clock(i.reset, i.fin, flush, term_ready);
        self.bbs.clock(i.reset, i.load, i.start, &w.sees);
    }
}
