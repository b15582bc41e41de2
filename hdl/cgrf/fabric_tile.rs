//! Fabric tile of the MT-CGRF grid: a switch and the compute unit it serves
//! (`vgiw-control-flow-coalescing.txt` §3.5; SPEC §6). The tile names the switch's
//! numbered ports by direction so the grid (`fabric.rs`) wires neighbours by name.
//!
//! ```text
//!            nw  n  ne
//!              \ | /
//!          w ── switch ── e        switch inputs 0..7: from the neighbours n, ne, e, se, s, sw, w, nw
//!              / | \   \          switch input 8: the compute unit's result
//!            sw  s  se  compute unit (operands a, b, c = switch outputs 8, 9, 10)
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `X_in_*` (X in n, ne, e, se, s, sw, w, nw) | in link (`cgrf/mod.rs`) | | tokens from the neighbour in direction X |
//! | `X_out_*` | out link | | tokens to the neighbour in direction X |
//! | `cfg_shift`, `cfg_in_en`, `cfg_in_sel`, `cfg_out_en`, `cfg_out_sel` | in/out | 1, 1, 4 | the switch's route chain (`switch.rs`) |
//! | `cfg_valid`, `cfg_opcode`, `cfg_imm_en`, `cfg_imm` | in | 1, 4, 1, 32 | the compute unit's configuration (`compute_unit.rs`) |
//! | `busy`, `tid_error` | out | 1, 1 | the compute unit holds a token; its sticky error |
//!
//! Timing: one cycle per switch hop; the compute unit's result re-enters its own
//! switch (input 8). Storage: the switch's and the compute unit's.
use crate::cgrf::compute_unit::ComputeUnit;
use crate::cgrf::switch::Switch;
use rust_hdl::prelude::*;

