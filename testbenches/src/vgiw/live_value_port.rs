//! Live value port bench: RTL vs model every cycle. Two live value units issue reads
//! and writes with their own tags (a tag is reused only once answered), mostly inside
//! the live value array, rarely outside it; a stand-in LVC takes requests at random,
//! keeps the words, and answers reads after a random latency in any order. Contracts:
//! the LVC sees the word address `{lv, tid}` of the request; every request is answered
//! exactly once, on its own port, with its tag; a read answers the word the LVC held;
//! `addr_error` rises exactly when a request outside the array was taken.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use crate::memory::{Outstanding, Words};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::HashMap;
use weft_hdl::vgiw::live_value_port::LiveValuePort;
use weft_sim::cgrf::dataflow::live_value_base;
use weft_sim::vgiw::live_value_port::{
    word_address, LiveValuePort as Model, LiveValuePortIn, LvRequest, LvcRequest,
};

pub struct LiveValuePortBench<const LVW: usize, const TIDW: usize, const AW: usize> {
    pub uut: LiveValuePort<LVW, TIDW, AW>,
    pub model: Model,
    pub inputs: LiveValuePortIn,
    /// Percent of cycles a unit requests / the LVC takes a request / a due read is
    /// answered; per mille of requests outside the array.
    pub valid_percent: u32,
    pub lvc_ready_percent: u32,
    pub answer_percent: u32,
    pub outside_per_mille: u32,
    /// The stand-in LVC's words and the reads it owes, by request id.
    words: Words,
    reads: Outstanding,
    /// Per port: tag -> the answer owed (0 for a write).
    owed: [HashMap<u8, u32>; 2],
    outside_taken: bool,
    cycle: u64,
    /// Latency of a read the LVC takes this cycle (drawn in `drive`).
    next_latency: u64,
    pub answered: u64,
}

impl<const LVW: usize, const TIDW: usize, const AW: usize> crate::presets::Tested
    for LiveValuePort<LVW, TIDW, AW>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![
            ("LIVE_VALUES", 1 << LVW),
            ("THREADS", 1 << TIDW),
            ("UNITS", 2),
        ]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(LiveValuePortBench::<LVW, TIDW, AW>::default())
    }
}

impl<const LVW: usize, const TIDW: usize, const AW: usize> Default
    for LiveValuePortBench<LVW, TIDW, AW>
{
    fn default() -> Self {
        let mut uut = LiveValuePort::default();
        uut.connect_all();
        Self {
            uut,
            model: Model::new(LVW as u32, TIDW as u32),
            inputs: LiveValuePortIn::default(),
            valid_percent: 60,
            lvc_ready_percent: 70,
            answer_percent: 60,
            outside_per_mille: 0,
            words: Words::default(),
            reads: Outstanding::default(),
            owed: Default::default(),
            outside_taken: false,
            cycle: 0,
            next_latency: 1,
            answered: 0,
        }
    }
}

impl<const LVW: usize, const TIDW: usize, const AW: usize> LiveValuePortBench<LVW, TIDW, AW> {
    fn apply(&mut self, i: LiveValuePortIn) {
        let u = &mut self.uut;
        u.reset.next = i.reset;
        for p in 0..2 {
            let r = i.req[p].unwrap_or_default();
            u.req_valid[p].next = i.req[p].is_some();
            u.req_addr[p].next = u64::from(r.addr).into();
            u.req_data[p].next = u64::from(r.data).into();
            u.req_write[p].next = r.write;
            u.req_tag[p].next = u64::from(r.tag).into();
        }
        u.lvc_req_ready.next = i.lvc_req_ready;
        let (id, data) = i.lvc_resp.unwrap_or((0, 0));
        u.lvc_resp_valid.next = i.lvc_resp.is_some();
        u.lvc_resp_id.next = u64::from(id).into();
        u.lvc_resp_data.next = u64::from(data).into();
        self.inputs = i;
    }

    fn request(&self, p: usize, rng: &mut ChaCha8Rng) -> Option<LvRequest> {
        let free: Vec<u8> = (0..16).filter(|t| !self.owed[p].contains_key(t)).collect();
        if free.is_empty() || !rng.gen_ratio(self.valid_percent, 100) {
            return None;
        }
        // A few live values and threads, so reads often find earlier writes.
        let lv = rng.gen_range(0..4u32.min(1 << LVW));
        let tid = rng.gen_range(0..16u32.min(1 << TIDW));
        let mut addr = live_value_base(lv) + 4 * tid;
        if rng.gen_ratio(self.outside_per_mille, 1000) {
            addr = match rng.gen_range(0..4) {
                0 => rng.gen_range(0..LIMIT_BELOW),
                1 => addr | 1,
                // The first id past the array (when the address has room for it).
                2 if LVW < 13 => live_value_base(1 << LVW),
                2 => addr | 2,
                _ => addr + 4 * (1 << TIDW),
            };
        }
        Some(LvRequest {
            addr,
            data: rng.gen(),
            write: rng.gen_bool(0.5),
            tag: free[rng.gen_range(0..free.len())],
        })
    }
}

