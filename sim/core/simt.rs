//! The cycle-level SIMT core: warps of threads that execute at issue (the per-thread
//! interpreter decides what they compute), timed by the machine's pipeline, units and
//! memory hierarchy (which decide only when). Built from the golden models: every
//! warp's [`DivergenceStack`], the [`RoundRobin`] or [`TwoLevelScheduler`] fetch
//! scheduler, and for large warps the [`SubWarpUnit`] and [`BranchBuffers`].
//!
//! Timing rules (one core, each cycle):
//! - **Fetch and issue.** The scheduler grants one ready warp; its instruction (the
//!   stack top's PC, the top's mask) executes in every active thread and enters the
//!   pipeline. Barrel processing: the warp is ready again `pipeline_depth` cycles later
//!   at the earliest, when the instruction has completed (LWM §2.1). With
//!   `scoreboard = true` (the later machines' rule, GPGPU-Sim's scoreboard) a warp
//!   issues again the next cycle once the registers its next instruction reads and
//!   writes are written (a result when its instruction completes, a load when its
//!   lines arrive); branches, jumps and barriers wait until they resolve, and a warp has
//!   one load outstanding at a time.
//! - **Occupancy.** Most instructions take the single issue slot for one cycle. A
//!   special function (divide, remainder, square root) takes ⌈active / `sfu_lanes`⌉
//!   cycles and `sfu_latency` more to complete. A global memory instruction takes one
//!   cycle per distinct line its threads touch (the coalescer serves one line per cycle;
//!   the pipeline stalls behind it, LWM §2.2); private (stack) accesses are banked by
//!   lane and take `private_latency`.
//! - **Large warps** (`divergence = lwm`, LWM §3.1). A warp of `warp_size / lanes` rows
//!   (row `r`, lane `c` is the warp's thread `r * lanes + c`) is fetched once; the
//!   sub-warp unit breaks its mask into sub-warps, one per cycle, each taking the issue
//!   slot as a warp instruction of its own (SFU and coalescer occupancy per sub-warp).
//!   Global memory instructions form one sub-warp per row (`lwm_memory_opt`), `jal x0`
//!   one sub-warp (`lwm_jump_opt`). A branch's outcomes collect in the branch buffers
//!   until the last sub-warp; then the warp's stack branches. Barrel processing per
//!   large warp: it is fetched again when its last sub-warp completes. CTAs smaller than
//!   a warp are packed into it (`warp_size / cta` of them, synchronising together at a
//!   barrier since they share one PC).
//! - **Memory.** Line `i` of an instruction issued at `t` is looked up at
//!   `t + pipeline_depth - 2 + i`. If any line misses, the warp is put aside until its
//!   last line arrives (one cycle later it may be fetched again); the pipeline goes on
//!   with other warps. A line refused for want of an MSHR is replayed when one frees.
//! - **CTAs.** A CTA takes ⌈cta / warp_size⌉ warp slots of one core and is launched
//!   when that many are free, CTAs in order, cores in turn. `weft_barrier` holds a warp
//!   until every warp of its CTA (its launch group, for CTAs packed into one warp) that
//!   has not finished arrives.
//! - **Counts** (LWM §5, CAPRI §5): thread instructions (one per active thread), IPC in
//!   thread instructions per cycle, warp instructions (sub-warps for large warps: what
//!   enters the SIMD lanes), the histogram of active lanes per cycle (0 for a cycle in
//!   which no thread starts on a functional unit), and for every cycle with none its
//!   reason. A jump issued as one sub-warp counts every thread of the large warp.
use crate::core::cfg::{Flow, Reconvergence};
use crate::core::functional::{is_private, run_setup, start_thread, Launch, Program, ThreadMemory};
use crate::core::image::Image;
use crate::core::isa::{Inst, Op, Registers, Unit};
use crate::core::machine::{Divergence, Machine};
use crate::core::memory::{CacheStats, DramStats, MemorySystem, Probe};
use crate::core::thread::{Effect, Thread, ThreadEnv, EXIT_PC};
use crate::core::trace::{Sample, Trace, WarpState};
use crate::lib::column_compactor::Group;
use crate::lib::divergence_stack::{BranchOutcome, DivergenceStack};
use crate::lwm::branch_buffers::{BranchBuffers, SubWarpOutcome};
use crate::lwm::sub_warp_unit::{Mode, SubWarpUnit};
use crate::sched::two_level_scheduler::{RoundRobin, TwoLevelScheduler};
use serde::Serialize;
use std::time::{Duration, Instant};

/// One instruction of the kernel as the core needs it.
#[derive(Clone, Copy, Debug)]
struct Step {
    inst: Inst,
    unit: Unit,
    registers: Registers,
    flow: Flow,
    reconvergence: Option<Reconvergence>,
}

/// The analysed kernel: a step for every instruction the CFG reached.
struct Kernel {
    lo: u32,
    steps: Vec<Option<Step>>,
}

