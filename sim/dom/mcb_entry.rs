//! MCB entry model (SPEC §4): per-thread invalid / waiting / ready, address, data.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadState {
    Invalid,
    Waiting,
    Ready,
}

/// One edge's inputs. Vectors are per lane.
#[derive(Clone, Debug, Default)]
pub struct McbInputs {
    pub reset: bool,
    pub capture: bool,
    pub capture_mask: u64,
    pub addr_in: Vec<u64>,
    pub fill: bool,
    pub fill_addr: u64,
    pub fill_data: Vec<u64>,
    pub release: bool,
    pub release_mask: u64,
}

#[derive(Clone, Debug)]
pub struct McbEntry {
    pub offset_bits: usize,
    pub waiting: u64,
    pub ready: u64,
    pub addr: Vec<u64>,
    pub data: Vec<u64>,
}

impl McbEntry {
    pub fn new(lanes: usize, offset_bits: usize) -> Self {
        McbEntry {
            offset_bits,
            waiting: 0,
            ready: 0,
            addr: vec![0; lanes],
            data: vec![0; lanes],
        }
    }

    pub fn state(&self, lane: usize) -> ThreadState {
        if self.waiting >> lane & 1 == 1 {
            ThreadState::Waiting
        } else if self.ready >> lane & 1 == 1 {
            ThreadState::Ready
        } else {
            ThreadState::Invalid
        }
    }

    fn cap(i: &McbInputs) -> u64 {
        if i.capture {
            i.capture_mask
        } else {
            0
        }
    }

    /// Threads written back on this edge.
    pub fn released(&self, i: &McbInputs) -> u64 {
        if i.release {
            i.release_mask & self.ready & !Self::cap(i)
        } else {
            0
        }
    }

    /// `release_data`: the data of the released threads, 0 elsewhere.
    pub fn release_data(&self, i: &McbInputs) -> Vec<u64> {
        let rel = self.released(i);
        (0..self.data.len())
            .map(|c| if rel >> c & 1 == 1 { self.data[c] } else { 0 })
            .collect()
    }

    /// Threads woken by this edge's fill (after the capture).
    pub fn woken(&self, i: &McbInputs) -> u64 {
        let cap = Self::cap(i);
        let wait1 = self.waiting | cap;
        (0..self.addr.len())
            .filter(|&c| {
                let a = if cap >> c & 1 == 1 {
                    i.addr_in[c]
                } else {
                    self.addr[c]
                };
                i.fill && wait1 >> c & 1 == 1 && (a ^ i.fill_addr) >> self.offset_bits == 0
            })
            .fold(0, |m, c| m | 1 << c)
    }

    pub fn clock(&mut self, i: &McbInputs) {
        let cap = Self::cap(i);
        let rel = self.released(i);
        let wake = self.woken(i);
        for c in 0..self.addr.len() {
            if cap >> c & 1 == 1 {
                self.addr[c] = i.addr_in[c];
            }
            if wake >> c & 1 == 1 {
                self.data[c] = i.fill_data[c];
            }
        }
        self.waiting = (self.waiting | cap) & !wake;
        self.ready = (self.ready & !cap & !rel) | wake;
        if i.reset {
            self.waiting = 0;
            self.ready = 0;
        }
    }
}
