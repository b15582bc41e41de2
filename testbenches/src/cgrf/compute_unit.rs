//! Compute unit bench: RTL vs model every cycle, with the SPEC §6 contracts checked
//! against a shadow of the accepted operands: every fired entry gives exactly one
//! result, in firing order, equal to the golden operation (`weft_sim::cgrf::
//! compute_unit::execute`, Rust integer and `f32` arithmetic) of exactly the operands
//! that entry accepted, with the immediate configured at its fire in place of the
//! last operand; a held slot never accepts, nor does a link beyond the operand count
//! or replaced by the immediate; nothing is held when `busy` is low. Configuration
//! writes (random opcode, imm_en, imm) come while the token buffer is empty, also with
//! results in flight (which must keep the configuration they fired with).
//! Operands mix random words with float edge cases (zeros, subnormals, infinities,
//! NaNs, extreme normals) and values derived from the entry's other operand
//! (cancellation, near-cancellation, exponent gaps, products at the underflow edge).
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::VecDeque;
use weft_hdl::cgrf::compute_unit::ComputeUnit;
use weft_sim::cgrf::compute_unit::{
    execute, ComputeUnit as Model, ComputeUnitIn, Config, Opcode, ResultToken,
};
use weft_sim::cgrf::token_buffer::OperandToken;

/// Float and integer edge cases.
pub const EDGE_OPERANDS: [u32; 30] = [
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x0000_0001, // smallest subnormal
    0x807f_ffff, // largest subnormal, negative
    0x0080_0000, // smallest normal
    0x8080_0000,
    0x0080_0001,
    0x00ff_ffff,
    0x7f7f_ffff, // largest normal
    0xff7f_ffff,
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc0_0000, // quiet NaN
    0x7f80_0001, // signalling NaN
    0xffff_ffff, // negative NaN / -1
    0x3f80_0000, // 1
    0xbf80_0000, // -1
    0x3f7f_ffff, // just below 1
    0x3f80_0001, // just above 1
    0x3fff_ffff, // just below 2
    0x4b00_0000, // 2^23
    0x3380_0000, // 2^-24
    0x1f80_0000, // 2^-64
    0x5f80_0000, // 2^64
    0x2000_0000,
    0x0000_001f, // shift by 31
    0x0000_0020, // shift by 32 (mod 32: 0)
    0x7fff_ffff, // largest int
    0x8000_0001,
    0x0000_0002,
];

/// An operand, sometimes derived from the entry's other operand `partner`.
pub fn random_operand(rng: &mut ChaCha8Rng, partner: Option<u32>) -> u32 {
    const SIGN: u32 = 0x8000_0000;
    let with_exp = |x: u32, e: i32| (x & !0x7f80_0000) | ((e.clamp(1, 254) as u32) << 23);
    match (rng.gen_range(0..12), partner) {
        (0..=2, _) => EDGE_OPERANDS[rng.gen_range(0..EDGE_OPERANDS.len())],
        (3..=4, _) => rng.gen(),
        (5, _) => with_exp(rng.gen(), rng.gen_range(100..150)),
        (6, _) => rng.gen_range(0..40),
        (_, Some(p)) => {
            let pe = ((p >> 23) & 0xff) as i32;
            match rng.gen_range(0..6) {
                // exact cancellation, or the same value (eq, x + x)
                0 => p ^ (SIGN * rng.gen_range(0..2)),
                // near cancellation: a few ulps away, opposite sign
                1 => (p ^ SIGN).wrapping_add(rng.gen_range(0..8)).wrapping_sub(4),
                // an exponent gap around the alignment limits
                2 => with_exp(rng.gen(), pe - rng.gen_range(0..70) + 20),
                // a product at the underflow edge: biased exponents summing to ~128
                3 => {
                    let frac = if rng.gen() { 0x007f_ffff } else { rng.gen() };
                    with_exp(frac, 128 - pe + rng.gen_range(-3..=1)) ^ (SIGN & rng.gen::<u32>())
                }
                // a product at the overflow edge
                4 => with_exp(rng.gen(), 127 + 127 - pe + rng.gen_range(-1..=2)),
                _ => p.wrapping_add(rng.gen_range(0..3)).wrapping_sub(1),
            }
        }
        (_, None) => rng.gen(),
    }
}

pub struct ComputeUnitBench<const VCS: usize, const VB: usize> {
    pub uut: ComputeUnit<VCS, VB>,
    pub model: Model,
    pub inputs: ComputeUnitIn,
    /// Percent of cycles each link offers a token.
    pub valid_percent: u32,
    /// Percent of cycles the consumer is ready.
    pub ready_percent: u32,
    /// Percent of cycles that ask for a configuration write (made once the token
    /// buffer has drained).
    pub cfg_percent: u32,
    /// Configure only this opcode (`None`: any).
    pub fixed_opcode: Option<Opcode>,
    /// Percent of configuration writes with the immediate enabled.
    pub imm_percent: u32,
    /// The configuration written last (reset: `add`, no immediate), as driven.
    config: Config,
    /// Operands arriving on links, as driven (reset: 1).
    linked: usize,
    /// A configuration write waits for the token buffer to empty.
    draining: bool,
    /// Accepted operands not yet fired, per channel and slot.
    shadow: Vec<[Option<(u16, u32)>; 3]>,
    cur_tid: Vec<u16>,
    next_tid: u16,
    /// Fired entries whose results have not left yet, in firing order.
    pub in_flight: VecDeque<ResultToken>,
    pub fired: u64,
    pub results: u64,
    /// Configuration writes, and those with the immediate enabled.
    pub configs: u64,
    pub imm_configs: u64,
}

