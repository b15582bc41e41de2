//! Benches of the divergence stack.
use crate::presets::Preset;

pub fn presets() -> Vec<Preset> {
    vec![]
}
