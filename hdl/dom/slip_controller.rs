//! Adaptive slip controller of one core (`diverge-on-miss.txt` §5.1, §6, Table 1;
//! SPEC §4): an 8-bit slip counter per thread, a slip-limit bitmask per warp and one
//! 8-bit max-slip register.
//!
//! Storage (Table 1): counters `WARPS x LANES x 8`, slip-limit `WARPS x LANES`,
//! max-slip 8. `SlipController32x16`: 4096 + 512 + 8 = 4616 flip-flops. Counters are
//! held as 8 bit planes per warp (`p0`..`p7`, one `LANES` row each), so incrementing or
//! decrementing any set of threads is a ripple over 8 rows of `LANES` bits and the
//! limit compare is 8 bitwise steps: no per-thread adders, no wide shifts.
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | clock, reset | in | 1 | reset: every counter and limit bit 0, max-slip = `INIT` |
//! | warp | in | WW | warp of this cycle's `mem_op` / `clear`, and of the outputs |
//! | clear | in | 1 | the warp gets new software threads: its counters become 0 |
//! | mem_op | in | 1 | the warp executed a memory op (a slip event; `warp_memory_divergence` and the core count refused ones too) |
//! | considered | in | LANES | threads active on the branch divergence stack |
//! | exec_mask | in | LANES | threads that executed the op |
//! | hit_mask | in | LANES | threads whose access hit |
//! | slipped | in | 1 | the op diverged: its missing threads were masked off (MDT accepted) |
//! | raise, lower | in | 1 | adaptive diff: max-slip + `STEP` / - `STEP` (saturating at 255 / 0; both = keep) |
//! | limit_mask | out | LANES | registered: the warp's slip-limit bitmask |
//! | forbid | out | 1 | `limit_mask & considered` not empty: the warp may not diverge |
//! | tail | out | LANES | comb.: considered threads whose counter is 0 (the tail end) |
//! | grow, shrink | out | 1 | comb.: which rule this edge applies |
//! | max_slip | out | 8 | registered: the max-slip register |
//!
//! Rules, for the warp `warp` (C = considered, E = exec & C, H = E & hit, X = E & !hit,
//! T = threads of C with counter 0):
//! 1. grow: `mem_op & slipped & H != 0 & (X & T) != 0` (a tail-end thread missed and the
//!    op diverged): every thread of H counts +1, saturating at 255. An undiverged warp
//!    (all counters 0, so T = C) grows on every divergent op, as §5.1 says.
//! 2. shrink: `mem_op & (E & T) != 0 & (X & T) == 0` (every tail-end thread that executed
//!    hit): every thread of C that is not in H and whose counter is not 0 counts -1:
//!    the threads that missed this time (§5.1, second paragraph) and the threads that
//!    did not execute (disabled or still waiting: "their counters get decremented when
//!    the remaining threads hit"). Rules 1 and 2 exclude each other.
//! 3. limit: after every edge, `limit[w][t] = (counter[w][t] >= max_slip)` for every warp
//!    (the register is recomputed when max-slip moves). `forbid` asks the warp to run
//!    its loads and stores blocking while a considered thread is at the limit.
//! 4. `clear` zeroes the warp's counters (beats `mem_op`); reset zeroes all.
//! 5. Threads outside C are never counted (§5.1: inactive threads are not considered).
//!
//! Choices where the paper is silent: the rules above; `INIT` (the max-slip value after
//! reset, a parameter); `STEP` (how far one raise or lower moves max-slip, a parameter:
//! the core model's `dom_slip_step`; the presets take the `dom` machine's 8, weft's
//! choice, §5.2 gives no step); max-slip 0 forbids every divergence (pure blocking SIMD); a
//! `warp` index >= `WARPS` reads all-zero counters and changes nothing; the controller
//! does not itself mask limited threads off: `limit_mask` is the §6 bitmask for the
//! core to use, `forbid` is what `warp_memory_divergence` uses.
use rust_hdl::prelude::*;

