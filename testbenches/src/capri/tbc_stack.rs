//! TBC CTA-wide stack bench (SPEC §3.5): a CTA driver forms the warps of each TOS
//! (static warps at launch; then the warps that bypassed into the path and the WCU's
//! compaction of the threads that waited), sends their branch or reconvergence events
//! in random order with random stall/bypass choices (any warp may bypass, compacted
//! warps mixing home rows too), and now and then an illegal event; RTL vs model every
//! cycle, `WCnt` contracts, and every thread of a new TOS in exactly one of its warps.
//! Branch targets often equal their reconvergence PC, and that PC often equals the
//! TOS's own: the bench works out on its own which paths a divergent branch pushes and
//! whether it replaces the TOS (counted in `hits`), and checks the stack's depth.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::{bits_from_rows, rows_from_bits, small};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::capri::tbc_stack::TbcStack;
use weft_sim::capri::tbc_stack::{Event, TbcStack as Model};
use weft_sim::lib::column_compactor::{clear, pick};

/// One warp of the current TOS: its threads at their home rows.
#[derive(Clone, Debug)]
pub struct CtaWarp {
    pub rows: Vec<u64>,
}

/// The warps a TOS runs: at launch (`all_static`) one static warp per non-empty row;
/// else the warps that bypassed into this path (`bypassed`: their threads on it) and
/// the compacted warps (the column compactor) of the threads that waited
/// (`mask & umask`, one lane mask per row each). Any of them may bypass next.
pub fn form_warps(
    mask: &[u64],
    umask: &[u64],
    bypassed: &[Vec<u64>],
    lanes: usize,
    all_static: bool,
) -> Vec<CtaWarp> {
    let n = mask.len();
    if all_static {
        return (0..n)
            .filter(|&w| mask[w] != 0)
            .map(|w| {
                let mut rows = vec![0; n];
                rows[w] = mask[w];
                CtaWarp { rows }
            })
            .collect();
    }
    let mut out: Vec<CtaWarp> = bypassed
        .iter()
        .filter(|b| b.iter().any(|&r| r != 0))
        .map(|b| CtaWarp { rows: b.clone() })
        .collect();
    let mut held: Vec<u64> = mask.iter().zip(umask).map(|(&m, &u)| m & u).collect();
    loop {
        let g = pick(&held, lanes, |_| true);
        if g.lanes == 0 {
            break;
        }
        let mut rows = vec![0; n];
        for c in 0..lanes {
            if g.lanes >> c & 1 == 1 {
                rows[g.rows[c]] |= 1 << c;
            }
        }
        clear(&mut held, &g);
        out.push(CtaWarp { rows });
    }
    out
}

/// Whether `warps` hold every thread of `mask` exactly once (none lost, none
/// duplicated, none from outside the mask); the first thread that breaks it if not.
pub fn partition_error(mask: &[u64], warps: &[CtaWarp]) -> Option<String> {
    let mut seen = vec![0u64; mask.len()];
    for w in warps {
        for (r, &m) in w.rows.iter().enumerate() {
            if seen[r] & m != 0 {
                return Some(format!("row {r} lanes {:b} in two warps", seen[r] & m));
            }
            seen[r] |= m;
        }
    }
    (seen != mask).then(|| format!("warps cover {seen:x?}, the TOS mask is {mask:x?}"))
}

#[derive(Clone, Debug)]
pub struct StackInputs {
    pub reset: bool,
    pub event: Event,
}

pub struct TbcStackBench<
    const WARPS: usize,
    const LANES: usize,
    const N: usize,
    const DEPTH: usize,
    const DW: usize,
    const CW: usize,
