//! CTA-wide reconvergence stack of thread block compaction with the warp counter
//! `WCnt`, serving TBC, TBC+ and CAPRI (`capri-compaction-adequacy.txt` §2.2 Figure 2,
//! §3.2–3.3 Figure 7; SPEC §3.5).
//!
//! One stack per CTA; an entry is (reconvergence PC, CTA-wide active mask, next PC,
//! `WCnt`, update mask). The update mask has one bit per thread (row = warp, as the
//! active mask), not the paper's one bit per warp: compacted warps mix threads of
//! several home warps, so a bypassing warp is any set of threads, and clearing whole
//! home rows would drop the waiting threads that share a row with it from the
//! compaction. Events arrive one per cycle on `op`:
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | clock, reset | in | 1 | reset empties the stack and clears `overflow`, `error` |
//! | op | in | 2 | 0 none; 1 launch; 2 branch (one warp executed the TOS branch); 3 reconverge (one warp reached the TOS RPC) |
//! | stall | in | 1 | branch: the warp waits for compaction (1) or bypasses (0), from `capri_decision` |
//! | taken | in | WARPS*LANES | branch: the warp's taken threads at their home positions (row = source warp); launch: the CTA's mask |
//! | not_taken | in | WARPS*LANES | branch: the warp's not-taken threads at their home positions |
//! | taken_pc | in | 32 | branch: taken target; launch: the CTA's first PC |
//! | not_taken_pc | in | 32 | branch: fall-through PC |
//! | rpc | in | 32 | branch: reconvergence PC (immediate post-dominator); launch: the CTA's exit PC |
//! | valid | out | 1 | the stack holds the CTA (depth > 0) |
//! | depth | out | clog2(DEPTH+1) | entries in use, TOS = depth-1 (pending branch entries not counted) |
//! | tos_pc, tos_rpc | out | 32 | the TOS's next PC and reconvergence PC |
//! | tos_mask | out | WARPS*LANES | the TOS's CTA-wide active mask |
//! | tos_umask | out | WARPS*LANES | threads that waited for the TOS path, row = warp (the WCU's `umask`) |
//! | tos_wcnt | out | clog2(WARPS+1) | warps still to arrive at the TOS's branch or RPC |
//! | pending | out | 1 | a branch's taken / not-taken entries are being filled |
//! | changed | out | 1 | the TOS moved or re-formed on the last edge: the WCU loads `tos_mask`, `tos_umask` |
//! | wcu_useful | out | 1 | with `changed`: compacting the new TOS's waiting warps removes a warp (else the WCU may stay idle) |
//! | overflow | out | 1 | sticky: a branch found no room for its two entries (event dropped) |
//! | error | out | 1 | sticky: an event the stack cannot take (dropped): branch or reconverge with `WCnt = 0` or an empty stack, reconverge while a branch is pending |
//!
//! Operation (all outputs registered):
//! ```text
//!  launch      depth=1; TOS = (rpc, taken, taken_pc, WCnt = active warps, umask = all)
//!  branch      first warp: create NT entry at depth, T entry at depth+1 (TOS unchanged)
//!              every warp: OR its masks in; bypass (stall=0) clears its threads'
//!              umask bits (taken | not_taken) and adds 1 to WCnt of each path it
//!              has threads on; TOS WCnt -= 1
//!  WCnt -> 0   both paths live (Figure 2(c), 7(d), with the two refinements below):
//!                replace = depth > 1 and TOS.rpc == rpc: the TOS is popped;
//!                else TOS.pc = rpc, TOS.umask = all, TOS.WCnt = 0;
//!                the paths whose PC is not rpc are pushed (NT below T) with their
//!                masks, umask and bypass WCnt; a path at rpc is not pushed (its
//!                bypass count is dropped); depth = depth - replace + pushed;
//!                the new TOS: the top pushed path, WCnt += compacted(mask & umask);
//!                none pushed: the entry at rpc (the rewritten TOS, or the one below
//!                on replace), WCnt += compacted(mask & umask) as after a pop
//!              one path live: the TOS takes that path's PC, umask and WCnt + compacted
//!              (no push: a non-divergent CTA-wide branch only changes the PC)
//!  reconverge  TOS WCnt -= 1; at 0 pop: depth -= 1 and the new TOS's
//!              WCnt += compacted(mask & umask); popping the last entry ends the CTA
//! ```
//! The two refinements keep the depth bounded by the kernel's nesting, not by how
//! many iterations threads leave a loop at (as GPGPU-Sim's `simt_stack::update` and
//! the per-warp `divergence_stack`): a loop's back edge (fall-through = rpc) replaces
//! its entry each iteration instead of pushing two. The room check is made at the
//! branch's first warp, for the two pending entries filled above the TOS
//! (`depth + 2 <= DEPTH`); the resolved stack (`depth - replace + pushed`) then fits.
//!
//! `compacted(m)` is the adequacy evaluator's `min_warps` (= the WCU's `warps_needed`
//! for the same mask and umask), computed in the same cycle.
//!
//! Latency: one cycle per event; the count of the new TOS is ready with it.
//! Storage: `DEPTH x (32 + 32 + 2*WARPS*LANES + clog2(WARPS+1))` + depth,
//! pending, changed, overflow, error.
//!
//! Choices where the paper is silent:
//! - A branch event carries the whole (possibly compacted) warp's threads at their
//!   home positions (the WCU's `warp_src` scatters them back), so no warp id is
//!   needed; a bypass clears exactly the `umask` bits of those threads. Any warp may
//!   bypass, a compacted one too, whatever home rows it shares with warps that stall.
//! - Bypassed warps are counted in the `WCnt` of the paths they run (Figure 7(a)) and
//!   excluded from the compaction; compacted warps are added when the path becomes the
//!   TOS. A reconverged entry re-forms with every thread waiting (umask all ones;
//!   at launch too, inactive threads included: only `mask & umask` is compacted).
//! - Bypassed warps may run one basic block ahead (§3.2), but their events at that
//!   block's end must wait until the TOS reaches it (`error` otherwise): the scheduler
//!   holds them, which is what limits them to one block.
//! - At launch `WCnt` is the number of non-empty warps (static warps, no compaction).
//! - The CAPT update is not made here: the user evaluates `tos_mask` (all warps) with
//!   the adequacy evaluator when `changed` follows a branch, with the branch's PC.
use crate::capri::adequacy_evaluator::AdequacyEvaluator;
use rust_hdl::prelude::*;

