//! MT-CGRF fabric top (`vgiw-control-flow-coalescing.txt` §3.5; SPEC §6): a 4 x 4 grid
//! of tiles (a switch and a compute unit each, `fabric_tile.rs`), every switch wired to
//! its eight neighbours, and units on the grid's edge that reach the switches of the
//! border tiles: eight load/store units and two live value units (`memory_tile.rs`),
//! two divide units (`divide_tile.rs`), and two thread ports (`thread_port.rs`: the
//! control vector units' injecting and terminating ends). A basic block's dataflow
//! graph is mapped by configuring every compute unit, every edge unit and every
//! switch route; threads then stream through it, one new thread per cycle per
//! thread port when nothing stalls.
//!
//! ```text
//!          inject0 inject1  lvu0   lvu1              (north edge: slots 0..3)
//!   ldst4  [T 0]   [T 1]   [T 2]   [T 3]  ldst0      (east edge: slots 4..7, ldst0..3)
//!   ldst5  [T 4]   [T 5]   [T 6]   [T 7]  ldst1      (west edge: slots 12..15, ldst4..7)
//!   ldst6  [T 8]   [T 9]   [T10]   [T11]  ldst2
//!   ldst7  [T12]   [T13]   [T14]   [T15]  ldst3
//!          last0   last1   div0    div1              (south edge: slots 8..11)
//! ```
//!
//! Geometry (the contract with the configuration in `sim/cgrf/fabric.rs`):
//! - Tile `t = 4r + c`; directions 0 n, 1 ne, 2 e, 3 se, 4 s, 5 sw, 6 w, 7 nw. Switch
//!   input `d` takes tokens from the neighbour in direction `d`, input 8 the tile's
//!   compute unit result; output `d` sends to the neighbour in direction `d`, outputs
//!   8, 9, 10 are the compute unit's operands a, b, c.
//! - Edge slot `p = 4s + j` (side `s`: 0 north, 1 east, 2 south, 3 west; position `j`
//!   along the side, left to right or top to bottom) sits at the border tile of that
//!   position, with orthogonal direction `o` (n, e, s, w): its unit's operand a is the
//!   tile's output `o`, operand b output `o + 1` (the clockwise diagonal), and its result
//!   enters input `o`. Slots: 0, 1 inject (thread ports 0, 1); 2, 3 live value units
//!   (memory ports 8, 9); 4..7 load/store units (memory ports 0..3); 8, 9 last tokens
//!   (thread ports 0, 1); 10, 11 divide units; 12..15 load/store units (memory ports
//!   4..7). Links leaving the grid that no slot uses are never valid and never ready.
//! - Unit configuration: a write with `cfg_unit_valid` to unit `cfg_unit_id`: ids 0..15
//!   the compute unit of tile id (`cfg_opcode`, `cfg_imm_en`, `cfg_imm`), `16 + p` the
//!   edge slot `p`: memory units (`cfg_store`, `cfg_indexed`, base = `cfg_imm`), divide
//!   units (`cfg_opcode` low 2 bits). Other ids are ignored.
//! - Routes: each row's four switches form one chain (`switch.rs`), tile `(r, 0)`
//!   output 0 first and tile `(r, 3)` output 10 last; `route_shift` shifts all four rows
//!   together, row `r` taking `route_in_en[r]`, `route_in_sel[r]`: the whole fabric
//!   loads in 44 cycles (§3.5: configuration travels along rows, O(sqrt(units))).
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `route_shift`, `route_in_en[4]`, `route_in_sel[4]` | in | 1, 1, 4 | route chains, one per row |
//! | `route_out_en[4]`, `route_out_sel[4]` | out | 1, 4 | the field leaving each row's chain |
//! | `cfg_unit_valid`, `cfg_unit_id`, `cfg_opcode`, `cfg_imm_en`, `cfg_imm`, `cfg_store`, `cfg_indexed` | in | 1, 5, 4, 1, 32, 1, 1 | unit configuration write |
//! | `thread_valid[2]`, `thread_ready[2]`, `thread_tid[2]` | in, out, in | 1, 1, 16 | threads to start, per thread port |
//! | `done_valid[2]`, `done_tid[2]`, `done_data[2]` | out | 1, 16, 32 | finished threads and their last token's data |
//! | `mem_req_*[10]`, `mem_resp_*[10]` | memory ports | | as `load_store_unit.rs` (tags 4 bits, 16 outstanding each) |
//! | `busy` | out | 1 | some thread is in flight or some unit holds a token |
//! | `tid_error` | out | 1 | some unit's token buffer saw two threads in one channel (sticky) |
//! | `misrouted` | out | 1 | a token is offered on a link leaving the grid where no unit listens (a route error: it waits there) |
//!
//! Timing: one cycle per switch hop, compute units 4 cycles operand to result, memory
//! units 1 cycle + memory latency + 1. Configure while idle (`busy` low).
//!
//! Storage: 16 x (switch + compute unit) + 10 memory tiles + 2 divide tiles + 2 x VCS
//! channel bits (`cargo run --release -- area fabric`).
//!
//! Choices where the paper is silent (or where weft departs from it): the eight
//! neighbours are the adjacent tiles including diagonals (a mesh; the paper's folded
//! hypercube adds long links this small grid does without); the grid is square 4 x 4
//! with non-compute units on its edge (the paper's 140-unit grid interleaves them);
//! the grid size is fixed
//! because rust-hdl's Verilog generator resolves array indices only from loop
//! variables, not from generic parameters; a thread port keeps one replica's virtual
//! channels, so two replicas of a graph never share a channel namespace.
use crate::cgrf::divide_tile::DivideTile;
use crate::cgrf::fabric_tile::FabricTile;
use crate::cgrf::memory_tile::MemoryTile;
use crate::cgrf::thread_port::ThreadPort;
use rust_hdl::prelude::*;

