//! Benches of the MT-CGRF dataflow fabric units (SPEC §6).
use crate::presets::Preset;

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