impl Kernel {
    fn new(program: &Program) -> Result<Kernel, String> {
        let cfg = program.cfg()?;
        let lo = cfg.flows.keys().copied().min().unwrap_or(0);
        let hi = cfg.flows.keys().copied().max().unwrap_or(0);
        let mut steps = vec![None; ((hi - lo) / 4 + 1) as usize];
        for (&pc, &flow) in &cfg.flows {
            let inst = *program.fetch(pc)?;
            steps[((pc - lo) / 4) as usize] = Some(Step {
                inst,
                unit: inst.unit(),
                registers: inst.registers(),
                flow,
                reconvergence: cfg.reconvergence_of(pc),
            });
        }
        Ok(Kernel { lo, steps })
    }

    fn step(&self, pc: u32) -> Result<&Step, String> {
        pc.checked_sub(self.lo)
            .filter(|d| d.is_multiple_of(4))
            .and_then(|d| self.steps.get((d / 4) as usize))
            .and_then(Option::as_ref)
            .ok_or_else(|| format!("a warp reached {pc:#x}, outside the analysed kernel"))
    }
}

/// One thread's slot in a core.
struct Slot {
    thread: Thread,
    stack: Vec<u8>,
    /// Return addresses of the calls the thread is in (where `AtReturn` reconverges).
    calls: Vec<u32>,
    env: ThreadEnv,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// No CTA.
    Free,
    /// Runs; ready when `ready_at` has come.
    Run,
    /// Put aside until its lines arrive.
    Memory,
    /// At `weft_barrier`.
    Barrier,
    /// Every thread returned; the slot frees at `ready_at`.
    Done,
}

struct Warp {
    /// One `u64` of lanes per row.
    stack: DivergenceStack<Vec<u64>>,
    state: State,
    /// The first CTA of the warp's launch group.
    cta: u32,
    ready_at: u64,
    /// Lines of the last instruction still to arrive, and the latest arrival so far.
    pending: u32,
    data_at: u64,
    /// Lines refused for want of an MSHR.
    replay: Vec<u32>,
    /// Scoreboard: the cycle each register (`x0..x31`, then `f0..f31`) is written,
    /// `u64::MAX` while a load fetches it.
    regs: [u64; 64],
    /// Scoreboard: the register the outstanding load writes.
    load_reg: Option<u8>,
    /// CTAs in the warp's launch group (several when they are packed into one warp).
    group_ctas: u32,
}

impl Warp {
    /// The stack's top: the PC the warp fetches next.
    fn pc(&self) -> u32 {
        self.stack.entries().last().map_or(0, |e| e.pc as u32)
    }
}

/// What one thread's memory instruction accessed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    None,
    Private,
    /// Line, address, bytes.
    Global(u32, u32, u32),
}

/// What [`Core::issue`] did, for the counts and the trace.
pub struct Issued {
    /// Thread instructions (every active thread of the warp).
    pub active: u32,
    /// How the warp was broken into sub-warps.
    pub mode: Mode,
    /// Sub-warps issued (1 for a warp of one row).
    pub sub_warps: u32,
}

/// The fetch scheduler: plain round robin when one group holds every warp.
enum Scheduler {
    RoundRobin(RoundRobin),
    TwoLevel(TwoLevelScheduler),
}

impl Scheduler {
    fn grant(&mut self, ready: u64) -> Option<usize> {
        match self {
            Scheduler::RoundRobin(s) => {
                let g = s.outputs(ready);
                s.clock(false, ready, true);
                g
            }
            Scheduler::TwoLevel(s) => {
                let g = s.outputs(ready);
                s.clock(false, ready, true);
                g.valid.then_some(g.warp)
            }
        }
    }
}

/// Why no thread started on a functional unit in a cycle.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Stalls {
    /// The coalescer serves the second and later lines of a memory instruction.
    pub memory_serialization: u64,
    /// No warp ready; some wait for memory.
    pub memory: u64,
    /// No warp ready; none waits for memory, some wait at a barrier.
    pub barrier: u64,
    /// No warp ready; every live warp has its instruction in the pipeline (barrel).
    pub pipeline: u64,
    /// No live warp on the core while CTAs are still to come (launch start, CTA
    /// turnover, a core without work).
    pub empty: u64,
    /// Every CTA has finished: the last stores are still being written to DRAM.
    pub drain: u64,
}

/// What a timed run counted.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Stats {
    pub cycles: u64,
    pub thread_instructions: u64,
    pub warp_instructions: u64,
    /// Thread instructions per cycle.
    pub ipc: f64,
    /// Active threads per issued warp instruction over the lanes.
    pub simd_utilisation: f64,
    /// Thread instructions per warp instruction (LWM Table 2's branch intensity).
    pub active_threads_per_warp: f64,
    /// Entry `k`: core cycles in which `k` threads started on a functional unit.
    pub active_lanes_histogram: Vec<u64>,
    /// Threads of large-warp jumps issued as one sub-warp (`lwm_jump_opt`) beyond the
    /// lanes that sub-warp carried: counted in thread instructions (the program's), not
    /// in the histogram, SIMD utilisation or active threads per warp.
    pub jump_opt_threads: u64,
    /// Core cycles with no thread starting (entry 0 of the histogram).
    pub idle_cycles: u64,
    /// `idle_cycles` over core cycles (LWM Table 2's idle FU intensity).
    pub idle_fraction: f64,
    pub stalls: Stalls,
    /// Private (per-thread stack) accesses, in warp instructions.
    pub private_accesses: u64,
    pub l1: CacheStats,
    pub l2: CacheStats,
    pub dram: DramStats,
    /// DRAM bytes per cycle over the run, and as a share of the limit.
    pub dram_bytes_per_cycle: f64,
    pub dram_bandwidth_used: f64,
}

