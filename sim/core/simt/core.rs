//! One SIMT core: its warp slots and thread slots, the fetch scheduler, the divergence
//! policy, and what happens at issue, as named steps: fetch, execute, form the warp
//! instructions, time them, scoreboard, resolve, exit and barrier.
use super::coalescer::{Coalescer, Line};
use super::divergence::{self, Change, Policy};
use super::execute::{execute, Executed};
use super::kernel::Kernel;
use super::scheduler::Scheduler;
use super::stats::{Counts, Stalls};
use super::warp::{Slot, State, Warp};
use crate::core::cfg::Flow;
use crate::core::functional::{start_thread, Launch};
use crate::core::image::Image;
use crate::core::isa::{Op, Unit};
use crate::core::machine::Machine;
use crate::core::memory::{MemorySystem, Probe};
use crate::core::thread::EXIT_PC;
use crate::core::trace::WarpState;
use crate::lib::column_compactor::Group;
use crate::lwm::sub_warp_unit::Mode;

/// What [`Core::issue`] did, for the counts and the trace.
pub struct Issued {
    /// Thread instructions (every active thread of the warp).
    pub active: u32,
    /// How the policy formed the warp instructions.
    pub mode: Mode,
    /// Warp instructions issued (sub-warps for large warps).
    pub sub_warps: u32,
    pub pc: u32,
    /// The lanes of the first warp instruction formed.
    pub lanes: u64,
}

/// Everything an issue needs besides the core.
pub struct Shared<'a> {
    pub machine: &'a Machine,
    pub kernel: &'a Kernel,
    pub image: &'a mut Image,
    pub memory: &'a mut MemorySystem,
    pub counts: &'a mut Counts,
}

pub struct Core {
    pub id: usize,
    warp_size: u32,
    pub(super) lanes: usize,
    rows: usize,
    /// Issue rule: a scoreboard, or barrel processing.
    scoreboard: bool,
    pub(super) warps: Vec<Warp>,
    slots: Vec<Slot>,
    pub scheduler: Scheduler,
    pub policy: Box<dyn Policy>,
    /// The issue slot is taken until this cycle.
    pub busy_until: u64,
    ctas: u32,
    /// CTAs resident (several per launch group when packed into one warp), and the most
    /// allowed (`max_ctas`; `u32::MAX` without a limit).
    resident: u32,
    max_ctas: u32,
    /// `sticky_cta`: a CTA's warp slots are an aligned fetch group of this many warps
    /// (set by the first launch, when the CTA size is known).
    sticky: Option<usize>,
    sticky_cta: bool,
    /// The earliest cycle at which a finished warp may complete its CTA.
    retire_at: u64,
    /// Whether some warp has lines to replay.
    pub(super) replaying: bool,
    /// Reused per instruction: what it did, the warp instructions it formed, and per
    /// warp instruction the lines it touches.
    pub executed: Executed,
    pub(super) groups: Vec<Group>,
    pub(super) coalescer: Coalescer,
    pub(super) lines: Vec<Line>,
    /// Reused per global load: the lines that missed, each thread's address.
    pub(super) missed: Vec<u32>,
    pub(super) addrs: Vec<u32>,
    /// Reused: the policy's slot changes.
    changes: Vec<Change>,
}

impl Core {
    pub fn new(id: usize, machine: &Machine, two_level_always: bool) -> Core {
        let m = machine.core();
        let warps = m.warps as usize;
        let lanes = m.lanes as usize;
        let rows = (m.warp_size / m.lanes) as usize;
        let policy = divergence::build(machine);
        let policy_rows = policy.rows();
        Core {
            id,
            warp_size: m.warp_size,
            lanes,
            rows,
            scoreboard: m.scoreboard,
            warps: (0..warps).map(|_| Warp::default()).collect(),
            slots: (0..warps * m.warp_size as usize)
                .map(|_| Slot::default())
                .collect(),
            scheduler: Scheduler::new(machine, two_level_always),
            policy,
            busy_until: 0,
            ctas: 0,
            resident: 0,
            max_ctas: if m.max_ctas == 0 {
                u32::MAX
            } else {
                m.max_ctas
            },
            sticky: None,
            sticky_cta: m.sticky_cta,
            retire_at: u64::MAX,
            replaying: false,
            executed: Executed::new(policy_rows, policy_rows * lanes),
            groups: vec![],
            coalescer: Coalescer::default(),
            lines: vec![],
            missed: vec![],
            addrs: vec![],
            changes: vec![],
        }
    }

