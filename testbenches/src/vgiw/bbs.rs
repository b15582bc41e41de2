//! Basic block scheduler bench: the BBS RTL alone against its model, with models of
//! the CVT, the two CVUs and a stand-in fabric on its ports (the scheduler cannot run
//! without a table to read and threads to retire). Random kernels (random CFGs with
//! loops, random per-thread paths, out-of-order completion) and random stalls on the
//! CVT read and write ports and on the initiator's batch port.
//!
//! Contracts (SPEC §5, VGIW §3.2–3.4):
//! - the block picked is the lowest non-empty one;
//! - reconfiguration lasts exactly `RECONF` cycles and the block runs right after it;
//! - prefetch: the table entry of the lowest non-empty other block is read while a
//!   block runs, so the next block starts configuring one cycle after the last one
//!   ends; a kernel's first block is fetched (one more cycle); `cfg_word` is the
//!   picked block's configuration;
//! - batches skip empty words: every CVT read targets a non-empty word, every read
//!   returns a non-empty word and every batch has a thread;
//! - a terminator batch is ORed into the successor the table names for its outcome,
//!   never when the outcome leaves the kernel;
//! - a block ends only when its vector is empty and none of its threads is in the
//!   initiator, the fabric or the terminator;
//! - every thread runs exactly the blocks its path dictates, its bit is set in at most
//!   one block; the kernel is done only once every thread left it.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use crate::vgiw::vgiw_control::Kernel;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::vgiw::bbs::Bbs;
use weft_sim::vgiw::bbs::{Bbs as Model, BbsSees, Entry, CONFIG, DONE, FETCH, STREAM};
use weft_sim::vgiw::cvt::{Cvt, WordAddr};
use weft_sim::vgiw::cvu_initiator::CvuInitiator;
use weft_sim::vgiw::cvu_terminator::{CvuTerminator, Finished};

/// Banks of the CVT model on the scheduler's ports.
pub const ENV_BANKS: usize = 8;

/// The bench's own inputs of one cycle (the scheduler's other inputs come from the
/// models on its ports).
#[derive(Clone, Copy, Debug, Default)]
pub struct BbsIn {
    pub reset: bool,
    pub load: Option<(usize, Entry)>,
    pub start: bool,
    pub tile_threads: u16,
    /// The fabric takes the initiator's thread.
    pub thr_ready: bool,
    /// A thread leaves the fabric.
    pub fin: Option<Finished>,
    /// Hold the CVT read port, the CVT write port, the initiator's batch port.
    pub stall_rd: bool,
    pub stall_wr: bool,
    pub stall_bat: bool,
}

/// Everything on the scheduler's ports in one cycle, from the models.
#[derive(Clone, Copy, Debug, Default)]
struct Env {
    sees: BbsSees,
    rd_data_valid: bool,
    /// The CVT read and write that fire on this edge.
    rd: Option<WordAddr>,
    wr: Option<(WordAddr, u64)>,
    term_ready: bool,
    thr: Option<u16>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Load(usize),
    Start,
    Run,
    Hold,
}

pub struct BbsBench<
    const B: usize,
    const WPB: usize,
    const BW: usize,
    const WW: usize,
    const CW: usize,
    const RECONF: usize,
