//! Benches of the MT-CGRF dataflow fabric units (SPEC §6).
use crate::presets::Preset;
use rust_hdl::prelude::*;
use weft_hdl::presets::{
    ComputeUnit16, Fabric4, LoadStoreUnit32x16, SpecialComputeUnit32x9, SplitJoin32x4, Switch3x3,
    Switch9x11, TokenBuffer16, TokenBuffer4,
};
use weft_sim::cgrf::token_buffer::OperandToken;

pub mod compute_unit;
pub mod divide_tile;
pub mod fabric;
pub mod fabric_tile;
pub mod load_store_unit;
pub mod memory_tile;
pub mod special_compute_unit;
pub mod split_join;
pub mod switch;
pub mod token_buffer;

/// Every fabric preset, unit by unit.
pub fn presets() -> Vec<Preset> {
    vec![
        Preset::of::<TokenBuffer16>(
"token_buffer",
"MT-CGRF token buffer, 16 virtual channels x 3 operands, round-robin firing (VGIW §3.5)",
),
        Preset::of::<TokenBuffer4>(
"token_buffer_4",
"MT-CGRF token buffer, 4 virtual channels x 3 operands, for the formal proofs (VGIW §3.5)",
),
        Preset::of::<ComputeUnit16>(
"compute_unit",
"MT-CGRF compute unit: 16-channel token buffer + 3-stage integer/float32 pipeline (VGIW §3.5)",
),
        Preset::of::<SpecialComputeUnit32x9>(
"special_compute_unit",
"MT-CGRF special compute unit: 9 non-pipelined 32-bit dividers, 4 bits/cycle, one op per cycle (VGIW §3.5)",
),
        Preset::of::<LoadStoreUnit32x16>(
"load_store_unit",
"MT-CGRF load/store unit, 16-entry reservation buffer, out-of-order completion (VGIW §3.5)",
),
        Preset::of::<SplitJoin32x4>(
"split_join",
"MT-CGRF split/join unit, 4 ports, per-channel join counters (VGIW §3.5)",
),
        Preset::of::<Switch9x11>(
"switch",
"MT-CGRF switch: 8 neighbours + unit in, 8 neighbours + 3 operands out, 2-entry input FIFOs, route chain (VGIW §3.5)",
),
        Preset::of::<Switch3x3>(
"switch_3x3",
"MT-CGRF switch, 3 inputs x 3 outputs, 2 virtual channels, for the formal proofs (VGIW §3.5)",
),
        Preset::of::<Fabric4>(
"fabric",
"MT-CGRF fabric top: 4 x 4 switches + compute units, 10 memory units, 2 dividers, 2 thread ports (VGIW §3.5)",
),
    ]
}

/// Drives one operand link (`x_valid`, `x_vc`, `x_tid`, `x_data` of `hdl/cgrf/mod.rs`)
/// with a token, or idle.
pub fn drive_link<const VB: usize>(
    valid: &mut Signal<In, Bit>,
    vc: &mut Signal<In, Bits<VB>>,
    tid: &mut Signal<In, Bits<16>>,
    data: &mut Signal<In, Bits<32>>,
    token: Option<OperandToken>,
) {
    let t = token.unwrap_or_default();
    valid.next = token.is_some();
    vc.next = (t.vc as u64).into();
    tid.next = u64::from(t.tid).into();
    data.next = u64::from(t.data).into();
}