    /// Holds at most `ctas` CTAs at once (the occupancy limit).
    pub fn limit_ctas(&mut self, ctas: u32) {
        self.max_ctas = self.max_ctas.min(ctas);
    }

    /// Frees the slots of CTAs whose warps have all finished by `now`; counts them.
    pub fn retire(&mut self, now: u64, counts: &mut Counts) {
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
            self.resident -= ctas;
            counts.ctas_done += ctas;
        }
    }

    /// Launches CTA `cta` (and the next ones up to `last`, when several fit in one
    /// warp) if enough warp slots are free; the number of CTAs launched.
    pub fn launch(&mut self, cta: u32, last: u32, launch: Launch, image: &Image, now: u64) -> u32 {
        let ws = self.warp_size;
        let packed = if launch.cta < ws && ws.is_multiple_of(launch.cta) {
            (ws / launch.cta).min(last - cta)
        } else {
            1
        };
        let packed = packed.min(self.max_ctas.saturating_sub(self.resident));
        if packed == 0 {
            return 0;
        }
        let threads = packed * launch.cta;
        let need = threads.div_ceil(ws) as usize;
        let free = self.free_slots(need);
        if free.len() < need {
            return 0;
        }
        let lanes = self.lanes as u32;
        let start = start_thread(image, image.kernel);
        let mut masks = Vec::with_capacity(free.len());
        for (k, &w) in free.iter().enumerate() {
            let first = k as u32 * ws;
            let count = (threads - first).min(ws);
            for t in 0..count {
                let slot = &mut self.slots[w * ws as usize + t as usize];
                slot.thread = start.clone();
                slot.stack.clear();
                slot.calls.clear();
                slot.env = launch.env(cta * launch.cta + first + t);
            }
            masks.push(
                (0..self.rows as u32)
                    .map(|r| {
                        let n = count.saturating_sub(r * lanes).min(lanes);
                        if n == 64 {
                            u64::MAX
                        } else {
                            (1u64 << n) - 1
                        }
                    })
                    .collect(),
            );
            self.warps[w].start(cta, packed, now);
        }
        self.policy.launch(&free, masks, image.kernel);
        self.ctas += 1;
        self.resident += packed;
        packed
    }

    /// The warp slots a launch group of `need` warps takes: the first free ones, or with
    /// `sticky_cta` the first free aligned group (the fetch group of the CTA); fewer
    /// than `need` when they are not free.
    fn free_slots(&mut self, need: usize) -> Vec<usize> {
        if !self.sticky_cta {
            if self.policy.consecutive() {
                return self.free_window(need, 1, self.warps.len());
            }
            let free = |w: &usize| self.warps[*w].state == State::Free;
            return (0..self.warps.len()).filter(free).take(need).collect();
        }
        let group = *self.sticky.get_or_insert(need);
        if group != need {
            return vec![]; // every launch group of a kernel has the same size
        }
        let groups = self.warps.len() / group;
        if self.scheduler.groups() != Some((groups, group)) {
            self.scheduler = Scheduler::sticky(groups, group);
        }
        self.free_window(need, group, groups * group)
    }

    /// The first `need` consecutive free slots below `end` that start at a multiple of
    /// `step`; none when there are no such slots.
    fn free_window(&self, need: usize, step: usize, end: usize) -> Vec<usize> {
        if need > end {
            return vec![];
        }
        (0..=end - need)
            .step_by(step)
            .map(|first| first..first + need)
            .find(|slots| slots.clone().all(|w| self.warps[w].state == State::Free))
            .map_or(vec![], |slots| slots.collect())
    }

    /// The PC warp `w` issues next.
    fn pc(&self, w: usize) -> u32 {
        self.policy.fetch(w).map_or(0, |(pc, _)| pc)
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
        let Ok(step) = kernel.step(self.pc(w)) else {
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

    pub fn ready_mask(&self, now: u64, kernel: &Kernel) -> u64 {
        if !self.scoreboard {
            // Barrel processing (`eligible_at` without the scoreboard), in one pass: the
            // cycle loop asks every cycle.
            return self.warps.iter().enumerate().fold(0, |m, (w, warp)| {
                m | u64::from(warp.state == State::Run && warp.ready_at <= now) << w
            });
        }
        (0..self.warps.len())
            .filter(|&w| self.eligible_at(w, kernel) <= now)
            .fold(0, |m, w| m | 1 << w)
    }

    /// The next cycle at which this core's state changes by itself.
    pub fn next_event(&self, now: u64, kernel: &Kernel) -> Option<u64> {
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
    pub fn stall(&self, cycles: u64, launched_all: bool, stalls: &mut Stalls) {
        let has = |s: State| self.warps.iter().any(|w| w.state == s);
        let reason = if has(State::Memory) {
            &mut stalls.memory
        } else if has(State::Barrier) {
            &mut stalls.barrier
        } else if has(State::Parked) {
            &mut stalls.compaction
        } else if has(State::Run) {
            &mut stalls.pipeline
        } else if launched_all && self.ctas == 0 {
            &mut stalls.drain
        } else {
            &mut stalls.empty
        };
        *reason += cycles;
    }

    /// Line `line` has arrived at `at` for warp `w`: for the warp's last instruction,
    /// or for threads waiting in the policy.
    pub fn arrived(&mut self, w: usize, line: u32, at: u64) -> Result<(), String> {
        let policy = self.policy.fill(w, line)?;
        let warp = &mut self.warps[w];
        if !policy {
            warp.pending -= 1;
        }
        warp.data_at = warp.data_at.max(at);
        self.wake(w);
        Ok(())
    }

    /// Whether the core waits on memory: a warp waits for lines.
    pub fn waits_on_memory(&self) -> bool {
        self.warps.iter().any(|w| w.state == State::Memory)
    }

    /// A warp put aside for memory goes on when every line is in.
    fn wake(&mut self, w: usize) {
        let warp = &mut self.warps[w];
        if warp.state == State::Memory
            && warp.pending == 0
            && warp.replay.is_empty()
            && !self.policy.waits(w)
        {
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
    pub fn replay(&mut self, now: u64, memory: &mut MemorySystem) {
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
    pub fn states(&self, now: u64) -> Vec<WarpState> {
        self.warps
            .iter()
            .map(|w| match w.state {
                State::Free => WarpState::Free,
                State::Run if w.ready_at <= now => WarpState::Ready,
                State::Run => WarpState::Pipeline,
                State::Memory => WarpState::Memory,
                State::Barrier => WarpState::Barrier,
                State::Done => WarpState::Done,
                State::Parked => WarpState::Parked,
            })
            .collect()
    }

    /// Issues warp `w`'s instruction at cycle `now`.
    pub fn issue(&mut self, w: usize, now: u64, sh: &mut Shared) -> Result<Issued, String> {
        // Fetch.
        let Some((pc, mask)) = self.policy.fetch(w) else {
            return Err(format!("internal: warp {w} issued with no threads to run"));
        };
        let step = *sh.kernel.step(pc)?;
        // Execute.
        let first = self.policy.home(w) * self.warp_size as usize;
        let slots = &mut self.slots[first..first + mask.len() * self.lanes];
        execute(
            &step,
            (pc, mask),
            self.lanes,
            slots,
            sh.image,
            sh.memory,
            &mut self.executed,
        )?;
        // Form the warp instructions.
        let mode = self.policy.groups(&step, &self.executed, &mut self.groups);
        let active = self.executed.active;
        sh.counts.thread_instructions += u64::from(active);
        sh.counts.warp_instructions += self.groups.len() as u64;
        // The energy model's events: each warp instruction reads its source registers
        // and writes its destination once, warp-wide; each thread does one operation.
        let regs = step.inst.registers();
        let warp_instructions = self.groups.len() as u64;
        sh.counts.register_reads += warp_instructions * regs.reads.iter().flatten().count() as u64;
        sh.counts.register_writes += warp_instructions * u64::from(regs.write.is_some());
        sh.counts
            .operations
            .add(step.inst.unit(), u64::from(active));
        // Time them.
        let timed = self.time(w, now, &step, sh);
        self.busy_until = timed.issue_free;
        let ready_at = if self.scoreboard {
            self.scoreboard(w, now, &step, &timed)
        } else {
            timed.completes
        };
        // Resolve: the policy moves the warp on.
        self.policy
            .resolve(w, &step, &self.executed, &self.groups)?;
        self.warps[w].ready_at = ready_at;
        if self.policy.waits(w) {
            self.warps[w].state = State::Memory;
        }
        // Exit and barrier.
        if self.pc(w) == EXIT_PC {
            self.exit(w, timed.completes);
        }
        if self.executed.barrier {
            self.warps[w].state = State::Barrier;
        }
        self.apply_changes(now);
        // An arrival, or a warp that finished, may complete its CTA's barrier.
        let warp = &self.warps[w];
        if self.executed.barrier || warp.state == State::Done {
            self.release_barrier(warp.cta);
        }
        Ok(Issued {
            active,
            mode,
            sub_warps: self.groups.len() as u32,
            pc,
            lanes: self.groups.first().map_or(0, |g| g.lanes),
        })
    }

    /// Sends the events of the warps that owe their CTA one and have completed their
    /// instruction by `now` (thread block compaction), before anything is fetched.
    pub fn settle(&mut self, now: u64) -> Result<(), String> {
        let due = self.policy.due();
        if due == 0 {
            return Ok(());
        }
        for w in super::execute::bits(due) {
            let warp = &self.warps[w];
            if warp.state == State::Run && warp.ready_at <= now {
                self.policy.settle(w, now)?;
                self.apply_changes(now);
            }
        }
        Ok(())
    }

    /// What the policy did to the warp slots.
    fn apply_changes(&mut self, now: u64) {
        self.policy.changes(&mut self.changes);
        let mut changes = std::mem::take(&mut self.changes);
        for change in changes.drain(..) {
            match change {
                Change::Runs { w, at } => {
                    let warp = &mut self.warps[w];
                    warp.ready_at = at;
                    warp.state = if warp.pending > 0 || !warp.replay.is_empty() {
                        State::Memory
                    } else {
                        State::Run
                    };
                }
                Change::Parked(w) => self.warps[w].state = State::Parked,
                Change::Done(w) => {
                    let at = self.warps[w].ready_at.max(now);
                    self.exit(w, at);
                }
            }
        }
        self.changes = changes;
    }

    /// Every thread of warp `w` has returned; the slot frees when its instruction has
    /// completed and its last load is in (stores are written through).
    fn exit(&mut self, w: usize, completes: u64) {
        let warp = &mut self.warps[w];
        warp.ready_at = completes.max(warp.data_at + 1);
        warp.state = State::Done;
        self.retire_at = self.retire_at.min(warp.ready_at);
    }

    /// Lets CTA `cta` through its barrier when every unfinished warp of it has arrived.
    fn release_barrier(&mut self, cta: u32) {
        let of_cta = |w: &&mut Warp| {
            w.cta == cta && !matches!(w.state, State::Free | State::Done | State::Parked)
        };
        let settled = (0..self.warps.len())
            .filter(|&w| self.warps[w].cta == cta && self.warps[w].state == State::Barrier)
            .all(|w| self.policy.settled(w));
        if settled
            && self
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
