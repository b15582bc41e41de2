//! Zero-extension of an `M`-bit vector to `N` bits.
//!
//! rust-hdl 0.46 has no concatenation, and its `bit_cast` widens as `x & N'hmask`,
//! which Verilator flags (`WIDTH`). Blocks therefore used to build wide vectors one
//! bit at a time (shift and OR), which is slow to simulate in Rust and in Icarus. This
//! block emits the widening as a sized concatenation, so a block can keep its state in
//! narrow rows and assemble a wide port with one `Widen` per row and a shift.
//!
//! Combinational, no storage.
use rust_hdl::prelude::*;

/// `wide = {(N-M) zeros, narrow}`; requires `M <= N`.
#[derive(LogicBlock)]
pub struct Widen<const M: usize, const N: usize> {
    pub narrow: Signal<In, Bits<M>>,
    pub wide: Signal<Out, Bits<N>>,
}

impl<const M: usize, const N: usize> Default for Widen<M, N> {
    fn default() -> Self {
        assert!(
            M >= 1 && M <= N,
            "Widen needs 1 <= M <= N (got M={M}, N={N})"
        );
        Self {
            narrow: Default::default(),
            wide: Default::default(),
        }
    }
}

impl<const M: usize, const N: usize> Logic for Widen<M, N> {
    fn update(&mut self) {
        self.wide.next = bit_cast::<N, M>(self.narrow.val());
    }
    fn connect(&mut self) {
        self.wide.connect();
    }
    fn hdl(&self) -> Verilog {
        let body = if M == N {
            "always @(*) wide = narrow;".to_string()
        } else {
            format!("always @(*) wide = {{{}'d0, narrow}};", N - M)
        };
        Verilog::Custom(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes_and_extends_with_zeros() {
        let mut uut = Widen::<3, 70>::default();
        uut.connect_all();
        yosys_validate("widen_3_70", &generate_verilog(&uut)).unwrap();
        let mut same = Widen::<4, 4>::default();
        same.connect_all();
        yosys_validate("widen_4_4", &generate_verilog(&same)).unwrap();
        uut.narrow.next = 0b101u64.into();
        assert!(simulate(&mut uut, 10));
        assert_eq!(uut.wide.val(), Bits::<70>::from(0b101u64));
    }
}