/// Slip controller for `WARPS` warps of `LANES` threads; `WW = max(1, clog2(WARPS))`;
/// max-slip resets to `INIT` (< 256) and moves by `STEP` (1..=255) per raise or lower.
#[derive(LogicBlock)]
pub struct SlipController<
    const LANES: usize,
    const WARPS: usize,
    const WW: usize,
    const INIT: usize,
    const STEP: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: counters and limits 0, max-slip `INIT`.
    pub reset: Signal<In, Bit>,
    /// Warp of this cycle's event and of the outputs.
    pub warp: Signal<In, Bits<WW>>,
    /// Zero the warp's counters (new software threads).
    pub clear: Signal<In, Bit>,
    // memory op of `warp`
    /// The warp completed a memory op this cycle.
    pub mem_op: Signal<In, Bit>,
    /// Threads active on the branch divergence stack.
    pub considered: Signal<In, Bits<LANES>>,
    /// Threads that executed the op.
    pub exec_mask: Signal<In, Bits<LANES>>,
    /// Threads whose access hit.
    pub hit_mask: Signal<In, Bits<LANES>>,
    /// The op diverged (its misses were masked off).
    pub slipped: Signal<In, Bit>,
    // adaptive diff
    /// Raise max-slip by `STEP` (saturating at 255).
    pub raise: Signal<In, Bit>,
    /// Lower max-slip by `STEP` (saturating at 0).
    pub lower: Signal<In, Bit>,
    // outputs
    /// The warp's slip-limit bitmask (registered).
    pub limit_mask: Signal<Out, Bits<LANES>>,
    /// A considered thread of the warp is at the limit: no divergent memory op.
    pub forbid: Signal<Out, Bit>,
    /// Considered threads whose counter is 0.
    pub tail: Signal<Out, Bits<LANES>>,
    /// Rule 1 applies on this edge.
    pub grow: Signal<Out, Bit>,
    /// Rule 2 applies on this edge.
    pub shrink: Signal<Out, Bit>,
    /// The max-slip register.
    pub max_slip: Signal<Out, Bits<8>>,
    /// Counter bit 0 of every thread, one `LANES` row per warp (bit plane).
    pub p0: [DFF<Bits<LANES>>; WARPS],
    /// Counter bit 1 of every thread, one `LANES` row per warp (bit plane).
    pub p1: [DFF<Bits<LANES>>; WARPS],
    /// Counter bit 2 of every thread, one `LANES` row per warp (bit plane).
    pub p2: [DFF<Bits<LANES>>; WARPS],
    /// Counter bit 3 of every thread, one `LANES` row per warp (bit plane).
    pub p3: [DFF<Bits<LANES>>; WARPS],
    /// Counter bit 4 of every thread, one `LANES` row per warp (bit plane).
    pub p4: [DFF<Bits<LANES>>; WARPS],
    /// Counter bit 5 of every thread, one `LANES` row per warp (bit plane).
    pub p5: [DFF<Bits<LANES>>; WARPS],
    /// Counter bit 6 of every thread, one `LANES` row per warp (bit plane).
    pub p6: [DFF<Bits<LANES>>; WARPS],
    /// Counter bit 7 of every thread, one `LANES` row per warp (bit plane).
    pub p7: [DFF<Bits<LANES>>; WARPS],
    /// Slip-limit bitmask of each warp.
    pub limit: [DFF<Bits<LANES>>; WARPS],
    /// The per-core max-slip register, stored XOR `INIT` so that power-on (all
    /// zeros) equals reset.
    pub max_q: DFF<Bits<8>>,
    max_now: Signal<Local, Bits<8>>,
    cur: [Signal<Local, Bits<LANES>>; 8],
    nxt: [Signal<Local, Bits<LANES>>; 8],
    row: [Signal<Local, Bits<LANES>>; 8],
    cur_limit: Signal<Local, Bits<LANES>>,
    nz: Signal<Local, Bits<LANES>>,
    sat: Signal<Local, Bits<LANES>>,
    tail_now: Signal<Local, Bits<LANES>>,
    e: Signal<Local, Bits<LANES>>,
    h: Signal<Local, Bits<LANES>>,
    x: Signal<Local, Bits<LANES>>,
    grow_now: Signal<Local, Bit>,
    shrink_now: Signal<Local, Bit>,
    carry: Signal<Local, Bits<LANES>>,
    borrow: Signal<Local, Bits<LANES>>,
    ge: Signal<Local, Bits<LANES>>,
    max_next: Signal<Local, Bits<8>>,
    warp_id: [Constant<Bits<WW>>; WARPS],
    zero_lanes: Constant<Bits<LANES>>,
    ones_lanes: Constant<Bits<LANES>>,
    step8: Constant<Bits<8>>,
    /// `255 - STEP`: the largest max-slip a raise adds `STEP` to without saturating.
    room8: Constant<Bits<8>>,
    max8: Constant<Bits<8>>,
    zero8: Constant<Bits<8>>,
    init8: Constant<Bits<8>>,
}

