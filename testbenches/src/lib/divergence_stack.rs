//! Divergence stack bench: RTL vs model with the SPEC §2.4 contracts.
//!
//! Stimulus follows the protocol of a warp: `init` when the stack is empty (and rarely
//! over a running warp), then branches whose taken masks are mostly subsets of the
//! current mask and PC updates whose next PC often hits the top's reconvergence PC.
//! PCs come from a small pool so that targets coincide with reconvergence PCs (empty
//! then/else blocks, shared reconvergence points), with rare full-width PCs; branches
//! often reconverge where the top does (a loop's back branch) or send a path straight
//! to the reconvergence PC, the two cases SPEC §2.4 keeps off the stack.
use crate::bench::{contract, expect, settle, Bench, Mismatch};
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::lib::divergence_stack::DivergenceStack;
use weft_sim::lib::divergence_stack::{DivergenceStack as Model, Inputs, Outputs};

pub struct DivergenceStackBench<
    const LANES: usize,
    const DEPTH: usize,
    const PCW: usize,
    const DW: usize,
> {
    pub uut: DivergenceStack<LANES, DEPTH, PCW, DW>,
    pub model: Model,
    pub inputs: Inputs,
    /// Contract bookkeeping: the outputs seen last cycle and the inputs of last edge.
    prev: Option<(Outputs, Inputs)>,
    /// Mask seen when the stack was last at each depth (index = depth); entries deeper
    /// than the current depth are forgotten.
    seen_mask: Vec<Option<u64>>,
}

impl<const LANES: usize, const DEPTH: usize, const PCW: usize, const DW: usize>
    crate::presets::Tested for DivergenceStack<LANES, DEPTH, PCW, DW>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![("LANES", LANES), ("DEPTH", DEPTH), ("PCW", PCW)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(DivergenceStackBench::<LANES, DEPTH, PCW, DW>::default())
    }
    /// The harness reads the registers of up to eight entries.
    fn properties() -> Option<crate::presets::Properties> {
        (DEPTH <= 8).then_some(crate::presets::Properties {
            harness: include_str!("divergence_stack.props.v"),
            planted: PLANTED,
        })
    }
}

