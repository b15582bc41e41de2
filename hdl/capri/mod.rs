//! Thread block compaction and CAPRI (`capri-compaction-adequacy.txt` §2–3; SPEC §3).
pub mod adequacy_evaluator;
pub mod capri_decision;
pub mod capt;
pub mod tbc_stack;
pub mod warp_compaction_unit;
