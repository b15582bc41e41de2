//! Round-robin arbiter model (SPEC §1): the first requester after the last grant.

/// The first requester among the low `n` bits of `request` in the cyclic order
/// `last+1, last+2, ..., n-1, 0, ..., last`; `None` when none requests. A `last`
/// outside `0..n` counts as `n-1` (the search starts at 0), as in the RTL.
pub fn grant(request: u64, n: usize, last: usize) -> Option<usize> {
    assert!((1..=64).contains(&n), "models hold at most 64 requesters");
    let request = request & super::low_bits(n);
    // The lowest requester from `last + 1` up, else the lowest one below it.
    let start = (last.min(n - 1) + 1) % n;
    let from_start = request & (u64::MAX << start);
    let pick = if from_start != 0 { from_start } else { request };
    (pick != 0).then(|| pick.trailing_zeros() as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cyclic_order_after_last() {
        assert_eq!(grant(0, 6, 2), None);
        assert_eq!(grant(0b010110, 6, 1), Some(2));
        assert_eq!(grant(0b010110, 6, 2), Some(4));
        assert_eq!(grant(0b010110, 6, 4), Some(1));
        assert_eq!(grant(0b000100, 6, 2), Some(2));
        assert_eq!(grant(0b100001, 6, 7), Some(0));
    }
}
