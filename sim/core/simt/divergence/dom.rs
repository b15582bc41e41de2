//! Diverge on miss (the DoM paper's §4-5) over PDOM's stacks, built from the golden
//! models: per warp a memory divergence table ([`Mdt`], `dom_mdt_entries` entries) and
//! its coalescing buffer entries ([`McbEntry`]), per core one [`SlipController`] and,
//! with `dom_adaptive`, the [`AdaptiveDiff`] that moves its max-slip.
//!
//! - **Split.** A global load whose executing threads partly miss in the L1 (a thread
//!   misses when its line misses: an MSHR merge is a miss, the data is not there) asks
//!   the MDT ([`Mdt::decide`], forbidden while a considered thread is at the slip limit
//!   or when no thread hit). Accepted: the missing threads leave the warp's stack
//!   ([`DivergenceStack::mask_off`]) and wait in the MDT entry of the load's PC (merged
//!   into it when there is one) while their lines come; the warp runs on with the threads
//!   that hit. Refused (slip limit, MDT full, no thread hit, a line refused for want of
//!   an MSHR): the load blocks, as under `pdom`.
//! - **Rejoin.** When the warp executes the same load again, the threads of its entry
//!   whose lines are in come back ([`DivergenceStack::rejoin_at`]) at the PC after it:
//!   they are one or more iterations behind, at the same PC.
//! - **Loop exit** (`dom_reconverge = loop`). Threads that left at a load inside a loop
//!   stay members of the loop (§3.1: its stack entry does not pop while they wait):
//!   when the warp reaches the loop's exit (the reconvergence point of the loop's exit
//!   branch) with threads of a load of that loop waiting, it waits for their lines and
//!   runs them to the exit first, as a divergent path reconverging there; they come back
//!   at the loop's next execution of their load or at its exit, whichever comes first.
//!   With `return`, the warp leaves the loop without them and they come back at the next
//!   forced point.
//! - **Forced reconvergence** (§4.3) at calls, returns (the kernel's last one too) and
//!   `weft_barrier`: while threads wait in the MDT, the warp does not pass such a point
//!   (waiting threads must stay in the function they left, where their load comes round
//!   again). When threads of an entry are ready, they come back into the stack: at a
//!   call or return as a pending path that runs from the PC after their load to the
//!   first join of their own still to come ([`DivergenceStack::pend`]: the joins they
//!   would have met, recorded when they left), or to the kernel's end when every one is
//!   passed; the warp's threads at the point run on first. At a barrier they run first,
//!   as a divergent path reconverging at the barrier ([`DivergenceStack::branch`]).
//!   When none is ready, the warp waits for a line ([`Policy::waits`]).
//! - **Slip** (§5.1). Every global load the warp executes is an event of the core's slip
//!   controller (its threads considered: the stack's top and the waiting ones). The
//!   golden warp unit counts only loads that complete without blocking, which leaves a
//!   warp whose leading threads reached the limit blocking on every load for good (a
//!   blocked load never lowers a counter); here a blocked load is an event too, with the
//!   hits of its lookups, so the leaders come down when the tail hits (§5.1 ¶2).
//!   Counters clear when a warp slot takes a new CTA. With `dom_adaptive`, the adaptive
//!   diff (§5.2) samples every cycle whether the core started an instruction, whether
//!   the DRAM bus moved data and whether the core waited on memory, and raises or lowers
//!   the core's max-slip by `dom_slip_step` (saturating) at each period's end: the
//!   controller's `STEP`.
//!
//! A refused load releases its entry's ready threads at once (the golden model
//! re-presents the op when its lines are in; the warp cannot issue before then
//! either, so only threads whose lines arrive during that wait come back one execution
//! later).
use super::pdom::Pdom;
use super::{Activity, DivergenceStats, Load, Policy};
use crate::core::cfg::Flow;
use crate::core::isa::Op;
use crate::core::machine::{divergence as settings, DomReconverge, Machine};
use crate::core::simt::execute::Executed;
use crate::core::simt::kernel::{Kernel, Step};
use crate::core::simt::stats::Figures;
use crate::core::thread::{CSR_BARRIER, EXIT_PC};
use crate::dom::adaptive_diff::AdaptiveDiff;
use crate::dom::mcb_entry::{McbEntry, McbInputs};
use crate::dom::mdt::Mdt;
use crate::dom::slip_controller::{SlipController, SlipInputs};
use crate::lib::column_compactor::Group;
use crate::lib::divergence_stack::DivergenceStack;
use crate::lwm::sub_warp_unit::Mode;
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// What diverge on miss counted.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct DomStats {
    /// Global loads executed.
    pub loads: u64,
    /// Loads whose missing threads left the warp (divergent loads), and their
    /// executing threads and threads that hit (the per-thread hit rate of divergent
    /// loads).
    pub divergent_loads: u64,
    pub divergent_threads: u64,
    pub divergent_hits: u64,
    /// Loads that partly missed but blocked: at the slip limit, with the MDT full, or a
    /// line refused for want of an MSHR.
    pub blocked_slip: u64,
    pub blocked_full: u64,
    pub blocked_mshr: u64,
    /// Loads whose every thread missed (they block: nothing to run on with).
    pub all_missed: u64,
    /// Rejoins at the load's next execution, and the threads that came back.
    pub rejoins: u64,
    pub rejoined_threads: u64,
    /// Forced reconvergences: threads brought back at a call, return or barrier.
    pub forced: u64,
    pub forced_threads: u64,
    /// Times a warp waited at such a point for a line.
    pub forced_waits: u64,
    /// `dom_reconverge = loop`: threads brought back at their loop's exit (times, and
    /// threads), and times a warp waited there for a line.
    pub exits: u64,
    pub exit_threads: u64,
    pub exit_waits: u64,
    /// The core's max-slip at the start and at the end of each adaptive period
    /// (cycle, max-slip); core 0's when cores combine.
    pub max_slip: Vec<(u64, u8)>,
}