> {
    pub uut: Bbs<B, WPB, BW, WW, CW, RECONF>,
    pub model: Model,
    pub cvt: Cvt,
    pub init: CvuInitiator,
    pub term: CvuTerminator,
    pub inputs: BbsIn,
    env: Env,
    /// Percent of cycles the fabric takes a thread.
    pub ready_percent: u32,
    /// Percent of cycles each of the CVT read, CVT write and batch ports is held.
    pub stall_percent: u32,
    /// Longest fabric latency in cycles.
    pub max_latency: u64,
    /// Run one fixed kernel (then hold) instead of random kernels back to back.
    pub fixed: Option<Kernel>,
    pub kernel: Option<Kernel>,
    paths: Vec<Vec<usize>>,
    phase: Phase,
    cycle: u64,
    ran: Vec<Vec<usize>>,
    in_fabric: Vec<bool>,
    /// Threads in the fabric: (id, block, ready cycle).
    fabric: Vec<(usize, usize, u64)>,
    held: Option<(usize, usize, bool)>,
    visits: Vec<Vec<u32>>,
    prev_cfg_busy: bool,
    prev_done: bool,
    prev_state: u8,
    /// Non-empty summary while selecting, and in the last cycle of the last block.
    select_nonempty: u64,
    last_stream_nonempty: u64,
    last_block: Option<usize>,
    /// Cycles since the last block ended; consecutive CONFIG cycles.
    gap: u64,
    busy_run: u64,
    /// Kernels completed, reconfigurations, CONFIG cycles, prefetch hits and misses,
    /// batches sent to the initiator, threads injected.
    pub kernels_done: u64,
    pub reconfigs: u64,
    pub config_cycles: u64,
    pub prefetch_hits: u64,
    pub prefetch_misses: u64,
    pub batches: u64,
    pub injected: u64,
    /// Block picks of the current kernel, in order.
    pub picks: Vec<usize>,
}

impl<
        const B: usize,
        const WPB: usize,
        const BW: usize,
        const WW: usize,
        const CW: usize,
        const RECONF: usize,
    > crate::presets::Tested for Bbs<B, WPB, BW, WW, CW, RECONF>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![
            ("BLOCKS", B),
            ("THREADS", WPB * 64),
            ("CFG_BITS", CW),
            ("RECONF", RECONF),
        ]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(BbsBench::<B, WPB, BW, WW, CW, RECONF>::default())
    }
}

impl<
        const B: usize,
        const WPB: usize,
        const BW: usize,
        const WW: usize,
        const CW: usize,
        const RECONF: usize,
    > Default for BbsBench<B, WPB, BW, WW, CW, RECONF>
{
    fn default() -> Self {
        let mut uut = Bbs::default();
        uut.connect_all();
        let threads = WPB * 64;
        BbsBench {
            uut,
            model: Model::new(B, WPB, RECONF as u64),
            cvt: Cvt::new(B, WPB, ENV_BANKS),
            init: CvuInitiator::new(),
            term: CvuTerminator::new(),
            inputs: BbsIn::default(),
            env: Env::default(),
            ready_percent: 80,
            stall_percent: 15,
            max_latency: 24,
            fixed: None,
            kernel: None,
            paths: vec![],
            phase: Phase::Load(0),
            cycle: 0,
            ran: vec![vec![]; threads],
            in_fabric: vec![false; threads],
            fabric: vec![],
            held: None,
            visits: vec![vec![0; B]; threads],
            prev_cfg_busy: false,
            prev_done: false,
            prev_state: 0,
            select_nonempty: 0,
            last_stream_nonempty: 0,
            last_block: None,
            gap: 0,
            busy_run: 0,
            kernels_done: 0,
            reconfigs: 0,
            config_cycles: 0,
            prefetch_hits: 0,
            prefetch_misses: 0,
            batches: 0,
            injected: 0,
            picks: vec![],
        }
    }
}

fn lowest(mask: u64) -> Option<usize> {
    (mask != 0).then(|| mask.trailing_zeros() as usize)
}

