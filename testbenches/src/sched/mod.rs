//! Benches of the warp schedulers.
use crate::presets::Preset;

pub fn presets() -> Vec<Preset> {
    vec![]
}
