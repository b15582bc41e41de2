//! Split/join unit model (SPEC §6). Split copies the token of the lowest `in_mask`
//! port to every output of
//! `out_mask`; join counts the tokens of each virtual channel on the `in_mask` ports
//! and, at `join_count`, queues one control token for the thread, sent round robin
//! over the channels. Both modes share an output stage: one held token with a pending
//! bit per successor. Cycle semantics: `outputs()` is what the unit presents this
//! cycle; `clock()` applies a rising edge.

/// A token: thread and operand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SjToken {
    pub vc: u32,
    pub tid: u16,
    pub data: u32,
}

/// Static configuration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SjConfig {
    pub join_mode: bool,
    pub in_mask: u32,
    pub out_mask: u32,
    pub join_count: u32,
}

/// What the unit presents in one cycle (token fields 0 where not valid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SjOut {
    pub in_ready: Vec<bool>,
    pub out_valid: Vec<bool>,
    pub out: Vec<SjToken>,
    pub waiting: bool,
}

#[derive(Clone, Debug)]
pub struct SplitJoin {
    ports: usize,
    pending: Vec<bool>,
    held: SjToken,
    count: Vec<u32>,
    done: Vec<bool>,
    thread: Vec<u16>,
    last: usize,
}

impl SplitJoin {
    pub fn new(vcs: usize, ports: usize) -> Self {
        assert!(vcs >= 2 && ports >= 1);
        Self {
            ports,
            pending: vec![false; ports],
            held: SjToken::default(),
            count: vec![0; vcs],
            done: vec![false; vcs],
            thread: vec![0; vcs],
            last: 0,
        }
    }

    /// The output stage is empty after this edge.
    fn can_load(&self, out_ready: &[bool]) -> bool {
        (0..self.ports).all(|k| !self.pending[k] || out_ready[k])
    }

    fn join_pick(&self) -> Option<usize> {
        let n = self.done.len();
        (1..=n).map(|k| (self.last + k) % n).find(|&v| self.done[v])
    }

    /// `vc[p]`: the channel of port `p`'s offered token (its `in_vc`).
    pub fn outputs(&self, cfg: SjConfig, vc: &[u32], out_ready: &[bool]) -> SjOut {
        let in_ready = (0..self.ports)
            .map(|p| {
                if cfg.join_mode {
                    cfg.in_mask >> p & 1 == 1 && !self.done[vc[p] as usize]
                } else {
                    cfg.in_mask != 0
                        && p == cfg.in_mask.trailing_zeros() as usize
                        && self.can_load(out_ready)
                        && cfg.out_mask != 0
                }
            })
            .collect();
        SjOut {
            in_ready,
            out_valid: self.pending.clone(),
            out: self
                .pending
                .iter()
                .map(|&p| if p { self.held } else { SjToken::default() })
                .collect(),
            waiting: self.done.iter().any(|&d| d) || self.count.iter().any(|&c| c != 0),
        }
    }

    /// Rising edge. `tokens[p]`: port `p`'s offered token, if any.
    pub fn clock(
        &mut self,
        reset: bool,
        cfg: SjConfig,
        tokens: &[Option<SjToken>],
        out_ready: &[bool],
    ) {
        if reset {
            *self = Self::new(self.done.len(), self.ports);
            return;
        }
        let vc: Vec<u32> = tokens.iter().map(|t| t.map_or(0, |t| t.vc)).collect();
        let now = self.outputs(cfg, &vc, out_ready);
        let can_load = self.can_load(out_ready);
        for (pending, ready) in self.pending.iter_mut().zip(out_ready) {
            *pending &= !ready;
        }
        let mut load = None;
        if !cfg.join_mode {
            for (p, t) in tokens.iter().enumerate() {
                if let (Some(t), true) = (t, now.in_ready[p]) {
                    load = Some(*t);
                }
            }
        } else {
            if let (true, true, Some(v)) = (can_load, cfg.out_mask != 0, self.join_pick()) {
                load = Some(SjToken {
                    vc: v as u32,
                    tid: self.thread[v],
                    data: 0,
                });
                self.done[v] = false;
                self.last = v;
            }
            let mut sums = self.count.clone();
            let mut arrived = vec![None; self.done.len()];
            for (p, t) in tokens.iter().enumerate() {
                if let (Some(t), true) = (t, now.in_ready[p]) {
                    sums[t.vc as usize] += 1;
                    arrived[t.vc as usize] = Some(t.tid);
                }
            }
            for (v, tid) in arrived.iter().enumerate() {
                if let Some(tid) = tid {
                    self.thread[v] = *tid;
                    if sums[v] >= cfg.join_count {
                        self.count[v] = 0;
                        self.done[v] = true;
                    } else {
                        self.count[v] = sums[v];
                    }
                }
            }
        }
        if let Some(t) = load {
            self.held = t;
            for k in 0..self.ports {
                self.pending[k] = cfg.out_mask >> k & 1 == 1;
            }
        }
    }
}