/// `op` values.
pub const OP_NONE: u64 = 0;
pub const OP_LAUNCH: u64 = 1;
pub const OP_BRANCH: u64 = 2;
pub const OP_RECONVERGE: u64 = 3;

/// TBC CTA-wide stack for `WARPS` warps of `LANES` lanes, `DEPTH` entries.
/// `N = WARPS*LANES`, `DW = clog2(DEPTH+1)`, `CW = clog2(WARPS+1)`.
#[derive(LogicBlock)]
pub struct TbcStack<
    const WARPS: usize,
    const LANES: usize,
    const N: usize,
    const DEPTH: usize,
    const DW: usize,
    const CW: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: empties the stack, clears the sticky flags.
    pub reset: Signal<In, Bit>,
    // event in
    /// 0 none, 1 launch, 2 branch, 3 reconverge.
    pub op: Signal<In, Bits<2>>,
    /// Branch: 1 = the warp waits for compaction, 0 = it bypasses.
    pub stall: Signal<In, Bit>,
    /// Branch: the warp's taken threads at their home positions. Launch: the CTA's mask.
    pub taken: Signal<In, Bits<N>>,
    /// Branch: the warp's not-taken threads at their home positions.
    pub not_taken: Signal<In, Bits<N>>,
    /// Branch: taken target. Launch: the CTA's first PC.
    pub taken_pc: Signal<In, Bits<32>>,
    /// Branch: fall-through PC.
    pub not_taken_pc: Signal<In, Bits<32>>,
    /// Branch: reconvergence PC. Launch: the CTA's exit PC.
    pub rpc: Signal<In, Bits<32>>,
    // TOS out (registered)
    /// The stack holds the CTA.
    pub valid: Signal<Out, Bit>,
    /// Entries in use; the TOS is entry `depth-1`.
    pub depth: Signal<Out, Bits<DW>>,
    /// Next PC of the TOS.
    pub tos_pc: Signal<Out, Bits<32>>,
    /// Reconvergence PC of the TOS.
    pub tos_rpc: Signal<Out, Bits<32>>,
    /// CTA-wide active mask of the TOS.
    pub tos_mask: Signal<Out, Bits<N>>,
    /// Threads that waited for the TOS path, row-major like `tos_mask`.
    pub tos_umask: Signal<Out, Bits<N>>,
    /// Warps still to arrive at the TOS's branch or RPC.
    pub tos_wcnt: Signal<Out, Bits<CW>>,
    /// A branch's entries are being filled.
    pub pending: Signal<Out, Bit>,
    /// The TOS moved or re-formed on the last edge (the WCU loads it).
    pub changed: Signal<Out, Bit>,
    /// With `changed`: compacting the new TOS's waiting warps removes a warp (when 0
    /// the WCU may stay idle and the warps keep their form).
    pub wcu_useful: Signal<Out, Bit>,
    /// Sticky: a branch found no room for its entries.
    pub overflow: Signal<Out, Bit>,
    /// Sticky: an event was dropped (WCnt would underflow or no branch to reconverge).
    pub error: Signal<Out, Bit>,
    // state
    e_pc: [DFF<Bits<32>>; DEPTH],
    e_rpc: [DFF<Bits<32>>; DEPTH],
    e_mask: [DFF<Bits<N>>; DEPTH],
    e_umask: [DFF<Bits<N>>; DEPTH],
    e_wcnt: [DFF<Bits<CW>>; DEPTH],
    used: DFF<Bits<DW>>,
    filling: DFF<Bit>,
    moved: DFF<Bit>,
    useful: DFF<Bit>,
    over: DFF<Bit>,
    err: DFF<Bit>,
    /// Counts compacted warps of the new TOS.
    evaluator: AdequacyEvaluator<WARPS, LANES, N, CW>,
    // locals: indices
    tos_idx: Signal<Local, Bits<DW>>,
    nt_idx: Signal<Local, Bits<DW>>,
    tk_idx: Signal<Local, Bits<DW>>,
    below_idx: Signal<Local, Bits<DW>>,
    // locals: entry reads
    t_pc: Signal<Local, Bits<32>>,
    t_rpc: Signal<Local, Bits<32>>,
    t_mask: Signal<Local, Bits<N>>,
    t_umask: Signal<Local, Bits<N>>,
    t_wcnt: Signal<Local, Bits<CW>>,
    nt_mask: Signal<Local, Bits<N>>,
    nt_wcnt: Signal<Local, Bits<CW>>,
    nt_pc: Signal<Local, Bits<32>>,
    tk_mask: Signal<Local, Bits<N>>,
    tk_umask: Signal<Local, Bits<N>>,
    tk_wcnt: Signal<Local, Bits<CW>>,
    tk_pc: Signal<Local, Bits<32>>,
    tk_rpc: Signal<Local, Bits<32>>,
    b_mask: Signal<Local, Bits<N>>,
    b_umask: Signal<Local, Bits<N>>,
    b_wcnt: Signal<Local, Bits<CW>>,
    // locals: the event
    is_launch: Signal<Local, Bit>,
    is_branch: Signal<Local, Bit>,
    is_reconv: Signal<Local, Bit>,
    legal: Signal<Local, Bit>,
    room: Signal<Local, Bit>,
    do_branch: Signal<Local, Bit>,
    do_reconv: Signal<Local, Bit>,
    new_tk_mask: Signal<Local, Bits<N>>,
    new_nt_mask: Signal<Local, Bits<N>>,
    new_umask: Signal<Local, Bits<N>>,
    new_tk_wcnt: Signal<Local, Bits<CW>>,
    new_nt_wcnt: Signal<Local, Bits<CW>>,
    br_tk_pc: Signal<Local, Bits<32>>,
    br_nt_pc: Signal<Local, Bits<32>>,
    br_rpc: Signal<Local, Bits<32>>,
    dec_wcnt: Signal<Local, Bits<CW>>,
    zero_left: Signal<Local, Bit>,
    tk_live: Signal<Local, Bit>,
    nt_live: Signal<Local, Bit>,
    /// Both paths live: the TOS (not the base) already reconverges at the branch's rpc.
    replace: Signal<Local, Bit>,
    /// Both paths live: the path's PC is not the rpc, so it is pushed.
    tk_push: Signal<Local, Bit>,
    nt_push: Signal<Local, Bit>,
    /// Where the first pushed path goes, where NT and T are written, the new depth.
    p0_idx: Signal<Local, Bits<DW>>,
    nt_w_idx: Signal<Local, Bits<DW>>,
    tk_w_idx: Signal<Local, Bits<DW>>,
    new_used: Signal<Local, Bits<DW>>,
    // locals: writes
    we_tos: Signal<Local, Bit>,
    we_nt: Signal<Local, Bit>,
    we_tk: Signal<Local, Bit>,
    we_below: Signal<Local, Bit>,
    tos_pc_val: Signal<Local, Bits<32>>,
    tos_umask_val: Signal<Local, Bits<N>>,
    tos_wcnt_val: Signal<Local, Bits<CW>>,
    tk_wcnt_val: Signal<Local, Bits<CW>>,
    nt_wcnt_val: Signal<Local, Bits<CW>>,
    below_wcnt_val: Signal<Local, Bits<CW>>,
    // constants
    idx: [Constant<Bits<DW>>; DEPTH],
    d_zero: Constant<Bits<DW>>,
    d_one: Constant<Bits<DW>>,
    d_two: Constant<Bits<DW>>,
    push_limit: Constant<Bits<DW>>,
    c_zero: Constant<Bits<CW>>,
    c_one: Constant<Bits<CW>>,
    all_threads: Constant<Bits<N>>,
    zero_mask: Constant<Bits<N>>,
    zero_pc: Constant<Bits<32>>,
    op_launch: Constant<Bits<2>>,
    op_branch: Constant<Bits<2>>,
    op_reconv: Constant<Bits<2>>,
}

