//! Diverge on miss (`diverge-on-miss.txt` §3–6; SPEC §4).
