//! Split/join unit bench: RTL vs model every cycle, with the SPEC §6 contracts. Split:
//! every accepted token leaves exactly once on every configured output, in order.
//! Join: a thread's token leaves exactly once on every configured output, only after
//! all its predecessor tokens were taken; nothing is taken on an unconfigured port.
//!
//! Join stimulus: threads are started on free channels with fresh thread ids; each
//! thread's `join_count` predecessor tokens are spread over the configured ports
//! (several may share a port), each port sends its own queue in order, so tokens of
//! different threads interleave and a thread's tokens arrive in any order. A channel
//! gets a new thread once its previous thread's token has left on every output.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::VecDeque;
use weft_hdl::cgrf::split_join::SplitJoin;
use weft_sim::cgrf::split_join::{SjConfig, SjToken, SplitJoin as Model};

/// Inputs of one cycle.
#[derive(Clone, Debug, Default)]
pub struct SjInputs {
    pub reset: bool,
    pub cfg: SjConfig,
    /// Offered token per port.
    pub tokens: Vec<Option<SjToken>>,
    /// `in_vc` driven on ports with no token (the unit may look at it).
    pub idle_vc: Vec<u32>,
    pub out_ready: Vec<bool>,
}

/// One join thread in the bench's view.
#[derive(Clone, Copy, Debug)]
struct Thread {
    tid: u16,
    /// Predecessor tokens taken so far.
    taken: u32,
    /// Outputs still owed the thread's token (bit k); 0 until complete.
    owed: u32,
    complete: bool,
}

pub struct SjBench<const VB: usize, const VCS: usize, const PORTS: usize, const CB: usize> {
    pub uut: SplitJoin<VB, VCS, PORTS, CB>,
    pub model: Model,
    pub inputs: SjInputs,
    /// Percent of cycles a port with a queued token offers it / an output is ready /
    /// a free channel starts a thread (join) or the source port gets a token (split).
    pub valid_percent: u32,
    pub ready_percent: u32,
    pub start_percent: u32,
    /// Percent of cycles an unconfigured port offers a stray token.
    pub stray_percent: u32,
    /// Force this configuration at every reset (directed tests); random otherwise.
    pub fixed_cfg: Option<SjConfig>,
    cfg: SjConfig,
    next_cfg: Option<SjConfig>,
    /// Per port: tokens waiting to be offered (join), in order.
    queues: Vec<VecDeque<SjToken>>,
    /// Split: per output, tokens owed in order.
    split_owed: Vec<VecDeque<SjToken>>,
    /// Join: the thread on each channel.
    threads: Vec<Option<Thread>>,
    /// Tokens taken and tokens delivered (per output) over the run.
    pub taken: u64,
    pub delivered: u64,
    /// Join threads completed (their token left on every output).
    pub joined: u64,
    next_tid: u16,
}

impl<const VB: usize, const VCS: usize, const PORTS: usize, const CB: usize> crate::presets::Tested
    for SplitJoin<VB, VCS, PORTS, CB>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![("VCS", VCS), ("PORTS", PORTS), ("MAX_JOIN", (1 << CB) - 1)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(SjBench::<VB, VCS, PORTS, CB>::default())
    }
}

impl<const VB: usize, const VCS: usize, const PORTS: usize, const CB: usize> Default
    for SjBench<VB, VCS, PORTS, CB>
{
    fn default() -> Self {
        let mut uut = SplitJoin::default();
        uut.connect_all();
        Self {
            uut,
            model: Model::new(VCS, PORTS),
            inputs: SjInputs {
                tokens: vec![None; PORTS],
                idle_vc: vec![0; PORTS],
                out_ready: vec![false; PORTS],
                ..Default::default()
            },
            valid_percent: 70,
            ready_percent: 70,
            start_percent: 30,
            stray_percent: 10,
            fixed_cfg: None,
            cfg: SjConfig::default(),
            next_cfg: None,
            queues: vec![VecDeque::new(); PORTS],
            split_owed: vec![VecDeque::new(); PORTS],
            threads: vec![None; VCS],
            taken: 0,
            delivered: 0,
            joined: 0,
            next_tid: 0,
        }
    }
}

