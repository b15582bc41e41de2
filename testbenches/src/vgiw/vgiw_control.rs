//! VGIW control top bench: RTL vs the composed model, with a stand-in fabric that runs
//! random kernels (random CFGs with loops, random per-thread paths) and the SPEC §5
//! contracts: every thread runs exactly the blocks its path dictates; a thread's bit is
//! set in at most one block and never while the thread is in the fabric; no thread is
//! lost or duplicated; blocks are picked in ascending id order among the non-empty
//! ones; the kernel is done only once every thread has left it.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::vgiw::vgiw_control::VgiwControl;
use weft_sim::vgiw::bbs::Entry;
use weft_sim::vgiw::cvu_terminator::Finished;
use weft_sim::vgiw::vgiw_control::{TopIn, VgiwControl as Model};

/// A kernel: the block table and the per-thread branch outcome.
#[derive(Clone)]
pub struct Kernel {
    pub table: Vec<Entry>,
    /// Branch outcome of `thread` leaving `block` for the `visit`-th time (0-based).
    pub outcome: fn(seed: u64, thread: usize, block: usize, visit: u32) -> bool,
    pub seed: u64,
    pub tile: usize,
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

/// Random outcome: a back edge (outcome 1 to a block <= this one) is taken at most
/// twice per thread and block, so every path ends.
fn random_outcome(seed: u64, thread: usize, block: usize, visit: u32) -> bool {
    let h = mix(seed ^ mix((thread as u64) << 20 ^ (block as u64) << 8 ^ u64::from(visit)));
    h & 1 == 1
}

impl Kernel {
    /// The stand-in fabric returns one thread: any whose latency has elapsed, in any
    /// order (`fabric` holds (thread, block, ready cycle)); gives (thread, block,
    /// branch taken), or `None` when no thread is ready yet.
    pub fn finish_one(
        &self,
        fabric: &mut Vec<(usize, usize, u64)>,
        visits: &[Vec<u32>],
        cycle: u64,
        rng: &mut ChaCha8Rng,
    ) -> Option<(usize, usize, bool)> {
        let ready: Vec<usize> = (0..fabric.len())
            .filter(|&j| fabric[j].2 <= cycle)
            .collect();
        if ready.is_empty() {
            return None;
        }
        let j = ready[rng.gen_range(0..ready.len())];
        let (t, b, _) = fabric.swap_remove(j);
        Some((t, b, self.decide(t, b, visits[t][b])))
    }

    /// A random CFG: outcome 0 goes forward (or leaves from the last block), outcome 1
    /// goes anywhere (loops), forward, or leaves.
    pub fn random(blocks: usize, tile: usize, rng: &mut ChaCha8Rng) -> Kernel {
        let table = (0..blocks)
            .map(|b| {
                let last = b == blocks - 1;
                let succ0 = if last {
                    0
                } else {
                    rng.gen_range(b + 1..blocks.min(b + 4))
                };
                let (succ1, exit1) = match rng.gen_range(0..10) {
                    0..=3 => (rng.gen_range(0..=b), false),
                    4..=7 if !last => (rng.gen_range(b + 1..blocks), false),
                    _ => (0, true),
                };
                Entry {
                    cfg: rng.gen::<u32>().into(),
                    succ: [succ0, succ1],
                    exit: [last, exit1],
                }
            })
            .collect();
        Kernel {
            table,
            outcome: random_outcome,
            seed: rng.gen(),
            tile,
        }
    }

    /// The outcome with the loop bound applied.
    pub fn decide(&self, thread: usize, block: usize, visit: u32) -> bool {
        let e = &self.table[block];
        let o = (self.outcome)(self.seed, thread, block, visit);
        let back = !e.exit[1] && e.succ[1] <= block;
        o && !(back && visit >= 2)
    }

