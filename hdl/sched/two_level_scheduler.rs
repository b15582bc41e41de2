//! Two-level round-robin warp fetch scheduler (`lwm-two-level-scheduling.txt` §3.2,
//! Figure 8; SPEC §2.3).
//!
//! The `WARPS` warps are split into `GROUPS = WARPS/GROUP` fetch groups of `GROUP`
//! consecutive warps (group `g` holds warps `g*GROUP .. g*GROUP+GROUP-1`). The
//! scheduler keeps fetching from the current group, round robin inside it, until none
//! of its warps is ready; then the next group (round robin over groups) that has a
//! ready warp takes over. With one group of all warps it is plain round robin (the
//! paper's baseline); with groups of 8 it is the paper's "2Lev8".
//!
//! ```text
//!  ready ─> group_any (OR per group) ─> group_arb (round robin, start at cur) ─> sel ──┐
//!  ready & group_mask[sel] ─> fold ──> warp_arb (round robin, after last[sel]) ─> l ──┤
//!                                                  grant = sel*GROUP + l, group = sel <┘
//!  edge with grant_valid && accept:  cur <= sel,  start[sel] <= l+1 mod GROUP
//!  (last[sel] = start[sel]-1 mod GROUP feeds warp_arb)
//! ```
//!
//! Latency: `grant_valid`, `grant` and `group` are combinational (this cycle's
//! `ready` and the registered `cur`/`start`); an accepted grant updates the state on
//! the edge, so it steers the next cycle. Throughput: one grant per cycle.
//! Storage: `GW` (`cur`) + `GROUPS*LW` (`start`) flip-flops: 2 + 4*3 = 14 bits for
//! 32 warps in groups of 8; the paper (§3.3) counts no storage for it.
//!
//! Choices where the SPEC is silent:
//! - SPEC's `last[g]` is held as `start[g]`, the index inside the group where the
//!   next search starts: `last[g] = g*GROUP + (start[g]-1 mod GROUP)`. Same
//!   information, `LW` bits instead of `WW`, and the reset state (`last[g] =
//!   g*GROUP + GROUP-1`) is all-zero registers, so power-on (rust-hdl's `DFF` starts
//!   at 0) already is the reset state and cycle 0 is well defined in co-simulation.
//! - `grant` is 0 when no warp is ready (`grant_valid` = 0); `group` is then `cur`.
//! - `accept` without `grant_valid` changes nothing. Reset wins over `accept`.
//! - `grant` is `max(1, clog2(WARPS))` bits, so a 1-warp scheduler still has a port.
//! - The chosen group's `ready` bits are brought down to `warp_arb` by masking with
//!   constant per-group masks and OR-folding per index inside the group (bit `l` =
//!   any ready warp `g*GROUP + l` of the chosen group), not by a part-select: a
//!   part-select of the 1-bit `ready` of a 1-warp scheduler is illegal Verilog.
use crate::lib::round_robin_arbiter::RoundRobinArbiter;
use rust_hdl::prelude::*;

