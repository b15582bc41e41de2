//! Live value cache bench: random reads and writes of (live value id, thread id) words
//! against the live value array model, a backing memory with random latency that
//! answers reads out of order, and periodic flushes.
//!
//! Contracts (SPEC §5, VGIW §3.4):
//! - a read returns the last value written to its word (or the memory's initial word),
//!   whatever spills and fills happened;
//! - no response without a request: a response names an outstanding read;
//! - a spilled word is the last value written to it (no stale write-back);
//! - no lost dirty data: after a flush, memory equals the model word for word;
//! - bank conflicts stall and never drop: every request offered is eventually taken,
//!   every read eventually answered; no request is taken while a flush is offered.
use crate::bench::{contract, Bench, Mismatch};
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::vgiw::lvc::Lvc;
use weft_sim::vgiw::lvc::LiveValues;

/// Cycles a request may wait to be taken, or a read to be answered.
pub const PATIENCE: u64 = 20_000;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LvcReq {
    pub write: bool,
    pub addr: usize,
    pub wdata: u32,
    pub id: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Traffic,
    /// No new requests; flush once the offered one is taken.
    FlushWait,
    Flushing,
    Draining,
}

/// Handshakes seen before the edge.
#[derive(Clone, Copy, Debug, Default)]
struct Fired {
    req: bool,
    resp: Option<usize>,
    mem: Option<(bool, usize, u32, usize)>,
    flush: bool,
    flushing: bool,
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 31;
    x = x.wrapping_mul(0x7fb5_d329_728e_a185);
    x ^= x >> 27;
    x = x.wrapping_mul(0x81da_def4_bc2d_d44d);
    x ^ (x >> 33)
}

/// The backing memory's word at `address` before any write.
pub fn initial_word(address: usize) -> u32 {
    mix(address as u64 ^ 0x5eed) as u32
}

pub struct LvcBench<
    const AW: usize,
    const TAGW: usize,
    const IW: usize,
    const BANKS: usize,
    const BKW: usize,
    const OW: usize,
    const WPL: usize,
    const SW: usize,
    const LW: usize,
    const IDW: usize,
> {
    pub uut: Lvc<AW, TAGW, IW, BANKS, BKW, OW, WPL, SW, LW, IDW>,
    pub model: LiveValues,
    /// The backing memory, by word address.
    pub memory: Vec<u32>,
    /// Percent of cycles a new request is offered, percent of requests that write.
    pub req_percent: u32,
    pub write_percent: u32,
    /// Percent of cycles the response and memory ports are ready.
    pub resp_ready_percent: u32,
    pub mem_ready_percent: u32,
    /// Longest memory read latency.
    pub max_mem_latency: u64,
    /// One flush every this many cycles on average (0: never).
    pub flush_every: u32,
    phase: Phase,
    held: Option<(LvcReq, u64)>,
    /// Outstanding reads by id: (address, expected word, cycle taken).
    outstanding: Vec<Option<(usize, u32, u64)>>,
    /// Memory reads in flight: (bank, word, ready cycle).
    mem_reads: Vec<(usize, u32, u64)>,
    mem_resp: Option<usize>,
    hot: Vec<usize>,
    cycle: u64,
    reset: bool,
    fired: Fired,
    /// Requests taken, responses, memory reads and writes, completed flushes, requests
    /// taken while another bank waited on memory, longest read latency.
    pub reads: u64,
    pub writes: u64,
    pub responses: u64,
    pub mem_read_count: u64,
    pub mem_write_count: u64,
    pub flushes: u64,
    pub hit_under_miss: u64,
    pub max_read_latency: u64,
}

impl<
        const AW: usize,
        const TAGW: usize,
        const IW: usize,
        const BANKS: usize,
        const BKW: usize,
        const OW: usize,
        const WPL: usize,
        const SW: usize,
        const LW: usize,
        const IDW: usize,
    > crate::presets::Tested for Lvc<AW, TAGW, IW, BANKS, BKW, OW, WPL, SW, LW, IDW>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![
            ("ADDR_BITS", AW),
            ("BANKS", BANKS),
            ("SETS", 1 << SW),
            ("WORDS_PER_LINE", WPL),
        ]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(LvcBench::<AW, TAGW, IW, BANKS, BKW, OW, WPL, SW, LW, IDW>::default())
    }
}

