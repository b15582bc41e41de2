//! Divergence (reconvergence) stack of one warp or one large warp (SPEC §2.4;
//! `lwm-two-level-scheduling.txt` §2.3 and §3.1 "How a Large Warp Handles Divergence";
//! `capri-compaction-adequacy.txt` §2.1 WPDOM).
//!
//! Entries of (reconvergence PC `rpc`, active mask, execute PC `pc`). The top of stack
//! (TOS) *is* the warp: its `pc` and `mask` are the warp's current PC and active mask.
//!
//! ```text
//!   divergent branch at TOS (rpc R0, mask M, pc P), reconvergence PC R:
//!                               before      after (R0 != R or TOS is the base)
//!     1. TOS.pc := R (join)     [R0 M P]    [R0 M    R    ]   <- join
//!     2. push not-taken if nt_pc != R       [R  M&!T nt_pc]
//!     3. push taken     if t_pc  != R       [R  M&T  t_pc ]   <- TOS
//!                               before      after (R0 == R, TOS not the base)
//!     1. the TOS is replaced    [R  M P]    [R  M&!T nt_pc]   (if nt_pc != R)
//!        by the paths pushed                [R  M&T  t_pc ]   (if t_pc  != R) <- TOS
//!   pop: when a PC update puts the TOS (not the base) on its rpc, pop it.
//! ```
//!
//! The two refinements (GPGPU-Sim's `simt_stack::update`) bound the depth by the
//! kernel's nesting: a path already at `R` is not pushed (its threads wait in the entry
//! below), and a branch reconverging where the TOS does replaces it (the entry below
//! already waits at `R` with every thread). A loop whose threads leave at different
//! iterations therefore keeps one entry for the loop, not one per exit.
//!
//! Interface (all outputs registered: functions of the stack registers only):
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | clock, reset | in | 1 | reset empties the stack (`depth = 0`) and clears `overflow` |
//! | init | in | 1 | start a warp: the stack becomes one base entry (rpc 0, `init_mask`, `init_pc`) |
//! | init_mask | in | LANES | the warp's active mask, sampled with `init` |
//! | init_pc | in | PCW | the warp's first PC, sampled with `init` |
//! | branch | in | 1 | the warp (TOS) resolved a conditional branch this cycle |
//! | taken_mask | in | LANES | threads whose branch is taken; ANDed with the TOS mask |
//! | taken_pc | in | PCW | branch target |
//! | not_taken_pc | in | PCW | fall-through PC |
//! | reconv_pc | in | PCW | the branch's reconvergence PC (immediate post-dominator) |
//! | advance | in | 1 | the warp moves on to `next_pc` (any non-branch PC update) |
//! | next_pc | in | PCW | the warp's next PC, sampled with `advance` |
//! | pc | out | PCW | TOS execute PC: the warp's current PC (0 when `depth = 0`) |
//! | mask | out | LANES | TOS active mask: the warp's current mask (0 when `depth = 0`) |
//! | rpc | out | PCW | TOS reconvergence PC (0 at the base entry and when `depth = 0`) |
//! | depth | out | DW = clog2(DEPTH+1) | entries on the stack: 0 before `init`, then 1..=DEPTH |
//! | overflow | out | 1 | sticky: a divergent branch found too few free entries (below); cleared only by reset |
//!
//! One edge does one event, priority `reset` > `init` > `branch` > `advance`; `branch`
//! and `advance` are ignored while `depth = 0`. A branch is divergent when both
//! `mask & taken_mask` and `mask & !taken_mask` are non-empty; otherwise only the TOS
//! PC changes (to `taken_pc` when any active thread is taken, else `not_taken_pc`).
//!
//! Overflow rule: with `p` the paths pushed (those whose PC is not `reconv_pc`: 0, 1 or
//! 2) and `r` = 1 when the TOS is replaced (`depth > 1` and `rpc == reconv_pc`), a
//! divergent branch leaves `depth - r + p` entries; when that exceeds `DEPTH` it is an
//! overflow and *nothing* but the flag changes (the TOS PC is not rewritten either), so
//! the warp state stays consistent for whatever recovery the core chooses.
//!
//! Latency: the event of edge `t` is visible on the outputs in cycle `t+1`; one event
//! per cycle, no busy cycles.
//!
//! Storage: `DEPTH x (2*PCW + LANES)` + `DW` + 1 flip-flops (entry 0's `rpc` is
//! constant 0 and synthesis removes it). `DivergenceStack32` (32 lanes, depth 8, PC 32):
//! 8 x 96 + 4 + 1 = 773 bits before that trim.
//!
//! Choices where the papers are silent:
//! - `DEPTH` counts every entry, the base included, so the stack holds `DEPTH x
//!   (2*PCW+LANES)` bits; `k` nested divergent branches with distinct reconvergence
//!   PCs need at most `1 + 2k` entries.
//! - Every entry above the base has `pc != rpc` (pushed paths are not at their rpc; a
//!   join entry's rpc differs from its PC, else the TOS would have been replaced), so a
//!   PC update pops at most the TOS, on the same edge: one equality compare of the new
//!   PC with the TOS rpc, no `busy` handshake, and the warp never sits on a TOS with
//!   `pc == rpc`. The proofs carry this invariant.
//! - The base entry (index 0) is never popped nor replaced; its `rpc` is 0 and is not
//!   compared.
//! - Entries are not cleared on reset or pop: with `depth = 0` every output is 0, and
//!   entries above `depth` are never read.
use rust_hdl::prelude::*;