impl<const VB: usize, const VCS: usize, const PORTS: usize, const CB: usize>
    SjBench<VB, VCS, PORTS, CB>
{
    /// Applies explicit inputs (directed tests use this instead of `drive`).
    pub fn apply(&mut self, i: SjInputs) {
        let u = &mut self.uut;
        u.reset.next = i.reset;
        u.join_mode.next = i.cfg.join_mode;
        u.in_mask.next = u64::from(i.cfg.in_mask).into();
        u.out_mask.next = u64::from(i.cfg.out_mask).into();
        u.join_count.next = u64::from(i.cfg.join_count).into();
        for p in 0..PORTS {
            let t = i.tokens[p];
            u.in_valid[p].next = t.is_some();
            u.in_vc[p].next = u64::from(t.map_or(i.idle_vc[p], |t| t.vc)).into();
            u.in_tid[p].next = u64::from(t.map_or(0, |t| t.tid)).into();
            u.in_data[p].next = u64::from(t.map_or(0, |t| t.data)).into();
            u.out_ready[p].next = i.out_ready[p];
        }
        self.cfg = i.cfg;
        self.inputs = i;
    }

    fn random_cfg(rng: &mut ChaCha8Rng) -> SjConfig {
        let all = (1u32 << PORTS) - 1;
        SjConfig {
            join_mode: rng.gen_bool(0.6),
            in_mask: rng.gen_range(1..=all),
            out_mask: rng.gen_range(1..=all),
            join_count: rng.gen_range(1..(1u32 << CB)),
        }
    }

    fn clear(&mut self) {
        self.queues.iter_mut().for_each(VecDeque::clear);
        self.split_owed.iter_mut().for_each(VecDeque::clear);
        self.threads.iter_mut().for_each(|t| *t = None);
    }

    fn vc_of(&self, p: usize) -> u32 {
        self.inputs.tokens[p].map_or(self.inputs.idle_vc[p], |t| t.vc)
    }
}

