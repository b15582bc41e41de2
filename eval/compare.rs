//! The decisions behind a page's comparisons with its paper, shared by every study: a
//! measured figure against the paper's (within a tolerance or not, the same sign or
//! not), one measurement ahead of another by a margin, the paper's figure between two
//! measurements. Each is a small pure function, so its every branch is unit-tested; the
//! pages write the sentences around them.

/// A ratio as a change in percent: 1.084 is 8.4 (the number [`crate::page::pct`] prints).
pub fn percent(ratio: f64) -> f64 {
    100.0 * (ratio - 1.0)
}

/// Whether `measured` is more than `tolerance` from the paper's `paper` (same unit: both
/// percent, or both points); a difference of exactly `tolerance` is within.
pub fn outside(measured: f64, paper: f64, tolerance: f64) -> bool {
    (measured - paper).abs() > tolerance
}

/// Whether a measured ratio over the baseline has the sign of the paper's change in
/// percent: a gain (above 1) where the paper reports a gain (above 0), no gain where it
/// reports none.
pub fn same_sign(ratio: f64, paper: f64) -> bool {
    (ratio > 1.0) == (paper > 0.0)
}

/// Whether `a` is ahead of `b` by more than the factor `margin` (1.02: more than 2%).
pub fn ahead(a: f64, b: f64, margin: f64) -> bool {
    a > margin * b
}

/// Whether `a` is behind `b` by more than the factor `margin` (0.98: more than 2% below).
pub fn behind(a: f64, b: f64, margin: f64) -> bool {
    a < margin * b
}

/// Whether the paper's figure lies between two measurements (either order, ends
/// included): the two readings of a workload bracket it.
pub fn between(paper: f64, a: f64, b: f64) -> bool {
    (a.min(b)..=a.max(b)).contains(&paper)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_is_the_change_over_one() {
        assert!((percent(1.084) - 8.4).abs() < 1e-9);
        assert!((percent(0.9) + 10.0).abs() < 1e-9);
        assert_eq!(percent(1.0), 0.0);
    }

    #[test]
    fn outside_is_further_than_the_tolerance_either_way() {
        // The paper's 23% against 38.9% (above) and 17.0% (below), 5 points allowed.
        assert!(outside(38.9, 23.0, 5.0));
        assert!(outside(17.0, 23.0, 5.0));
        assert!(!outside(27.0, 23.0, 5.0));
        assert!(!outside(19.5, 23.0, 5.0));
        // Exactly the tolerance is within.
        assert!(!outside(28.0, 23.0, 5.0));
        assert!(!outside(-1.0, 0.0, 1.0));
        assert!(outside(-1.2, 0.0, 1.0));
    }

    #[test]
    fn same_sign_compares_a_ratio_with_a_percent_change() {
        assert!(same_sign(1.085, 10.1));
        assert!(!same_sign(0.95, 10.1));
        // No change is not a gain.
        assert!(!same_sign(1.0, 10.1));
        assert!(same_sign(0.9, -10.1));
        assert!(!same_sign(1.1, -10.1));
    }

    #[test]
    fn ahead_needs_more_than_the_margin() {
        assert!(ahead(1.03, 1.0, 1.02));
        assert!(!ahead(1.02, 1.0, 1.02));
        assert!(!ahead(1.01, 1.0, 1.02));
        // The margin scales with the second: 1.1 against 1.08 is 1.85%.
        assert!(!ahead(1.1, 1.08, 1.02));
        assert!(ahead(1.1, 1.07, 1.02));
        // Behind is never ahead.
        assert!(!ahead(0.9, 1.0, 1.02));
    }

    #[test]
    fn behind_needs_more_than_the_margin() {
        assert!(behind(0.97, 1.0, 0.98));
        assert!(!behind(0.98, 1.0, 0.98));
        assert!(!behind(0.99, 1.0, 0.98));
        assert!(!behind(1.2, 1.0, 0.98));
        // 0.5 against 0.52 is 3.8% below.
        assert!(behind(0.5, 0.52, 0.98));
        assert!(!behind(0.51, 0.52, 0.98));
    }

    #[test]
    fn between_takes_either_order_and_its_ends() {
        assert!(between(23.0, 38.9, 7.2));
        assert!(between(23.0, 7.2, 38.9));
        assert!(between(7.2, 7.2, 38.9));
        assert!(!between(81.0, 91.6, 95.0));
        assert!(!between(5.0, 7.2, 38.9));
    }
}
