//! Memory tile bench: RTL vs the composed model (`weft_sim::cgrf::memory_tile`) every
//! cycle, against a memory that performs each request when taken and answers after a
//! random latency in any order (`crate::memory`). Independent contracts: an indexed
//! request addresses `base + 4 x tid`, a request by address carries the thread's
//! operands; every token out answers one taken request of its thread, with the word
//! the memory held (loads) or 0 (stores). Configurations (load / store, by address /
//! indexed, base) change at random while the tile is idle. Not a preset: the tile is a
//! composition of presets (token buffer, load/store unit) exported inside `fabric`.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::cgrf::drive_link;
use crate::convert::small;
use crate::memory::{Outstanding, Words};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::HashMap;
use weft_hdl::cgrf::memory_tile::MemoryTile;
use weft_sim::cgrf::dataflow::indexed_address;
use weft_sim::cgrf::memory_tile::{MemRequest, MemoryConfig, MemoryTile as Model, MemoryTileIn};
use weft_sim::cgrf::token_buffer::OperandToken;

pub struct MemoryTileBench<const VCS: usize, const VB: usize> {
    pub uut: MemoryTile<VCS, VB>,
    pub model: Model,
    pub inputs: MemoryTileIn,
    /// Percent of cycles a link offers a token / memory takes a request / a due answer
    /// is given / the consumer is ready.
    pub valid_percent: u32,
    pub mem_ready_percent: u32,
    pub answer_percent: u32,
    pub ready_percent: u32,
    pub latency: (u64, u64),
    memory: Words,
    answers: Outstanding,
    /// Operands accepted per channel and link since the channel's last operation.
    held: Vec<[Option<(u16, u32)>; 2]>,
    /// Tokens owed per thread: (vc, data).
    owed: HashMap<u16, (u32, u32)>,
    cur_tid: Vec<u16>,
    next_tid: u16,
    /// `None` until configured after a reset (the bench configures at once).
    config: Option<MemoryConfig>,
    cycle: u64,
    next_latency: u64,
    pub tokens: u64,
}

impl<const VCS: usize, const VB: usize> Default for MemoryTileBench<VCS, VB> {
    fn default() -> Self {
        let mut uut = MemoryTile::default();
        uut.connect_all();
        Self {
            uut,
            model: Model::new(VCS),
            inputs: MemoryTileIn::default(),
            valid_percent: 50,
            mem_ready_percent: 80,
            answer_percent: 60,
            ready_percent: 70,
            latency: (1, 16),
            memory: Words::default(),
            answers: Outstanding::default(),
            held: vec![[None; 2]; VCS],
            owed: HashMap::new(),
            cur_tid: (0..VCS as u16).collect(),
            next_tid: VCS as u16,
            config: None,
            cycle: 0,
            next_latency: 1,
            tokens: 0,
        }
    }
}

impl<const VCS: usize, const VB: usize> MemoryTileBench<VCS, VB> {
    fn apply(&mut self, i: MemoryTileIn) {
        let u = &mut self.uut;
        u.reset.next = i.reset;
        let c = i.cfg.unwrap_or_default();
        u.cfg_valid.next = i.cfg.is_some();
        u.cfg_store.next = c.store;
        u.cfg_indexed.next = c.indexed;
        u.cfg_base.next = u64::from(c.base).into();
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
        u.mem_req_ready.next = i.mem_req_ready;
        let (tag, data) = i.response.unwrap_or((0, 0));
        u.mem_resp_valid.next = i.response.is_some();
        u.mem_resp_tag.next = (tag as u64).into();
        u.mem_resp_data.next = u64::from(data).into();
        u.out_ready.next = i.out_ready;
        self.inputs = i;
    }

    /// A token for a random channel's current thread: an address on a by-address
    /// link a, else data.
    fn operand(&self, link: usize, rng: &mut ChaCha8Rng) -> Option<OperandToken> {
        let c = self.config?;
        let operands = if c.store && !c.indexed { 2 } else { 1 };
        if link >= operands || !rng.gen_ratio(self.valid_percent, 100) {
            return None;
        }
        let vc = rng.gen_range(0..VCS);
        let data = if link == 0 && !c.indexed {
            rng.gen_range(0..64u32) * 4
        } else {
            rng.gen()
        };
        Some(OperandToken {
            vc,
            tid: self.cur_tid[vc],
            data,
        })
    }
}

