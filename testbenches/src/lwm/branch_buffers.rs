//! Branch buffers bench: RTL vs model with the SPEC §2.2 contracts.
//!
//! Stimulus follows the sub-warp unit's protocol: a random large-warp active mask is
//! broken into sub-warps with the column compactor model (normal mode: packed across
//! rows; memory mode: one row per sub-warp), one per cycle with occasional bubbles, each
//! with random per-lane taken bits (all taken, none taken or mixed, so both uniform and
//! divergent branches come up). Inactive lanes carry junk row ids and outcomes.
use crate::bench::{contract, expect, settle, Bench, Mismatch};
use crate::convert::{bits_from_rows, rows_from_bits};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::lwm::branch_buffers::BranchBuffers;
use weft_sim::lib::column_compactor::{clear, pick};
use weft_sim::lwm::branch_buffers::{BranchBuffers as Model, SubWarpOutcome};

/// Inputs of one cycle.
#[derive(Clone, Debug, Default)]
pub struct BranchInputs {
    pub reset: bool,
    pub valid: bool,
    /// The sub-warp's outcome (`last` included); its `rows` has one entry per lane.
    pub sub: SubWarpOutcome,
}

pub struct BranchBuffersBench<
    const LANES: usize,
    const ROWS: usize,
    const N: usize,
    const RW: usize,
    const GW: usize,
> {
    pub uut: BranchBuffers<LANES, ROWS, N, RW, GW>,
    pub model: Model,
    pub inputs: BranchInputs,
    /// Stimulus: threads of the current branch not presented yet, and its mode.
    remaining: Vec<u64>,
    memory_mode: bool,
    taken_style: u32,
    /// Contract bookkeeping: threads presented in the branch being accumulated, and in
    /// the branch whose result is due next cycle.
    presented: Vec<u64>,
    finished: Option<Vec<u64>>,
}

impl<const LANES: usize, const ROWS: usize, const N: usize, const RW: usize, const GW: usize>
    crate::presets::Tested for BranchBuffers<LANES, ROWS, N, RW, GW>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![("LANES", LANES), ("ROWS", ROWS)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(BranchBuffersBench::<LANES, ROWS, N, RW, GW>::default())
    }
}

impl<const LANES: usize, const ROWS: usize, const N: usize, const RW: usize, const GW: usize>
    Default for BranchBuffersBench<LANES, ROWS, N, RW, GW>
{
    fn default() -> Self {
        let mut uut = BranchBuffers::default();
        uut.connect_all();
        BranchBuffersBench {
            uut,
            model: Model::new(LANES, ROWS),
            inputs: BranchInputs {
                sub: SubWarpOutcome {
                    rows: vec![0; LANES],
                    ..Default::default()
                },
                ..Default::default()
            },
            remaining: vec![0; ROWS],
            memory_mode: false,
            taken_style: 0,
            presented: vec![0; ROWS],
            finished: None,
        }
    }
}

fn lane_mask(lanes: usize) -> u64 {
    if lanes == 64 {
        u64::MAX
    } else {
        (1 << lanes) - 1
    }
}

impl<const LANES: usize, const ROWS: usize, const N: usize, const RW: usize, const GW: usize>
    BranchBuffersBench<LANES, ROWS, N, RW, GW>
{
    /// Applies explicit inputs (directed tests use this instead of `drive`).
    pub fn apply(&mut self, inputs: BranchInputs) {
        assert_eq!(inputs.sub.rows.len(), LANES, "one row id per lane");
        self.uut.reset.next = inputs.reset;
        self.uut.valid.next = inputs.valid;
        self.uut.sub_mask.next = bits_from_rows(&[inputs.sub.mask & lane_mask(LANES)], LANES);
        // Row ids are packed per lane (lane c at bits [c*RW, c*RW+RW)).
        let fields: Vec<u64> = inputs
            .sub
            .rows
            .iter()
            .map(|&r| r as u64 & lane_mask(RW))
            .collect();
        self.uut.sub_rows.next = bits_from_rows(&fields, RW);
        self.uut.taken.next = bits_from_rows(&[inputs.sub.taken & lane_mask(LANES)], LANES);
        self.uut.last.next = inputs.sub.last;
        self.inputs = inputs;
    }

    /// One whole cycle with explicit inputs (drive, settle, check, edge, settle, tick).
    pub fn step(&mut self, inputs: BranchInputs) -> Result<(), Mismatch> {
        self.set_clock(false);
        self.apply(inputs);
        settle(self.block_mut())?;
        self.check()?;
        self.set_clock(true);
        settle(self.block_mut())?;
        self.tick()
    }

    /// The RTL's result this cycle: (done, taken rows, not-taken rows, diverged).
    pub fn rtl_result(&self) -> (bool, Vec<u64>, Vec<u64>, bool) {
        (
            self.uut.done.val(),
            rows_from_bits(self.uut.taken_mask.val(), LANES),
            rows_from_bits(self.uut.not_taken_mask.val(), LANES),
            self.uut.diverged.val(),
        )
    }

    fn random_large_warp(rng: &mut ChaCha8Rng) -> Vec<u64> {
        let style = rng.gen_range(0..5);
        (0..ROWS)
            .map(|r| {
                let v: u64 = match style {
                    0 => u64::MAX,
                    1 => rng.gen(),
                    2 => rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>(),
                    3 => {
                        if r == 0 {
                            rng.gen()
                        } else {
                            0
                        }
                    }
                    _ => rng.gen::<u64>() | rng.gen::<u64>(),
                };
                v & lane_mask(LANES)
            })
            .collect()
    }
}