impl DomStats {
    pub fn figures(&self, f: &mut Figures) {
        f.add_count("dom_loads", "DoM: global loads", self.loads);
        f.add_count(
            "dom_divergent_loads",
            "DoM: divergent loads (missing threads left the warp)",
            self.divergent_loads,
        );
        if self.divergent_threads > 0 {
            f.add(
                "dom_divergent_hit_rate",
                "DoM: threads that hit, per thread of a divergent load",
                super::super::stats::Value::Share(
                    self.divergent_hits as f64 / self.divergent_threads as f64,
                ),
            );
        }
        f.add_count(
            "dom_blocked_slip",
            "DoM: partly missed, blocked at the slip limit",
            self.blocked_slip,
        );
        f.add_count(
            "dom_blocked_full",
            "DoM: partly missed, blocked with the MDT full",
            self.blocked_full,
        );
        f.add_count(
            "dom_blocked_mshr",
            "DoM: partly missed, blocked on a line refused (MSHRs)",
            self.blocked_mshr,
        );
        f.add_count(
            "dom_all_missed",
            "DoM: every thread missed (blocking)",
            self.all_missed,
        );
        f.add_count("dom_rejoins", "DoM: rejoins at the load", self.rejoins);
        f.add_count(
            "dom_rejoined_threads",
            "DoM: threads rejoined at the load",
            self.rejoined_threads,
        );
        f.add_count(
            "dom_forced",
            "DoM: forced reconvergences (call, return, barrier)",
            self.forced,
        );
        f.add_count(
            "dom_forced_threads",
            "DoM: threads brought back by forced reconvergence",
            self.forced_threads,
        );
        f.add_count(
            "dom_forced_waits",
            "DoM: waits for a line at a forced point",
            self.forced_waits,
        );
        f.add_count(
            "dom_exits",
            "DoM: threads brought back at their loop's exit",
            self.exits,
        );
        f.add_count(
            "dom_exit_threads",
            "DoM: threads brought back at a loop's exit",
            self.exit_threads,
        );
        f.add_count(
            "dom_exit_waits",
            "DoM: waits for a line at a loop's exit",
            self.exit_waits,
        );
        if let Some(&(_, last)) = self.max_slip.last() {
            f.add_count(
                "dom_max_slip_end",
                "DoM: max-slip at the end",
                u64::from(last),
            );
        }
    }

    pub fn combined(mut self, other: &DomStats) -> DomStats {
        self.loads += other.loads;
        self.divergent_loads += other.divergent_loads;
        self.divergent_threads += other.divergent_threads;
        self.divergent_hits += other.divergent_hits;
        self.blocked_slip += other.blocked_slip;
        self.blocked_full += other.blocked_full;
        self.blocked_mshr += other.blocked_mshr;
        self.all_missed += other.all_missed;
        self.rejoins += other.rejoins;
        self.rejoined_threads += other.rejoined_threads;
        self.forced += other.forced;
        self.forced_threads += other.forced_threads;
        self.forced_waits += other.forced_waits;
        self.exits += other.exits;
        self.exit_threads += other.exit_threads;
        self.exit_waits += other.exit_waits;
        self
    }
}

