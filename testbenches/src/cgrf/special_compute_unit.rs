//! Placeholder: being written.
use crate::presets::Preset;

/// This bench's presets (registered through `cgrf::presets`).
pub fn presets() -> Vec<Preset> {
    vec![]
}