impl<
        const LANES: usize,
        const WARPS: usize,
        const WW: usize,
        const INIT: usize,
        const STEP: usize,
    > Default for SlipController<LANES, WARPS, WW, INIT, STEP>
{
    fn default() -> Self {
        assert!(LANES >= 1 && WARPS >= 1, "lanes and warps");
        assert_eq!(WW, clog2(WARPS).max(1), "WW must be max(1, clog2(WARPS))");
        assert!(
            (1..256).contains(&INIT),
            "max-slip resets to 1..=255 (0 would make power-on differ from reset)"
        );
        assert!((1..256).contains(&STEP), "max-slip moves by 1..=255");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            warp: Default::default(),
            clear: Default::default(),
            mem_op: Default::default(),
            considered: Default::default(),
            exec_mask: Default::default(),
            hit_mask: Default::default(),
            slipped: Default::default(),
            raise: Default::default(),
            lower: Default::default(),
            limit_mask: Default::default(),
            forbid: Default::default(),
            tail: Default::default(),
            grow: Default::default(),
            shrink: Default::default(),
            max_slip: Default::default(),
            p0: array_init::array_init(|_| Default::default()),
            p1: array_init::array_init(|_| Default::default()),
            p2: array_init::array_init(|_| Default::default()),
            p3: array_init::array_init(|_| Default::default()),
            p4: array_init::array_init(|_| Default::default()),
            p5: array_init::array_init(|_| Default::default()),
            p6: array_init::array_init(|_| Default::default()),
            p7: array_init::array_init(|_| Default::default()),
            limit: array_init::array_init(|_| Default::default()),
            max_q: Default::default(),
            max_now: Default::default(),
            cur: array_init::array_init(|_| Default::default()),
            nxt: array_init::array_init(|_| Default::default()),
            row: array_init::array_init(|_| Default::default()),
            cur_limit: Default::default(),
            nz: Default::default(),
            sat: Default::default(),
            tail_now: Default::default(),
            e: Default::default(),
            h: Default::default(),
            x: Default::default(),
            grow_now: Default::default(),
            shrink_now: Default::default(),
            carry: Default::default(),
            borrow: Default::default(),
            ge: Default::default(),
            max_next: Default::default(),
            warp_id: array_init::array_init(|w| Constant::new(Bits::<WW>::from(w as u64))),
            zero_lanes: Constant::new(Bits::default()),
            ones_lanes: Constant::new(Bits::<LANES>::mask()),
            step8: Constant::new((STEP as u64).into()),
            room8: Constant::new((255 - STEP as u64).into()),
            max8: Constant::new(255u64.into()),
            zero8: Constant::new(0u64.into()),
            init8: Constant::new((INIT as u64).into()),
        }
    }
}

