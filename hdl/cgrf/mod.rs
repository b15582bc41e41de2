//! MT-CGRF dataflow fabric units (`vgiw-control-flow-coalescing.txt` §3.5; SPEC §6).
//!
//! # Token links (shared by every unit)
//! Units talk through point-to-point token links with a valid/ready handshake; a token
//! moves on a rising edge where both are high. A link named `x` has the ports
//! - `x_valid: Bit` (producer), `x_ready: Bit` (consumer),
//! - `x_vc: Bits<VB>`: the thread's virtual channel (its thread slot; `VCS = 2^VB`),
//!   which indexes the destination unit's token buffer,
//! - `x_tid: Bits<16>`: the thread id (VGIW §3.4: thread ids travel with every token;
//!   the live value units and the terminating control vector unit need them),
//! - `x_data: Bits<32>`: the operand (ignored on control tokens).
//!
//! A virtual channel holds at most one thread at a time, so each token buffer entry
//! serves one thread (§3.5).
//!
//! The links stay five flat ports rather than a rust-hdl `LogicInterface`: measured on
//! rust-hdl 0.46, an interface port `x` is emitted as `x$valid`, `x$ready`, ... (a `$`
//! in every port name of every unit, which the co-simulation's port recorder and the
//! Verilator harness would have to learn), and a second array index in one name
//! (`tile[t].link[d]`) is left unresolved in the Verilog (`tile$3$link[d]$valid`), so
//! an interface array would not let the fabric loop over directions either.
pub mod compute_unit;
pub mod divide_tile;
pub mod divider_copy;
pub mod fabric;
pub mod fabric_tile;
pub mod float_align;
pub mod float_round;
pub mod int_alu;
pub mod load_store_unit;
pub mod memory_tile;
pub mod multiplier;
pub mod special_compute_unit;
pub mod split_join;
pub mod switch;
pub mod thread_port;
pub mod token_buffer;

/// A sized constant (`Constant<Bits<N>>` of `x`): rust-hdl's unsized literals come out
/// 32 bits wide, so blocks hold their literals in these.
pub(crate) fn constant<const N: usize>(
    x: u64,
) -> rust_hdl::prelude::Constant<rust_hdl::prelude::Bits<N>> {
    rust_hdl::prelude::Constant::new(rust_hdl::prelude::Bits::<N>::from(x))
}

/// Operand words for the datapath tests: integer and binary32 edge cases (zeros,
/// ones, extremes, infinities, NaNs, the normal range's edges, subnormals), then
/// `random` words from a fixed xorshift seed.
#[cfg(test)]
pub(crate) fn test_words(seed: u64, random: usize) -> Vec<u32> {
    let mut words = vec![
        0,
        1,
        2,
        31,
        32,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        0x8000_0001,
        0x0001_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x4000_0000,
        0x3fc0_0000,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x7f80_0001,
        0xffc0_0001,
        0x7f7f_ffff,
        0xff7f_ffff,
        0x0080_0000,
        0x8080_0000,
        0x0080_0001,
        0x007f_ffff,
        0x8000_0001,
        0x3f7f_ffff,
        0x4b7f_ffff,
        0x3380_0000,
        0x1f80_0000,
        0x5f80_0000,
    ];
    let mut state = seed | 1;
    for _ in 0..random {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        words.push((state >> 16) as u32);
    }
    words
}