impl<const VCS: usize, const VB: usize> crate::presets::Tested for ComputeUnit<VCS, VB> {
    fn params() -> Vec<(&'static str, usize)> {
        vec![
            ("VCS", VCS),
            ("OPERANDS", 3),
            ("LATENCY", 3),
            ("OPCODES", 16),
        ]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(ComputeUnitBench::<VCS, VB>::default())
    }
}

impl<const VCS: usize, const VB: usize> Default for ComputeUnitBench<VCS, VB> {
    fn default() -> Self {
        let mut uut = ComputeUnit::default();
        uut.connect_all();
        Self {
            uut,
            model: Model::new(VCS),
            inputs: ComputeUnitIn::default(),
            valid_percent: 60,
            ready_percent: 75,
            cfg_percent: 2,
            fixed_opcode: None,
            imm_percent: 50,
            config: Config::default(),
            linked: 1,
            draining: false,
            shadow: vec![[None; 3]; VCS],
            cur_tid: (0..VCS as u16).collect(),
            next_tid: VCS as u16,
            in_flight: VecDeque::new(),
            fired: 0,
            results: 0,
            configs: 0,
            imm_configs: 0,
        }
    }
}

impl<const VCS: usize, const VB: usize> ComputeUnitBench<VCS, VB> {
    /// Applies explicit inputs (directed tests use this instead of `drive`).
    pub fn apply(&mut self, i: ComputeUnitIn) {
        let u = &mut self.uut;
        u.reset.next = i.reset;
        let cfg = i.cfg.unwrap_or_default();
        u.cfg_valid.next = i.cfg.is_some();
        u.cfg_opcode.next = (cfg.opcode as u64).into();
        u.cfg_imm_en.next = cfg.imm_en;
        u.cfg_imm.next = u64::from(cfg.imm).into();
        let links = [
            (&mut u.a_valid, &mut u.a_vc, &mut u.a_tid, &mut u.a_data),
            (&mut u.b_valid, &mut u.b_vc, &mut u.b_tid, &mut u.b_data),
            (&mut u.c_valid, &mut u.c_vc, &mut u.c_tid, &mut u.c_data),
        ];
        for ((valid, vc, tid, data), link) in links.into_iter().zip(i.links) {
            let t = link.unwrap_or_default();
            valid.next = link.is_some();
            vc.next = (t.vc as u64).into();
            tid.next = u64::from(t.tid).into();
            data.next = u64::from(t.data).into();
        }
        u.out_ready.next = i.out_ready;
        self.inputs = i;
    }

    /// The configuration in effect (as driven).
    pub fn config(&self) -> Config {
        self.config
    }

    /// The thread channel `vc` serves now.
    pub fn thread_of(&self, vc: usize) -> u16 {
        self.cur_tid[vc]
    }
}

impl<const VCS: usize, const VB: usize> Bench for ComputeUnitBench<VCS, VB> {
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        let reset = cycle == 0 || rng.gen_ratio(1, 5000);
        // Written while no operand is held (results may be in flight): a wanted write
        // first drains the token buffer, offering only operands that complete
        // started entries.
        let idle = !self.model.buffer().outputs([0; 3]).busy;
        let wants_cfg = cycle == 1 || self.draining || rng.gen_ratio(self.cfg_percent, 100);
        let cfg = (!reset && idle && wants_cfg).then(|| {
            let opcode = self
                .fixed_opcode
                .unwrap_or_else(|| Opcode::from_code(rng.gen_range(0..16)));
            // a disabled immediate is still driven with a value: it must not matter
            Config {
                opcode,
                imm_en: rng.gen_ratio(self.imm_percent, 100),
                imm: random_operand(rng, None),
            }
        });
        self.draining = !reset && wants_cfg && cfg.is_none();
        let imm = self.config.imm_en.then_some(self.config.imm);
        let mut links = [None; 3];
        if cfg.is_none() {
            for (slot, link) in links.iter_mut().enumerate() {
                if !rng.gen_ratio(self.valid_percent, 100) {
                    continue;
                }
                let start = rng.gen_range(0..VCS);
                let vc = if self.draining && slot < self.linked {
                    let started = (start..start + VCS).map(|v| v % VCS).find(|&v| {
                        self.shadow[v][slot].is_none() && self.shadow[v].iter().any(Option::is_some)
                    });
                    match started {
                        Some(v) => v,
                        None => continue,
                    }
                } else {
                    start
                };
                let partner = self.shadow[vc].iter().flatten().map(|h| h.1).next().or(imm);
                // select's zero condition, often
                let zero_condition =
                    slot == 0 && self.config.opcode == Opcode::Select && rng.gen_ratio(1, 3);
                *link = Some(OperandToken {
                    vc,
                    tid: self.cur_tid[vc],
                    data: if zero_condition {
                        0
                    } else {
                        random_operand(rng, partner)
                    },
                });
            }
        }
        self.apply(ComputeUnitIn {
            reset,
            cfg,
            links,
            out_ready: rng.gen_ratio(self.ready_percent, 100),
        });
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let vcs = [0, 1, 2].map(|k| i.links[k].map_or(0, |t| t.vc));
        let want = self.model.outputs(vcs);
        let u = &self.uut;
        let ready = [u.a_ready.val(), u.b_ready.val(), u.c_ready.val()];
        expect("a_ready, b_ready, c_ready", want.link_ready, ready)?;
        expect("out_valid", want.out.is_some(), u.out_valid.val())?;
        let w = want.out.unwrap_or_default();
        expect("out_vc", w.vc as u64, small(u.out_vc.val()))?;
        expect("out_tid", u64::from(w.tid), small(u.out_tid.val()))?;
        let got = small(u.out_data.val()) as u32;
        expect(
            "out_data",
            format!("{:#010x}", w.data),
            format!("{got:#010x}"),
        )?;
        expect("opcode", want.opcode as u64, small(u.opcode.val()))?;
        expect("busy", want.busy, u.busy.val())?;
        expect("tid_error", want.tid_error, u.tid_error.val())?;