/// Two-level round-robin scheduler over `WARPS` warps in fetch groups of `GROUP`.
/// `GROUPS = WARPS/GROUP`, `WW = max(1, clog2(WARPS))` (warp number),
/// `GW = max(1, clog2(GROUPS))` (group number), `LW = max(1, clog2(GROUP))` (index
/// inside a group).
#[derive(LogicBlock)]
pub struct TwoLevelScheduler<
    const WARPS: usize,
    const GROUP: usize,
    const GROUPS: usize,
    const WW: usize,
    const GW: usize,
    const LW: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: `cur = 0`, `last[g] = g*GROUP + GROUP-1` (all
    /// registers 0, the power-on state too).
    pub reset: Signal<In, Bit>,
    // fetch interface
    /// Bit `w` set when warp `w` may be fetched (not in the pipeline, not stalled).
    pub ready: Signal<In, Bits<WARPS>>,
    /// Fetch takes this cycle's grant (the state advances on this edge).
    pub accept: Signal<In, Bit>,
    // grant out (combinational)
    /// Some warp is ready, so a warp is granted.
    pub grant_valid: Signal<Out, Bit>,
    /// The warp granted; valid with `grant_valid`, 0 otherwise.
    pub grant: Signal<Out, Bits<WW>>,
    /// Fetch group of `grant`; the current group `cur` when no warp is ready.
    pub group: Signal<Out, Bits<GW>>,
    /// The current (prioritized) fetch group.
    cur: DFF<Bits<GW>>,
    /// Per group, the index inside the group just after its last granted warp,
    /// mod `GROUP` (where its round-robin search starts).
    start: [DFF<Bits<LW>>; GROUPS],
    /// Round robin across groups: requests are the groups with a ready warp.
    group_arb: RoundRobinArbiter<GROUPS, GW>,
    /// Round robin inside the chosen group.
    warp_arb: RoundRobinArbiter<GROUP, LW>,
    /// Groups with at least one ready warp, filled from the top and shifted down.
    group_any: Signal<Local, Bits<GROUPS>>,
    /// The ready warps of the chosen group (other groups' bits cleared).
    sel_ready: Signal<Local, Bits<WARPS>>,
    /// The chosen group's ready bits by index inside the group, filled from the top.
    sel_request: Signal<Local, Bits<GROUP>>,
    /// `cur - 1 mod GROUPS`: the group arbiter searches "after" it, i.e. from `cur`.
    cur_prev: Signal<Local, Bits<GW>>,
    /// `start` of the chosen group.
    sel_start: Signal<Local, Bits<LW>>,
    /// Both levels granted (always equal to `group_arb.grant_valid`).
    any_grant: Signal<Local, Bit>,
    group_ids: [Constant<Bits<GW>>; GROUPS],
    /// Per warp: its number, its group and its index inside the group.
    warp_ids: [Constant<Bits<WW>>; WARPS],
    warp_group: [Constant<Bits<GW>>; WARPS],
    warp_local: [Constant<Bits<LW>>; WARPS],
    /// Per group, its warps; per index inside a group, the warps with that index.
    group_mask: [Constant<Bits<WARPS>>; GROUPS],
    local_mask: [Constant<Bits<WARPS>>; GROUP],
    local_top: Constant<Bits<GROUP>>,
    one: Constant<Bits<16>>,
    group_any_top: Constant<Bits<GROUPS>>,
    one_group: Constant<Bits<GW>>,
    final_group: Constant<Bits<GW>>,
    final_local: Constant<Bits<LW>>,
    one_local: Constant<Bits<LW>>,
    zero_local: Constant<Bits<LW>>,
    zero_group: Constant<Bits<GW>>,
    zero_warp: Constant<Bits<WW>>,
    zero_groups: Constant<Bits<GROUPS>>,
    zero_ready: Constant<Bits<WARPS>>,
    zero_request: Constant<Bits<GROUP>>,
}