/// Divergence stack of `DEPTH` entries for `LANES` threads and `PCW`-bit PCs.
/// `DW = clog2(DEPTH+1)` is the width of the `depth` count.
#[derive(LogicBlock)]
pub struct DivergenceStack<
    const LANES: usize,
    const DEPTH: usize,
    const PCW: usize,
    const DW: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: empties the stack and clears `overflow`.
    pub reset: Signal<In, Bit>,
    // warp start
    /// Start a warp on this edge: the stack becomes the base entry (0, `init_mask`, `init_pc`).
    pub init: Signal<In, Bit>,
    /// The new warp's active mask (bit `c` = lane `c`); sampled with `init`.
    pub init_mask: Signal<In, Bits<LANES>>,
    /// The new warp's first PC; sampled with `init`.
    pub init_pc: Signal<In, Bits<PCW>>,
    // branch resolution
    /// The warp resolved a conditional branch; sampled when `depth != 0` and `init = 0`.
    pub branch: Signal<In, Bit>,
    /// Threads that take the branch; bits outside the TOS mask are ignored.
    pub taken_mask: Signal<In, Bits<LANES>>,
    /// PC of the taken path; sampled with `branch`.
    pub taken_pc: Signal<In, Bits<PCW>>,
    /// PC of the not-taken path; sampled with `branch`.
    pub not_taken_pc: Signal<In, Bits<PCW>>,
    /// Reconvergence PC of the branch; sampled with `branch`.
    pub reconv_pc: Signal<In, Bits<PCW>>,
    // non-branch PC update
    /// The warp moves to `next_pc`; sampled when `depth != 0`, `init = 0` and `branch = 0`.
    pub advance: Signal<In, Bit>,
    /// The warp's next PC; sampled with `advance`.
    pub next_pc: Signal<In, Bits<PCW>>,
    // warp state out (registered)
    /// TOS execute PC: the warp's current PC; 0 when the stack is empty.
    pub pc: Signal<Out, Bits<PCW>>,
    /// TOS active mask: the warp's current active mask; 0 when the stack is empty.
    pub mask: Signal<Out, Bits<LANES>>,
    /// TOS reconvergence PC; 0 at the base entry and when the stack is empty.
    pub rpc: Signal<Out, Bits<PCW>>,
    /// Number of entries on the stack (0 before `init`, else 1..=DEPTH).
    pub depth: Signal<Out, Bits<DW>>,
    /// Sticky: a divergent branch found no room for its two entries. Cleared by reset only.
    pub overflow: Signal<Out, Bit>,
    /// Execute PC of each entry.
    entry_pc: [DFF<Bits<PCW>>; DEPTH],
    /// Reconvergence PC of each entry.
    entry_rpc: [DFF<Bits<PCW>>; DEPTH],
    /// Active mask of each entry.
    entry_mask: [DFF<Bits<LANES>>; DEPTH],
    /// Entries on the stack; the TOS is entry `count - 1`.
    count: DFF<Bits<DW>>,
    /// The sticky overflow flag.
    overflowed: DFF<Bit>,
    /// TOS fields read through the `count` mux.
    top_pc: Signal<Local, Bits<PCW>>,
    top_rpc: Signal<Local, Bits<PCW>>,
    top_mask: Signal<Local, Bits<LANES>>,
    /// Active threads that take / do not take the branch.
    taken_now: Signal<Local, Bits<LANES>>,
    not_taken_now: Signal<Local, Bits<LANES>>,
    /// The TOS PC after a non-divergent branch.
    uniform_pc: Signal<Local, Bits<PCW>>,
    /// Qualified events (priority applied).
    do_branch: Signal<Local, Bit>,
    do_advance: Signal<Local, Bit>,
    /// The branch splits the warp (both paths have active threads).
    divergent: Signal<Local, Bit>,
    /// The divergent branch takes effect (its entries fit).
    do_push: Signal<Local, Bit>,
    /// A path is pushed when its PC is not the reconvergence PC.
    push_taken: Signal<Local, Bit>,
    push_not_taken: Signal<Local, Bit>,
    /// The divergent branch replaces the TOS (not the base; its rpc is `reconv_pc`).
    replace: Signal<Local, Bit>,
    /// Only the TOS PC changes (advance or uniform branch), to `moved_pc`.
    do_move: Signal<Local, Bit>,
    moved_pc: Signal<Local, Bits<PCW>>,
    /// Slot of the first path pushed (`count - replace`) and of the taken path (one
    /// above when the not-taken path was pushed).
    not_taken_slot: Signal<Local, Bits<DW>>,
    taken_slot: Signal<Local, Bits<DW>>,
    /// Entry count after this edge's event.
    grown: Signal<Local, Bits<DW>>,
    /// `count` value when entry `j` is the TOS (`j + 1`).
    top_at: [Constant<Bits<DW>>; DEPTH],
    /// Entry index `j` as a count; "`count` < DEPTH" is `count == at[j]` for some `j`.
    at: [Constant<Bits<DW>>; DEPTH],
    /// `j - 1` (0 for `j = 0`, a repeat): "`count` <= DEPTH - 2" is `count ==
    /// below[j]` for some `j` (with DEPTH = 1 it also admits `count = 0`, where branches
    /// are ignored).
    below: [Constant<Bits<DW>>; DEPTH],
    /// One / two entries free.
    room_one: Signal<Local, Bit>,
    room_two: Signal<Local, Bit>,
    /// The entries the divergent branch needs are free.
    fits: Signal<Local, Bit>,
    count_one: Constant<Bits<DW>>,
    count_zero: Constant<Bits<DW>>,
    pc_zero: Constant<Bits<PCW>>,
    mask_zero: Constant<Bits<LANES>>,
}

