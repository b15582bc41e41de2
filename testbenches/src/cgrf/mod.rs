//! Benches of the MT-CGRF dataflow fabric units (SPEC §6).
use crate::presets::Preset;
use rust_hdl::prelude::*;
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
    let mut list = vec![];
    list.extend(token_buffer::presets());
    list.extend(compute_unit::presets());
    list.extend(special_compute_unit::presets());
    list.extend(load_store_unit::presets());
    list.extend(split_join::presets());
    list.extend(switch::presets());
    list.extend(fabric::presets());
    list
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