/// Memory ports: 8 load/store units + 2 live value units.
pub const MEMORY_PORTS: usize = 10;
/// Thread ports (replicas that can run at once).
pub const THREAD_PORTS: usize = 2;

/// The 4 x 4 fabric over `VCS = 2^VB` virtual channels per unit.
#[derive(LogicBlock)]
pub struct Fabric<const VCS: usize, const VB: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: empties every unit and switch, frees every channel.
    pub reset: Signal<In, Bit>,
    // route chains
    pub route_shift: Signal<In, Bit>,
    pub route_in_en: [Signal<In, Bit>; 4],
    pub route_in_sel: [Signal<In, Bits<4>>; 4],
    /// The field leaving each row's chain (tile `(r, 3)` output 10), to read a load back.
    pub route_out_en: [Signal<Out, Bit>; 4],
    pub route_out_sel: [Signal<Out, Bits<4>>; 4],
    // unit configuration
    pub cfg_unit_valid: Signal<In, Bit>,
    pub cfg_unit_id: Signal<In, Bits<5>>,
    pub cfg_opcode: Signal<In, Bits<4>>,
    pub cfg_imm_en: Signal<In, Bit>,
    pub cfg_imm: Signal<In, Bits<32>>,
    pub cfg_store: Signal<In, Bit>,
    pub cfg_indexed: Signal<In, Bit>,
    // threads
    pub thread_valid: [Signal<In, Bit>; 2],
    pub thread_ready: [Signal<Out, Bit>; 2],
    pub thread_tid: [Signal<In, Bits<16>>; 2],
    pub done_valid: [Signal<Out, Bit>; 2],
    pub done_tid: [Signal<Out, Bits<16>>; 2],
    pub done_data: [Signal<Out, Bits<32>>; 2],
    // memory ports
    pub mem_req_valid: [Signal<Out, Bit>; 10],
    pub mem_req_ready: [Signal<In, Bit>; 10],
    pub mem_req_addr: [Signal<Out, Bits<32>>; 10],
    pub mem_req_data: [Signal<Out, Bits<32>>; 10],
    pub mem_req_write: [Signal<Out, Bit>; 10],
    pub mem_req_tag: [Signal<Out, Bits<4>>; 10],
    pub mem_resp_valid: [Signal<In, Bit>; 10],
    pub mem_resp_tag: [Signal<In, Bits<4>>; 10],
    pub mem_resp_data: [Signal<In, Bits<32>>; 10],
    // status
    pub busy: Signal<Out, Bit>,
    pub tid_error: Signal<Out, Bit>,
    pub misrouted: Signal<Out, Bit>,
    tile: [FabricTile<VCS, VB>; 16],
    mem: [MemoryTile<VCS, VB>; 10],
    div: [DivideTile<VCS, VB>; 2],
    threads: [ThreadPort<VCS, VB>; 2],
    /// Compute unit id `t` (tile `t`) as a 5-bit constant.
    ids: [Constant<Bits<5>>; 16],
    /// Edge units' configuration ids (`16 + slot`): memory ports 0..9, divide units 0, 1.
    mem_ids: [Constant<Bits<5>>; 10],
    div_ids: [Constant<Bits<5>>; 2],
    errors: Signal<Local, Bit>,
    held: Signal<Local, Bit>,
    no_vc: Constant<Bits<VB>>,
    no_tid: Constant<Bits<16>>,
}