impl<
        const B: usize,
        const WPB: usize,
        const BW: usize,
        const WW: usize,
        const CW: usize,
        const RECONF: usize,
    > BbsBench<B, WPB, BW, WW, CW, RECONF>
{
    /// The models' side of every port this cycle, with the same wiring as the
    /// `vgiw_control` top plus the bench's stalls.
    fn environment(&self, i: &BbsIn) -> Env {
        let b = &self.model;
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
        // The read request depends on the scheduler's registers and q_words only.
        let d0 = b.drives(&sees);
        let rd = d0.rd.map(|(block, word)| WordAddr { block, word });
        let rd_addr = WordAddr {
            block: b.cur,
            word: d0.rd_word,
        };
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
        sees.rd_ready = c.rd_ready && !i.stall_rd;
        sees.wr_ready = c.wr_ready && !i.stall_wr;
        let d = b.drives(&sees);
        let t = self.term.outputs(i.fin, flush, d.term_ready);
        let io = self.init.outputs(0, 0);
        sees.bat_ready = io.in_ready && !i.stall_bat;
        sees.inj = io.out_valid && i.thr_ready;
        sees.init_busy = io.busy;
        sees.retire = i.fin.is_some() && t.in_ready;
        Env {
            sees,
            rd_data_valid: c.rd_data_valid,
            rd: rd.filter(|_| sees.rd_ready),
            wr: (d.wr_valid && sees.wr_ready).then_some((wr_addr, d.wr_bits)),
            term_ready: d.term_ready,
            thr: sees.inj.then_some(io.out_id),
        }
    }

    /// Applies explicit inputs; the ports the models drive follow from them.
    pub fn apply(&mut self, i: BbsIn) {
        let env = self.environment(&i);
        let s = &env.sees;
        let u = &mut self.uut;
        u.reset.next = i.reset;
        let (b, e) = i.load.unwrap_or_default();
        u.load_valid.next = i.load.is_some();
        u.load_block.next = (b as u64).into();
        u.load_succ0.next = (e.succ[0] as u64).into();
        u.load_succ1.next = (e.succ[1] as u64).into();
        u.load_exit0.next = e.exit[0];
        u.load_exit1.next = e.exit[1];
        u.load_cfg.next = e.cfg.into();
        u.start.next = i.start;
        u.tile_threads.next = u64::from(i.tile_threads).into();
        u.cvt_rd_ready.next = s.rd_ready;
        u.cvt_rd_data_valid.next = env.rd_data_valid;
        u.cvt_rd_data.next = s.rd_data.into();
        u.cvt_wr_ready.next = s.wr_ready;
        u.cvt_q_words.next = s.q_words.into();
        u.cvt_nonempty.next = s.nonempty.into();
        u.bat_ready.next = s.bat_ready;
        u.inj.next = s.inj;
        u.init_busy.next = s.init_busy;
        u.term_valid.next = s.term_valid;
        u.term_taken.next = s.term_taken;
        u.term_base.next = u64::from(s.term.base).into();
        u.term_bitmap.next = s.term.bitmap.into();
        u.retire.next = s.retire;
        u.term_empty.next = s.term_empty;
        self.inputs = i;
        self.env = env;
    }

    fn new_kernel(&mut self, rng: &mut ChaCha8Rng) {
        let k = match &self.fixed {
            Some(k) => k.clone(),
            None => {
                let tile = if rng.gen_bool(0.5) {
                    WPB * 64
                } else {
                    rng.gen_range(1..=WPB * 64)
                };
                Kernel::random(B, tile, rng)
            }
        };
        self.paths = (0..WPB * 64)
            .map(|t| if t < k.tile { k.path(t) } else { vec![] })
            .collect();
        self.kernel = Some(k);
        self.phase = Phase::Load(0);
    }

    fn cfg_mask() -> u64 {
        if CW >= 64 {
            u64::MAX
        } else {
            (1 << CW) - 1
        }
    }

    /// Per-cycle contracts on what the scheduler drives (model == RTL is checked
    /// first, so these hold for both).
    fn cycle_contracts(&self, k: &Kernel) -> Result<(), Mismatch> {
        let m = &self.model;
        let s = &self.env.sees;
        let d = m.drives(s);
        if let Some((block, word)) = d.rd {
            contract(
                "a CVT read targets a non-empty word of the running block",
                m.state == STREAM && block == m.cur && s.q_words >> word & 1 == 1,
                || format!("read ({block}, {word}), q_words {:#x}", s.q_words),
            )?;
        }
        if self.env.rd_data_valid {
            contract("a read returns a non-empty word", s.rd_data != 0, || {
                "an empty word was read".into()
            })?;
        }
        if m.bat_valid {
            contract("a batch holds a thread", m.bat.bitmap != 0, || {
                format!("empty batch at base {}", m.bat.base)
            })?;
        }
        if m.state == STREAM && s.term_valid {
            let e = k.table[m.cur];
            let t = usize::from(s.term_taken);
            contract(
                "a terminator batch goes to the outcome's successor or leaves",
                d.wr_valid != e.exit[t] && (e.exit[t] || d.wr.0 == e.succ[t]),
                || {
                    format!(
                        "block {} outcome {t}: write {} to {}, table {e:?}",
                        m.cur, d.wr_valid, d.wr.0
                    )
                },
            )?;
        }
        Ok(())
    }
}

