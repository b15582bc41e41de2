//! CVT bench: RTL vs model with the SPEC §5 contracts: a thread's bit is set in at
//! most one block, no thread is lost or duplicated (every thread written is read
//! back exactly once or is still in the table), reads zero their word, stalls never
//! drop a request (the bench holds a stalled request until it is taken).
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::vgiw::cvt::Cvt;
use weft_sim::vgiw::cvt::{Cvt as Model, WordAddr};

/// Inputs of one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct CvtInputs {
    pub reset: bool,
    pub rd_valid: bool,
    pub rd: WordAddr,
    pub wr_valid: bool,
    pub wr: WordAddr,
    pub wr_bits: u64,
    pub q_block: usize,
}

pub struct CvtBench<
    const B: usize,
    const WPB: usize,
    const BANKS: usize,
    const BW: usize,
    const WW: usize,
    const AW: usize,
    const BKW: usize,
    const RB: usize,
> {
    pub uut: Cvt<B, WPB, BANKS, BW, WW, AW, BKW, RB>,
    pub model: Model,
    pub inputs: CvtInputs,
    /// Percent of cycles with a read / a write offered.
    pub rd_percent: u32,
    pub wr_percent: u32,
    /// Which block holds each thread (`None`: not in the table).
    owner: Vec<Option<usize>>,
    /// Requests held while stalled.
    held_rd: Option<WordAddr>,
    held_wr: Option<(WordAddr, u64)>,
    /// The threads the read taken on the previous edge must return.
    last_rd: Option<u64>,
}

impl<
        const B: usize,
        const WPB: usize,
        const BANKS: usize,
        const BW: usize,
        const WW: usize,
        const AW: usize,
        const BKW: usize,
        const RB: usize,
    > crate::presets::Tested for Cvt<B, WPB, BANKS, BW, WW, AW, BKW, RB>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![("BLOCKS", B), ("THREADS", WPB * 64), ("BANKS", BANKS)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(CvtBench::<B, WPB, BANKS, BW, WW, AW, BKW, RB>::default())
    }
}

impl<
        const B: usize,
        const WPB: usize,
        const BANKS: usize,
        const BW: usize,
        const WW: usize,
        const AW: usize,
        const BKW: usize,
        const RB: usize,
    > Default for CvtBench<B, WPB, BANKS, BW, WW, AW, BKW, RB>
{
    fn default() -> Self {
        let mut uut = Cvt::default();
        uut.connect_all();
        CvtBench {
            uut,
            model: Model::new(B, WPB, BANKS),
            inputs: CvtInputs::default(),
            rd_percent: 50,
            wr_percent: 50,
            owner: vec![None; WPB * 64],
            held_rd: None,
            held_wr: None,
            last_rd: None,
        }
    }
}

impl<
        const B: usize,
        const WPB: usize,
        const BANKS: usize,
        const BW: usize,
        const WW: usize,
        const AW: usize,
        const BKW: usize,
        const RB: usize,
    > CvtBench<B, WPB, BANKS, BW, WW, AW, BKW, RB>
{
    /// Applies explicit inputs (directed tests use this instead of `drive`).
    pub fn apply(&mut self, i: CvtInputs) {
        self.uut.reset.next = i.reset;
        self.uut.rd_valid.next = i.rd_valid;
        self.uut.rd_block.next = (i.rd.block as u64).into();
        self.uut.rd_word.next = (i.rd.word as u64).into();
        self.uut.wr_valid.next = i.wr_valid;
        self.uut.wr_block.next = (i.wr.block as u64).into();
        self.uut.wr_word.next = (i.wr.word as u64).into();
        self.uut.wr_bits.next = i.wr_bits.into();
        self.uut.q_block.next = (i.q_block as u64).into();
        self.inputs = i;
    }

    fn rd(&self) -> Option<WordAddr> {
        self.inputs.rd_valid.then_some(self.inputs.rd)
    }

    fn wr(&self) -> Option<(WordAddr, u64)> {
        self.inputs
            .wr_valid
            .then_some((self.inputs.wr, self.inputs.wr_bits))
    }
}