/// Bugs planted in the exported Verilog (of `divergence_stack`), each caught by the
/// property named. A property other than an invariant (`p_inv_*`) is caught by its own
/// clause: its bug leaves the depth within DEPTH, the base's rpc 0 and no entry above the
/// base at its rpc (`tests/prove.rs` checks that the invariants still hold on it).
const PLANTED: &[(&str, &str, &str)] = &[
    // A full stack takes one more push: a depth of DEPTH + 1.
    (
        "p_inv_depth_bounded",
        "room_one = 1'b0;",
        "room_one = 1'b1;",
    ),
    // `init` gives the base entry its own PC as rpc.
    (
        "p_inv_base_rpc",
        "entry_rpc$0$d = pc_zero;",
        "entry_rpc$0$d = init_pc;",
    ),
    // A branch reconverging where the top does stacks a join entry already at its rpc.
    (
        "p_inv_settled",
        "replace = (count$q != count_one) & (top_rpc == reconv_pc);",
        "replace = 1'b0;",
    ),
    // The not-taken path is pushed even when it is the reconvergence PC.
    (
        "p_inv_settled",
        "push_not_taken = not_taken_pc != reconv_pc;",
        "push_not_taken = 1'b1;",
    ),
    // Reset keeps `overflow`. (Reset keeping the depth is no clause-only bug: a push in
    // the reset cycle still writes the entries, and the depth kept breaks
    // `p_inv_settled`.)
    (
        "p_reset_empties",
        "overflowed$d = 1'b0;",
        "overflowed$d = overflowed$q;",
    ),
    // An empty stack shows entry 0's PC (reset keeps the entries).
    (
        "p_empty_and_base_outputs",
        "top_pc = pc_zero;",
        "top_pc = entry_pc$0$q;",
    ),
    // The base entry shows its PC as its rpc.
    (
        "p_empty_and_base_outputs",
        "top_rpc = entry_rpc$0$q;",
        "top_rpc = entry_pc$0$q;",
    ),
    // At depth 2 the mask shown is entry 0's.
    (
        "p_top_is_entry",
        "top_mask = entry_mask$1$q;",
        "top_mask = entry_mask$0$q;",
    ),
    // `init` stores its mask ANDed with the taken mask.
    (
        "p_init_starts_warp",
        "entry_mask$0$d = init_mask;",
        "entry_mask$0$d = init_mask & taken_mask;",
    ),
    // The not-taken entry pushed into entry 1 gets the whole parent mask.
    (
        "p_divergent_push",
        "entry_mask$1$d = not_taken_now;",
        "entry_mask$1$d = top_mask;",
    ),
    // A branch that overflows does not set `overflow`.
    ("p_overflow", "overflowed$d = 1'b1;", "overflowed$d = 1'b0;"),
    // An advance takes the fall-through PC, not next_pc.
    (
        "p_pc_update",
        "moved_pc = next_pc;",
        "moved_pc = not_taken_pc;",
    ),
    // The base entry pops too when its PC reaches its rpc (0).
    (
        "p_pop_reconverged",
        "if (do_move & (moved_pc == top_rpc) & (count$q != count_one)) begin",
        "if (do_move & (moved_pc == top_rpc)) begin",
    ),
    // The pop compares the PCs without their lowest bit: the top pops one address
    // before (or after) its rpc, an entry that has not reached it.
    (
        "p_pop_reconverged",
        "if (do_move & (moved_pc == top_rpc) & (count$q != count_one)) begin",
        "if (do_move & (moved_pc[31:1] == top_rpc[31:1]) & (count$q != count_one)) begin",
    ),
    // Entry 0's mask is ANDed with the top's on every edge.
    (
        "p_below_top_kept",
        "entry_mask$0$d = entry_mask$0$q;",
        "entry_mask$0$d = entry_mask$0$q & top_mask;",
    ),
    // The taken path is never pushed: a divergent branch leaves one entry too few.
    (
        "p_bounded_by_nesting",
        "push_taken = taken_pc != reconv_pc;",
        "push_taken = 1'b0;",
    ),
];

impl<const LANES: usize, const DEPTH: usize, const PCW: usize, const DW: usize> Default
    for DivergenceStackBench<LANES, DEPTH, PCW, DW>
{
    fn default() -> Self {
        let mut uut = DivergenceStack::default();
        uut.connect_all();
        DivergenceStackBench {
            uut,
            model: Model::new(LANES, DEPTH),
            inputs: Inputs::default(),
            prev: None,
            seen_mask: vec![None; DEPTH + 1],
        }
    }
}

fn bits_mask(bits: usize) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

