//! Adaptive diff (`diverge-on-miss.txt` §5.2; SPEC §4): over a sampling period of
//! `PERIOD` cycles, counts the cycles the core was idle, the cycles its off-chip
//! bandwidth use was above its fair share and the cycles it was stalled on memory; at
//! the period's end it tells the slip controller to raise, lower or keep max-slip.
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | clock, reset | in | 1 | reset clears the counts and starts a new period |
//! | idle | in | 1 | the core issued no instruction this cycle |
//! | over_share | in | 1 | the core's bandwidth use this cycle is above its fair share |
//! | mem_stall | in | 1 | the core is stalled waiting on memory this cycle |
//! | raise | out | 1 | registered: one-cycle pulse, max-slip + 1 |
//! | lower | out | 1 | registered: one-cycle pulse, max-slip - 1 |
//! | elapsed | out | CW | registered: cycles of the current period already counted |
//!
//! Decision on the period's last cycle (its inputs included), with the counts `I`
//! (idle), `B` (over share), `S` (memory stall):
//! - ALU bound: `I <= IDLE_MAX` (zero idle cycles: completely ALU bound);
//!   bandwidth bound: `B >= BW_MIN`; latency bound: `S >= STALL_MIN`.
//! - neither ALU nor bandwidth bound: raise;
//! - ALU or bandwidth bound and not latency bound: lower;
//! - ALU or bandwidth bound and latency bound ("roughly in balance"): keep.
//!
//! The pulse is seen in the first cycle of the next period. Counts are bounded by
//! `PERIOD`, so `CW = clog2(PERIOD+1)`-bit counters never wrap. Storage: `4 x CW + 2`
//! flip-flops (`AdaptiveDiff`, 100 000 cycles: 4 x 17 + 2 = 70).
//!
//! Choices where the paper is silent: the three thresholds (parameters; the exported
//! preset uses 1 %, 50 % and 25 % of the period), "balanced" read as both latency- and
//! ALU/bandwidth-bound, and the per-cycle `over_share` signal (the core's bandwidth
//! meter compares its use with its fair share; that meter is outside this block).
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct AdaptiveDiff<
    const PERIOD: usize,
    const IDLE_MAX: usize,
    const BW_MIN: usize,
    const STALL_MIN: usize,
    const CW: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: counts cleared, new period.
    pub reset: Signal<In, Bit>,
    // per-cycle core status
    /// The core issued nothing this cycle.
    pub idle: Signal<In, Bit>,
    /// Bandwidth use above the fair share this cycle.
    pub over_share: Signal<In, Bit>,
    /// Stalled waiting on memory this cycle.
    pub mem_stall: Signal<In, Bit>,
    // decision (registered)
    /// Max-slip + 1 (one cycle, after a period's end).
    pub raise: Signal<Out, Bit>,
    /// Max-slip - 1 (one cycle, after a period's end).
    pub lower: Signal<Out, Bit>,
    /// Cycles of the current period counted so far.
    pub elapsed: Signal<Out, Bits<CW>>,
    cycles: DFF<Bits<CW>>,
    idle_count: DFF<Bits<CW>>,
    bw_count: DFF<Bits<CW>>,
    stall_count: DFF<Bits<CW>>,
    raise_q: DFF<Bit>,
    lower_q: DFF<Bit>,
    idle_total: Signal<Local, Bits<CW>>,
    bw_total: Signal<Local, Bits<CW>>,
    stall_total: Signal<Local, Bits<CW>>,
    alu_bound: Signal<Local, Bit>,
    bw_bound: Signal<Local, Bit>,
    lat_bound: Signal<Local, Bit>,
    last: Constant<Bits<CW>>,
    idle_max: Constant<Bits<CW>>,
    bw_min: Constant<Bits<CW>>,
    stall_min: Constant<Bits<CW>>,
    one: Constant<Bits<CW>>,
    zero: Constant<Bits<CW>>,
}

