//! One Memory Coalescing Buffer entry (`diverge-on-miss.txt` §3.2, §4.1 steps 3–5;
//! SPEC §4): per thread a 3-state FSM (invalid, waiting, ready), the missing address
//! and the captured data.
//!
//! ```text
//!            capture (missed)          fill of its line          release (written back)
//!  invalid ───────────────> waiting ─────────────────> ready ───────────────────> invalid
//! ```
//!
//! State is held as bit planes: `waiting` and `ready` masks (invalid = neither; the
//! all-zero reset state is all invalid), the addresses packed `LANES x AW` and the data
//! packed `LANES x DW` (SPEC §0 field layout: lane `c` at `[c*AW, c*AW+AW)`).
//! Storage: `LANES x (2 + AW + DW)` flip-flops (`McbEntry32`: 32 x 66 = 2112).
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | clock, reset | in | 1 | reset makes every thread invalid |
//! | capture | in | 1 | the threads of `capture_mask` missed: they wait for `addr_in` |
//! | capture_mask | in | LANES | threads that missed (sampled with `capture`) |
//! | addr_in | in | NA | per-lane byte address of the op (lane `c` at `[c*AW, c*AW+AW)`) |
//! | fill | in | 1 | a line returns this cycle |
//! | fill_addr | in | AW | an address in the returning line (the low `OB` bits are ignored) |
//! | fill_data | in | ND | per-lane word of the returning line, as the fill crossbar extracts it for the lane's address |
//! | release_en | in | 1 | write back the ready threads of `release_mask` |
//! | release_mask | in | LANES | threads to write back (only ready ones are taken) |
//! | waiting, ready | out | LANES | registered: per-thread state |
//! | waiting_addr | out | NA | registered: the missing addresses of the waiting threads, 0 elsewhere |
//! | release_data | out | ND | comb.: `data` of the threads released on this edge, 0 elsewhere |
//! | busy | out | 1 | registered: some thread is waiting or ready |
//!
//! One edge, per thread, in this order: capture (the thread becomes waiting with its new
//! address; a capture beats a release of the same thread), release (ready -> invalid),
//! then the fill: every thread waiting on the returning line, including one captured on
//! this very edge, becomes ready and captures its lane of `fill_data`. A line belongs to
//! a thread when the address bits above `OB` are equal. Reset beats everything.
//!
//! Choices where the paper is silent:
//! - Word extraction (which word of the line a lane wanted) is the cache fill
//!   crossbar's job, shared with the hit path of scatter/gather loads; the entry holds
//!   the addresses that crossbar needs (`addr`) and captures one word per lane.
//! - A release of a thread that is still waiting is ignored (it stays waiting).
//! - Stores (the MCB as write buffer) are out of scope: this entry tracks loads.
use rust_hdl::prelude::*;