impl<const LANES: usize, const DEPTH: usize, const PCW: usize, const DW: usize>
    DivergenceStackBench<LANES, DEPTH, PCW, DW>
{
    /// Applies explicit inputs (directed tests use this instead of `drive`).
    pub fn apply(&mut self, inputs: Inputs) {
        let pc = |v: u64| Bits::<PCW>::from(v & bits_mask(PCW));
        let lanes = |v: u64| Bits::<LANES>::from(v & bits_mask(LANES));
        self.uut.reset.next = inputs.reset;
        self.uut.init.next = inputs.init;
        self.uut.init_mask.next = lanes(inputs.init_mask);
        self.uut.init_pc.next = pc(inputs.init_pc);
        self.uut.branch.next = inputs.branch;
        self.uut.taken_mask.next = lanes(inputs.taken_mask);
        self.uut.taken_pc.next = pc(inputs.taken_pc);
        self.uut.not_taken_pc.next = pc(inputs.not_taken_pc);
        self.uut.reconv_pc.next = pc(inputs.reconv_pc);
        self.uut.advance.next = inputs.advance;
        self.uut.next_pc.next = pc(inputs.next_pc);
        // The model sees what the ports carry.
        self.inputs = Inputs {
            init_mask: inputs.init_mask & bits_mask(LANES),
            init_pc: inputs.init_pc & bits_mask(PCW),
            taken_mask: inputs.taken_mask & bits_mask(LANES),
            taken_pc: inputs.taken_pc & bits_mask(PCW),
            not_taken_pc: inputs.not_taken_pc & bits_mask(PCW),
            reconv_pc: inputs.reconv_pc & bits_mask(PCW),
            next_pc: inputs.next_pc & bits_mask(PCW),
            ..inputs
        };
    }

    /// One whole cycle with explicit inputs, as the runner would do it: drive, settle,
    /// check, edge, settle, tick.
    pub fn step(&mut self, inputs: Inputs) -> Result<(), Mismatch> {
        self.set_clock(false);
        self.apply(inputs);
        settle(self.block_mut())?;
        self.check()?;
        self.set_clock(true);
        settle(self.block_mut())?;
        self.tick()
    }

    /// The RTL's outputs this cycle.
    pub fn rtl_outputs(&self) -> Outputs {
        Outputs {
            pc: small(self.uut.pc.val()),
            mask: small(self.uut.mask.val()),
            rpc: small(self.uut.rpc.val()),
            depth: small(self.uut.depth.val()) as usize,
            overflow: self.uut.overflow.val(),
        }
    }

    fn random_pc(rng: &mut ChaCha8Rng) -> u64 {
        if rng.gen_ratio(1, 20) {
            rng.gen::<u64>()
        } else {
            rng.gen_range(0..12u64) * 4
        }
    }

    fn random_mask(rng: &mut ChaCha8Rng) -> u64 {
        match rng.gen_range(0..5) {
            0 => u64::MAX,
            1 => 0,
            _ => rng.gen::<u64>() | rng.gen::<u64>(),
        }
    }
}