impl<
        const LANES: usize,
        const WARPS: usize,
        const WW: usize,
        const INIT: usize,
        const STEP: usize,
    > Logic for SlipController<LANES, WARPS, WW, INIT, STEP>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, max_q);
        for w in 0..WARPS {
            self.p0[w].clock.next = self.clock.val();
            self.p0[w].d.next = self.p0[w].q.val();
            self.p1[w].clock.next = self.clock.val();
            self.p1[w].d.next = self.p1[w].q.val();
            self.p2[w].clock.next = self.clock.val();
            self.p2[w].d.next = self.p2[w].q.val();
            self.p3[w].clock.next = self.clock.val();
            self.p3[w].d.next = self.p3[w].q.val();
            self.p4[w].clock.next = self.clock.val();
            self.p4[w].d.next = self.p4[w].q.val();
            self.p5[w].clock.next = self.clock.val();
            self.p5[w].d.next = self.p5[w].q.val();
            self.p6[w].clock.next = self.clock.val();
            self.p6[w].d.next = self.p6[w].q.val();
            self.p7[w].clock.next = self.clock.val();
            self.p7[w].d.next = self.p7[w].q.val();
            self.limit[w].clock.next = self.clock.val();
        }
        // Read the warp's row.
        for b in 0..8 {
            self.cur[b].next = self.zero_lanes.val();
        }
        self.cur_limit.next = self.zero_lanes.val();
        for w in 0..WARPS {
            if self.warp.val() == self.warp_id[w].val() {
                self.cur[0].next = self.p0[w].q.val();
                self.cur[1].next = self.p1[w].q.val();
                self.cur[2].next = self.p2[w].q.val();
                self.cur[3].next = self.p3[w].q.val();
                self.cur[4].next = self.p4[w].q.val();
                self.cur[5].next = self.p5[w].q.val();
                self.cur[6].next = self.p6[w].q.val();
                self.cur[7].next = self.p7[w].q.val();
                self.cur_limit.next = self.limit[w].q.val();
            }
        }
        self.nz.next = self.zero_lanes.val();
        self.sat.next = self.ones_lanes.val();
        for b in 0..8 {
            self.nz.next = self.nz.val() | self.cur[b].val();
            self.sat.next = self.sat.val() & self.cur[b].val();
        }
        self.tail_now.next = self.considered.val() & !self.nz.val();
        self.e.next = self.exec_mask.val() & self.considered.val();
        self.h.next = self.e.val() & self.hit_mask.val();
        self.x.next = self.e.val() & !self.hit_mask.val();
        self.grow_now.next = self.mem_op.val()
            & self.slipped.val()
            & self.h.val().any()
            & (self.x.val() & self.tail_now.val()).any();
        self.shrink_now.next = self.mem_op.val()
            & (self.e.val() & self.tail_now.val()).any()
            & !(self.x.val() & self.tail_now.val()).any();
        self.carry.next = self.zero_lanes.val();
        if self.grow_now.val() {
            self.carry.next = self.h.val() & !self.sat.val();
        }
        self.borrow.next = self.zero_lanes.val();
        if self.shrink_now.val() {
            self.borrow.next = self.considered.val() & !self.h.val() & self.nz.val();
        }
        for b in 0..8 {
            self.nxt[b].next = self.cur[b].val() ^ (self.carry.val() | self.borrow.val());
            self.carry.next = self.carry.val() & self.cur[b].val();
            self.borrow.next = self.borrow.val() & !self.cur[b].val();
            if self.clear.val() {
                self.nxt[b].next = self.zero_lanes.val();
            }
        }
        self.grow.next = self.grow_now.val() & !self.clear.val();
        self.shrink.next = self.shrink_now.val() & !self.clear.val();
        self.tail.next = self.tail_now.val();
        self.limit_mask.next = self.cur_limit.val();
        self.forbid.next = (self.cur_limit.val() & self.considered.val()).any();
        self.max_now.next = self.max_q.q.val() ^ self.init8.val();
        self.max_slip.next = self.max_now.val();
        // Max-slip register.
        self.max_next.next = self.max_now.val();
        if self.raise.val() & !self.lower.val() {
            self.max_next.next = self.max8.val();
            if self.max_now.val() <= self.room8.val() {
                self.max_next.next = self.max_now.val() + self.step8.val();
            }
        }
        if self.lower.val() & !self.raise.val() {
            self.max_next.next = self.zero8.val();
            if self.max_now.val() >= self.step8.val() {
                self.max_next.next = self.max_now.val() - self.step8.val();
            }
        }
        if self.reset.val() {
            self.max_next.next = self.init8.val();
        }
        self.max_q.d.next = self.max_next.val() ^ self.init8.val();
        // Write the row back; recompute every warp's limit bits (counter >= max-slip,
        // bit-serial from the LSB).
        for w in 0..WARPS {
            self.row[0].next = self.p0[w].q.val();
            self.row[1].next = self.p1[w].q.val();
            self.row[2].next = self.p2[w].q.val();
            self.row[3].next = self.p3[w].q.val();
            self.row[4].next = self.p4[w].q.val();
            self.row[5].next = self.p5[w].q.val();
            self.row[6].next = self.p6[w].q.val();
            self.row[7].next = self.p7[w].q.val();
            if self.warp.val() == self.warp_id[w].val() {
                self.p0[w].d.next = self.nxt[0].val();
                self.p1[w].d.next = self.nxt[1].val();
                self.p2[w].d.next = self.nxt[2].val();
                self.p3[w].d.next = self.nxt[3].val();
                self.p4[w].d.next = self.nxt[4].val();
                self.p5[w].d.next = self.nxt[5].val();
                self.p6[w].d.next = self.nxt[6].val();
                self.p7[w].d.next = self.nxt[7].val();
                for b in 0..8 {
                    self.row[b].next = self.nxt[b].val();
                }
            }
            if self.reset.val() {
                self.p0[w].d.next = self.zero_lanes.val();
                self.p1[w].d.next = self.zero_lanes.val();
                self.p2[w].d.next = self.zero_lanes.val();
                self.p3[w].d.next = self.zero_lanes.val();
                self.p4[w].d.next = self.zero_lanes.val();
                self.p5[w].d.next = self.zero_lanes.val();
                self.p6[w].d.next = self.zero_lanes.val();
                self.p7[w].d.next = self.zero_lanes.val();
                for b in 0..8 {
                    self.row[b].next = self.zero_lanes.val();
                }
            }
            self.ge.next = self.ones_lanes.val();
            for b in 0..8 {
                if self.max_next.val().get_bit(b) {
                    self.ge.next = self.ge.val() & self.row[b].val();
                } else {
                    self.ge.next = self.ge.val() | self.row[b].val();
                }
            }
            self.limit[w].d.next = self.ge.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = crate::presets::SlipController32x2::default();
        uut.connect_all();
        yosys_validate("slip_controller_2w", &generate_verilog(&uut)).unwrap();
    }

    #[test]
    fn hitters_of_an_undiverged_warp_count_up() {
        let mut uut = SlipController::<2, 1, 1, 1, 1>::default();
        uut.connect_all();
        uut.mem_op.next = true;
        uut.slipped.next = true;
        uut.considered.next = 0b11.into();
        uut.exec_mask.next = 0b11.into();
        uut.hit_mask.next = 0b10.into();
        uut.clock.next = Clock::from(false);
        simulate(&mut uut, 20);
        assert!(uut.grow.val() && !uut.shrink.val());
        uut.clock.next = Clock::from(true);
        simulate(&mut uut, 20);
        uut.mem_op.next = false;
        uut.clock.next = Clock::from(false);
        simulate(&mut uut, 20);
        assert_eq!(
            uut.limit_mask.val(),
            Bits::<2>::from(0b10),
            "1 >= max-slip 1"
        );
        assert!(uut.forbid.val());
    }
}
