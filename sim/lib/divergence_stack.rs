//! Divergence stack model (SPEC §2.4; `lwm-two-level-scheduling.txt` §2.3,
//! `capri-compaction-adequacy.txt` §2.1). The top entry is the warp: its `pc` and
//! `mask` are the warp's current PC and active mask.
//!
//! Cycle semantics: `outputs()` is what the stack shows this cycle; `clock()` applies
//! a rising edge with this cycle's inputs (priority reset > init > branch > advance).
//!
//! The mask is a `u64` (one warp of up to 64 lanes, the RTL's) or a `Vec<u64>` of rows
//! (a large warp, LWM §3.1: row `r` bit `c` is the thread in row `r`, lane `c`): the
//! same stack serves both (SPEC §2.4).
//!
//! A divergent branch (both paths have threads) with reconvergence PC `R`, as
//! GPGPU-Sim's `simt_stack::update` does, so the depth is bounded by the kernel's
//! nesting, not by how many iterations threads leave a loop at:
//! - a path whose PC is `R` is not pushed: its threads wait in the entry below;
//! - if the top is not the base and its own rpc is `R`, the top is *replaced* by the
//!   pushed paths (the entry below already waits at `R` with every thread); otherwise
//!   the top becomes the join entry (its PC := `R`) and the paths go above it.
//!
//! Not-taken goes below taken (taken runs first). With `p` the paths pushed (0, 1 or 2)
//! and `r` = 1 when the top is replaced, the stack ends with `len - r + p` entries; it
//! overflows when that exceeds the depth: then only the sticky flag changes. Every
//! entry above the base therefore has `pc != rpc`, and a pop removes one entry.
use std::fmt::Debug;

/// An active mask the stack can hold.
pub trait Mask: Clone + PartialEq + Eq + Default + Debug {
    fn and(&self, other: &Self) -> Self;
    fn and_not(&self, other: &Self) -> Self;
    fn is_empty(&self) -> bool;
    /// Only the first `lanes` lanes (of every row).
    fn limit(&self, lanes: usize) -> Self;
}

fn lane_bits(lanes: usize) -> u64 {
    if lanes >= 64 {
        u64::MAX
    } else {
        (1 << lanes) - 1
    }
}

impl Mask for u64 {
    fn and(&self, other: &u64) -> u64 {
        self & other
    }
    fn and_not(&self, other: &u64) -> u64 {
        self & !other
    }
    fn is_empty(&self) -> bool {
        *self == 0
    }
    fn limit(&self, lanes: usize) -> u64 {
        self & lane_bits(lanes)
    }
}

/// Rows of a large warp. Masks of different lengths combine as if the shorter one had
/// empty rows.
impl Mask for Vec<u64> {
    fn and(&self, other: &Vec<u64>) -> Vec<u64> {
        (0..self.len())
            .map(|r| self[r] & other.get(r).copied().unwrap_or(0))
            .collect()
    }
    fn and_not(&self, other: &Vec<u64>) -> Vec<u64> {
        (0..self.len())
            .map(|r| self[r] & !other.get(r).copied().unwrap_or(0))
            .collect()
    }
    fn is_empty(&self) -> bool {
        self.iter().all(|&row| row == 0)
    }
    fn limit(&self, lanes: usize) -> Vec<u64> {
        self.iter().map(|row| row & lane_bits(lanes)).collect()
    }
}

/// One stack entry.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Entry<M = u64> {
    /// Reconvergence PC: the entry pops when its `pc` reaches this.
    pub rpc: u64,
    /// Active mask (bit `c` = lane `c`).
    pub mask: M,
    /// Execute PC.
    pub pc: u64,
}

/// Inputs of one cycle (the RTL's ports).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inputs {
    pub reset: bool,
    pub init: bool,
    pub init_mask: u64,
    pub init_pc: u64,
    pub branch: bool,
    pub taken_mask: u64,
    pub taken_pc: u64,
    pub not_taken_pc: u64,
    pub reconv_pc: u64,
    pub advance: bool,
    pub next_pc: u64,
}