    /// The block sequence of `thread`.
    pub fn path(&self, thread: usize) -> Vec<usize> {
        let mut visits = vec![0u32; self.table.len()];
        let mut b = 0;
        let mut path = vec![];
        loop {
            path.push(b);
            let o = usize::from(self.decide(thread, b, visits[b]));
            visits[b] += 1;
            if self.table[b].exit[o] {
                return path;
            }
            b = self.table[b].succ[o];
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Load(usize),
    Start,
    Run,
    Hold,
}

pub struct VgiwControlBench<
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
    pub uut: VgiwControl<B, WPB, BANKS, BW, WW, AW, BKW, RB, CW, RECONF>,
    pub model: Model,
    pub inputs: TopIn,
    /// Percent of cycles the fabric takes a thread.
    pub ready_percent: u32,
    /// Longest fabric latency in cycles.
    pub max_latency: u64,
    /// Run one fixed kernel (then hold) instead of random kernels back to back.
    pub fixed: Option<Kernel>,
    pub kernel: Option<Kernel>,
    /// Every thread's path through the current kernel (empty past the tile).
    paths: Vec<Vec<usize>>,
    phase: Phase,
    cycle: u64,
    /// Per thread: blocks run so far, and whether it is in the fabric.
    pub ran: Vec<Vec<usize>>,
    in_fabric: Vec<bool>,
    /// Threads in the fabric: (id, block, ready cycle).
    fabric: Vec<(usize, usize, u64)>,
    held: Option<(usize, usize, bool)>,
    visits: Vec<Vec<u32>>,
    prev_nonempty: u64,
    prev_cfg_busy: bool,
    prev_done: bool,
    /// Kernels completed, cycles spent in CONFIG per reconfiguration, reconfigurations.
    pub kernels_done: u64,
    pub reconfigs: u64,
    pub config_cycles: u64,
    /// Block picks in order, for the current kernel.
    pub picks: Vec<usize>,
    /// Snapshots of the table's vectors when each block finished: (block, vectors).
    pub snapshots: Vec<(usize, Vec<Vec<u64>>)>,
    prev_running: bool,
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
    > crate::presets::Tested for VgiwControl<B, WPB, BANKS, BW, WW, AW, BKW, RB, CW, RECONF>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![
            ("BLOCKS", B),
            ("THREADS", WPB * 64),
            ("BANKS", BANKS),
            ("CFG_BITS", CW),
            ("RECONF", RECONF),
        ]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(VgiwControlBench::<
            B,
            WPB,
            BANKS,
            BW,
            WW,
            AW,
            BKW,
            RB,
            CW,
            RECONF,
        >::default())
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
    > Default for VgiwControlBench<B, WPB, BANKS, BW, WW, AW, BKW, RB, CW, RECONF>
{
    fn default() -> Self {
        let mut uut = VgiwControl::default();
        uut.connect_all();
        let threads = WPB * 64;
        VgiwControlBench {
            uut,
            model: Model::new(B, WPB, BANKS, RECONF as u64),
            inputs: TopIn::default(),
            ready_percent: 80,
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
            prev_nonempty: 0,
            prev_cfg_busy: false,
            prev_done: false,
            kernels_done: 0,
            reconfigs: 0,
            config_cycles: 0,
            picks: vec![],
            snapshots: vec![],
            prev_running: false,
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
    > VgiwControlBench<B, WPB, BANKS, BW, WW, AW, BKW, RB, CW, RECONF>
{
    /// Applies explicit inputs.
    pub fn apply(&mut self, i: TopIn) {
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
        u.log_dim_x.next = u64::from(i.log_dim_x).into();
        u.log_dim_y.next = u64::from(i.log_dim_y).into();
        u.thr_ready.next = i.thr_ready;
        let f = i.fin.unwrap_or_default();
        u.fin_valid.next = i.fin.is_some();
        u.fin_id.next = u64::from(f.id).into();
        u.fin_taken.next = f.taken;
        self.inputs = i;
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

    /// Whether every thread of the tile has left the kernel along its path.
    pub fn all_paths_complete(&self) -> bool {
        (0..WPB * 64).all(|t| self.ran[t] == self.paths[t])
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
    > Bench for VgiwControlBench<B, WPB, BANKS, BW, WW, AW, BKW, RB, CW, RECONF>
{
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        self.cycle = cycle;
        if cycle == 0 || self.kernel.is_none() {
            self.new_kernel(rng);
        }
        let k = self.kernel.clone().unwrap();
        let mut i = TopIn {
            reset: cycle == 0,
            tile_threads: k.tile as u16,
            log_dim_x: 3,
            log_dim_y: 2,
            thr_ready: rng.gen_ratio(self.ready_percent, 100),
            ..Default::default()
        };
        match self.phase {
            Phase::Load(b) if cycle > 0 => {
                let mut e = k.table[b];
                e.cfg &= if CW >= 64 { u64::MAX } else { (1 << CW) - 1 };
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
        let want = self.model.outputs(&self.inputs);
        let u = &self.uut;
        expect("thr_valid", want.thr_valid, u.thr_valid.val())?;
        expect("thr_id", want.thr_id, small(u.thr_id.val()) as u16)?;
        let tid = (
            small(u.tid_x.val()) as u16,
            small(u.tid_y.val()) as u16,
            small(u.tid_z.val()) as u16,
        );
        expect("tid", want.tid, tid)?;
        expect("fin_ready", want.fin_ready, u.fin_ready.val())?;
        expect("cfg_busy", want.cfg_busy, u.cfg_busy.val())?;
        expect("cfg_block", want.cfg_block as u64, small(u.cfg_block.val()))?;
        expect("cfg_word", want.cfg_word, small(u.cfg_word.val()))?;
        expect("running", want.running, u.running.val())?;
        expect("cur_block", want.cur_block as u64, small(u.cur_block.val()))?;
        expect("kernel_done", want.kernel_done, u.kernel_done.val())?;
        expect("in_flight", want.in_flight, small(u.in_flight.val()) as u16)?;
        expect("nonempty", want.nonempty, small(u.nonempty.val()))?;
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let o = self.model.outputs(&i);
        let k = self.kernel.clone().unwrap();
        if i.reset {
            self.model.clock(&i);
            self.phase = Phase::Load(0);
            return Ok(());
        }
        // Ascending order: a block picked is the lowest non-empty one.
        if o.cfg_busy && !self.prev_cfg_busy {
            let lowest = self.prev_nonempty.trailing_zeros() as usize;
            contract(
                "the lowest non-empty block is picked",
                o.cur_block == lowest,
                || {
                    format!(
                        "picked {}, non-empty {:#x}",
                        o.cur_block, self.prev_nonempty
                    )
                },
            )?;
            self.picks.push(o.cur_block);
            self.reconfigs += 1;
        }
        if o.cfg_busy {
            self.config_cycles += 1;
        }
        if self.prev_running && !o.running {
            self.snapshots
                .push((o.cur_block, self.model.cvt.vectors().to_vec()));
        }
        // Injection: the thread's next block on its path, not already in the fabric.
        if o.thr_valid && i.thr_ready {
            let t = usize::from(o.thr_id);
            let expected = self.paths[t].get(self.ran[t].len()).copied();
            contract(
                "a thread runs the block its path dictates",
                t < k.tile && expected == Some(o.cur_block) && o.running,
                || {
                    format!("thread {t} injected in block {} (running {}), path says {expected:?} after {:?}", o.cur_block, o.running, self.ran[t])
                },
            )?;
            contract("a thread is not injected twice", !self.in_fabric[t], || {
                format!("thread {t} already in the fabric")
            })?;
            self.in_fabric[t] = true;
            self.ran[t].push(o.cur_block);
            let lat = 1 + mix(self.cycle ^ (t as u64) << 32) % self.max_latency;
            self.fabric.push((t, o.cur_block, self.cycle + lat));
        }
        // Retirement.
        if let (Some((t, b, _)), true) = (self.held, o.fin_ready) {
            self.visits[t][b] += 1;
            self.in_fabric[t] = false;
            self.held = None;
        }
        self.model.clock(&i);
        // Table contracts on the state after the edge.
        let v = self.model.cvt.vectors();
        let mut seen = vec![false; WPB * 64];
        for (b, words) in v.iter().enumerate() {
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
                    contract(
                        "a thread in the table is not in the fabric",
                        !self.in_fabric[t],
                        || format!("thread {t} in block {b} and in the fabric"),
                    )?;
                    let next = self.paths[t].get(self.ran[t].len()).copied();
                    contract(
                        "a thread waits in its next block",
                        t < k.tile && next == Some(b),
                        || format!("thread {t} in block {b}, next on its path {next:?}"),
                    )?;
                }
            }
        }
        // Phases.
        match self.phase {
            Phase::Load(b) if b + 1 < B => self.phase = Phase::Load(b + 1),
            Phase::Load(_) => self.phase = Phase::Start,
            Phase::Start => {
                self.phase = Phase::Run;
                self.ran.iter_mut().for_each(|r| r.clear());
                self.visits.iter_mut().for_each(|v| v.fill(0));
                self.picks.clear();
                self.snapshots.clear();
            }
            _ => {}
        }
        let done = self.model.outputs(&TopIn::default()).kernel_done;
        if done && !self.prev_done && self.phase == Phase::Run {
            contract(
                "the kernel is done only when every thread finished its path",
                self.all_paths_complete() && self.fabric.is_empty() && self.held.is_none(),
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
        self.prev_nonempty = o.nonempty;
        self.prev_cfg_busy = o.cfg_busy;
        self.prev_running = o.running;
        Ok(())
    }
}
