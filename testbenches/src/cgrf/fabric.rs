//! Fabric bench: the whole MT-CGRF fabric top configured with a basic block's dataflow
//! graph (placed and routed by `weft_sim::cgrf::fabric`), threads streamed through its
//! thread ports, and every memory port answered by a memory with random latency that
//! answers in any order.
//!
//! Golden model: the graph executed sequentially per thread
//! (`weft_sim::cgrf::dataflow::Dfg::execute`) over the same initial memory. Contracts
//! checked every cycle: a finished thread was injected on that thread port and is in
//! flight there (no token lost or duplicated: each thread finishes exactly once), its
//! last token carries the golden value; every memory write writes the golden final
//! value of its address; no token buffer sees two threads in one channel; no token is
//! routed off the grid. At the end of a stream: every injected thread finished and the
//! memory equals the golden memory.
use crate::bench::{contract, Bench, Mismatch};
use crate::convert::small;
use crate::memory::{Outstanding, PortCycle, Request, Timing, Words};
use crate::run::{self, RunError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::HashMap;
use weft_hdl::cgrf::fabric::{Fabric, MEMORY_PORTS, THREAD_PORTS};
use weft_sim::cgrf::dataflow::Dfg;
use weft_sim::cgrf::fabric::{place_and_route, FabricConfig};

/// Words of memory the kernels may touch, initialised at random.
pub const MEMORY_WORDS: u32 = 1 << 14;

/// A configured kernel and what it must produce.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub config: FabricConfig,
    pub replicas: usize,
    /// Thread ids, streamed in this order (thread `tids[i]` on port `i mod replicas`).
    pub tids: Vec<u16>,
    /// Initial memory (words missing read 0).
    pub memory: HashMap<u32, u32>,
    /// Golden last-token value per thread id.
    pub end_value: HashMap<u16, u32>,
    /// Golden memory after every thread ran once.
    pub final_memory: HashMap<u32, u32>,
}

impl Kernel {
    /// Places and routes `dfg` with `replicas` copies and computes the golden results
    /// of `threads` threads (ids 0..threads) over random memory from `seed`.
    pub fn new(dfg: Dfg, replicas: usize, threads: u16, seed: u64) -> Result<Kernel, String> {
        let (config, _placement) = place_and_route(&dfg, replicas)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let memory: HashMap<u32, u32> = (0..MEMORY_WORDS).map(|w| (w * 4, rng.gen())).collect();
        let mut final_memory = memory.clone();
        let mut end_value = HashMap::new();
        let tids: Vec<u16> = (0..threads).collect();
        for &tid in &tids {
            end_value.insert(tid, dfg.execute(tid, &mut final_memory));
        }
        Ok(Kernel {
            config,
            replicas,
            tids,
            memory,
            end_value,
            final_memory,
        })
    }

    /// The preset's stream: `c[i] = a[i] * b[i] + 7` on two replicas, 1 024 threads.
    pub fn default_stream() -> Kernel {
        Kernel::new(Dfg::mul_add(7, 0x0000, 0x1000, 0x2000), 2, 1024, 1)
            .expect("the preset's kernel places and routes")
    }
}

/// Inputs decided in `drive` and replayed in `tick`.
#[derive(Clone, Debug, Default)]
struct Cycle {
    reset: bool,
    thread_valid: [bool; THREAD_PORTS],
    thread_tid: [u16; THREAD_PORTS],
    memory: [PortCycle; MEMORY_PORTS],
}

/// Outputs sampled in `check` (before the edge) and acted on in `tick`.
#[derive(Clone, Debug, Default)]
struct Seen {
    thread_ready: [bool; THREAD_PORTS],
    done: [Option<u16>; THREAD_PORTS],
    /// Memory request offered per port.
    request: [Option<Request>; MEMORY_PORTS],
}

/// Where the bench is in its program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Reset,
    Units(usize),
    Routes(usize),
    Run,
}

pub struct FabricBench<const VCS: usize, const VB: usize> {
    pub uut: Fabric<VCS, VB>,
    pub kernel: Kernel,
    phase: Phase,
    now: Cycle,
    seen: Seen,
    cycle: u64,
    memory: Words,
    owed: Vec<Outstanding>,
    /// Next index into `kernel.tids` per thread port (port k takes `k, k + R, ...`).
    next: Vec<usize>,
    /// Threads in flight per port: tid -> count (never above 1).
    in_flight: Vec<HashMap<u16, u32>>,
    /// Stop injecting after this many threads in all (None: stream forever, wrapping).
    pub limit: Option<usize>,
    pub injected: usize,
    pub finished: usize,
    pub first_injection: Option<u64>,
    pub last_injection: u64,
    pub last_finish: u64,
    /// Percent of cycles a thread is offered on each port.
    pub thread_percent: u32,
    /// How the memory ports take requests and answer them.
    pub memory_timing: Timing,
}

