//! Conversions between rust-hdl `Bits` and the models' plain integers.
use rust_hdl::prelude::*;

/// Builds a `Bits<N>` from row masks: row `r`'s lane `c` goes to bit `r*lanes + c`.
pub fn bits_from_rows<const N: usize>(rows: &[u64], lanes: usize) -> Bits<N> {
    assert_eq!(rows.len() * lanes, N, "rows x lanes must fill the vector");
    if N <= 64 {
        let flat = rows
            .iter()
            .enumerate()
            .fold(0u64, |acc, (r, &row)| acc | (row << (r * lanes)));
        return flat.into();
    }
    let mut out = Bits::<N>::default();
    for (r, &row) in rows.iter().enumerate() {
        for c in 0..lanes {
            if row >> c & 1 == 1 {
                out.set_bits::<1>(r * lanes + c, true.into());
            }
        }
    }
    out
}

/// Splits a `Bits<N>` into `N/lanes` row masks.
pub fn rows_from_bits<const N: usize>(bits: Bits<N>, lanes: usize) -> Vec<u64> {
    assert!(lanes <= 64 && N.is_multiple_of(lanes));
    (0..N / lanes)
        .map(|r| {
            (0..lanes).fold(0u64, |acc, c| {
                acc | (u64::from(bits.get_bit(r * lanes + c)) << c)
            })
        })
        .collect()
}

/// Splits a packed field vector (field `i` at bits `[i*width, i*width+width)`).
pub fn fields_from_bits<const N: usize>(bits: Bits<N>, width: usize) -> Vec<usize> {
    assert!(width >= 1 && N.is_multiple_of(width));
    (0..N / width)
        .map(|i| {
            (0..width).fold(0usize, |acc, b| {
                acc | (usize::from(bits.get_bit(i * width + b)) << b)
            })
        })
        .collect()
}

/// A `Bits<N>` (N <= 64) as a `u64`.
pub fn small<const N: usize>(bits: Bits<N>) -> u64 {
    assert!(N <= 64);
    (0..N).fold(0u64, |acc, b| acc | (u64::from(bits.get_bit(b)) << b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_wide_and_narrow() {
        let rows = vec![
            0xdead_beef,
            0x1,
            0x8000_0000,
            0,
            0x1234_5678,
            7,
            0,
            0xffff_ffff,
        ];
        let wide: Bits<256> = bits_from_rows(&rows, 32);
        assert_eq!(rows_from_bits(wide, 32), rows);
        let narrow: Bits<12> = bits_from_rows(&[0b1010, 0b0001, 0b1111], 4);
        assert_eq!(small(narrow), 0b1111_0001_1010);
        assert_eq!(fields_from_bits(narrow, 3), vec![2, 3, 4, 7]);
    }
}
