//! TBC CTA-wide stack model (SPEC §3.5): entries with `WCnt`, bypass-aware.
//!
//! The update mask has one bit per thread, not the paper's one bit per warp: on a core
//! where compacted warps mix threads of several home warps, a warp that bypasses is
//! any set of threads, and clearing whole home rows would drop the threads of a
//! stalled warp that share a row with it out of the compaction (lost threads).
//!
//! Depth bounded by the kernel's nesting (as the per-warp divergence stack, SPEC §2.4,
//! and GPGPU-Sim's `simt_stack::update`), not by how many iterations threads leave a
//! loop at. When the last warp of a branch with reconvergence PC `R` arrives
//! (`WCnt` of the TOS reaches 0) and both paths have threads:
//! - `replace` = the TOS is not the base entry and its own `rpc` is `R`: the TOS is
//!   popped (the entry below already waits for `R`'s threads); otherwise the TOS
//!   becomes the reconvergence entry (`pc := R`, `umask` := every thread, `WCnt := 0`);
//! - a path whose PC is `R` is not pushed: its threads wait in that entry at `R`, and
//!   the bypass count of the path is dropped (they are compacted with the rest there);
//! - the other paths are pushed, not-taken below taken, with the masks, update mask
//!   and bypass counts they were filled with; the new TOS (the top pushed path) adds
//!   the compacted count of its waiting threads (`mask & umask`) to its `WCnt`;
//! - if no path is pushed, the new TOS is the entry at `R` (the rewritten TOS, or
//!   with `replace` the entry below): as after a pop, its `WCnt` grows by the
//!   compacted count of its `mask & umask`, and `changed`/`wcu_useful` follow it.
//!
//! With `p` the paths pushed and `r` = 1 on `replace`, the stack ends with
//! `len - r + p <= len + 2` entries. The capacity check is made when the branch's
//! first warp arrives, before anyone knows which paths will be live: the pending
//! entries are filled in the two entries above the TOS (the RTL's storage), so it
//! needs `len + 2 <= capacity` (else `overflow`, the event is dropped); the result
//! then always fits. A branch with one live path only moves the TOS (no push), as
//! before, even when that path's PC is `R`.
use crate::lib::column_compactor::min_groups;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub pc: u32,
    pub rpc: u32,
    /// One lane mask per warp.
    pub mask: Vec<u64>,
    /// One lane mask per warp: the threads that take part in compaction (1 = waited,
    /// 0 = bypassed). Every thread at launch and when an entry re-forms at its
    /// reconvergence PC, active or not.
    pub umask: Vec<u64>,
    pub wcnt: usize,
}

/// One event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    None,
    /// CTA launch: mask (per warp), first PC, exit PC.
    Launch {
        mask: Vec<u64>,
        pc: u32,
        rpc: u32,
    },
    /// One (possibly compacted) warp executed the TOS branch; its threads at their
    /// home positions, one lane mask per source warp. `stall: false` (bypass) clears
    /// exactly these threads from the pending entries' `umask`.
    Branch {
        stall: bool,
        taken: Vec<u64>,
        not_taken: Vec<u64>,
        taken_pc: u32,
        not_taken_pc: u32,
        rpc: u32,
    },
    /// One warp reached the TOS reconvergence PC.
    Reconverge,
}

#[derive(Clone, Debug)]
pub struct TbcStack {
    pub warps: usize,
    pub lanes: usize,
    pub capacity: usize,
    /// Entries in use (TOS last).
    pub entries: Vec<Entry>,
    /// The pending branch's (not-taken, taken) entries.
    pub pend: Option<(Entry, Entry)>,
    pub changed: bool,
    /// With `changed`: compacting the new TOS's waiting warps removes a warp.
    pub wcu_useful: bool,
    pub overflow: bool,
    pub error: bool,
}

impl TbcStack {
    pub fn new(warps: usize, lanes: usize, depth: usize) -> Self {
        assert!(depth >= 3 && (1..=64).contains(&warps) && (1..=64).contains(&lanes));
        TbcStack {
            warps,
            lanes,
            capacity: depth,
            entries: vec![],
            pend: None,
            changed: false,
            wcu_useful: false,
            overflow: false,
            error: false,
        }
    }

