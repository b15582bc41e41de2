//! CAPT model (SPEC §3.3): fully associative, LRU by last-touch time.

/// History configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum History {
    /// 1b-Latest: the last adequacy.
    Latest,
    /// 1b-Sticky: set on adequate, cleared only by reset.
    Sticky,
    /// 2-bit saturating counter, predicts adequate when >= 2.
    Counter2,
}

/// CAPT operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    None,
    Insert,
    Update(bool),
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub valid: bool,
    pub tag: u32,
    pub history: u8,
    /// Time of the last insert/update touching it (larger = more recent).
    pub touched: u64,
}

#[derive(Clone, Debug)]
pub struct Capt {
    pub history: History,
    pub entries: Vec<Entry>,
    time: u64,
}

impl Capt {
    pub fn new(entries: usize, history: History) -> Self {
        assert!(entries >= 1);
        Capt {
            history,
            entries: vec![Entry::default(); entries],
            time: 0,
        }
    }

    fn find(&self, pc: u32) -> Option<usize> {
        self.entries.iter().position(|e| e.valid && e.tag == pc)
    }

    /// `(hit, predict_adequate)` for `pc`.
    pub fn lookup(&self, pc: u32) -> (bool, bool) {
        match self.find(pc) {
            Some(i) => (true, self.predicts(self.entries[i].history)),
            None => (false, false),
        }
    }

    fn predicts(&self, h: u8) -> bool {
        match self.history {
            History::Latest | History::Sticky => h == 1,
            History::Counter2 => h >= 2,
        }
    }

    /// Rising edge.
    pub fn clock(&mut self, reset: bool, op: Op, pc: u32) {
        self.time += 1;
        if reset {
            self.entries.iter_mut().for_each(|e| *e = Entry::default());
            return;
        }
        let hit = self.find(pc);
        match op {
            Op::None => {}
            Op::Insert => {
                let i = hit.unwrap_or_else(|| {
                    let i = self
                        .entries
                        .iter()
                        .position(|e| !e.valid)
                        .unwrap_or_else(|| {
                            (0..self.entries.len())
                                .min_by_key(|&i| self.entries[i].touched)
                                .unwrap()
                        });
                    self.entries[i] = Entry {
                        valid: true,
                        tag: pc,
                        history: if self.history == History::Counter2 {
                            2
                        } else {
                            1
                        },
                        touched: 0,
                    };
                    i
                });
                self.entries[i].touched = self.time;
            }
            Op::Update(adequate) => {
                if let Some(i) = hit {
                    let h = &mut self.entries[i].history;
                    *h = match (self.history, adequate) {
                        (History::Latest, a) => u8::from(a),
                        (History::Sticky, a) => *h | u8::from(a),
                        (History::Counter2, true) => (*h + 1).min(3),
                        (History::Counter2, false) => h.saturating_sub(1),
                    };
                    self.entries[i].touched = self.time;
                }
            }
        }
    }
}
