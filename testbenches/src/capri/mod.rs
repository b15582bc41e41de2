//! Benches of the capri blocks.
use crate::presets::Preset;

pub fn presets() -> Vec<Preset> {
    vec![]
}