/// One warp slot's memory divergence state.
struct WarpDom {
    mdt: Mdt,
    mcb: Vec<McbEntry>,
    /// Arrivals the waiting threads expect, by line.
    lines: HashMap<u32, u32>,
    /// Per lane, the joins a waiting thread's path meets ([`DivergenceStack::chain_at`]
    /// when it left).
    chains: Vec<Vec<u64>>,
    /// The warp waits at a forced point or a loop's exit for a waiting thread's line.
    forced_wait: bool,
}

/// The load [`Policy::load`] decided, applied when the warp resolves it.
struct Decided {
    w: usize,
    pc: u32,
    exec: u64,
    miss: u64,
    hit: u64,
    considered: u64,
    forbid: bool,
    accept: bool,
    addrs: Vec<u64>,
}

pub struct Dom {
    pdom: Pdom,
    lanes: usize,
    line_bits: usize,
    warps: Vec<WarpDom>,
    slip: SlipController,
    adaptive: Option<AdaptiveDiff>,
    /// Calls, returns and barriers: where a warp's threads must be together.
    forced: HashSet<u32>,
    barriers: HashSet<u32>,
    /// `dom_reconverge = loop`: each load's innermost loop's exit, by the load's PC.
    exits: HashMap<u32, u32>,
    /// Every loop's exit PC (the values of `exits`).
    exit_pcs: HashSet<u32>,
    reconverge: DomReconverge,
    decided: Option<Decided>,
    now: u64,
    stats: DomStats,
}

impl Dom {
    pub fn new(m: &Machine, settings: &settings::Dom) -> Dom {
        let lanes = m.core().lanes as usize;
        let warps = m.core().warps;
        // Unlimited: a thread waits on one load at a time, so one entry per lane never fills.
        let entries = match settings.mdt_entries {
            0 => lanes,
            n => n as usize,
        };
        let line_bits = m.l1().cache.line.trailing_zeros() as usize;
        let period = u64::from(settings.period);
        let share = |x: f64| (x * period as f64).round() as u64;
        let max_slip = settings.max_slip as u8;
        Dom {
            pdom: Pdom::new(m),
            lanes,
            line_bits,
            warps: (0..warps)
                .map(|_| WarpDom {
                    mdt: Mdt::new(entries),
                    mcb: (0..entries)
                        .map(|_| McbEntry::new(lanes, line_bits))
                        .collect(),
                    lines: HashMap::new(),
                    chains: vec![vec![]; lanes],
                    forced_wait: false,
                })
                .collect(),
            slip: SlipController::new(lanes, warps as usize, max_slip, settings.slip_step as u8),
            adaptive: settings.adaptive.then(|| {
                AdaptiveDiff::new(
                    period,
                    share(settings.idle_max),
                    share(settings.bw_min),
                    share(settings.stall_min),
                )
            }),
            forced: HashSet::new(),
            barriers: HashSet::new(),
            exits: HashMap::new(),
            exit_pcs: HashSet::new(),
            reconverge: settings.reconverge,
            decided: None,
            now: 0,
            stats: DomStats {
                max_slip: vec![(0, max_slip)],
                ..DomStats::default()
            },
        }
    }

    fn stack(&mut self, w: usize) -> &mut DivergenceStack<Vec<u64>> {
        &mut self.pdom.stacks[w]
    }

    fn top_mask(&self, w: usize) -> u64 {
        self.pdom.stacks[w]
            .entries()
            .last()
            .map_or(0, |e| e.mask[0])
    }

    /// One edge of warp `w`'s MCB entries: capture `capture` lanes into `target`,
    /// release `release` lanes of `released`, fill `fill` (a line's first byte).
    fn clock_mcb(
        &mut self,
        w: usize,
        capture: Option<(usize, u64, &[u64])>,
        release: Option<(usize, u64)>,
        fill: Option<u64>,
    ) {
        let lanes = self.lanes;
        let zeros = vec![0; lanes];
        for (k, entry) in self.warps[w].mcb.iter_mut().enumerate() {
            let cap = capture.filter(|c| c.0 == k);
            let rel = release.filter(|r| r.0 == k);
            // An entry with no thread waiting or ready that captures nothing keeps its
            // state on any edge (nothing to release, nothing to wake): skipped.
            if cap.is_none() && entry.waiting == 0 && entry.ready == 0 {
                continue;
            }
            entry.clock(&McbInputs {
                reset: false,
                capture: cap.is_some(),
                capture_mask: cap.map_or(0, |c| c.1),
                addr_in: cap.map_or_else(|| zeros.clone(), |c| c.2.to_vec()),
                fill: fill.is_some(),
                fill_addr: fill.unwrap_or(0),
                fill_data: zeros.clone(),
                release: rel.is_some(),
                release_mask: rel.map_or(0, |r| r.1),
            });
        }
    }