/// MCB entry for `LANES` threads, `AW`-bit byte addresses, `2^OB`-byte lines and
/// `DW`-bit words. `NA = LANES*AW`, `ND = LANES*DW`.
#[derive(LogicBlock)]
pub struct McbEntry<
    const LANES: usize,
    const AW: usize,
    const OB: usize,
    const DW: usize,
    const NA: usize,
    const ND: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: every thread invalid.
    pub reset: Signal<In, Bit>,
    // capture (a divergent op's misses)
    /// The threads of `capture_mask` start waiting on this edge.
    pub capture: Signal<In, Bit>,
    /// Threads that missed; sampled with `capture`.
    pub capture_mask: Signal<In, Bits<LANES>>,
    /// Per-lane byte addresses; sampled with `capture`.
    pub addr_in: Signal<In, Bits<NA>>,
    // fill (a line returns)
    /// A line returns this cycle.
    pub fill: Signal<In, Bit>,
    /// Any address within the returning line.
    pub fill_addr: Signal<In, Bits<AW>>,
    /// Per-lane word of the returning line (lane `c` at `[c*DW, c*DW+DW)`).
    pub fill_data: Signal<In, Bits<ND>>,
    // release (write-back on re-execution or forced reconvergence)
    /// Write back the ready threads of `release_mask` on this edge.
    pub release_en: Signal<In, Bit>,
    /// Threads to write back; threads not ready are ignored.
    pub release_mask: Signal<In, Bits<LANES>>,
    // state (registered)
    /// Threads waiting on memory.
    pub waiting: Signal<Out, Bits<LANES>>,
    /// Threads whose data has arrived.
    pub ready: Signal<Out, Bits<LANES>>,
    /// Addresses of the waiting threads (0 in other lanes): what the fill crossbar
    /// needs to extract each lane's word.
    pub waiting_addr: Signal<Out, Bits<NA>>,
    /// Data of the threads released on this edge, 0 elsewhere (combinational).
    pub release_data: Signal<Out, Bits<ND>>,
    /// Some thread is waiting or ready.
    pub busy: Signal<Out, Bit>,
    waiting_q: DFF<Bits<LANES>>,
    ready_q: DFF<Bits<LANES>>,
    /// The missing addresses.
    pub addr_q: DFF<Bits<NA>>,
    /// The captured data; lane `c` is meaningful while ready.
    pub data_q: DFF<Bits<ND>>,
    wait_wide: Signal<Local, Bits<NA>>,
    cap: Signal<Local, Bits<LANES>>,
    rel: Signal<Local, Bits<LANES>>,
    wait1: Signal<Local, Bits<LANES>>,
    wake: Signal<Local, Bits<LANES>>,
    cap_wide: Signal<Local, Bits<NA>>,
    rel_wide: Signal<Local, Bits<ND>>,
    wake_wide: Signal<Local, Bits<ND>>,
    addr_next: Signal<Local, Bits<NA>>,
    lane_addr: Signal<Local, Bits<AW>>,
    aw: Constant<Bits<16>>,
    dw: Constant<Bits<16>>,
    ob: Constant<Bits<16>>,
    lane_bit: [Constant<Bits<LANES>>; LANES],
    top_a: Constant<Bits<NA>>,
    top_d: Constant<Bits<ND>>,
    zero_lanes: Constant<Bits<LANES>>,
    zero_a: Constant<Bits<NA>>,
    zero_d: Constant<Bits<ND>>,
}

impl<
        const LANES: usize,
        const AW: usize,
        const OB: usize,
        const DW: usize,
        const NA: usize,
        const ND: usize,
    > Default for McbEntry<LANES, AW, OB, DW, NA, ND>
{
    fn default() -> Self {
        assert!(LANES >= 1 && DW >= 1, "lanes and data bits");
        assert!(OB < AW, "a line address needs bits above the offset");
        assert_eq!(NA, LANES * AW, "NA must be LANES*AW");
        assert_eq!(ND, LANES * DW, "ND must be LANES*DW");
        let mut top_a = Bits::<NA>::default();
        for b in NA - AW..NA {
            top_a.set_bits::<1>(b, true.into());
        }
        let mut top_d = Bits::<ND>::default();
        for b in ND - DW..ND {
            top_d.set_bits::<1>(b, true.into());
        }
        Self {
            clock: Default::default(),
            reset: Default::default(),
            capture: Default::default(),
            capture_mask: Default::default(),
            addr_in: Default::default(),
            fill: Default::default(),
            fill_addr: Default::default(),
            fill_data: Default::default(),
            release_en: Default::default(),
            release_mask: Default::default(),
            waiting: Default::default(),
            ready: Default::default(),
            waiting_addr: Default::default(),
            release_data: Default::default(),
            busy: Default::default(),
            waiting_q: Default::default(),
            ready_q: Default::default(),
            addr_q: Default::default(),
            data_q: Default::default(),
            cap: Default::default(),
            rel: Default::default(),
            wait1: Default::default(),
            wake: Default::default(),
            cap_wide: Default::default(),
            wait_wide: Default::default(),
            rel_wide: Default::default(),
            wake_wide: Default::default(),
            addr_next: Default::default(),
            lane_addr: Default::default(),
            aw: Constant::new((AW as u64).into()),
            dw: Constant::new((DW as u64).into()),
            ob: Constant::new((OB as u64).into()),
            lane_bit: array_init::array_init(|c| {
                let mut v = Bits::<LANES>::default();
                v.set_bits::<1>(c, true.into());
                Constant::new(v)
            }),
            top_a: Constant::new(top_a),
            top_d: Constant::new(top_d),
            zero_lanes: Constant::new(Bits::default()),
            zero_a: Constant::new(Bits::default()),
            zero_d: Constant::new(Bits::default()),
        }
    }
}

