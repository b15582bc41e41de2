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
    fn or(&self, other: &Self) -> Self;
    fn is_empty(&self) -> bool;
    /// Only the first `lanes` lanes (of every row).
    fn limit(&self, lanes: usize) -> Self;
}

use super::low_bits as lane_bits;

impl Mask for u64 {
    fn and(&self, other: &u64) -> u64 {
        self & other
    }
    fn and_not(&self, other: &u64) -> u64 {
        self & !other
    }
    fn or(&self, other: &u64) -> u64 {
        self | other
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
    fn or(&self, other: &Vec<u64>) -> Vec<u64> {
        (0..self.len().max(other.len()))
            .map(|r| self.get(r).copied().unwrap_or(0) | other.get(r).copied().unwrap_or(0))
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

    /// Diverge on miss (DoM §4.1): the threads of `lanes` leave the warp (they wait on
    /// memory); they are taken out of every entry. Threads of the top entry are in it
    /// and in the entries it reconverges into, and in no other (a pending path holds
    /// other threads), so no entry but the top loses threads the warp still runs.
    pub fn mask_off(&mut self, lanes: &M) {
        for e in &mut self.entries {
            e.mask = e.mask.and_not(lanes);
        }
    }

    /// Threads that left with [`DivergenceStack::mask_off`] come back at `pc` (DoM
    /// §4.1, step 5): they join the topmost entry at `pc` (the top, or, when the top
    /// has just reached its reconvergence PC and popped, the entry it reconverged into:
    /// a pending path above it is at another PC) and every entry that one reconverges
    /// into, walking down: an entry joins when its PC is the PC the one above reconverges
    /// at (then its own reconvergence PC is next); pending paths are passed over. Sound
    /// when the threads left at `pc` in the same function: every entry on the walk waits
    /// at a post-dominator of `pc`. `false` (nothing changes) when no entry is at `pc`.
    pub fn rejoin_at(&mut self, lanes: &M, pc: u64) -> bool {
        let Some(at) = self.entries.iter().rposition(|e| e.pc == pc) else {
            return false;
        };
        self.join_from(at, lanes);
        true
    }

    /// `lanes` join entry `at` and every entry below it that it reconverges into (the
    /// walk of [`DivergenceStack::rejoin_at`]).
    fn join_from(&mut self, at: usize, lanes: &M) {
        let limit = self.lanes;
        let entry = &mut self.entries[at];
        entry.mask = entry.mask.or(lanes).limit(limit);
        let mut want = entry.rpc;
        for e in self.entries[..at].iter_mut().rev() {
            if e.pc == want {
                e.mask = e.mask.or(lanes).limit(limit);
                want = e.rpc;
            }
        }
    }

    /// The reconvergence PCs the threads at `pc` meet on their way, nearest first: the
    /// topmost entry at `pc` reconverges at the first, the entry waiting there at the
    /// next, and so on (the entries [`DivergenceStack::rejoin_at`] walks); empty at the
    /// base, or when no entry is at `pc`.
    pub fn chain_at(&self, pc: u64) -> Vec<u64> {
        let Some(at) = self.entries.iter().rposition(|e| e.pc == pc) else {
            return vec![];
        };
        let mut chain = vec![];
        let mut want = self.entries[at].rpc;
        for e in self.entries[..at].iter().rev() {
            if e.pc == want {
                chain.push(want);
                want = e.rpc;
            }
        }
        chain
    }

    /// Threads that left with [`DivergenceStack::mask_off`], at `pc`, come back as a
    /// pending path: it runs from `pc` to the first PC of `chain` (the threads' own
    /// [`DivergenceStack::chain_at`] when they left) at which an entry other than the
    /// top waits, and is placed right above that entry, which the threads join with the
    /// entries it reconverges into. With no such entry (every PC of their chain passed),
    /// the path runs to `exit` (the kernel's end) from right above a new base entry that
    /// waits there with every thread (the old base reconverges at `exit` too). The top
    /// runs on first either way. `false` (nothing changes) when the entries this needs are
    /// not free.
    pub fn pend(&mut self, lanes: &M, pc: u64, chain: &[u64], exit: u64) -> bool {
        let below_top = self.entries.len().saturating_sub(1);
        let found = chain.iter().find_map(|&c| {
            self.entries[..below_top]
                .iter()
                .rposition(|e| e.pc == c)
                .map(|at| (at, c))
        });
        let limit = self.lanes;
        match found {
            Some((at, join)) => {
                if self.entries.len() + 1 > self.depth {
                    self.overflow = true;
                    return false;
                }
                self.join_from(at, lanes);
                let path = Entry {
                    rpc: join,
                    mask: lanes.limit(limit),
                    pc,
                };
                self.entries.insert(at + 1, path);
            }
            None => {
                if self.entries.is_empty() || self.entries.len() + 2 > self.depth {
                    self.overflow = true;
                    return false;
                }
                let base = &mut self.entries[0];
                let all = base.mask.or(lanes).limit(limit);
                base.rpc = exit;
                let new_base = Entry {
                    rpc: 0,
                    mask: all,
                    pc: exit,
                };
                let path = Entry {
                    rpc: exit,
                    mask: lanes.limit(limit),
                    pc,
                };
                self.entries.insert(0, path);
                self.entries.insert(0, new_base);
            }
        }
        true
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

    /// Diverge on miss inside an if inside a loop: threads masked off at the load leave
    /// the if's entry, the loop's and the base, not the pending else path; they rejoin
    /// the same entries (and only those) when the load's PC comes round again.
    #[test]
    fn threads_masked_off_rejoin_the_entries_their_path_reconverges_into() {
        const LOOP: u64 = 0x100; // the loop body (its exit: 0x200)
        const THEN: u64 = 0x120; // if: then at 0x120, else at 0x140, join at 0x160
        let mut s = DivergenceStack::<u64>::new(8, 8);
        s.init(0xff, LOOP);
        // The loop's back branch with 0x7f staying: the loop entry is pushed above the
        // base, which waits at the exit.
        s.advance(0x1f0);
        assert_eq!(
            s.branch(0x7f, LOOP, 0x200, 0x200),
            Some(BranchOutcome::Diverged)
        );
        s.advance(0x110);
        // The if: 0x0f then, 0x70 else.
        assert_eq!(
            s.branch(0x0f, THEN, 0x140, 0x160),
            Some(BranchOutcome::Diverged)
        );
        // The load at 0x124: threads 0b0110 miss and leave.
        s.advance(0x128);
        let before: Vec<_> = s.entries().to_vec();
        assert_eq!(before.len(), 4, "base, loop (join 0x160), else, then");
        s.mask_off(&0b0110);
        let masks: Vec<u64> = s.entries().iter().map(|e| e.mask).collect();
        assert_eq!(
            masks,
            vec![0xf9, 0x79, 0x70, 0x09],
            "the else path keeps its threads"
        );
        // Rejoin at 0x128: the then path, the loop entry at its join, the base.
        assert!(!s.clone().rejoin_at(&0b0110, 0x12c), "no entry at 0x12c");
        assert!(s.rejoin_at(&0b0110, 0x128));
        assert_eq!(s.entries(), &before[..]);
        // At the base alone, the threads join the base.
        let mut b = DivergenceStack::<u64>::new(8, 4);
        b.init(0xff, 0x10);
        b.mask_off(&0x80);
        assert_eq!(b.outputs().mask, 0x7f);
        assert!(b.rejoin_at(&0x80, 0x10));
        assert_eq!(b.outputs().mask, 0xff);
        // A large warp's rows.
        let mut v = DivergenceStack::<Vec<u64>>::new(4, 4);
        v.init(vec![0xf, 0x3], 0x10);
        v.mask_off(&vec![0x1, 0x2]);
        assert_eq!(v.outputs().mask, vec![0xe, 0x1]);
        assert!(v.rejoin_at(&vec![0x1, 0x2], 0x10));
        assert_eq!(v.outputs().mask, vec![0xf, 0x3]);
    }

    /// Threads that waited come back as a pending path: above the entry their chain
    /// still finds below the top (the top runs on first), or, every join of their chain
    /// passed, to the kernel's end above a new base.
    #[test]
    fn threads_that_waited_come_back_as_a_pending_path_that_meets_their_join() {
        const EXIT: u64 = 0xfff0;
        let mut s = DivergenceStack::<u64>::new(8, 8);
        s.init(0xff, 0x10);
        // An if (join 0x80) whose then path (0x0f) runs a load at 0x20; 0x03 miss.
        s.branch(0x0f, 0x20, 0x40, 0x80);
        s.advance(0x24);
        let chain = s.chain_at(0x24);
        assert_eq!(chain, vec![0x80], "the then path meets the base at 0x80");
        s.mask_off(&0x03);
        // The then path ends; the else path (0xf0) diverges again and its top reaches a
        // call at 0x50: the waiting threads come back above the join at 0x80.
        s.advance(0x80);
        s.advance(0x44);
        s.branch(0x30, 0x50, 0x60, 0x70);
        let top = s.entries().last().cloned();
        assert!(s.pend(&0x03, 0x24, &chain, EXIT));
        assert_eq!(s.entries().last().cloned(), top, "the top runs on first");
        assert_eq!(
            s.entries()[0].mask,
            0xff,
            "the join at 0x80 has every thread"
        );
        assert_eq!(
            s.entries()[1],
            Entry {
                rpc: 0x80,
                mask: 0x03,
                pc: 0x24
            }
        );
        // Every join passed: the path runs to the kernel's end above a new base.
        let mut b = DivergenceStack::<u64>::new(8, 8);
        b.init(0xff, 0x10);
        b.mask_off(&0x81);
        b.advance(0x30);
        assert!(b.pend(&0x81, 0x14, &[0x80], EXIT));
        let pcs: Vec<(u64, u64, u64)> = b.entries().iter().map(|e| (e.pc, e.rpc, e.mask)).collect();
        assert_eq!(
            pcs,
            vec![(EXIT, 0, 0xff), (0x14, EXIT, 0x81), (0x30, EXIT, 0x7e)]
        );
        b.advance(EXIT);
        assert_eq!((b.outputs().pc, b.outputs().mask), (0x14, 0x81));
        b.advance(EXIT);
        assert_eq!((b.outputs().pc, b.outputs().depth), (EXIT, 1));
        // No room: nothing changes but overflow.
        let mut full = DivergenceStack::<u64>::new(8, 1);
        full.init(0xff, 0x10);
        full.mask_off(&0x1);
        assert!(!full.pend(&0x1, 0x14, &[], EXIT));
        assert_eq!(full.outputs().mask, 0xfe);
        assert!(full.outputs().overflow);
    }

    /// The load is the last instruction of a path: the path pops when the threads that
    /// hit reach the join, and the top is then the other path, at another PC. Threads
    /// coming back after the load join the join entry (where the load's threads went),
    /// not the pending path (hotspot's `if (c > 0) w = in[i-1]` under diverge on miss).
    #[test]
    fn threads_coming_back_after_a_load_that_ended_a_path_join_the_join() {
        let mut s = DivergenceStack::<u64>::new(8, 8);
        s.init(0xff, 0x10);
        // Taken 0x0f to the load at 0x20 (its path joins at 0x24), else 0xf0 at 0x30.
        assert_eq!(
            s.branch(0x0f, 0x20, 0x30, 0x24),
            Some(BranchOutcome::Diverged)
        );
        s.advance(0x24); // the load at 0x20 done: the taken path pops
        s.mask_off(&0x03); // its threads 0x03 missed
        assert_eq!((s.outputs().pc, s.outputs().mask), (0x30, 0xf0));
        assert!(s.rejoin_at(&0x03, 0x24));
        assert_eq!(
            s.outputs().mask,
            0xf0,
            "the pending path keeps its own threads"
        );
        assert_eq!(s.entries()[0].mask, 0xff, "the join has every thread again");
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
