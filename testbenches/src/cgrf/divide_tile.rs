//! Divide tile bench: RTL vs the composed model (`weft_sim::cgrf::divide_tile`) every
//! cycle, with an independent contract: every result answers one pair of operands its
//! thread delivered on the two links, with their quotient under the configured
//! operation (`divide`), per channel in delivery order; nothing else comes out.
//! Not a preset: the tile is a composition of presets (token buffer, special compute
//! unit) and is exported inside `fabric`.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::cgrf::drive_link;
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::VecDeque;
use weft_hdl::cgrf::divide_tile::DivideTile;
use weft_sim::cgrf::divide_tile::{DivideTile as Model, DivideTileIn};
use weft_sim::cgrf::special_compute_unit::{divide, DivOp};
use weft_sim::cgrf::token_buffer::OperandToken;

pub struct DivideTileBench<const VCS: usize, const VB: usize> {
    pub uut: DivideTile<VCS, VB>,
    pub model: Model,
    pub inputs: DivideTileIn,
    /// Percent of cycles each link offers a token / the consumer is ready.
    pub valid_percent: u32,
    pub ready_percent: u32,
    /// Operands accepted per channel and link, not yet paired.
    half: Vec<[Option<(u16, u32)>; 2]>,
    /// Results owed per channel: (tid, quotient), in pairing order.
    owed: Vec<VecDeque<(u16, u32)>>,
    /// The thread each channel serves (a new one after each pair).
    cur_tid: Vec<u16>,
    next_tid: u16,
    /// The operation the tile was configured with (for the contract); `None` until the
    /// first configuration after a reset (the bench configures at once).
    op: Option<DivOp>,
    pub results: u64,
}

impl<const VCS: usize, const VB: usize> Default for DivideTileBench<VCS, VB> {
    fn default() -> Self {
        let mut uut = DivideTile::default();
        uut.connect_all();
        Self {
            uut,
            model: Model::new(VCS),
            inputs: DivideTileIn::default(),
            valid_percent: 50,
            ready_percent: 70,
            half: vec![[None; 2]; VCS],
            owed: vec![VecDeque::new(); VCS],
            cur_tid: (0..VCS as u16).collect(),
            next_tid: VCS as u16,
            op: None,
            results: 0,
        }
    }
}

impl<const VCS: usize, const VB: usize> DivideTileBench<VCS, VB> {
    fn apply(&mut self, i: DivideTileIn) {
        let u = &mut self.uut;
        u.reset.next = i.reset;
        u.cfg_valid.next = i.cfg.is_some();
        u.cfg_opcode.next = i.cfg.map_or(0, DivOp::code).into();
        drive_link(
            &mut u.a_valid,
            &mut u.a_vc,
            &mut u.a_tid,
            &mut u.a_data,
            i.a,
        );
        drive_link(
            &mut u.b_valid,
            &mut u.b_vc,
            &mut u.b_tid,
            &mut u.b_data,
            i.b,
        );
        u.out_ready.next = i.out_ready;
        self.inputs = i;
    }

    fn operand(&self, rng: &mut ChaCha8Rng) -> Option<OperandToken> {
        rng.gen_ratio(self.valid_percent, 100).then(|| {
            let vc = rng.gen_range(0..VCS);
            let data = match rng.gen_range(0..6) {
                0 => 0,
                1 => u32::MAX,
                2 => i32::MIN as u32,
                _ => rng.gen(),
            };
            OperandToken {
                vc,
                tid: self.cur_tid[vc],
                data,
            }
        })
    }
}

impl<const VCS: usize, const VB: usize> Bench for DivideTileBench<VCS, VB> {
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        let reset = cycle == 0 || rng.gen_ratio(1, 2000);
        let idle = !self.model.outputs(0, 0, false).busy;
        // Configured after reset, otherwise rarely and only while empty (a new kernel).
        let cfg = (!reset && idle && (self.op.is_none() || rng.gen_ratio(2, 100)))
            .then(|| DivOp::ALL[rng.gen_range(0..4)]);
        let (a, b) = if cfg.is_some() || self.op.is_none() {
            (None, None)
        } else {
            (self.operand(rng), self.operand(rng))
        };
        self.apply(DivideTileIn {
            reset,
            cfg,
            a,
            b,
            out_ready: rng.gen_ratio(self.ready_percent, 100),
        });
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let want = self.model.outputs(
            i.a.map_or(0, |t| t.vc),
            i.b.map_or(0, |t| t.vc),
            i.out_ready,
        );
        let u = &self.uut;
        expect("a_ready", want.a_ready, u.a_ready.val())?;
        expect("b_ready", want.b_ready, u.b_ready.val())?;
        expect("out_valid", want.out_valid, u.out_valid.val())?;
        let got = (
            small(u.out_vc.val()) as u32,
            small(u.out_tid.val()) as u16,
            small(u.out_data.val()) as u32,
        );
        expect(
            "out (vc, tid, data)",
            (want.out.vc, want.out.tid, want.out.data),
            got,
        )?;
        expect("busy", want.busy, u.busy.val())?;
        expect("tid_error", want.tid_error, u.tid_error.val())?;
        contract(
            "no tid_error from one thread per channel",
            !u.tid_error.val(),
            String::new,
        )?;
        if u.out_valid.val() {
            let (vc, tid, data) = got;
            let next = self.owed[vc as usize].front().copied();
            contract(
                "a result answers the channel's oldest pair with its quotient",
                next == Some((tid, data)),
                || format!("channel {vc}: result ({tid}, {data:#x}), owed {next:x?}"),
            )?;
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let now = self.model.outputs(
            i.a.map_or(0, |t| t.vc),
            i.b.map_or(0, |t| t.vc),
            i.out_ready,
        );
        self.model.clock(&i);
        if i.reset {
            self.half.iter_mut().for_each(|h| *h = [None; 2]);
            self.owed.iter_mut().for_each(VecDeque::clear);
            self.op = None;
            return Ok(());
        }
        if i.cfg.is_some() {
            self.op = i.cfg;
        }
        if now.out_valid && i.out_ready {
            self.owed[now.out.vc as usize].pop_front();
            self.results += 1;
        }
        for (k, link) in [(0, i.a), (1, i.b)] {
            let ready = if k == 0 { now.a_ready } else { now.b_ready };
            if let Some(t) = link.filter(|_| ready) {
                self.half[t.vc][k] = Some((t.tid, t.data));
            }
        }
        for vc in 0..VCS {
            if let [Some((tid, a)), Some((_, b))] = self.half[vc] {
                let op = self.op.expect("operands are sent only once configured");
                self.owed[vc].push_back((tid, divide(op, a, b)));
                self.half[vc] = [None; 2];
                self.cur_tid[vc] = self.next_tid;
                self.next_tid = self.next_tid.wrapping_add(1);
            }
        }
        Ok(())
    }
}