impl<
        const B: usize,
        const WPB: usize,
        const BANKS: usize,
        const BW: usize,
        const WW: usize,
        const AW: usize,
        const BKW: usize,
        const RB: usize,
    > Bench for CvtBench<B, WPB, BANKS, BW, WW, AW, BKW, RB>
{
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        let reset = cycle == 0 || rng.gen_ratio(1, 5000);
        let addr = |rng: &mut ChaCha8Rng| WordAddr {
            block: rng.gen_range(0..B),
            word: rng.gen_range(0..WPB),
        };
        if self.held_rd.is_none() && rng.gen_ratio(self.rd_percent, 100) {
            // Mostly read non-empty words (as the scheduler does), sometimes any.
            let mut a = addr(rng);
            if rng.gen_bool(0.8) {
                let b = rng.gen_range(0..B);
                if let Some(w) = (0..WPB).find(|&w| self.model.vectors()[b][w] != 0) {
                    a = WordAddr { block: b, word: w };
                }
            }
            self.held_rd = Some(a);
        }
        if self.held_wr.is_none() && rng.gen_ratio(self.wr_percent, 100) {
            // OR in threads that are in no block (a thread's bit is in one block).
            let a = addr(rng);
            let density = rng.gen_range(0..4);
            let mut bits = 0u64;
            for k in 0..64 {
                let t = a.word * 64 + k;
                if self.owner[t].is_none() && rng.gen_range(0..4) <= density {
                    bits |= 1 << k;
                }
            }
            self.held_wr = Some((a, if rng.gen_ratio(1, 50) { 0 } else { bits }));
        }
        let (wa, wb) = self.held_wr.unwrap_or_default();
        self.apply(CvtInputs {
            reset,
            rd_valid: self.held_rd.is_some(),
            rd: self.held_rd.unwrap_or_default(),
            wr_valid: self.held_wr.is_some(),
            wr: wa,
            wr_bits: wb,
            q_block: rng.gen_range(0..B),
        });
        if reset {
            self.held_rd = None;
            self.held_wr = None;
            self.inputs.rd_valid = false;
            self.inputs.wr_valid = false;
            self.uut.rd_valid.next = false;
            self.uut.wr_valid.next = false;
        }
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let want = self.model.outputs(self.rd(), i.rd, i.wr, i.q_block);
        expect("rd_ready", want.rd_ready, self.uut.rd_ready.val())?;
        expect(
            "rd_data_valid",
            want.rd_data_valid,
            self.uut.rd_data_valid.val(),
        )?;
        expect("rd_data", want.rd_data, small(self.uut.rd_data.val()))?;
        expect("wr_ready", want.wr_ready, self.uut.wr_ready.val())?;
        expect("q_words", want.q_words, small(self.uut.q_words.val()))?;
        expect("nonempty", want.nonempty, small(self.uut.nonempty.val()))?;
        if let Some(expected) = self.last_rd {
            let data = small(self.uut.rd_data.val());
            contract(
                "a read returns exactly the threads written to that word of that block",
                self.uut.rd_data_valid.val() && data == expected,
                || format!("read {data:#x}, expected {expected:#x}"),
            )?;
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let (rd_taken, wr_taken) = self.model.clock(i.reset, self.rd(), self.wr());
        if i.reset {
            self.owner.fill(None);
            self.last_rd = None;
            return Ok(());
        }
        self.last_rd = None;
        if rd_taken {
            // The word's threads leave the table (read-and-reset).
            let a = i.rd;
            let mut expected = 0;
            for k in 0..64 {
                let t = a.word * 64 + k;
                if self.owner[t] == Some(a.block) {
                    self.owner[t] = None;
                    expected |= 1 << k;
                }
            }
            self.last_rd = Some(expected);
            self.held_rd = None;
        }
        if wr_taken {
            let (a, bits) = (i.wr, i.wr_bits);
            for k in (0..64).filter(|k| bits >> k & 1 == 1) {
                self.owner[a.word * 64 + k] = Some(a.block);
            }
            self.held_wr = None;
        }
        // A thread's bit is set in at most one block; the table holds exactly the
        // threads the bench believes are in it.
        let v = self.model.vectors();
        #[allow(clippy::needless_range_loop)] // `w` indexes every block's vector
        for w in 0..WPB {
            for k in 0..64 {
                let t = w * 64 + k;
                let holders: Vec<usize> = (0..B).filter(|&b| v[b][w] >> k & 1 == 1).collect();
                contract(
                    "a thread's bit is set in at most one block",
                    holders.len() <= 1,
                    || format!("thread {t} in blocks {holders:?}"),
                )?;
                contract(
                    "no thread lost or duplicated",
                    holders.first().copied() == self.owner[t],
                    || {
                        format!(
                            "thread {t}: table {holders:?}, expected {:?}",
                            self.owner[t]
                        )
                    },
                )?;
            }
        }
        Ok(())
    }
}