impl<const LANES: usize, const DEPTH: usize, const PCW: usize, const DW: usize> Default
    for DivergenceStack<LANES, DEPTH, PCW, DW>
{
    fn default() -> Self {
        assert!(LANES >= 1, "a warp has at least one lane");
        assert!(DEPTH >= 1, "the stack holds at least the base entry");
        assert!(PCW >= 1, "PCs need at least one bit");
        assert_eq!(DW, clog2(DEPTH + 1), "DW must be clog2(DEPTH+1)");
        let count = |v: usize| Constant::new(Bits::<DW>::from(v as u64));
        Self {
            clock: Default::default(),
            reset: Default::default(),
            init: Default::default(),
            init_mask: Default::default(),
            init_pc: Default::default(),
            branch: Default::default(),
            taken_mask: Default::default(),
            taken_pc: Default::default(),
            not_taken_pc: Default::default(),
            reconv_pc: Default::default(),
            advance: Default::default(),
            next_pc: Default::default(),
            pc: Default::default(),
            mask: Default::default(),
            rpc: Default::default(),
            depth: Default::default(),
            overflow: Default::default(),
            entry_pc: array_init::array_init(|_| Default::default()),
            entry_rpc: array_init::array_init(|_| Default::default()),
            entry_mask: array_init::array_init(|_| Default::default()),
            count: Default::default(),
            overflowed: Default::default(),
            top_pc: Default::default(),
            top_rpc: Default::default(),
            top_mask: Default::default(),
            taken_now: Default::default(),
            not_taken_now: Default::default(),
            uniform_pc: Default::default(),
            do_branch: Default::default(),
            do_advance: Default::default(),
            divergent: Default::default(),
            do_push: Default::default(),
            push_taken: Default::default(),
            push_not_taken: Default::default(),
            replace: Default::default(),
            do_move: Default::default(),
            moved_pc: Default::default(),
            not_taken_slot: Default::default(),
            taken_slot: Default::default(),
            grown: Default::default(),
            top_at: array_init::array_init(|j| count(j + 1)),
            at: array_init::array_init(count),
            below: array_init::array_init(|j| count(j.saturating_sub(1))),
            room_one: Default::default(),
            room_two: Default::default(),
            fits: Default::default(),
            count_one: count(1),
            count_zero: count(0),
            pc_zero: Constant::new(Bits::default()),
            mask_zero: Constant::new(Bits::default()),
        }
    }
}

