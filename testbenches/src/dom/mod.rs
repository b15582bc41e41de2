//! Benches of the diverge-on-miss blocks (`diverge-on-miss.txt`).
use crate::presets::Preset;

pub fn presets() -> Vec<Preset> {
    vec![]
}
