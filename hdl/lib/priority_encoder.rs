//! Priority encoder (SPEC §1): the index of the lowest set bit of `mask`, and
//! `valid = mask != 0`. Used by the round-robin arbiter and the schedulers
//! (`lwm-two-level-scheduling.txt` §3.2).
//!
//! ```text
//!   mask  0 1 1 0 1 0 0 0   (bit 0 on the left)
//!           ^ lowest set bit: index = 1, valid = 1
//! ```
//!
//! Latency: combinational (0 cycles). Storage: none. Cost: a chain of `N` "found"
//! stages and an `N`-way one-hot mux of `W`-bit constants.
//!
//! Choices where the SPEC is silent:
//! - `index` is 0 when `mask` is 0 (so the output never floats).
//! - `W` must be `max(1, clog2(N))`: a 1-candidate encoder still has a 1-bit index.
use rust_hdl::prelude::*;

/// Lowest-set-bit encoder over `N` candidates; `W = max(1, clog2(N))`.
#[derive(LogicBlock)]
pub struct PriorityEncoder<const N: usize, const W: usize> {
    // candidates in
    /// Candidate bits: bit `i` set when candidate `i` requests.
    pub mask: Signal<In, Bits<N>>,
    // encoded out (combinational)
    /// Index of the lowest set bit of `mask`; 0 when `valid` is 0.
    pub index: Signal<Out, Bits<W>>,
    /// `mask` has at least one set bit.
    pub valid: Signal<Out, Bit>,
    /// A lower candidate was already found while scanning upwards.
    found: Signal<Local, Bit>,
    /// Candidate `i`'s index as a `W`-bit constant (sized literals keep the Verilog
    /// free of width casts).
    ids: [Constant<Bits<W>>; N],
    /// Candidate `i`'s bit alone: `(mask & onehot[i]).any()` tests it without a bit
    /// select, which Verilog forbids on the 1-bit port of a 1-candidate encoder.
    onehot: [Constant<Bits<N>>; N],
    zero: Constant<Bits<W>>,
}

impl<const N: usize, const W: usize> Default for PriorityEncoder<N, W> {
    fn default() -> Self {
        assert!(N >= 1, "priority encoder needs at least one candidate");
        assert_eq!(W, clog2(N).max(1), "W must be max(1, clog2(N))");
        Self {
            mask: Default::default(),
            index: Default::default(),
            valid: Default::default(),
            found: Default::default(),
            ids: array_init::array_init(|i| Constant::new(Bits::<W>::from(i as u64))),
            onehot: array_init::array_init(|i| {
                let mut v = Bits::<N>::default();
                v.set_bits::<1>(i, Bits::<1>::from(true));
                Constant::new(v)
            }),
            zero: Constant::new(Bits::default()),
        }
    }
}

impl<const N: usize, const W: usize> Logic for PriorityEncoder<N, W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.index.next = self.zero.val();
        self.found.next = false;
        for i in 0..N {
            if (self.mask.val() & self.onehot[i].val()).any() & !self.found.val() {
                self.index.next = self.ids[i].val();
                self.found.next = true;
            }
        }
        self.valid.next = self.found.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = PriorityEncoder::<6, 3>::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("priority_encoder_6", &vlog).unwrap();
    }

    #[test]
    fn picks_the_lowest_set_bit() {
        let mut uut = PriorityEncoder::<6, 3>::default();
        uut.connect_all();
        for (mask, index, valid) in [
            (0b000000u64, 0u64, false),
            (0b000001, 0, true),
            (0b010110, 1, true),
            (0b100000, 5, true),
            (0b111000, 3, true),
        ] {
            uut.mask.next = mask.into();
            assert!(simulate(&mut uut, 100));
            assert_eq!(uut.index.val(), Bits::<3>::from(index), "mask {mask:06b}");
            assert_eq!(uut.valid.val(), valid, "mask {mask:06b}");
        }
    }
}
