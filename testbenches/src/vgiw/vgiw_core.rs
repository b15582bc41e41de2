//! VGIW core bench: a whole kernel through the RTL core. The bench writes the kernel's
//! configuration programs into the loader RAM and its block table into the scheduler
//! through the host ports, starts the kernel, and answers the eight data memory ports
//! and the live value cache's memory port with random readiness and latency, in any
//! order.
//!
//! Golden model: the program run sequentially per thread (`weft_sim::vgiw::program`),
//! over the same initial memory. Contracts checked every cycle: `error` stays low; a
//! thread enters the fabric only in the block its golden path runs next, and never
//! while it is already in; the terminator retires only threads in the fabric, with the
//! golden branch outcome of that block; every data memory write writes a value the
//! golden run writes to that address. When `kernel_done` rises: every thread ran
//! exactly its golden block sequence and the data memory equals the golden memory.
use crate::bench::{contract, Bench, Mismatch};
use crate::convert::small;
use crate::memory::{Outstanding, PortCycle, Request, Timing, Words};
use crate::run::{self, RunError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::{HashMap, HashSet};
use weft_hdl::vgiw::vgiw_core::VgiwCore;
use weft_sim::cgrf::dataflow::LV_BASE;
use weft_sim::vgiw::bbs::Entry;
use weft_sim::vgiw::program::{Image, Program};

/// Blocks in the core's table, threads in a tile, loader RAM address bits.
pub const BLOCKS: usize = 8;
pub const THREADS: usize = 256;
pub const CAW: u32 = 10;
/// Data memory ports (the fabric's load/store units).
pub const MEMORY_PORTS: usize = 8;
/// A thread that runs more blocks than this is a program error (a loop without end).
pub const MAX_PATH: usize = 64;

/// A program with its image, table, memory and golden results for `threads` threads.
#[derive(Clone, Debug)]
pub struct CoreKernel {
    pub program: Program,
    pub image: Image,
    pub table: Vec<Entry>,
    pub threads: usize,
    pub memory: HashMap<u32, u32>,
    /// Golden data memory after the kernel (addresses below `LV_BASE`).
    pub final_memory: HashMap<u32, u32>,
    /// Golden values written to each data address.
    pub writes: HashMap<u32, HashSet<u32>>,
    /// Per thread: (block, branch outcome) in order.
    pub steps: Vec<Vec<(usize, bool)>>,
}

impl CoreKernel {
    /// `threads` threads of `program` over `words` random data words from `seed`.
    pub fn new(program: Program, threads: usize, words: u32, seed: u64) -> Result<Self, String> {
        if !(1..=THREADS).contains(&threads) {
            return Err(format!("1..={THREADS} threads, got {threads}"));
        }
        program.validate(BLOCKS)?;
        let image = program.image(CAW)?;
        let table = program.table(&image);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let memory: HashMap<u32, u32> = (0..words).map(|w| (w * 4, rng.gen())).collect();
        let mut golden = memory.clone();
        let mut writes: HashMap<u32, HashSet<u32>> = HashMap::new();
        let mut steps = vec![];
        for tid in 0..threads as u16 {
            let run = program.trace(tid, &mut golden, MAX_PATH)?;
            for (addr, data) in run.writes {
                writes.entry(addr).or_default().insert(data);
            }
            steps.push(run.steps);
        }
        golden.retain(|&addr, _| addr < LV_BASE);
        Ok(CoreKernel {
            program,
            image,
            table,
            threads,
            memory,
            final_memory: golden,
            writes,
            steps,
        })
    }

    /// The preset's kernel: the diamond on two replicas, 32 threads.
    pub fn preset_kernel() -> Self {
        CoreKernel::new(Program::diamond(0x0000, 0x1000, 0x2000, 2), 32, 3 * 1024, 1)
            .expect("the diamond places, routes and fits the core")
    }

    /// The golden block sequence of thread `t`.
    pub fn path(&self, t: usize) -> Vec<usize> {
        self.steps[t].iter().map(|&(b, _)| b).collect()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Reset,
    Program(usize),
    Table(usize),
    Start,
    Run,
    Done,
}

/// Inputs decided in `drive` and replayed in `tick`.
#[derive(Clone, Debug, Default)]
struct Cycle {
    reset: bool,
    memory: [PortCycle; MEMORY_PORTS],
    lv_memory: PortCycle,
}

/// Outputs sampled in `check` and acted on in `tick`.
#[derive(Clone, Debug, Default)]
struct Seen {
    inject: Option<(usize, usize)>,
    retire: Option<(usize, bool)>,
    request: [Option<Request>; MEMORY_PORTS],
    /// The live value cache's: (word address, data, write, bank).
    lv_request: Option<Request>,
    kernel_done: bool,
    cfg_busy: bool,
    loading: bool,
}

pub struct VgiwCoreBench<
    const VCS: usize,
    const VB: usize,
    const D: usize,
    const QW: usize,
    const CW: usize,
> {
    pub uut: VgiwCore<VCS, VB, D, QW, CW>,
    pub kernel: CoreKernel,
    phase: Phase,
    now: Cycle,
    seen: Seen,
    cycle: u64,
    memory: Words,
    owed: Vec<Outstanding>,
    lv_memory: Words,
    lv_owed: Outstanding,
    /// Per thread: the blocks it entered so far; whether it is in the fabric.
    pub ran: Vec<Vec<usize>>,
    in_fabric: Vec<bool>,
    prev_done: bool,
    prev_cfg_busy: bool,
    pub injected: u64,
    pub retired: u64,
    /// Cycle of the kernel start and of `kernel_done`.
    pub started: u64,
    pub finished: Option<u64>,
    /// Block configurations played, cycles the loader was busy.
    pub reconfigs: u64,
    pub loading_cycles: u64,
    /// How the memory ports (and the live value cache's) take requests and answer them.
    pub memory_timing: Timing,
}

impl<const VCS: usize, const VB: usize, const D: usize, const QW: usize, const CW: usize>
    crate::presets::Tested for VgiwCore<VCS, VB, D, QW, CW>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![
            ("BLOCKS", 8),
            ("THREADS", 256),
            ("VCS", VCS),
            ("OUTSTANDING", D),
            ("COMMANDS", 1024),
        ]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(VgiwCoreBench::<VCS, VB, D, QW, CW>::new(
            CoreKernel::preset_kernel(),
        ))
    }
}

