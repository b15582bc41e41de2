//! WCU model (SPEC §3.2): the column compactor over the threads of the update mask.
//!
//! The update mask has one bit per thread (one lane mask per warp), not the paper's one
//! bit per warp: a bypassing warp may be a compacted warp, any set of threads, and the
//! threads of its home rows that waited must still be compacted.
use crate::lib::column_compactor::{clear, min_groups, pick, Group};
use crate::lib::low_bits;

/// What the WCU presents in one cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compacted {
    pub valid: bool,
    pub group: Group,
    pub last: bool,
    pub warps_needed: usize,
    pub waiting_warps: usize,
    pub saves_warps: bool,
}

#[derive(Clone, Debug)]
pub struct WarpCompactionUnit {
    lanes: usize,
    /// The loaded mask ANDed with the update mask: the threads not yet compacted.
    held: Vec<u64>,
    needed: usize,
    waiting: usize,
}

impl WarpCompactionUnit {
    pub fn new(warps: usize, lanes: usize) -> Self {
        assert!((1..=64).contains(&lanes) && (1..=64).contains(&warps));
        WarpCompactionUnit {
            lanes,
            held: vec![0; warps],
            needed: 0,
            waiting: 0,
        }
    }

    fn presented(&self) -> Group {
        // Bypassed threads are never held, so every row may be picked.
        pick(&self.held, self.lanes, |_| true)
    }

    pub fn outputs(&self) -> Compacted {
        let group = self.presented();
        let valid = group.lanes != 0;
        // Each picked lane takes one held thread: the group is the last when it takes
        // every thread still held.
        let held: u32 = self.held.iter().map(|r| r.count_ones()).sum();
        Compacted {
            valid,
            last: valid && held == group.lanes.count_ones(),
            group,
            warps_needed: self.needed,
            waiting_warps: self.waiting,
            saves_warps: self.needed < self.waiting,
        }
    }

    /// Rising edge; `mask` and `umask` one lane mask per warp (`umask`: 1 = the
    /// thread waited and takes part, 0 = it bypassed). Rows missing from either slice
    /// hold no thread.
    pub fn clock(&mut self, reset: bool, load: bool, mask: &[u64], umask: &[u64]) {
        if reset {
            self.held.iter_mut().for_each(|r| *r = 0);
            self.needed = 0;
            self.waiting = 0;
        } else if load {
            let lane_bits = low_bits(self.lanes);
            for (w, h) in self.held.iter_mut().enumerate() {
                let row = |v: &[u64]| v.get(w).copied().unwrap_or(0);
                *h = row(mask) & row(umask) & lane_bits;
            }
            self.needed = min_groups(&self.held, self.lanes);
            self.waiting = self.held.iter().filter(|&&r| r != 0).count();
        } else {
            let g = self.presented();
            clear(&mut self.held, &g);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Drains the unit: the compacted warps, each as (lane mask, source warp per lane).
    fn drain(wcu: &mut WarpCompactionUnit) -> Vec<(u64, Vec<usize>)> {
        let mut out = vec![];
        while wcu.outputs().valid {
            let g = wcu.outputs().group;
            out.push((g.lanes, g.rows));
            wcu.clock(false, false, &[], &[]);
        }
        out
    }

    #[test]
    fn bypassed_threads_leave_the_rest_of_their_row() {
        // Two compacted warps of 4 lanes share home row 1: A = W0 lanes 0-2 + W1 lane
        // 3, B = W1 lanes 1, 2 + W2 lanes 0, 3. A bypassed, B waited: umask clears
        // exactly A's threads. A per-warp bit would clear row 1 and lose B's lanes 1, 2.
        let mut wcu = WarpCompactionUnit::new(3, 4);
        wcu.clock(
            false,
            true,
            &[0b0111, 0b1110, 0b1001],
            &[0b1000, 0b0111, 0b1111],
        );
        let o = wcu.outputs();
        assert_eq!(
            (o.warps_needed, o.waiting_warps, o.saves_warps),
            (1, 2, true)
        );
        assert_eq!(drain(&mut wcu), vec![(0b1111, vec![2, 1, 1, 2])]);
    }

    #[test]
    fn missing_rows_hold_no_thread() {
        let mut wcu = WarpCompactionUnit::new(3, 4);
        wcu.clock(false, true, &[0b0001, 0b0001, 0b0001], &[0b1111]);
        assert_eq!(drain(&mut wcu), vec![(0b0001, vec![0, 0, 0, 0])]);
    }
}
