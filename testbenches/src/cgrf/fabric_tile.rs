//! Fabric tile bench: RTL vs the composed model (`weft_sim::cgrf::fabric_tile`: switch +
//! compute unit) every cycle. After each reset the bench shifts a random route for every
//! switch output into the chain (11 cycles) and writes a random compute unit
//! configuration, then streams random tokens on the eight neighbour links against
//! random readies. A channel's thread id is fixed (one thread per channel), so the
//! unit's token buffer never sees two threads in a channel. Independent contract: every
//! token leaving on a neighbour link was offered on the input its route names, or is a
//! result of the unit (input 8), and leaves in order per input. Not a preset: the tile
//! is a composition of presets (switch, compute unit) exported inside `fabric`.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::VecDeque;
use weft_hdl::cgrf::fabric_tile::FabricTile;
use weft_sim::cgrf::compute_unit::{Config, Opcode};
use weft_sim::cgrf::fabric_tile::{FabricTile as Model, FabricTileIn, NEIGHBOURS, OUTPUTS};
use weft_sim::cgrf::switch::{Route, Token};

pub struct FabricTileBench<const VCS: usize, const VB: usize> {
    pub uut: FabricTile<VCS, VB>,
    pub model: Model,
    pub inputs: FabricTileIn,
    /// Percent of cycles a neighbour offers a token / is ready.
    pub valid_percent: u32,
    pub ready_percent: u32,
    /// Configuration steps left after a reset: route shifts, then the unit write.
    setup: usize,
    /// The routes being shifted in (output `OUTPUTS - 1` first).
    routes: Vec<Route>,
    /// Tokens accepted per neighbour input, not yet seen leaving on a neighbour link.
    sent: Vec<VecDeque<Token>>,
    pub delivered: u64,
}

impl<const VCS: usize, const VB: usize> Default for FabricTileBench<VCS, VB> {
    fn default() -> Self {
        let mut uut = FabricTile::default();
        uut.connect_all();
        Self {
            uut,
            model: Model::new(VCS),
            inputs: FabricTileIn::default(),
            valid_percent: 40,
            ready_percent: 70,
            setup: 0,
            routes: vec![],
            sent: vec![VecDeque::new(); NEIGHBOURS],
            delivered: 0,
        }
    }
}

/// Setup steps after a reset: one shift per switch output, then the unit's write.
const SETUP: usize = OUTPUTS + 1;

impl<const VCS: usize, const VB: usize> FabricTileBench<VCS, VB> {
    fn apply(&mut self, i: FabricTileIn) {
        let u = &mut self.uut;
        u.reset.next = i.reset;
        u.cfg_shift.next = i.cfg_shift.is_some();
        let route = i.cfg_shift.flatten();
        u.cfg_in_en.next = route.is_some();
        u.cfg_in_sel.next = (route.unwrap_or(0) as u64).into();
        let c = i.cfg.unwrap_or_default();
        u.cfg_valid.next = i.cfg.is_some();
        u.cfg_opcode.next = (c.opcode as u64).into();
        u.cfg_imm_en.next = c.imm_en;
        u.cfg_imm.next = u64::from(c.imm).into();
        let valid = [
            &mut u.n_in_valid,
            &mut u.ne_in_valid,
            &mut u.e_in_valid,
            &mut u.se_in_valid,
            &mut u.s_in_valid,
            &mut u.sw_in_valid,
            &mut u.w_in_valid,
            &mut u.nw_in_valid,
        ];
        for (s, t) in valid.into_iter().zip(i.inputs) {
            s.next = t.is_some();
        }
        let vc = [
            &mut u.n_in_vc,
            &mut u.ne_in_vc,
            &mut u.e_in_vc,
            &mut u.se_in_vc,
            &mut u.s_in_vc,
            &mut u.sw_in_vc,
            &mut u.w_in_vc,
            &mut u.nw_in_vc,
        ];
        for (s, t) in vc.into_iter().zip(i.inputs) {
            s.next = u64::from(t.unwrap_or_default().vc).into();
        }
        let tid = [
            &mut u.n_in_tid,
            &mut u.ne_in_tid,
            &mut u.e_in_tid,
            &mut u.se_in_tid,
            &mut u.s_in_tid,
            &mut u.sw_in_tid,
            &mut u.w_in_tid,
            &mut u.nw_in_tid,
        ];
        for (s, t) in tid.into_iter().zip(i.inputs) {
            s.next = u64::from(t.unwrap_or_default().tid).into();
        }
        let data = [
            &mut u.n_in_data,
            &mut u.ne_in_data,
            &mut u.e_in_data,
            &mut u.se_in_data,
            &mut u.s_in_data,
            &mut u.sw_in_data,
            &mut u.w_in_data,
            &mut u.nw_in_data,
        ];
        for (s, t) in data.into_iter().zip(i.inputs) {
            s.next = u64::from(t.unwrap_or_default().data).into();
        }
        let ready = [
            &mut u.n_out_ready,
            &mut u.ne_out_ready,
            &mut u.e_out_ready,
            &mut u.se_out_ready,
            &mut u.s_out_ready,
            &mut u.sw_out_ready,
            &mut u.w_out_ready,
            &mut u.nw_out_ready,
        ];
        for (s, r) in ready.into_iter().zip(i.out_ready) {
            s.next = r;
        }
        self.inputs = i;
    }
}