impl<const VCS: usize, const VB: usize> crate::presets::Tested for Fabric<VCS, VB> {
    fn params() -> Vec<(&'static str, usize)> {
        vec![("TILES", 16), ("VCS", VCS), ("MEMORY_PORTS", 10)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(FabricBench::<VCS, VB>::new(Kernel::default_stream()))
    }
}

impl<const VCS: usize, const VB: usize> FabricBench<VCS, VB> {
    pub fn new(kernel: Kernel) -> Self {
        let mut uut = Fabric::default();
        uut.connect_all();
        let memory = Words::zero_default(kernel.memory.clone());
        FabricBench {
            uut,
            kernel,
            phase: Phase::Reset,
            now: Cycle::default(),
            seen: Seen::default(),
            cycle: 0,
            memory,
            owed: vec![Outstanding::default(); MEMORY_PORTS],
            next: (0..THREAD_PORTS).collect(),
            in_flight: vec![HashMap::new(); THREAD_PORTS],
            limit: None,
            injected: 0,
            finished: 0,
            first_injection: None,
            last_injection: 0,
            last_finish: 0,
            thread_percent: 90,
            memory_timing: Timing::default(),
        }
    }

    /// The thread port `k` would offer next, if any.
    fn offer(&self, k: usize) -> Option<u16> {
        if k >= self.kernel.replicas || self.limit.is_some_and(|l| self.injected >= l) {
            return None;
        }
        let tids = &self.kernel.tids;
        let i = self.next[k];
        if self.limit.is_none() {
            Some(tids[i % tids.len()])
        } else {
            tids.get(i).copied()
        }
    }

    fn drive_configuration(&mut self) {
        let u = &mut self.uut;
        u.reset.next = self.phase == Phase::Reset;
        u.cfg_unit_valid.next = false;
        u.route_shift.next = false;
        for r in 0..4 {
            u.route_in_en[r].next = false;
            u.route_in_sel[r].next = 0.into();
        }
        match self.phase {
            Phase::Units(i) => {
                let (id, c) = &self.kernel.config.units[i];
                u.cfg_unit_valid.next = true;
                u.cfg_unit_id.next = u64::from(*id).into();
                u.cfg_opcode.next = u64::from(c.opcode).into();
                u.cfg_imm_en.next = c.imm_en;
                u.cfg_imm.next = u64::from(c.imm).into();
                u.cfg_store.next = c.store;
                u.cfg_indexed.next = c.indexed;
            }
            Phase::Routes(i) => {
                u.route_shift.next = true;
                for r in 0..4 {
                    let (en, sel) = self.kernel.config.route_shift_stream(r)[i];
                    u.route_in_en[r].next = en;
                    u.route_in_sel[r].next = u64::from(sel).into();
                }
            }
            _ => {}
        }
    }

    fn next_phase(&self) -> Phase {
        match self.phase {
            Phase::Reset if self.kernel.config.units.is_empty() => Phase::Routes(0),
            Phase::Reset => Phase::Units(0),
            Phase::Units(i) if i + 1 < self.kernel.config.units.len() => Phase::Units(i + 1),
            Phase::Units(_) => Phase::Routes(0),
            Phase::Routes(i) if i + 1 < 44 => Phase::Routes(i + 1),
            _ => Phase::Run,
        }
    }

