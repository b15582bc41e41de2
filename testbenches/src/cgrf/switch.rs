//! Fabric switch bench: RTL vs model under random tokens, random output readies and
//! random route configurations shifted in through the chain, with the SPEC §6
//! contracts: a token is never lost or duplicated (each input's tokens leave in
//! arrival order, once, reaching every output routed from the input in the same
//! cycle), and `cfg_out` is the route shifted in `OUTS` shifts earlier.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::VecDeque;
use weft_hdl::cgrf::switch::Switch;
use weft_sim::cgrf::switch::{Route, Switch as Model, Token};

/// Inputs of one cycle.
#[derive(Clone, Debug, Default)]
pub struct SwitchInputs {
    pub reset: bool,
    /// `Some(token)` where `in_valid` is high.
    pub tokens: Vec<Option<Token>>,
    pub out_ready: Vec<bool>,
    /// `Some(route)` where `cfg_shift` is high.
    pub cfg: Option<Route>,
}

pub struct SwitchBench<const INS: usize, const OUTS: usize, const VB: usize, const SB: usize> {
    pub uut: Switch<INS, OUTS, VB, SB>,
    pub model: Model,
    pub inputs: SwitchInputs,
    /// Percent of cycles an input offers a token.
    pub valid_percent: u32,
    /// Percent of cycles an output is ready.
    pub ready_percent: u32,
    /// Tokens each input accepted and has not sent yet, oldest first.
    pending: Vec<VecDeque<Token>>,
    /// Routes shifted in, newest last (for the `cfg_out` contract).
    shifted: VecDeque<Route>,
    /// Cycles left in the current configuration phase (0: streaming tokens).
    configuring: u32,
    /// Serial number carried in every offered token's data (duplicates show).
    serial: u32,
    /// Tokens delivered, counting each copy of a multicast.
    pub delivered: u64,
}

impl<const INS: usize, const OUTS: usize, const VB: usize, const SB: usize> crate::presets::Tested
    for Switch<INS, OUTS, VB, SB>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![("INS", INS), ("OUTS", OUTS), ("VCS", 1 << VB)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(SwitchBench::<INS, OUTS, VB, SB>::default())
    }
    /// The harness names each link's ports (rust-hdl exports a port array as one port
    /// per element), so it is written for three inputs and three outputs.
    fn properties() -> Option<crate::presets::Properties> {
        (INS == 3 && OUTS == 3).then_some(crate::presets::Properties {
            harness: include_str!("switch.props.v"),
            planted: PLANTED,
        })
    }
}

/// Bugs planted in the exported Verilog (of `switch_3x3`), each caught by the property
/// named.
const PLANTED: &[(&str, &str, &str)] = &[
    // The chain skips a stage: output 2 takes output 0's route (the registers leave
    // the contract's routes).
    (
        "p_inv_tied",
        "route_en$2$d = route_en$1$q;",
        "route_en$2$d = route_en$0$q;",
    ),
    // The chain's output shows output 1's selection instead of output 2's.
    (
        "p_route_chain",
        "cfg_out_sel = route_sel$2$q;",
        "cfg_out_sel = route_sel$1$q;",
    ),
    // Input 1 takes a token only while empty (its ready and its push agree, so no token
    // is lost): a FIFO with room for one more refuses it.
    (
        "p_ready_while_room",
        "push$1 = in_valid$1 & ~tail_valid$1$q;",
        "push$1 = in_valid$1 & ~head_valid$1$q;\n        in_ready$1 = ~head_valid$1$q;",
    ),
    // Output 0 shows input 1's head as valid while it waits for another consumer (the
    // head does not leave).
    (
        "p_valid_when_the_head_leaves",
        "out_valid$0 = pop$1;",
        "out_valid$0 = head_valid$1$q;",
    ),
    // Output 2 shows input 1's second token instead of its head.
    (
        "p_carries_the_head",
        "out_data$2 = head_data$1$q;",
        "out_data$2 = tail_data$1$q;",
    ),
    // Output 1 shows input 0's head whenever its own consumer is ready: a partial
    // multicast.
    (
        "p_multicast_all_or_nothing",
        "out_valid$1 = pop$0;",
        "out_valid$1 = head_valid$0$q & out_ready$1;",
    ),
];

impl<const INS: usize, const OUTS: usize, const VB: usize, const SB: usize> Default
    for SwitchBench<INS, OUTS, VB, SB>
{
    fn default() -> Self {
        let mut uut = Switch::default();
        uut.connect_all();
        SwitchBench {
            uut,
            model: Model::new(INS, OUTS),
            inputs: SwitchInputs {
                tokens: vec![None; INS],
                out_ready: vec![false; OUTS],
                ..Default::default()
            },
            valid_percent: 60,
            ready_percent: 80,
            pending: vec![VecDeque::new(); INS],
            shifted: VecDeque::new(),
            configuring: 0,
            serial: 0,
            delivered: 0,
        }
    }
}

