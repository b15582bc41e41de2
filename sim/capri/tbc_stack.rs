//! TBC CTA-wide stack model (SPEC §3.5): entries with `WCnt`, bypass-aware.
//!
//! The update mask has one bit per thread, not the paper's one bit per warp: on a core
//! where compacted warps mix threads of several home warps, a warp that bypasses is
//! any set of threads, and clearing whole home rows would drop the threads of a
//! stalled warp that share a row with it out of the compaction (lost threads).
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
                    tk.wcnt += self.compacted(&tk.mask, &tk.umask);
                    let all = self.all();
                    let t = self.entries.last_mut().unwrap();
                    t.pc = tk.rpc;
                    t.umask = all;
                    t.wcnt = 0;
                    self.entries.push(nt);
                    self.entries.push(tk);
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
        s.clock(false, &branch(true, [0, 0b0110, 0b1001], [0; 3]));
        assert_eq!(s.pend.as_ref().unwrap().1.umask, vec![0b1111; 3]);
        s.clock(false, &branch(false, [0b0011, 0, 0], [0b0100, 0b1000, 0]));
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
}