impl<
        const AW: usize,
        const TAGW: usize,
        const IW: usize,
        const BANKS: usize,
        const BKW: usize,
        const OW: usize,
        const WPL: usize,
        const SW: usize,
        const LW: usize,
        const IDW: usize,
    > Default for LvcBench<AW, TAGW, IW, BANKS, BKW, OW, WPL, SW, LW, IDW>
{
    fn default() -> Self {
        let mut uut = Lvc::default();
        uut.connect_all();
        let threads = 1usize << AW.min(11).saturating_sub(1).max(1);
        let model = LiveValues::new((1 << AW) / threads, threads, initial_word);
        LvcBench {
            uut,
            memory: model.words().to_vec(),
            model,
            req_percent: 70,
            write_percent: 45,
            resp_ready_percent: 80,
            mem_ready_percent: 70,
            max_mem_latency: 20,
            flush_every: 4_000,
            phase: Phase::Traffic,
            held: None,
            outstanding: vec![None; 1 << IDW],
            mem_reads: vec![],
            mem_resp: None,
            hot: vec![],
            cycle: 0,
            reset: false,
            fired: Fired::default(),
            reads: 0,
            writes: 0,
            responses: 0,
            mem_read_count: 0,
            mem_write_count: 0,
            flushes: 0,
            hit_under_miss: 0,
            max_read_latency: 0,
        }
    }
}

impl<
        const AW: usize,
        const TAGW: usize,
        const IW: usize,
        const BANKS: usize,
        const BKW: usize,
        const OW: usize,
        const WPL: usize,
        const SW: usize,
        const LW: usize,
        const IDW: usize,
    > LvcBench<AW, TAGW, IW, BANKS, BKW, OW, WPL, SW, LW, IDW>
{
    /// A random word address: mostly a few hot lines under several tags (evictions,
    /// spills, refills), some runs of consecutive threads, some anywhere.
    fn address(&mut self, rng: &mut ChaCha8Rng) -> usize {
        let words = 1usize << AW;
        if self.hot.is_empty() || rng.gen_ratio(1, 500) {
            self.hot = (0..8).map(|_| rng.gen_range(0..words)).collect();
        }
        match rng.gen_range(0..10) {
            0..=4 => {
                // Same set and slot as a hot word, another tag.
                let h = self.hot[rng.gen_range(0..self.hot.len())];
                let tag: usize = rng.gen_range(0..4.min(1 << TAGW));
                (h & ((1 << IW) - 1)) | (tag << IW)
            }
            5..=7 => {
                let h = self.hot[rng.gen_range(0..self.hot.len())];
                (h + rng.gen_range(0..4 * BANKS * WPL)) % words
            }
            _ => rng.gen_range(0..words),
        }
    }

    fn read_free_id(&self, rng: &mut ChaCha8Rng) -> Option<usize> {
        let free: Vec<usize> = (0..self.outstanding.len())
            .filter(|&i| self.outstanding[i].is_none())
            .collect();
        (!free.is_empty()).then(|| free[rng.gen_range(0..free.len())])
    }

    /// Applies a request (or none), the ready bits, the memory response and flush.
    fn apply(&mut self, resp_ready: bool, mem_ready: bool, flush: bool) {
        let u = &mut self.uut;
        u.reset.next = self.reset;
        let r = self.held.map(|(r, _)| r).unwrap_or_default();
        u.req_valid.next = self.held.is_some();
        u.req_write.next = r.write;
        u.req_addr.next = (r.addr as u64).into();
        u.req_wdata.next = u64::from(r.wdata).into();
        u.req_id.next = (r.id as u64).into();
        u.resp_ready.next = resp_ready;
        u.mem_req_ready.next = mem_ready;
        let (bank, word) = self
            .mem_resp
            .map(|j| (self.mem_reads[j].0, self.mem_reads[j].1))
            .unwrap_or_default();
        u.mem_resp_valid.next = self.mem_resp.is_some();
        u.mem_resp_bank.next = (bank as u64).into();
        u.mem_resp_data.next = u64::from(word).into();
        u.flush.next = flush;
    }
}