    /// Warp `w` at a call, return or barrier with threads waiting, or (`dom_reconverge
    /// = loop`) at the exit of a loop whose load threads wait on: brings back the threads
    /// of an entry whose lines are in as a path of their own, until the top is no such
    /// point or no thread it holds is ready (then the warp waits for a line).
    fn force(&mut self, w: usize) -> Result<(), String> {
        loop {
            if self.warps[w].mdt.waiting() == 0 {
                self.warps[w].forced_wait = false;
                return Ok(());
            }
            let Some(top_pc) = self.pdom.stacks[w].entries().last().map(|e| e.pc) else {
                return Ok(());
            };
            let pc = top_pc as u32;
            let warp = &self.warps[w];
            let forced = self.forced.contains(&pc);
            let loop_rule = self.reconverge == DomReconverge::Loop && self.exit_pcs.contains(&pc);
            if !(forced || loop_rule) {
                self.warps[w].forced_wait = false;
                return Ok(());
            }
            // The entries this point holds, and whether it is their loop's exit.
            let holds = |k: usize| {
                let exit = loop_rule && self.exits.get(&(warp.mdt.pcs[k] as u32)) == Some(&pc);
                (warp.mdt.masks[k] != 0 && (forced || exit)).then_some(exit)
            };
            let held: Vec<(usize, bool)> = (0..warp.mcb.len())
                .filter_map(|k| holds(k).map(|exit| (k, exit)))
                .collect();
            if held.is_empty() {
                self.warps[w].forced_wait = false;
                return Ok(());
            }
            let Some(&(k, at_exit)) = held.iter().find(|&&(k, _)| warp.mcb[k].ready != 0) else {
                if !warp.forced_wait {
                    if held.iter().any(|&(_, exit)| exit) {
                        self.stats.exit_waits += 1;
                    } else {
                        self.stats.forced_waits += 1;
                    }
                }
                self.warps[w].forced_wait = true;
                return Ok(());
            };
            // The ready threads that left with the same chain of joins come back together.
            let ready = warp.mcb[k].ready;
            let chain = warp.chains[ready.trailing_zeros() as usize].clone();
            let lanes = super::super::execute::bits(ready)
                .filter(|&l| warp.chains[l] == chain)
                .fold(0u64, |m, l| m | 1 << l);
            let resume = u64::from(warp.mdt.pcs[k] as u32 + 4);
            self.release(w, k, lanes);
            let first = at_exit || self.barriers.contains(&pc);
            let stack = &mut self.pdom.stacks[w];
            let room = if first {
                // Every thread meets here (a barrier, or their loop's exit): the threads
                // run to it first.
                stack.rejoin_at(&vec![lanes], top_pc);
                stack.branch(vec![lanes], resume, top_pc, top_pc)
                    != Some(crate::lib::divergence_stack::BranchOutcome::Overflow)
            } else {
                // A pending path to the first join of their own that is still to come
                // (or to the kernel's end); the warp passes the call or return.
                stack.pend(&vec![lanes], resume, &chain, u64::from(EXIT_PC))
            };
            if !room {
                return Err(format!(
                    "the divergence stack overflowed bringing back waiting threads at {pc:#x}; raise stack_entries"
                ));
            }
            if at_exit {
                self.stats.exits += 1;
                self.stats.exit_threads += u64::from(lanes.count_ones());
            } else {
                self.stats.forced += 1;
                self.stats.forced_threads += u64::from(lanes.count_ones());
            }
        }
    }

    /// Takes `lanes` (ready) out of warp `w`'s entry `k`.
    fn release(&mut self, w: usize, k: usize, lanes: u64) {
        self.clock_mcb(w, None, Some((k, lanes)), None);
        let warp = &mut self.warps[w];
        warp.mdt.clock(false, false, 0, 0, false, lanes);
    }
}

