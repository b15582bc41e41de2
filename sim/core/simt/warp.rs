//! A warp slot's timing state and a thread's slot. What the warp executes next (its PC
//! and active threads) belongs to the divergence policy, not to the slot.
use crate::core::functional::Stack;
use crate::core::thread::{Thread, ThreadEnv};

/// One thread's slot in a core.
pub struct Slot {
    pub thread: Thread,
    pub stack: Stack,
    /// Return addresses of the calls the thread is in (where `AtReturn` reconverges).
    pub calls: Vec<u32>,
    pub env: ThreadEnv,
}

impl Default for Slot {
    fn default() -> Slot {
        Slot {
            thread: Thread::new(0),
            stack: Stack::default(),
            calls: vec![],
            env: ThreadEnv::default(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// No CTA.
    Free,
    /// Runs; ready when `ready_at` has come.
    Run,
    /// Put aside until its lines arrive.
    Memory,
    /// At `weft_barrier`.
    Barrier,
    /// Every thread returned; the slot frees at `ready_at`.
    Done,
    /// Thread block compaction: no warp to fetch in the slot; its warp waits for its
    /// CTA's stack (compaction, or its path to come up), or no warp is in it.
    Parked,
}

pub struct Warp {
    pub state: State,
    /// The first CTA of the warp's launch group.
    pub cta: u32,
    pub ready_at: u64,
    /// Lines of the last instruction still to arrive, and the latest arrival so far.
    pub pending: u32,
    pub data_at: u64,
    /// Lines refused for want of an MSHR.
    pub replay: Vec<u32>,
    /// Scoreboard: the cycle each register (`x0..x31`, then `f0..f31`) is written,
    /// `u64::MAX` while a load fetches it.
    pub regs: [u64; 64],
    /// Scoreboard: the register the outstanding load writes.
    pub load_reg: Option<u8>,
    /// CTAs in the warp's launch group (several when they are packed into one warp).
    pub group_ctas: u32,
}

impl Default for Warp {
    fn default() -> Warp {
        Warp {
            state: State::Free,
            cta: 0,
            ready_at: 0,
            pending: 0,
            data_at: 0,
            replay: vec![],
            regs: [0; 64],
            load_reg: None,
            group_ctas: 0,
        }
    }
}

impl Warp {
    /// A new CTA takes the slot at `now` (`data_at` carries over: it only ever moves
    /// forward).
    pub fn start(&mut self, cta: u32, group_ctas: u32, now: u64) {
        self.state = State::Run;
        self.cta = cta;
        self.group_ctas = group_ctas;
        self.ready_at = now;
        self.pending = 0;
        self.replay.clear();
        self.regs = [0; 64];
        self.load_reg = None;
    }
}