impl<
        const WARPS: usize,
        const GROUP: usize,
        const GROUPS: usize,
        const WW: usize,
        const GW: usize,
        const LW: usize,
    > Default for TwoLevelScheduler<WARPS, GROUP, GROUPS, WW, GW, LW>
{
    fn default() -> Self {
        assert!(
            WARPS >= 1 && GROUP >= 1,
            "scheduler needs at least one warp per group"
        );
        assert!(WARPS < 1 << 16, "group offsets are 16-bit constants");
        assert_eq!(WARPS % GROUP, 0, "GROUP must divide WARPS");
        assert_eq!(GROUPS, WARPS / GROUP, "GROUPS must be WARPS/GROUP");
        assert_eq!(WW, clog2(WARPS).max(1), "WW must be max(1, clog2(WARPS))");
        assert_eq!(GW, clog2(GROUPS).max(1), "GW must be max(1, clog2(GROUPS))");
        assert_eq!(LW, clog2(GROUP).max(1), "LW must be max(1, clog2(GROUP))");
        let mut top = Bits::<GROUPS>::default();
        top.set_bits::<1>(GROUPS - 1, Bits::<1>::from(true));
        let mut local_top = Bits::<GROUP>::default();
        local_top.set_bits::<1>(GROUP - 1, Bits::<1>::from(true));
        Self {
            clock: Default::default(),
            reset: Default::default(),
            ready: Default::default(),
            accept: Default::default(),
            grant_valid: Default::default(),
            grant: Default::default(),
            group: Default::default(),
            cur: Default::default(),
            start: array_init::array_init(|_| Default::default()),
            group_arb: Default::default(),
            warp_arb: Default::default(),
            group_any: Default::default(),
            sel_ready: Default::default(),
            sel_request: Default::default(),
            cur_prev: Default::default(),
            sel_start: Default::default(),
            any_grant: Default::default(),
            group_ids: array_init::array_init(|g| Constant::new(Bits::<GW>::from(g as u64))),
            warp_ids: array_init::array_init(|w| Constant::new(Bits::<WW>::from(w as u64))),
            warp_group: array_init::array_init(|w| {
                Constant::new(Bits::<GW>::from((w / GROUP) as u64))
            }),
            warp_local: array_init::array_init(|w| {
                Constant::new(Bits::<LW>::from((w % GROUP) as u64))
            }),
            group_mask: array_init::array_init(|g| {
                let mut v = Bits::<WARPS>::default();
                for w in g * GROUP..(g + 1) * GROUP {
                    v.set_bits::<1>(w, Bits::<1>::from(true));
                }
                Constant::new(v)
            }),
            local_mask: array_init::array_init(|l| {
                let mut v = Bits::<WARPS>::default();
                for g in 0..GROUPS {
                    v.set_bits::<1>(g * GROUP + l, Bits::<1>::from(true));
                }
                Constant::new(v)
            }),
            local_top: Constant::new(local_top),
            one: Constant::new(1u64.into()),
            group_any_top: Constant::new(top),
            one_group: Constant::new(1u64.into()),
            final_group: Constant::new(((GROUPS - 1) as u64).into()),
            final_local: Constant::new(((GROUP - 1) as u64).into()),
            one_local: Constant::new(1u64.into()),
            zero_local: Constant::new(Bits::default()),
            zero_group: Constant::new(Bits::default()),
            zero_warp: Constant::new(Bits::default()),
            zero_groups: Constant::new(Bits::default()),
            zero_ready: Constant::new(Bits::default()),
            zero_request: Constant::new(Bits::default()),
        }
    }
}