/// Limits and progress reporting of a run.
pub struct Options<'a> {
    pub max_cycles: u64,
    pub max_instructions: u64,
    /// Called every few seconds of a long run with (cycle, thread instructions, CTAs
    /// finished, CTAs).
    pub progress: &'a mut dyn FnMut(u64, u64, u32, u32),
    /// Receives the state of every cycle the model visits (`--vcd`).
    pub trace: Option<&'a mut dyn Trace>,
    /// The two-level scheduler even when one fetch group holds every warp (which the
    /// machine runs as plain round robin): a check that the two agree.
    pub two_level_always: bool,
}

/// A timed run's result.
pub struct TimedRun {
    pub image: Image,
    pub stats: Stats,
    /// Host seconds of the timed part (after `weft_setup`): the simulator's speed.
    pub seconds: f64,
}

struct Core {
    id: usize,
    warp_size: u32,
    lanes: usize,
    rows: usize,
    /// Large warps: the sub-warp unit and the branch buffers serve the warp being
    /// broken into sub-warps (one at a time, LWM Figure 5).
    lwm: Option<(SubWarpUnit, BranchBuffers)>,
    memory_opt: bool,
    jump_opt: bool,
    /// Issue rule: a scoreboard, or barrel processing.
    scoreboard: bool,
    warps: Vec<Warp>,
    slots: Vec<Slot>,
    scheduler: Scheduler,
    /// The issue slot is taken until this cycle.
    busy_until: u64,
    ctas: u32,
    /// The earliest cycle at which a finished warp may complete its CTA.
    retire_at: u64,
    /// Whether some warp has lines to replay.
    replaying: bool,
    /// Reused per instruction: each thread's access (by its place in the warp), the
    /// sub-warps, then per sub-warp the global accesses (line, address, bytes) and the
    /// distinct lines with the distinct bytes accessed in each.
    accesses: Vec<Access>,
    groups: Vec<Group>,
    lines: Vec<(u32, u32, u32)>,
}

/// The counters the cores add to.
#[derive(Default)]
struct Counts {
    thread_instructions: u64,
    warp_instructions: u64,
    histogram: Vec<u64>,
    stalls: Stalls,
    private_accesses: u64,
    ctas_done: u32,
    jump_opt_threads: u64,
}

/// Everything an issue needs besides the core.
struct Shared<'a> {
    machine: &'a Machine,
    kernel: &'a Kernel,
    image: &'a mut Image,
    memory: &'a mut MemorySystem,
    counts: &'a mut Counts,
}

fn bits(mask: u64) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            b
        })
    })
}

impl Core {
    fn new(id: usize, m: &Machine, two_level_always: bool) -> Core {
        let warps = m.warps as usize;
        let scheduler = if m.fetch_group == m.warps && !two_level_always {
            Scheduler::RoundRobin(RoundRobin::new(warps))
        } else {
            Scheduler::TwoLevel(TwoLevelScheduler::new(warps, m.fetch_group as usize))
        };
        let lanes = m.lanes as usize;
        let rows = (m.warp_size / m.lanes) as usize;
        Core {
            id,
            warp_size: m.warp_size,
            lanes,
            rows,
            lwm: (m.divergence == Divergence::Lwm).then(|| {
                (
                    SubWarpUnit::new(lanes, rows),
                    BranchBuffers::new(lanes, rows),
                )
            }),
            memory_opt: m.lwm_memory_opt,
            jump_opt: m.lwm_jump_opt,
            scoreboard: m.scoreboard,
            warps: (0..warps)
                .map(|_| Warp {
                    stack: DivergenceStack::new(lanes, m.stack_entries as usize),
                    state: State::Free,
                    cta: 0,
                    ready_at: 0,
                    pending: 0,
                    data_at: 0,
                    replay: vec![],
                    regs: [0; 64],
                    load_reg: None,
                    group_ctas: 0,
                })
                .collect(),
            slots: (0..warps * m.warp_size as usize)
                .map(|_| Slot {
                    thread: Thread::new(0),
                    stack: vec![],
                    calls: vec![],
                    env: ThreadEnv::default(),
                })
                .collect(),
            scheduler,
            busy_until: 0,
            ctas: 0,
            retire_at: u64::MAX,
            replaying: false,
            accesses: vec![Access::None; m.warp_size as usize],
            groups: vec![],
            lines: vec![],
        }
    }

