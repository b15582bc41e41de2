//! Golden model of the fabric's thread port (`hdl/cgrf/thread_port.rs`): a thread takes
//! the lowest free virtual channel; its last token frees it.

/// The channels of one thread port.
#[derive(Clone, Debug)]
pub struct ThreadPort {
    busy: Vec<bool>,
}

impl ThreadPort {
    pub fn new(vcs: usize) -> Self {
        ThreadPort {
            busy: vec![false; vcs],
        }
    }

    /// The channel a thread offered now would get (`thread_ready` when the fabric is ready).
    pub fn free_channel(&self) -> Option<usize> {
        self.busy.iter().position(|b| !b)
    }

    pub fn in_flight(&self) -> &[bool] {
        &self.busy
    }

    /// One edge: `inject` when a thread entered, `last` the channel of a last token.
    pub fn clock(&mut self, reset: bool, inject: bool, last: Option<usize>) {
        if reset {
            self.busy.iter_mut().for_each(|b| *b = false);
            return;
        }
        if inject {
            let v = self
                .free_channel()
                .expect("a thread enters only with a free channel");
            self.busy[v] = true;
        }
        if let Some(v) = last {
            self.busy[v] = false;
        }
    }
}