        for (slot, link) in i.links.iter().enumerate() {
            if let Some(t) = link {
                contract(
                    "a held slot never accepts (no overwrite)",
                    !(ready[slot] && self.shadow[t.vc][slot].is_some()),
                    || format!("link {slot} ready for channel {} holding an operand", t.vc),
                )?;
            }
            contract(
                "a link beyond the operand count or replaced by the immediate never accepts",
                !ready[slot] || slot < self.linked,
                || {
                    format!(
                        "link {slot} ready with {:?}, {} linked",
                        self.config, self.linked
                    )
                },
            )?;
        }
        if u.out_valid.val() {
            let token = ResultToken {
                vc: small(u.out_vc.val()) as usize,
                tid: small(u.out_tid.val()) as u16,
                data: got,
            };
            contract(
                "each fired entry gives one result, in firing order, = the golden op of its operands",
                self.in_flight.front() == Some(&token),
                || format!("presented {token:x?}, expected {:x?}", self.in_flight.front()),
            )?;
        }
        if !u.busy.val() {
            contract(
                "nothing held when not busy",
                self.in_flight.is_empty() && self.shadow.iter().flatten().all(Option::is_none),
                || format!("{} results in flight", self.in_flight.len()),
            )?;
        }
        contract(
            "no thread uses a foreign tid",
            !u.tid_error.val(),
            String::new,
        )
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let vcs = [0, 1, 2].map(|k| i.links[k].map_or(0, |t| t.vc));
        let now = self.model.outputs(vcs);
        let config = self.config;
        let count = self.linked;
        let fired = self.model.clock(&i);
        if i.reset {
            self.shadow.iter_mut().for_each(|e| *e = [None; 3]);
            self.in_flight.clear();
            self.config = Config::default();
            self.linked = 1;
            return Ok(());
        }
        if let Some(c) = i.cfg {
            self.configs += 1;
            self.imm_configs += u64::from(c.imm_en);
            self.config = c;
            self.linked = usize::from(c.opcode.operands()) - usize::from(c.imm_en);
        }
        if now.out.is_some() && i.out_ready {
            self.in_flight.pop_front();
            self.results += 1;
        }
        for (slot, link) in i.links.iter().enumerate() {
            if let Some(t) = link.filter(|_| now.link_ready[slot]) {
                self.shadow[t.vc][slot] = Some((t.tid, t.data));
            }
        }
        if let Some(f) = fired {
            let held = self.shadow[f.vc];
            contract(
                "fires only complete entries of one thread",
                held[..count]
                    .iter()
                    .all(|h| h.is_some_and(|h| h.0 == f.tid)),
                || format!("channel {} fired holding {held:x?}", f.vc),
            )?;
            // Slots beyond the linked count read 0, then the immediate (if any)
            // takes the opcode's last slot.
            let mut ops = held.map(|h| h.map_or(0, |h| h.1));
            ops[count..].fill(0);
            if config.imm_en {
                ops[usize::from(config.opcode.operands()) - 1] = config.imm;
            }
            self.in_flight.push_back(ResultToken {
                vc: f.vc,
                tid: f.tid,
                data: execute(config.opcode, ops[0], ops[1], ops[2]),
            });
            self.fired += 1;
            self.shadow[f.vc] = [None; 3];
            self.cur_tid[f.vc] = self.next_tid;
            self.next_tid = self.next_tid.wrapping_add(1);
        }
        Ok(())
    }
}
