//! Split/join unit, SJU (`vgiw-control-flow-coalescing.txt` §3.5 "Split/join units";
//! SPEC §6). Split: one input token is copied to every configured successor (large
//! fan-outs the interconnect cannot reach). Join: waits for the configured number of
//! predecessor control tokens of a thread, then sends one control token for that
//! thread to every configured successor (orders a store after the loads before it).
//!
//! ```text
//!  split: in[lowest port of in_mask] ──────────────┐
//!  join:  in[p] ─> cnt[vc] += arrivals; == join_count ─> done[vc] ─> round robin ─┤
//!                                                                               v
//!                           holding register (vc, tid, data) + pending[k] ─> out[k]
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `join_mode` | in | 1 | configuration: 0 split, 1 join |
//! | `in_mask` | in | PORTS | join: the input ports predecessors use; split: its lowest set port is the source |
//! | `out_mask` | in | PORTS | the output ports successors use (both modes) |
//! | `join_count` | in | CB | join: control tokens per thread (1 .. 2^CB - 1) |
//! | `in_*[p]` | token links (`cgrf/mod.rs`) | | inputs |
//! | `out_*[k]` | token links | | outputs; `vc`, `tid`, `data` 0 when `out_valid[k]` is low |
//! | `waiting` | out | 1 | some thread has counted tokens or waits to be sent |
//!
//! Output stage (both modes): a holding register with one pending bit per configured
//! successor. `out_valid[k] = pending[k]`; each output clears its bit when its consumer
//! takes the token, so successors take it on different cycles and nothing is sent
//! twice. The next token enters on the edge the last pending bit clears, so a stream
//! moves one token per cycle when every successor is ready.
//!
//! Timing: split: a token accepted on edge `t` is presented from cycle `t + 1`;
//! `in_ready[0]` = the holding register is empty or empties on this edge (depends on
//! `out_ready`). Join: the thread's last token on edge `t` completes its count; it is
//! presented from cycle `t + 2` (through `done`). `in_ready[p]` = `in_mask[p]` and the
//! channel `in_vc[p]` is not waiting to be sent. One join emission per cycle; tokens
//! are accepted on all ports in the same cycle, so `PORTS` predecessors of a thread
//! may arrive together. Measured (`testbenches/tests/split_join.rs`): a split with
//! every successor ready takes 100 tokens in 100 cycles; a join of 2 fed a thread per
//! cycle sends 150 control tokens for 150 threads with no input ever refused.
//!
//! Storage: `PORTS + VB + 16 + 32` (output stage) + `VCS x (CB + 1 + 16)` (join
//! counters, done bits, thread ids) + `VB` (round-robin pointer) flip-flops.
//!
//! Choices where the paper is silent:
//! - The join counts tokens per virtual channel (a channel holds one thread at a time,
//!   §3.5), whatever port they come from; predecessors may share a port. The thread id
//!   sent is the one the tokens carried.
//! - Join control tokens carry data 0; a split copies the data.
//! - A thread whose count is complete waits in `done` until its token enters the
//!   output stage; meanwhile further tokens for its channel are refused (`in_ready`
//!   low), so counts of consecutive threads of a channel never mix. Completed threads
//!   leave round robin over the channels.
//! - A port outside `in_mask` (join) or other than its lowest set port (split) is
//!   never ready; with an
//!   empty `out_mask` nothing is accepted or sent: a misconfiguration stalls, it never
//!   drops a token. More tokens than `join_count` for one thread is a configuration
//!   error: the surplus completes the count once more.
//! - Configuration is static (written at kernel load, with the unit empty). Reset
//!   clears the output stage, the counters and the done bits.
use crate::lib::round_robin_arbiter::RoundRobinArbiter;
use rust_hdl::prelude::*;