impl<const LANES: usize, const DEPTH: usize, const PCW: usize, const DW: usize> Logic
    for DivergenceStack<LANES, DEPTH, PCW, DW>
{
    #[hdl_gen]
    fn update(&mut self) {
        for j in 0..DEPTH {
            self.entry_pc[j].clock.next = self.clock.val();
            self.entry_rpc[j].clock.next = self.clock.val();
            self.entry_mask[j].clock.next = self.clock.val();
        }
        dff_setup!(self, clock, count, overflowed);
        // Read the TOS.
        self.top_pc.next = self.pc_zero.val();
        self.top_rpc.next = self.pc_zero.val();
        self.top_mask.next = self.mask_zero.val();
        for j in 0..DEPTH {
            if self.count.q.val() == self.top_at[j].val() {
                self.top_pc.next = self.entry_pc[j].q.val();
                self.top_rpc.next = self.entry_rpc[j].q.val();
                self.top_mask.next = self.entry_mask[j].q.val();
            }
        }
        self.pc.next = self.top_pc.val();
        self.rpc.next = self.top_rpc.val();
        self.mask.next = self.top_mask.val();
        self.depth.next = self.count.q.val();
        self.overflow.next = self.overflowed.q.val();
        // Decode this cycle's event.
        self.taken_now.next = self.taken_mask.val() & self.top_mask.val();
        self.not_taken_now.next = self.top_mask.val() & !self.taken_mask.val();
        self.uniform_pc.next = self.not_taken_pc.val();
        if self.taken_now.val().any() {
            self.uniform_pc.next = self.taken_pc.val();
        }
        self.do_branch.next = self.branch.val() & !self.init.val() & self.count.q.val().any();
        self.do_advance.next =
            self.advance.val() & !self.branch.val() & !self.init.val() & self.count.q.val().any();
        self.divergent.next =
            self.do_branch.val() & self.taken_now.val().any() & self.not_taken_now.val().any();
        self.push_taken.next = self.taken_pc.val() != self.reconv_pc.val();
        self.push_not_taken.next = self.not_taken_pc.val() != self.reconv_pc.val();
        self.replace.next = (self.count.q.val() != self.count_one.val())
            & (self.top_rpc.val() == self.reconv_pc.val());
        // Free entries, from `count` alone (no sum that could wrap).
        self.room_one.next = false;
        for j in 0..DEPTH {
            if self.count.q.val() == self.at[j].val() {
                self.room_one.next = true;
            }
        }
        self.room_two.next = false;
        for j in 0..DEPTH {
            if self.count.q.val() == self.below[j].val() {
                self.room_two.next = true;
            }
        }
        // depth - replace + pushes <= DEPTH.
        self.fits.next = true;
        if (self.push_taken.val() | self.push_not_taken.val()) & !self.replace.val() {
            self.fits.next = self.room_one.val();
        }
        if self.push_taken.val() & self.push_not_taken.val() {
            self.fits.next = self.room_one.val();
            if !self.replace.val() {
                self.fits.next = self.room_two.val();
            }
        }
        self.do_push.next = self.divergent.val() & self.fits.val();
        if self.divergent.val() & !self.fits.val() {
            // Overflow: the entries needed are not free; nothing but the flag changes
            // (no push, and a divergent branch never moves the TOS PC alone).
            self.overflowed.d.next = true;
        }
        self.do_move.next = self.do_advance.val() | (self.do_branch.val() & !self.divergent.val());
        self.moved_pc.next = self.next_pc.val();
        if self.do_branch.val() {
            self.moved_pc.next = self.uniform_pc.val();
        }
        // Where the paths go. Only used when they fit, so the sums do not wrap.
        self.not_taken_slot.next = self.count.q.val();
        if self.replace.val() {
            self.not_taken_slot.next = self.count.q.val() - self.count_one.val();
        }
        self.taken_slot.next = self.not_taken_slot.val();
        if self.push_not_taken.val() {
            self.taken_slot.next = self.not_taken_slot.val() + self.count_one.val();
        }
        // The count after the event: pushes, or one pop when the TOS (not the base)
        // moved onto its reconvergence PC (entries above the base never sit there).
        self.grown.next = self.count.q.val();
        if self.do_push.val() {
            self.grown.next = self.taken_slot.val();
            if self.push_taken.val() {
                self.grown.next = self.taken_slot.val() + self.count_one.val();
            }
        }
        if self.do_move.val()
            & (self.moved_pc.val() == self.top_rpc.val())
            & (self.count.q.val() != self.count_one.val())
        {
            self.grown.next = self.count.q.val() - self.count_one.val();
        }
        for j in 0..DEPTH {
            self.entry_pc[j].d.next = self.entry_pc[j].q.val();
            self.entry_rpc[j].d.next = self.entry_rpc[j].q.val();
            self.entry_mask[j].d.next = self.entry_mask[j].q.val();
            if self.count.q.val() == self.top_at[j].val() {
                if self.do_move.val() {
                    self.entry_pc[j].d.next = self.moved_pc.val();
                }
                if self.do_push.val() & !self.replace.val() {
                    self.entry_pc[j].d.next = self.reconv_pc.val();
                }
            }
            if self.do_push.val()
                & self.push_not_taken.val()
                & (self.not_taken_slot.val() == self.at[j].val())
            {
                self.entry_pc[j].d.next = self.not_taken_pc.val();
                self.entry_rpc[j].d.next = self.reconv_pc.val();
                self.entry_mask[j].d.next = self.not_taken_now.val();
            }
            if self.do_push.val()
                & self.push_taken.val()
                & (self.taken_slot.val() == self.at[j].val())
            {
                self.entry_pc[j].d.next = self.taken_pc.val();
                self.entry_rpc[j].d.next = self.reconv_pc.val();
                self.entry_mask[j].d.next = self.taken_now.val();
            }
        }
        self.count.d.next = self.grown.val();
        if self.init.val() {
            self.count.d.next = self.count_one.val();
            self.entry_pc[0].d.next = self.init_pc.val();
            self.entry_rpc[0].d.next = self.pc_zero.val();
            self.entry_mask[0].d.next = self.init_mask.val();
        }
        if self.reset.val() {
            self.count.d.next = self.count_zero.val();
            self.overflowed.d.next = false;
        }
    }
}

