//! CVU thread terminator model (SPEC §5): two targets, a pair of 64-aligned batches
//! per target, the older batch of a pair evicted on a window miss, `flush` drains.
//! Cycle semantics: `outputs()` is what the unit presents this cycle (it depends on
//! this cycle's thread); `clock()` applies a rising edge.
use crate::vgiw::cvu_initiator::Batch;

/// One finished thread offered this cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Finished {
    pub id: u16,
    pub taken: bool,
}

/// What the terminator presents in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TerminatorOut {
    pub in_ready: bool,
    pub out_valid: bool,
    pub out_taken: bool,
    pub out: Batch,
    pub empty: bool,
}

/// Slot `[t][0]` is a, `[t][1]` is b; `None` when closed.
#[derive(Clone, Debug, Default)]
pub struct CvuTerminator {
    slots: [[Option<Batch>; 2]; 2],
    /// `older_b[t]`: slot b of target `t` is the eviction victim.
    older_b: [bool; 2],
}

enum Action {
    Or(usize),
    Open(usize),
    Evict(usize),
}

impl CvuTerminator {
    pub fn new() -> Self {
        Self::default()
    }

    fn action(&self, f: Finished) -> Action {
        let t = usize::from(f.taken);
        let win = f.id & !63;
        let pair = &self.slots[t];
        if let Some(k) = (0..2).find(|&k| pair[k].is_some_and(|b| b.base == win)) {
            Action::Or(k)
        } else if let Some(k) = (0..2).find(|&k| pair[k].is_none()) {
            Action::Open(k)
        } else {
            Action::Evict(usize::from(self.older_b[t]))
        }
    }

    /// The slot `flush` would send: first open in a0, b0, a1, b1.
    fn flush_pick(&self) -> Option<(usize, usize)> {
        (0..2)
            .flat_map(|t| (0..2).map(move |k| (t, k)))
            .find(|&(t, k)| self.slots[t][k].is_some())
    }

    pub fn outputs(&self, input: Option<Finished>, flush: bool, out_ready: bool) -> TerminatorOut {
        let empty = self.slots.iter().flatten().all(|s| s.is_none());
        let mut o = TerminatorOut {
            in_ready: true,
            empty,
            ..Default::default()
        };
        match input {
            Some(f) => {
                if let Action::Evict(k) = self.action(f) {
                    o.out_valid = true;
                    o.out_taken = f.taken;
                    o.out = self.slots[usize::from(f.taken)][k].unwrap();
                    o.in_ready = out_ready;
                }
            }
            None => {
                if let (true, Some((t, k))) = (flush, self.flush_pick()) {
                    o.out_valid = true;
                    o.out_taken = t == 1;
                    o.out = self.slots[t][k].unwrap();
                }
            }
        }
        o
    }

    /// Rising edge.
    pub fn clock(&mut self, reset: bool, input: Option<Finished>, flush: bool, out_ready: bool) {
        if reset {
            *self = Self::default();
            return;
        }
        match input {
            Some(f) => {
                let t = usize::from(f.taken);
                let win = f.id & !63;
                let bit = 1u64 << (f.id & 63);
                match self.action(f) {
                    Action::Or(k) => self.slots[t][k].as_mut().unwrap().bitmap |= bit,
                    Action::Open(k) | Action::Evict(k) => {
                        if matches!(self.action(f), Action::Evict(_)) && !out_ready {
                            return;
                        }
                        self.slots[t][k] = Some(Batch {
                            base: win,
                            bitmap: bit,
                        });
                        self.older_b[t] = k == 0;
                    }
                }
            }
            None => {
                if let (true, true, Some((t, k))) = (flush, out_ready, self.flush_pick()) {
                    self.slots[t][k] = None;
                }
            }
        }
    }

    /// Threads held in open slots.
    pub fn held(&self) -> Vec<(bool, Batch)> {
        (0..2)
            .flat_map(|t| self.slots[t].iter().flatten().map(move |b| (t == 1, *b)))
            .collect()
    }
}