impl<const VB: usize, const VCS: usize, const PORTS: usize, const CB: usize> Bench
    for SjBench<VB, VCS, PORTS, CB>
{
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        let reset = cycle == 0 || rng.gen_ratio(1, 2000);
        if let Some(c) = self.next_cfg.take() {
            self.cfg = c;
        }
        let cfg = self.cfg;
        if reset {
            // A new configuration, applied once the reset edge emptied the unit
            // (configuration is static while tokens are held).
            self.next_cfg = Some(self.fixed_cfg.unwrap_or_else(|| Self::random_cfg(rng)));
            self.clear();
        }
        let in_ports: Vec<usize> = (0..PORTS).filter(|p| cfg.in_mask >> p & 1 == 1).collect();
        if !reset && cfg.join_mode {
            // Start a thread on a free channel; spread its tokens over the ports.
            if rng.gen_ratio(self.start_percent, 100) {
                let v = rng.gen_range(0..VCS);
                if self.threads[v].is_none() {
                    self.next_tid = self.next_tid.wrapping_add(1);
                    self.threads[v] = Some(Thread {
                        tid: self.next_tid,
                        taken: 0,
                        owed: 0,
                        complete: false,
                    });
                    for _ in 0..cfg.join_count {
                        let p = in_ports[rng.gen_range(0..in_ports.len())];
                        self.queues[p].push_back(SjToken {
                            vc: v as u32,
                            tid: self.next_tid,
                            data: rng.gen(),
                        });
                    }
                }
            }
        }
        let mut tokens = vec![None; PORTS];
        let mut idle_vc = vec![0; PORTS];
        for p in 0..PORTS {
            idle_vc[p] = rng.gen_range(0..VCS as u32);
            let configured = if cfg.join_mode {
                in_ports.contains(&p)
            } else {
                in_ports.first() == Some(&p)
            };
            if configured {
                if cfg.join_mode {
                    if rng.gen_ratio(self.valid_percent, 100) {
                        tokens[p] = self.queues[p].front().copied();
                    }
                } else if rng.gen_ratio(self.valid_percent, 100) {
                    self.next_tid = self.next_tid.wrapping_add(1);
                    tokens[p] = Some(SjToken {
                        vc: rng.gen_range(0..VCS as u32),
                        tid: self.next_tid,
                        data: rng.gen(),
                    });
                }
            } else if rng.gen_ratio(self.stray_percent, 100) {
                tokens[p] = Some(SjToken {
                    vc: rng.gen_range(0..VCS as u32),
                    tid: 0xffff,
                    data: rng.gen(),
                });
            }
        }
        let out_ready = (0..PORTS)
            .map(|_| rng.gen_ratio(self.ready_percent, 100))
            .collect();
        self.apply(SjInputs {
            reset,
            cfg,
            tokens,
            idle_vc,
            out_ready,
        });
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs.clone();
        let vcs: Vec<u32> = (0..PORTS).map(|p| self.vc_of(p)).collect();
        let want = self.model.outputs(i.cfg, &vcs, &i.out_ready);
        let u = &self.uut;
        for p in 0..PORTS {
            expect(
                &format!("in_ready[{p}]"),
                want.in_ready[p],
                u.in_ready[p].val(),
            )?;
            let configured = if i.cfg.join_mode {
                i.cfg.in_mask >> p & 1 == 1
            } else {
                i.cfg.in_mask != 0 && p == i.cfg.in_mask.trailing_zeros() as usize
            };
            contract(
                "an unconfigured port never takes a token",
                configured || !u.in_ready[p].val(),
                || format!("port {p} ready"),
            )?;
        }
        for k in 0..PORTS {
            expect(
                &format!("out_valid[{k}]"),
                want.out_valid[k],
                u.out_valid[k].val(),
            )?;
            let got = SjToken {
                vc: small(u.out_vc[k].val()) as u32,
                tid: small(u.out_tid[k].val()) as u16,
                data: small(u.out_data[k].val()) as u32,
            };
            expect(&format!("out[{k}]"), want.out[k], got)?;
            contract(
                "only configured outputs send",
                !u.out_valid[k].val() || i.cfg.out_mask >> k & 1 == 1,
                || format!("output {k} valid with out_mask {:b}", i.cfg.out_mask),
            )?;
            if !u.out_valid[k].val() || i.reset {
                continue;
            }
            if i.cfg.join_mode {
                let thread = self.threads[got.vc as usize];
                contract(
                    "a join sends a thread once per output, after all its predecessors",
                    thread.is_some_and(|t| t.complete && t.tid == got.tid && t.owed >> k & 1 == 1)
                        && got.data == 0,
                    || format!("output {k} sends {got:?}; bench thread {thread:?}"),
                )?;
            } else {
                contract(
                    "a split sends every token once per output, in order",
                    self.split_owed[k].front() == Some(&got),
                    || {
                        format!(
                            "output {k} sends {got:?}, owed {:?}",
                            self.split_owed[k].front()
                        )
                    },
                )?;
            }
        }
        expect("waiting", want.waiting, u.waiting.val())?;
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs.clone();
        let vcs: Vec<u32> = (0..PORTS).map(|p| self.vc_of(p)).collect();
        let now = self.model.outputs(i.cfg, &vcs, &i.out_ready);
        if !i.reset {
            // Outputs first: a token sent on this edge was complete before it.
            for k in 0..PORTS {
                if !(now.out_valid[k] && i.out_ready[k]) {
                    continue;
                }
                self.delivered += 1;
                let t = now.out[k];
                if i.cfg.join_mode {
                    let v = t.vc as usize;
                    if let Some(th) = self.threads[v].as_mut() {
                        th.owed &= !(1 << k);
                        if th.owed == 0 {
                            self.threads[v] = None;
                            self.joined += 1;
                        }
                    }
                } else {
                    self.split_owed[k].pop_front();
                }
            }
            for p in 0..PORTS {
                let Some(t) = i.tokens[p].filter(|_| now.in_ready[p]) else {
                    continue;
                };
                self.taken += 1;
                if i.cfg.join_mode {
                    self.queues[p].pop_front();
                    // Directed tests send tokens without starting threads in `drive`.
                    let th = self.threads[t.vc as usize].get_or_insert(Thread {
                        tid: t.tid,
                        taken: 0,
                        owed: 0,
                        complete: false,
                    });
                    contract(
                        "a channel holds one thread",
                        th.tid == t.tid && !th.complete,
                        || format!("token {t:?} while channel holds {th:?}"),
                    )?;
                    th.taken += 1;
                    contract(
                        "a join takes no more tokens than its count",
                        th.taken <= i.cfg.join_count,
                        || format!("thread {} took {} tokens", th.tid, th.taken),
                    )?;
                    if th.taken == i.cfg.join_count {
                        th.complete = true;
                        th.owed = i.cfg.out_mask;
                    }
                } else {
                    for k in 0..PORTS {
                        if i.cfg.out_mask >> k & 1 == 1 {
                            self.split_owed[k].push_back(t);
                        }
                    }
                }
            }
        }
        self.model.clock(i.reset, i.cfg, &i.tokens, &i.out_ready);
        Ok(())
    }
}
