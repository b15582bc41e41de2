//! Load/store unit bench: RTL vs model every cycle against a memory with random
//! latency that answers in any order, with the SPEC §6 contracts: every request gets
//! exactly one token out, with its thread and the data the memory held when the
//! request reached it (golden model: the memory array); the request carries the
//! offered operation; never more than `RB` outstanding; a tag is never reused while
//! outstanding; responses for free or answered tags (sent on purpose) change nothing.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use crate::memory::{Outstanding, Words};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::HashMap;
use weft_hdl::cgrf::load_store_unit::LoadStoreUnit;
use weft_sim::cgrf::load_store_unit::{LoadStoreUnit as Model, LsuToken};

/// Inputs of one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct LsuInputs {
    pub reset: bool,
    pub is_store: bool,
    pub in_valid: bool,
    pub vc: u32,
    pub tid: u16,
    pub addr: u32,
    pub data: u32,
    pub mem_req_ready: bool,
    pub response: Option<(usize, u32)>,
    pub out_ready: bool,
}

pub struct LsuBench<const VB: usize, const RB: usize, const TW: usize, const NW: usize> {
    pub uut: LoadStoreUnit<VB, RB, TW, NW>,
    pub model: Model,
    pub inputs: LsuInputs,
    /// Words, plus the requests taken and not yet answered (performed when taken;
    /// occasional writes by "other units").
    pub memory: Words,
    owed_answers: Outstanding,
    /// Percent of cycles with an operation offered / the memory taking a request /
    /// the memory answering a due request / the consumer ready.
    pub valid_percent: u32,
    pub mem_ready_percent: u32,
    pub answer_percent: u32,
    pub ready_percent: u32,
    /// Memory latency range (request edge to answer), cycles.
    pub latency: (u64, u64),
    /// Percent of cycles the memory sends a response for a tag it does not owe.
    pub rogue_percent: u32,
    /// Percent of cycles another unit writes a word.
    pub foreign_write_percent: u32,
    /// Tokens owed: tid -> (vc, data the memory held / 0 for a store).
    owed: HashMap<u16, (u32, u32)>,
    pub requests: u64,
    pub tokens: u64,
    cycle: u64,
    /// Latency of a request taken this cycle (drawn in `drive`).
    next_latency: u64,
    next_tid: u16,
    is_store: bool,
}

impl<const VB: usize, const RB: usize, const TW: usize, const NW: usize> crate::presets::Tested
    for LoadStoreUnit<VB, RB, TW, NW>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![("VCS", 1 << VB), ("RB", RB)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(LsuBench::<VB, RB, TW, NW>::default())
    }
}

impl<const VB: usize, const RB: usize, const TW: usize, const NW: usize> Default
    for LsuBench<VB, RB, TW, NW>
{
    fn default() -> Self {
        let mut uut = LoadStoreUnit::default();
        uut.connect_all();
        Self {
            uut,
            model: Model::new(RB),
            inputs: LsuInputs::default(),
            memory: Words::default(),
            owed_answers: Outstanding::default(),
            valid_percent: 70,
            mem_ready_percent: 80,
            answer_percent: 60,
            ready_percent: 70,
            latency: (1, 24),
            rogue_percent: 3,
            foreign_write_percent: 5,
            owed: HashMap::new(),
            requests: 0,
            tokens: 0,
            cycle: 0,
            next_latency: 1,
            next_tid: 0,
            is_store: false,
        }
    }
}

impl<const VB: usize, const RB: usize, const TW: usize, const NW: usize> LsuBench<VB, RB, TW, NW> {
    /// Applies explicit inputs (directed tests use this instead of `drive`).
    pub fn apply(&mut self, i: LsuInputs) {
        let u = &mut self.uut;
        u.reset.next = i.reset;
        u.is_store.next = i.is_store;
        u.in_valid.next = i.in_valid;
        u.in_vc.next = u64::from(i.vc).into();
        u.in_tid.next = u64::from(i.tid).into();
        u.in_a.next = u64::from(i.addr).into();
        u.in_b.next = u64::from(i.data).into();
        u.mem_req_ready.next = i.mem_req_ready;
        u.mem_resp_valid.next = i.response.is_some();
        let (tag, data) = i.response.unwrap_or((0, 0));
        u.mem_resp_tag.next = (tag as u64).into();
        u.mem_resp_data.next = u64::from(data).into();
        u.out_ready.next = i.out_ready;
        self.inputs = i;
    }

    /// Tokens still owed (directed tests).
    pub fn owed(&self) -> usize {
        self.owed.len()
    }
}