impl<const VCS: usize, const VB: usize> Default for Fabric<VCS, VB> {
    fn default() -> Self {
        const MEM_SLOTS: [u64; 10] = [4, 5, 6, 7, 12, 13, 14, 15, 2, 3];
        Self {
            clock: Default::default(),
            reset: Default::default(),
            route_shift: Default::default(),
            route_in_en: Default::default(),
            route_in_sel: Default::default(),
            route_out_en: Default::default(),
            route_out_sel: Default::default(),
            cfg_unit_valid: Default::default(),
            cfg_unit_id: Default::default(),
            cfg_opcode: Default::default(),
            cfg_imm_en: Default::default(),
            cfg_imm: Default::default(),
            cfg_store: Default::default(),
            cfg_indexed: Default::default(),
            thread_valid: Default::default(),
            thread_ready: Default::default(),
            thread_tid: Default::default(),
            done_valid: Default::default(),
            done_tid: Default::default(),
            done_data: Default::default(),
            mem_req_valid: Default::default(),
            mem_req_ready: Default::default(),
            mem_req_addr: Default::default(),
            mem_req_data: Default::default(),
            mem_req_write: Default::default(),
            mem_req_tag: Default::default(),
            mem_resp_valid: Default::default(),
            mem_resp_tag: Default::default(),
            mem_resp_data: Default::default(),
            busy: Default::default(),
            tid_error: Default::default(),
            misrouted: Default::default(),
            tile: Default::default(),
            mem: Default::default(),
            div: Default::default(),
            threads: Default::default(),
            ids: array_init::array_init(|i| Constant::new(Bits::<5>::from(i as u64))),
            mem_ids: array_init::array_init(|m| Constant::new(Bits::<5>::from(16 + MEM_SLOTS[m]))),
            div_ids: array_init::array_init(|d| Constant::new(Bits::<5>::from(26 + d as u64))),
            errors: Default::default(),
            held: Default::default(),
            no_vc: Constant::new(Bits::<VB>::default()),
            no_tid: Constant::new(Bits::<16>::default()),
        }
    }
}

