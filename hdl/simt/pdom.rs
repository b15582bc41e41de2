//! The SIMT core's divergence policy: PDOM, one `divergence_stack` per warp (SPEC
//! §2.4), as `sim/core/simt/divergence/pdom.rs` runs it in the core model.
//!
//! The core sees a policy through these ports only, so LWM, TBC/CAPRI or DoM can
//! take its place with the same interface: per warp, what to fetch (`pc`, `mask`);
//! for the warp `sel` that executes, a branch (taken threads, the two targets and the
//! reconvergence PC) or a move to `next_pc`; a warp's start. A warp whose threads all
//! returned shows `pc` = the exit PC with one entry (`exited`).
//!
//! Latency: an event on edge `t` shows on the warp's outputs in cycle `t+1`.
//! Storage: the `W` stacks' (`divergence_stack.rs`).
use crate::lib::divergence_stack::DivergenceStack;
use rust_hdl::prelude::*;

/// PDOM over `W` warps of `L` lanes, stacks of `DEPTH` entries (`DW = clog2(DEPTH+1)`),
/// warp numbers of `WW` bits.
#[derive(LogicBlock)]
pub struct Pdom<
    const W: usize,
    const L: usize,
    const DEPTH: usize,
    const DW: usize,
    const WW: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: every stack empty.
    pub reset: Signal<In, Bit>,
    // warp start
    /// Warp `init_warp` starts at `init_pc` with the threads of `init_mask`.
    pub init: Signal<In, Bit>,
    pub init_warp: Signal<In, Bits<WW>>,
    pub init_mask: Signal<In, Bits<L>>,
    pub init_pc: Signal<In, Bits<32>>,
    // the executing warp
    /// The warp the events below belong to.
    pub sel: Signal<In, Bits<WW>>,
    /// It resolved a conditional branch.
    pub branch: Signal<In, Bit>,
    pub taken_mask: Signal<In, Bits<L>>,
    pub taken_pc: Signal<In, Bits<32>>,
    pub not_taken_pc: Signal<In, Bits<32>>,
    pub reconv_pc: Signal<In, Bits<32>>,
    /// It moves to `next_pc` (any other instruction).
    pub advance: Signal<In, Bit>,
    pub next_pc: Signal<In, Bits<32>>,
    // per warp (registered)
    /// What warp `w` fetches next: its PC and active threads.
    pub pc: [Signal<Out, Bits<32>>; W],
    pub mask: [Signal<Out, Bits<L>>; W],
    /// The warp's stack holds only its base entry.
    pub converged: [Signal<Out, Bit>; W],
    /// Sticky: some warp's stack overflowed.
    pub overflow: Signal<Out, Bit>,
    stack: [DivergenceStack<L, DEPTH, 32, DW>; W],
    ids: [Constant<Bits<WW>>; W],
    one: Constant<Bits<DW>>,
}

impl<const W: usize, const L: usize, const DEPTH: usize, const DW: usize, const WW: usize> Default
    for Pdom<W, L, DEPTH, DW, WW>
{
    fn default() -> Self {
        assert_eq!(WW, clog2(W).max(1), "WW must be max(1, clog2(W))");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            init: Default::default(),
            init_warp: Default::default(),
            init_mask: Default::default(),
            init_pc: Default::default(),
            sel: Default::default(),
            branch: Default::default(),
            taken_mask: Default::default(),
            taken_pc: Default::default(),
            not_taken_pc: Default::default(),
            reconv_pc: Default::default(),
            advance: Default::default(),
            next_pc: Default::default(),
            pc: array_init::array_init(|_| Default::default()),
            mask: array_init::array_init(|_| Default::default()),
            converged: array_init::array_init(|_| Default::default()),
            overflow: Default::default(),
            stack: array_init::array_init(|_| Default::default()),
            ids: array_init::array_init(|w| Constant::new(Bits::<WW>::from(w as u64))),
            one: Constant::new(Bits::<DW>::from(1u64)),
        }
    }
}

impl<const W: usize, const L: usize, const DEPTH: usize, const DW: usize, const WW: usize> Logic
    for Pdom<W, L, DEPTH, DW, WW>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.overflow.next = false;
        for w in 0..W {
            self.stack[w].clock.next = self.clock.val();
            self.stack[w].reset.next = self.reset.val();
            self.stack[w].init.next = self.init.val() & (self.init_warp.val() == self.ids[w].val());
            self.stack[w].init_mask.next = self.init_mask.val();
            self.stack[w].init_pc.next = self.init_pc.val();
            self.stack[w].branch.next = self.branch.val() & (self.sel.val() == self.ids[w].val());
            self.stack[w].taken_mask.next = self.taken_mask.val();
            self.stack[w].taken_pc.next = self.taken_pc.val();
            self.stack[w].not_taken_pc.next = self.not_taken_pc.val();
            self.stack[w].reconv_pc.next = self.reconv_pc.val();
            self.stack[w].advance.next = self.advance.val() & (self.sel.val() == self.ids[w].val());
            self.stack[w].next_pc.next = self.next_pc.val();
            self.pc[w].next = self.stack[w].pc.val();
            self.mask[w].next = self.stack[w].mask.val();
            self.converged[w].next = self.stack[w].depth.val() == self.one.val();
            self.overflow.next = self.overflow.val() | self.stack[w].overflow.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = Pdom::<4, 4, 8, 4, 2>::default();
        uut.connect_all();
        yosys_validate("simt_pdom", &generate_verilog(&uut)).unwrap();
    }
}
