//! Basic block scheduler model (SPEC §5), register for register with the RTL's state
//! machine: IDLE, INIT (block 0 := all ones), SELECT (lowest non-empty block), FETCH
//! (prefetch miss), CONFIG (`reconf` cycles), STREAM, DONE.
use crate::vgiw::cvu_initiator::Batch;

pub const IDLE: u8 = 0;
pub const INIT: u8 = 1;
pub const SELECT: u8 = 2;
pub const FETCH: u8 = 3;
pub const CONFIG: u8 = 4;
pub const STREAM: u8 = 5;
pub const DONE: u8 = 6;

/// One block-table entry: configuration word, successors by outcome, and whether an
/// outcome leaves the kernel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub cfg: u64,
    pub succ: [usize; 2],
    pub exit: [bool; 2],
}

/// The CVT and CVU signals the scheduler sees in one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct BbsSees {
    pub rd_ready: bool,
    pub rd_data: u64,
    pub wr_ready: bool,
    pub q_words: u64,
    pub nonempty: u64,
    pub bat_ready: bool,
    pub inj: bool,
    pub init_busy: bool,
    pub term_valid: bool,
    pub term_taken: bool,
    pub term: Batch,
    pub retire: bool,
    pub term_empty: bool,
    /// The `tile_threads` input.
    pub tile_threads: u16,
}

/// What the scheduler drives in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BbsDrives {
    pub rd: Option<(usize, usize)>,
    pub rd_word: usize,
    pub wr_valid: bool,
    pub wr: (usize, usize),
    pub wr_bits: u64,
    pub term_ready: bool,
}

#[derive(Clone, Debug)]
pub struct Bbs {
    pub blocks: usize,
    pub words: usize,
    pub reconf: u64,
    pub table: Vec<Entry>,
    ram_q: Entry,
    ram_valid: bool,
    ram_addr: usize,
    pub state: u8,
    ctr: u64,
    pub cur: usize,
    pub cur_entry: Entry,
    resp_pending: bool,
    resp_word: usize,
    pub bat_valid: bool,
    pub bat: Batch,
    pub flight: u16,
}

fn lowest(mask: u64) -> Option<usize> {
    (mask != 0).then(|| mask.trailing_zeros() as usize)
}

impl Bbs {
    pub fn new(blocks: usize, words: usize, reconf: u64) -> Self {
        Bbs {
            blocks,
            words,
            reconf,
            table: vec![Entry::default(); 1 << blocks.next_power_of_two().trailing_zeros()],
            ram_q: Entry::default(),
            ram_valid: false,
            ram_addr: 0,
            state: IDLE,
            ctr: 0,
            cur: 0,
            cur_entry: Entry::default(),
            resp_pending: false,
            resp_word: 0,
            bat_valid: false,
            bat: Batch::default(),
            flight: 0,
        }
    }

    pub fn term_flush(&self) -> bool {
        self.flight == 0
    }

    /// The scheduler's CVT requests and terminator handshake this cycle.
    pub fn drives(&self, s: &BbsSees) -> BbsDrives {
        let word = lowest(s.q_words);
        let rd = (self.state == STREAM && word.is_some() && !self.resp_pending && !self.bat_valid)
            .then(|| (self.cur, word.unwrap()));
        let t = usize::from(s.term_taken);
        let exit = self.cur_entry.exit[t];
        let mut d = BbsDrives {
            rd,
            rd_word: word.unwrap_or(0),
            wr_valid: s.term_valid && !exit,
            wr: (
                self.cur_entry.succ[t],
                (0..self.words)
                    .find(|&w| usize::from(s.term.base) == 64 * w)
                    .unwrap_or(0),
            ),
            wr_bits: s.term.bitmap,
            term_ready: exit || s.wr_ready,
        };
        if self.state == INIT {
            d.wr_valid = true;
            d.wr = (0, self.ctr as usize & (self.words - 1));
            let (w, n) = (self.ctr, u64::from(s.tile_threads));
            d.wr_bits = match w.cmp(&(n >> 6)) {
                std::cmp::Ordering::Less => u64::MAX,
                std::cmp::Ordering::Equal => !(u64::MAX << (n & 63)),
                std::cmp::Ordering::Greater => 0,
            };
            d.term_ready = false;
        }
        d
    }

    /// Rising edge.
    pub fn clock(&mut self, reset: bool, load: Option<(usize, Entry)>, start: bool, s: &BbsSees) {
        let d = self.drives(s);
        let sel = lowest(s.nonempty);
        let cur_bit = 1u64 << self.cur;
        let cand = lowest(s.nonempty & !cur_bit);
        // Table RAMs: read (prefetch or selection), then load.
        let (addr, valid) = if self.state == STREAM {
            (cand.unwrap_or(0), cand.is_some())
        } else {
            (sel.unwrap_or(0), self.state == SELECT)
        };
        let ram_q_prev = self.ram_q;
        self.ram_q = self.table[addr];
        let (ram_valid_prev, ram_addr_prev) = (self.ram_valid, self.ram_addr);
        self.ram_valid = valid;
        self.ram_addr = addr;
        if let Some((b, e)) = load {
            if self.state == IDLE || self.state == DONE {
                self.table[b] = e;
            }
        }
        if reset {
            self.ram_valid = false;
            self.ram_addr = 0;
            self.state = IDLE;
            self.ctr = 0;
            self.cur = 0;
            self.cur_entry = Entry::default();
            self.resp_pending = false;
            self.resp_word = 0;
            self.bat_valid = false;
            self.bat = Batch::default();
            self.flight = 0;
            return;
        }
        let cur_nonempty = s.nonempty & cur_bit != 0;
        let done = !cur_nonempty
            && !self.resp_pending
            && !self.bat_valid
            && !s.init_busy
            && self.flight == 0
            && s.term_empty
            && !s.term_valid;
        if s.inj && !s.retire {
            self.flight = self.flight.wrapping_add(1);
        }
        if !s.inj && s.retire {
            self.flight = self.flight.wrapping_sub(1);
        }
        if self.bat_valid && s.bat_ready {
            self.bat_valid = false;
        }
        if self.resp_pending {
            self.resp_pending = false;
            self.bat_valid = s.rd_data != 0;
            self.bat = Batch {
                base: (self.resp_word * 64) as u16,
                bitmap: s.rd_data,
            };
        }
        if d.rd.is_some() && s.rd_ready {
            self.resp_pending = true;
            self.resp_word = d.rd_word;
        }
        match self.state {
            IDLE | DONE => {
                if start {
                    self.state = INIT;
                    self.ctr = 0;
                }
            }
            INIT => {
                if s.wr_ready {
                    if self.ctr == self.words as u64 - 1 {
                        self.state = SELECT;
                    }
                    self.ctr += 1;
                }
            }
            SELECT => {
                self.cur = sel.unwrap_or(0);
                self.ctr = 0;
                match sel {
                    None => self.state = DONE,
                    Some(b) if ram_valid_prev && ram_addr_prev == b => {
                        self.state = CONFIG;
                        self.cur_entry = ram_q_prev;
                    }
                    Some(_) => self.state = FETCH,
                }
            }
            FETCH => {
                self.state = CONFIG;
                self.cur_entry = ram_q_prev;
            }
            CONFIG => {
                if self.ctr == self.reconf - 1 {
                    self.state = STREAM;
                }
                self.ctr += 1;
            }
            _ => {
                if done {
                    self.state = SELECT;
                }
            }
        }
    }
}
