//! Special compute unit bench: RTL vs model every cycle, with the SPEC §6 contracts:
//! never more than `COPIES` operations in flight; every accepted operation produces
//! exactly one result, in issue order, with its thread and the RISC-V quotient or
//! remainder.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::VecDeque;
use weft_hdl::cgrf::special_compute_unit::SpecialComputeUnit;
use weft_sim::cgrf::special_compute_unit::{divide, DivOp, DivToken, SpecialComputeUnit as Model};

/// Inputs of one cycle.
#[derive(Clone, Copy, Debug)]
pub struct ScuInputs {
    pub reset: bool,
    pub op: DivOp,
    pub in_valid: bool,
    pub vc: u32,
    pub tid: u16,
    pub a: u32,
    pub b: u32,
    pub out_ready: bool,
}

impl Default for ScuInputs {
    fn default() -> Self {
        Self {
            reset: false,
            op: DivOp::Divu,
            in_valid: false,
            vc: 0,
            tid: 0,
            a: 0,
            b: 0,
            out_ready: false,
        }
    }
}

pub struct ScuBench<
    const VB: usize,
    const COPIES: usize,
    const CW: usize,
    const NW: usize,
    const R: usize,
    const SW: usize,
> {
    pub uut: SpecialComputeUnit<VB, COPIES, CW, NW, R, SW>,
    pub model: Model,
    pub inputs: ScuInputs,
    /// Percent of cycles with an operation offered.
    pub valid_percent: u32,
    /// Percent of cycles the consumer is ready.
    pub ready_percent: u32,
    /// Results owed, in issue order (the bench's own bookkeeping).
    owed: VecDeque<DivToken>,
    /// Operations accepted and results delivered over the run.
    pub accepted: u64,
    pub delivered: u64,
    op: DivOp,
    next_op: Option<DivOp>,
    next_tid: u16,
}

impl<
        const VB: usize,
        const COPIES: usize,
        const CW: usize,
        const NW: usize,
        const R: usize,
        const SW: usize,
    > crate::presets::Tested for SpecialComputeUnit<VB, COPIES, CW, NW, R, SW>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![
            ("VCS", 1 << VB),
            ("COPIES", COPIES),
            ("BITS_PER_CYCLE", R),
            ("LATENCY", 32 / R + 1),
        ]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(ScuBench::<VB, COPIES, CW, NW, R, SW>::default())
    }
}

impl<
        const VB: usize,
        const COPIES: usize,
        const CW: usize,
        const NW: usize,
        const R: usize,
        const SW: usize,
    > Default for ScuBench<VB, COPIES, CW, NW, R, SW>
{
    fn default() -> Self {
        let mut uut = SpecialComputeUnit::default();
        uut.connect_all();
        Self {
            uut,
            model: Model::new(COPIES, Self::LATENCY),
            inputs: ScuInputs::default(),
            valid_percent: 70,
            ready_percent: 70,
            owed: VecDeque::new(),
            accepted: 0,
            delivered: 0,
            op: DivOp::Div,
            next_op: None,
            next_tid: 0,
        }
    }
}

impl<
        const VB: usize,
        const COPIES: usize,
        const CW: usize,
        const NW: usize,
        const R: usize,
        const SW: usize,
    > ScuBench<VB, COPIES, CW, NW, R, SW>
{
    /// Cycles from the accepting edge to the result: the load edge plus `32 / R` steps.
    pub const LATENCY: usize = 32 / R + 1;

    /// Applies explicit inputs (directed tests use this instead of `drive`).
    pub fn apply(&mut self, i: ScuInputs) {
        self.uut.reset.next = i.reset;
        self.uut.opcode.next = i.op.code().into();
        self.uut.in_valid.next = i.in_valid;
        self.uut.in_vc.next = u64::from(i.vc).into();
        self.uut.in_tid.next = u64::from(i.tid).into();
        self.uut.in_a.next = u64::from(i.a).into();
        self.uut.in_b.next = u64::from(i.b).into();
        self.uut.out_ready.next = i.out_ready;
        self.inputs = i;
    }

    fn operand(rng: &mut ChaCha8Rng) -> u32 {
        match rng.gen_range(0..10) {
            0 => 0,
            1 => 1,
            2 => u32::MAX,
            3 => 0x8000_0000,
            4 => rng.gen_range(0..16),
            5 => rng.gen::<u32>() >> rng.gen_range(0..32),
            6 => (-rng.gen_range(1..100i32)) as u32,
            _ => rng.gen(),
        }
    }
}

impl<
        const VB: usize,
        const COPIES: usize,
        const CW: usize,
        const NW: usize,
        const R: usize,
        const SW: usize,
    > Bench for ScuBench<VB, COPIES, CW, NW, R, SW>
{
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        let reset = cycle == 0 || rng.gen_ratio(1, 3000);
        if let Some(op) = self.next_op.take() {
            self.op = op;
        }
        if reset {
            // A new configuration, applied once the reset edge emptied the unit
            // (the opcode only changes while the unit is empty).
            self.next_op = Some(DivOp::ALL[rng.gen_range(0..4)]);
        }
        self.next_tid = self.next_tid.wrapping_add(1);
        self.apply(ScuInputs {
            reset,
            op: self.op,
            in_valid: rng.gen_ratio(self.valid_percent, 100),
            vc: rng.gen_range(0..1u32 << VB),
            tid: self.next_tid,
            a: Self::operand(rng),
            b: Self::operand(rng),
            out_ready: rng.gen_ratio(self.ready_percent, 100),
        });
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let want = self.model.outputs(i.out_ready);
        let u = &self.uut;
        expect("in_ready", want.in_ready, u.in_ready.val())?;
        expect("out_valid", want.out_valid, u.out_valid.val())?;
        let got = DivToken {
            vc: small(u.out_vc.val()) as u32,
            tid: small(u.out_tid.val()) as u16,
            data: small(u.out_data.val()) as u32,
        };
        expect("out (vc, tid, data)", want.out, got)?;
        let in_flight = small(u.in_flight.val()) as usize;
        expect("in_flight", want.in_flight, in_flight)?;
        contract(
            "at most COPIES operations in flight",
            in_flight <= COPIES,
            || format!("{in_flight} in flight with {COPIES} copies"),
        )?;
        contract(
            "in flight = accepted - delivered",
            in_flight == self.owed.len(),
            || format!("RTL {in_flight}, bench {}", self.owed.len()),
        )?;
        if u.out_valid.val() {
            contract(
                "each operation's result comes out once, in issue order, correct",
                self.owed.front() == Some(&got),
                || format!("got {got:?}, owed {:?}", self.owed.front()),
            )?;
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let now = self.model.outputs(i.out_ready);
        if i.reset {
            self.owed.clear();
        } else {
            if now.out_valid && i.out_ready {
                self.owed.pop_front();
                self.delivered += 1;
            }
            if i.in_valid && now.in_ready {
                self.owed.push_back(DivToken {
                    vc: i.vc,
                    tid: i.tid,
                    data: divide(i.op, i.a, i.b),
                });
                self.accepted += 1;
            }
        }
        self.model.clock(
            i.reset,
            i.op,
            i.in_valid.then_some((i.vc, i.tid, i.a, i.b)),
            i.out_ready,
        );
        Ok(())
    }
}
