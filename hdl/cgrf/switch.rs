//! Fabric switch: the static, configurable interconnect next to every MT-CGRF unit
//! (`vgiw-control-flow-coalescing.txt` §3.5; SPEC §6). It connects the unit to its
//! eight neighbours (folded-hypercube wiring is the fabric top's business: the switch
//! only sees numbered ports).
//!
//! ```text
//!   in 0..INS-1 (8 neighbours + the unit's result)     out 0..OUTS-1 (8 neighbours +
//!     -> [2-entry FIFO] --+                              the unit's operand ports)
//!                         +--> crossbar: out k <- in route_sel[k] if route_en[k]
//! ```
//!
//! Token links follow `hdl/cgrf/mod.rs` (`valid`, `ready`, `vc`, `tid`, `data`); ports
//! are arrays indexed by link number.
//!
//! Timing and throughput:
//! - `in_ready[i]` is registered (the FIFO is not full), so readies never chain
//!   combinationally from switch to switch and a ring of switches has no loop; with
//!   two entries a link still moves one token per cycle.
//! - An input's head leaves when every output routed from it is ready, and reaches all
//!   of them on that edge (multicast without duplicates or partial copies). So
//!   `out_valid[k]` depends on the `out_ready` of the outputs sharing k's input: a
//!   consumer's `ready` must not depend on its `valid` (token buffers and neighbour
//!   switches satisfy this: their readies come from registers and the token's `vc`).
//! - One hop costs one cycle (a token pushed on edge `t` can leave on edge `t+1`).
//!
//! Configuration (§3.5: configuration messages travel along the grid's rows): the
//! routes form a shift chain of `OUTS` fields `(route_en, route_sel)`. With `cfg_shift`
//! high, `cfg_in_*` enters output 0's route, output k takes output k-1's, and
//! `cfg_out_*` (output `OUTS-1`'s route, registered) feeds the next switch in the row. A
//! row of `U` switches loads in `U x OUTS` cycles. Shift while the fabric is drained.
//!
//! Storage: `INS x 2 x (1 + VB + 16 + 32)` FIFO bits + `OUTS x (1 + SB)` route bits.
//!
//! Choices where the paper is silent: input-side FIFOs of two entries; an input no
//! output is routed from is never ready (a token is never dropped, a misconfigured
//! route stalls); reset empties the FIFOs and disables every route.
use rust_hdl::prelude::*;

/// A switch with `INS` token inputs and `OUTS` token outputs; `2^VB` virtual channels;
/// `SB = max(1, clog2(INS))` route-select bits.
#[derive(LogicBlock)]
pub struct Switch<const INS: usize, const OUTS: usize, const VB: usize, const SB: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: empties the FIFOs and disables every route.
    pub reset: Signal<In, Bit>,
    // token inputs
    /// A token is offered on input `i`.
    pub in_valid: [Signal<In, Bit>; INS],
    /// Registered: input `i`'s FIFO has room.
    pub in_ready: [Signal<Out, Bit>; INS],
    /// The offered token's virtual channel.
    pub in_vc: [Signal<In, Bits<VB>>; INS],
    /// The offered token's thread id.
    pub in_tid: [Signal<In, Bits<16>>; INS],
    /// The offered token's operand.
    pub in_data: [Signal<In, Bits<32>>; INS],
    // token outputs
    /// A token leaves on output `k` this cycle (only when every output sharing its
    /// input is ready).
    pub out_valid: [Signal<Out, Bit>; OUTS],
    /// Output `k`'s consumer takes a token this cycle.
    pub out_ready: [Signal<In, Bit>; OUTS],
    pub out_vc: [Signal<Out, Bits<VB>>; OUTS],
    pub out_tid: [Signal<Out, Bits<16>>; OUTS],
    pub out_data: [Signal<Out, Bits<32>>; OUTS],
    // configuration chain
    /// Shift the route chain by one field this cycle.
    pub cfg_shift: Signal<In, Bit>,
    /// The route entering output 0: enabled, and from which input.
    pub cfg_in_en: Signal<In, Bit>,
    pub cfg_in_sel: Signal<In, Bits<SB>>,
    /// Registered: the route of output `OUTS-1`, for the next switch in the row.
    pub cfg_out_en: Signal<Out, Bit>,
    pub cfg_out_sel: Signal<Out, Bits<SB>>,
    /// Output `k` carries tokens from input `route_sel[k]`.
    route_en: [DFF<Bit>; OUTS],
    route_sel: [DFF<Bits<SB>>; OUTS],
    /// FIFO head (oldest token) of each input.
    head_valid: [DFF<Bit>; INS],
    head_vc: [DFF<Bits<VB>>; INS],
    head_tid: [DFF<Bits<16>>; INS],
    head_data: [DFF<Bits<32>>; INS],
    /// FIFO second entry of each input.
    tail_valid: [DFF<Bit>; INS],
    tail_vc: [DFF<Bits<VB>>; INS],
    tail_tid: [DFF<Bits<16>>; INS],
    tail_data: [DFF<Bits<32>>; INS],
    /// Some output is routed from input `i`.
    routed: [Signal<Local, Bit>; INS],
    /// Every output routed from input `i` is ready.
    fanout_ready: [Signal<Local, Bit>; INS],
    /// Input `i`'s head leaves on this edge.
    pop: [Signal<Local, Bit>; INS],
    /// Input `i` takes the offered token on this edge.
    push: [Signal<Local, Bit>; INS],
    /// After this edge's pop, input `i`'s head entry is free.
    head_free: [Signal<Local, Bit>; INS],
    /// Input number `i` as a route select value.
    input_id: [Constant<Bits<SB>>; INS],
    zero_sel: Constant<Bits<SB>>,
    zero_vc: Constant<Bits<VB>>,
    zero_16: Constant<Bits<16>>,
    zero_32: Constant<Bits<32>>,
}