/// What the stack shows in one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs<M = u64> {
    pub pc: u64,
    pub mask: M,
    pub rpc: u64,
    pub depth: usize,
    pub overflow: bool,
}

/// What a branch did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BranchOutcome {
    /// All active threads went one way: only the PC changed.
    Uniform,
    /// The warp split: the paths not already at the reconvergence PC were pushed.
    Diverged,
    /// The warp split but the entries it needs were not free: nothing changed but
    /// `overflow`.
    Overflow,
}

#[derive(Clone, Debug)]
pub struct DivergenceStack<M = u64> {
    lanes: usize,
    depth: usize,
    entries: Vec<Entry<M>>,
    overflow: bool,
}

impl<M: Mask> DivergenceStack<M> {
    /// A stack of `depth` entries for warps of `lanes` lanes (per row).
    pub fn new(lanes: usize, depth: usize) -> Self {
        assert!((1..=64).contains(&lanes), "1..=64 lanes");
        assert!(depth >= 1, "at least the base entry");
        DivergenceStack {
            lanes,
            depth,
            entries: vec![],
            overflow: false,
        }
    }

    pub fn outputs(&self) -> Outputs<M> {
        let top = self.entries.last().cloned().unwrap_or_default();
        Outputs {
            pc: top.pc,
            mask: top.mask,
            rpc: top.rpc,
            depth: self.entries.len(),
            overflow: self.overflow,
        }
    }

    /// The entries, base first.
    pub fn entries(&self) -> &[Entry<M>] {
        &self.entries
    }

    /// Empties the stack and clears `overflow`.
    pub fn reset(&mut self) {
        self.entries.clear();
        self.overflow = false;
    }

    /// Starts a warp: one base entry (rpc 0). `overflow` is kept.
    pub fn init(&mut self, mask: M, pc: u64) {
        self.entries = vec![Entry {
            rpc: 0,
            mask: mask.limit(self.lanes),
            pc,
        }];
    }

    /// Pops while the top (other than the base) has reached its reconvergence PC.
    fn pop_reconverged(&mut self) {
        while self.entries.len() > 1 && {
            let top = self.entries.last().unwrap();
            top.pc == top.rpc
        } {
            self.entries.pop();
        }
    }

    /// The warp moves to `next_pc`. Ignored on an empty stack.
    pub fn advance(&mut self, next_pc: u64) {
        if let Some(top) = self.entries.last_mut() {
            top.pc = next_pc;
            self.pop_reconverged();
        }
    }

    /// The warp resolves a branch. `None` on an empty stack (ignored).
    pub fn branch(
        &mut self,
        taken_mask: M,
        taken_pc: u64,
        not_taken_pc: u64,
        reconv_pc: u64,
    ) -> Option<BranchOutcome> {
        let top = self.entries.last()?;
        let taken = top.mask.and(&taken_mask);
        let not_taken = top.mask.and_not(&taken_mask);
        let outcome = if !taken.is_empty() && !not_taken.is_empty() {
            // The base (rpc 0) is never replaced.
            let replace = self.entries.len() > 1 && top.rpc == reconv_pc;
            let paths: Vec<Entry<M>> = [(not_taken, not_taken_pc), (taken, taken_pc)]
                .into_iter()
                .filter(|&(_, pc)| pc != reconv_pc)
                .map(|(mask, pc)| Entry {
                    rpc: reconv_pc,
                    mask,
                    pc,
                })
                .collect();
            if self.entries.len() - usize::from(replace) + paths.len() > self.depth {
                self.overflow = true;
                return Some(BranchOutcome::Overflow);
            }
            if replace {
                self.entries.pop();
            } else {
                self.entries.last_mut().unwrap().pc = reconv_pc;
            }
            self.entries.extend(paths);
            BranchOutcome::Diverged
        } else {
            self.entries.last_mut().unwrap().pc = if taken.is_empty() {
                not_taken_pc
            } else {
                taken_pc
            };
            BranchOutcome::Uniform
        };
        self.pop_reconverged();
        Some(outcome)
    }
}

