//! CVU thread initiator (`vgiw-control-flow-coalescing.txt` §2, §3.5 "Control vector
//! units"; SPEC §5): takes thread batches `<base (16), bitmap (64)>` from the basic
//! block scheduler and injects the thread ids of the set bits into the fabric, in
//! ascending order, one per cycle, with each id's CUDA threadIdx coordinates.
//!
//! ```text
//!  batch in ──> [ nxt: base, bitmap ] ──> [ cur: base, bitmap ] ──> lowest set bit
//!  (valid/ready)  second buffer            batch being looped      id = base + index
//!                 in_ready = !nxt_valid                            tid_x/y/z ──> fabric
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `in_valid`, `in_ready` | in, out | 1, 1 | batch handshake; `in_ready` is registered |
//! | `in_base`, `in_bitmap` | in | 16, 64 | batch: bit `i` set = thread `base + i` runs |
//! | `log_dim_x`, `log_dim_y` | in | 4, 4 | CUDA block shape: `blockDim.x = 2^log_dim_x`, `blockDim.y = 2^log_dim_y` (static configuration) |
//! | `out_valid`, `out_ready` | out, in | 1, 1 | thread handshake; `out_valid` is registered |
//! | `out_id` | out | 16 | thread id (registered) |
//! | `tid_x`, `tid_y`, `tid_z` | out | 16 each | threadIdx of `out_id` (combinational from `out_id` and the shape) |
//! | `busy` | out | 1 | a batch is held (registered) |
//!
//! Timing: a batch accepted on edge `t` (and not queued behind another) presents its
//! first thread in cycle `t+1`. One thread per cycle while the consumer is ready:
//! `in_ready` only depends on the second buffer, so with a producer that always has
//! a batch and a consumer that is always ready there is no bubble between batches,
//! even for one-thread batches (a batch lands straight in `cur` when `cur` empties on
//! the same edge and `nxt` is empty). Measured: 1.0 thread per cycle
//! (`testbenches/tests/cvu_initiator.rs`, `initiator_sustains_one_thread_per_cycle`).
//!
//! Storage: two batch buffers of 80 bits (the paper's "only two are used when
//! functioning as a thread initiator", §3.5) + 1 valid bit = 161 flip-flops.
//!
//! Choices where the paper is silent:
//! - The id is `base + index` with a full 16-bit add (bases need not be 64-aligned).
//! - Empty batches are accepted and dropped (they never occupy a buffer).
//! - threadIdx for power-of-two block shapes only (`x = id mod 2^lx`,
//!   `y = (id >> lx) mod 2^ly`, `z = id >> (lx + ly)`): no divider in the fabric's
//!   injection path. A tile's thread id is the linear id within the CUDA block.
//! - Reset drops both buffers.
use rust_hdl::prelude::*;

/// Thread initiator; batches of 64 ids, 16-bit thread ids.
#[derive(LogicBlock)]
pub struct CvuInitiator {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: drops both buffers.
    pub reset: Signal<In, Bit>,
    // batch in (from the BBS)
    /// A batch is offered.
    pub in_valid: Signal<In, Bit>,
    /// The second buffer is free: a batch offered now is taken on this edge.
    pub in_ready: Signal<Out, Bit>,
    /// First thread id of the batch (bit 0 of the bitmap).
    pub in_base: Signal<In, Bits<16>>,
    /// Bit `i` set: thread `in_base + i` runs this block.
    pub in_bitmap: Signal<In, Bits<64>>,
    // configuration
    /// `log2(blockDim.x)`.
    pub log_dim_x: Signal<In, Bits<4>>,
    /// `log2(blockDim.y)`.
    pub log_dim_y: Signal<In, Bits<4>>,
    // thread out (to the fabric)
    /// A thread id is presented.
    pub out_valid: Signal<Out, Bit>,
    /// The fabric takes the presented thread on this edge.
    pub out_ready: Signal<In, Bit>,
    /// The presented thread id.
    pub out_id: Signal<Out, Bits<16>>,
    /// threadIdx.x of `out_id`.
    pub tid_x: Signal<Out, Bits<16>>,
    /// threadIdx.y of `out_id`.
    pub tid_y: Signal<Out, Bits<16>>,
    /// threadIdx.z of `out_id`.
    pub tid_z: Signal<Out, Bits<16>>,
    /// A batch is held (either buffer non-empty).
    pub busy: Signal<Out, Bit>,
    /// Batch being looped over: remaining bits.
    cur_bits: DFF<Bits<64>>,
    cur_base: DFF<Bits<16>>,
    /// Second (prefetched) batch.
    nxt_valid: DFF<Bit>,
    nxt_bits: DFF<Bits<64>>,
    nxt_base: DFF<Bits<16>>,
    /// Index of the lowest remaining bit of `cur_bits`.
    index: Signal<Local, Bits<16>>,
    found: Signal<Local, Bit>,
    /// `cur_bits` after this cycle's emission.
    remaining: Signal<Local, Bits<64>>,
    accept: Signal<Local, Bit>,
    onehot: [Constant<Bits<64>>; 64],
    ids: [Constant<Bits<16>>; 64],
    zero16: Constant<Bits<16>>,
    zero64: Constant<Bits<64>>,
    one64: Constant<Bits<64>>,
    ones16: Constant<Bits<16>>,
}