/// Switch (9 inputs, 11 outputs) + compute unit over `VCS = 2^VB` virtual channels.
#[derive(LogicBlock, Default)]
pub struct FabricTile<const VCS: usize, const VB: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: empties the switch and the compute unit.
    pub reset: Signal<In, Bit>,
    // route chain
    pub cfg_shift: Signal<In, Bit>,
    pub cfg_in_en: Signal<In, Bit>,
    pub cfg_in_sel: Signal<In, Bits<4>>,
    pub cfg_out_en: Signal<Out, Bit>,
    pub cfg_out_sel: Signal<Out, Bits<4>>,
    // compute unit configuration
    pub cfg_valid: Signal<In, Bit>,
    pub cfg_opcode: Signal<In, Bits<4>>,
    pub cfg_imm_en: Signal<In, Bit>,
    pub cfg_imm: Signal<In, Bits<32>>,
    // link from the north neighbour (switch input 0) and to it (switch output 0)
    pub n_in_valid: Signal<In, Bit>,
    pub n_in_ready: Signal<Out, Bit>,
    pub n_in_vc: Signal<In, Bits<VB>>,
    pub n_in_tid: Signal<In, Bits<16>>,
    pub n_in_data: Signal<In, Bits<32>>,
    pub n_out_valid: Signal<Out, Bit>,
    pub n_out_ready: Signal<In, Bit>,
    pub n_out_vc: Signal<Out, Bits<VB>>,
    pub n_out_tid: Signal<Out, Bits<16>>,
    pub n_out_data: Signal<Out, Bits<32>>,
    // link from the north-east neighbour (switch input 1) and to it (switch output 1)
    pub ne_in_valid: Signal<In, Bit>,
    pub ne_in_ready: Signal<Out, Bit>,
    pub ne_in_vc: Signal<In, Bits<VB>>,
    pub ne_in_tid: Signal<In, Bits<16>>,
    pub ne_in_data: Signal<In, Bits<32>>,
    pub ne_out_valid: Signal<Out, Bit>,
    pub ne_out_ready: Signal<In, Bit>,
    pub ne_out_vc: Signal<Out, Bits<VB>>,
    pub ne_out_tid: Signal<Out, Bits<16>>,
    pub ne_out_data: Signal<Out, Bits<32>>,
    // link from the east neighbour (switch input 2) and to it (switch output 2)
    pub e_in_valid: Signal<In, Bit>,
    pub e_in_ready: Signal<Out, Bit>,
    pub e_in_vc: Signal<In, Bits<VB>>,
    pub e_in_tid: Signal<In, Bits<16>>,
    pub e_in_data: Signal<In, Bits<32>>,
    pub e_out_valid: Signal<Out, Bit>,
    pub e_out_ready: Signal<In, Bit>,
    pub e_out_vc: Signal<Out, Bits<VB>>,
    pub e_out_tid: Signal<Out, Bits<16>>,
    pub e_out_data: Signal<Out, Bits<32>>,
    // link from the south-east neighbour (switch input 3) and to it (switch output 3)
    pub se_in_valid: Signal<In, Bit>,
    pub se_in_ready: Signal<Out, Bit>,
    pub se_in_vc: Signal<In, Bits<VB>>,
    pub se_in_tid: Signal<In, Bits<16>>,
    pub se_in_data: Signal<In, Bits<32>>,
    pub se_out_valid: Signal<Out, Bit>,
    pub se_out_ready: Signal<In, Bit>,
    pub se_out_vc: Signal<Out, Bits<VB>>,
    pub se_out_tid: Signal<Out, Bits<16>>,
    pub se_out_data: Signal<Out, Bits<32>>,
    // link from the south neighbour (switch input 4) and to it (switch output 4)
    pub s_in_valid: Signal<In, Bit>,
    pub s_in_ready: Signal<Out, Bit>,
    pub s_in_vc: Signal<In, Bits<VB>>,
    pub s_in_tid: Signal<In, Bits<16>>,
    pub s_in_data: Signal<In, Bits<32>>,
    pub s_out_valid: Signal<Out, Bit>,
    pub s_out_ready: Signal<In, Bit>,
    pub s_out_vc: Signal<Out, Bits<VB>>,
    pub s_out_tid: Signal<Out, Bits<16>>,
    pub s_out_data: Signal<Out, Bits<32>>,
    // link from the south-west neighbour (switch input 5) and to it (switch output 5)
    pub sw_in_valid: Signal<In, Bit>,
    pub sw_in_ready: Signal<Out, Bit>,
    pub sw_in_vc: Signal<In, Bits<VB>>,
    pub sw_in_tid: Signal<In, Bits<16>>,
    pub sw_in_data: Signal<In, Bits<32>>,
    pub sw_out_valid: Signal<Out, Bit>,
    pub sw_out_ready: Signal<In, Bit>,
    pub sw_out_vc: Signal<Out, Bits<VB>>,
    pub sw_out_tid: Signal<Out, Bits<16>>,
    pub sw_out_data: Signal<Out, Bits<32>>,
    // link from the west neighbour (switch input 6) and to it (switch output 6)
    pub w_in_valid: Signal<In, Bit>,
    pub w_in_ready: Signal<Out, Bit>,
    pub w_in_vc: Signal<In, Bits<VB>>,
    pub w_in_tid: Signal<In, Bits<16>>,
    pub w_in_data: Signal<In, Bits<32>>,
    pub w_out_valid: Signal<Out, Bit>,
    pub w_out_ready: Signal<In, Bit>,
    pub w_out_vc: Signal<Out, Bits<VB>>,
    pub w_out_tid: Signal<Out, Bits<16>>,
    pub w_out_data: Signal<Out, Bits<32>>,
    // link from the north-west neighbour (switch input 7) and to it (switch output 7)
    pub nw_in_valid: Signal<In, Bit>,
    pub nw_in_ready: Signal<Out, Bit>,
    pub nw_in_vc: Signal<In, Bits<VB>>,
    pub nw_in_tid: Signal<In, Bits<16>>,
    pub nw_in_data: Signal<In, Bits<32>>,
    pub nw_out_valid: Signal<Out, Bit>,
    pub nw_out_ready: Signal<In, Bit>,
    pub nw_out_vc: Signal<Out, Bits<VB>>,
    pub nw_out_tid: Signal<Out, Bits<16>>,
    pub nw_out_data: Signal<Out, Bits<32>>,
    // status
    pub busy: Signal<Out, Bit>,
    pub tid_error: Signal<Out, Bit>,
    switch: Switch<9, 11, VB, 4>,
    unit: ComputeUnit<VCS, VB>,
}