    /// Frees the slots of CTAs whose warps have all finished by `now`; counts them.
    fn retire(&mut self, now: u64, counts: &mut Counts) {
        if self.retire_at > now {
            return;
        }
        self.retire_at = self
            .warps
            .iter()
            .filter(|w| w.state == State::Done && w.ready_at > now)
            .map(|w| w.ready_at)
            .min()
            .unwrap_or(u64::MAX);
        let mut finished: Vec<u32> = vec![];
        for w in &self.warps {
            if w.state == State::Done && w.ready_at <= now && !finished.contains(&w.cta) {
                let cta = w.cta;
                let all = self
                    .warps
                    .iter()
                    .filter(|v| v.state != State::Free && v.cta == cta)
                    .all(|v| v.state == State::Done && v.ready_at <= now);
                if all {
                    finished.push(cta);
                }
            }
        }
        for cta in finished {
            let mut ctas = 0;
            for w in &mut self.warps {
                if w.state == State::Done && w.cta == cta {
                    w.state = State::Free;
                    ctas = w.group_ctas;
                }
            }
            self.ctas -= 1;
            counts.ctas_done += ctas;
        }
    }

    /// Launches CTA `cta` (and the next ones up to `last`, when several fit in one
    /// warp) if enough warp slots are free; the number of CTAs launched.
    fn launch(&mut self, cta: u32, last: u32, launch: Launch, image: &Image, now: u64) -> u32 {
        let ws = self.warp_size;
        let packed = if launch.cta < ws && ws.is_multiple_of(launch.cta) {
            (ws / launch.cta).min(last - cta)
        } else {
            1
        };
        let threads = packed * launch.cta;
        let need = threads.div_ceil(ws) as usize;
        let free: Vec<usize> = (0..self.warps.len())
            .filter(|&w| self.warps[w].state == State::Free)
            .take(need)
            .collect();
        if free.len() < need {
            return 0;
        }
        let lanes = self.lanes as u32;
        for (k, &w) in free.iter().enumerate() {
            let first = k as u32 * ws;
            let count = (threads - first).min(ws);
            for t in 0..count {
                let slot = &mut self.slots[w * ws as usize + t as usize];
                slot.thread = start_thread(image, image.kernel);
                slot.stack.fill(0);
                slot.calls.clear();
                slot.env = launch.env(cta * launch.cta + first + t);
            }
            let mask = (0..self.rows as u32)
                .map(|r| {
                    let n = count.saturating_sub(r * lanes).min(lanes);
                    if n == 64 {
                        u64::MAX
                    } else {
                        (1u64 << n) - 1
                    }
                })
                .collect();
            let warp = &mut self.warps[w];
            warp.stack.reset();
            warp.stack.init(mask, u64::from(image.kernel));
            warp.state = State::Run;
            warp.cta = cta;
            warp.group_ctas = packed;
            warp.ready_at = now;
            warp.pending = 0;
            warp.replay.clear();
            warp.regs = [0; 64];
            warp.load_reg = None;
        }
        self.ctas += 1;
        packed
    }

    /// The first cycle warp `w` may issue as things stand (`u64::MAX`: not by itself).
    /// Barrel processing: when its last instruction has completed. Scoreboard: when the
    /// registers its next instruction reads and writes are written; a warp with a load
    /// outstanding issues no other memory instruction, return or CSR access (so that it
    /// cannot finish or wait at a barrier with a load in flight).
    fn eligible_at(&self, w: usize, kernel: &Kernel) -> u64 {
        let warp = &self.warps[w];
        match warp.state {
            State::Run => {}
            State::Memory if self.scoreboard => {}
            _ => return u64::MAX,
        }
        if !self.scoreboard {
            return warp.ready_at;
        }
        let Ok(step) = kernel.step(warp.pc()) else {
            return warp.ready_at; // the issue reports it
        };
        let csr = matches!(
            step.inst.op,
            Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci
        );
        if warp.state == State::Memory
            && (step.unit == Unit::Memory || step.flow == Flow::Return || csr)
        {
            return u64::MAX;
        }
        let r = step.registers;
        r.reads
            .into_iter()
            .chain([r.write])
            .flatten()
            .map(|reg| warp.regs[reg as usize])
            .fold(warp.ready_at, u64::max)
    }

    fn ready_mask(&self, now: u64, kernel: &Kernel) -> u64 {
        (0..self.warps.len())
            .filter(|&w| self.eligible_at(w, kernel) <= now)
            .fold(0, |m, w| m | 1 << w)
    }

    /// The next cycle at which this core's state changes by itself.
    fn next_event(&self, now: u64, kernel: &Kernel) -> Option<u64> {
        let eligible = (0..self.warps.len()).map(|w| self.eligible_at(w, kernel));
        let done = self
            .warps
            .iter()
            .filter(|w| w.state == State::Done)
            .map(|w| w.ready_at);
        let busy = [self.busy_until];
        eligible
            .chain(done)
            .chain(busy)
            .filter(|&t| t > now && t != u64::MAX)
            .min()
    }

