//! Popcount model (SPEC §1).

/// Number of set bits among the low `n` bits of `bits`.
pub fn count(bits: u64, n: usize) -> usize {
    assert!((1..=64).contains(&n), "models hold at most 64 bits");
    (0..n).filter(|&i| bits >> i & 1 == 1).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(count(0, 8), 0);
        assert_eq!(count(0b1011_0100, 8), 4);
        assert_eq!(count(u64::MAX, 64), 64);
        assert_eq!(count(0b1_1000_0000, 8), 1, "bits above n are ignored");
    }
}