/// 4 lanes, 8 entries, 32-bit PCs: the papers' 4-thread example warps.
pub type DivergenceStack4 = DivergenceStack<4, 8, 32, 4>;
/// 4 lanes, 3 entries (one nested level), 8-bit PCs: the overflow tests.
pub type DivergenceStack4x3 = DivergenceStack<4, 3, 8, 2>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::DivergenceStack32;

    /// One cycle: inputs set with the clock low, then a rising edge.
    fn edge(uut: &mut DivergenceStack4x3) {
        uut.clock.next = Clock::from(false);
        assert!(simulate(uut, 100), "no fixed point");
        uut.clock.next = Clock::from(true);
        assert!(simulate(uut, 100), "no fixed point");
        uut.reset.next = false;
        uut.init.next = false;
        uut.branch.next = false;
        uut.advance.next = false;
        uut.clock.next = Clock::from(false);
        assert!(simulate(uut, 100), "no fixed point");
    }

    #[test]
    fn synthesizes() {
        let mut uut = DivergenceStack4x3::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("divergence_stack_4x3", &vlog).unwrap();
        let mut uut = DivergenceStack32::default();
        uut.connect_all();
        yosys_validate("divergence_stack", &generate_verilog(&uut)).unwrap();
    }

    #[test]
    fn if_else_reconverges() {
        let mut uut = DivergenceStack4x3::default();
        uut.connect_all();
        uut.reset.next = true;
        edge(&mut uut);
        assert_eq!(uut.depth.val(), Bits::<2>::from(0));
        // A: all four threads at 0x10.
        uut.init.next = true;
        uut.init_mask.next = 0b1111.into();
        uut.init_pc.next = 0x10.into();
        edge(&mut uut);
        // Threads 0,1 take the branch to B (0x20), 2,3 fall through to C (0x30); D = 0x40.
        uut.branch.next = true;
        uut.taken_mask.next = 0b0011.into();
        uut.taken_pc.next = 0x20.into();
        uut.not_taken_pc.next = 0x30.into();
        uut.reconv_pc.next = 0x40.into();
        edge(&mut uut);
        assert_eq!(uut.pc.val(), Bits::<8>::from(0x20));
        assert_eq!(uut.mask.val(), Bits::<4>::from(0b0011));
        assert_eq!(uut.depth.val(), Bits::<2>::from(3));
        // B ends: next PC is D, the TOS pops to C.
        uut.advance.next = true;
        uut.next_pc.next = 0x40.into();
        edge(&mut uut);
        assert_eq!(uut.pc.val(), Bits::<8>::from(0x30));
        assert_eq!(uut.mask.val(), Bits::<4>::from(0b1100));
        // C ends: pops to the join entry, full mask at D.
        uut.advance.next = true;
        uut.next_pc.next = 0x40.into();
        edge(&mut uut);
        assert_eq!(uut.pc.val(), Bits::<8>::from(0x40));
        assert_eq!(uut.mask.val(), Bits::<4>::from(0b1111));
        assert_eq!(uut.depth.val(), Bits::<2>::from(1));
        assert!(!uut.overflow.val());
    }
}
