//! What the CAPRI paper (Rhu and Erez, "CAPRI: Prediction of Compaction-Adequacy for
//! Handling Control-Divergence in GPGPU Architectures", ISCA 2012) reports, as the page
//! quotes it.

/// Table 2, in its order: (benchmark, divergent class, WPDOM SIMD utilisation %).
pub const TABLE2: &[(&str, bool, f64)] = &[
    ("bfs", true, 29.0),
    ("mum", true, 23.0),
    ("mumpp", true, 28.0),
    ("lps", true, 74.0),
    ("backp", true, 83.0),
    ("tpacf", true, 81.0),
    ("ray", false, 91.0),
    ("lib", false, 100.0),
    ("pflt", false, 99.0),
    ("cfd", false, 96.0),
    ("fft", false, 91.0),
    ("qsrdm", false, 95.0),
];

/// Table 2's instruction counts as printed, where legible (BFS's and TPACF's are not).
pub const INSTRUCTIONS: &[(&str, &str)] = &[
    ("mum", "75M"),
    ("mumpp", "139M"),
    ("lps", "81M"),
    ("backp", "193M"),
    ("ray", "259M"),
    ("lib", "1B"),
    ("pflt", "4B"),
    ("cfd", "21.4B"),
    ("fft", "250M"),
    ("qsrdm", "729M"),
];

/// Table 2's instruction count of `w`, as printed.
pub fn instructions(w: &str) -> Option<&'static str> {
    INSTRUCTIONS.iter().find(|(n, _)| *n == w).map(|&(_, i)| i)
}

/// Whether `w` is in Table 2's divergent set (`None`: not a Table 2 benchmark).
pub fn divergent(w: &str) -> Option<bool> {
    TABLE2.iter().find(|(n, _, _)| *n == w).map(|&(_, d, _)| d)
}

/// Table 2's WPDOM SIMD utilisation of `w`, %.
pub fn utilisation(w: &str) -> Option<f64> {
    TABLE2.iter().find(|(n, _, _)| *n == w).map(|&(_, _, u)| u)
}

/// Fig. 9 / §5.1: CAPRI's prediction accuracy, % (divergent, non-divergent).
pub const ACCURACY: (f64, f64) = (86.6, 99.8);

/// Fig. 10b / §5.2: idle cycles over WPDOM, average % (TBC, TBC+, CAPRI 1b-Sticky,
/// CAPRI 1b-Latest).
pub const IDLE: [(&str, f64); 4] = [
    ("TBC", 86.4),
    ("TBC+", 62.2),
    ("CAPRI 1b-Sticky", 13.7),
    ("CAPRI 1b-Latest", 9.1),
];

/// Fig. 11 / §5.3: harmonic means of IPC over WPDOM, % (divergent: CAPRI 1b-Latest over
/// WPDOM and over TBC+; non-divergent: TBC, TBC+ over WPDOM; CAPRI within 1%).
pub const DIVERGENT_CAPRI_OVER_WPDOM: f64 = 12.6;
pub const DIVERGENT_CAPRI_OVER_TBC_PLUS: f64 = 7.2;
pub const NON_DIVERGENT: [(&str, f64); 2] = [("TBC", -10.1), ("TBC+", -8.9)];
pub const NON_DIVERGENT_CAPRI_WITHIN: f64 = 1.0;

/// Fig. 13 / §5.4: the workloads whose L1 misses CAPRI raises the most.
pub const L1_LARGEST_INCREASE: [&str; 2] = ["bfs", "mum"];

/// §5.4: 8 CAPT entries reach 97% of an unlimited CAPT's IPC; at most 24 entries used.
pub const CAPT_8_OF_UNLIMITED: f64 = 97.0;
pub const CAPT_MOST_ENTRIES: u64 = 24;

/// The blocks each mechanism adds, as presets of the report, and what the paper says of
/// them (§5.5).
pub const COST: &[crate::cost::Block] = &[
    (
        "CAPRI",
        "capt_8",
        "CAPT 8 x (32-bit tag + valid + 1 history) = 272 bits per core",
    ),
    ("CAPRI", "capri_decision", "(not costed)"),
    ("CAPRI", "adequacy_evaluator", "per-lane popcounts"),
    ("TBC", "warp_compaction_unit", "(from [8])"),
    (
        "TBC",
        "tbc_stack",
        "TBC < 1 mm2 per chip at 65 nm (from [8])",
    ),
];