impl Policy for Dom {
    fn prepare(&mut self, kernel: &Kernel) -> Result<(), String> {
        for (pc, step) in kernel.steps() {
            let csr = matches!(
                step.inst.op,
                Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci
            );
            let barrier = csr && step.inst.imm as u32 & 0xfff == CSR_BARRIER;
            if barrier || matches!(step.flow, Flow::Call { .. } | Flow::Return) {
                self.forced.insert(pc);
            }
            if barrier {
                self.barriers.insert(pc);
            }
        }
        self.exits = loop_exits(kernel);
        self.exit_pcs = self.exits.values().copied().collect();
        Ok(())
    }

    fn rows(&self) -> usize {
        1
    }

    fn launch(&mut self, slots: &[usize], masks: Vec<Vec<u64>>, pc: u32) {
        self.pdom.launch(slots, masks, pc);
        for &w in slots {
            let warp = &mut self.warps[w];
            let entries = warp.mcb.len();
            warp.mdt = Mdt::new(entries);
            warp.mcb = (0..entries)
                .map(|_| McbEntry::new(self.lanes, self.line_bits))
                .collect();
            warp.lines.clear();
            warp.forced_wait = false;
            // §5.1: a warp slot's counters clear when it takes new threads.
            self.slip.clock(&SlipInputs {
                warp: w,
                clear: true,
                ..SlipInputs::default()
            });
        }
    }

    fn fetch(&self, w: usize) -> Option<(u32, &[u64])> {
        self.pdom.fetch(w)
    }

    fn groups(&mut self, step: &Step, ex: &Executed, out: &mut Vec<Group>) -> Mode {
        self.pdom.groups(step, ex, out)
    }

    fn load(&mut self, w: usize, load: &Load) -> bool {
        let warp = &self.warps[w];
        let exec = load.exec;
        let miss = exec & load.miss;
        let hit = exec & !miss;
        let considered = self.top_mask(w) | warp.mdt.waiting();
        let slip_in = SlipInputs {
            warp: w,
            considered,
            exec,
            hit,
            ..SlipInputs::default()
        };
        let at_limit = self.slip.outputs(&slip_in).forbid;
        let forbid = at_limit || hit == 0 || load.refused_line;
        let d = warp.mdt.decide(true, u64::from(load.pc), miss, forbid);
        let s = &mut self.stats;
        s.loads += 1;
        if miss != 0 {
            if hit == 0 {
                s.all_missed += 1;
            } else if load.refused_line {
                s.blocked_mshr += 1;
            } else if at_limit {
                s.blocked_slip += 1;
            } else if d.refuse {
                s.blocked_full += 1;
            } else {
                s.divergent_loads += 1;
                s.divergent_threads += u64::from(exec.count_ones());
                s.divergent_hits += u64::from(hit.count_ones());
            }
        }
        if d.accept {
            let lines = &mut self.warps[w].lines;
            for &line in load.missed {
                *lines.entry(line).or_insert(0) += 1;
            }
        }
        self.decided = Some(Decided {
            w,
            pc: load.pc,
            exec,
            miss,
            hit,
            considered,
            forbid,
            accept: d.accept,
            addrs: load.addrs.iter().map(|&a| u64::from(a)).collect(),
        });
        d.accept
    }

    fn resolve(&mut self, w: usize, step: &Step, ex: &Executed, _: &[Group]) -> Result<(), String> {
        self.pdom.follow(w, step, ex, &ex.taken)?;
        if let Some(d) = self.decided.take() {
            if d.w != w || d.pc != ex.pc {
                return Err(format!(
                    "internal: the load decided at {:#x} for warp {} resolved as {:#x} of warp {w}",
                    d.pc, d.w, ex.pc
                ));
            }
            let warp = &self.warps[w];
            let pc = u64::from(d.pc);
            let decision = warp.mdt.decide(true, pc, d.miss, d.forbid);
            let matched = decision.match_entry;
            let ready = matched.map_or(0, |k| warp.mcb[k].ready);
            self.warps[w]
                .mdt
                .clock(false, true, pc, d.miss, d.forbid, ready);
            let capture = decision.target.map(|k| (k, d.miss, d.addrs.as_slice()));
            let release = matched.filter(|_| ready != 0).map(|k| (k, ready));
            self.clock_mcb(w, capture, release, None);
            if d.accept {
                let after = u64::from(d.pc) + 4;
                let chain = self.pdom.stacks[w].chain_at(after);
                for l in super::super::execute::bits(d.miss) {
                    self.warps[w].chains[l] = chain.clone();
                }
                self.stack(w).mask_off(&vec![d.miss]);
            }
            if ready != 0 {
                // The threads come back after the load, where the threads that hit went
                // (the top's entry, or the join it popped into).
                if !self.stack(w).rejoin_at(&vec![ready], u64::from(d.pc) + 4) {
                    return Err(format!(
                        "internal: threads {ready:#x} of warp {w} came back after {:#x} but no entry is there",
                        d.pc
                    ));
                }
                self.stats.rejoins += 1;
                self.stats.rejoined_threads += u64::from(ready.count_ones());
            }
            self.slip.clock(&SlipInputs {
                warp: w,
                event: true,
                considered: d.considered,
                exec: d.exec,
                hit: d.hit,
                slipped: d.accept,
                ..SlipInputs::default()
            });
        }
        self.force(w)?;
        let at_exit = self.pdom.fetch(w).is_some_and(|(pc, _)| pc == EXIT_PC);
        if at_exit && self.warps[w].mdt.waiting() != 0 {
            return Err(format!(
                "internal: warp {w} finished with threads {:#x} waiting on memory",
                self.warps[w].mdt.waiting()
            ));
        }
        Ok(())
    }

