//! Sub-warp unit: breaks a large warp's active mask into sub-warps of `LANES`
//! threads, one per cycle (LWM, `lwm-two-level-scheduling.txt` §3.1; SPEC §2.1).
//!
//! The unit keeps a copy of the large warp's active mask (the warp's real mask is
//! never cleared) and presents one sub-warp per cycle until the copy is empty:
//!
//! ```text
//!  load ─┐   ┌──────────── column_compactor (copy of the mask) ───────────┐
//!        └──>│ one_row: lowest non-empty row only (memory mode)           │──> sub_mask, sub_rows
//!  mode ──>  │ take: presented threads clear | flush: all clear (jump)    │──> sub_valid, last
//!            └────────────────────────────────────────────────────────────┘
//! ```
//!
//! - Normal mode (0, 3): the column compactor packs threads across rows, lane kept;
//!   the large warp takes max-column-popcount sub-warps.
//! - Memory mode (1): all active threads of the lowest non-empty row, so that the
//!   row's accesses stay coalesced (§3.1.2).
//! - Jump mode (2): one sub-warp (normal mode's first), `last = 1`, then the whole
//!   copy clears: a jump needs a single PC update (§3.1.2).
//!
//! Timing: a mask loaded on edge `t` presents its first sub-warp in cycle `t+1`;
//! one sub-warp per cycle after that. All outputs are registered (functions of the
//! copy and the held mode only). `load` wins over clearing; an empty mask yields no
//! sub-warp; reset clears the copy.
//!
//! Storage: `ROWS*LANES` (the copy) + 2 (mode) flip-flops.
use crate::lib::column_compactor::ColumnCompactor;
use rust_hdl::prelude::*;

/// Mode values of the `mode` port.
pub const MODE_NORMAL: u64 = 0;
pub const MODE_MEMORY: u64 = 1;
pub const MODE_JUMP: u64 = 2;

/// Sub-warp unit for large warps of `ROWS` x `LANES` threads. `N = ROWS*LANES`,
/// `RW = max(1, clog2(ROWS))`, `GW = LANES*RW`.
#[derive(LogicBlock)]
pub struct SubWarpUnit<
    const LANES: usize,
    const ROWS: usize,
    const N: usize,
    const RW: usize,
    const GW: usize,
> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: clears the copy.
    pub reset: Signal<In, Bit>,
    // load interface
    /// Take a new large warp's active mask and mode on this edge.
    pub load: Signal<In, Bit>,
    /// The large warp's active mask, row-major (bit `r*LANES + c`).
    pub mask_in: Signal<In, Bits<N>>,
    /// 0 normal, 1 memory, 2 jump, 3 normal; sampled with `load`.
    pub mode: Signal<In, Bits<2>>,
    // sub-warp out (registered)
    /// A sub-warp is presented this cycle.
    pub sub_valid: Signal<Out, Bit>,
    /// Lanes active in this sub-warp.
    pub sub_mask: Signal<Out, Bits<LANES>>,
    /// Row id of each active lane's thread (lane `c` at bits `[c*RW, c*RW+RW)`), 0 when inactive.
    pub sub_rows: Signal<Out, Bits<GW>>,
    /// This sub-warp is the large warp's last.
    pub last: Signal<Out, Bit>,
    /// `sub_valid && !last`: the large warp is not broken down yet.
    pub stall: Signal<Out, Bit>,
    /// The copy of the active mask and the packing engine.
    compactor: ColumnCompactor<ROWS, LANES, N, RW, GW>,
    /// Mode of the large warp being broken down.
    held_mode: DFF<Bits<2>>,
    is_jump: Signal<Local, Bit>,
    all_rows: Constant<Bits<ROWS>>,
    mode_memory: Constant<Bits<2>>,
    mode_jump: Constant<Bits<2>>,
    mode_reset: Constant<Bits<2>>,
}

impl<const LANES: usize, const ROWS: usize, const N: usize, const RW: usize, const GW: usize>
    Default for SubWarpUnit<LANES, ROWS, N, RW, GW>
{
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            load: Default::default(),
            mask_in: Default::default(),
            mode: Default::default(),
            sub_valid: Default::default(),
            sub_mask: Default::default(),
            sub_rows: Default::default(),
            last: Default::default(),
            stall: Default::default(),
            compactor: Default::default(),
            held_mode: Default::default(),
            is_jump: Default::default(),
            all_rows: Constant::new(Bits::<ROWS>::mask()),
            mode_memory: Constant::new(MODE_MEMORY.into()),
            mode_jump: Constant::new(MODE_JUMP.into()),
            mode_reset: Constant::new(MODE_NORMAL.into()),
        }
    }
}

impl<const LANES: usize, const ROWS: usize, const N: usize, const RW: usize, const GW: usize> Logic
    for SubWarpUnit<LANES, ROWS, N, RW, GW>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.compactor.clock.next = self.clock.val();
        self.compactor.reset.next = self.reset.val();
        self.compactor.load.next = self.load.val();
        self.compactor.mask_in.next = self.mask_in.val();
        dff_setup!(self, clock, held_mode);
        if self.load.val() {
            self.held_mode.d.next = self.mode.val();
        }
        if self.reset.val() {
            self.held_mode.d.next = self.mode_reset.val();
        }
        self.compactor.row_enable.next = self.all_rows.val();
        self.compactor.one_row.next = self.held_mode.q.val() == self.mode_memory.val();
        self.is_jump.next = self.held_mode.q.val() == self.mode_jump.val();
        // Clear what was presented (a no-op when nothing is); a jump clears the whole
        // copy at once. Driven from registers only: no path back through the compactor.
        self.compactor.take.next = !self.is_jump.val();
        self.compactor.flush.next = self.is_jump.val();
        self.sub_valid.next = self.compactor.group_valid.val();
        self.sub_mask.next = self.compactor.group_mask.val();
        self.sub_rows.next = self.compactor.group_rows.val();
        self.last.next = self.compactor.group_valid.val()
            & (self.compactor.group_last.val() | self.is_jump.val());
        self.stall.next = self.compactor.group_valid.val()
            & !(self.compactor.group_last.val() | self.is_jump.val());
    }
}

#[cfg(test)]
mod tests {
    use crate::presets::SubWarpUnit4x8;
    use rust_hdl::prelude::*;

    #[test]
    fn synthesizes() {
        let mut uut = SubWarpUnit4x8::default();
        uut.connect_all();
        let vlog = generate_verilog(&uut);
        yosys_validate("sub_warp_unit_4x8", &vlog).unwrap();
    }
}