impl<const VCS: usize, const VB: usize> Logic for FabricTile<VCS, VB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.switch.clock.next = self.clock.val();
        self.switch.reset.next = self.reset.val();
        self.unit.clock.next = self.clock.val();
        self.unit.reset.next = self.reset.val();
        self.switch.cfg_shift.next = self.cfg_shift.val();
        self.switch.cfg_in_en.next = self.cfg_in_en.val();
        self.switch.cfg_in_sel.next = self.cfg_in_sel.val();
        self.cfg_out_en.next = self.switch.cfg_out_en.val();
        self.cfg_out_sel.next = self.switch.cfg_out_sel.val();
        self.unit.cfg_valid.next = self.cfg_valid.val();
        self.unit.cfg_opcode.next = self.cfg_opcode.val();
        self.unit.cfg_imm_en.next = self.cfg_imm_en.val();
        self.unit.cfg_imm.next = self.cfg_imm.val();
        self.switch.in_valid[0].next = self.n_in_valid.val();
        self.switch.in_vc[0].next = self.n_in_vc.val();
        self.switch.in_tid[0].next = self.n_in_tid.val();
        self.switch.in_data[0].next = self.n_in_data.val();
        self.n_in_ready.next = self.switch.in_ready[0].val();
        self.n_out_valid.next = self.switch.out_valid[0].val();
        self.n_out_vc.next = self.switch.out_vc[0].val();
        self.n_out_tid.next = self.switch.out_tid[0].val();
        self.n_out_data.next = self.switch.out_data[0].val();
        self.switch.out_ready[0].next = self.n_out_ready.val();
        self.switch.in_valid[1].next = self.ne_in_valid.val();
        self.switch.in_vc[1].next = self.ne_in_vc.val();
        self.switch.in_tid[1].next = self.ne_in_tid.val();
        self.switch.in_data[1].next = self.ne_in_data.val();
        self.ne_in_ready.next = self.switch.in_ready[1].val();
        self.ne_out_valid.next = self.switch.out_valid[1].val();
        self.ne_out_vc.next = self.switch.out_vc[1].val();
        self.ne_out_tid.next = self.switch.out_tid[1].val();
        self.ne_out_data.next = self.switch.out_data[1].val();
        self.switch.out_ready[1].next = self.ne_out_ready.val();
        self.switch.in_valid[2].next = self.e_in_valid.val();
        self.switch.in_vc[2].next = self.e_in_vc.val();
        self.switch.in_tid[2].next = self.e_in_tid.val();
        self.switch.in_data[2].next = self.e_in_data.val();
        self.e_in_ready.next = self.switch.in_ready[2].val();
        self.e_out_valid.next = self.switch.out_valid[2].val();
        self.e_out_vc.next = self.switch.out_vc[2].val();
        self.e_out_tid.next = self.switch.out_tid[2].val();
        self.e_out_data.next = self.switch.out_data[2].val();
        self.switch.out_ready[2].next = self.e_out_ready.val();
        self.switch.in_valid[3].next = self.se_in_valid.val();
        self.switch.in_vc[3].next = self.se_in_vc.val();
        self.switch.in_tid[3].next = self.se_in_tid.val();
        self.switch.in_data[3].next = self.se_in_data.val();
        self.se_in_ready.next = self.switch.in_ready[3].val();
        self.se_out_valid.next = self.switch.out_valid[3].val();
        self.se_out_vc.next = self.switch.out_vc[3].val();
        self.se_out_tid.next = self.switch.out_tid[3].val();
        self.se_out_data.next = self.switch.out_data[3].val();
        self.switch.out_ready[3].next = self.se_out_ready.val();
        self.switch.in_valid[4].next = self.s_in_valid.val();
        self.switch.in_vc[4].next = self.s_in_vc.val();
        self.switch.in_tid[4].next = self.s_in_tid.val();
        self.switch.in_data[4].next = self.s_in_data.val();
        self.s_in_ready.next = self.switch.in_ready[4].val();
        self.s_out_valid.next = self.switch.out_valid[4].val();
        self.s_out_vc.next = self.switch.out_vc[4].val();
        self.s_out_tid.next = self.switch.out_tid[4].val();
        self.s_out_data.next = self.switch.out_data[4].val();
        self.switch.out_ready[4].next = self.s_out_ready.val();
        self.switch.in_valid[5].next = self.sw_in_valid.val();
        self.switch.in_vc[5].next = self.sw_in_vc.val();
        self.switch.in_tid[5].next = self.sw_in_tid.val();
        self.switch.in_data[5].next = self.sw_in_data.val();
        self.sw_in_ready.next = self.switch.in_ready[5].val();
        self.sw_out_valid.next = self.switch.out_valid[5].val();
        self.sw_out_vc.next = self.switch.out_vc[5].val();
        self.sw_out_tid.next = self.switch.out_tid[5].val();
        self.sw_out_data.next = self.switch.out_data[5].val();
        self.switch.out_ready[5].next = self.sw_out_ready.val();
        self.switch.in_valid[6].next = self.w_in_valid.val();
        self.switch.in_vc[6].next = self.w_in_vc.val();
        self.switch.in_tid[6].next = self.w_in_tid.val();
        self.switch.in_data[6].next = self.w_in_data.val();
        self.w_in_ready.next = self.switch.in_ready[6].val();
        self.w_out_valid.next = self.switch.out_valid[6].val();
        self.w_out_vc.next = self.switch.out_vc[6].val();
        self.w_out_tid.next = self.switch.out_tid[6].val();
        self.w_out_data.next = self.switch.out_data[6].val();
        self.switch.out_ready[6].next = self.w_out_ready.val();
        self.switch.in_valid[7].next = self.nw_in_valid.val();
        self.switch.in_vc[7].next = self.nw_in_vc.val();
        self.switch.in_tid[7].next = self.nw_in_tid.val();
        self.switch.in_data[7].next = self.nw_in_data.val();
        self.nw_in_ready.next = self.switch.in_ready[7].val();
        self.nw_out_valid.next = self.switch.out_valid[7].val();
        self.nw_out_vc.next = self.switch.out_vc[7].val();
        self.nw_out_tid.next = self.switch.out_tid[7].val();
        self.nw_out_data.next = self.switch.out_data[7].val();
        self.switch.out_ready[7].next = self.nw_out_ready.val();
        // the compute unit: operands from outputs 8, 9, 10, result into input 8
        self.unit.a_valid.next = self.switch.out_valid[8].val();
        self.unit.a_vc.next = self.switch.out_vc[8].val();
        self.unit.a_tid.next = self.switch.out_tid[8].val();
        self.unit.a_data.next = self.switch.out_data[8].val();
        self.switch.out_ready[8].next = self.unit.a_ready.val();
        self.unit.b_valid.next = self.switch.out_valid[9].val();
        self.unit.b_vc.next = self.switch.out_vc[9].val();
        self.unit.b_tid.next = self.switch.out_tid[9].val();
        self.unit.b_data.next = self.switch.out_data[9].val();
        self.switch.out_ready[9].next = self.unit.b_ready.val();
        self.unit.c_valid.next = self.switch.out_valid[10].val();
        self.unit.c_vc.next = self.switch.out_vc[10].val();
        self.unit.c_tid.next = self.switch.out_tid[10].val();
        self.unit.c_data.next = self.switch.out_data[10].val();
        self.switch.out_ready[10].next = self.unit.c_ready.val();
        self.switch.in_valid[8].next = self.unit.out_valid.val();
        self.switch.in_vc[8].next = self.unit.out_vc.val();
        self.switch.in_tid[8].next = self.unit.out_tid.val();
        self.switch.in_data[8].next = self.unit.out_data.val();
        self.unit.out_ready.next = self.switch.in_ready[8].val();
        self.busy.next = self.unit.busy.val();
        self.tid_error.next = self.unit.tid_error.val();
    }
}