impl<
        const WARPS: usize,
        const GROUP: usize,
        const GROUPS: usize,
        const WW: usize,
        const GW: usize,
        const LW: usize,
    > Logic for TwoLevelScheduler<WARPS, GROUP, GROUPS, WW, GW, LW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, cur);
        for g in 0..GROUPS {
            self.start[g].clock.next = self.clock.val();
            self.start[g].d.next = self.start[g].q.val();
        }
        // Level 1: the first group with a ready warp, starting at `cur`.
        self.group_any.next = self.zero_groups.val();
        for g in 0..GROUPS {
            self.group_any.next = self.group_any.val() >> self.one.val();
            if (self.ready.val() & self.group_mask[g].val()).any() {
                self.group_any.next = self.group_any.val() | self.group_any_top.val();
            }
        }
        self.cur_prev.next = self.cur.q.val() - self.one_group.val();
        if self.cur.q.val() == self.zero_group.val() {
            self.cur_prev.next = self.final_group.val();
        }
        self.group_arb.request.next = self.group_any.val();
        self.group_arb.last.next = self.cur_prev.val();
        // Level 2: round robin inside the chosen group, after its last grant.
        self.sel_ready.next = self.zero_ready.val();
        self.sel_start.next = self.zero_local.val();
        for g in 0..GROUPS {
            if self.group_arb.grant.val() == self.group_ids[g].val() {
                self.sel_ready.next = self.ready.val() & self.group_mask[g].val();
                self.sel_start.next = self.start[g].q.val();
            }
        }
        self.sel_request.next = self.zero_request.val();
        for l in 0..GROUP {
            self.sel_request.next = self.sel_request.val() >> self.one.val();
            if (self.sel_ready.val() & self.local_mask[l].val()).any() {
                self.sel_request.next = self.sel_request.val() | self.local_top.val();
            }
        }
        self.warp_arb.request.next = self.sel_request.val();
        self.warp_arb.last.next = self.sel_start.val() - self.one_local.val();
        if self.sel_start.val() == self.zero_local.val() {
            self.warp_arb.last.next = self.final_local.val();
        }
        self.any_grant.next = self.group_arb.grant_valid.val() & self.warp_arb.grant_valid.val();
        // Outputs: the warp number of (group, index inside the group).
        self.grant_valid.next = self.any_grant.val();
        self.grant.next = self.zero_warp.val();
        for w in 0..WARPS {
            if self.any_grant.val()
                & (self.group_arb.grant.val() == self.warp_group[w].val())
                & (self.warp_arb.grant.val() == self.warp_local[w].val())
            {
                self.grant.next = self.warp_ids[w].val();
            }
        }
        self.group.next = self.cur.q.val();
        if self.any_grant.val() {
            self.group.next = self.group_arb.grant.val();
        }
        // State: an accepted grant makes its group current and records the warp.
        if self.any_grant.val() & self.accept.val() {
            self.cur.d.next = self.group_arb.grant.val();
            for g in 0..GROUPS {
                if self.group_arb.grant.val() == self.group_ids[g].val() {
                    self.start[g].d.next = self.warp_arb.grant.val() + self.one_local.val();
                    if self.warp_arb.grant.val() == self.final_local.val() {
                        self.start[g].d.next = self.zero_local.val();
                    }
                }
            }
        }
        if self.reset.val() {
            self.cur.d.next = self.zero_group.val();
            for g in 0..GROUPS {
                self.start[g].d.next = self.zero_local.val();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::{RoundRobinScheduler32, TwoLevelScheduler32x8, TwoLevelScheduler4x2};

    #[test]
    fn synthesizes() {
        for (name, vlog) in [
            ("two_level_scheduler", {
                let mut uut = TwoLevelScheduler32x8::default();
                uut.connect_all();
                generate_verilog(&uut)
            }),
            ("two_level_scheduler_4x2", {
                let mut uut = TwoLevelScheduler4x2::default();
                uut.connect_all();
                generate_verilog(&uut)
            }),
            ("round_robin_scheduler", {
                let mut uut = RoundRobinScheduler32::default();
                uut.connect_all();
                generate_verilog(&uut)
            }),
        ] {
            yosys_validate(name, &vlog).unwrap();
        }
    }

    /// One cycle: inputs, settle, read (grant_valid, grant, group), clock edge.
    fn step(
        uut: &mut TwoLevelScheduler4x2,
        reset: bool,
        ready: u64,
        accept: bool,
    ) -> (bool, u64, u64) {
        uut.clock.next = false.into();
        uut.reset.next = reset;
        uut.ready.next = ready.into();
        uut.accept.next = accept;
        assert!(simulate(uut, 100));
        let out = (
            uut.grant_valid.val(),
            (0..2).fold(0, |acc, b| {
                acc | (u64::from(uut.grant.val().get_bit(b)) << b)
            }),
            u64::from(uut.group.val().get_bit(0)),
        );
        uut.clock.next = true.into();
        assert!(simulate(uut, 100));
        out
    }

    #[test]
    fn keeps_a_group_until_it_stalls() {
        let mut uut = TwoLevelScheduler4x2::default();
        uut.connect_all();
        // Power-on is the reset state: warp 0 first, even before a reset.
        assert_eq!(step(&mut uut, false, 0b1111, false), (true, 0, 0));
        step(&mut uut, true, 0, false);
        // After reset: group 0, warp 0 first; round robin inside group 0.
        assert_eq!(step(&mut uut, false, 0b1111, true), (true, 0, 0));
        assert_eq!(step(&mut uut, false, 0b1111, true), (true, 1, 0));
        assert_eq!(step(&mut uut, false, 0b1111, true), (true, 0, 0));
        // Group 0 stalls: group 1 takes over, from its warp 2.
        assert_eq!(step(&mut uut, false, 0b1100, true), (true, 2, 1));
        // Group 0 ready again, but group 1 keeps priority while it has a ready warp.
        assert_eq!(step(&mut uut, false, 0b1111, true), (true, 3, 1));
        // Nothing ready: no grant, `group` shows the current group.
        assert_eq!(step(&mut uut, false, 0b0000, true), (false, 0, 1));
        // Group 1 stalls: back to group 0, after its last grant (warp 0).
        assert_eq!(step(&mut uut, false, 0b0011, true), (true, 1, 0));
    }
}
