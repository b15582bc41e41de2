//! TBC CTA-wide stack model (SPEC §3.5): entries with `WCnt`, bypass-aware.
use crate::lib::column_compactor::min_groups;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub pc: u32,
    pub rpc: u32,
    /// One lane mask per warp.
    pub mask: Vec<u64>,
    pub umask: u64,
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
    /// home positions, one lane mask per source warp.
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

    fn all(&self) -> u64 {
        if self.warps == 64 {
            u64::MAX
        } else {
            (1 << self.warps) - 1
        }
    }

    /// Compacted warps of `mask` over the warps of `umask`; also records whether that
    /// removes a warp (`wcu_useful`).
    fn compacted(&mut self, mask: &[u64], umask: u64) -> usize {
        let m: Vec<u64> = mask
            .iter()
            .enumerate()
            .map(|(w, &r)| if umask >> w & 1 == 1 { r } else { 0 })
            .collect();
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
        let lane_bits = if self.lanes == 64 {
            u64::MAX
        } else {
            (1 << self.lanes) - 1
        };
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
                let mut rows = 0u64;
                for w in 0..self.warps {
                    tk.mask[w] |= taken[w] & lane_bits;
                    nt.mask[w] |= not_taken[w] & lane_bits;
                    if (taken[w] | not_taken[w]) & lane_bits != 0 {
                        rows |= 1 << w;
                    }
                }
                if !stall {
                    tk.umask &= !rows;
                    nt.umask = tk.umask;
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
                    tk.wcnt += self.compacted(&tk.mask, tk.umask);
                    let all = self.all();
                    let t = self.entries.last_mut().unwrap();
                    t.pc = tk.rpc;
                    t.umask = all;
                    t.wcnt = 0;
                    self.entries.push(nt);
                    self.entries.push(tk);
                } else {
                    let p = if nt_live { nt } else { tk };
                    let c = self.compacted(&p.mask, p.umask);
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
                        let c = self.compacted(&b.mask, b.umask);
                        self.entries.last_mut().unwrap().wcnt += c;
                        self.changed = true;
                    }
                }
            }
        }
    }
}
