//! Two-level scheduler bench: RTL vs model with the SPEC §2.3 contracts.
//!
//! Stimulus: `ready` vectors in phases of random length and style (every warp ready,
//! dense, half, sparse, nearly empty, one group only, and a small barrel pipeline in
//! which an accepted warp leaves `ready` for a few cycles and sometimes stalls long, as
//! on a load), random `accept` with a per-phase rate, reset at cycle 0 and rarely later.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::sched::two_level_scheduler::TwoLevelScheduler;
use weft_sim::sched::two_level_scheduler::{Grant, RoundRobin, TwoLevelScheduler as Model};

/// Inputs of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchedInputs {
    pub reset: bool,
    /// Bit `w`: warp `w` is ready.
    pub ready: u64,
    pub accept: bool,
}

/// Stimulus style of a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    /// Every warp ready.
    All,
    /// Each warp ready with this probability (percent), every cycle afresh.
    Random(u32),
    /// Only the warps of one group, each with 60 %.
    OneGroup(usize),
    /// A barrel pipeline: an accepted warp is busy for a few cycles, sometimes long.
    Pipeline,
}

pub struct TwoLevelSchedulerBench<
    const WARPS: usize,
    const GROUP: usize,
    const GROUPS: usize,
    const WW: usize,
    const GW: usize,
    const LW: usize,
> {
    pub uut: TwoLevelScheduler<WARPS, GROUP, GROUPS, WW, GW, LW>,
    pub model: Model,
    /// Plain round robin, compared with the grant when there is one group.
    pub round_robin: RoundRobin,
    pub inputs: SchedInputs,
    /// How often a reset comes after cycle 0 (1 in this many cycles).
    pub reset_every: u32,
    style: Style,
    phase_left: u32,
    accept_percent: u32,
    /// Pipeline style: cycles each warp stays busy.
    busy: Vec<u32>,
    /// Pipeline style: how long this cycle's accepted warp will be busy (drawn in
    /// `drive`, used in `tick`).
    trip: u32,
    /// Contract bookkeeping: the group of the last accepted grant (0 after reset).
    sticky_group: usize,
}

impl<
        const WARPS: usize,
        const GROUP: usize,
        const GROUPS: usize,
        const WW: usize,
        const GW: usize,
        const LW: usize,
    > crate::presets::Tested for TwoLevelScheduler<WARPS, GROUP, GROUPS, WW, GW, LW>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![("WARPS", WARPS), ("GROUP", GROUP)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(TwoLevelSchedulerBench::<WARPS, GROUP, GROUPS, WW, GW, LW>::default())
    }
    fn properties() -> Option<crate::presets::Properties> {
        Some(crate::presets::Properties {
            harness: include_str!("two_level_scheduler.props.v"),
            planted: PLANTED,
        })
    }
}

/// Bugs planted in the exported Verilog of every preset (two-level and one group), each
/// caught by the property named.
const PLANTED: &[(&str, &str, &str)] = &[
    // Warp 3 is granted but the output names warp 2, ready or not (the pointers move as
    // for warp 3). A bug in the arbitration itself would move the block's pointers off
    // the contract's: the invariant's bug.
    (
        "p_grants_only_ready",
        "grant = warp_ids$3;",
        "grant = warp_ids$2;",
    ),
    // No grant (and no pointer moves) while warp 0 is ready.
    (
        "p_never_idles",
        "any_grant = group_arb$grant_valid & warp_arb$grant_valid;",
        "any_grant = group_arb$grant_valid & warp_arb$grant_valid & ~ready[0];",
    ),
    // The first group's round robin does not advance past a grant (the block's pointer
    // leaves the contract's).
    (
        "p_inv_tied",
        "start$0$d = warp_arb$grant + one_local;",
        "start$0$d = start$0$q;",
    ),
    // Warp 1 is granted but the output names warp 0 (the pointers move as for warp 1).
    (
        "p_grant_is_the_contracts",
        "grant = warp_ids$1;",
        "grant = warp_ids$0;",
    ),
    // Warp 2 is granted but the output names warp 3: warp 2 waits through a grant that
    // moved its group's pointer past it.
    (
        "p_ready_warp_granted_within_group",
        "grant = warp_ids$2;",
        "grant = warp_ids$3;",
    ),
    // The group shown with a grant is group 1 whichever group is granted (with one
    // group, a group that does not exist).
    (
        "p_group_of_grant",
        "group = group_arb$grant;",
        "group = 1'b1;",
    ),
];

