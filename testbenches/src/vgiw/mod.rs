//! Benches of the vgiw blocks.
use crate::presets::Preset;

pub fn presets() -> Vec<Preset> {
    vec![]
}