impl<
        const WARPS: usize,
        const LANES: usize,
        const N: usize,
        const DEPTH: usize,
        const DW: usize,
        const CW: usize,
    > Default for TbcStack<WARPS, LANES, N, DEPTH, DW, CW>
{
    fn default() -> Self {
        assert!(WARPS >= 1 && LANES >= 1, "at least one warp and one lane");
        assert!(DEPTH >= 3, "a launch entry and one branch's two entries");
        assert_eq!(N, WARPS * LANES, "N must be WARPS*LANES");
        assert_eq!(DW, clog2(DEPTH + 1), "DW must be clog2(DEPTH+1)");
        assert_eq!(CW, clog2(WARPS + 1), "CW must be clog2(WARPS+1)");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            op: Default::default(),
            stall: Default::default(),
            taken: Default::default(),
            not_taken: Default::default(),
            taken_pc: Default::default(),
            not_taken_pc: Default::default(),
            rpc: Default::default(),
            valid: Default::default(),
            depth: Default::default(),
            tos_pc: Default::default(),
            tos_rpc: Default::default(),
            tos_mask: Default::default(),
            tos_umask: Default::default(),
            tos_wcnt: Default::default(),
            pending: Default::default(),
            changed: Default::default(),
            wcu_useful: Default::default(),
            overflow: Default::default(),
            error: Default::default(),
            e_pc: array_init::array_init(|_| Default::default()),
            e_rpc: array_init::array_init(|_| Default::default()),
            e_mask: array_init::array_init(|_| Default::default()),
            e_umask: array_init::array_init(|_| Default::default()),
            e_wcnt: array_init::array_init(|_| Default::default()),
            used: Default::default(),
            filling: Default::default(),
            moved: Default::default(),
            useful: Default::default(),
            over: Default::default(),
            err: Default::default(),
            evaluator: Default::default(),
            tos_idx: Default::default(),
            nt_idx: Default::default(),
            tk_idx: Default::default(),
            below_idx: Default::default(),
            t_pc: Default::default(),
            t_rpc: Default::default(),
            t_mask: Default::default(),
            t_umask: Default::default(),
            t_wcnt: Default::default(),
            nt_mask: Default::default(),
            nt_wcnt: Default::default(),
            nt_pc: Default::default(),
            tk_mask: Default::default(),
            tk_umask: Default::default(),
            tk_wcnt: Default::default(),
            tk_pc: Default::default(),
            tk_rpc: Default::default(),
            b_mask: Default::default(),
            b_umask: Default::default(),
            b_wcnt: Default::default(),
            is_launch: Default::default(),
            is_branch: Default::default(),
            is_reconv: Default::default(),
            legal: Default::default(),
            room: Default::default(),
            do_branch: Default::default(),
            do_reconv: Default::default(),
            new_tk_mask: Default::default(),
            new_nt_mask: Default::default(),
            new_umask: Default::default(),
            new_tk_wcnt: Default::default(),
            new_nt_wcnt: Default::default(),
            br_tk_pc: Default::default(),
            br_nt_pc: Default::default(),
            br_rpc: Default::default(),
            dec_wcnt: Default::default(),
            zero_left: Default::default(),
            tk_live: Default::default(),
            nt_live: Default::default(),
            replace: Default::default(),
            tk_push: Default::default(),
            nt_push: Default::default(),
            p0_idx: Default::default(),
            nt_w_idx: Default::default(),
            tk_w_idx: Default::default(),
            new_used: Default::default(),
            we_tos: Default::default(),
            we_nt: Default::default(),
            we_tk: Default::default(),
            we_below: Default::default(),
            tos_pc_val: Default::default(),
            tos_umask_val: Default::default(),
            tos_wcnt_val: Default::default(),
            tk_wcnt_val: Default::default(),
            nt_wcnt_val: Default::default(),
            below_wcnt_val: Default::default(),
            idx: array_init::array_init(|e| Constant::new((e as u64).into())),
            d_zero: Constant::new(Bits::default()),
            d_one: Constant::new(1u64.into()),
            d_two: Constant::new(2u64.into()),
            push_limit: Constant::new(((DEPTH - 2) as u64).into()),
            c_zero: Constant::new(Bits::default()),
            c_one: Constant::new(1u64.into()),
            all_threads: Constant::new(Bits::<N>::mask()),
            zero_mask: Constant::new(Bits::default()),
            zero_pc: Constant::new(Bits::default()),
            op_launch: Constant::new(OP_LAUNCH.into()),
            op_branch: Constant::new(OP_BRANCH.into()),
            op_reconv: Constant::new(OP_RECONVERGE.into()),
        }
    }
}

