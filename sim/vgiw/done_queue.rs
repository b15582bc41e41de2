//! Done queue model (`hdl/vgiw/done_queue.rs`): a FIFO of finished threads (id, branch
//! outcome) that cannot refuse a push; a push into a full queue that does not pop in
//! the same cycle is lost and sets the sticky `overflow`. Cycle semantics as the other
//! models: `outputs()` is what the queue presents this cycle, `clock()` applies an edge.
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DoneQueueIn {
    pub reset: bool,
    /// A finished thread (id, taken) this cycle.
    pub push: Option<(u16, bool)>,
    pub out_ready: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DoneQueueOut {
    /// The oldest thread, if any.
    pub out: Option<(u16, bool)>,
    pub overflow: bool,
}

#[derive(Clone, Debug)]
pub struct DoneQueue {
    capacity: usize,
    slots: VecDeque<(u16, bool)>,
    lost: bool,
}

impl DoneQueue {
    pub fn new(capacity: usize) -> Self {
        assert!(capacity >= 1, "a done queue holds at least one thread");
        DoneQueue {
            capacity,
            slots: VecDeque::new(),
            lost: false,
        }
    }

    pub fn outputs(&self) -> DoneQueueOut {
        DoneQueueOut {
            out: self.slots.front().copied(),
            overflow: self.lost,
        }
    }

    pub fn clock(&mut self, i: &DoneQueueIn) {
        if i.reset {
            self.slots.clear();
            self.lost = false;
            return;
        }
        let pop = i.out_ready && !self.slots.is_empty();
        let room = self.slots.len() < self.capacity || pop;
        if pop {
            self.slots.pop_front();
        }
        if let Some(thread) = i.push {
            if room {
                self.slots.push_back(thread);
            } else {
                self.lost = true;
            }
        }
    }
}