impl<
        const LANES: usize,
        const AW: usize,
        const OB: usize,
        const DW: usize,
        const NA: usize,
        const ND: usize,
    > Logic for McbEntry<LANES, AW, OB, DW, NA, ND>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, waiting_q, ready_q, addr_q, data_q);
        self.waiting.next = self.waiting_q.q.val();
        self.ready.next = self.ready_q.q.val();
        self.busy.next = (self.waiting_q.q.val() | self.ready_q.q.val()).any();
        // Capture beats release for the same thread.
        self.cap.next = self.zero_lanes.val();
        if self.capture.val() {
            self.cap.next = self.capture_mask.val();
        }
        self.rel.next = self.zero_lanes.val();
        if self.release_en.val() {
            self.rel.next = self.release_mask.val() & self.ready_q.q.val() & !self.cap.val();
        }
        // Per-lane field masks (lane 0 ends at the bottom).
        self.cap_wide.next = self.zero_a.val();
        self.wait_wide.next = self.zero_a.val();
        self.rel_wide.next = self.zero_d.val();
        for c in 0..LANES {
            self.cap_wide.next = self.cap_wide.val() >> self.aw.val();
            self.wait_wide.next = self.wait_wide.val() >> self.aw.val();
            if self.waiting_q.q.val().get_bit(c) {
                self.wait_wide.next = self.wait_wide.val() | self.top_a.val();
            }
            self.rel_wide.next = self.rel_wide.val() >> self.dw.val();
            if self.cap.val().get_bit(c) {
                self.cap_wide.next = self.cap_wide.val() | self.top_a.val();
            }
            if self.rel.val().get_bit(c) {
                self.rel_wide.next = self.rel_wide.val() | self.top_d.val();
            }
        }
        self.release_data.next = self.data_q.q.val() & self.rel_wide.val();
        self.waiting_addr.next = self.addr_q.q.val() & self.wait_wide.val();
        self.addr_next.next = (self.addr_q.q.val() & !self.cap_wide.val())
            | (self.addr_in.val() & self.cap_wide.val());
        self.wait1.next = self.waiting_q.q.val() | self.cap.val();
        // The returning line wakes every thread waiting on it.
        self.wake.next = self.zero_lanes.val();
        self.wake_wide.next = self.zero_d.val();
        for c in 0..LANES {
            self.wake_wide.next = self.wake_wide.val() >> self.dw.val();
            self.lane_addr.next = self
                .addr_next
                .val()
                .get_bits::<AW>(c * self.aw.val().index());
            if self.fill.val()
                & self.wait1.val().get_bit(c)
                & !((self.lane_addr.val() ^ self.fill_addr.val()) >> self.ob.val()).any()
            {
                self.wake.next = self.wake.val() | self.lane_bit[c].val();
                self.wake_wide.next = self.wake_wide.val() | self.top_d.val();
            }
        }
        self.waiting_q.d.next = self.wait1.val() & !self.wake.val();
        self.ready_q.d.next =
            (self.ready_q.q.val() & !self.cap.val() & !self.rel.val()) | self.wake.val();
        self.addr_q.d.next = self.addr_next.val();
        self.data_q.d.next = (self.data_q.q.val() & !self.wake_wide.val())
            | (self.fill_data.val() & self.wake_wide.val());
        if self.reset.val() {
            self.waiting_q.d.next = self.zero_lanes.val();
            self.ready_q.d.next = self.zero_lanes.val();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = crate::presets::McbEntry32::default();
        uut.connect_all();
        yosys_validate("mcb_entry", &generate_verilog(&uut)).unwrap();
    }

    #[test]
    fn a_line_wakes_every_thread_waiting_on_it() {
        let mut uut = McbEntry::<2, 8, 2, 4, 16, 8>::default();
        uut.connect_all();
        let edge = |uut: &mut McbEntry<2, 8, 2, 4, 16, 8>| {
            uut.clock.next = Clock::from(true);
            simulate(uut, 20);
            uut.clock.next = Clock::from(false);
            simulate(uut, 20);
        };
        uut.capture.next = true;
        uut.capture_mask.next = 0b11.into();
        uut.addr_in.next = 0x4140.into(); // lane 0 at 0x40, lane 1 at 0x41: one line
        edge(&mut uut);
        uut.capture.next = false;
        assert_eq!(uut.waiting.val(), Bits::<2>::from(0b11));
        uut.fill.next = true;
        uut.fill_addr.next = 0x43.into();
        uut.fill_data.next = 0x5a.into();
        edge(&mut uut);
        assert_eq!(uut.ready.val(), Bits::<2>::from(0b11));
        assert_eq!(uut.data_q.q.val(), Bits::<8>::from(0x5a));
    }
}
