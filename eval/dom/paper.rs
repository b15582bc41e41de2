//! What the DoM paper (Tarjan, Meng and Skadron, "Increasing Memory Miss Tolerance for SIMD
//! Cores", SC 2009) reports, as the page quotes it.

/// A kernel's row of Table 3 (blocking).
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    pub name: &'static str,
    /// Thread instructions per memory op.
    pub per_op: f64,
    /// Chip bandwidth, GB/s, at 1 and at 16 warps per core.
    pub gbps: (f64, f64),
    /// Chip MInst/s at 1 and at 16 warps per core.
    pub minst: (f64, f64),
}

const fn kernel(name: &'static str, per_op: f64, gbps: (f64, f64), minst: (f64, f64)) -> Kernel {
    Kernel {
        name,
        per_op,
        gbps,
        minst,
    }
}

/// Table 3, in its order.
pub const TABLE3: &[Kernel] = &[
    kernel("nl", 19.0, (8.15, 111.4), (156.0, 2048.0)),
    kernel("lj", 25.0, (26.34, 256.0), (204.0, 1599.0)),
    kernel("sa", 7.0, (62.77, 256.0), (57.0, 445.0)),
    kernel("rt", 15.0, (30.60, 256.0), (124.0, 767.0)),
    kernel("km", 5.0, (26.0, 256.0), (2048.0, 634.0)),
    kernel("gf", 8.0, (77.91, 256.0), (65.0, 215.0)),
];

/// §7.2: 32 cores at 2 GHz share the 256 GB/s interface; a thread instruction per lane
/// per cycle is 2048 chip GInst/s... read as MInst/s in Table 3 (2048 = 32 cores x 32
/// lanes x 2 GHz, the stated peak), so a core's IPC is chip MInst/s / 64.
pub const CORES: f64 = 32.0;
pub const CHIP_GBPS: f64 = 256.0;
pub const CLOCK_GHZ: f64 = 2.0;

/// Table 3's row of `w`.
pub fn table3(w: &str) -> Option<Kernel> {
    TABLE3.iter().find(|k| k.name == w).copied()
}

/// A core's IPC from Table 3's chip MInst/s.
pub fn core_ipc(chip_minst: f64) -> f64 {
    chip_minst / (CORES * CLOCK_GHZ)
}

/// §8.3, Fig. 7: adaptive slip over blocking at 1 warp per core (KM: "no appreciable
/// speedup"; RT is not given).
pub const ONE_WARP_SPEEDUP: &[(&str, f64)] = &[
    ("gf", 8.3),
    ("lj", 5.6),
    ("sa", 4.23),
    ("nl", 2.5),
    ("km", 1.0),
];

/// §8.3, Fig. 8: geometric means over the kernels against 1-warp blocking, at 1, 2 and 4
/// warps: (warps, DoM adaptive, blocking). (3.14 is the paper's figure, not pi.)
#[allow(clippy::approx_constant)]
pub const GEOMEAN: &[(u32, f64, f64)] = &[(1, 3.14, 1.0), (2, 4.66, 1.8), (4, 5.38, 3.07)];

/// §8.3: DoM adaptive over blocking at the same warps, geometric mean: +26% at 8 warps,
/// +3.8% at 16.
pub const SAME_WARPS: &[(u32, f64)] = &[(8, 1.26), (16, 1.038)];

/// §8.1/§8.3: 16 warps blocking over 1 warp blocking (the peak of blocking), geometric
/// mean; and 2 warps with DoM match it.
pub const BLOCKING_16: f64 = 4.14;

/// "From weft to the paper"'s last row: DoM adaptive over 1-warp blocking at 1, 2, 4 and
/// 16 warps ([`GEOMEAN`]'s, and at 16 warps §8.3's +3.8% over 16-warp blocking's 4.14).
#[allow(clippy::approx_constant)]
pub const ROW_GEOMEAN: [f64; 4] = [3.14, 4.66, 5.38, BLOCKING_16 * 1.038];

/// §8.2, Fig. 6: fixed max-slip over blocking at the same warps, geometric mean: (warps,
/// one value for all kernels ("avg max slip"), the best value per kernel ("best mix")).
pub const FIXED: &[(u32, f64, f64)] = &[(1, 2.65, 4.0), (2, 2.88, 3.15)];

/// §8.4: with a private 256 KB L2, 16 warps blocking over 1 warp blocking (6.35) and the
/// peak of DoM adaptive (7.36) over 1-warp blocking with the L2.
pub const L2_BLOCKING_16: f64 = 6.35;
pub const L2_PEAK_DOM: f64 = 7.36;

/// §8.4: the chip with L2s over the chip without, at 1, 2, 4, 8, 16 warps (%).
pub const L2_GAIN: &[(u32, f64)] = &[(1, 8.1), (2, 7.2), (4, 7.4), (8, 52.4), (16, 115.9)];

/// §6.1 / Table 2: a 2-warp core with DoM is 35% smaller than a 16-warp core (7.3 vs 11.5
/// mm2, Opteron-scaled core areas weft cannot remeasure).
pub const AREA_SAVING: f64 = 35.0;

/// The blocks DoM adds, as presets of the report, and Table 1's storage for them.
pub const COST: &[crate::cost::Block] = &[
    (
        "DoM",
        "mdt",
        "MDT: M x (PC + N x W bits), 16-256 B per core (M = 2)",
    ),
    (
        "DoM",
        "mcb_entry",
        "MCB: a coalescing buffer entry per MDT entry",
    ),
    (
        "DoM",
        "slip_controller_1w",
        "slip counters: 8 bits per thread, 32-512 B per core",
    ),
    ("DoM", "slip_controller_2w", "(2 warps)"),
    ("DoM", "slip_controller_4w", "(4 warps)"),
    ("DoM", "slip_controller_16w", "(16 warps)"),
    ("DoM", "adaptive_diff", "max-slip: 1 B per core"),
    (
        "DoM",
        "warp_memory_divergence",
        "one warp: MDT + MCB + slip counters",
    ),
    (
        "DoM",
        "warp_memory_divergence_unlimited",
        "one warp, M = W: the MDT that does not limit (§7.1)",
    ),
];

/// The register file a warp holds, in bits: 32 registers x 32 lanes x 32 bits (§6.1's
/// comparison of 2 warps with DoM against 16 without).
pub const WARP_REGISTER_BITS: u64 = 32 * 32 * 32;