impl<const INS: usize, const OUTS: usize, const VB: usize, const SB: usize> Default
    for Switch<INS, OUTS, VB, SB>
{
    fn default() -> Self {
        assert!(INS >= 1 && OUTS >= 1, "a switch needs inputs and outputs");
        assert_eq!(SB, clog2(INS).max(1), "SB must be max(1, clog2(INS))");
        assert!(
            (1..=16).contains(&VB),
            "VB (virtual channel bits) must be 1..=16"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: array_init::array_init(|_| Default::default()),
            in_ready: array_init::array_init(|_| Default::default()),
            in_vc: array_init::array_init(|_| Default::default()),
            in_tid: array_init::array_init(|_| Default::default()),
            in_data: array_init::array_init(|_| Default::default()),
            out_valid: array_init::array_init(|_| Default::default()),
            out_ready: array_init::array_init(|_| Default::default()),
            out_vc: array_init::array_init(|_| Default::default()),
            out_tid: array_init::array_init(|_| Default::default()),
            out_data: array_init::array_init(|_| Default::default()),
            cfg_shift: Default::default(),
            cfg_in_en: Default::default(),
            cfg_in_sel: Default::default(),
            cfg_out_en: Default::default(),
            cfg_out_sel: Default::default(),
            route_en: array_init::array_init(|_| Default::default()),
            route_sel: array_init::array_init(|_| Default::default()),
            head_valid: array_init::array_init(|_| Default::default()),
            head_vc: array_init::array_init(|_| Default::default()),
            head_tid: array_init::array_init(|_| Default::default()),
            head_data: array_init::array_init(|_| Default::default()),
            tail_valid: array_init::array_init(|_| Default::default()),
            tail_vc: array_init::array_init(|_| Default::default()),
            tail_tid: array_init::array_init(|_| Default::default()),
            tail_data: array_init::array_init(|_| Default::default()),
            routed: array_init::array_init(|_| Default::default()),
            fanout_ready: array_init::array_init(|_| Default::default()),
            pop: array_init::array_init(|_| Default::default()),
            push: array_init::array_init(|_| Default::default()),
            head_free: array_init::array_init(|_| Default::default()),
            input_id: array_init::array_init(|i| Constant::new(Bits::<SB>::from(i as u64))),
            zero_sel: Constant::new(Bits::default()),
            zero_vc: Constant::new(Bits::default()),
            zero_16: Constant::new(Bits::default()),
            zero_32: Constant::new(Bits::default()),
        }
    }
}