    /// Streams until `threads` threads finished (injecting no more than that), or
    /// `max_cycles` pass; returns the cycles from the first injection to the last
    /// finish. Every contract is checked on every cycle, and the memory against the
    /// golden memory at the end.
    pub fn stream(&mut self, threads: usize, max_cycles: u64, seed: u64) -> Result<u64, RunError> {
        self.limit = Some(threads);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let at = |cycle: u64, e: Mismatch| RunError::Mismatch(Mismatch { cycle, ..e });
        run::start(self)?;
        let mut cycle = 0;
        while self.finished < threads {
            if cycle == max_cycles {
                return Err(at(
                    cycle,
                    Mismatch {
                        cycle,
                        signal: "contract: every thread injected finishes".into(),
                        expected: format!("{threads} threads finished"),
                        got: format!(
                            "{} finished, {} injected after {max_cycles} cycles",
                            self.finished, self.injected
                        ),
                    },
                ));
            }
            run::step(self, cycle, &mut rng)?;
            cycle += 1;
        }
        for (addr, want) in &self.kernel.final_memory {
            let got = self.memory.read(*addr);
            if got != *want {
                return Err(at(
                    cycle,
                    Mismatch {
                        cycle,
                        signal: format!("memory word {addr:#x} after the stream"),
                        expected: format!("{want:#x}"),
                        got: format!("{got:#x}"),
                    },
                ));
            }
        }
        Ok(self.last_finish + 1 - self.first_injection.unwrap_or(0))
    }
}

impl<const VCS: usize, const VB: usize> Bench for FabricBench<VCS, VB> {
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        self.cycle = cycle;
        self.drive_configuration();
        let mut now = Cycle {
            reset: self.phase == Phase::Reset,
            ..Cycle::default()
        };
        let run = self.phase == Phase::Run;
        for k in 0..THREAD_PORTS {
            let offer = if run { self.offer(k) } else { None };
            now.thread_valid[k] = offer.is_some() && rng.gen_ratio(self.thread_percent, 100);
            now.thread_tid[k] = offer.unwrap_or(0);
            self.uut.thread_valid[k].next = now.thread_valid[k];
            self.uut.thread_tid[k].next = u64::from(now.thread_tid[k]).into();
        }
        for m in 0..MEMORY_PORTS {
            now.memory[m] = self.owed[m].decide(cycle, &self.memory_timing, rng);
            let u = &mut self.uut;
            now.memory[m].drive(
                &mut u.mem_req_ready[m],
                &mut u.mem_resp_valid[m],
                &mut u.mem_resp_tag[m],
                &mut u.mem_resp_data[m],
            );
        }
        self.now = now;
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let u = &self.uut;
        let mut seen = Seen::default();
        for k in 0..THREAD_PORTS {
            seen.thread_ready[k] = u.thread_ready[k].val();
            seen.done[k] = u.done_valid[k]
                .val()
                .then(|| small(u.done_tid[k].val()) as u16);
        }
        for m in 0..MEMORY_PORTS {
            seen.request[m] = u.mem_req_valid[m].val().then(|| {
                (
                    small(u.mem_req_addr[m].val()) as u32,
                    small(u.mem_req_data[m].val()) as u32,
                    u.mem_req_write[m].val(),
                    small(u.mem_req_tag[m].val()),
                )
            });
        }
        self.seen = seen;
        contract("no channel holds two threads", !u.tid_error.val(), || {
            "tid_error raised".into()
        })?;
        contract(
            "no token is routed off the grid",
            !u.misrouted.val(),
            || "misrouted raised".into(),
        )?;
        for k in 0..THREAD_PORTS {
            if !u.done_valid[k].val() {
                continue;
            }
            let tid = small(u.done_tid[k].val()) as u16;
            let data = small(u.done_data[k].val()) as u32;
            contract(
                "a thread finishes once, on its own port, after it was injected",
                self.in_flight[k].get(&tid).copied() == Some(1),
                || {
                    format!(
                        "thread {tid} finished on port {k}, in flight there: {:?}",
                        self.in_flight[k].get(&tid)
                    )
                },
            )?;
            let want = self.kernel.end_value.get(&tid).copied();
            contract(
                "the last token carries the golden value",
                want == Some(data),
                || format!("thread {tid}: got {data:#x}, golden {want:x?}"),
            )?;
        }
        for m in 0..MEMORY_PORTS {
            if u.mem_req_valid[m].val() && u.mem_req_write[m].val() {
                let addr = small(u.mem_req_addr[m].val()) as u32;
                let data = small(u.mem_req_data[m].val()) as u32;
                let want = self.kernel.final_memory.get(&addr).copied();
                contract(
                    "every write writes the golden value",
                    want == Some(data),
                    || format!("port {m} writes {data:#x} to {addr:#x}, golden {want:x?}"),
                )?;
            }
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let now = self.now.clone();
        let seen = self.seen.clone();
        if now.reset {
            for owed in &mut self.owed {
                owed.clear();
            }
        }
        for k in 0..THREAD_PORTS {
            if now.thread_valid[k] && seen.thread_ready[k] {
                *self.in_flight[k].entry(now.thread_tid[k]).or_insert(0) += 1;
                self.next[k] += self.kernel.replicas;
                self.injected += 1;
                self.first_injection.get_or_insert(self.cycle);
                self.last_injection = self.cycle;
            }
            if let Some(tid) = seen.done[k] {
                self.in_flight[k].remove(&tid);
                self.finished += 1;
                self.last_finish = self.cycle;
            }
        }
        Outstanding::settle_ports(
            &mut self.owed,
            &now.memory,
            &seen.request,
            &mut self.memory,
            self.cycle,
        );
        self.phase = self.next_phase();
        Ok(())
    }
}