impl<const VCS: usize, const VB: usize> Bench for MemoryTileBench<VCS, VB> {
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        self.cycle = cycle;
        let reset = cycle == 0 || rng.gen_ratio(1, 2000);
        let idle = !self.model.outputs(0, 0, false).busy;
        let cfg = (!reset && idle && (self.config.is_none() || rng.gen_ratio(2, 100))).then(|| {
            MemoryConfig {
                store: rng.gen_bool(0.5),
                indexed: rng.gen_bool(0.5),
                base: rng.gen_range(0..1024u32) * 4,
            }
        });
        let (a, b) = if cfg.is_some() {
            (None, None)
        } else {
            (self.operand(0, rng), self.operand(1, rng))
        };
        let response = if reset {
            None
        } else {
            self.answers
                .pick_due(cycle, self.answer_percent, rng)
                .map(|(tag, data)| (tag as usize, data))
        };
        self.next_latency = rng.gen_range(self.latency.0..=self.latency.1);
        self.apply(MemoryTileIn {
            reset,
            cfg,
            a,
            b,
            mem_req_ready: rng.gen_ratio(self.mem_ready_percent, 100),
            response,
            out_ready: rng.gen_ratio(self.ready_percent, 100),
        });
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let (a_vc, b_vc) = (i.a.map_or(0, |t| t.vc), i.b.map_or(0, |t| t.vc));
        let want = self.model.outputs(a_vc, b_vc, i.mem_req_ready);
        let u = &self.uut;
        expect("a_ready", want.a_ready, u.a_ready.val())?;
        expect("b_ready", want.b_ready, u.b_ready.val())?;
        let request = u.mem_req_valid.val().then(|| MemRequest {
            addr: small(u.mem_req_addr.val()) as u32,
            data: small(u.mem_req_data.val()) as u32,
            write: u.mem_req_write.val(),
            tag: small(u.mem_req_tag.val()) as usize,
        });
        expect("memory request", want.request, request)?;
        let out = u.out_valid.val().then(|| {
            (
                small(u.out_vc.val()) as u32,
                small(u.out_tid.val()) as u16,
                small(u.out_data.val()) as u32,
            )
        });
        expect(
            "out (vc, tid, data)",
            want.out.map(|t| (t.vc, t.tid, t.data)),
            out,
        )?;
        expect("busy", want.busy, u.busy.val())?;
        expect("tid_error", want.tid_error, u.tid_error.val())?;
        contract(
            "no tid_error from one thread per channel",
            !u.tid_error.val(),
            String::new,
        )?;
        if let (Some(r), Some(c)) = (request, self.config) {
            contract(
                "a tag is not reused while outstanding",
                !self.answers.owes(r.tag as u64),
                || format!("tag {} requested again", r.tag),
            )?;
            // The request's thread: the one whose operands are all held on its channel.
            let operands = if c.store && !c.indexed { 2 } else { 1 };
            let complete: Vec<usize> = (0..VCS)
                .filter(|&v| self.held[v][..operands].iter().all(Option::is_some))
                .collect();
            let matches = |v: &usize| {
                let [a, b] = self.held[*v];
                let (tid, a) = a.unwrap_or_default();
                let b = b.map_or(0, |b| b.1);
                let (addr, data) = if c.indexed {
                    (indexed_address(c.base, tid), a)
                } else {
                    (a, b)
                };
                r.addr == addr && (!c.store || r.data == data) && r.write == c.store
            };
            contract(
                "a request carries one complete thread's operation",
                complete.iter().any(matches),
                || format!("request {r:?}, complete channels {complete:?}, config {c:?}"),
            )?;
        }
        if let Some((vc, tid, data)) = out {
            contract(
                "a token answers its thread's request with the memory's word (0 for a store)",
                self.owed.get(&tid) == Some(&(vc, data)),
                || {
                    format!(
                        "token ({vc}, {tid}, {data:#x}), owed {:x?}",
                        self.owed.get(&tid)
                    )
                },
            )?;
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let (a_vc, b_vc) = (i.a.map_or(0, |t| t.vc), i.b.map_or(0, |t| t.vc));
        let now = self.model.outputs(a_vc, b_vc, i.mem_req_ready);
        // The channel and thread behind a request (checked equal to the RTL's request).
        let operation = self.model.operation(a_vc, b_vc);
        self.model.clock(&i);
        if i.reset {
            self.answers.clear();
            self.owed.clear();
            self.held.iter_mut().for_each(|h| *h = [None; 2]);
            self.config = None;
            return Ok(());
        }
        if i.cfg.is_some() {
            self.config = i.cfg;
        }
        if let Some((tag, _)) = i.response {
            self.answers.answered(tag as u64);
        }
        if let (Some(t), true) = (now.out, i.out_ready) {
            self.owed.remove(&t.tid);
            self.tokens += 1;
        }
        if let (Some(r), true) = (now.request, i.mem_req_ready) {
            let answer = self.memory.access(r.addr, r.data, r.write);
            self.answers
                .take(r.tag as u64, answer, self.cycle, self.next_latency);
            if let Some((vc, tid, _, _)) = operation {
                let v = vc as usize;
                self.owed
                    .insert(tid, (vc, if r.write { 0 } else { answer }));
                self.held[v] = [None; 2];
                self.cur_tid[v] = self.next_tid;
                self.next_tid = self.next_tid.wrapping_add(1);
            }
        }
        for (k, link) in [(0, i.a), (1, i.b)] {
            let ready = if k == 0 { now.a_ready } else { now.b_ready };
            if let Some(t) = link.filter(|_| ready) {
                self.held[t.vc][k] = Some((t.tid, t.data));
            }
        }
        Ok(())
    }
}
