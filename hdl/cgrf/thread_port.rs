//! Thread port of the MT-CGRF fabric: the injecting and the terminating end of one
//! replica's thread stream (`vgiw-control-flow-coalescing.txt` §3.4-3.5: the control
//! vector units start threads on the fabric and collect them). It owns the replica's
//! virtual channels: a thread gets a free channel when it enters and gives it back
//! when its last token reaches the terminator, so a channel never holds two threads.
//!
//! ```text
//!  thread (tid) ─> lowest free channel v ─> inject token (v, tid, data = tid) ─> fabric
//!  fabric ─> last token (v, tid, data) ─> done (tid, data); channel v freed
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `thread_valid`, `thread_ready`, `thread_tid` | in, out, in | 1, 1, 16 | a thread to start (from a CVU initiator) |
//! | `inject_*` | out link (`cgrf/mod.rs`) | | the thread's first token |
//! | `last_*` | in link | | the thread's last token (always accepted) |
//! | `done_valid`, `done_tid`, `done_data` | out | 1, 16, 32 | a thread finished (to a CVU terminator), combinational from `last_*` |
//! | `in_flight` | out | VCS | channels in use, one bit each |
//!
//! Timing: a thread is injected on the edge where `thread_valid`, a free channel and
//! `inject_ready` meet (one per cycle); a channel freed on edge `t` can be given out
//! from cycle `t + 1`. `thread_ready` does not depend on `thread_valid`.
//!
//! Storage: `VCS` flip-flops (one busy bit per channel).
//!
//! Choices where the paper is silent: the lowest free channel is taken; the thread
//! token's data is the thread id (blocks index their arrays with it); a last token
//! for a channel that is not in use changes nothing but is still reported on `done`.
use crate::lib::priority_encoder::PriorityEncoder;
use crate::lib::widen::Widen;
use rust_hdl::prelude::*;

/// Thread port over `VCS = 2^VB` virtual channels.
#[derive(LogicBlock)]
pub struct ThreadPort<const VCS: usize, const VB: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: every channel free.
    pub reset: Signal<In, Bit>,
    // threads to start
    pub thread_valid: Signal<In, Bit>,
    /// A channel is free and the fabric takes the token.
    pub thread_ready: Signal<Out, Bit>,
    pub thread_tid: Signal<In, Bits<16>>,
    // first token, into the fabric
    pub inject_valid: Signal<Out, Bit>,
    pub inject_ready: Signal<In, Bit>,
    pub inject_vc: Signal<Out, Bits<VB>>,
    pub inject_tid: Signal<Out, Bits<16>>,
    pub inject_data: Signal<Out, Bits<32>>,
    // last token, from the fabric
    pub last_valid: Signal<In, Bit>,
    /// Always high: a finished thread is never held back.
    pub last_ready: Signal<Out, Bit>,
    pub last_vc: Signal<In, Bits<VB>>,
    pub last_tid: Signal<In, Bits<16>>,
    pub last_data: Signal<In, Bits<32>>,
    // finished threads
    pub done_valid: Signal<Out, Bit>,
    pub done_tid: Signal<Out, Bits<16>>,
    pub done_data: Signal<Out, Bits<32>>,
    /// Channel `v` holds a thread.
    pub in_flight: Signal<Out, Bits<VCS>>,
    busy: DFF<Bits<VCS>>,
    free: PriorityEncoder<VCS, VB>,
    tid_wide: Widen<16, 32>,
    /// Channel 0's bit; shifted to a channel's bit.
    one: Constant<Bits<VCS>>,
    zero: Constant<Bits<VCS>>,
    inject: Signal<Local, Bit>,
    taken: Signal<Local, Bits<VCS>>,
    released: Signal<Local, Bits<VCS>>,
}

impl<const VCS: usize, const VB: usize> Default for ThreadPort<VCS, VB> {
    fn default() -> Self {
        assert!(
            (1..=5).contains(&VB) && VCS == 1 << VB,
            "thread port: VCS must be 2^VB with VB in 1..=5 (got VCS = {VCS}, VB = {VB})"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            thread_valid: Default::default(),
            thread_ready: Default::default(),
            thread_tid: Default::default(),
            inject_valid: Default::default(),
            inject_ready: Default::default(),
            inject_vc: Default::default(),
            inject_tid: Default::default(),
            inject_data: Default::default(),
            last_valid: Default::default(),
            last_ready: Default::default(),
            last_vc: Default::default(),
            last_tid: Default::default(),
            last_data: Default::default(),
            done_valid: Default::default(),
            done_tid: Default::default(),
            done_data: Default::default(),
            in_flight: Default::default(),
            busy: Default::default(),
            free: Default::default(),
            tid_wide: Default::default(),
            one: Constant::new(Bits::<VCS>::from(1u64)),
            zero: Constant::new(Bits::<VCS>::default()),
            inject: Default::default(),
            taken: Default::default(),
            released: Default::default(),
        }
    }
}

impl<const VCS: usize, const VB: usize> Logic for ThreadPort<VCS, VB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, busy);
        self.free.mask.next = !self.busy.q.val();
        self.tid_wide.narrow.next = self.thread_tid.val();
        self.inject.next =
            self.thread_valid.val() & self.free.valid.val() & self.inject_ready.val();
        self.thread_ready.next = self.free.valid.val() & self.inject_ready.val();
        self.inject_valid.next = self.thread_valid.val() & self.free.valid.val();
        self.inject_vc.next = self.free.index.val();
        self.inject_tid.next = self.thread_tid.val();
        self.inject_data.next = self.tid_wide.wide.val();
        self.last_ready.next = true;
        self.done_valid.next = self.last_valid.val();
        self.done_tid.next = self.last_tid.val();
        self.done_data.next = self.last_data.val();
        self.in_flight.next = self.busy.q.val();
        // A freed channel is busy, an injected one free: the two bits never collide.
        self.taken.next = self.zero.val();
        if self.inject.val() {
            self.taken.next = self.one.val() << self.free.index.val();
        }
        self.released.next = self.zero.val();
        if self.last_valid.val() {
            self.released.next = self.one.val() << self.last_vc.val();
        }
        self.busy.d.next = (self.busy.q.val() | self.taken.val()) & !self.released.val();
        if self.reset.val() {
            self.busy.d.next = self.zero.val();
        }
    }
}