    fn fill(&mut self, w: usize, line: u32) -> Result<bool, String> {
        let lines = &mut self.warps[w].lines;
        match lines.get_mut(&line) {
            Some(n) if *n > 1 => *n -= 1,
            Some(_) => {
                lines.remove(&line);
            }
            None => return Ok(false),
        }
        self.clock_mcb(w, None, None, Some(u64::from(line) << self.line_bits));
        if self.warps[w].forced_wait {
            self.force(w)?;
        }
        Ok(true)
    }

    fn waits(&self, w: usize) -> bool {
        self.warps[w].forced_wait
    }

    fn tick(&mut self, a: Activity) {
        let start = self.now;
        self.now += a.cycles;
        let Some(adaptive) = &mut self.adaptive else {
            return;
        };
        for c in 0..a.cycles {
            let idle = c > 0 || !a.started;
            adaptive.clock(false, idle, c < a.bus_cycles, idle && a.memory_stall);
            if adaptive.raise || adaptive.lower {
                // One raise or lower moves max-slip by the controller's step.
                self.slip.clock(&SlipInputs {
                    raise: adaptive.raise,
                    lower: adaptive.lower,
                    ..SlipInputs::default()
                });
                self.stats
                    .max_slip
                    .push((start + c + 1, self.slip.max_slip));
            }
        }
    }

    fn stats(&self) -> DivergenceStats {
        DivergenceStats::Dom(self.stats.clone())
    }
}

/// Each global load's innermost loop's exit, by the load's PC. A loop is the span from a
/// backward branch's or jump's target to the last instruction jumping back there; its
/// exit is where its first exit branch (one of whose successors is outside the span)
/// reconverges. A load takes the innermost loop around it that has an exit; loads in no
/// such loop (or whose loop's paths meet only at the function's return) have none.
fn loop_exits(kernel: &Kernel) -> HashMap<u32, u32> {
    use crate::core::cfg::Reconvergence;
    let steps: Vec<(u32, &Step)> = kernel.steps().collect();
    // Loop head -> its last back edge.
    let mut spans: HashMap<u32, u32> = HashMap::new();
    for &(pc, step) in &steps {
        let target = match step.flow {
            Flow::Branch { taken } => taken,
            Flow::Jump { target } => target,
            _ => continue,
        };
        if target <= pc {
            let end = spans.entry(target).or_insert(pc);
            *end = (*end).max(pc);
        }
    }
    let mut loops: Vec<(u32, u32, u32)> = vec![];
    for (&head, &end) in &spans {
        let inside = |x: u32| (head..=end).contains(&x);
        let exit = steps
            .iter()
            .filter(|&&(pc, _)| inside(pc))
            .find_map(|&(pc, step)| match (step.flow, step.reconvergence) {
                (Flow::Branch { taken }, Some(Reconvergence::At(r)))
                    if !inside(taken) || !inside(pc + 4) =>
                {
                    Some(r)
                }
                _ => None,
            });
        if let Some(exit) = exit {
            loops.push((head, end, exit));
        }
    }
    let mut exits = HashMap::new();
    for &(pc, step) in &steps {
        if step.inst.is_load() {
            let innermost = loops
                .iter()
                .filter(|&&(h, e, _)| (h..=e).contains(&pc))
                .min_by_key(|&&(h, e, _)| (e - h, h));
            if let Some(&(_, _, exit)) = innermost {
                exits.insert(pc, exit);
            }
        }
    }
    exits
}