/// SJU with `PORTS` inputs and `PORTS` outputs; `VCS = 2^VB` channels; join counts
/// up to `2^CB - 1`.
#[derive(LogicBlock)]
pub struct SplitJoin<const VB: usize, const VCS: usize, const PORTS: usize, const CB: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: clears the output stage and the join state.
    pub reset: Signal<In, Bit>,
    // configuration
    /// 0: split, 1: join.
    pub join_mode: Signal<In, Bit>,
    /// Join: input ports in use.
    pub in_mask: Signal<In, Bits<PORTS>>,
    /// Output ports in use.
    pub out_mask: Signal<In, Bits<PORTS>>,
    /// Join: predecessor tokens per thread.
    pub join_count: Signal<In, Bits<CB>>,
    // token inputs
    pub in_valid: [Signal<In, Bit>; PORTS],
    /// The port's token is taken on this edge.
    pub in_ready: [Signal<Out, Bit>; PORTS],
    pub in_vc: [Signal<In, Bits<VB>>; PORTS],
    pub in_tid: [Signal<In, Bits<16>>; PORTS],
    pub in_data: [Signal<In, Bits<32>>; PORTS],
    // token outputs
    /// The held token still has to go out on port `k`.
    pub out_valid: [Signal<Out, Bit>; PORTS],
    pub out_ready: [Signal<In, Bit>; PORTS],
    pub out_vc: [Signal<Out, Bits<VB>>; PORTS],
    pub out_tid: [Signal<Out, Bits<16>>; PORTS],
    pub out_data: [Signal<Out, Bits<32>>; PORTS],
    /// Some join state is held (a partial count or a completed thread).
    pub waiting: Signal<Out, Bit>,
    // output stage
    pending: [DFF<Bit>; PORTS],
    held_vc: DFF<Bits<VB>>,
    held_tid: DFF<Bits<16>>,
    held_data: DFF<Bits<32>>,
    // join state, per channel
    count: [DFF<Bits<CB>>; VCS],
    done: [DFF<Bit>; VCS],
    thread: [DFF<Bits<16>>; VCS],
    /// Last channel sent (round robin).
    last: DFF<Bits<VB>>,
    done_pick: RoundRobinArbiter<VCS, VB>,
    done_mask: Signal<Local, Bits<VCS>>,
    /// The output stage is empty after this edge: a new token may enter.
    can_load: Signal<Local, Bit>,
    load: Signal<Local, Bit>,
    fire: [Signal<Local, Bit>; PORTS],
    /// Channel `v`'s count plus this cycle's arrivals (reused per channel).
    sum: Signal<Local, Bits<CB>>,
    arrived_tid: Signal<Local, Bits<16>>,
    arrived: Signal<Local, Bit>,
    refused: Signal<Local, Bit>,
    /// Split: the source port was found (lower ports first).
    source_found: Signal<Local, Bit>,
    vc_ids: [Constant<Bits<VB>>; VCS],
    vc_onehot: [Constant<Bits<VCS>>; VCS],
    port_onehot: [Constant<Bits<PORTS>>; PORTS],
    zero_vcs: Constant<Bits<VCS>>,
    count_one: Constant<Bits<CB>>,
    count_zero: Constant<Bits<CB>>,
    zero_vc: Constant<Bits<VB>>,
    zero16: Constant<Bits<16>>,
    zero32: Constant<Bits<32>>,
}

impl<const VB: usize, const VCS: usize, const PORTS: usize, const CB: usize> Default
    for SplitJoin<VB, VCS, PORTS, CB>
{
    fn default() -> Self {
        assert!(
            (1..=16).contains(&VB),
            "VB (virtual channel bits) must be 1..=16, got {VB}"
        );
        assert_eq!(VCS, 1 << VB, "VCS must be 2^VB");
        assert!(PORTS >= 1, "a split/join unit needs at least one port");
        assert!(CB >= 1, "CB (join counter bits) must be at least 1");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            join_mode: Default::default(),
            in_mask: Default::default(),
            out_mask: Default::default(),
            join_count: Default::default(),
            in_valid: array_init::array_init(|_| Default::default()),
            in_ready: array_init::array_init(|_| Default::default()),
            in_vc: array_init::array_init(|_| Default::default()),
            in_tid: array_init::array_init(|_| Default::default()),
            in_data: array_init::array_init(|_| Default::default()),
            out_valid: array_init::array_init(|_| Default::default()),
            out_ready: array_init::array_init(|_| Default::default()),
            out_vc: array_init::array_init(|_| Default::default()),
            out_tid: array_init::array_init(|_| Default::default()),
            out_data: array_init::array_init(|_| Default::default()),
            waiting: Default::default(),
            pending: array_init::array_init(|_| Default::default()),
            held_vc: Default::default(),
            held_tid: Default::default(),
            held_data: Default::default(),
            count: array_init::array_init(|_| Default::default()),
            done: array_init::array_init(|_| Default::default()),
            thread: array_init::array_init(|_| Default::default()),
            last: Default::default(),
            done_pick: Default::default(),
            done_mask: Default::default(),
            can_load: Default::default(),
            load: Default::default(),
            fire: array_init::array_init(|_| Default::default()),
            sum: Default::default(),
            arrived_tid: Default::default(),
            arrived: Default::default(),
            refused: Default::default(),
            source_found: Default::default(),
            vc_ids: array_init::array_init(|i| Constant::new(Bits::from(i as u64))),
            vc_onehot: array_init::array_init(|i| {
                let mut v = Bits::<VCS>::default();
                v.set_bits::<1>(i, Bits::<1>::from(true));
                Constant::new(v)
            }),
            port_onehot: array_init::array_init(|i| {
                let mut v = Bits::<PORTS>::default();
                v.set_bits::<1>(i, Bits::<1>::from(true));
                Constant::new(v)
            }),
            zero_vcs: Constant::new(Bits::default()),
            count_one: Constant::new(Bits::from(1u64)),
            count_zero: Constant::new(Bits::default()),
            zero_vc: Constant::new(Bits::default()),
            zero16: Constant::new(Bits::default()),
            zero32: Constant::new(Bits::default()),
        }
    }
}