impl<
        const WARPS: usize,
        const LANES: usize,
        const N: usize,
        const DEPTH: usize,
        const DW: usize,
        const CW: usize,
    > Logic for TbcStack<WARPS, LANES, N, DEPTH, DW, CW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, used, filling, moved, useful, over, err);
        for e in 0..DEPTH {
            self.e_pc[e].clock.next = self.clock.val();
            self.e_rpc[e].clock.next = self.clock.val();
            self.e_mask[e].clock.next = self.clock.val();
            self.e_umask[e].clock.next = self.clock.val();
            self.e_wcnt[e].clock.next = self.clock.val();
            self.e_pc[e].d.next = self.e_pc[e].q.val();
            self.e_rpc[e].d.next = self.e_rpc[e].q.val();
            self.e_mask[e].d.next = self.e_mask[e].q.val();
            self.e_umask[e].d.next = self.e_umask[e].q.val();
            self.e_wcnt[e].d.next = self.e_wcnt[e].q.val();
        }
        // Read the TOS, the pending entries and the entry below the TOS.
        self.tos_idx.next = self.used.q.val() - self.d_one.val();
        self.nt_idx.next = self.used.q.val();
        self.tk_idx.next = self.used.q.val() + self.d_one.val();
        self.below_idx.next = self.used.q.val() - self.d_two.val();
        self.t_pc.next = self.zero_pc.val();
        self.t_umask.next = self.zero_mask.val();
        self.t_wcnt.next = self.c_zero.val();
        self.t_rpc.next = self.zero_pc.val();
        self.t_mask.next = self.zero_mask.val();
        self.nt_mask.next = self.zero_mask.val();
        self.nt_wcnt.next = self.c_zero.val();
        self.nt_pc.next = self.zero_pc.val();
        self.tk_mask.next = self.zero_mask.val();
        self.tk_umask.next = self.zero_mask.val();
        self.tk_wcnt.next = self.c_zero.val();
        self.tk_pc.next = self.zero_pc.val();
        self.tk_rpc.next = self.zero_pc.val();
        self.b_mask.next = self.zero_mask.val();
        self.b_umask.next = self.zero_mask.val();
        self.b_wcnt.next = self.c_zero.val();
        for e in 0..DEPTH {
            if self.idx[e].val() == self.tos_idx.val() {
                self.t_pc.next = self.e_pc[e].q.val();
                self.t_umask.next = self.e_umask[e].q.val();
                self.t_wcnt.next = self.e_wcnt[e].q.val();
                self.t_rpc.next = self.e_rpc[e].q.val();
                self.t_mask.next = self.e_mask[e].q.val();
            }
            if self.idx[e].val() == self.nt_idx.val() {
                self.nt_mask.next = self.e_mask[e].q.val();
                self.nt_wcnt.next = self.e_wcnt[e].q.val();
                self.nt_pc.next = self.e_pc[e].q.val();
            }
            if self.idx[e].val() == self.tk_idx.val() {
                self.tk_mask.next = self.e_mask[e].q.val();
                self.tk_umask.next = self.e_umask[e].q.val();
                self.tk_wcnt.next = self.e_wcnt[e].q.val();
                self.tk_pc.next = self.e_pc[e].q.val();
                self.tk_rpc.next = self.e_rpc[e].q.val();
            }
            if self.idx[e].val() == self.below_idx.val() {
                self.b_mask.next = self.e_mask[e].q.val();
                self.b_umask.next = self.e_umask[e].q.val();
                self.b_wcnt.next = self.e_wcnt[e].q.val();
            }
        }
        self.valid.next = self.used.q.val() != self.d_zero.val();
        self.depth.next = self.used.q.val();
        self.tos_pc.next = self.t_pc.val();
        self.tos_rpc.next = self.t_rpc.val();
        self.tos_mask.next = self.t_mask.val();
        self.tos_umask.next = self.t_umask.val();
        self.tos_wcnt.next = self.t_wcnt.val();
        self.pending.next = self.filling.q.val();
        self.changed.next = self.moved.q.val();
        self.wcu_useful.next = self.useful.q.val();
        self.overflow.next = self.over.q.val();
        self.error.next = self.err.q.val();
        // The event.
        self.is_launch.next = self.op.val() == self.op_launch.val();
        self.is_branch.next = self.op.val() == self.op_branch.val();
        self.is_reconv.next = self.op.val() == self.op_reconv.val();
        self.legal.next =
            (self.used.q.val() != self.d_zero.val()) & (self.t_wcnt.val() != self.c_zero.val());
        self.room.next = self.filling.q.val() | (self.used.q.val() <= self.push_limit.val());
        self.do_branch.next = self.is_branch.val() & self.legal.val() & self.room.val();
        self.do_reconv.next = self.is_reconv.val() & self.legal.val() & !self.filling.q.val();
        // The pending entries after this warp's branch.
        self.new_tk_mask.next = self.taken.val();
        self.new_nt_mask.next = self.not_taken.val();
        self.new_umask.next = self.all_threads.val();
        self.new_tk_wcnt.next = self.c_zero.val();
        self.new_nt_wcnt.next = self.c_zero.val();
        self.br_tk_pc.next = self.taken_pc.val();
        self.br_nt_pc.next = self.not_taken_pc.val();
        self.br_rpc.next = self.rpc.val();
        if self.filling.q.val() {
            self.new_tk_mask.next = self.new_tk_mask.val() | self.tk_mask.val();
            self.new_nt_mask.next = self.new_nt_mask.val() | self.nt_mask.val();
            self.new_umask.next = self.tk_umask.val();
            self.new_tk_wcnt.next = self.tk_wcnt.val();
            self.new_nt_wcnt.next = self.nt_wcnt.val();
            self.br_tk_pc.next = self.tk_pc.val();
            self.br_nt_pc.next = self.nt_pc.val();
            self.br_rpc.next = self.tk_rpc.val();
        }
        if !self.stall.val() {
            // A bypass clears exactly its own threads.
            self.new_umask.next = self.new_umask.val() & !(self.taken.val() | self.not_taken.val());
            if self.taken.val().any() {
                self.new_tk_wcnt.next = self.new_tk_wcnt.val() + self.c_one.val();
            }
            if self.not_taken.val().any() {
                self.new_nt_wcnt.next = self.new_nt_wcnt.val() + self.c_one.val();
            }
        }
        self.tk_live.next = self.new_tk_mask.val().any();
        self.nt_live.next = self.new_nt_mask.val().any();
        // Both paths live: the TOS is replaced or re-forms at rpc; paths at rpc wait there.
        self.replace.next =
            (self.used.q.val() != self.d_one.val()) & (self.t_rpc.val() == self.br_rpc.val());
        self.tk_push.next = self.br_tk_pc.val() != self.br_rpc.val();
        self.nt_push.next = self.br_nt_pc.val() != self.br_rpc.val();
        self.p0_idx.next = self.nt_idx.val();
        self.new_used.next = self.used.q.val();
        if self.replace.val() {
            self.p0_idx.next = self.tos_idx.val();
            self.new_used.next = self.used.q.val() - self.d_one.val();
        }
        if self.nt_push.val() {
            self.new_used.next = self.new_used.val() + self.d_one.val();
        }
        if self.tk_push.val() {
            self.new_used.next = self.new_used.val() + self.d_one.val();
        }
        self.dec_wcnt.next = self.t_wcnt.val() - self.c_one.val();
        self.zero_left.next = self.dec_wcnt.val() == self.c_zero.val();
        // The mask whose compaction count the new TOS needs.
        self.evaluator.cta_mask.next = self.zero_mask.val();
        if self.is_launch.val() {
            self.evaluator.cta_mask.next = self.taken.val();
        }
        if self.do_branch.val() {
            if self.tk_live.val() & self.nt_live.val() {
                // The new TOS: the top pushed path, else the entry at rpc.
                if self.tk_push.val() {
                    self.evaluator.cta_mask.next = self.new_tk_mask.val() & self.new_umask.val();
                } else if self.nt_push.val() {
                    self.evaluator.cta_mask.next = self.new_nt_mask.val() & self.new_umask.val();
                } else if self.replace.val() {
                    self.evaluator.cta_mask.next = self.b_mask.val() & self.b_umask.val();
                } else {
                    self.evaluator.cta_mask.next = self.t_mask.val();
                }
            } else if self.tk_live.val() {
                self.evaluator.cta_mask.next = self.new_tk_mask.val() & self.new_umask.val();
            } else {
                self.evaluator.cta_mask.next = self.new_nt_mask.val() & self.new_umask.val();
            }
        }
        if self.do_reconv.val() {
            self.evaluator.cta_mask.next = self.b_mask.val() & self.b_umask.val();
        }
        // Decide the writes.
        self.we_tos.next = false;
        self.we_nt.next = false;
        self.we_tk.next = false;
        self.we_below.next = false;
        self.tos_pc_val.next = self.t_pc.val();
        self.tos_umask_val.next = self.t_umask.val();
        self.tos_wcnt_val.next = self.dec_wcnt.val();
        self.tk_wcnt_val.next = self.new_tk_wcnt.val();
        self.nt_wcnt_val.next = self.new_nt_wcnt.val();
        self.nt_w_idx.next = self.nt_idx.val();
        self.tk_w_idx.next = self.tk_idx.val();
        self.below_wcnt_val.next = self.b_wcnt.val() + self.evaluator.min_warps.val();
        self.moved.d.next = false;
        self.useful.d.next = false;
        if self.is_branch.val() & !self.legal.val() {
            self.err.d.next = true;
        }
        if self.is_branch.val() & self.legal.val() & !self.room.val() {
            self.over.d.next = true;
        }
        if self.is_reconv.val() & !self.do_reconv.val() {
            self.err.d.next = true;
        }
        if self.do_branch.val() {
            self.we_tos.next = true;
            if !self.zero_left.val() {
                self.filling.d.next = true;
                self.we_nt.next = true;
                self.we_tk.next = true;
            } else {
                self.filling.d.next = false;
                self.moved.d.next = true;
                self.useful.d.next = self.evaluator.adequate.val();
                if self.tk_live.val() & self.nt_live.val() {
                    // NT goes first (below T); the top pushed path adds its compaction.
                    self.we_nt.next = self.nt_push.val();
                    self.we_tk.next = self.tk_push.val();
                    self.nt_w_idx.next = self.p0_idx.val();
                    self.tk_w_idx.next = self.p0_idx.val();
                    if self.nt_push.val() {
                        self.tk_w_idx.next = self.p0_idx.val() + self.d_one.val();
                    }
                    if self.tk_push.val() {
                        self.tk_wcnt_val.next =
                            self.new_tk_wcnt.val() + self.evaluator.min_warps.val();
                    } else if self.nt_push.val() {
                        self.nt_wcnt_val.next =
                            self.new_nt_wcnt.val() + self.evaluator.min_warps.val();
                    }
                    if self.replace.val() {
                        // Popped; with no path pushed the entry below is the TOS.
                        self.we_tos.next = false;
                        self.we_below.next = !(self.tk_push.val() | self.nt_push.val());
                    } else {
                        self.tos_pc_val.next = self.br_rpc.val();
                        self.tos_umask_val.next = self.all_threads.val();
                        self.tos_wcnt_val.next = self.c_zero.val();
                        if !(self.tk_push.val() | self.nt_push.val()) {
                            self.tos_wcnt_val.next = self.evaluator.min_warps.val();
                        }
                    }
                    self.used.d.next = self.new_used.val();
                } else if self.nt_live.val() {
                    self.tos_pc_val.next = self.br_nt_pc.val();
                    self.tos_umask_val.next = self.new_umask.val();
                    self.tos_wcnt_val.next =
                        self.new_nt_wcnt.val() + self.evaluator.min_warps.val();
                } else {
                    self.tos_pc_val.next = self.br_tk_pc.val();
                    self.tos_umask_val.next = self.new_umask.val();
                    self.tos_wcnt_val.next =
                        self.new_tk_wcnt.val() + self.evaluator.min_warps.val();
                }
            }
        }
        if self.do_reconv.val() {
            self.we_tos.next = true;
            if self.zero_left.val() {
                self.used.d.next = self.used.q.val() - self.d_one.val();
                if self.used.q.val() != self.d_one.val() {
                    self.we_below.next = true;
                    self.moved.d.next = true;
                    self.useful.d.next = self.evaluator.adequate.val();
                }
            }
        }
        // Write the entries.
        for e in 0..DEPTH {
            if self.we_tos.val() & (self.idx[e].val() == self.tos_idx.val()) {
                self.e_pc[e].d.next = self.tos_pc_val.val();
                self.e_umask[e].d.next = self.tos_umask_val.val();
                self.e_wcnt[e].d.next = self.tos_wcnt_val.val();
            }
            if self.we_nt.val() & (self.idx[e].val() == self.nt_w_idx.val()) {
                self.e_mask[e].d.next = self.new_nt_mask.val();
                self.e_umask[e].d.next = self.new_umask.val();
                self.e_wcnt[e].d.next = self.nt_wcnt_val.val();
                self.e_pc[e].d.next = self.br_nt_pc.val();
                self.e_rpc[e].d.next = self.br_rpc.val();
            }
            if self.we_tk.val() & (self.idx[e].val() == self.tk_w_idx.val()) {
                self.e_mask[e].d.next = self.new_tk_mask.val();
                self.e_umask[e].d.next = self.new_umask.val();
                self.e_wcnt[e].d.next = self.tk_wcnt_val.val();
                self.e_pc[e].d.next = self.br_tk_pc.val();
                self.e_rpc[e].d.next = self.br_rpc.val();
            }
            if self.we_below.val() & (self.idx[e].val() == self.below_idx.val()) {
                self.e_wcnt[e].d.next = self.below_wcnt_val.val();
            }
            if self.is_launch.val() & (self.idx[e].val() == self.d_zero.val()) {
                self.e_pc[e].d.next = self.taken_pc.val();
                self.e_rpc[e].d.next = self.rpc.val();
                self.e_mask[e].d.next = self.taken.val();
                self.e_umask[e].d.next = self.all_threads.val();
                self.e_wcnt[e].d.next = self.evaluator.active_warps.val();
            }
            if self.reset.val() {
                self.e_pc[e].d.next = self.zero_pc.val();
                self.e_rpc[e].d.next = self.zero_pc.val();
                self.e_mask[e].d.next = self.zero_mask.val();
                self.e_umask[e].d.next = self.zero_mask.val();
                self.e_wcnt[e].d.next = self.c_zero.val();
            }
        }
        if self.is_launch.val() {
            self.used.d.next = self.d_one.val();
            self.filling.d.next = false;
            self.moved.d.next = false;
        }
        if self.reset.val() {
            self.used.d.next = self.d_zero.val();
            self.filling.d.next = false;
            self.moved.d.next = false;
            self.useful.d.next = false;
            self.over.d.next = false;
            self.err.d.next = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::TbcStack8x32;

    #[test]
    fn synthesizes() {
        let mut uut = TbcStack8x32::default();
        uut.connect_all();
        yosys_validate("tbc_stack", &generate_verilog(&uut)).unwrap();
    }
}
