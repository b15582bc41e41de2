//! Thread block compaction and CAPRI (`capri-compaction-adequacy.txt` §2–3; SPEC §3).