impl<
        const WARPS: usize,
        const GROUP: usize,
        const GROUPS: usize,
        const WW: usize,
        const GW: usize,
        const LW: usize,
    > Default for TwoLevelSchedulerBench<WARPS, GROUP, GROUPS, WW, GW, LW>
{
    fn default() -> Self {
        let mut uut = TwoLevelScheduler::default();
        uut.connect_all();
        TwoLevelSchedulerBench {
            uut,
            model: Model::new(WARPS, GROUP),
            round_robin: RoundRobin::new(WARPS),
            inputs: SchedInputs::default(),
            reset_every: 2000,
            style: Style::All,
            phase_left: 0,
            accept_percent: 100,
            busy: vec![0; WARPS],
            trip: 1,
            sticky_group: 0,
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
    > TwoLevelSchedulerBench<WARPS, GROUP, GROUPS, WW, GW, LW>
{
    /// Applies explicit inputs (directed tests use this instead of `drive`).
    pub fn apply(&mut self, inputs: SchedInputs) {
        self.uut.reset.next = inputs.reset;
        self.uut.ready.next = (inputs.ready & warp_mask(WARPS)).into();
        self.uut.accept.next = inputs.accept;
        self.inputs = inputs;
    }

    /// What the RTL shows this cycle (after settling).
    pub fn rtl_grant(&self) -> Grant {
        Grant {
            valid: self.uut.grant_valid.val(),
            warp: small(self.uut.grant.val()) as usize,
            group: small(self.uut.group.val()) as usize,
        }
    }

    fn new_phase(&mut self, rng: &mut ChaCha8Rng) {
        self.style = match rng.gen_range(0..9) {
            0 => Style::All,
            1 => Style::Random(50),
            2 => Style::Random(90),
            3 => Style::Random(10),
            4 => Style::Random(2),
            5 => Style::OneGroup(rng.gen_range(0..GROUPS)),
            _ => Style::Pipeline,
        };
        self.accept_percent = [100, 100, 90, 50, 10][rng.gen_range(0..5)];
        self.phase_left = rng.gen_range(8..200);
    }

    fn random_ready(&mut self, rng: &mut ChaCha8Rng) -> u64 {
        let mut ready = 0;
        for w in 0..WARPS {
            let on = match self.style {
                Style::All => true,
                Style::Random(p) => rng.gen_ratio(p, 100),
                Style::OneGroup(g) => w / GROUP == g && rng.gen_ratio(60, 100),
                Style::Pipeline => self.busy[w] == 0,
            };
            ready |= u64::from(on) << w;
        }
        ready
    }
}

impl<
        const WARPS: usize,
        const GROUP: usize,
        const GROUPS: usize,
        const WW: usize,
        const GW: usize,
        const LW: usize,
    > Bench for TwoLevelSchedulerBench<WARPS, GROUP, GROUPS, WW, GW, LW>
{
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        if self.phase_left == 0 {
            self.new_phase(rng);
        }
        self.phase_left -= 1;
        let ready = self.random_ready(rng);
        // A pipeline trip, or one time in seven a long-latency load.
        self.trip = if rng.gen_ratio(1, 7) {
            rng.gen_range(20..60)
        } else {
            rng.gen_range(1..7)
        };
        let inputs = SchedInputs {
            reset: cycle == 0 || rng.gen_ratio(1, self.reset_every.max(1)),
            ready,
            accept: rng.gen_ratio(self.accept_percent, 100),
        };
        self.apply(inputs);
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let ready = self.inputs.ready & warp_mask(WARPS);
        let want = self.model.outputs(ready);
        let got = self.rtl_grant();
        expect("grant_valid", want.valid, got.valid)?;
        expect("grant", want.warp, got.warp)?;
        expect("group", want.group, got.group)?;
        // Contracts on the RTL's own outputs.
        contract(
            "grant_valid == (ready != 0)",
            got.valid == (ready != 0),
            || format!("grant_valid {} with ready {ready:#x}", got.valid),
        )?;
        contract(
            "never idle while a warp is ready",
            ready == 0 || got.valid,
            || format!("no grant with ready {ready:#x}"),
        )?;
        if got.valid {
            contract(
                "a grant names a ready warp",
                ready >> got.warp & 1 == 1,
                || format!("warp {} granted, ready {ready:#x}", got.warp),
            )?;
            contract(
                "`group` is the grant's group",
                got.group == got.warp / GROUP,
                || format!("warp {} in group {}", got.warp, got.group),
            )?;
            let sticky = (ready >> (self.sticky_group * GROUP)) & warp_mask(GROUP) != 0;
            contract(
                "the current group keeps priority while it has a ready warp",
                !sticky || got.group == self.sticky_group,
                || {
                    format!(
                        "group {} granted while group {} has ready warps ({ready:#x})",
                        got.group, self.sticky_group
                    )
                },
            )?;
        }
        if GROUPS == 1 {
            expect(
                "grant (plain round robin)",
                self.round_robin.outputs(ready),
                got.valid.then_some(got.warp),
            )?;
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let ready = i.ready & warp_mask(WARPS);
        let out = self.model.outputs(ready);
        if i.reset {
            self.sticky_group = 0;
        } else if out.valid && i.accept {
            self.sticky_group = out.group;
        }
        // Pipeline style: the fetched warp is busy for a pipeline trip, sometimes for
        // a long-latency load.
        for b in self.busy.iter_mut() {
            *b = b.saturating_sub(1);
        }
        if out.valid && i.accept {
            self.busy[out.warp] = self.trip;
        }
        self.model.clock(i.reset, ready, i.accept);
        self.round_robin.clock(i.reset, ready, i.accept);
        Ok(())
    }
}

fn warp_mask(warps: usize) -> u64 {
    if warps == 64 {
        u64::MAX
    } else {
        (1 << warps) - 1
    }
}
