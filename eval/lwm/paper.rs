//! What the LWM paper (Narasiman et al., MICRO 2011) reports, as the page quotes it.

/// The paper's averages over its baseline (§6.1): 2Lev8, LWM256, LWM256+2Lev2.
pub const GAINS: [(&str, f64); 3] = [("2Lev8", 10.1), ("LWM256", 7.6), ("LWM256+2Lev2", 17.0)];

/// The paper's Table 2: (benchmark, divergent-branch intensity, idle-FU intensity).
pub const CLASSES: &[(&str, Class, Class)] = &[
    ("blackjack", Class::High, Class::Low),
    ("sort", Class::High, Class::Low),
    ("viterbi", Class::Medium, Class::Low),
    ("kmeans", Class::Medium, Class::Low),
    ("decrypt", Class::Low, Class::Low),
    ("blackscholes", Class::Low, Class::Medium),
    ("needleman", Class::Low, Class::Medium),
    ("hotspot", Class::Low, Class::High),
    ("matrix_mult", Class::Low, Class::Medium),
    ("reduction", Class::Low, Class::High),
    ("histogram", Class::Low, Class::High),
    ("bfs", Class::High, Class::High),
];

/// An intensity class of Table 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Low,
    Medium,
    High,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Low => "low",
            Class::Medium => "medium",
            Class::High => "high",
        }
    }

    /// Idle-FU intensity from the fraction of cycles with no active lane (<20% low,
    /// 20-40% medium, >40% high).
    pub fn of_idle(fraction: f64) -> Class {
        match fraction {
            f if f < 0.20 => Class::Low,
            f if f <= 0.40 => Class::Medium,
            _ => Class::High,
        }
    }

    /// Divergent-branch intensity from the active threads per warp instruction (>30 low,
    /// 20-30 medium, <20 high).
    pub fn of_branches(active: f64) -> Class {
        match active {
            a if a > 30.0 => Class::Low,
            a if a >= 20.0 => Class::Medium,
            _ => Class::High,
        }
    }
}

/// The blocks each mechanism adds, as presets of the report, and what the paper says
/// they store (§3.3).
pub const COST: &[crate::cost::Block] = &[
    ("LWM", "sub_warp_unit", "active-mask copy: 256 bits"),
    (
        "LWM",
        "branch_buffers",
        "taken / not-taken buffers: 512 bits",
    ),
    ("2Lev8", "two_level_scheduler", "no storage"),
    ("baseline", "round_robin_scheduler", "(what 2Lev8 replaces)"),
    ("LWM256+2Lev2", "two_level_scheduler_4x2", "no storage"),
];
