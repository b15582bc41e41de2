//! Control vector table model (SPEC §5): `blocks` vectors of `words` 64-bit words in
//! `banks` interleaved banks; read-and-reset reads, OR writes, the stall rules of the
//! RTL (a write yields to a read of its bank and to a read-modify-write in progress;
//! a read of the word being read-modify-written waits). Cycle semantics: `outputs()`
//! is what the table presents this cycle; `clock()` applies a rising edge.

/// What the table presents in one cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CvtOut {
    pub rd_ready: bool,
    pub rd_data_valid: bool,
    pub rd_data: u64,
    pub wr_ready: bool,
    pub q_words: u64,
    pub nonempty: u64,
}

/// A word address: block and word within the block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WordAddr {
    pub block: usize,
    pub word: usize,
}

#[derive(Clone, Debug)]
pub struct Cvt {
    words: usize,
    banks: usize,
    /// `vec[block][word]`.
    vec: Vec<Vec<u64>>,
    /// Word of a read-modify-write that completes on the next edge.
    pend: Option<usize>,
    /// Last edge's read: the word it returned.
    resp: Option<u64>,
}

impl Cvt {
    pub fn new(blocks: usize, words: usize, banks: usize) -> Self {
        Cvt {
            words,
            banks,
            vec: vec![vec![0; words]; blocks],
            pend: None,
            resp: None,
        }
    }

    fn flat(&self, a: WordAddr) -> usize {
        a.block * self.words + a.word
    }

    fn bank(&self, a: WordAddr) -> usize {
        self.flat(a) % self.banks
    }

    pub fn rd_ready(&self, rd: WordAddr) -> bool {
        self.pend != Some(self.flat(rd))
    }

    pub fn wr_ready(&self, rd: Option<WordAddr>, wr: WordAddr) -> bool {
        self.pend.is_none() && rd.is_none_or(|r| self.bank(r) != self.bank(wr))
    }

    pub fn outputs(
        &self,
        rd: Option<WordAddr>,
        rd_addr: WordAddr,
        wr: WordAddr,
        q_block: usize,
    ) -> CvtOut {
        CvtOut {
            rd_ready: self.rd_ready(rd_addr),
            rd_data_valid: self.resp.is_some(),
            rd_data: self.resp.unwrap_or(0),
            wr_ready: self.wr_ready(rd, wr),
            q_words: self.vec.get(q_block).map_or(0, |v| {
                v.iter()
                    .enumerate()
                    .fold(0, |acc, (w, &x)| acc | (u64::from(x != 0) << w))
            }),
            nonempty: self.vec.iter().enumerate().fold(0, |acc, (b, v)| {
                acc | (u64::from(v.iter().any(|&x| x != 0)) << b)
            }),
        }
    }

    /// Rising edge. `rd`: a read offered; `wr`: a write offered (address, bits).
    /// Returns (read taken, write taken).
    pub fn clock(
        &mut self,
        reset: bool,
        rd: Option<WordAddr>,
        wr: Option<(WordAddr, u64)>,
    ) -> (bool, bool) {
        if reset {
            self.vec.iter_mut().for_each(|v| v.fill(0));
            self.pend = None;
            self.resp = None;
            return (false, false);
        }
        let rd_fire = rd.filter(|&a| self.rd_ready(a));
        let wr_fire = wr.filter(|&(a, _)| self.wr_ready(rd, a));
        self.resp = None;
        if let Some(a) = rd_fire {
            let w = &mut self.vec[a.block][a.word];
            self.resp = Some(*w);
            *w = 0;
        }
        self.pend = None;
        if let Some((a, bits)) = wr_fire {
            if bits != 0 {
                if self.vec[a.block][a.word] != 0 {
                    self.pend = Some(self.flat(a));
                }
                self.vec[a.block][a.word] |= bits;
            }
        }
        (rd_fire.is_some(), wr_fire.is_some())
    }

    /// The vectors, `[block][word]`.
    pub fn vectors(&self) -> &[Vec<u64>] {
        &self.vec
    }
}
