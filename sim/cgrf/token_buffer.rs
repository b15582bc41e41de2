//! Token buffer model (SPEC §6; `vgiw-control-flow-coalescing.txt` §3.5). Cycle
//! semantics: `outputs()` is what the buffer presents this cycle (given the channels
//! the links offer); `clock()` applies a rising edge with this cycle's inputs.

/// One operand token on a link (`x_vc`, `x_tid`, `x_data` of `cgrf/mod.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OperandToken {
    pub vc: usize,
    pub tid: u16,
    pub data: u32,
}

/// A fired entry: channel, thread and operands (beyond the count: 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fired {
    pub vc: usize,
    pub tid: u16,
    pub operands: [u32; 3],
}

/// What the buffer presents in one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenBufferOut {
    /// `a_ready`, `b_ready`, `c_ready` for the channels offered.
    pub link_ready: [bool; 3],
    /// The presented entry (`out_valid` = `Some`).
    pub out: Option<Fired>,
    pub busy: bool,
    pub tid_error: bool,
}

/// Inputs of one edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TokenBufferIn {
    pub reset: bool,
    /// A configuration write (`cfg_valid`, `cfg_operands`).
    pub cfg: Option<u8>,
    /// The tokens offered on links a, b, c.
    pub links: [Option<OperandToken>; 3],
    pub out_ready: bool,
}

#[derive(Clone, Debug)]
pub struct TokenBuffer {
    vcs: usize,
    operands: u8,
    full: Vec<[bool; 3]>,
    data: Vec<[u32; 3]>,
    tid: Vec<u16>,
    last: usize,
    tid_error: bool,
}

impl TokenBuffer {
    /// `vcs` channels (a power of two, 2..=32), one operand configured.
    pub fn new(vcs: usize) -> Self {
        assert!(
            vcs.is_power_of_two() && (2..=32).contains(&vcs),
            "token buffer model: 2..=32 channels, a power of two (got {vcs})"
        );
        Self {
            vcs,
            operands: 1,
            full: vec![[false; 3]; vcs],
            data: vec![[0; 3]; vcs],
            tid: vec![0; vcs],
            last: 0,
            tid_error: false,
        }
    }

    pub fn channels(&self) -> usize {
        self.vcs
    }

    /// The configured operand count.
    pub fn operand_count(&self) -> u8 {
        self.operands
    }

    fn entry_ready(&self, v: usize) -> bool {
        (0..self.operands as usize).all(|k| self.full[v][k])
    }

    /// The entry that fires on an edge with `out_ready`: the first ready one after
    /// the last fired channel, cyclically.
    pub fn grant(&self) -> Option<usize> {
        (1..=self.vcs)
            .map(|k| (self.last + k) % self.vcs)
            .find(|&v| self.entry_ready(v))
    }

    /// Whether link `slot` accepts a token for channel `vc`.
    pub fn link_ready(&self, slot: usize, vc: usize) -> bool {
        slot < self.operands as usize && !self.full[vc][slot]
    }

    /// Outputs, given the channels on the three links (whatever their valid bits).
    pub fn outputs(&self, link_vcs: [usize; 3]) -> TokenBufferOut {
        let out = self.grant().map(|v| {
            let mut operands = [0; 3];
            operands[..self.operands as usize]
                .copy_from_slice(&self.data[v][..self.operands as usize]);
            Fired {
                vc: v,
                tid: self.tid[v],
                operands,
            }
        });
        TokenBufferOut {
            link_ready: [0, 1, 2].map(|k| self.link_ready(k, link_vcs[k])),
            out,
            busy: self.full.iter().flatten().any(|&f| f),
            tid_error: self.tid_error,
        }
    }

    /// Rising edge. Returns the entry that fired, if any.
    pub fn clock(&mut self, i: &TokenBufferIn) -> Option<Fired> {
        if i.reset {
            self.full.iter_mut().for_each(|e| *e = [false; 3]);
            self.last = 0;
            self.tid_error = false;
            self.operands = 1;
            return None;
        }
        let vcs = [0, 1, 2].map(|k| i.links[k].map_or(0, |t| t.vc));
        let now = self.outputs(vcs);
        let fired = now.out.filter(|_| i.out_ready);
        // Tids written on this edge, per channel (the first link to write wins).
        let mut written: Vec<Option<u16>> = vec![None; self.vcs];
        for (slot, link) in i.links.iter().enumerate() {
            let Some(t) = *link else { continue };
            if !now.link_ready[slot] {
                continue;
            }
            let empty = !self.full[t.vc].iter().any(|&f| f);
            match written[t.vc] {
                Some(first) => self.tid_error |= t.tid != first,
                None if empty => {
                    written[t.vc] = Some(t.tid);
                    self.tid[t.vc] = t.tid;
                }
                None => {
                    written[t.vc] = Some(self.tid[t.vc]);
                    self.tid_error |= t.tid != self.tid[t.vc];
                }
            }
            self.data[t.vc][slot] = t.data;
            self.full[t.vc][slot] = true;
        }
        if let Some(f) = fired {
            // No link wrote this entry on this edge: its configured slots were full.
            self.full[f.vc] = [false; 3];
            self.last = f.vc;
        }
        if let Some(n) = i.cfg.filter(|&n| n != 0) {
            assert!(n <= 3, "operand count is a 2-bit field");
            self.operands = n;
        }
        fired
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(vc: usize, tid: u16, data: u32) -> Option<OperandToken> {
        Some(OperandToken { vc, tid, data })
    }

    #[test]
    fn three_operands_then_round_robin() {
        let mut tb = TokenBuffer::new(4);
        tb.clock(&TokenBufferIn {
            cfg: Some(3),
            ..Default::default()
        });
        // Channels 1 and 3 get all three operands on one edge.
        tb.clock(&TokenBufferIn {
            links: [token(1, 10, 1), token(1, 10, 2), token(1, 10, 3)],
            ..Default::default()
        });
        tb.clock(&TokenBufferIn {
            links: [token(3, 30, 4), token(3, 30, 5), token(3, 30, 6)],
            ..Default::default()
        });
        let take = TokenBufferIn {
            out_ready: true,
            ..Default::default()
        };
        let first = tb.clock(&take).unwrap();
        assert_eq!((first.vc, first.tid, first.operands), (1, 10, [1, 2, 3]));
        let second = tb.clock(&take).unwrap();
        assert_eq!((second.vc, second.tid, second.operands), (3, 30, [4, 5, 6]));
        assert_eq!(tb.clock(&take), None);
        assert!(!tb.outputs([0; 3]).tid_error);
    }

    #[test]
    fn full_slot_backpressures_and_foreign_tid_is_flagged() {
        let mut tb = TokenBuffer::new(2);
        tb.clock(&TokenBufferIn {
            cfg: Some(2),
            ..Default::default()
        });
        tb.clock(&TokenBufferIn {
            links: [token(0, 5, 1), None, None],
            ..Default::default()
        });
        assert!(
            !tb.outputs([0; 3]).link_ready[0],
            "slot a of channel 0 is full"
        );
        assert!(tb.outputs([0; 3]).link_ready[1]);
        assert!(!tb.outputs([0; 3]).link_ready[2], "link c beyond the count");
        tb.clock(&TokenBufferIn {
            links: [None, token(0, 6, 2), None],
            ..Default::default()
        });
        let o = tb.outputs([0; 3]);
        assert!(o.tid_error);
        assert_eq!(o.out.unwrap().tid, 5, "the first operand's tid is kept");
    }
}