impl<const VCS: usize, const VB: usize> Bench for FabricTileBench<VCS, VB> {
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        let reset = cycle == 0 || rng.gen_ratio(1, 3000);
        let mut i = FabricTileIn {
            reset,
            ..FabricTileIn::default()
        };
        if reset {
            // Any input (or none) per output; the unit's result (input 8) among them.
            self.routes = (0..OUTPUTS)
                .map(|_| rng.gen_ratio(3, 4).then(|| rng.gen_range(0..9)))
                .collect();
            self.setup = SETUP;
        } else if self.setup > 1 {
            i.cfg_shift = Some(self.routes[SETUP - self.setup]);
        } else if self.setup == 1 {
            let opcode = Opcode::ALL[rng.gen_range(0..Opcode::ALL.len())];
            i.cfg = Some(if rng.gen_bool(0.5) {
                Config::with_imm(opcode, rng.gen())
            } else {
                Config::op(opcode)
            });
        } else {
            for t in i.inputs.iter_mut() {
                if rng.gen_ratio(self.valid_percent, 100) {
                    let vc = rng.gen_range(0..VCS as u32);
                    *t = Some(Token {
                        vc,
                        tid: 100 + vc as u16,
                        data: rng.gen(),
                    });
                }
            }
        }
        for r in i.out_ready.iter_mut() {
            *r = rng.gen_ratio(self.ready_percent, 100);
        }
        self.apply(i);
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let want = self.model.outputs(&i.out_ready);
        let u = &self.uut;
        expect(
            "in_ready (n .. nw)",
            want.in_ready,
            [
                u.n_in_ready.val(),
                u.ne_in_ready.val(),
                u.e_in_ready.val(),
                u.se_in_ready.val(),
                u.s_in_ready.val(),
                u.sw_in_ready.val(),
                u.w_in_ready.val(),
                u.nw_in_ready.val(),
            ],
        )?;
        let valid = [
            u.n_out_valid.val(),
            u.ne_out_valid.val(),
            u.e_out_valid.val(),
            u.se_out_valid.val(),
            u.s_out_valid.val(),
            u.sw_out_valid.val(),
            u.w_out_valid.val(),
            u.nw_out_valid.val(),
        ];
        let vc = [
            u.n_out_vc.val(),
            u.ne_out_vc.val(),
            u.e_out_vc.val(),
            u.se_out_vc.val(),
            u.s_out_vc.val(),
            u.sw_out_vc.val(),
            u.w_out_vc.val(),
            u.nw_out_vc.val(),
        ];
        let tid = [
            u.n_out_tid.val(),
            u.ne_out_tid.val(),
            u.e_out_tid.val(),
            u.se_out_tid.val(),
            u.s_out_tid.val(),
            u.sw_out_tid.val(),
            u.w_out_tid.val(),
            u.nw_out_tid.val(),
        ];
        let data = [
            u.n_out_data.val(),
            u.ne_out_data.val(),
            u.e_out_data.val(),
            u.se_out_data.val(),
            u.s_out_data.val(),
            u.sw_out_data.val(),
            u.w_out_data.val(),
            u.nw_out_data.val(),
        ];
        let mut out = [None; NEIGHBOURS];
        for k in 0..NEIGHBOURS {
            out[k] = valid[k].then(|| Token {
                vc: small(vc[k]) as u32,
                tid: small(tid[k]) as u16,
                data: small(data[k]) as u32,
            });
        }
        expect("out (n .. nw)", want.out, out)?;
        let cfg_out = u
            .cfg_out_en
            .val()
            .then(|| small(u.cfg_out_sel.val()) as usize);
        expect("cfg_out", want.cfg_out, cfg_out)?;
        expect("busy", want.busy, u.busy.val())?;
        expect("tid_error", want.tid_error, u.tid_error.val())?;
        contract(
            "one thread per channel: no tid_error",
            !u.tid_error.val(),
            String::new,
        )?;
        if self.setup == 0 {
            for (k, t) in out.iter().enumerate() {
                let Some(t) = t else { continue };
                match self.routes[OUTPUTS - 1 - k] {
                    Some(src) if src < NEIGHBOURS => {
                        let next = self.sent[src].front();
                        contract(
                            "a neighbour output carries its route's input, in order",
                            next == Some(t),
                            || format!("output {k} shows {t:?}, input {src} owes {next:?}"),
                        )?;
                    }
                    Some(_) => {}
                    None => contract("an unrouted output stays idle", false, || {
                        format!("output {k} shows {t:?}")
                    })?,
                }
            }
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let now = self.model.outputs(&i.out_ready);
        self.model.clock(&i);
        if i.reset {
            self.sent.iter_mut().for_each(VecDeque::clear);
            return Ok(());
        }
        self.setup = self.setup.saturating_sub(1);
        // An input's head leaves once for all its outputs: forget it after the first.
        let mut left = [false; NEIGHBOURS];
        for (k, t) in now.out.iter().enumerate() {
            if let (Some(_), Some(src)) = (t, self.routes[OUTPUTS - 1 - k]) {
                if src < NEIGHBOURS && !left[src] {
                    left[src] = true;
                    self.delivered += 1;
                }
            }
        }
        for (src, gone) in left.iter().enumerate() {
            if *gone {
                self.sent[src].pop_front();
            }
        }
        for (k, t) in i.inputs.iter().enumerate() {
            if let (Some(t), true) = (t, now.in_ready[k]) {
                // Tokens routed only to the unit never show on a neighbour link.
                let to_neighbour = (0..NEIGHBOURS).any(|o| self.routes[OUTPUTS - 1 - o] == Some(k));
                if to_neighbour {
                    self.sent[k].push_back(*t);
                }
            }
        }
        Ok(())
    }
}