impl Default for CvuInitiator {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
            in_base: Default::default(),
            in_bitmap: Default::default(),
            log_dim_x: Default::default(),
            log_dim_y: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_id: Default::default(),
            tid_x: Default::default(),
            tid_y: Default::default(),
            tid_z: Default::default(),
            busy: Default::default(),
            cur_bits: Default::default(),
            cur_base: Default::default(),
            nxt_valid: Default::default(),
            nxt_bits: Default::default(),
            nxt_base: Default::default(),
            index: Default::default(),
            found: Default::default(),
            remaining: Default::default(),
            accept: Default::default(),
            onehot: array_init::array_init(|i| Constant::new(Bits::<64>::from(1u64 << i))),
            ids: array_init::array_init(|i| Constant::new(Bits::<16>::from(i as u64))),
            zero16: Constant::new(Bits::default()),
            zero64: Constant::new(Bits::default()),
            one64: Constant::new(Bits::<64>::from(1u64)),
            ones16: Constant::new(Bits::<16>::mask()),
        }
    }
}

impl Logic for CvuInitiator {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, cur_bits, cur_base, nxt_valid, nxt_bits, nxt_base);
        // Lowest remaining bit of the current batch.
        self.index.next = self.zero16.val();
        self.found.next = false;
        for i in 0..64 {
            if (self.cur_bits.q.val() & self.onehot[i].val()).any() & !self.found.val() {
                self.index.next = self.ids[i].val();
                self.found.next = true;
            }
        }
        self.out_valid.next = self.cur_bits.q.val().any();
        self.out_id.next = self.cur_base.q.val() + self.index.val();
        self.tid_x.next = self.out_id.val() & !(self.ones16.val() << self.log_dim_x.val());
        self.tid_y.next = (self.out_id.val() >> self.log_dim_x.val())
            & !(self.ones16.val() << self.log_dim_y.val());
        self.tid_z.next = (self.out_id.val() >> self.log_dim_x.val()) >> self.log_dim_y.val();
        self.in_ready.next = !self.nxt_valid.q.val();
        self.busy.next = self.cur_bits.q.val().any() | self.nxt_valid.q.val();
        // Clear the emitted bit (x & (x - 1) drops the lowest set bit).
        self.remaining.next = self.cur_bits.q.val();
        if self.out_ready.val() {
            self.remaining.next =
                self.cur_bits.q.val() & (self.cur_bits.q.val() - self.one64.val());
        }
        self.accept.next =
            self.in_valid.val() & !self.nxt_valid.q.val() & self.in_bitmap.val().any();
        self.cur_bits.d.next = self.remaining.val();
        if !self.remaining.val().any() {
            if self.nxt_valid.q.val() {
                self.cur_bits.d.next = self.nxt_bits.q.val();
                self.cur_base.d.next = self.nxt_base.q.val();
                self.nxt_valid.d.next = false;
            } else if self.accept.val() {
                self.cur_bits.d.next = self.in_bitmap.val();
                self.cur_base.d.next = self.in_base.val();
            }
        }
        if self.accept.val() & (self.remaining.val().any() | self.nxt_valid.q.val()) {
            self.nxt_valid.d.next = true;
            self.nxt_bits.d.next = self.in_bitmap.val();
            self.nxt_base.d.next = self.in_base.val();
        }
        if self.reset.val() {
            self.cur_bits.d.next = self.zero64.val();
            self.cur_base.d.next = self.zero16.val();
            self.nxt_valid.d.next = false;
            self.nxt_bits.d.next = self.zero64.val();
            self.nxt_base.d.next = self.zero16.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = CvuInitiator::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("cvu_initiator", &vlog).unwrap();
    }

    #[test]
    fn emits_ids_in_ascending_order() {
        let mut uut = CvuInitiator::default();
        uut.connect_all();
        let mut seen = vec![];
        let step = |uut: &mut CvuInitiator, high: bool| {
            uut.clock.next = Clock::from(high);
            for _ in 0..100 {
                uut.update_all();
                if !uut.has_changed() {
                    break;
                }
            }
        };
        for cycle in 0..8 {
            step(&mut uut, false);
            uut.reset.next = cycle == 0;
            uut.in_valid.next = cycle == 1;
            uut.in_base.next = 128u64.into();
            uut.in_bitmap.next = 0b1010_0001u64.into();
            uut.out_ready.next = true;
            step(&mut uut, false);
            if uut.out_valid.val() {
                seen.push(uut.out_id.val().index());
            }
            step(&mut uut, true);
        }
        assert_eq!(seen, vec![128, 133, 135]);
    }
}