impl<const VCS: usize, const VB: usize> Logic for Fabric<VCS, VB> {
    #[hdl_gen]
    fn update(&mut self) {
        for t in 0..16 {
            self.tile[t].clock.next = self.clock.val();
            self.tile[t].reset.next = self.reset.val();
            self.tile[t].cfg_shift.next = self.route_shift.val();
            self.tile[t].cfg_valid.next =
                self.cfg_unit_valid.val() & (self.cfg_unit_id.val() == self.ids[t].val());
            self.tile[t].cfg_opcode.next = self.cfg_opcode.val();
            self.tile[t].cfg_imm_en.next = self.cfg_imm_en.val();
            self.tile[t].cfg_imm.next = self.cfg_imm.val();
        }
        // route chains: row r enters at tile (r, 0) and runs east
        for r in 0..4 {
            self.tile[r * 4].cfg_in_en.next = self.route_in_en[r].val();
            self.tile[r * 4].cfg_in_sel.next = self.route_in_sel[r].val();
            for c in 1..4 {
                self.tile[r * 4 + c].cfg_in_en.next = self.tile[r * 4 + c - 1].cfg_out_en.val();
                self.tile[r * 4 + c].cfg_in_sel.next = self.tile[r * 4 + c - 1].cfg_out_sel.val();
            }
            self.route_out_en[r].next = self.tile[r * 4 + 3].cfg_out_en.val();
            self.route_out_sel[r].next = self.tile[r * 4 + 3].cfg_out_sel.val();
        }
        for m in 0..10 {
            self.mem[m].clock.next = self.clock.val();
            self.mem[m].reset.next = self.reset.val();
            self.mem[m].cfg_valid.next =
                self.cfg_unit_valid.val() & (self.cfg_unit_id.val() == self.mem_ids[m].val());
            self.mem[m].cfg_store.next = self.cfg_store.val();
            self.mem[m].cfg_indexed.next = self.cfg_indexed.val();
            self.mem[m].cfg_base.next = self.cfg_imm.val();
            self.mem_req_valid[m].next = self.mem[m].mem_req_valid.val();
            self.mem[m].mem_req_ready.next = self.mem_req_ready[m].val();
            self.mem_req_addr[m].next = self.mem[m].mem_req_addr.val();
            self.mem_req_data[m].next = self.mem[m].mem_req_data.val();
            self.mem_req_write[m].next = self.mem[m].mem_req_write.val();
            self.mem_req_tag[m].next = self.mem[m].mem_req_tag.val();
            self.mem[m].mem_resp_valid.next = self.mem_resp_valid[m].val();
            self.mem[m].mem_resp_tag.next = self.mem_resp_tag[m].val();
            self.mem[m].mem_resp_data.next = self.mem_resp_data[m].val();
        }
        for d in 0..2 {
            self.div[d].clock.next = self.clock.val();
            self.div[d].reset.next = self.reset.val();
            self.div[d].cfg_valid.next =
                self.cfg_unit_valid.val() & (self.cfg_unit_id.val() == self.div_ids[d].val());
            self.div[d].cfg_opcode.next = self.cfg_opcode.val().get_bits::<2>(0);
        }
        for k in 0..2 {
            self.threads[k].clock.next = self.clock.val();
            self.threads[k].reset.next = self.reset.val();
            self.threads[k].thread_valid.next = self.thread_valid[k].val();
            self.thread_ready[k].next = self.threads[k].thread_ready.val();
            self.threads[k].thread_tid.next = self.thread_tid[k].val();
            self.done_valid[k].next = self.threads[k].done_valid.val();
            self.done_tid[k].next = self.threads[k].done_tid.val();
            self.done_data[k].next = self.threads[k].done_data.val();
        }
        self.held.next =
            self.threads[0].in_flight.val().any() | self.threads[1].in_flight.val().any();
        self.held.next = self.held.val() | self.div[0].busy.val() | self.div[1].busy.val();
        self.errors.next = self.div[0].tid_error.val() | self.div[1].tid_error.val();
        for t in 0..16 {
            self.held.next = self.held.val() | self.tile[t].busy.val();
            self.errors.next = self.errors.val() | self.tile[t].tid_error.val();
        }
        for m in 0..10 {
            self.held.next = self.held.val() | self.mem[m].busy.val();
            self.errors.next = self.errors.val() | self.mem[m].tid_error.val();
        }
        self.busy.next = self.held.val();
        self.tid_error.next = self.errors.val();
        // n-bound links: tile (r, c) -> tile (r-1, c)
        for r in 1..4 {
            for c in 0..4 {
                self.tile[(r - 1) * 4 + c].s_in_valid.next = self.tile[r * 4 + c].n_out_valid.val();
                self.tile[(r - 1) * 4 + c].s_in_vc.next = self.tile[r * 4 + c].n_out_vc.val();
                self.tile[(r - 1) * 4 + c].s_in_tid.next = self.tile[r * 4 + c].n_out_tid.val();
                self.tile[(r - 1) * 4 + c].s_in_data.next = self.tile[r * 4 + c].n_out_data.val();
                self.tile[r * 4 + c].n_out_ready.next = self.tile[(r - 1) * 4 + c].s_in_ready.val();
            }
        }
        // ne-bound links: tile (r, c) -> tile (r-1, c+1)
        for r in 1..4 {
            for c in 0..3 {
                self.tile[(r - 1) * 4 + c + 1].sw_in_valid.next =
                    self.tile[r * 4 + c].ne_out_valid.val();
                self.tile[(r - 1) * 4 + c + 1].sw_in_vc.next = self.tile[r * 4 + c].ne_out_vc.val();
                self.tile[(r - 1) * 4 + c + 1].sw_in_tid.next =
                    self.tile[r * 4 + c].ne_out_tid.val();
                self.tile[(r - 1) * 4 + c + 1].sw_in_data.next =
                    self.tile[r * 4 + c].ne_out_data.val();
                self.tile[r * 4 + c].ne_out_ready.next =
                    self.tile[(r - 1) * 4 + c + 1].sw_in_ready.val();
            }
        }
        // e-bound links: tile (r, c) -> tile (r, c+1)
        for r in 0..4 {
            for c in 0..3 {
                self.tile[r * 4 + c + 1].w_in_valid.next = self.tile[r * 4 + c].e_out_valid.val();
                self.tile[r * 4 + c + 1].w_in_vc.next = self.tile[r * 4 + c].e_out_vc.val();
                self.tile[r * 4 + c + 1].w_in_tid.next = self.tile[r * 4 + c].e_out_tid.val();
                self.tile[r * 4 + c + 1].w_in_data.next = self.tile[r * 4 + c].e_out_data.val();
                self.tile[r * 4 + c].e_out_ready.next = self.tile[r * 4 + c + 1].w_in_ready.val();
            }
        }
        // se-bound links: tile (r, c) -> tile (r+1, c+1)
        for r in 0..3 {
            for c in 0..3 {
                self.tile[(r + 1) * 4 + c + 1].nw_in_valid.next =
                    self.tile[r * 4 + c].se_out_valid.val();
                self.tile[(r + 1) * 4 + c + 1].nw_in_vc.next = self.tile[r * 4 + c].se_out_vc.val();
                self.tile[(r + 1) * 4 + c + 1].nw_in_tid.next =
                    self.tile[r * 4 + c].se_out_tid.val();
                self.tile[(r + 1) * 4 + c + 1].nw_in_data.next =
                    self.tile[r * 4 + c].se_out_data.val();
                self.tile[r * 4 + c].se_out_ready.next =
                    self.tile[(r + 1) * 4 + c + 1].nw_in_ready.val();
            }
        }
        // s-bound links: tile (r, c) -> tile (r+1, c)
        for r in 0..3 {
            for c in 0..4 {
                self.tile[(r + 1) * 4 + c].n_in_valid.next = self.tile[r * 4 + c].s_out_valid.val();
                self.tile[(r + 1) * 4 + c].n_in_vc.next = self.tile[r * 4 + c].s_out_vc.val();
                self.tile[(r + 1) * 4 + c].n_in_tid.next = self.tile[r * 4 + c].s_out_tid.val();
                self.tile[(r + 1) * 4 + c].n_in_data.next = self.tile[r * 4 + c].s_out_data.val();
                self.tile[r * 4 + c].s_out_ready.next = self.tile[(r + 1) * 4 + c].n_in_ready.val();
            }
        }
        // sw-bound links: tile (r, c) -> tile (r+1, c-1)
        for r in 0..3 {
            for c in 1..4 {
                self.tile[(r + 1) * 4 + c - 1].ne_in_valid.next =
                    self.tile[r * 4 + c].sw_out_valid.val();
                self.tile[(r + 1) * 4 + c - 1].ne_in_vc.next = self.tile[r * 4 + c].sw_out_vc.val();
                self.tile[(r + 1) * 4 + c - 1].ne_in_tid.next =
                    self.tile[r * 4 + c].sw_out_tid.val();
                self.tile[(r + 1) * 4 + c - 1].ne_in_data.next =
                    self.tile[r * 4 + c].sw_out_data.val();
                self.tile[r * 4 + c].sw_out_ready.next =
                    self.tile[(r + 1) * 4 + c - 1].ne_in_ready.val();
            }
        }
        // w-bound links: tile (r, c) -> tile (r, c-1)
        for r in 0..4 {
            for c in 1..4 {
                self.tile[r * 4 + c - 1].e_in_valid.next = self.tile[r * 4 + c].w_out_valid.val();
                self.tile[r * 4 + c - 1].e_in_vc.next = self.tile[r * 4 + c].w_out_vc.val();
                self.tile[r * 4 + c - 1].e_in_tid.next = self.tile[r * 4 + c].w_out_tid.val();
                self.tile[r * 4 + c - 1].e_in_data.next = self.tile[r * 4 + c].w_out_data.val();
                self.tile[r * 4 + c].w_out_ready.next = self.tile[r * 4 + c - 1].e_in_ready.val();
            }
        }
        // nw-bound links: tile (r, c) -> tile (r-1, c-1)
        for r in 1..4 {
            for c in 1..4 {
                self.tile[(r - 1) * 4 + c - 1].se_in_valid.next =
                    self.tile[r * 4 + c].nw_out_valid.val();
                self.tile[(r - 1) * 4 + c - 1].se_in_vc.next = self.tile[r * 4 + c].nw_out_vc.val();
                self.tile[(r - 1) * 4 + c - 1].se_in_tid.next =
                    self.tile[r * 4 + c].nw_out_tid.val();
                self.tile[(r - 1) * 4 + c - 1].se_in_data.next =
                    self.tile[r * 4 + c].nw_out_data.val();
                self.tile[r * 4 + c].nw_out_ready.next =
                    self.tile[(r - 1) * 4 + c - 1].se_in_ready.val();
            }
        }
        // ---- edge slots (the header's table), one loop per kind of unit and side ----
        // Slot `p` on side `o` (n, e, s, w) at a border tile: operand a from the tile's
        // output `o`, operand b from output `o + 1` (the clockwise diagonal), result
        // into input `o`. A border output no slot reads is never ready and flags
        // `misrouted` when offered a token.
        self.misrouted.next = false;
        // north, slots 0, 1: the thread ports inject into tiles (0, 0), (0, 1); no
        // operands, so outputs n and ne lead nowhere
        for k in 0..2 {
            self.tile[k].n_in_valid.next = self.threads[k].inject_valid.val();
            self.tile[k].n_in_vc.next = self.threads[k].inject_vc.val();
            self.tile[k].n_in_tid.next = self.threads[k].inject_tid.val();
            self.tile[k].n_in_data.next = self.threads[k].inject_data.val();
            self.threads[k].inject_ready.next = self.tile[k].n_in_ready.val();
            self.tile[k].n_out_ready.next = false;
            self.misrouted.next = self.misrouted.val() | self.tile[k].n_out_valid.val();
            self.tile[k].ne_out_ready.next = false;
            self.misrouted.next = self.misrouted.val() | self.tile[k].ne_out_valid.val();
        }
        // north, slots 2, 3: the live value units (memory ports 8, 9) at tiles (0, 2), (0, 3)
        for c in 2..4 {
            self.mem[6 + c].a_valid.next = self.tile[c].n_out_valid.val();
            self.mem[6 + c].a_vc.next = self.tile[c].n_out_vc.val();
            self.mem[6 + c].a_tid.next = self.tile[c].n_out_tid.val();
            self.mem[6 + c].a_data.next = self.tile[c].n_out_data.val();
            self.tile[c].n_out_ready.next = self.mem[6 + c].a_ready.val();
            self.mem[6 + c].b_valid.next = self.tile[c].ne_out_valid.val();
            self.mem[6 + c].b_vc.next = self.tile[c].ne_out_vc.val();
            self.mem[6 + c].b_tid.next = self.tile[c].ne_out_tid.val();
            self.mem[6 + c].b_data.next = self.tile[c].ne_out_data.val();
            self.tile[c].ne_out_ready.next = self.mem[6 + c].b_ready.val();
            self.tile[c].n_in_valid.next = self.mem[6 + c].out_valid.val();
            self.tile[c].n_in_vc.next = self.mem[6 + c].out_vc.val();
            self.tile[c].n_in_tid.next = self.mem[6 + c].out_tid.val();
            self.tile[c].n_in_data.next = self.mem[6 + c].out_data.val();
            self.mem[6 + c].out_ready.next = self.tile[c].n_in_ready.val();
        }
        // east, slots 4..7: load/store units 0..3 at tiles (r, 3)
        for r in 0..4 {
            self.mem[r].a_valid.next = self.tile[r * 4 + 3].e_out_valid.val();
            self.mem[r].a_vc.next = self.tile[r * 4 + 3].e_out_vc.val();
            self.mem[r].a_tid.next = self.tile[r * 4 + 3].e_out_tid.val();
            self.mem[r].a_data.next = self.tile[r * 4 + 3].e_out_data.val();
            self.tile[r * 4 + 3].e_out_ready.next = self.mem[r].a_ready.val();
            self.mem[r].b_valid.next = self.tile[r * 4 + 3].se_out_valid.val();
            self.mem[r].b_vc.next = self.tile[r * 4 + 3].se_out_vc.val();
            self.mem[r].b_tid.next = self.tile[r * 4 + 3].se_out_tid.val();
            self.mem[r].b_data.next = self.tile[r * 4 + 3].se_out_data.val();
            self.tile[r * 4 + 3].se_out_ready.next = self.mem[r].b_ready.val();
            self.tile[r * 4 + 3].e_in_valid.next = self.mem[r].out_valid.val();
            self.tile[r * 4 + 3].e_in_vc.next = self.mem[r].out_vc.val();
            self.tile[r * 4 + 3].e_in_tid.next = self.mem[r].out_tid.val();
            self.tile[r * 4 + 3].e_in_data.next = self.mem[r].out_data.val();
            self.mem[r].out_ready.next = self.tile[r * 4 + 3].e_in_ready.val();
        }
        // south, slots 8, 9: the thread ports take last tokens from tiles (3, 0), (3, 1);
        // nothing enters input s, output sw leads nowhere
        for k in 0..2 {
            self.threads[k].last_valid.next = self.tile[12 + k].s_out_valid.val();
            self.threads[k].last_vc.next = self.tile[12 + k].s_out_vc.val();
            self.threads[k].last_tid.next = self.tile[12 + k].s_out_tid.val();
            self.threads[k].last_data.next = self.tile[12 + k].s_out_data.val();
            self.tile[12 + k].s_out_ready.next = self.threads[k].last_ready.val();
            self.tile[12 + k].s_in_valid.next = false;
            self.tile[12 + k].s_in_vc.next = self.no_vc.val();
            self.tile[12 + k].s_in_tid.next = self.no_tid.val();
            self.tile[12 + k].s_in_data.next = 0.into();
            self.tile[12 + k].sw_out_ready.next = false;
            self.misrouted.next = self.misrouted.val() | self.tile[12 + k].sw_out_valid.val();
        }
        // south, slots 10, 11: the divide units at tiles (3, 2), (3, 3)
        for c in 2..4 {
            self.div[c - 2].a_valid.next = self.tile[12 + c].s_out_valid.val();
            self.div[c - 2].a_vc.next = self.tile[12 + c].s_out_vc.val();
            self.div[c - 2].a_tid.next = self.tile[12 + c].s_out_tid.val();
            self.div[c - 2].a_data.next = self.tile[12 + c].s_out_data.val();
            self.tile[12 + c].s_out_ready.next = self.div[c - 2].a_ready.val();
            self.div[c - 2].b_valid.next = self.tile[12 + c].sw_out_valid.val();
            self.div[c - 2].b_vc.next = self.tile[12 + c].sw_out_vc.val();
            self.div[c - 2].b_tid.next = self.tile[12 + c].sw_out_tid.val();
            self.div[c - 2].b_data.next = self.tile[12 + c].sw_out_data.val();
            self.tile[12 + c].sw_out_ready.next = self.div[c - 2].b_ready.val();
            self.tile[12 + c].s_in_valid.next = self.div[c - 2].out_valid.val();
            self.tile[12 + c].s_in_vc.next = self.div[c - 2].out_vc.val();
            self.tile[12 + c].s_in_tid.next = self.div[c - 2].out_tid.val();
            self.tile[12 + c].s_in_data.next = self.div[c - 2].out_data.val();
            self.div[c - 2].out_ready.next = self.tile[12 + c].s_in_ready.val();
        }
        // west, slots 12..15: load/store units 4..7 at tiles (r, 0)
        for r in 0..4 {
            self.mem[4 + r].a_valid.next = self.tile[r * 4].w_out_valid.val();
            self.mem[4 + r].a_vc.next = self.tile[r * 4].w_out_vc.val();
            self.mem[4 + r].a_tid.next = self.tile[r * 4].w_out_tid.val();
            self.mem[4 + r].a_data.next = self.tile[r * 4].w_out_data.val();
            self.tile[r * 4].w_out_ready.next = self.mem[4 + r].a_ready.val();
            self.mem[4 + r].b_valid.next = self.tile[r * 4].nw_out_valid.val();
            self.mem[4 + r].b_vc.next = self.tile[r * 4].nw_out_vc.val();
            self.mem[4 + r].b_tid.next = self.tile[r * 4].nw_out_tid.val();
            self.mem[4 + r].b_data.next = self.tile[r * 4].nw_out_data.val();
            self.tile[r * 4].nw_out_ready.next = self.mem[4 + r].b_ready.val();
            self.tile[r * 4].w_in_valid.next = self.mem[4 + r].out_valid.val();
            self.tile[r * 4].w_in_vc.next = self.mem[4 + r].out_vc.val();
            self.tile[r * 4].w_in_tid.next = self.mem[4 + r].out_tid.val();
            self.tile[r * 4].w_in_data.next = self.mem[4 + r].out_data.val();
            self.mem[4 + r].out_ready.next = self.tile[r * 4].w_in_ready.val();
        }
        // ---- the grid's border: diagonal links to and from outside ----
        // Each side's clockwise diagonal input (o + 1) at every position, and its
        // counter-clockwise one (o - 1) where that is not the previous side's o + 1
        // (the corner); likewise the counter-clockwise diagonal outputs, which no slot
        // reads.
        for c in 0..4 {
            self.tile[c].ne_in_valid.next = false;
            self.tile[c].ne_in_vc.next = self.no_vc.val();
            self.tile[c].ne_in_tid.next = self.no_tid.val();
            self.tile[c].ne_in_data.next = 0.into();
        }
        for c in 1..4 {
            self.tile[c].nw_in_valid.next = false;
            self.tile[c].nw_in_vc.next = self.no_vc.val();
            self.tile[c].nw_in_tid.next = self.no_tid.val();
            self.tile[c].nw_in_data.next = 0.into();
            self.tile[c].nw_out_ready.next = false;
            self.misrouted.next = self.misrouted.val() | self.tile[c].nw_out_valid.val();
        }
        for r in 0..4 {
            self.tile[r * 4 + 3].se_in_valid.next = false;
            self.tile[r * 4 + 3].se_in_vc.next = self.no_vc.val();
            self.tile[r * 4 + 3].se_in_tid.next = self.no_tid.val();
            self.tile[r * 4 + 3].se_in_data.next = 0.into();
        }
        for r in 1..4 {
            self.tile[r * 4 + 3].ne_in_valid.next = false;
            self.tile[r * 4 + 3].ne_in_vc.next = self.no_vc.val();
            self.tile[r * 4 + 3].ne_in_tid.next = self.no_tid.val();
            self.tile[r * 4 + 3].ne_in_data.next = 0.into();
            self.tile[r * 4 + 3].ne_out_ready.next = false;
            self.misrouted.next = self.misrouted.val() | self.tile[r * 4 + 3].ne_out_valid.val();
        }
        for c in 0..4 {
            self.tile[12 + c].sw_in_valid.next = false;
            self.tile[12 + c].sw_in_vc.next = self.no_vc.val();
            self.tile[12 + c].sw_in_tid.next = self.no_tid.val();
            self.tile[12 + c].sw_in_data.next = 0.into();
        }
        for c in 0..3 {
            self.tile[12 + c].se_in_valid.next = false;
            self.tile[12 + c].se_in_vc.next = self.no_vc.val();
            self.tile[12 + c].se_in_tid.next = self.no_tid.val();
            self.tile[12 + c].se_in_data.next = 0.into();
            self.tile[12 + c].se_out_ready.next = false;
            self.misrouted.next = self.misrouted.val() | self.tile[12 + c].se_out_valid.val();
        }
        for r in 0..4 {
            self.tile[r * 4].nw_in_valid.next = false;
            self.tile[r * 4].nw_in_vc.next = self.no_vc.val();
            self.tile[r * 4].nw_in_tid.next = self.no_tid.val();
            self.tile[r * 4].nw_in_data.next = 0.into();
        }
        for r in 0..3 {
            self.tile[r * 4].sw_in_valid.next = false;
            self.tile[r * 4].sw_in_vc.next = self.no_vc.val();
            self.tile[r * 4].sw_in_tid.next = self.no_tid.val();
            self.tile[r * 4].sw_in_data.next = 0.into();
            self.tile[r * 4].sw_out_ready.next = false;
            self.misrouted.next = self.misrouted.val() | self.tile[r * 4].sw_out_valid.val();
        }
    }
}