    /// Why nothing is ready: counted for `cycles` cycles.
    fn stall(&self, cycles: u64, launched_all: bool, stalls: &mut Stalls) {
        let has = |s: State| self.warps.iter().any(|w| w.state == s);
        let reason = if has(State::Memory) {
            &mut stalls.memory
        } else if has(State::Barrier) {
            &mut stalls.barrier
        } else if has(State::Run) {
            &mut stalls.pipeline
        } else if launched_all && self.ctas == 0 {
            &mut stalls.drain
        } else {
            &mut stalls.empty
        };
        *reason += cycles;
    }

    /// Line arrivals for warp `w`.
    fn arrived(&mut self, w: usize, at: u64) {
        let warp = &mut self.warps[w];
        warp.pending -= 1;
        warp.data_at = warp.data_at.max(at);
        self.wake(w);
    }

    /// A warp put aside for memory goes on when every line is in.
    fn wake(&mut self, w: usize) {
        let warp = &mut self.warps[w];
        if warp.state == State::Memory && warp.pending == 0 && warp.replay.is_empty() {
            warp.state = State::Run;
            if self.scoreboard {
                if let Some(r) = warp.load_reg.take() {
                    warp.regs[r as usize] = warp.data_at + 1;
                }
            } else {
                warp.ready_at = warp.ready_at.max(warp.data_at + 1);
            }
        }
    }

    /// Retries refused lines while MSHRs are free.
    fn replay(&mut self, now: u64, memory: &mut MemorySystem) {
        if !self.replaying {
            return;
        }
        self.replaying = self.warps.iter().any(|w| !w.replay.is_empty());
        for w in 0..self.warps.len() {
            while let Some(&line) = self.warps[w].replay.first() {
                if !memory.mshr_free(self.id) {
                    return;
                }
                let warp = &mut self.warps[w];
                match memory.load(self.id, now, line, w as u32) {
                    Probe::Hit { at } => warp.data_at = warp.data_at.max(at),
                    Probe::Miss => warp.pending += 1,
                    Probe::Full => return,
                }
                self.warps[w].replay.remove(0);
                self.wake(w);
            }
        }
    }

    /// Every warp's state at `now`, as the trace shows it.
    fn states(&self, now: u64) -> Vec<WarpState> {
        self.warps
            .iter()
            .map(|w| match w.state {
                State::Free => WarpState::Free,
                State::Run if w.ready_at <= now => WarpState::Ready,
                State::Run => WarpState::Pipeline,
                State::Memory => WarpState::Memory,
                State::Barrier => WarpState::Barrier,
                State::Done => WarpState::Done,
            })
            .collect()
    }

    /// Breaks warp `w`'s mask into `self.groups` as the sub-warp unit does (one group for
    /// a warp of one row); the mode used.
    fn sub_warp(&mut self, mask: &[u64], mode: Mode) {
        self.groups.clear();
        match &mut self.lwm {
            Some((unit, _)) if self.rows > 1 => {
                unit.clock(false, true, mask, mode);
                loop {
                    let out = unit.outputs();
                    if !out.valid {
                        break;
                    }
                    self.groups.push(out.group);
                    unit.clock(false, false, mask, mode);
                    if out.last {
                        break;
                    }
                }
            }
            _ => self.groups.push(Group {
                lanes: mask[0],
                rows: vec![0; self.lanes],
            }),
        }
    }