impl<const VCS: usize, const VB: usize, const D: usize, const QW: usize, const CW: usize>
    VgiwCoreBench<VCS, VB, D, QW, CW>
{
    pub fn new(kernel: CoreKernel) -> Self {
        let mut uut = VgiwCore::default();
        uut.connect_all();
        let memory = Words::zero_default(kernel.memory.clone());
        let threads = kernel.threads;
        VgiwCoreBench {
            uut,
            kernel,
            phase: Phase::Reset,
            now: Cycle::default(),
            seen: Seen::default(),
            cycle: 0,
            memory,
            owed: vec![Outstanding::default(); MEMORY_PORTS],
            lv_memory: Words::zero_default(HashMap::new()),
            lv_owed: Outstanding::default(),
            ran: vec![vec![]; threads],
            in_fabric: vec![false; threads],
            prev_done: false,
            prev_cfg_busy: false,
            injected: 0,
            retired: 0,
            started: 0,
            finished: None,
            reconfigs: 0,
            loading_cycles: 0,
            memory_timing: Timing::default(),
        }
    }

    /// Runs the kernel until `kernel_done` (every contract checked every cycle) or
    /// `max_cycles` pass; returns the cycles from the start to `kernel_done`.
    pub fn run_kernel(&mut self, max_cycles: u64, seed: u64) -> Result<u64, RunError> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        run::start(self)?;
        let mut cycle = 0;
        while self.finished.is_none() {
            if cycle == max_cycles {
                let missing = (0..self.kernel.threads)
                    .filter(|&t| self.ran[t] != self.kernel.path(t))
                    .count();
                return Err(RunError::Mismatch(Mismatch {
                    cycle,
                    signal: "contract: the kernel finishes".into(),
                    expected: "kernel_done".into(),
                    got: format!(
                        "not done after {max_cycles} cycles: {missing} threads short of their path, {} injected, {} retired",
                        self.injected, self.retired
                    ),
                }));
            }
            run::step(self, cycle, &mut rng)?;
            cycle += 1;
        }
        Ok(self.finished.unwrap_or(0) - self.started)
    }

    fn drive_host(&mut self) {
        let k = &self.kernel;
        let u = &mut self.uut;
        u.reset.next = self.phase == Phase::Reset;
        u.prog_write.next = false;
        u.prog_addr.next = 0.into();
        u.prog_data.next = 0.into();
        u.load_valid.next = false;
        u.start.next = self.phase == Phase::Start;
        u.tile_threads.next = (k.threads as u64).into();
        u.log_dim_x.next = 3.into();
        u.log_dim_y.next = 2.into();
        u.lv_flush.next = false;
        match self.phase {
            Phase::Program(i) => {
                u.prog_write.next = true;
                u.prog_addr.next = (i as u64).into();
                u.prog_data.next = k.image.words[i].into();
            }
            Phase::Table(b) => {
                let e = k.table[b];
                u.load_valid.next = true;
                u.load_block.next = (b as u64).into();
                u.load_succ0.next = (e.succ[0] as u64).into();
                u.load_succ1.next = (e.succ[1] as u64).into();
                u.load_exit0.next = e.exit[0];
                u.load_exit1.next = e.exit[1];
                u.load_cfg.next = e.cfg.into();
            }
            _ => {}
        }
    }

    fn next_phase(&self) -> Phase {
        let k = &self.kernel;
        match self.phase {
            Phase::Reset => Phase::Program(0),
            Phase::Program(i) if i + 1 < k.image.words.len() => Phase::Program(i + 1),
            Phase::Program(_) => Phase::Table(0),
            Phase::Table(b) if b + 1 < k.table.len() => Phase::Table(b + 1),
            Phase::Table(_) => Phase::Start,
            Phase::Start => Phase::Run,
            p => p,
        }
    }

    /// At `kernel_done`: every path complete, the data memory golden.
    fn check_kernel_done(&self) -> Result<(), Mismatch> {
        let k = &self.kernel;
        let short: Vec<usize> = (0..k.threads)
            .filter(|&t| self.ran[t] != k.path(t))
            .collect();
        contract(
            "the kernel is done once every thread ran its golden path",
            short.is_empty() && self.in_fabric.iter().all(|&f| !f),
            || {
                let t = short.first().copied().unwrap_or(0);
                format!(
                    "{} threads differ; thread {t} ran {:?}, golden {:?}",
                    short.len(),
                    self.ran[t],
                    k.path(t)
                )
            },
        )?;
        let mut addrs: Vec<&u32> = k.final_memory.keys().collect();
        addrs.sort();
        for &addr in addrs {
            let (got, want) = (self.memory.read(addr), k.final_memory[&addr]);
            contract(
                "the data memory equals the golden memory at kernel_done",
                got == want,
                || format!("word {addr:#x}: {got:#x}, golden {want:#x}"),
            )?;
        }
        Ok(())
    }
}