impl<const LANES: usize, const DEPTH: usize, const PCW: usize, const DW: usize> Bench
    for DivergenceStackBench<LANES, DEPTH, PCW, DW>
{
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        let now = self.model.outputs();
        let pc = Self::random_pc;
        // Every field random (inactive inputs carry junk), then the protocol on top.
        let mut i = Inputs {
            reset: cycle == 0 || rng.gen_ratio(1, 400),
            init: false,
            init_mask: Self::random_mask(rng),
            init_pc: pc(rng),
            branch: false,
            taken_mask: rng.gen(),
            taken_pc: pc(rng),
            not_taken_pc: pc(rng),
            reconv_pc: pc(rng),
            advance: false,
            next_pc: pc(rng),
        };
        if now.depth == 0 {
            i.init = rng.gen_bool(0.5);
        } else {
            match rng.gen_range(0..100) {
                0..=3 => i.init = true,
                4..=48 => {
                    i.branch = true;
                    // Mostly a subset of the active mask; sometimes junk outside it.
                    if rng.gen_bool(0.8) {
                        i.taken_mask &= now.mask;
                    }
                    // Nested branches reconverging where the top does (loops: the top
                    // is replaced), and paths already at the reconvergence PC (not
                    // pushed): the refinements of SPEC §2.4.
                    if now.depth > 1 && rng.gen_ratio(1, 3) {
                        i.reconv_pc = now.rpc;
                    }
                    match rng.gen_range(0..10) {
                        0 | 1 => i.taken_pc = i.reconv_pc,
                        2 | 3 => i.not_taken_pc = i.reconv_pc,
                        4 => (i.taken_pc, i.not_taken_pc) = (i.reconv_pc, i.reconv_pc),
                        _ => {}
                    }
                    // Both branch and advance: branch must win.
                    i.advance = rng.gen_ratio(1, 10);
                }
                49..=89 => {
                    i.advance = true;
                    if now.depth > 1 && rng.gen_bool(0.5) {
                        i.next_pc = now.rpc;
                    }
                }
                _ => {}
            }
        }
        self.apply(i);
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let want = self.model.outputs();
        let got = self.rtl_outputs();
        expect("pc", want.pc, got.pc)?;
        expect("mask", want.mask, got.mask)?;
        expect("rpc", want.rpc, got.rpc)?;
        expect("depth", want.depth, got.depth)?;
        expect("overflow", want.overflow, got.overflow)?;
        // Contracts on the RTL's own outputs.
        contract("the stack never exceeds DEPTH", got.depth <= DEPTH, || {
            format!("depth {} > {DEPTH}", got.depth)
        })?;
        contract(
            "an empty stack shows nothing",
            got.depth != 0 || (got.pc == 0 && got.mask == 0 && got.rpc == 0),
            || format!("{got:?}"),
        )?;
        contract(
            "the top never sits at its reconvergence PC",
            got.depth <= 1 || got.pc != got.rpc,
            || format!("pc {:#x} == rpc at depth {}", got.pc, got.depth),
        )?;
        if let Some((before, last)) = &self.prev {
            let restarted = last.reset || last.init;
            if !last.reset {
                contract(
                    "overflow is sticky until reset",
                    !before.overflow || got.overflow,
                    || "overflow cleared without reset".into(),
                )?;
            }
            if !restarted {
                contract(
                    "at most two pushes per edge",
                    got.depth <= before.depth + 2,
                    || format!("depth {} -> {}", before.depth, got.depth),
                )?;
                // A divergent branch leaves `depth - replaced + pushed` entries (SPEC
                // §2.4): paths at the reconvergence PC are not pushed, and a top whose
                // rpc is the branch's (not the base) is replaced.
                let divergent = last.branch
                    && before.depth != 0
                    && before.mask & last.taken_mask != 0
                    && before.mask & !last.taken_mask != 0;
                let replaced = before.depth > 1 && before.rpc == last.reconv_pc;
                let pushed = usize::from(last.taken_pc != last.reconv_pc)
                    + usize::from(last.not_taken_pc != last.reconv_pc);
                let after = before.depth + pushed - usize::from(replaced);
                let overflowing = divergent && after > DEPTH;
                if divergent && !overflowing {
                    contract(
                        "a divergent branch pushes only the paths not at the reconvergence PC, replacing a top that reconverges there",
                        got.depth == after && got.overflow == before.overflow,
                        || format!("before {before:?}, after {got:?}, inputs {last:?}"),
                    )?;
                }
                if overflowing {
                    contract(
                        "an overflowing push changes nothing but the flag",
                        got.overflow
                            && got.pc == before.pc
                            && got.mask == before.mask
                            && got.rpc == before.rpc
                            && got.depth == before.depth,
                        || format!("before {before:?}, after {got:?}"),
                    )?;
                }
                if got.depth > before.depth {
                    contract(
                        "a pushed path's mask is a subset of its parent's",
                        got.mask & !before.mask == 0 && got.mask != 0,
                        || format!("mask {:#x}, parent {:#x}", got.mask, before.mask),
                    )?;
                }
                if got.depth < before.depth {
                    if let Some(m) = self.seen_mask[got.depth] {
                        contract(
                            "popping back restores the mask the warp had at that depth",
                            got.mask == m,
                            || format!("mask {:#x}, was {m:#x}", got.mask),
                        )?;
                    }
                }
            }
            if restarted {
                self.seen_mask.iter_mut().for_each(|m| *m = None);
            }
            // A replaced top's entry (and what was above it) holds other threads now.
            if !restarted && last.branch && before.depth > 1 && before.rpc == last.reconv_pc {
                for m in self.seen_mask.iter_mut().skip(before.depth) {
                    *m = None;
                }
            }
        }
        for m in self.seen_mask.iter_mut().skip(got.depth + 1) {
            *m = None;
        }
        self.seen_mask[got.depth] = Some(got.mask);
        self.prev = Some((got, self.inputs.clone()));
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        self.model.clock(&self.inputs);
        Ok(())
    }
}
