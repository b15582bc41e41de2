//! Adaptive diff bench: RTL vs model; one decision per period, never both.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::dom::adaptive_diff::AdaptiveDiff;
use weft_sim::dom::adaptive_diff::AdaptiveDiff as Model;

#[derive(Clone, Copy, Debug, Default)]
pub struct DiffInputs {
    pub reset: bool,
    pub idle: bool,
    pub over_share: bool,
    pub mem_stall: bool,
}

pub struct AdaptiveDiffBench<
    const P: usize,
    const I: usize,
    const B: usize,
    const S: usize,
    const CW: usize,
> {
    pub uut: AdaptiveDiff<P, I, B, S, CW>,
    pub model: Model,
    pub inputs: DiffInputs,
    /// Probabilities of the three status inputs, redrawn every period.
    mix: (f64, f64, f64),
}

impl<const P: usize, const I: usize, const B: usize, const S: usize, const CW: usize>
    crate::presets::Tested for AdaptiveDiff<P, I, B, S, CW>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![
            ("PERIOD", P),
            ("IDLE_MAX", I),
            ("BW_MIN", B),
            ("STALL_MIN", S),
        ]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(AdaptiveDiffBench::<P, I, B, S, CW>::default())
    }
}

impl<const P: usize, const I: usize, const B: usize, const S: usize, const CW: usize> Default
    for AdaptiveDiffBench<P, I, B, S, CW>
{
    fn default() -> Self {
        let mut uut = AdaptiveDiff::default();
        uut.connect_all();
        AdaptiveDiffBench {
            uut,
            model: Model::new(P as u64, I as u64, B as u64, S as u64),
            inputs: DiffInputs::default(),
            mix: (0.1, 0.5, 0.3),
        }
    }
}

impl<const P: usize, const I: usize, const B: usize, const S: usize, const CW: usize>
    AdaptiveDiffBench<P, I, B, S, CW>
{
    pub fn apply(&mut self, i: DiffInputs) {
        self.uut.reset.next = i.reset;
        self.uut.idle.next = i.idle;
        self.uut.over_share.next = i.over_share;
        self.uut.mem_stall.next = i.mem_stall;
        self.inputs = i;
    }
}

impl<const P: usize, const I: usize, const B: usize, const S: usize, const CW: usize> Bench
    for AdaptiveDiffBench<P, I, B, S, CW>
{
    crate::bench_rtl_access!(clocked);
    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        if self.model.elapsed == 0 {
            let mut p = || [0.0, 0.01, 0.2, 0.5, 0.8, 1.0][rng.gen_range(0..6)];
            self.mix = (p(), p(), p());
        }
        let (a, b, c) = self.mix;
        self.apply(DiffInputs {
            reset: cycle == 0 || rng.gen_ratio(1, 50_000),
            idle: rng.gen_bool(a),
            over_share: rng.gen_bool(b),
            mem_stall: rng.gen_bool(c),
        });
    }
    fn check(&mut self) -> Result<(), Mismatch> {
        expect("raise", self.model.raise, self.uut.raise.val())?;
        expect("lower", self.model.lower, self.uut.lower.val())?;
        expect("elapsed", self.model.elapsed, small(self.uut.elapsed.val()))?;
        contract(
            "never raise and lower at once",
            !(self.model.raise && self.model.lower),
            || "both".into(),
        )?;
        contract(
            "counts bounded by the period",
            self.model.idle.max(self.model.bw).max(self.model.stall) < P as u64,
            || "count overflow".into(),
        )
    }
    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let end = self.model.elapsed + 1 == P as u64 && !i.reset;
        self.model.clock(i.reset, i.idle, i.over_share, i.mem_stall);
        contract(
            "a decision only right after a period's end",
            end || !(self.model.raise || self.model.lower),
            || "decision mid-period".into(),
        )
    }
}