    /// Issues warp `w`'s instruction at cycle `now`.
    fn issue(&mut self, w: usize, now: u64, sh: &mut Shared) -> Result<Issued, String> {
        let ws = self.warp_size as usize;
        let lanes = self.lanes;
        let (pc, mask) = match self.warps[w].stack.entries().last() {
            Some(top) => (top.pc as u32, top.mask.clone()),
            None => return Err(format!("internal: warp {w} issued with an empty stack")),
        };
        let step = *sh.kernel.step(pc)?;
        let mut taken = vec![0u64; self.rows];
        let mut barrier = false;
        let mut store = false;
        let mut global = false;
        let mut active = 0u32;
        let mut first: Option<(usize, u32)> = None;
        for (r, &row) in mask.iter().enumerate() {
            for lane in bits(row) {
                let t = r * lanes + lane;
                active += 1;
                let slot = &mut self.slots[w * ws + t];
                if slot.thread.pc != pc {
                    return Err(format!(
                        "internal: thread {} is at {:#x} but its warp issues {pc:#x}",
                        slot.env.tid, slot.thread.pc
                    ));
                }
                let mut memory = ThreadMemory {
                    image: sh.image,
                    stack: &mut slot.stack,
                };
                let effect = slot
                    .thread
                    .step(&step.inst, &mut memory, &slot.env)
                    .map_err(|f| format!("thread {}: {f}", slot.env.tid))?;
                self.accesses[t] = Access::None;
                match effect {
                    Effect::Branch { taken: true } => taken[r] |= 1 << lane,
                    Effect::Load { addr, size } | Effect::Store { addr, size } => {
                        store = matches!(effect, Effect::Store { .. });
                        self.accesses[t] = if is_private(addr) {
                            Access::Private
                        } else {
                            global = true;
                            Access::Global(sh.memory.line_of(addr), addr, size)
                        };
                    }
                    Effect::Barrier => barrier = true,
                    _ => {}
                }
                match step.flow {
                    Flow::Call { .. } => slot.calls.push(pc.wrapping_add(4)),
                    Flow::Return => {
                        slot.calls.pop();
                    }
                    _ => {}
                }
                // Every thread must go where the first went, unless the warp branches.
                let next = slot.thread.pc;
                match first {
                    None => first = Some((t, next)),
                    Some((t0, pc0)) if next != pc0 && !step.inst.is_branch() => {
                        let tid = slot.env.tid;
                        return Err(format!(
                            "`{}` at {pc:#x}: threads {tid} and {} of one warp went to different places ({next:#x}, {pc0:#x}); the model cannot follow an indirect jump that diverges",
                            step.inst.mnemonic(),
                            self.slots[w * ws + t0].env.tid,
                        ));
                    }
                    Some(_) => {}
                }
            }
        }
        let Some((first_thread, next_pc)) = first else {
            return Err(format!(
                "internal: warp {w} issued {pc:#x} with no active thread"
            ));
        };

        // Sub-warps (LWM §3.1, §3.1.2).
        let mode = if global && self.memory_opt {
            Mode::Memory
        } else if step.inst.op == Op::Jal && step.inst.rd == 0 && self.jump_opt {
            Mode::Jump
        } else {
            Mode::Normal
        };
        let mode = if self.lwm.is_some() {
            mode
        } else {
            Mode::Normal
        };
        self.sub_warp(&mask, mode);
        let c = &mut *sh.counts;
        c.thread_instructions += u64::from(active);
        c.warp_instructions += self.groups.len() as u64;
        if mode == Mode::Jump {
            let carried: u32 = self.groups.iter().map(|g| g.lanes.count_ones()).sum();
            c.jump_opt_threads += u64::from(active - carried);
        }

        // Timing: the sub-warps take the issue slot one after the other; the warp
        // completes with its last sub-warp (barrel processing per large warp).
        let m = sh.machine;
        let depth = u64::from(m.pipeline_depth);
        let warp = &mut self.warps[w];
        let mut start = now;
        let mut completes = now;
        if global {
            warp.data_at = now + depth - 1;
        }
        for (g, group) in self.groups.iter().enumerate() {
            let threads = || bits(group.lanes).map(|lane| group.rows[lane] * lanes + lane);
            let n = group.lanes.count_ones();
            let histogram = &mut c.histogram;
            let (occupancy, done) = match step.unit {
                Unit::Sfu => {
                    let per = m.sfu_lanes;
                    let cycles = n.div_ceil(per);
                    for k in 0..cycles {
                        histogram[(n - k * per).min(per) as usize] += 1;
                    }
                    let cycles = u64::from(cycles);
                    (
                        cycles,
                        start + depth + cycles - 1 + u64::from(m.sfu_latency),
                    )
                }
                Unit::Memory => {
                    // The coalescer: one access per distinct line, with the bytes written.
                    self.lines.clear();
                    let mut private = false;
                    for t in threads() {
                        match self.accesses[t] {
                            Access::Global(line, addr, size) => self.lines.push((line, addr, size)),
                            Access::Private => private = true,
                            Access::None => {}
                        }
                    }
                    if private {
                        c.private_accesses += 1;
                    }
                    histogram[n as usize] += 1;
                    if self.lines.is_empty() {
                        (1, start + depth + u64::from(m.private_latency) - 1)
                    } else {
                        self.lines.sort_unstable();
                        self.lines.dedup_by_key(|a| a.1);
                        self.lines.dedup_by(|next, kept| {
                            let same = next.0 == kept.0;
                            if same {
                                kept.2 += next.2;
                            }
                            same
                        });
                        let lines = self.lines.len() as u64;
                        c.stalls.memory_serialization += lines - 1;
                        for (i, &(line, _, bytes)) in self.lines.iter().enumerate() {
                            let at = start + depth - 2 + i as u64;
                            if store {
                                sh.memory.store(self.id, at, line, bytes);
                                continue;
                            }
                            match sh.memory.load(self.id, at, line, w as u32) {
                                Probe::Hit { at } => warp.data_at = warp.data_at.max(at),
                                Probe::Miss => warp.pending += 1,
                                Probe::Full => {
                                    warp.replay.push(line);
                                    self.replaying = true;
                                }
                            }
                        }
                        (lines, (start + depth + lines - 1).max(warp.data_at + 1))
                    }
                }
                _ => {
                    histogram[n as usize] += 1;
                    (1, start + depth)
                }
            };
            // A branch's outcome per sub-warp collects in the branch buffers.
            if let (Some((_, buffers)), true) = (&mut self.lwm, step.inst.is_branch()) {
                let taken_lanes = bits(group.lanes)
                    .filter(|&lane| taken[group.rows[lane]] >> lane & 1 == 1)
                    .fold(0, |acc, lane| acc | 1 << lane);
                buffers.clock(
                    false,
                    Some(&SubWarpOutcome {
                        mask: group.lanes,
                        rows: group.rows.clone(),
                        taken: taken_lanes,
                        last: g + 1 == self.groups.len(),
                    }),
                );
            }
            start += occupancy;
            completes = completes.max(done);
        }
        let mut ready_at = completes;
        let waits = step.unit == Unit::Memory && (warp.pending > 0 || !warp.replay.is_empty());
        if waits {
            warp.state = State::Memory;
        }
        self.busy_until = start;
        // The scoreboard: the result is there when the instruction completes, a loaded
        // value when its lines arrive; the warp may issue again once its sub-warps have
        // left the issue slot, after a branch, jump or barrier once it has resolved.
        if self.scoreboard {
            if let Some(r) = step.registers.write {
                if waits {
                    warp.regs[r as usize] = u64::MAX;
                    warp.load_reg = Some(r);
                } else {
                    warp.regs[r as usize] = completes;
                }
            }
            if !(step.unit == Unit::Control || barrier) {
                ready_at = now + 1;
            }
        }

        // The divergence stack follows the threads.
        if step.inst.is_branch() {
            let rpc = match step.reconvergence {
                Some(Reconvergence::At(p)) => p,
                Some(Reconvergence::AtReturn) | None => *self.slots[w * ws + first_thread]
                    .calls
                    .last()
                    .unwrap_or(&EXIT_PC),
            };
            if let Some((_, buffers)) = &mut self.lwm {
                // The last sub-warp has written the buffers; the stack reads them.
                taken = buffers.outputs().taken;
                buffers.clock(false, None);
            }
            let target = pc.wrapping_add(step.inst.imm as u32);
            let outcome = warp.stack.branch(
                taken,
                u64::from(target),
                u64::from(pc.wrapping_add(4)),
                u64::from(rpc),
            );
            if outcome == Some(BranchOutcome::Overflow) {
                return Err(format!(
                    "the divergence stack of {} entries overflowed at the branch at {pc:#x}; raise stack_entries",
                    warp.stack.entries().len()
                ));
            }
        } else {
            warp.stack.advance(u64::from(next_pc));
        }

        if warp.pc() == EXIT_PC {
            if warp.stack.entries().len() != 1 {
                return Err(format!(
                    "internal: threads left the kernel at {pc:#x} inside a divergent region"
                ));
            }
            // Stores are written through; a finished warp waits for no load.
            ready_at = completes.max(warp.data_at + 1);
            warp.state = State::Done;
            self.retire_at = self.retire_at.min(ready_at);
        }
        warp.ready_at = ready_at;
        if barrier {
            warp.state = State::Barrier;
        }
        // An arrival, or a warp that finished, may complete its CTA's barrier.
        if barrier || warp.state == State::Done {
            let cta = warp.cta;
            self.release_barrier(cta);
        }
        Ok(Issued {
            active,
            mode,
            sub_warps: self.groups.len() as u32,
        })
    }