impl<
        const AW: usize,
        const TAGW: usize,
        const IW: usize,
        const BANKS: usize,
        const BKW: usize,
        const OW: usize,
        const WPL: usize,
        const SW: usize,
        const LW: usize,
        const IDW: usize,
    > Bench for LvcBench<AW, TAGW, IW, BANKS, BKW, OW, WPL, SW, LW, IDW>
{
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        self.cycle = cycle;
        self.reset = cycle == 0;
        if self.phase == Phase::Traffic
            && self.flush_every > 0
            && rng.gen_ratio(1, self.flush_every)
        {
            self.phase = Phase::FlushWait;
        }
        if self.phase == Phase::FlushWait && self.held.is_none() {
            self.phase = Phase::Flushing;
        }
        if self.held.is_none()
            && self.phase == Phase::Traffic
            && !self.reset
            && rng.gen_ratio(self.req_percent, 100)
        {
            let write = rng.gen_ratio(self.write_percent, 100);
            let id = if write {
                Some(rng.gen_range(0..self.outstanding.len()))
            } else {
                self.read_free_id(rng)
            };
            if let Some(id) = id {
                let addr = self.address(rng);
                self.held = Some((
                    LvcReq {
                        write,
                        addr,
                        wdata: rng.gen(),
                        id,
                    },
                    cycle,
                ));
            }
        }
        // Any memory read whose latency has elapsed, in any order.
        let ready: Vec<usize> = (0..self.mem_reads.len())
            .filter(|&j| self.mem_reads[j].2 <= cycle)
            .collect();
        self.mem_resp = (!ready.is_empty() && rng.gen_ratio(4, 5))
            .then(|| ready[rng.gen_range(0..ready.len())]);
        let resp_ready = rng.gen_ratio(self.resp_ready_percent, 100);
        let mem_ready = rng.gen_ratio(self.mem_ready_percent, 100);
        self.apply(resp_ready, mem_ready, self.phase == Phase::Flushing);
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let u = &self.uut;
        let mut f = Fired {
            flushing: u.flushing.val(),
            ..Default::default()
        };
        if self.reset {
            self.fired = f;
            return Ok(());
        }
        if u.flush.val() {
            contract(
                "no request is taken while a flush is offered",
                !u.req_ready.val(),
                || "req_ready high with flush".into(),
            )?;
        }
        f.req = u.req_valid.val() && u.req_ready.val();
        f.flush = u.flush.val() && u.flush_ready.val();
        if u.resp_valid.val() {
            let id = small(u.resp_id.val()) as usize;
            let data = small(u.resp_data.val()) as u32;
            let pending = self.outstanding[id];
            contract("no response without a request", pending.is_some(), || {
                format!("response with id {id}, no read outstanding")
            })?;
            let (addr, want, _) = pending.unwrap();
            contract(
                "a read returns the last value written to its word",
                data == want,
                || format!("id {id} address {addr:#x}: got {data:#010x}, want {want:#010x}"),
            )?;
            if u.resp_ready.val() {
                f.resp = Some(id);
            }
        }
        if u.mem_req_valid.val() {
            let addr = ((small(u.mem_req_tag.val()) << IW) | small(u.mem_req_index.val())) as usize;
            let write = u.mem_req_write.val();
            let data = small(u.mem_req_data.val()) as u32;
            let bank = small(u.mem_req_bank.val()) as usize;
            contract(
                "a memory request names its bank",
                addr % BANKS == bank,
                || format!("address {addr:#x} from bank {bank}"),
            )?;
            if write {
                let want = self.model.read(addr);
                contract(
                    "a spilled word is the last value written to it",
                    data == want,
                    || format!("spill of {addr:#x}: {data:#010x}, last written {want:#010x}"),
                )?;
            }
            if u.mem_req_ready.val() {
                f.mem = Some((write, addr, data, bank));
            }
        }
        if let Some((r, since)) = self.held {
            contract(
                "a request offered is eventually taken",
                self.cycle - since < PATIENCE,
                || format!("{r:?} waiting since cycle {since}"),
            )?;
        }
        for (id, o) in self.outstanding.iter().enumerate() {
            if let Some((addr, _, since)) = o {
                contract(
                    "a read is eventually answered",
                    self.cycle - since < PATIENCE,
                    || format!("id {id} address {addr:#x} taken at cycle {since}"),
                )?;
            }
        }
        self.fired = f;
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let f = self.fired;
        if self.reset {
            return Ok(());
        }
        if let Some(j) = self.mem_resp.take() {
            self.mem_reads.swap_remove(j);
        }
        if let Some(id) = f.resp {
            let (_, _, since) = self.outstanding[id].take().unwrap();
            self.responses += 1;
            self.max_read_latency = self.max_read_latency.max(self.cycle - since);
        }
        if f.req {
            let (r, _) = self.held.take().unwrap();
            if !self.mem_reads.is_empty() {
                self.hit_under_miss += 1;
            }
            if r.write {
                self.model.write(r.addr, r.wdata);
                self.writes += 1;
            } else {
                self.outstanding[r.id] = Some((r.addr, self.model.read(r.addr), self.cycle));
                self.reads += 1;
            }
        }
        if let Some((write, addr, data, bank)) = f.mem {
            if write {
                self.memory[addr] = data;
                self.mem_write_count += 1;
            } else {
                contract(
                    "one memory read per bank at a time",
                    self.mem_reads.iter().all(|&(b, _, _)| b != bank),
                    || format!("bank {bank} reads {addr:#x} with a read in flight"),
                )?;
                let latency = 1 + mix(self.cycle ^ (addr as u64) << 20) % self.max_mem_latency;
                self.mem_reads
                    .push((bank, self.memory[addr], self.cycle + latency));
                self.mem_read_count += 1;
            }
        }
        match self.phase {
            Phase::Flushing if f.flush => self.phase = Phase::Draining,
            Phase::Draining if !f.flushing => {
                let bad = (0..self.memory.len()).find(|&a| self.memory[a] != self.model.read(a));
                contract(
                    "after a flush, memory holds every word last written",
                    bad.is_none(),
                    || {
                        let a = bad.unwrap();
                        format!(
                            "address {a:#x}: memory {:#010x}, last written {:#010x}",
                            self.memory[a],
                            self.model.read(a)
                        )
                    },
                )?;
                self.flushes += 1;
                self.phase = Phase::Traffic;
            }
            _ => {}
        }
        Ok(())
    }
}