/// Addresses below the live value array drawn for "outside" requests.
const LIMIT_BELOW: u32 = 0x1000;

impl<const LVW: usize, const TIDW: usize, const AW: usize> Bench
    for LiveValuePortBench<LVW, TIDW, AW>
{
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        self.cycle = cycle;
        let reset = cycle == 0 || rng.gen_ratio(1, 3000);
        let lvc_resp = if reset {
            None
        } else {
            self.reads
                .pick_due(cycle, self.answer_percent, rng)
                .map(|(id, data)| (id as u8, data))
        };
        let req = [self.request(0, rng), self.request(1, rng)];
        self.next_latency = rng.gen_range(1..=12);
        self.apply(LiveValuePortIn {
            reset,
            req,
            lvc_req_ready: rng.gen_ratio(self.lvc_ready_percent, 100),
            lvc_resp,
        });
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let want = self.model.outputs(&i);
        let u = &self.uut;
        expect(
            "req_ready",
            want.req_ready,
            [u.req_ready[0].val(), u.req_ready[1].val()],
        )?;
        let lvc_req = u.lvc_req_valid.val().then(|| LvcRequest {
            write: u.lvc_req_write.val(),
            addr: small(u.lvc_req_addr.val()) as u32,
            data: small(u.lvc_req_wdata.val()) as u32,
            id: small(u.lvc_req_id.val()) as u8,
        });
        expect("lvc request", want.lvc_req, lvc_req)?;
        let mut resp = [None; 2];
        for (p, r) in resp.iter_mut().enumerate() {
            *r = u.resp_valid[p].val().then(|| {
                (
                    small(u.resp_tag[p].val()) as u8,
                    small(u.resp_data[p].val()) as u32,
                )
            });
        }
        expect("answers", want.resp, resp)?;
        expect("addr_error", want.addr_error, u.addr_error.val())?;
        expect("lvc_resp_ready", true, u.lvc_resp_ready.val())?;
        if let Some(r) = lvc_req {
            let p = usize::from(r.id >> 4);
            let sent = i.req[p].unwrap_or_default();
            contract(
                "the LVC sees the request's {lv, tid} word, tag and data",
                i.req[p].is_some()
                    && r.addr == word_address(sent.addr, LVW as u32, TIDW as u32).0
                    && r.id & 15 == sent.tag
                    && r.write == sent.write
                    && r.data == sent.data,
                || format!("LVC request {r:x?}, unit {p} offers {sent:x?}"),
            )?;
        }
        for (p, r) in resp.iter().enumerate() {
            if let Some((tag, data)) = r {
                let owed = self.owed[p].get(tag);
                contract(
                    "every answer is owed to its port and tag, with the LVC's word (0 for a write)",
                    owed == Some(data),
                    || format!("port {p} tag {tag}: answer {data:#x}, owed {owed:x?}"),
                )?;
            }
        }
        contract(
            "addr_error exactly when a request outside the array was taken",
            u.addr_error.val() == self.outside_taken,
            || {
                format!(
                    "addr_error {}, outside taken {}",
                    u.addr_error.val(),
                    self.outside_taken
                )
            },
        )?;
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let now = self.model.outputs(&i);
        self.model.clock(&i);
        if i.reset {
            self.reads.clear();
            self.owed = Default::default();
            self.outside_taken = false;
            return Ok(());
        }
        if let Some((id, _)) = i.lvc_resp {
            self.reads.answered(u64::from(id));
        }
        for (p, r) in now.resp.iter().enumerate() {
            if let Some((tag, _)) = r {
                self.owed[p].remove(tag);
                self.answered += 1;
            }
        }
        if let (Some(r), true) = (now.lvc_req, i.lvc_req_ready) {
            let p = usize::from(r.id >> 4);
            let sent = i.req[p].unwrap_or_default();
            self.outside_taken |= !word_address(sent.addr, LVW as u32, TIDW as u32).1;
            let data = self.words.access(r.addr, r.data, r.write);
            if !r.write {
                self.reads
                    .take(u64::from(r.id), data, self.cycle, self.next_latency);
            }
            self.owed[p].insert(sent.tag, data);
        }
        Ok(())
    }
}