    /// Lets CTA `cta` through its barrier when every unfinished warp of it has arrived.
    fn release_barrier(&mut self, cta: u32) {
        let of_cta = |w: &&mut Warp| w.cta == cta && !matches!(w.state, State::Free | State::Done);
        if self
            .warps
            .iter_mut()
            .filter(of_cta)
            .all(|w| w.state == State::Barrier)
        {
            for w in self.warps.iter_mut().filter(of_cta) {
                w.state = State::Run;
            }
        }
    }
}

/// Runs `weft_setup` functionally, then the launch on the machine.
pub fn run(
    program: Program,
    launch: Launch,
    machine: &Machine,
    options: Options,
) -> Result<TimedRun, String> {
    machine.check()?;
    let kernel = Kernel::new(&program)?;
    let ws = machine.warp_size;
    let need = launch.cta.div_ceil(ws);
    if need > machine.warps {
        return Err(format!(
            "a CTA of {} threads needs {need} warps of {ws}; the core has {}",
            launch.cta, machine.warps
        ));
    }
    let Program { mut image, code } = program;
    run_setup(&code, &mut image, launch, options.max_instructions)?;
    let timed = Instant::now();
    let mut memory = MemorySystem::new(machine);
    let mut cores: Vec<Core> = (0..machine.cores as usize)
        .map(|i| Core::new(i, machine, options.two_level_always))
        .collect();
    let mut counts = Counts {
        histogram: vec![0; machine.lanes as usize + 1],
        ..Counts::default()
    };
    let total_ctas = launch.threads / launch.cta;
    let mut next_cta = 0;
    let mut next_core = 0;
    let mut now = 0u64;
    let mut arrivals = vec![];
    let started = Instant::now();
    let mut last_progress = started;
    let mut options = options;
    loop {
        memory.advance(now, &mut arrivals);
        for (core, warp, at) in arrivals.drain(..) {
            cores[core].arrived(warp as usize, at);
        }
        for core in &mut cores {
            core.replay(now, &mut memory);
            core.retire(now, &mut counts);
        }
        // CTAs in order, to the cores in turn.
        while next_cta < total_ctas {
            let n = cores.len();
            let Some((k, launched)) = (0..n).map(|k| (next_core + k) % n).find_map(|k| {
                let launched = cores[k].launch(next_cta, total_ctas, launch, &image, now);
                (launched > 0).then_some((k, launched))
            }) else {
                break;
            };
            next_cta += launched;
            next_core = (k + 1) % n;
        }
        if next_cta == total_ctas && counts.ctas_done == total_ctas && memory.idle() {
            break;
        }
        let mut issued = false;
        for core in &mut cores {
            let mut issue = None;
            if core.busy_until <= now {
                let ready = core.ready_mask(now, &kernel);
                if let Some(w) = core.scheduler.grant(ready) {
                    let mut shared = Shared {
                        machine,
                        kernel: &kernel,
                        image: &mut image,
                        memory: &mut memory,
                        counts: &mut counts,
                    };
                    let mask = options
                        .trace
                        .is_some()
                        .then(|| core.warps[w].stack.outputs().mask);
                    let done = core.issue(w, now, &mut shared)?;
                    if let (Some(trace), Some(mask)) = (options.trace.as_deref_mut(), mask) {
                        trace
                            .fetch(core.id, w, &mask, done.mode, done.sub_warps)
                            .map_err(|e| format!("writing the trace: {e}"))?;
                    }
                    issue = Some((w, done.active));
                    issued = true;
                }
            }
            if let Some(trace) = options.trace.as_deref_mut() {
                let sample = Sample {
                    issued: issue,
                    warps: &core.states(now),
                    mshrs: memory.mshrs_in_use(core.id),
                };
                trace
                    .core(now, core.id, &sample)
                    .map_err(|e| format!("writing the trace: {e}"))?;
            }
        }
        if let Some(trace) = options.trace.as_deref_mut() {
            trace
                .dram(now, memory.dram_queued())
                .map_err(|e| format!("writing the trace: {e}"))?;
        }
        if counts.thread_instructions > options.max_instructions {
            return Err(format!(
                "stopped after {} thread instructions at cycle {now} (--max-instructions)",
                options.max_instructions
            ));
        }
        // Nothing issued: sleep until something changes.
        let next = if issued {
            now + 1
        } else {
            let events = cores.iter().filter_map(|c| c.next_event(now, &kernel));
            events
                .chain(memory.next_event())
                .min()
                .unwrap_or(now + 1)
                .max(now + 1)
        };
        for core in &cores {
            if core.busy_until <= now && core.ready_mask(now, &kernel) == 0 {
                core.stall(next - now, next_cta == total_ctas, &mut counts.stalls);
            }
        }
        now = next;
        if now > options.max_cycles {
            return Err(format!(
                "stopped at cycle {} (--max-cycles), {} of {total_ctas} CTAs finished",
                options.max_cycles, counts.ctas_done
            ));
        }
        if counts.warp_instructions & 0xfff == 0 && last_progress.elapsed() > Duration::from_secs(2)
        {
            last_progress = Instant::now();
            (options.progress)(
                now,
                counts.thread_instructions,
                counts.ctas_done,
                total_ctas,
            );
        }
    }
    Ok(TimedRun {
        image,
        stats: stats(machine, now, counts, &memory),
        seconds: timed.elapsed().as_secs_f64(),
    })
}