impl<const VCS: usize, const VB: usize, const D: usize, const QW: usize, const CW: usize> Bench
    for VgiwCoreBench<VCS, VB, D, QW, CW>
{
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        self.cycle = cycle;
        self.drive_host();
        let mut now = Cycle {
            reset: self.phase == Phase::Reset,
            ..Cycle::default()
        };
        for m in 0..MEMORY_PORTS {
            now.memory[m] = self.owed[m].decide(cycle, &self.memory_timing, rng);
            let u = &mut self.uut;
            now.memory[m].drive(
                &mut u.mem_req_ready[m],
                &mut u.mem_resp_valid[m],
                &mut u.mem_resp_tag[m],
                &mut u.mem_resp_data[m],
            );
        }
        // The cache's memory answers reads only, by bank (one read per bank at a time).
        now.lv_memory = self.lv_owed.decide(cycle, &self.memory_timing, rng);
        let u = &mut self.uut;
        now.lv_memory.drive(
            &mut u.lv_mem_req_ready,
            &mut u.lv_mem_resp_valid,
            &mut u.lv_mem_resp_bank,
            &mut u.lv_mem_resp_data,
        );
        self.now = now;
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let u = &self.uut;
        let k = &self.kernel;
        let mut seen = Seen {
            kernel_done: u.kernel_done.val(),
            cfg_busy: u.cfg_busy.val(),
            loading: u.loading.val(),
            ..Seen::default()
        };
        if self.now.reset {
            self.seen = seen;
            return Ok(());
        }
        contract("no error flag", !u.error.val(), || "error raised".into())?;
        if u.inject.val() {
            let t = small(u.inject_id.val()) as usize;
            let block = small(u.cur_block.val()) as usize;
            let next = k.steps.get(t).and_then(|s| s.get(self.ran[t].len()));
            contract(
                "a thread enters the fabric in the block its golden path runs next",
                next.map(|&(b, _)| b) == Some(block) && !self.in_fabric[t],
                || {
                    format!(
                        "thread {t} injected in block {block} (in the fabric: {}), after {:?}, golden next {next:?}",
                        self.in_fabric.get(t).copied().unwrap_or(false),
                        self.ran.get(t)
                    )
                },
            )?;
            seen.inject = Some((t, block));
        }
        if u.retire.val() {
            let t = small(u.retire_id.val()) as usize;
            let taken = u.retire_taken.val();
            let visit = self.ran.get(t).map_or(0, |r| r.len());
            let want = k
                .steps
                .get(t)
                .and_then(|s| visit.checked_sub(1).map(|v| s[v]));
            contract(
                "a retired thread was in the fabric and has its golden branch outcome",
                self.in_fabric.get(t).copied().unwrap_or(false)
                    && want.map(|(_, o)| o) == Some(taken),
                || format!("thread {t} retired taken = {taken}, golden {want:?}"),
            )?;
            seen.retire = Some((t, taken));
        }
        for m in 0..MEMORY_PORTS {
            if !u.mem_req_valid[m].val() {
                continue;
            }
            let addr = small(u.mem_req_addr[m].val()) as u32;
            let data = small(u.mem_req_data[m].val()) as u32;
            let write = u.mem_req_write[m].val();
            if write {
                let golden = k.writes.get(&addr);
                contract(
                    "every data write writes a value the golden run writes there",
                    golden.is_some_and(|w| w.contains(&data)),
                    || format!("port {m} writes {data:#x} to {addr:#x}, golden {golden:x?}"),
                )?;
            }
            seen.request[m] = Some((addr, data, write, small(u.mem_req_tag[m].val())));
        }
        if u.lv_mem_req_valid.val() {
            let word =
                (small(u.lv_mem_req_tag.val()) << 10 | small(u.lv_mem_req_index.val())) as u32;
            seen.lv_request = Some((
                word,
                small(u.lv_mem_req_data.val()) as u32,
                u.lv_mem_req_write.val(),
                small(u.lv_mem_req_bank.val()),
            ));
        }
        self.seen = seen;
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let now = self.now.clone();
        let seen = self.seen.clone();
        if now.reset {
            self.owed.iter_mut().for_each(Outstanding::clear);
            self.lv_owed.clear();
        }
        if let Some((t, block)) = seen.inject {
            self.ran[t].push(block);
            self.in_fabric[t] = true;
            self.injected += 1;
        }
        if let Some((t, _)) = seen.retire {
            self.in_fabric[t] = false;
            self.retired += 1;
        }
        Outstanding::settle_ports(
            &mut self.owed,
            &now.memory,
            &seen.request,
            &mut self.memory,
            self.cycle,
        );
        self.lv_owed.settle(
            &now.lv_memory,
            seen.lv_request,
            &mut self.lv_memory,
            self.cycle,
            false,
        );
        if self.phase == Phase::Run {
            if seen.cfg_busy && !self.prev_cfg_busy {
                self.reconfigs += 1;
            }
            if seen.loading {
                self.loading_cycles += 1;
            }
            if seen.kernel_done && !self.prev_done {
                self.check_kernel_done()?;
                self.finished = Some(self.cycle);
                self.phase = Phase::Done;
            }
        }
        if self.phase == Phase::Start {
            self.started = self.cycle;
        }
        self.prev_done = seen.kernel_done;
        self.prev_cfg_busy = seen.cfg_busy;
        self.phase = self.next_phase();
        Ok(())
    }
}