    fn lane_bits(&self) -> u64 {
        if self.lanes == 64 {
            u64::MAX
        } else {
            (1 << self.lanes) - 1
        }
    }

    /// Every thread of every warp.
    fn all(&self) -> Vec<u64> {
        vec![self.lane_bits(); self.warps]
    }

    /// Compacted warps of the threads of `mask` in `umask`; also records whether that
    /// removes a warp (`wcu_useful`).
    fn compacted(&mut self, mask: &[u64], umask: &[u64]) -> usize {
        let m: Vec<u64> = mask.iter().zip(umask).map(|(&r, &u)| r & u).collect();
        let c = min_groups(&m, self.lanes);
        self.wcu_useful = c < m.iter().filter(|&&r| r != 0).count();
        c
    }

    pub fn tos(&self) -> Option<&Entry> {
        self.entries.last()
    }

    /// Rising edge.
    pub fn clock(&mut self, reset: bool, ev: &Event) {
        if reset {
            *self = TbcStack::new(self.warps, self.lanes, self.capacity);
            return;
        }
        self.changed = false;
        self.wcu_useful = false;
        let lane_bits = self.lane_bits();
        let legal = self.tos().is_some_and(|t| t.wcnt != 0);
        match ev {
            Event::None => {}
            Event::Launch { mask, pc, rpc } => {
                let mask: Vec<u64> = mask.iter().map(|&m| m & lane_bits).collect();
                let wcnt = mask.iter().filter(|&&m| m != 0).count();
                self.entries = vec![Entry {
                    pc: *pc,
                    rpc: *rpc,
                    mask,
                    umask: self.all(),
                    wcnt,
                }];
                self.pend = None;
            }
            Event::Branch {
                stall,
                taken,
                not_taken,
                taken_pc,
                not_taken_pc,
                rpc,
            } => {
                if !legal {
                    self.error = true;
                    return;
                }
                if self.pend.is_none() && self.entries.len() + 2 > self.capacity {
                    self.overflow = true;
                    return;
                }
                let (mut nt, mut tk) = self.pend.take().unwrap_or_else(|| {
                    let e = |pc: u32| Entry {
                        pc,
                        rpc: *rpc,
                        mask: vec![0; self.warps],
                        umask: self.all(),
                        wcnt: 0,
                    };
                    (e(*not_taken_pc), e(*taken_pc))
                });
                for w in 0..self.warps {
                    tk.mask[w] |= taken[w] & lane_bits;
                    nt.mask[w] |= not_taken[w] & lane_bits;
                    if !stall {
                        // A bypass clears exactly its own threads.
                        tk.umask[w] &= !(taken[w] | not_taken[w]);
                    }
                }
                if !stall {
                    nt.umask = tk.umask.clone();
                    tk.wcnt += usize::from(taken.iter().any(|&m| m & lane_bits != 0));
                    nt.wcnt += usize::from(not_taken.iter().any(|&m| m & lane_bits != 0));
                }
                let t = self.entries.last_mut().unwrap();
                t.wcnt -= 1;
                if t.wcnt != 0 {
                    self.pend = Some((nt, tk));
                    return;
                }
                self.changed = true;
                let tk_live = tk.mask.iter().any(|&m| m != 0);
                let nt_live = nt.mask.iter().any(|&m| m != 0);
                if tk_live && nt_live {
                    let rpc = tk.rpc;
                    let replace = self.entries.len() > 1 && self.entries.last().unwrap().rpc == rpc;
                    // Not-taken below taken; a path already at `R` waits in the entry there.
                    let mut paths: Vec<Entry> =
                        [nt, tk].into_iter().filter(|p| p.pc != rpc).collect();
                    if replace {
                        self.entries.pop();
                    } else {
                        let all = self.all();
                        let t = self.entries.last_mut().unwrap();
                        t.pc = rpc;
                        t.umask = all;
                        t.wcnt = 0;
                    }
                    if let Some(top) = paths.last_mut() {
                        let (m, u) = (top.mask.clone(), top.umask.clone());
                        top.wcnt += self.compacted(&m, &u);
                        self.entries.extend(paths);
                    } else {
                        // The entry at `R` with every thread is the TOS, as after a pop.
                        let b = self.entries.last().cloned().unwrap();
                        let c = self.compacted(&b.mask, &b.umask);
                        self.entries.last_mut().unwrap().wcnt += c;
                    }
                } else {
                    let p = if nt_live { nt } else { tk };
                    let c = self.compacted(&p.mask, &p.umask);
                    let t = self.entries.last_mut().unwrap();
                    t.pc = p.pc;
                    t.umask = p.umask;
                    t.wcnt = p.wcnt + c;
                }
            }
            Event::Reconverge => {
                if !legal || self.pend.is_some() {
                    self.error = true;
                    return;
                }
                let t = self.entries.last_mut().unwrap();
                t.wcnt -= 1;
                if t.wcnt == 0 {
                    self.entries.pop();
                    if let Some(b) = self.entries.last().cloned() {
                        let c = self.compacted(&b.mask, &b.umask);
                        self.entries.last_mut().unwrap().wcnt += c;
                        self.changed = true;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn branch(stall: bool, taken: [u64; 3], not_taken: [u64; 3]) -> Event {
        Event::Branch {
            stall,
            taken: taken.to_vec(),
            not_taken: not_taken.to_vec(),
            taken_pc: 0xb0,
            not_taken_pc: 0xc0,
            rpc: 0xd0,
        }
    }

    /// Three 4-lane warps; after the first branch (every warp stalls) the taken path
    /// holds W0 = 0111, W1 = 1110, W2 = 1001, which compact into two warps sharing
    /// home row 1: A = W0 lanes 0-2 + W1 lane 3, B = W2 lanes 0, 3 + W1 lanes 1, 2.
    fn at_shared_rows() -> TbcStack {
        let mut s = TbcStack::new(3, 4, 8);
        s.clock(
            false,
            &Event::Launch {
                mask: vec![0b1111; 3],
                pc: 0xa0,
                rpc: 0xe0,
            },
        );
        s.clock(false, &branch(true, [0b0111, 0, 0], [0b1000, 0, 0]));
        s.clock(false, &branch(true, [0, 0b1110, 0], [0, 0b0001, 0]));
        s.clock(false, &branch(true, [0, 0, 0b1001], [0, 0, 0b0110]));
        let t = s.tos().unwrap();
        assert_eq!((t.pc, t.wcnt, s.entries.len()), (0xb0, 2, 3));
        assert_eq!(t.umask, vec![0b1111; 3]);
        s
    }

    #[test]
    fn a_bypassing_compacted_warp_clears_only_its_threads() {
        let mut s = at_shared_rows();
        // A bypasses (all taken), B stalls (all taken): one path, the TOS moves on.
        s.clock(false, &branch(false, [0b0111, 0b1000, 0], [0; 3]));
        assert_eq!(
            s.pend.as_ref().unwrap().1.umask,
            vec![0b1000, 0b0111, 0b1111]
        );
        s.clock(false, &branch(true, [0, 0b0110, 0b1001], [0; 3]));
        let t = s.tos().unwrap();
        // B's threads all still wait (W1 lanes 1, 2 with W2 lanes 0, 3: one compacted
        // warp from two rows, so compaction saves a warp); A's do not. A per-warp bit
        // would clear rows 0 and 1: W1's lanes 1, 2 lost, and no warp saved.
        assert_eq!(t.umask, vec![0b1000, 0b0111, 0b1111]);
        assert_eq!((t.pc, t.wcnt), (0xb0, 1 + 1));
        assert!(s.changed && s.wcu_useful && !s.error);
    }

    #[test]
    fn a_stalling_warp_clears_nothing_and_bypass_splits_paths() {
        let mut s = at_shared_rows();
        // B stalls first, then A bypasses with threads on both paths: +1 WCnt on each.
        // A join of its own (0xd8, not the TOS's 0xd0): the TOS is not replaced.
        let pcs = (0xb0, 0xc0, 0xd8);
        s.clock(
            false,
            &br_at(true, vec![0, 0b0110, 0b1001], vec![0; 3], pcs),
        );
        assert_eq!(s.pend.as_ref().unwrap().1.umask, vec![0b1111; 3]);
        s.clock(
            false,
            &br_at(false, vec![0b0011, 0, 0], vec![0b0100, 0b1000, 0], pcs),
        );
        // Both paths live: the TOS becomes the reconvergence entry, then C (not taken:
        // A's W0 lane 2 and W1 lane 3, all bypassed) and B (taken) are pushed.
        assert_eq!(s.entries.len(), 5);
        let (nt, tk) = (&s.entries[3], &s.entries[4]);
        assert_eq!(nt.umask, vec![0b1000, 0b0111, 0b1111]);
        assert_eq!(tk.umask, nt.umask);
        // Taken: A's W0 lanes 0, 1 bypassed (1 warp) + B's threads compacted (1 warp).
        assert_eq!((tk.pc, tk.wcnt), (0xb0, 2));
        // Not taken: A's part only, no thread waits.
        assert_eq!((nt.pc, nt.wcnt), (0xc0, 1));
        assert!(s.wcu_useful);
        // The reconvergence entry re-forms with every thread waiting.
        assert_eq!(s.entries[2].umask, vec![0b1111; 3]);
    }

    fn br_at(stall: bool, taken: Vec<u64>, not_taken: Vec<u64>, pcs: (u32, u32, u32)) -> Event {
        Event::Branch {
            stall,
            taken,
            not_taken,
            taken_pc: pcs.0,
            not_taken_pc: pcs.1,
            rpc: pcs.2,
        }
    }

    /// The threads of `mask` in warps of at most one thread per lane, each warp taking
    /// the next not yet taken thread of every lane (an independent column compaction):
    /// as many warps as the fullest lane has threads.
    fn lane_warps(mask: &[u64], lanes: usize) -> Vec<Vec<u64>> {
        let mut out: Vec<Vec<u64>> = vec![];
        for c in 0..lanes {
            let rows = (0..mask.len()).filter(|&r| mask[r] >> c & 1 == 1);
            for (k, r) in rows.enumerate() {
                if out.len() == k {
                    out.push(vec![0; mask.len()]);
                }
                out[k][r] |= 1 << c;
            }
        }
        out
    }

    fn launched(mask: Vec<u64>) -> TbcStack {
        let mut s = TbcStack::new(3, 4, 8);
        s.clock(
            false,
            &Event::Launch {
                mask,
                pc: 0x10,
                rpc: 0xf0,
            },
        );
        s
    }

    #[test]
    fn a_loop_left_at_every_iteration_keeps_its_depth() {
        // do { ... } while (i < n[t]): back edge taken to 0x10, fall-through = exit =
        // reconvergence PC 0x40. Thread k (row-major) leaves at iteration k + 1.
        let pcs = (0x10, 0x40, 0x40);
        let all = vec![0b1111u64; 3];
        let mut s = launched(all.clone());
        let mut live = all.clone();
        let mut max_depth = 0;
        // Warps that bypassed into the loop entry (their taken threads).
        let mut bypassed: Vec<Vec<u64>> = vec![];
        for k in 0..12 {
            let leaving: Vec<u64> = (0..3)
                .map(|r| if r == k / 4 { 1 << (k % 4) } else { 0 })
                .collect();
            let t = s.tos().unwrap().clone();
            assert_eq!(
                (t.pc, t.mask.clone()),
                (0x10, live.clone()),
                "iteration {k}"
            );
            let warps: Vec<Vec<u64>> = if k == 0 {
                (0..3)
                    .map(|r| (0..3).map(|q| if q == r { 0b1111 } else { 0 }).collect())
                    .collect()
            } else {
                // Bypassed warps keep their form; the threads that waited compact.
                let mut waiting = live.clone();
                for b in &bypassed {
                    for r in 0..3 {
                        waiting[r] &= !b[r];
                    }
                }
                let mut w = bypassed.clone();
                w.extend(lane_warps(&waiting, 4));
                w
            };
            bypassed.clear();
            assert_eq!(
                t.wcnt,
                warps.len(),
                "iteration {k}: WCnt = the warps formed"
            );
            for (i, w) in warps.iter().enumerate() {
                let nt: Vec<u64> = (0..3).map(|r| w[r] & leaving[r]).collect();
                let tk: Vec<u64> = (0..3).map(|r| w[r] & !leaving[r]).collect();
                // Every other warp bypasses: bypass counts of a path at `R` are dropped.
                let stall = i % 2 == 0;
                if !stall && tk.iter().any(|&m| m != 0) {
                    bypassed.push(tk.clone());
                }
                s.clock(false, &br_at(stall, tk, nt, pcs));
            }
            assert!(s.changed && !s.overflow && !s.error, "iteration {k}");
            for r in 0..3 {
                live[r] &= !leaving[r];
            }
            max_depth = max_depth.max(s.entries.len());
            if k < 11 {
                // The base waits at the exit with every thread; one loop entry above.
                assert_eq!(s.entries.len(), 2, "iteration {k}");
                assert_eq!((s.entries[0].pc, s.entries[0].wcnt), (0x40, 0));
                assert_eq!(s.entries[0].umask, all);
            }
        }
        assert!(max_depth <= 3, "depth {max_depth}");
        // The last thread left: one path live, the loop entry moves to the exit.
        let t = s.tos().unwrap().clone();
        assert_eq!((t.pc, t.mask, t.wcnt), (0x40, vec![0, 0, 0b1000], 1));
        s.clock(false, &Event::Reconverge);
        assert_eq!(s.entries.len(), 1);
        let b = s.tos().unwrap();
        assert_eq!(
            (b.pc, b.mask.clone(), b.wcnt),
            (0x40, all.clone(), lane_warps(&all, 4).len())
        );
    }

    #[test]
    fn an_if_then_pushes_only_the_then_path() {
        let mut s = launched(vec![0b1111; 3]);
        // Not-taken = the join 0x40 = R: those threads wait in the base.
        for r in 0..3 {
            let (mut tk, mut nt) = (vec![0; 3], vec![0; 3]);
            tk[r] = 1 << r;
            nt[r] = 0b1111 & !(1 << r);
            s.clock(false, &br_at(true, tk, nt, (0x20, 0x40, 0x40)));
        }
        assert_eq!(s.entries.len(), 2);
        let b = &s.entries[0];
        assert_eq!((b.pc, b.wcnt, b.umask.clone()), (0x40, 0, vec![0b1111; 3]));
        let t = s.tos().unwrap();
        // Lanes 0, 1, 2 of three warps compact into one warp.
        assert_eq!((t.pc, t.rpc, t.mask.clone()), (0x20, 0x40, vec![1, 2, 4]));
        assert_eq!(t.wcnt, 1);
        assert!(s.changed && s.wcu_useful);
        s.clock(false, &Event::Reconverge);
        let b = s.tos().unwrap();
        assert_eq!((s.entries.len(), b.pc), (1, 0x40));
        assert_eq!(b.wcnt, lane_warps(&[0b1111; 3], 4).len());
    }

    #[test]
    fn a_branch_with_both_paths_at_its_join_pushes_nothing() {
        let mut s = launched(vec![0b0001, 0b0010, 0b0100]);
        let pcs = (0x40, 0x40, 0x40);
        // W0 bypasses taken, W1 and W2 stall not taken; both targets are R.
        s.clock(false, &br_at(false, vec![1, 0, 0], vec![0; 3], pcs));
        s.clock(false, &br_at(true, vec![0; 3], vec![0, 0b0010, 0], pcs));
        s.clock(false, &br_at(true, vec![0; 3], vec![0, 0, 0b0100], pcs));
        let t = s.tos().unwrap();
        // The base at R with every thread waiting (W0's bypass count dropped): the
        // three threads are in different lanes, one compacted warp.
        assert_eq!(s.entries.len(), 1);
        assert_eq!((t.pc, t.wcnt, t.umask.clone()), (0x40, 1, vec![0b1111; 3]));
        assert!(s.changed && s.wcu_useful);
    }

    /// An outer if-else, join 0x40: W0 and W1 lanes 0, 1 to 0x20 (two warps, A = W0's
    /// and B = W1's, one per thread of lane 0), the rest to 0x30.
    fn outer_if_else() -> TbcStack {
        let mut s = launched(vec![0b1111; 3]);
        let tk = [0b0011, 0b0011, 0];
        for r in 0..3 {
            let (mut t, mut n) = (vec![0; 3], vec![0; 3]);
            t[r] = tk[r];
            n[r] = 0b1111 & !tk[r];
            s.clock(false, &br_at(true, t, n, (0x20, 0x30, 0x40)));
        }
        assert_eq!(s.entries.len(), 3);
        let t = s.tos().unwrap();
        assert_eq!((t.pc, t.wcnt), (0x20, lane_warps(&tk, 4).len()));
        s
    }

    #[test]
    fn nested_ifs_sharing_a_join_replace_the_top() {
        let mut s = outer_if_else();
        // Inner if-else in the then-block, same join: lane 0 to 0x24, lane 1 to 0x28.
        // Warp A (W0 lanes 0, 1) bypasses, warp B (W1 lanes 0, 1) stalls.
        let pcs = (0x24, 0x28, 0x40);
        s.clock(false, &br_at(false, vec![1, 0, 0], vec![2, 0, 0], pcs));
        s.clock(false, &br_at(true, vec![0, 1, 0], vec![0, 2, 0], pcs));
        // The then-entry is replaced, not turned into a join of its own.
        assert_eq!(s.entries.len(), 4);
        let pcs: Vec<(u32, u32)> = s.entries.iter().map(|e| (e.pc, e.rpc)).collect();
        assert_eq!(
            pcs,
            [(0x40, 0xf0), (0x30, 0x40), (0x28, 0x40), (0x24, 0x40)]
        );
        let (nt, tk) = (&s.entries[2], &s.entries[3]);
        assert_eq!((nt.mask.clone(), nt.wcnt), (vec![2, 2, 0], 1));
        // Taken: A bypassed (1) + W1 lane 0 compacted (1).
        assert_eq!((tk.mask.clone(), tk.wcnt), (vec![1, 1, 0], 2));
        assert_eq!(tk.umask, vec![0b1100, 0b1111, 0b1111]);
        assert_eq!(nt.umask, tk.umask);
        s.clock(false, &Event::Reconverge);
        s.clock(false, &Event::Reconverge);
        // The inner else-entry: A's bypass count + W1 lane 1 compacted.
        assert_eq!((s.tos().unwrap().pc, s.tos().unwrap().wcnt), (0x28, 1 + 1));
        let pcs = (0x40, 0x40, 0x40);
        s.clock(false, &br_at(true, vec![2, 0, 0], vec![0; 3], pcs));
        s.clock(false, &br_at(true, vec![0, 2, 0], vec![0; 3], pcs));
        // One path live: it stays as before (the TOS moves to 0x40).
        assert_eq!((s.entries.len(), s.tos().unwrap().pc), (3, 0x40));
    }

    #[test]
    fn a_replace_with_both_paths_at_the_join_pops_to_the_entry_below() {
        let mut s = outer_if_else();
        // The then-entry splits, both targets at its own join; A bypasses (its count
        // is dropped with the entry).
        let pcs = (0x40, 0x40, 0x40);
        s.clock(false, &br_at(false, vec![1, 0, 0], vec![2, 0, 0], pcs));
        s.clock(false, &br_at(true, vec![0, 1, 0], vec![0, 2, 0], pcs));
        assert_eq!(s.entries.len(), 2);
        let t = s.tos().unwrap();
        // The else entry, as after a pop: every thread of it compacted.
        let mask = vec![0b1100, 0b1100, 0b1111];
        let warps = lane_warps(&mask, 4).len();
        assert_eq!((t.pc, t.mask.clone(), t.wcnt), (0x30, mask, warps));
        assert_eq!(warps, 3);
        assert!(s.changed && !s.wcu_useful);
    }
}
