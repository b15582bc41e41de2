//! Column compactor model (SPEC §1): per lane, the lowest held row among the enabled
//! rows is picked; the picks form one group.

/// One packed group: the lanes it covers and the row each lane's thread comes from.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Group {
    /// Bit `c` set when lane `c` carries a thread.
    pub lanes: u64,
    /// Row of lane `c`'s thread; 0 for inactive lanes.
    pub rows: Vec<usize>,
}

/// The group the column compactor picks from `held` (one `u64` per row) when only the
/// rows with `enabled[r]` may be picked.
pub fn pick(held: &[u64], lanes: usize, enabled: impl Fn(usize) -> bool) -> Group {
    let mut group = Group {
        lanes: 0,
        rows: vec![0; lanes],
    };
    let all = super::low_bits(lanes);
    for (r, &row) in held.iter().enumerate() {
        if group.lanes == all {
            break; // every lane has its thread: no later row is picked
        }
        if !enabled(r) {
            continue;
        }
        // The row's threads in lanes no earlier row filled.
        let mut new = row & all & !group.lanes;
        group.lanes |= new;
        while new != 0 {
            group.rows[new.trailing_zeros() as usize] = r;
            new &= new - 1;
        }
    }
    group
}

/// Clears a group's threads from `held`.
pub fn clear(held: &mut [u64], group: &Group) {
    for c in 0..group.rows.len() {
        if group.lanes >> c & 1 == 1 {
            held[group.rows[c]] &= !(1 << c);
        }
    }
}

/// Number of groups any lane-preserving packing needs: the largest column popcount.
pub fn min_groups(held: &[u64], lanes: usize) -> usize {
    (0..lanes)
        .map(|c| held.iter().filter(|&&row| row >> c & 1 == 1).count())
        .max()
        .unwrap_or(0)
}

/// Splits a row-major flat mask (bit `r*lanes + c`) into rows.
pub fn rows_of(flat: &[bool], rows: usize, lanes: usize) -> Vec<u64> {
    assert!(lanes <= 64, "models hold at most 64 lanes per row");
    assert_eq!(flat.len(), rows * lanes);
    (0..rows)
        .map(|r| (0..lanes).fold(0u64, |acc, c| acc | (u64::from(flat[r * lanes + c]) << c)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_across_rows_keeping_lanes() {
        // row 0: lanes 1,3; row 1: lanes 0,1
        let mut held = vec![0b1010, 0b0011];
        let g = pick(&held, 4, |_| true);
        assert_eq!(g.lanes, 0b1011);
        assert_eq!(g.rows, vec![1, 0, 0, 0]);
        clear(&mut held, &g);
        assert_eq!(held, vec![0, 0b0010]);
        assert_eq!(min_groups(&[0b1010, 0b0011], 4), 2);
    }
}
