//! VGIW control-flow coalescing (`vgiw-control-flow-coalescing.txt` §2–3; SPEC §5).
