//! Adequacy evaluator model (SPEC §3.1): warps after full compaction, warps active now.
use crate::lib::column_compactor::min_groups;

/// What the evaluator reports for one CTA-wide mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adequacy {
    pub min_warps: usize,
    pub active_warps: usize,
    pub adequate: bool,
}

/// Evaluates `rows` (one `u64` lane mask per warp).
pub fn evaluate(rows: &[u64], lanes: usize) -> Adequacy {
    let min_warps = min_groups(rows, lanes);
    let active_warps = rows.iter().filter(|&&r| r != 0).count();
    Adequacy {
        min_warps,
        active_warps,
        adequate: min_warps < active_warps,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figure_3_and_figure_7d() {
        assert!(evaluate(&[0b0001, 0b1100], 4).adequate);
        let e = evaluate(&[0b1111, 0b1001, 0b0011], 4);
        assert_eq!((e.min_warps, e.active_warps, e.adequate), (3, 3, false));
    }
}
