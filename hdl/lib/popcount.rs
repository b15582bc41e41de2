//! Population count (SPEC §1): the number of set bits of `bits`. Used wherever a
//! block counts threads or warps (compaction adequacy, sub-warp counts).
//!
//! ```text
//!   bits  1 0 1 1 0 0 1 0   ->   count = 4
//! ```
//!
//! Latency: combinational (0 cycles). Storage: none. Cost: as written, a chain of `N`
//! conditional `W`-bit increments; synthesis is free to rebalance it into an adder
//! tree.
//!
//! Choices where the SPEC is silent:
//! - `W` must be `clog2(N+1)` (the count can be `N` itself, SPEC §0).
use rust_hdl::prelude::*;

/// Counts the set bits of an `N`-bit vector; `W = clog2(N+1)`.
#[derive(LogicBlock)]
pub struct Popcount<const N: usize, const W: usize> {
    /// The bits to count.
    pub bits: Signal<In, Bits<N>>,
    /// Number of set bits of `bits`, `0..=N` (combinational).
    pub count: Signal<Out, Bits<W>>,
    /// Running count while scanning the bits upwards.
    acc: Signal<Local, Bits<W>>,
    /// Bit `i` alone: `(bits & onehot[i]).any()` tests it without a bit select, which
    /// Verilog forbids on the 1-bit port of a 1-bit popcount.
    onehot: [Constant<Bits<N>>; N],
    one: Constant<Bits<W>>,
    zero: Constant<Bits<W>>,
}

impl<const N: usize, const W: usize> Default for Popcount<N, W> {
    fn default() -> Self {
        assert!(N >= 1, "popcount needs at least one bit");
        assert_eq!(W, clog2(N + 1), "W must be clog2(N+1)");
        Self {
            bits: Default::default(),
            count: Default::default(),
            acc: Default::default(),
            onehot: array_init::array_init(|i| {
                let mut v = Bits::<N>::default();
                v.set_bits::<1>(i, Bits::<1>::from(true));
                Constant::new(v)
            }),
            one: Constant::new(1u64.into()),
            zero: Constant::new(Bits::default()),
        }
    }
}

impl<const N: usize, const W: usize> Logic for Popcount<N, W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.acc.next = self.zero.val();
        for i in 0..N {
            if (self.bits.val() & self.onehot[i].val()).any() {
                self.acc.next = self.acc.val() + self.one.val();
            }
        }
        self.count.next = self.acc.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = Popcount::<7, 3>::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("popcount_7", &vlog).unwrap();
    }

    #[test]
    fn counts_set_bits() {
        let mut uut = Popcount::<7, 3>::default();
        uut.connect_all();
        for (bits, count) in [(0u64, 0u64), (1, 1), (0b1011010, 4), (0b1111111, 7)] {
            uut.bits.next = bits.into();
            assert!(simulate(&mut uut, 100));
            assert_eq!(uut.count.val(), Bits::<3>::from(count), "bits {bits:07b}");
        }
    }
}