> {
    pub uut: TbcStack<WARPS, LANES, N, DEPTH, DW, CW>,
    pub model: Model,
    pub inputs: StackInputs,
    /// Warps of the TOS that have not sent their event yet.
    todo: Vec<CtaWarp>,
    /// The TOS's warps end with a branch (else a reconvergence).
    branching: bool,
    style: u8,
    pcs: (u32, u32, u32),
    /// An illegal event was sent since the last reset: `error`/`overflow` may be set.
    illegal: bool,
    /// The TOS changed on the last edge: plan its warps (`Some(all static)`).
    replan: Option<bool>,
    /// The warps just formed and the TOS `WCnt` they must match, and whether they
    /// partition the TOS mask (`Some(the first break)` if not).
    formed: Option<(usize, usize, Option<String>)>,
    /// Per stack entry (as the model's `entries`): the warps that bypassed into it,
    /// each as its threads on that path; `pend_bypassed`: the same for the pending
    /// (not-taken, taken) entries. The driver's own record of the warps, so that the
    /// warps it forms for a TOS are checked against the stack's mask and `umask`.
    bypassed: Vec<Vec<Vec<u64>>>,
    pend_bypassed: (Vec<Vec<u64>>, Vec<Vec<u64>>),
    /// Bypasses by warps whose threads come from more than one home row (compacted
    /// warps): the coverage a per-warp update mask could not take.
    pub mixed_bypasses: u64,
    /// Divergent branches resolved, by rule: see `Hits`.
    pub hits: Hits,
}

/// Divergent branches (both paths live) resolved, by what the depth rules do.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hits {
    /// The TOS was replaced (its rpc is the branch's, not the base).
    pub replaced: u64,
    /// A path at the reconvergence PC was not pushed.
    pub path_at_rpc: u64,
    /// Both paths at the reconvergence PC: nothing pushed.
    pub none_pushed: u64,
    /// Both paths pushed on a TOS that re-formed at rpc (the paper's case).
    pub both_pushed: u64,
}

/// What a divergent branch's last warp does to the stack, worked out from the
/// entries before it: (replace, not-taken pushed, taken pushed).
#[derive(Clone, Copy, Debug)]
struct Resolution {
    replace: bool,
    nt_push: bool,
    tk_push: bool,
}

impl<
        const WARPS: usize,
        const LANES: usize,
        const N: usize,
        const DEPTH: usize,
        const DW: usize,
        const CW: usize,
    > crate::presets::Tested for TbcStack<WARPS, LANES, N, DEPTH, DW, CW>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![
            ("CTA_WARPS", WARPS),
            ("LANES", LANES),
            ("DEPTH", DEPTH),
            ("PCW", 32),
        ]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(TbcStackBench::<WARPS, LANES, N, DEPTH, DW, CW>::default())
    }
    fn properties() -> Option<crate::presets::Properties> {
        // The harness names the registers of up to eight entries.
        (DEPTH <= 8).then_some(crate::presets::Properties {
            harness: include_str!("tbc_stack.props.v"),
            planted: PLANTED,
        })
    }
}

/// Bugs planted in the exported Verilog (of `tbc_stack_3x4`), each caught by the
/// property named. A property other than an invariant (`p_inv_*`) is caught by its own
/// clause: its bug leaves the entries fitting and the pending update mask the
/// contract's (`tests/prove.rs` checks that the invariants still hold on it).
const PLANTED: &[(&str, &str, &str)] = &[
    // A branch is taken with one entry too few left: its two paths overflow the stack.
    (
        "p_inv_room",
        "localparam  push_limit = 4'h6;",
        "localparam  push_limit = 4'h7;",
    ),
    // A bypass clears its taken threads only: its not-taken ones stay waiting.
    (
        "p_inv_pending_umask",
        "new_umask = new_umask & ~(taken | not_taken);",
        "new_umask = new_umask & ~taken;",
    ),
    // The not-taken path, alone live, forgets its bypassed threads.
    (
        "p_branch_umask",
        "tos_umask_val = new_umask;\n                    tos_wcnt_val = new_nt_wcnt",
        "tos_umask_val = all_threads;\n                    tos_wcnt_val = new_nt_wcnt",
    ),
    (
        "p_launch_umask",
        "e_umask$0$d = all_threads;",
        "e_umask$0$d = zero_mask;",
    ),
    (
        "p_pending_wcnt",
        "new_tk_wcnt = new_tk_wcnt + c_one;",
        "new_tk_wcnt = new_tk_wcnt;",
    ),
    // A taken path at the rpc is pushed anyway (the depth grows per loop iteration).
    (
        "p_depth",
        "tk_push = br_tk_pc != br_rpc;",
        "tk_push = 1'b1;",
    ),
    // A TOS that already reconverges at the rpc is not replaced.
    (
        "p_depth",
        "replace = (used$q != d_one) & (t_rpc == br_rpc);",
        "replace = 1'b0;",
    ),
    // The re-formed TOS keeps the update mask it had.
    (
        "p_join",
        "tos_umask_val = all_threads;",
        "tos_umask_val = t_umask;",
    ),
];