impl<const LANES: usize, const ROWS: usize, const N: usize, const RW: usize, const GW: usize> Bench
    for BranchBuffersBench<LANES, ROWS, N, RW, GW>
{
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        let reset = cycle == 0 || rng.gen_ratio(1, 500);
        if self.remaining.iter().all(|&r| r == 0) {
            // Next branch: a new large warp mask (never empty: a branch has a sub-warp).
            loop {
                self.remaining = Self::random_large_warp(rng);
                if self.remaining.iter().any(|&r| r != 0) {
                    break;
                }
            }
            self.memory_mode = rng.gen_ratio(1, 4);
            self.taken_style = rng.gen_range(0..4);
        }
        // Junk everywhere, then the presented sub-warp on top.
        let mut sub = SubWarpOutcome {
            mask: rng.gen::<u64>() & lane_mask(LANES),
            rows: (0..LANES).map(|_| rng.gen_range(0..1usize << RW)).collect(),
            taken: rng.gen(),
            last: rng.gen(),
        };
        let valid = rng.gen_ratio(4, 5);
        if valid {
            let lowest = self.remaining.iter().position(|&r| r != 0);
            let memory = self.memory_mode;
            let group = pick(&self.remaining, LANES, |r| !memory || Some(r) == lowest);
            clear(&mut self.remaining, &group);
            sub.mask = group.lanes;
            for c in 0..LANES {
                if group.lanes >> c & 1 == 1 {
                    sub.rows[c] = group.rows[c];
                }
            }
            sub.taken = match self.taken_style {
                0 => u64::MAX,
                1 => 0,
                _ => rng.gen(),
            };
            sub.last = self.remaining.iter().all(|&r| r == 0);
        }
        self.apply(BranchInputs { reset, valid, sub });
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let want = self.model.outputs();
        let (done, taken, not_taken, diverged) = self.rtl_result();
        expect("done", want.done, done)?;
        expect("taken_mask", &want.taken, &taken)?;
        expect("not_taken_mask", &want.not_taken, &not_taken)?;
        expect("diverged", want.diverged, diverged)?;
        // Contracts on the RTL's own outputs.
        contract(
            "no thread both taken and not taken",
            taken.iter().zip(&not_taken).all(|(t, n)| t & n == 0),
            || format!("taken {taken:x?}, not taken {not_taken:x?}"),
        )?;
        let any = |v: &[u64]| v.iter().any(|&r| r != 0);
        contract(
            "diverged == done && both paths non-empty",
            diverged == (done && any(&taken) && any(&not_taken)),
            || format!("diverged {diverged}"),
        )?;
        if done {
            if let Some(threads) = &self.finished {
                let union: Vec<u64> = taken.iter().zip(&not_taken).map(|(t, n)| t | n).collect();
                contract(
                    "no thread lost or added: taken | not taken == the sub-warps' threads",
                    &union == threads,
                    || format!("union {union:x?}, presented {threads:x?}"),
                )?;
            }
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = &self.inputs;
        let was_done = self.model.outputs().done;
        // Contract bookkeeping, mirrored from the protocol (not from the model).
        self.finished = None;
        if i.reset {
            self.presented = vec![0; ROWS];
            // The stimulus restarts its branch too.
            self.remaining = vec![0; ROWS];
        } else {
            if was_done {
                self.presented = vec![0; ROWS];
            }
            if i.valid {
                for c in 0..LANES {
                    if i.sub.mask >> c & 1 == 1 {
                        self.presented[i.sub.rows[c]] |= 1 << c;
                    }
                }
                if i.sub.last {
                    self.finished = Some(self.presented.clone());
                }
            }
        }
        self.model.clock(i.reset, i.valid.then_some(&i.sub));
        Ok(())
    }
}
