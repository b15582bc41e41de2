//! CVU thread initiator model (SPEC §5). Cycle semantics: `outputs()` is what the
//! unit presents this cycle; `clock()` applies a rising edge with this cycle's inputs.

/// One batch `<base, bitmap>`: bit `i` set = thread `base + i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Batch {
    pub base: u16,
    pub bitmap: u64,
}

/// What the initiator presents in one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InitiatorOut {
    pub in_ready: bool,
    pub out_valid: bool,
    pub out_id: u16,
    pub tid: (u16, u16, u16),
    pub busy: bool,
}

/// threadIdx of a linear id for a `2^lx` x `2^ly` x .. block.
pub fn thread_idx(id: u16, lx: u32, ly: u32) -> (u16, u16, u16) {
    let low = |v: u16, l: u32| {
        if l >= 16 {
            v
        } else {
            v & ((1u32 << l) - 1) as u16
        }
    };
    let y_and_up = id >> lx;
    (low(id, lx), low(y_and_up, ly), y_and_up >> ly)
}

#[derive(Clone, Debug, Default)]
pub struct CvuInitiator {
    cur: Batch,
    nxt: Option<Batch>,
}

impl CvuInitiator {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn outputs(&self, lx: u32, ly: u32) -> InitiatorOut {
        let valid = self.cur.bitmap != 0;
        let id = if valid {
            self.cur
                .base
                .wrapping_add(self.cur.bitmap.trailing_zeros() as u16)
        } else {
            self.cur.base
        };
        InitiatorOut {
            in_ready: self.nxt.is_none(),
            out_valid: valid,
            out_id: id,
            tid: thread_idx(id, lx, ly),
            busy: valid || self.nxt.is_some(),
        }
    }

    /// Rising edge.
    pub fn clock(&mut self, reset: bool, batch: Option<Batch>, out_ready: bool) {
        if reset {
            *self = Self::default();
            return;
        }
        let accept = batch.filter(|b| self.nxt.is_none() && b.bitmap != 0);
        let mut remaining = self.cur.bitmap;
        if out_ready {
            remaining &= remaining.wrapping_sub(1);
        }
        self.cur.bitmap = remaining;
        if remaining == 0 {
            if let Some(n) = self.nxt.take() {
                self.cur = n;
                self.nxt = accept;
            } else if let Some(a) = accept {
                self.cur = a;
            }
        } else if accept.is_some() {
            self.nxt = accept;
        }
    }
}
