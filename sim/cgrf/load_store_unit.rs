//! Load/store unit model (SPEC §6): a reservation buffer of `rb` entries holding the
//! thread of each outstanding memory operation; the lowest free entry tags a request,
//! responses arrive in any order, completed entries are forwarded round robin after
//! the last one forwarded. Cycle semantics: `outputs()` is what the unit presents this
//! cycle; `clock()` applies a rising edge.

/// A token: thread and operand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LsuToken {
    pub vc: u32,
    pub tid: u16,
    pub data: u32,
}

/// What the unit presents in one cycle (token fields 0 when not valid).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LsuOut {
    pub in_ready: bool,
    pub mem_req_valid: bool,
    pub mem_req_tag: usize,
    pub out_valid: bool,
    pub out: LsuToken,
    pub outstanding: usize,
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    busy: bool,
    done: bool,
    token: LsuToken,
}

#[derive(Clone, Debug)]
pub struct LoadStoreUnit {
    entries: Vec<Entry>,
    /// Last entry forwarded.
    last: usize,
}

impl LoadStoreUnit {
    pub fn new(rb: usize) -> Self {
        assert!(rb >= 1);
        Self {
            entries: vec![Entry::default(); rb],
            last: 0,
        }
    }

    fn forward_pick(&self) -> Option<usize> {
        let n = self.entries.len();
        (1..=n)
            .map(|k| (self.last + k) % n)
            .find(|&i| self.entries[i].done)
    }

    pub fn outputs(&self, in_valid: bool, mem_req_ready: bool) -> LsuOut {
        let free = self.entries.iter().position(|e| !e.busy);
        let pick = self.forward_pick();
        LsuOut {
            in_ready: free.is_some() && mem_req_ready,
            mem_req_valid: in_valid && free.is_some(),
            mem_req_tag: free.unwrap_or(0),
            out_valid: pick.is_some(),
            out: pick.map(|i| self.entries[i].token).unwrap_or_default(),
            outstanding: self.entries.iter().filter(|e| e.busy).count(),
        }
    }

    /// Rising edge. `input`: the offered operation's thread `(vc, tid)`; `response`:
    /// `(tag, data)`.
    pub fn clock(
        &mut self,
        reset: bool,
        is_store: bool,
        input: Option<(u32, u16)>,
        mem_req_ready: bool,
        response: Option<(usize, u32)>,
        out_ready: bool,
    ) {
        if reset {
            *self = Self::new(self.entries.len());
            return;
        }
        let now = self.outputs(input.is_some(), mem_req_ready);
        let pick = self.forward_pick();
        if let Some((tag, data)) = response {
            if let Some(e) = self.entries.get_mut(tag).filter(|e| e.busy && !e.done) {
                e.done = true;
                e.token.data = if is_store { 0 } else { data };
            }
        }
        if let (Some(i), true) = (pick, out_ready) {
            self.entries[i] = Entry::default();
            self.last = i;
        }
        if let (Some((vc, tid)), true) = (input, now.in_ready) {
            self.entries[now.mem_req_tag] = Entry {
                busy: true,
                done: false,
                token: LsuToken { vc, tid, data: 0 },
            };
        }
    }
}