impl<
        const B: usize,
        const WPB: usize,
        const BW: usize,
        const WW: usize,
        const CW: usize,
        const RECONF: usize,
    > Bench for BbsBench<B, WPB, BW, WW, CW, RECONF>
{
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        self.cycle = cycle;
        if cycle == 0 || self.kernel.is_none() {
            self.new_kernel(rng);
        }
        let k = self.kernel.clone().unwrap();
        let stall = self.stall_percent;
        let mut i = BbsIn {
            reset: cycle == 0,
            tile_threads: k.tile as u16,
            thr_ready: rng.gen_ratio(self.ready_percent, 100),
            stall_rd: rng.gen_ratio(stall, 100),
            stall_wr: rng.gen_ratio(stall, 100),
            stall_bat: rng.gen_ratio(stall, 100),
            ..Default::default()
        };
        match self.phase {
            Phase::Load(b) if cycle > 0 => {
                let mut e = k.table[b];
                e.cfg &= Self::cfg_mask();
                i.load = Some((b, e));
            }
            Phase::Start => i.start = true,
            _ => {}
        }
        if self.held.is_none() && !self.fabric.is_empty() && rng.gen_ratio(3, 4) {
            self.held = k.finish_one(&mut self.fabric, &self.visits, cycle, rng);
        }
        i.fin = self.held.map(|(t, _, taken)| Finished {
            id: t as u16,
            taken,
        });
        self.apply(i);
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let m = &self.model;
        let d = m.drives(&self.env.sees);
        let u = &self.uut;
        expect("cfg_busy", m.state == CONFIG, u.cfg_busy.val())?;
        expect("cfg_block", m.cur as u64, small(u.cfg_block.val()))?;
        expect("cfg_word", m.cur_entry.cfg, small(u.cfg_word.val()))?;
        expect("running", m.state == STREAM, u.running.val())?;
        expect("cur_block", m.cur as u64, small(u.cur_block.val()))?;
        expect("kernel_done", m.state == DONE, u.kernel_done.val())?;
        expect("in_flight", m.flight, small(u.in_flight.val()) as u16)?;
        expect("cvt_rd_valid", d.rd.is_some(), u.cvt_rd_valid.val())?;
        if let Some((block, word)) = d.rd {
            expect("cvt_rd_block", block as u64, small(u.cvt_rd_block.val()))?;
            expect("cvt_rd_word", word as u64, small(u.cvt_rd_word.val()))?;
        }
        expect("cvt_wr_valid", d.wr_valid, u.cvt_wr_valid.val())?;
        if d.wr_valid {
            expect("cvt_wr_block", d.wr.0 as u64, small(u.cvt_wr_block.val()))?;
            expect("cvt_wr_word", d.wr.1 as u64, small(u.cvt_wr_word.val()))?;
            expect("cvt_wr_bits", d.wr_bits, small(u.cvt_wr_bits.val()))?;
        }
        expect("cvt_q_block", m.cur as u64, small(u.cvt_q_block.val()))?;
        expect("bat_valid", m.bat_valid, u.bat_valid.val())?;
        if m.bat_valid {
            expect("bat_base", m.bat.base, small(u.bat_base.val()) as u16)?;
            expect("bat_bitmap", m.bat.bitmap, small(u.bat_bitmap.val()))?;
        }
        expect("term_ready", d.term_ready, u.term_ready.val())?;
        expect("term_flush", m.term_flush(), u.term_flush.val())?;
        if let Some(k) = &self.kernel {
            if !self.inputs.reset && self.phase == Phase::Run {
                self.cycle_contracts(k)?;
            }
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let env = self.env;
        let k = self.kernel.clone().unwrap();
        let flush = self.model.term_flush();
        let bat = (self.model.bat_valid && env.sees.bat_ready).then_some(self.model.bat);
        let clock_models = |me: &mut Self| {
            me.cvt.clock(i.reset, env.rd, env.wr);
            me.init.clock(i.reset, bat, i.thr_ready);
            me.term.clock(i.reset, i.fin, flush, env.term_ready);
            me.model.clock(i.reset, i.load, i.start, &env.sees);
        };
        if i.reset {
            clock_models(self);
            self.phase = Phase::Load(0);
            return Ok(());
        }
        let m = &self.model;
        let state_now = m.state;
        let cfg_busy = m.state == CONFIG;
        let running = m.state == STREAM;
        let nonempty = env.sees.nonempty;
        // Selection, reconfiguration length and prefetch.
        if !running && !cfg_busy {
            self.select_nonempty = nonempty;
            self.gap += 1;
        }
        if cfg_busy && !self.prev_cfg_busy {
            let picked = m.cur;
            let want = lowest(self.select_nonempty);
            contract(
                "the lowest non-empty block is picked",
                want == Some(picked),
                || format!("picked {picked}, non-empty {:#x}", self.select_nonempty),
            )?;
            match self.last_block {
                Some(prev) => {
                    // The lowest non-empty other block, read while `prev` ran, is the
                    // lowest non-empty block once `prev` is empty: always a hit.
                    let cand = lowest(self.last_stream_nonempty & !(1u64 << prev));
                    contract(
                        "the next block was prefetched: it configures 1 cycle after the last ends",
                        self.gap == 1 && cand == Some(picked),
                        || {
                            format!(
                                "gap {} cycles, prefetched {cand:?}, picked {picked}",
                                self.gap
                            )
                        },
                    )?;
                    self.prefetch_hits += 1;
                }
                None => {
                    contract(
                        "a kernel's first block is fetched (nothing was prefetched)",
                        self.prev_state == FETCH,
                        || format!("state before CONFIG {}", self.prev_state),
                    )?;
                    self.prefetch_misses += 1;
                }
            }
            self.picks.push(picked);
            self.reconfigs += 1;
            self.busy_run = 0;
        }
        if cfg_busy {
            self.config_cycles += 1;
            self.busy_run += 1;
            contract(
                "the fabric gets the picked block's configuration",
                m.cur_entry.cfg == k.table[m.cur].cfg & Self::cfg_mask(),
                || format!("block {} cfg {:#x}", m.cur, m.cur_entry.cfg),
            )?;
        }
        if running && self.prev_cfg_busy {
            contract(
                "reconfiguration lasts RECONF cycles",
                self.busy_run == RECONF as u64,
                || format!("{} cycles, RECONF {RECONF}", self.busy_run),
            )?;
        }
        if running {
            self.last_stream_nonempty = nonempty;
        }
        if m.bat_valid && env.sees.bat_ready {
            self.batches += 1;
        }
        // Injection: the thread's next block on its path.
        if let Some(id) = env.thr {
            let t = usize::from(id);
            let expected = self.paths[t].get(self.ran[t].len()).copied();
            contract(
                "a thread runs the block its path dictates",
                t < k.tile && expected == Some(m.cur) && running,
                || {
                    format!(
                        "thread {t} injected in block {} (running {running}), path says {expected:?} after {:?}",
                        m.cur, self.ran[t]
                    )
                },
            )?;
            contract("a thread is not injected twice", !self.in_fabric[t], || {
                format!("thread {t} already in the fabric")
            })?;
            self.in_fabric[t] = true;
            self.ran[t].push(m.cur);
            self.injected += 1;
            let lat =
                1 + (self.cycle ^ (t as u64) << 7).wrapping_mul(0x9e37_79b9) % self.max_latency;
            self.fabric.push((t, m.cur, self.cycle + lat));
        }
        if let (Some((t, b, _)), true) = (self.held, env.sees.retire) {
            self.visits[t][b] += 1;
            self.in_fabric[t] = false;
            self.held = None;
        }
        let cur = m.cur;
        let held_by_init = self.init.outputs(0, 0).busy;
        let held_by_term = !self.term.held().is_empty();
        clock_models(self);
        // A block ends only when its vector is empty and none of its threads remains.
        let now_running = self.model.state == STREAM;
        if running && !now_running {
            let of_cur = self.fabric.iter().any(|&(_, b, _)| b == cur)
                || self.held.is_some_and(|(_, b, _)| b == cur);
            contract(
                "a block ends only when its vector is empty and nothing is in flight",
                nonempty >> cur & 1 == 0
                    && self.cvt.vectors()[cur].iter().all(|&w| w == 0)
                    && !of_cur
                    && !held_by_init
                    && !held_by_term,
                || {
                    format!(
                        "block {cur}: non-empty {nonempty:#x}, fabric {of_cur}, initiator {held_by_init}, terminator {held_by_term}"
                    )
                },
            )?;
            self.last_block = Some(cur);
            self.gap = 0;
        }
        // Table contracts on the state after the edge.
        let mut seen = vec![false; WPB * 64];
        for (b, words) in self.cvt.vectors().iter().enumerate() {
            for (w, &word) in words.iter().enumerate() {
                let mut x = word;
                while x != 0 {
                    let t = w * 64 + x.trailing_zeros() as usize;
                    x &= x - 1;
                    contract(
                        "a thread's bit is set in at most one block",
                        !seen[t],
                        || format!("thread {t} twice (second in block {b})"),
                    )?;
                    seen[t] = true;
                    let next = self.paths[t].get(self.ran[t].len()).copied();
                    contract(
                        "a thread waits in its next block",
                        t < k.tile && next == Some(b) && !self.in_fabric[t],
                        || format!("thread {t} in block {b}, next on its path {next:?}"),
                    )?;
                }
            }
        }
        match self.phase {
            Phase::Load(b) if b + 1 < B => self.phase = Phase::Load(b + 1),
            Phase::Load(_) => self.phase = Phase::Start,
            Phase::Start => {
                self.phase = Phase::Run;
                self.ran.iter_mut().for_each(|r| r.clear());
                self.visits.iter_mut().for_each(|v| v.fill(0));
                self.picks.clear();
                self.last_block = None;
            }
            _ => {}
        }
        let done = self.model.state == DONE;
        if done && !self.prev_done && self.phase == Phase::Run {
            contract(
                "the kernel is done only when every thread finished its path",
                (0..WPB * 64).all(|t| self.ran[t] == self.paths[t])
                    && self.fabric.is_empty()
                    && self.held.is_none()
                    && self.cvt.vectors().iter().flatten().all(|&w| w == 0),
                || {
                    let bad: Vec<usize> = (0..k.tile)
                        .filter(|&t| self.ran[t] != self.paths[t])
                        .take(4)
                        .collect();
                    format!("threads {bad:?} incomplete")
                },
            )?;
            self.kernels_done += 1;
            if self.fixed.is_some() {
                self.phase = Phase::Hold;
            } else {
                self.kernel = None;
            }
        }
        self.prev_done = done;
        self.prev_cfg_busy = cfg_busy;
        self.prev_state = state_now;
        Ok(())
    }
}