impl<const VB: usize, const VCS: usize, const PORTS: usize, const CB: usize> Logic
    for SplitJoin<VB, VCS, PORTS, CB>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, held_vc, held_tid, held_data, last);
        // Output stage: each configured successor takes the held token once.
        self.can_load.next = true;
        for k in 0..PORTS {
            self.pending[k].clock.next = self.clock.val();
            self.pending[k].d.next = self.pending[k].q.val() & !self.out_ready[k].val();
            self.out_valid[k].next = self.pending[k].q.val();
            self.out_vc[k].next = self.zero_vc.val();
            self.out_tid[k].next = self.zero16.val();
            self.out_data[k].next = self.zero32.val();
            if self.pending[k].q.val() {
                self.out_vc[k].next = self.held_vc.q.val();
                self.out_tid[k].next = self.held_tid.q.val();
                self.out_data[k].next = self.held_data.q.val();
                if !self.out_ready[k].val() {
                    self.can_load.next = false;
                }
            }
        }
        // Join state bookkeeping.
        self.done_mask.next = self.zero_vcs.val();
        self.waiting.next = false;
        for v in 0..VCS {
            self.count[v].clock.next = self.clock.val();
            self.done[v].clock.next = self.clock.val();
            self.thread[v].clock.next = self.clock.val();
            self.count[v].d.next = self.count[v].q.val();
            self.done[v].d.next = self.done[v].q.val();
            self.thread[v].d.next = self.thread[v].q.val();
            if self.done[v].q.val() {
                self.done_mask.next = self.done_mask.val() | self.vc_onehot[v].val();
                self.waiting.next = true;
            }
            if self.count[v].q.val() != self.count_zero.val() {
                self.waiting.next = true;
            }
        }
        self.done_pick.request.next = self.done_mask.val();
        self.done_pick.last.next = self.last.q.val();
        // Inputs: split takes its source port into the output stage; join counts every port.
        self.load.next = false;
        self.sum.next = self.count_zero.val();
        self.arrived.next = false;
        self.arrived_tid.next = self.zero16.val();
        for p in 0..PORTS {
            self.refused.next = false;
            for v in 0..VCS {
                if self.done[v].q.val() & (self.in_vc[p].val() == self.vc_ids[v].val()) {
                    self.refused.next = true;
                }
            }
            self.in_ready[p].next = false;
            if self.join_mode.val() {
                self.in_ready[p].next =
                    (self.in_mask.val() & self.port_onehot[p].val()).any() & !self.refused.val();
            }
            self.fire[p].next = self.in_valid[p].val() & self.in_ready[p].val();
        }
        self.source_found.next = false;
        if !self.join_mode.val() {
            // Split: the lowest port of `in_mask` is the source.
            for p in 0..PORTS {
                if (self.in_mask.val() & self.port_onehot[p].val()).any() & !self.source_found.val()
                {
                    self.source_found.next = true;
                    self.in_ready[p].next = self.can_load.val() & self.out_mask.val().any();
                    self.fire[p].next = self.in_valid[p].val() & self.in_ready[p].val();
                    self.load.next = self.fire[p].val();
                    if self.load.val() {
                        self.held_vc.d.next = self.in_vc[p].val();
                        self.held_tid.d.next = self.in_tid[p].val();
                        self.held_data.d.next = self.in_data[p].val();
                    }
                }
            }
        } else {
            self.load.next =
                self.can_load.val() & self.out_mask.val().any() & self.done_pick.grant_valid.val();
            if self.load.val() {
                self.held_vc.d.next = self.done_pick.grant.val();
                self.held_data.d.next = self.zero32.val();
                self.last.d.next = self.done_pick.grant.val();
                for v in 0..VCS {
                    if self.done_pick.grant.val() == self.vc_ids[v].val() {
                        self.held_tid.d.next = self.thread[v].q.val();
                        self.done[v].d.next = false;
                    }
                }
            }
            for v in 0..VCS {
                self.sum.next = self.count[v].q.val();
                self.arrived.next = false;
                self.arrived_tid.next = self.thread[v].q.val();
                for p in 0..PORTS {
                    if self.fire[p].val() & (self.in_vc[p].val() == self.vc_ids[v].val()) {
                        self.sum.next = self.sum.val() + self.count_one.val();
                        self.arrived.next = true;
                        self.arrived_tid.next = self.in_tid[p].val();
                    }
                }
                if self.arrived.val() {
                    self.thread[v].d.next = self.arrived_tid.val();
                    self.count[v].d.next = self.sum.val();
                    if self.sum.val() >= self.join_count.val() {
                        self.count[v].d.next = self.count_zero.val();
                        self.done[v].d.next = true;
                    }
                }
            }
        }
        if self.load.val() {
            for k in 0..PORTS {
                self.pending[k].d.next = (self.out_mask.val() & self.port_onehot[k].val()).any();
            }
        }
        if self.reset.val() {
            for k in 0..PORTS {
                self.pending[k].d.next = false;
            }
            for v in 0..VCS {
                self.count[v].d.next = self.count_zero.val();
                self.done[v].d.next = false;
            }
            self.last.d.next = self.zero_vc.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Sju = SplitJoin<2, 4, 3, 2>;

    #[test]
    fn synthesizes() {
        let mut uut = Sju::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("split_join", &vlog).unwrap();
    }

    fn edge(uut: &mut Sju) {
        uut.clock.next = Clock::from(true);
        assert!(simulate(uut, 100));
        uut.clock.next = Clock::from(false);
        assert!(simulate(uut, 100));
    }

    /// Join of two predecessors on ports 0 and 2, thread 9 on channel 3: the token
    /// leaves on outputs 0 and 1 two cycles after the second arrival.
    #[test]
    fn join_fires_after_both_predecessors() {
        let mut uut = Sju::default();
        uut.connect_all();
        uut.reset.next = true;
        assert!(simulate(&mut uut, 100));
        edge(&mut uut);
        uut.reset.next = false;
        uut.join_mode.next = true;
        uut.in_mask.next = 0b101u64.into();
        uut.out_mask.next = 0b011u64.into();
        uut.join_count.next = 2u64.into();
        for k in 0..3 {
            uut.out_ready[k].next = true;
        }
        for port in [0, 2] {
            for p in 0..3 {
                uut.in_valid[p].next = p == port;
                uut.in_vc[p].next = 3u64.into();
                uut.in_tid[p].next = 9u64.into();
            }
            assert!(simulate(&mut uut, 100));
            assert!(uut.in_ready[port].val());
            assert!(!uut.out_valid[0].val());
            edge(&mut uut);
        }
        for p in 0..3 {
            uut.in_valid[p].next = false;
        }
        assert!(simulate(&mut uut, 100));
        assert!(!uut.out_valid[0].val());
        edge(&mut uut);
        assert!(uut.out_valid[0].val() && uut.out_valid[1].val() && !uut.out_valid[2].val());
        assert_eq!(uut.out_tid[1].val().index(), 9);
        assert_eq!(uut.out_vc[0].val().index(), 3);
        edge(&mut uut);
        assert!(!uut.out_valid[0].val() && !uut.waiting.val());
    }
}