impl<
        const PERIOD: usize,
        const IDLE_MAX: usize,
        const BW_MIN: usize,
        const STALL_MIN: usize,
        const CW: usize,
    > Default for AdaptiveDiff<PERIOD, IDLE_MAX, BW_MIN, STALL_MIN, CW>
{
    fn default() -> Self {
        assert!(PERIOD >= 1, "a period has at least one cycle");
        assert_eq!(CW, clog2(PERIOD + 1), "CW must be clog2(PERIOD+1)");
        assert!(IDLE_MAX <= PERIOD && BW_MIN <= PERIOD && STALL_MIN <= PERIOD);
        let c = |v: usize| Constant::new(Bits::<CW>::from(v as u64));
        Self {
            clock: Default::default(),
            reset: Default::default(),
            idle: Default::default(),
            over_share: Default::default(),
            mem_stall: Default::default(),
            raise: Default::default(),
            lower: Default::default(),
            elapsed: Default::default(),
            cycles: Default::default(),
            idle_count: Default::default(),
            bw_count: Default::default(),
            stall_count: Default::default(),
            raise_q: Default::default(),
            lower_q: Default::default(),
            idle_total: Default::default(),
            bw_total: Default::default(),
            stall_total: Default::default(),
            alu_bound: Default::default(),
            bw_bound: Default::default(),
            lat_bound: Default::default(),
            last: c(PERIOD - 1),
            idle_max: c(IDLE_MAX),
            bw_min: c(BW_MIN),
            stall_min: c(STALL_MIN),
            one: c(1),
            zero: c(0),
        }
    }
}

impl<
        const PERIOD: usize,
        const IDLE_MAX: usize,
        const BW_MIN: usize,
        const STALL_MIN: usize,
        const CW: usize,
    > Logic for AdaptiveDiff<PERIOD, IDLE_MAX, BW_MIN, STALL_MIN, CW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            cycles,
            idle_count,
            bw_count,
            stall_count,
            raise_q,
            lower_q
        );
        self.raise.next = self.raise_q.q.val();
        self.lower.next = self.lower_q.q.val();
        self.elapsed.next = self.cycles.q.val();
        self.idle_total.next = self.idle_count.q.val();
        if self.idle.val() {
            self.idle_total.next = self.idle_count.q.val() + self.one.val();
        }
        self.bw_total.next = self.bw_count.q.val();
        if self.over_share.val() {
            self.bw_total.next = self.bw_count.q.val() + self.one.val();
        }
        self.stall_total.next = self.stall_count.q.val();
        if self.mem_stall.val() {
            self.stall_total.next = self.stall_count.q.val() + self.one.val();
        }
        self.alu_bound.next = self.idle_total.val() <= self.idle_max.val();
        self.bw_bound.next = self.bw_total.val() >= self.bw_min.val();
        self.lat_bound.next = self.stall_total.val() >= self.stall_min.val();
        self.raise_q.d.next = false;
        self.lower_q.d.next = false;
        self.cycles.d.next = self.cycles.q.val() + self.one.val();
        self.idle_count.d.next = self.idle_total.val();
        self.bw_count.d.next = self.bw_total.val();
        self.stall_count.d.next = self.stall_total.val();
        if self.cycles.q.val() == self.last.val() {
            self.raise_q.d.next = !self.alu_bound.val() & !self.bw_bound.val();
            self.lower_q.d.next =
                (self.alu_bound.val() | self.bw_bound.val()) & !self.lat_bound.val();
            self.cycles.d.next = self.zero.val();
            self.idle_count.d.next = self.zero.val();
            self.bw_count.d.next = self.zero.val();
            self.stall_count.d.next = self.zero.val();
        }
        if self.reset.val() {
            self.raise_q.d.next = false;
            self.lower_q.d.next = false;
            self.cycles.d.next = self.zero.val();
            self.idle_count.d.next = self.zero.val();
            self.bw_count.d.next = self.zero.val();
            self.stall_count.d.next = self.zero.val();
        }
    }
}

/// 64-cycle period, thresholds 4 / 32 / 16: the tests' short sampling period.
pub type AdaptiveDiff64 = AdaptiveDiff<64, 4, 32, 16, 7>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthesizes() {
        let mut uut = crate::presets::AdaptiveDiff100k::default();
        uut.connect_all();
        yosys_validate("adaptive_diff", &generate_verilog(&uut)).unwrap();
    }

    #[test]
    fn a_latency_bound_period_raises() {
        let mut uut = AdaptiveDiff::<4, 0, 2, 2, 3>::default();
        uut.connect_all();
        uut.idle.next = true;
        uut.mem_stall.next = true;
        for _ in 0..4 {
            uut.clock.next = Clock::from(false);
            simulate(&mut uut, 20);
            uut.clock.next = Clock::from(true);
            simulate(&mut uut, 20);
        }
        uut.clock.next = Clock::from(false);
        simulate(&mut uut, 20);
        assert!(uut.raise.val() && !uut.lower.val());
    }
}
