//! When an issued instruction's warp instructions occupy the issue slot and complete:
//! SFU and ALU occupancy, the coalescer's lines and their lookups, and the scoreboard.
use super::coalescer::Line;
use super::core::{Core, Shared};
use super::divergence::Load;
use super::execute::Access;
use super::kernel::Step;
use super::warp::State;
use crate::core::isa::Unit;
use crate::core::memory::Probe;

/// When an instruction's warp instructions are done with the core.
pub struct Timed {
    /// The issue slot is free again.
    pub issue_free: u64,
    /// The last warp instruction has completed (results written, lines in for hits).
    pub completes: u64,
    /// The warp waits for lines (a miss, or a lookup refused for want of an MSHR).
    pub waits: bool,
}

impl Core {
    /// Times warp `w`'s executed instruction, its groups issuing at `now`: the warp
    /// instructions take the issue slot one after the other; the warp completes with the
    /// last (barrel processing per large warp). Counts what entered the lanes.
    pub(super) fn time(&mut self, w: usize, now: u64, step: &Step, sh: &mut Shared) -> Timed {
        let m = sh.machine.core();
        let c = &mut *sh.counts;
        let depth = u64::from(m.pipeline_depth);
        let warp = &mut self.warps[w];
        let mut start = now;
        let mut completes = now;
        if self.executed.global {
            warp.data_at = now + depth - 1;
        }
        // The unit that times it: multiplies on the SFU with `sfu_multiply`.
        let unit = match step.unit {
            Unit::Mul if m.sfu_multiply => Unit::Sfu,
            u => u,
        };
        for group in &self.groups {
            let n = group.lanes.count_ones();
            c.carried_threads += u64::from(n);
            let histogram = &mut c.histogram;
            let (occupancy, done) = match unit {
                Unit::Sfu => {
                    // A pass a cycle (or a pass every `sfu_interval` cycles: an
                    // unpipelined unit holds the issue slot between its passes).
                    let per = m.sfu_lanes;
                    let passes = n.div_ceil(per);
                    for k in 0..passes {
                        histogram[(n - k * per).min(per) as usize] += 1;
                    }
                    let interval = u64::from(m.sfu_interval);
                    c.stalls.sfu += u64::from(passes) * (interval - 1);
                    let cycles = u64::from(passes) * interval;
                    (
                        cycles,
                        start + depth + cycles - 1 + u64::from(m.sfu_latency),
                    )
                }
                Unit::Memory => {
                    let private = self.coalescer.coalesce(
                        &self.executed.accesses,
                        group,
                        self.lanes,
                        &mut self.lines,
                    );
                    if private {
                        c.private_accesses += 1;
                    }
                    let accesses = &self.executed.accesses;
                    let shared = super::execute::bits(group.lanes)
                        .any(|l| accesses[group.rows[l] * self.lanes + l] == Access::Shared);
                    if shared {
                        c.shared_accesses += 1;
                    }
                    c.memory_thread_instructions += u64::from(n);
                    histogram[n as usize] += 1;
                    if self.lines.is_empty() {
                        // On chip, no line: the slower of the private and shared
                        // latencies the threads met.
                        let latency = [(private, m.private_latency), (shared, m.shared_latency)]
                            .iter()
                            .filter(|(met, _)| *met)
                            .map(|&(_, l)| l)
                            .max()
                            .unwrap_or(1);
                        (1, start + depth + u64::from(latency) - 1)
                    } else {
                        let lines = self.lines.len() as u64;
                        let ports = u64::from(sh.machine.l1().ports);
                        let occupancy = lines.div_ceil(ports);
                        c.stalls.memory_serialization += occupancy - 1;
                        // `l1_ports` lines are looked up per cycle, the first
                        // `pipeline_depth - 2` cycles after issue (at issue in a
                        // pipeline of one stage).
                        let lookup = (start + depth).saturating_sub(2);
                        let mut missed = std::mem::take(&mut self.missed);
                        missed.clear();
                        let mut refused_line = false;
                        for (i, &Line { line, bytes, .. }) in self.lines.iter().enumerate() {
                            let at = lookup + i as u64 / ports;
                            if self.executed.store {
                                sh.memory.store(self.id, at, line, bytes);
                                continue;
                            }
                            match sh.memory.load(self.id, at, line, w as u32) {
                                Probe::Hit { at } => warp.data_at = warp.data_at.max(at),
                                Probe::Miss => {
                                    warp.pending += 1;
                                    missed.push(line);
                                }
                                Probe::Full => {
                                    warp.replay.push(line);
                                    self.replaying = true;
                                    refused_line = true;
                                }
                            }
                        }
                        if !self.executed.store {
                            // Per thread: its address, and whether its line missed.
                            let mut miss = 0u64;
                            let mut exec = 0u64;
                            let addrs = &mut self.addrs;
                            addrs.clear();
                            addrs.resize(self.lanes, 0);
                            for l in super::execute::bits(group.lanes) {
                                exec |= 1 << l;
                                let t = group.rows[l] * self.lanes + l;
                                if let Access::Global { line, addr, .. } = accesses[t] {
                                    addrs[l] = addr;
                                    if missed.contains(&line) {
                                        miss |= 1 << l;
                                    }
                                }
                            }
                            let load = Load {
                                pc: self.executed.pc,
                                exec,
                                miss,
                                missed: &missed,
                                addrs,
                                refused_line,
                            };
                            if self.policy.load(w, &load) {
                                // The threads that missed wait in the policy: the warp
                                // runs on without their lines.
                                warp.pending -= missed.len() as u32;
                            }
                        }
                        self.missed = missed;
                        (
                            occupancy,
                            (start + depth + occupancy - 1).max(warp.data_at + 1),
                        )
                    }
                }
                _ => {
                    histogram[n as usize] += 1;
                    (1, start + depth)
                }
            };
            start += occupancy;
            completes = completes.max(done);
        }
        let waits = step.unit == Unit::Memory && (warp.pending > 0 || !warp.replay.is_empty());
        if waits {
            warp.state = State::Memory;
        }
        Timed {
            issue_free: start,
            completes,
            waits,
        }
    }

    /// The scoreboard (`scoreboard = true`): warp `w`'s result is there when its
    /// instruction completes, a loaded value when its lines arrive; the earliest cycle it
    /// may issue again: once its warp instructions have left the issue slot, after a
    /// branch, jump or barrier once it has resolved.
    pub(super) fn scoreboard(&mut self, w: usize, now: u64, step: &Step, timed: &Timed) -> u64 {
        let warp = &mut self.warps[w];
        if let Some(r) = step.registers.write {
            if timed.waits {
                warp.regs[r as usize] = u64::MAX;
                warp.load_reg = Some(r);
            } else {
                warp.regs[r as usize] = timed.completes;
            }
        }
        if step.unit == Unit::Control || self.executed.barrier {
            timed.completes
        } else {
            now + 1
        }
    }
}