impl DivergenceStack<u64> {
    /// Rising edge with this cycle's inputs.
    pub fn clock(&mut self, i: &Inputs) {
        if i.reset {
            self.reset();
        } else if i.init {
            self.init(i.init_mask, i.init_pc);
        } else if i.branch {
            self.branch(i.taken_mask, i.taken_pc, i.not_taken_pc, i.reconv_pc);
        } else if i.advance {
            self.advance(i.next_pc);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_warp_stack_diverges_and_reconverges_by_rows() {
        // Two rows of 4 lanes: 8 threads.
        let mut s: DivergenceStack<Vec<u64>> = DivergenceStack::new(4, 8);
        s.init(vec![0b1111, 0b0011], 0x10);
        // Taken: lane 0 of row 0 and lane 1 of row 1.
        let outcome = s.branch(vec![0b0001, 0b0010], 0x20, 0x14, 0x40);
        assert_eq!(outcome, Some(BranchOutcome::Diverged));
        assert_eq!(s.outputs().mask, vec![0b0001, 0b0010]);
        s.advance(0x40);
        assert_eq!(s.outputs().mask, vec![0b1110, 0b0001], "the not-taken rows");
        assert_eq!(s.outputs().pc, 0x14);
        s.advance(0x40);
        assert_eq!((s.outputs().pc, s.outputs().depth), (0x40, 1));
        assert_eq!(s.outputs().mask, vec![0b1111, 0b0011]);
        // Every thread one way: uniform, whatever the rows.
        let outcome = s.branch(vec![0b1111, 0b0111], 0x80, 0x44, 0x90);
        assert_eq!(outcome, Some(BranchOutcome::Uniform));
        assert_eq!(s.outputs().pc, 0x80);
    }

    #[test]
    fn if_without_else_pushes_only_the_then_path() {
        let mut s = DivergenceStack::<u64>::new(4, 8);
        s.init(0b1111, 0x10);
        // Threads 0,1 run the then-block at 0x20; the else side is the join 0x40 itself:
        // its threads wait in the join entry, nothing is pushed for them.
        assert_eq!(
            s.branch(0b0011, 0x20, 0x40, 0x40),
            Some(BranchOutcome::Diverged)
        );
        assert_eq!(s.outputs().depth, 2);
        assert_eq!(s.entries()[0].pc, 0x40, "the base waits at the join");
        s.advance(0x40);
        assert_eq!(
            s.outputs(),
            Outputs {
                pc: 0x40,
                mask: 0b1111,
                rpc: 0,
                depth: 1,
                overflow: false
            }
        );
        // Both paths at the join: the warp split but nothing is pushed.
        assert_eq!(
            s.branch(0b0011, 0x40, 0x40, 0x40),
            Some(BranchOutcome::Diverged)
        );
        assert_eq!((s.outputs().pc, s.outputs().depth), (0x40, 1));
    }

    /// A loop whose back branch (taken: stay in the loop) reconverges at the exit: each
    /// iteration replaces the loop entry, so the depth stays 2 whatever the trip counts.
    #[test]
    fn a_loop_with_different_trip_counts_keeps_two_entries() {
        const HEAD: u64 = 0x100;
        const BACK: u64 = 0x120;
        const EXIT: u64 = 0x124;
        let mut s = DivergenceStack::<u64>::new(8, 2);
        s.init(0xff, HEAD);
        // Thread t leaves after t + 1 iterations.
        for iteration in 0..8u32 {
            s.advance(BACK);
            let looping = (0xffu64 << (iteration + 1)) & 0xff;
            let outcome = s.branch(looping, HEAD, EXIT, EXIT);
            let want = if looping == 0 {
                BranchOutcome::Uniform
            } else {
                BranchOutcome::Diverged
            };
            assert_eq!(outcome, Some(want), "iteration {iteration}");
            assert!(s.outputs().depth <= 2);
            assert!(!s.outputs().overflow);
            if looping != 0 {
                assert_eq!((s.outputs().pc, s.outputs().mask), (HEAD, looping));
            }
        }
        assert_eq!(
            s.outputs(),
            Outputs {
                pc: EXIT,
                mask: 0xff,
                rpc: 0,
                depth: 1,
                overflow: false
            }
        );
    }

    fn rows(s: &DivergenceStack<u64>) -> Vec<(u64, u64, u64)> {
        s.entries().iter().map(|e| (e.rpc, e.mask, e.pc)).collect()
    }

    /// A nested branch reconverging where the top does replaces the top with its paths;
    /// the base is never replaced, even by a branch whose reconvergence PC is 0.
    #[test]
    fn equal_reconvergence_replaces_the_top_but_never_the_base() {
        let mut s = DivergenceStack::<u64>::new(4, 8);
        s.init(0b1111, 0x10);
        s.branch(0b0011, 0x20, 0x30, 0);
        assert_eq!(
            rows(&s),
            [(0, 0b1111, 0), (0, 0b1100, 0x30), (0, 0b0011, 0x20)],
            "the base became the join entry"
        );
        // In the taken path (rpc 0, not the base): a branch reconverging at 0 again.
        s.branch(0b0001, 0x24, 0x28, 0);
        assert_eq!(
            rows(&s),
            [
                (0, 0b1111, 0),
                (0, 0b1100, 0x30),
                (0, 0b0010, 0x28),
                (0, 0b0001, 0x24)
            ]
        );
        // Each path reaching 0 pops one entry, then the not-taken path of the outer branch.
        s.advance(0);
        assert_eq!((s.outputs().pc, s.outputs().mask), (0x28, 0b0010));
        s.advance(0);
        assert_eq!((s.outputs().pc, s.outputs().mask), (0x30, 0b1100));
        // Replaced by no path at all (both at the reconvergence PC): the top goes.
        s.branch(0b0100, 0, 0, 0);
        assert_eq!(rows(&s), [(0, 0b1111, 0)]);
    }

    /// Overflow only when the entries really needed do not fit: `len - r + p > depth`.
    #[test]
    fn overflow_counts_only_the_entries_really_needed() {
        let mut s = DivergenceStack::<u64>::new(4, 4);
        s.init(0b1111, 0x10);
        s.branch(0b0111, 0x20, 0x30, 0x40);
        assert_eq!(s.outputs().depth, 3);
        // Two paths on top of a new join entry: 3 + 2 > 4.
        let before = rows(&s);
        assert_eq!(
            s.branch(0b0011, 0x24, 0x28, 0x60),
            Some(BranchOutcome::Overflow)
        );
        assert_eq!(rows(&s), before, "an overflow changes nothing else");
        assert!(s.outputs().overflow);
        // One path (the other waits at 0x60): 3 + 1 fits.
        assert_eq!(
            s.branch(0b0011, 0x24, 0x60, 0x60),
            Some(BranchOutcome::Diverged)
        );
        assert_eq!(s.outputs().depth, 4);
        // Full. Replacing the top by two paths needs one more entry: 4 - 1 + 2 > 4 ...
        assert_eq!(
            s.branch(0b0001, 0x28, 0x2c, 0x60),
            Some(BranchOutcome::Overflow)
        );
        // ... by one path it does not.
        assert_eq!(
            s.branch(0b0001, 0x28, 0x60, 0x60),
            Some(BranchOutcome::Diverged)
        );
        assert_eq!(
            rows(&s),
            [
                (0, 0b1111, 0x40),
                (0x40, 0b1000, 0x30),
                (0x40, 0b0111, 0x60),
                (0x60, 0b0001, 0x28)
            ]
        );
    }
}
