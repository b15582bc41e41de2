//! Round-robin arbiter (SPEC §1): grants the first requester after the last grant,
//! in cyclic order `last+1, last+2, ..., N-1, 0, ..., last`. Combinational: the
//! previous grant `last` is an input, so the user holds the state; the two-level
//! scheduler (`lwm-two-level-scheduling.txt` §3.2, SPEC §2.3) uses one arbiter across
//! fetch groups and one within the chosen group.
//!
//! ```text
//!   request ─┬──────────────────────────> priority_encoder (all) ──┐
//!            └─ & above(last) ──────────> priority_encoder (upper) ─┴─> upper.valid ? upper : all
//!   above(last) = (all ones << last) << 1: bit i set when i > last
//! ```
//!
//! Latency: combinational (0 cycles). Storage: none. Cost: an `N`-bit barrel shift
//! (the thermometer) and two `N`-input priority encoders.
//!
//! Choices where the SPEC is silent:
//! - `grant` is 0 when no candidate requests (`grant_valid` = 0).
//! - A `last` outside `0..N` (possible when `N` is not a power of two) behaves as
//!   `N-1`: the search starts at candidate 0.
//! - `W` must be `max(1, clog2(N))`.
use crate::lib::priority_encoder::PriorityEncoder;
use rust_hdl::prelude::*;

/// Round-robin arbiter over `N` requesters; `W = max(1, clog2(N))`.
#[derive(LogicBlock)]
pub struct RoundRobinArbiter<const N: usize, const W: usize> {
    // request interface
    /// Requesters: bit `i` set when requester `i` wants the grant.
    pub request: Signal<In, Bits<N>>,
    /// The previous grant; the search starts just after it.
    pub last: Signal<In, Bits<W>>,
    // grant out (combinational)
    /// Some requester is granted (`request != 0`).
    pub grant_valid: Signal<Out, Bit>,
    /// The first requester after `last` in cyclic order; 0 when `grant_valid` is 0.
    pub grant: Signal<Out, Bits<W>>,
    /// Lowest requester above `last`.
    upper: PriorityEncoder<N, W>,
    /// Lowest requester overall (the wrap-around choice).
    all: PriorityEncoder<N, W>,
    /// Thermometer of the candidates above `last` (a shift, not `N` comparisons with
    /// constants: Verilator flags `0 > last` as constant).
    above: Signal<Local, Bits<N>>,
    all_ones: Constant<Bits<N>>,
    one: Constant<Bits<16>>,
}

impl<const N: usize, const W: usize> Default for RoundRobinArbiter<N, W> {
    fn default() -> Self {
        assert!(N >= 1, "round-robin arbiter needs at least one requester");
        assert_eq!(W, clog2(N).max(1), "W must be max(1, clog2(N))");
        Self {
            request: Default::default(),
            last: Default::default(),
            grant_valid: Default::default(),
            grant: Default::default(),
            upper: Default::default(),
            all: Default::default(),
            above: Default::default(),
            all_ones: Constant::new(Bits::<N>::mask()),
            one: Constant::new(1u64.into()),
        }
    }
}

impl<const N: usize, const W: usize> Logic for RoundRobinArbiter<N, W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.above.next = (self.all_ones.val() << self.last.val()) << self.one.val();
        self.upper.mask.next = self.request.val() & self.above.val();
        self.all.mask.next = self.request.val();
        self.grant_valid.next = self.all.valid.val();
        self.grant.next = self.all.index.val();
        if self.upper.valid.val() {
            self.grant.next = self.upper.index.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = RoundRobinArbiter::<6, 3>::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("round_robin_arbiter_6", &vlog).unwrap();
    }

    #[test]
    fn grants_the_first_requester_after_last() {
        let mut uut = RoundRobinArbiter::<6, 3>::default();
        uut.connect_all();
        for (request, last, valid, grant) in [
            (0b000000u64, 2u64, false, 0u64),
            (0b010110, 1, true, 2),
            (0b010110, 2, true, 4),
            (0b010110, 4, true, 1),
            (0b000100, 2, true, 2), // only the last granted requests: it wins again
            (0b100001, 5, true, 0),
            (0b100001, 7, true, 0), // out-of-range last behaves as N-1
        ] {
            uut.request.next = request.into();
            uut.last.next = last.into();
            assert!(simulate(&mut uut, 100));
            assert_eq!(
                uut.grant_valid.val(),
                valid,
                "request {request:06b} last {last}"
            );
            assert_eq!(
                uut.grant.val(),
                Bits::<3>::from(grant),
                "request {request:06b} last {last}"
            );
        }
    }
}
