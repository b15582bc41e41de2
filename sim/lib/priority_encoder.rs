//! Priority encoder model (SPEC §1): the index of the lowest set bit.

/// Index of the lowest set bit among the low `n` bits of `mask`; `None` when none is
/// set (the RTL then shows `valid = 0`, `index = 0`).
pub fn lowest(mask: u64, n: usize) -> Option<usize> {
    assert!((1..=64).contains(&n), "models hold at most 64 candidates");
    (0..n).find(|&i| mask >> i & 1 == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowest_set_bit() {
        assert_eq!(lowest(0, 8), None);
        assert_eq!(lowest(0b1011_0100, 8), Some(2));
        assert_eq!(lowest(0b1000_0000, 8), Some(7));
        assert_eq!(lowest(0b1_0000_0000, 8), None, "bits above n are ignored");
    }
}