impl<
        const WARPS: usize,
        const LANES: usize,
        const N: usize,
        const DEPTH: usize,
        const DW: usize,
        const CW: usize,
    > Default for TbcStackBench<WARPS, LANES, N, DEPTH, DW, CW>
{
    fn default() -> Self {
        let mut uut = TbcStack::default();
        uut.connect_all();
        TbcStackBench {
            uut,
            model: Model::new(WARPS, LANES, DEPTH),
            inputs: StackInputs {
                reset: false,
                event: Event::None,
            },
            todo: vec![],
            branching: true,
            style: 0,
            pcs: (0, 0, 0),
            illegal: false,
            replan: None,
            formed: None,
            bypassed: vec![],
            pend_bypassed: (vec![], vec![]),
            mixed_bypasses: 0,
            hits: Hits::default(),
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
    > TbcStackBench<WARPS, LANES, N, DEPTH, DW, CW>
{
    pub fn apply(&mut self, i: StackInputs) {
        self.uut.reset.next = i.reset;
        let zero = vec![0u64; WARPS];
        let (op, tk, nt, tpc, npc, rpc, stall) = match &i.event {
            Event::None => (0u64, &zero, &zero, 0, 0, 0, false),
            Event::Launch { mask, pc, rpc } => (1, mask, &zero, *pc, 0, *rpc, false),
            Event::Branch {
                stall,
                taken,
                not_taken,
                taken_pc,
                not_taken_pc,
                rpc,
            } => (2, taken, not_taken, *taken_pc, *not_taken_pc, *rpc, *stall),
            Event::Reconverge => (3, &zero, &zero, 0, 0, 0, false),
        };
        self.uut.op.next = op.into();
        self.uut.taken.next = bits_from_rows(tk, LANES);
        self.uut.not_taken.next = bits_from_rows(nt, LANES);
        self.uut.taken_pc.next = (tpc as u64).into();
        self.uut.not_taken_pc.next = (npc as u64).into();
        self.uut.rpc.next = (rpc as u64).into();
        self.uut.stall.next = stall;
        self.inputs = i;
    }

    /// Starts a new TOS visit: its warps and what they will do.
    fn plan(&mut self, rng: &mut ChaCha8Rng, all_static: bool) {
        let Some(t) = self.model.tos() else {
            self.todo.clear();
            return;
        };
        let none = vec![];
        let bypassed = self.bypassed.last().unwrap_or(&none);
        self.todo = form_warps(&t.mask, &t.umask, bypassed, LANES, all_static);
        let depth = self.model.entries.len();
        self.branching = if depth + 2 > DEPTH {
            rng.gen_ratio(1, 10)
        } else if depth == 1 {
            rng.gen_ratio(4, 5)
        } else {
            rng.gen_ratio(1, 2)
        };
        self.style = rng.gen_range(0..5);
        let mut pcs: (u32, u32, u32) = (rng.gen(), rng.gen(), rng.gen());
        // The TOS's own join (replaces the TOS but at the base), and targets at the
        // join (an if-then, a loop's back edge, an empty if-else), often enough.
        if rng.gen_ratio(1, 2) {
            pcs.2 = t.rpc;
        }
        match rng.gen_range(0..5) {
            0 => pcs.1 = pcs.2,
            1 => pcs.0 = pcs.2,
            2 => (pcs.0, pcs.1) = (pcs.2, pcs.2),
            _ => {}
        }
        self.pcs = pcs;
    }

    /// The depth rules for a branch the model takes, if it is the last warp of a
    /// divergent one.
    fn resolution(&self, event: &Event) -> Option<Resolution> {
        let Event::Branch {
            taken,
            not_taken,
            taken_pc,
            not_taken_pc,
            rpc,
            ..
        } = event
        else {
            return None;
        };
        let m = &self.model;
        let t = m.tos()?;
        if t.wcnt != 1 {
            return None;
        }
        let live = |prev: Option<&Vec<u64>>, new: &[u64]| {
            let bits = crate::capri::adequacy_evaluator::lane_mask(LANES);
            (0..WARPS).any(|w| (prev.map_or(0, |p| p[w]) | new[w]) & bits != 0)
        };
        let (tk_pc, nt_pc, rpc) = match &m.pend {
            Some((nt, tk)) => (tk.pc, nt.pc, tk.rpc),
            None => (*taken_pc, *not_taken_pc, *rpc),
        };
        let tk_live = live(m.pend.as_ref().map(|p| &p.1.mask), taken);
        let nt_live = live(m.pend.as_ref().map(|p| &p.0.mask), not_taken);
        (tk_live && nt_live).then_some(Resolution {
            replace: m.entries.len() > 1 && t.rpc == rpc,
            nt_push: nt_pc != rpc,
            tk_push: tk_pc != rpc,
        })
    }

    /// Whether the model takes `event` (else it drops it and flags it).
    fn applies(&self, event: &Event) -> bool {
        let m = &self.model;
        let legal = m.tos().is_some_and(|t| t.wcnt != 0);
        match event {
            Event::Launch { .. } => true,
            Event::Branch { .. } => legal && (m.pend.is_some() || m.entries.len() + 2 <= DEPTH),
            Event::Reconverge => legal && m.pend.is_none(),
            Event::None => false,
        }
    }

    /// Follows the warps that bypass through the model's entries, after the model has
    /// taken `event` (`depth`: its entries before).
    fn record_bypass(&mut self, event: &Event, depth: usize, res: Option<Resolution>) {
        match event {
            Event::Launch { .. } => {
                self.bypassed = vec![vec![]];
                self.pend_bypassed = (vec![], vec![]);
            }
            Event::Branch {
                stall,
                taken,
                not_taken,
                ..
            } => {
                if !stall {
                    let rows = taken.iter().zip(not_taken).filter(|(a, b)| *a | *b != 0);
                    if rows.count() > 1 {
                        self.mixed_bypasses += 1;
                    }
                    if taken.iter().any(|&r| r != 0) {
                        self.pend_bypassed.1.push(taken.clone());
                    }
                    if not_taken.iter().any(|&r| r != 0) {
                        self.pend_bypassed.0.push(not_taken.clone());
                    }
                }
                if self.model.changed {
                    let (nt, tk) = std::mem::take(&mut self.pend_bypassed);
                    if let Some(r) = res {
                        if r.replace {
                            // Popped: the entry below keeps its own bypassed warps.
                            self.bypassed.pop();
                        } else if let Some(b) = self.bypassed.last_mut() {
                            // The TOS re-formed at rpc: every thread waits.
                            b.clear();
                        }
                        // A path at rpc is not pushed: its bypassed warps wait there.
                        if r.nt_push {
                            self.bypassed.push(nt);
                        }
                        if r.tk_push {
                            self.bypassed.push(tk);
                        }
                    } else if let Some(b) = self.bypassed.last_mut() {
                        // One path live: the other path's list is empty.
                        *b = nt.into_iter().chain(tk).collect();
                    }
                }
            }
            Event::Reconverge => {
                if self.model.entries.len() < depth {
                    self.bypassed.pop();
                }
            }
            Event::None => {}
        }
    }

    fn branch_of(&self, w: &CtaWarp, rng: &mut ChaCha8Rng, stall: bool) -> Event {
        let mut taken = vec![0; WARPS];
        let mut not_taken = vec![0; WARPS];
        for (r, &m) in w.rows.iter().enumerate() {
            let t = match self.style {
                0 => m,
                1 => 0,
                2 => m & rng.gen::<u64>(),
                3 => m & 1, // `tx == 0`: lane 0 taken in every warp
                _ => {
                    if rng.gen_bool(0.5) {
                        m
                    } else {
                        0
                    }
                }
            };
            taken[r] = t;
            not_taken[r] = m & !t;
        }
        Event::Branch {
            stall,
            taken,
            not_taken,
            taken_pc: self.pcs.0,
            not_taken_pc: self.pcs.1,
            rpc: self.pcs.2,
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
    > Bench for TbcStackBench<WARPS, LANES, N, DEPTH, DW, CW>
{
    crate::bench_rtl_access!(clocked);
    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        self.formed = None;
        if let Some(all_static) = self.replan.take() {
            self.plan(rng, all_static);
            if !all_static && !self.illegal {
                if let Some(t) = self.model.tos() {
                    let split = partition_error(&t.mask, &self.todo);
                    self.formed = Some((self.todo.len(), t.wcnt, split));
                }
            }
        }
        let reset = cycle == 0 || rng.gen_ratio(1, 3000);
        // After an illegal event the driver's view is stale: relaunch soon.
        let event = if self.model.tos().is_none() || self.illegal && rng.gen_ratio(1, 4) {
            let bits = crate::capri::adequacy_evaluator::lane_mask(LANES);
            let mut mask: Vec<u64> = (0..WARPS)
                .map(|_| match rng.gen_range(0..4) {
                    0 => rng.gen::<u64>() & bits,
                    1 => 0,
                    _ => bits,
                })
                .collect();
            mask[rng.gen_range(0..WARPS)] |= 1;
            Event::Launch {
                mask,
                pc: rng.gen(),
                rpc: rng.gen(),
            }
        } else if rng.gen_ratio(1, 3) {
            Event::None
        } else if rng.gen_ratio(1, 400) {
            // Illegal on purpose: a reconvergence while a branch is pending, or an
            // event after every warp has arrived (`WCnt` would underflow).
            if self.model.pend.is_some() || self.todo.is_empty() {
                Event::Reconverge
            } else {
                Event::None
            }
        } else if let Some(k) = (!self.todo.is_empty()).then(|| rng.gen_range(0..self.todo.len())) {
            let w = self.todo[k].clone();
            if self.branching {
                // Any warp may bypass: a static one, one that bypassed before, or a
                // compacted one mixing home rows.
                let stall = rng.gen_bool(0.5);
                self.branch_of(&w, rng, stall)
            } else {
                Event::Reconverge
            }
        } else {
            Event::None
        };
        self.apply(StackInputs { reset, event });
    }
    fn check(&mut self) -> Result<(), Mismatch> {
        let m = &self.model;
        let t = m.tos();
        expect("valid", t.is_some(), self.uut.valid.val())?;
        expect("depth", m.entries.len() as u64, small(self.uut.depth.val()))?;
        expect(
            "tos_pc",
            t.map_or(0, |t| t.pc) as u64,
            small(self.uut.tos_pc.val()),
        )?;
        expect(
            "tos_rpc",
            t.map_or(0, |t| t.rpc) as u64,
            small(self.uut.tos_rpc.val()),
        )?;
        expect(
            "tos_mask",
            t.map_or(vec![0; WARPS], |t| t.mask.clone()),
            rows_from_bits(self.uut.tos_mask.val(), LANES),
        )?;
        expect(
            "tos_umask",
            t.map_or(vec![0; WARPS], |t| t.umask.clone()),
            rows_from_bits(self.uut.tos_umask.val(), LANES),
        )?;
        expect(
            "tos_wcnt",
            t.map_or(0, |t| t.wcnt) as u64,
            small(self.uut.tos_wcnt.val()),
        )?;
        expect("pending", m.pend.is_some(), self.uut.pending.val())?;
        expect("changed", m.changed, self.uut.changed.val())?;
        expect("wcu_useful", m.wcu_useful, self.uut.wcu_useful.val())?;
        expect("overflow", m.overflow, self.uut.overflow.val())?;
        expect("error", m.error, self.uut.error.val())?;
        if let Some((formed, wcnt, split)) = &self.formed {
            contract(
                "the new TOS's WCnt counts its warps (bypassed + compacted)",
                formed == wcnt,
                || format!("{formed} warps formed, WCnt {wcnt}"),
            )?;
            contract(
                "the bypassed and the compacted warps of the new TOS hold each of its threads once",
                split.is_none(),
                || split.clone().unwrap_or_default(),
            )?;
        }
        contract(
            "no error or overflow from legal events",
            self.illegal || !(m.error || m.overflow),
            || "flag set".into(),
        )
    }
    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs.clone();
        let legal_kind = match &i.event {
            Event::Branch { .. } => self.branching,
            Event::Reconverge => !self.branching,
            _ => true,
        };
        let counted = matches!(i.event, Event::Branch { .. } | Event::Reconverge);
        if !i.reset && counted {
            let wcnt = self.model.tos().map_or(0, |t| t.wcnt);
            let is_legal = legal_kind
                && !self.todo.is_empty()
                && wcnt > 0
                && !(matches!(i.event, Event::Reconverge) && self.model.pend.is_some());
            if !is_legal
                || (matches!(i.event, Event::Branch { .. })
                    && self.model.pend.is_none()
                    && self.model.entries.len() + 2 > DEPTH)
            {
                self.illegal = true;
            } else {
                contract("WCnt never underflows", wcnt >= 1, || {
                    "event at WCnt 0".into()
                })?;
            }
        }
        let depth = self.model.entries.len();
        let applies = self.applies(&i.event);
        let res = (!i.reset && applies)
            .then(|| self.resolution(&i.event))
            .flatten();
        self.model.clock(i.reset, &i.event);
        if let Some(r) = res {
            let pushed = usize::from(r.nt_push) + usize::from(r.tk_push);
            let expected = depth - usize::from(r.replace) + pushed;
            contract(
                "a divergent branch leaves depth - replaced + paths not at rpc",
                self.model.entries.len() == expected,
                || {
                    format!(
                        "{depth} entries before, {} after, {r:?}",
                        self.model.entries.len()
                    )
                },
            )?;
            self.hits.replaced += u64::from(r.replace);
            self.hits.path_at_rpc += u64::from(!r.nt_push || !r.tk_push);
            self.hits.none_pushed += u64::from(pushed == 0);
            self.hits.both_pushed += u64::from(pushed == 2 && !r.replace);
        }
        if !i.reset && applies {
            self.record_bypass(&i.event, depth, res);
        }
        if i.reset {
            self.illegal = false;
            self.todo.clear();
            self.replan = None;
            self.bypassed.clear();
            self.pend_bypassed = (vec![], vec![]);
        } else if matches!(i.event, Event::Launch { .. }) {
            // `error` and `overflow` are sticky until reset: `illegal` stays.
            self.replan = Some(true);
        } else if self.model.changed {
            self.replan = Some(false);
        } else if counted && !self.illegal {
            // One warp arrived.
            if let Event::Branch {
                taken, not_taken, ..
            } = &i.event
            {
                let rows: Vec<u64> = taken.iter().zip(not_taken).map(|(a, b)| a | b).collect();
                if let Some(k) = self.todo.iter().position(|w| w.rows == rows) {
                    self.todo.swap_remove(k);
                }
            } else {
                self.todo.pop();
            }
        }
        Ok(())
    }
}