impl<const VB: usize, const RB: usize, const TW: usize, const NW: usize> Bench
    for LsuBench<VB, RB, TW, NW>
{
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        self.cycle = cycle;
        let reset = cycle == 0 || rng.gen_ratio(1, 3000);
        if reset {
            self.is_store = rng.gen_bool(0.5);
        }
        if rng.gen_ratio(self.foreign_write_percent, 100) {
            let addr = rng.gen_range(0..32u32) * 4;
            self.memory.write(addr, rng.gen());
        }
        let mut response = None;
        if !reset {
            response = self
                .owed_answers
                .pick_due(cycle, self.answer_percent, rng)
                .map(|(tag, data)| (tag as usize, data));
        }
        if response.is_none() && rng.gen_ratio(self.rogue_percent, 100) {
            // A response nobody owes: must be ignored.
            let tag = rng.gen_range(0..RB);
            if !self.owed_answers.owes(tag as u64) {
                response = Some((tag, rng.gen()));
            }
        }
        self.next_tid = self.next_tid.wrapping_add(1);
        self.next_latency = rng.gen_range(self.latency.0..=self.latency.1);
        self.apply(LsuInputs {
            reset,
            is_store: self.is_store,
            in_valid: rng.gen_ratio(self.valid_percent, 100),
            vc: rng.gen_range(0..1u32 << VB),
            tid: self.next_tid,
            addr: rng.gen_range(0..32u32) * 4,
            data: rng.gen(),
            mem_req_ready: rng.gen_ratio(self.mem_ready_percent, 100),
            response,
            out_ready: rng.gen_ratio(self.ready_percent, 100),
        });
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let want = self.model.outputs(i.in_valid, i.mem_req_ready);
        let u = &self.uut;
        expect("in_ready", want.in_ready, u.in_ready.val())?;
        expect("mem_req_valid", want.mem_req_valid, u.mem_req_valid.val())?;
        let tag = small(u.mem_req_tag.val()) as usize;
        expect("mem_req_tag", want.mem_req_tag, tag)?;
        expect("out_valid", want.out_valid, u.out_valid.val())?;
        let got = LsuToken {
            vc: small(u.out_vc.val()) as u32,
            tid: small(u.out_tid.val()) as u16,
            data: small(u.out_data.val()) as u32,
        };
        expect("out (vc, tid, data)", want.out, got)?;
        let outstanding = small(u.outstanding.val()) as usize;
        expect("outstanding", want.outstanding, outstanding)?;
        contract("at most RB outstanding", outstanding <= RB, || {
            format!("{outstanding} outstanding with RB = {RB}")
        })?;
        contract(
            "outstanding = requests - tokens",
            outstanding == self.owed.len(),
            || format!("RTL {outstanding}, bench {}", self.owed.len()),
        )?;
        if u.mem_req_valid.val() {
            let req = (
                small(u.mem_req_addr.val()) as u32,
                small(u.mem_req_data.val()) as u32,
                u.mem_req_write.val(),
            );
            contract(
                "the request carries the offered operation",
                req == (i.addr, i.data, i.is_store),
                || {
                    format!(
                        "request {req:?}, offered ({}, {}, {})",
                        i.addr, i.data, i.is_store
                    )
                },
            )?;
            contract(
                "a tag is not reused while outstanding",
                !self.owed_answers.owes(tag as u64),
                || format!("tag {tag} requested again"),
            )?;
        }
        if u.out_valid.val() {
            contract(
                "every token answers one request, with the data the memory held",
                self.owed.get(&got.tid) == Some(&(got.vc, got.data)),
                || format!("token {got:?}, owed {:?}", self.owed.get(&got.tid)),
            )?;
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let now = self.model.outputs(i.in_valid, i.mem_req_ready);
        if i.reset {
            self.owed.clear();
            self.owed_answers.clear();
        } else {
            if let Some((tag, _)) = i.response {
                self.owed_answers.answered(tag as u64);
            }
            if now.out_valid && i.out_ready {
                self.owed.remove(&now.out.tid);
                self.tokens += 1;
            }
            if now.mem_req_valid && i.mem_req_ready {
                let data = self.memory.access(i.addr, i.data, i.is_store);
                let tag = now.mem_req_tag as u64;
                self.owed_answers
                    .take(tag, data, self.cycle, self.next_latency);
                self.owed.insert(i.tid, (i.vc, data));
                self.requests += 1;
            }
        }
        self.model.clock(
            i.reset,
            i.is_store,
            i.in_valid.then_some((i.vc, i.tid)),
            i.mem_req_ready,
            i.response,
            i.out_ready,
        );
        Ok(())
    }
}