fn stats(m: &Machine, cycles: u64, mut c: Counts, memory: &MemorySystem) -> Stats {
    let core_cycles = cycles * u64::from(m.cores);
    let busy: u64 = c.histogram[1..].iter().sum();
    c.histogram[0] = core_cycles - busy;
    let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
    let bytes_per_cycle = ratio(memory.dram_stats.bytes as f64, cycles as f64);
    let on_lanes = (c.thread_instructions - c.jump_opt_threads) as f64;
    Stats {
        cycles,
        thread_instructions: c.thread_instructions,
        warp_instructions: c.warp_instructions,
        ipc: ratio(c.thread_instructions as f64, cycles as f64),
        simd_utilisation: ratio(on_lanes, (c.warp_instructions * u64::from(m.lanes)) as f64),
        active_threads_per_warp: ratio(on_lanes, c.warp_instructions as f64),
        jump_opt_threads: c.jump_opt_threads,
        idle_cycles: c.histogram[0],
        idle_fraction: ratio(c.histogram[0] as f64, core_cycles as f64),
        active_lanes_histogram: c.histogram,
        stalls: c.stalls,
        private_accesses: c.private_accesses,
        l1: memory.l1_stats.clone(),
        l2: memory.l2_stats.clone(),
        dram: memory.dram_stats.clone(),
        dram_bytes_per_cycle: bytes_per_cycle,
        dram_bandwidth_used: bytes_per_cycle / m.dram_bytes_per_cycle(),
    }
}
