//! Live value cache model (SPEC §5): what the cache must look like from outside,
//! whatever it holds inside. The live value array is a memory of 32-bit words at
//! `lv * threads + tid`; a read returns the last value written to `(lv, tid)` (or the
//! memory's initial word), whatever spills and fills happened in between.

/// The live value array as the cache's users see it.
#[derive(Clone, Debug)]
pub struct LiveValues {
    pub threads: usize,
    words: Vec<u32>,
}

impl LiveValues {
    /// `live_values x threads` words holding `initial(address)`.
    pub fn new(live_values: usize, threads: usize, initial: impl Fn(usize) -> u32) -> Self {
        LiveValues {
            threads,
            words: (0..live_values * threads).map(initial).collect(),
        }
    }

    /// The flat word address of `(lv, tid)`.
    pub fn address(&self, lv: usize, tid: usize) -> usize {
        assert!(tid < self.threads, "thread id {tid} outside the tile");
        lv * self.threads + tid
    }

    pub fn read(&self, address: usize) -> u32 {
        self.words[address]
    }

    pub fn write(&mut self, address: usize, value: u32) {
        self.words[address] = value;
    }

    /// Every word, by address.
    pub fn words(&self) -> &[u32] {
        &self.words
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_see_the_last_write() {
        let mut m = LiveValues::new(4, 8, |a| a as u32 * 3);
        let a = m.address(2, 5);
        assert_eq!(a, 21);
        assert_eq!(m.read(a), 63);
        m.write(a, 7);
        m.write(a, 9);
        assert_eq!(m.read(a), 9);
        assert_eq!(m.read(a + 1), 66);
    }
}