impl<const INS: usize, const OUTS: usize, const VB: usize, const SB: usize> Logic
    for Switch<INS, OUTS, VB, SB>
{
    #[hdl_gen]
    fn update(&mut self) {
        for k in 0..OUTS {
            self.route_en[k].clock.next = self.clock.val();
            self.route_en[k].d.next = self.route_en[k].q.val();
            self.route_sel[k].clock.next = self.clock.val();
            self.route_sel[k].d.next = self.route_sel[k].q.val();
        }
        for i in 0..INS {
            self.head_valid[i].clock.next = self.clock.val();
            self.head_vc[i].clock.next = self.clock.val();
            self.head_tid[i].clock.next = self.clock.val();
            self.head_data[i].clock.next = self.clock.val();
            self.tail_valid[i].clock.next = self.clock.val();
            self.tail_vc[i].clock.next = self.clock.val();
            self.tail_tid[i].clock.next = self.clock.val();
            self.tail_data[i].clock.next = self.clock.val();
            self.head_valid[i].d.next = self.head_valid[i].q.val();
            self.head_vc[i].d.next = self.head_vc[i].q.val();
            self.head_tid[i].d.next = self.head_tid[i].q.val();
            self.head_data[i].d.next = self.head_data[i].q.val();
            self.tail_valid[i].d.next = self.tail_valid[i].q.val();
            self.tail_vc[i].d.next = self.tail_vc[i].q.val();
            self.tail_tid[i].d.next = self.tail_tid[i].q.val();
            self.tail_data[i].d.next = self.tail_data[i].q.val();
            self.in_ready[i].next = !self.tail_valid[i].q.val();
            self.routed[i].next = false;
            self.fanout_ready[i].next = true;
        }
        // Which inputs feed an output, and whether all their outputs are ready.
        for k in 0..OUTS {
            for i in 0..INS {
                if self.route_en[k].q.val() & (self.route_sel[k].q.val() == self.input_id[i].val())
                {
                    self.routed[i].next = true;
                    self.fanout_ready[i].next =
                        self.fanout_ready[i].val() & self.out_ready[k].val();
                }
            }
        }
        for i in 0..INS {
            self.pop[i].next =
                self.head_valid[i].q.val() & self.routed[i].val() & self.fanout_ready[i].val();
        }
        // Crossbar: an output shows its input's head in the cycle that head leaves.
        for k in 0..OUTS {
            self.out_valid[k].next = false;
            self.out_vc[k].next = self.zero_vc.val();
            self.out_tid[k].next = self.zero_16.val();
            self.out_data[k].next = self.zero_32.val();
            for i in 0..INS {
                if self.route_en[k].q.val() & (self.route_sel[k].q.val() == self.input_id[i].val())
                {
                    self.out_valid[k].next = self.pop[i].val();
                    self.out_vc[k].next = self.head_vc[i].q.val();
                    self.out_tid[k].next = self.head_tid[i].q.val();
                    self.out_data[k].next = self.head_data[i].q.val();
                }
            }
        }
        // FIFOs: pop first (the tail moves up), then push into the first free entry.
        for i in 0..INS {
            self.push[i].next = self.in_valid[i].val() & !self.tail_valid[i].q.val();
            self.head_free[i].next =
                !self.head_valid[i].q.val() | (self.pop[i].val() & !self.tail_valid[i].q.val());
            if self.pop[i].val() {
                self.head_valid[i].d.next = self.tail_valid[i].q.val();
                self.head_vc[i].d.next = self.tail_vc[i].q.val();
                self.head_tid[i].d.next = self.tail_tid[i].q.val();
                self.head_data[i].d.next = self.tail_data[i].q.val();
                self.tail_valid[i].d.next = false;
            }
            if self.push[i].val() {
                if self.head_free[i].val() {
                    self.head_valid[i].d.next = true;
                    self.head_vc[i].d.next = self.in_vc[i].val();
                    self.head_tid[i].d.next = self.in_tid[i].val();
                    self.head_data[i].d.next = self.in_data[i].val();
                } else {
                    self.tail_valid[i].d.next = true;
                    self.tail_vc[i].d.next = self.in_vc[i].val();
                    self.tail_tid[i].d.next = self.in_tid[i].val();
                    self.tail_data[i].d.next = self.in_data[i].val();
                }
            }
        }
        // Configuration chain.
        for k in 0..OUTS {
            // The last iteration wins: output `OUTS-1`'s route.
            self.cfg_out_en.next = self.route_en[k].q.val();
            self.cfg_out_sel.next = self.route_sel[k].q.val();
        }
        if self.cfg_shift.val() {
            self.route_en[0].d.next = self.cfg_in_en.val();
            self.route_sel[0].d.next = self.cfg_in_sel.val();
            for k in 1..OUTS {
                self.route_en[k].d.next = self.route_en[k - 1].q.val();
                self.route_sel[k].d.next = self.route_sel[k - 1].q.val();
            }
        }
        if self.reset.val() {
            for k in 0..OUTS {
                self.route_en[k].d.next = false;
                self.route_sel[k].d.next = self.zero_sel.val();
            }
            for i in 0..INS {
                self.head_valid[i].d.next = false;
                self.tail_valid[i].d.next = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = crate::presets::Switch9x11::default();
        uut.connect_all();
        yosys_validate("switch", &generate_verilog(&uut)).unwrap();
        let mut uut = Switch::<1, 1, 1, 1>::default();
        uut.connect_all();
        yosys_validate("switch_1x1", &generate_verilog(&uut)).unwrap();
    }
}