impl<const INS: usize, const OUTS: usize, const VB: usize, const SB: usize>
    SwitchBench<INS, OUTS, VB, SB>
{
    /// Applies explicit inputs (directed tests use this instead of `drive`).
    pub fn apply(&mut self, i: SwitchInputs) {
        assert_eq!(i.tokens.len(), INS, "one token slot per input");
        assert_eq!(i.out_ready.len(), OUTS, "one ready per output");
        self.uut.reset.next = i.reset;
        for (k, t) in i.tokens.iter().enumerate() {
            let t = t.unwrap_or_default();
            self.uut.in_valid[k].next = i.tokens[k].is_some();
            self.uut.in_vc[k].next = u64::from(t.vc).into();
            self.uut.in_tid[k].next = u64::from(t.tid).into();
            self.uut.in_data[k].next = u64::from(t.data).into();
        }
        for (k, &r) in i.out_ready.iter().enumerate() {
            self.uut.out_ready[k].next = r;
        }
        self.uut.cfg_shift.next = i.cfg.is_some();
        let route = i.cfg.flatten();
        self.uut.cfg_in_en.next = route.is_some();
        self.uut.cfg_in_sel.next = (route.unwrap_or(0) as u64).into();
        self.inputs = i;
    }

    fn random_route(rng: &mut ChaCha8Rng) -> Route {
        // Mostly enabled, sometimes several outputs on one input (multicast).
        rng.gen_bool(0.8).then(|| rng.gen_range(0..INS))
    }
}

impl<const INS: usize, const OUTS: usize, const VB: usize, const SB: usize> Bench
    for SwitchBench<INS, OUTS, VB, SB>
{
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        let reset = cycle == 0 || rng.gen_ratio(1, 5000);
        if reset || rng.gen_ratio(1, 1500) {
            // A new configuration: one full chain of routes.
            self.configuring = OUTS as u32;
        }
        let cfg = if self.configuring > 0 && !reset {
            self.configuring -= 1;
            Some(Self::random_route(rng))
        } else {
            None
        };
        let mut tokens = vec![None; INS];
        for t in tokens.iter_mut() {
            if rng.gen_ratio(self.valid_percent, 100) {
                self.serial = self.serial.wrapping_add(1);
                *t = Some(Token {
                    vc: rng.gen_range(0..1u32 << VB),
                    tid: rng.gen(),
                    data: self.serial,
                });
            }
        }
        let out_ready = (0..OUTS)
            .map(|_| rng.gen_ratio(self.ready_percent, 100))
            .collect();
        self.apply(SwitchInputs {
            reset,
            tokens,
            out_ready,
            cfg,
        });
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let want = self.model.outputs(&self.inputs.out_ready);
        for i in 0..INS {
            expect(
                &format!("in_ready[{i}]"),
                want.in_ready[i],
                self.uut.in_ready[i].val(),
            )?;
        }
        for k in 0..OUTS {
            let valid = self.uut.out_valid[k].val();
            expect(&format!("out_valid[{k}]"), want.out[k].is_some(), valid)?;
            if let Some(t) = want.out[k] {
                let got = Token {
                    vc: small(self.uut.out_vc[k].val()) as u32,
                    tid: small(self.uut.out_tid[k].val()) as u16,
                    data: small(self.uut.out_data[k].val()) as u32,
                };
                expect(&format!("out token[{k}]"), t, got)?;
            }
        }
        expect(
            "cfg_out_en",
            want.cfg_out.is_some(),
            self.uut.cfg_out_en.val(),
        )?;
        if let Some(sel) = want.cfg_out {
            expect("cfg_out_sel", sel as u64, small(self.uut.cfg_out_sel.val()))?;
        }
        // Contracts on what leaves: each output routed from input i shows i's oldest
        // pending token, and either all of them take it or none does.
        let routes = self.model.routes().to_vec();
        for i in 0..INS {
            let outs: Vec<usize> = (0..OUTS).filter(|&k| routes[k] == Some(i)).collect();
            let shown: Vec<bool> = outs.iter().map(|&k| self.uut.out_valid[k].val()).collect();
            contract(
                "a multicast reaches all its outputs in one cycle",
                shown.iter().all(|&s| s) || shown.iter().all(|&s| !s),
                || format!("input {i} shown on {:?} of outputs {outs:?}", shown),
            )?;
            if shown.first() == Some(&true) {
                let data = small(self.uut.out_data[outs[0]].val()) as u32;
                contract(
                    "tokens leave once each, in arrival order",
                    self.pending[i].front().map(|t| t.data) == Some(data),
                    || {
                        format!(
                            "input {i} sent token #{data}, oldest pending {:?}",
                            self.pending[i].front()
                        )
                    },
                )?;
            }
        }
        if self.inputs.reset {
            return Ok(());
        }
        // `cfg_out` is the route shifted in OUTS shifts ago (once that many happened).
        if self.shifted.len() >= OUTS {
            let expected = self.shifted[self.shifted.len() - OUTS];
            let got = self
                .uut
                .cfg_out_en
                .val()
                .then(|| small(self.uut.cfg_out_sel.val()) as usize);
            contract(
                "the route chain delays by OUTS shifts",
                expected == got,
                || format!("cfg_out {got:?}, shifted {expected:?}"),
            )?;
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs.clone();
        let now = self.model.outputs(&i.out_ready);
        if i.reset {
            self.pending.iter_mut().for_each(VecDeque::clear);
            self.shifted.clear();
        } else {
            for k in 0..INS {
                if now.popped[k] {
                    self.pending[k].pop_front();
                }
                if let (Some(t), true) = (i.tokens[k], now.in_ready[k]) {
                    self.pending[k].push_back(t);
                }
            }
            self.delivered += now.out.iter().filter(|t| t.is_some()).count() as u64;
            if let Some(route) = i.cfg {
                self.shifted.push_back(route);
                if self.shifted.len() > OUTS {
                    self.shifted.pop_front();
                }
            }
            let most = self.pending.iter().map(VecDeque::len).max().unwrap_or(0);
            contract("an input holds at most two tokens", most <= 2, || {
                format!("{most} tokens held by one input")
            })?;
        }
        self.model.clock(i.reset, &i.tokens, &i.out_ready, i.cfg);
        Ok(())
    }
}
