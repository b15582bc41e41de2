//! Fabric loader (`vgiw-control-flow-coalescing.txt` §2 "the BBS ... configures the
//! MT-CGRF", §3.5 configuration along rows; SPEC §5): holds every basic block's fabric
//! configuration as a program of 64-bit commands in a RAM the host writes, and on
//! `start` plays one block's program into the fabric's configuration ports
//! (`hdl/cgrf/fabric.rs`): unit writes by address, then the route shifts of the four
//! row chains, then END.
//!
//! ```text
//!  command (64 bits), kind = bits 63:62
//!   0 UNIT  : id 4:0, opcode 8:5, imm_en 9, imm 41:10, store 42, indexed 43
//!   1 ROUTE : row r (0..3): en bit 5r, sel bits 5r+4:5r+1 (one shift of every chain)
//!   2 END   : replicas2 bit 0 (the block runs on both thread ports)
//!   3       : invalid (prog_error), as is any command with a bit of 61:44 set
//! ```
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `prog_write`, `prog_addr`, `prog_data` | in | 1, CAW, 64 | host write of one command |
//! | `start`, `start_addr` | in | 1, CAW | play the program at `start_addr` (taken while not busy) |
//! | `busy` | out | 1 | from the cycle after `start` until the END command has been played |
//! | `replicas2` | out | 1 | the last END's replica flag (registered) |
//! | `route_shift`, `route_in_en[4]`, `route_in_sel[4]` | out | 1, 1, 4 | the fabric's route chains |
//! | `cfg_unit_valid`, `cfg_unit_id`, `cfg_opcode`, `cfg_imm_en`, `cfg_imm`, `cfg_store`, `cfg_indexed` | out | 1, 5, 4, 1, 32, 1, 1 | the fabric's unit configuration write |
//! | `prog_error` | out | 1 | sticky until reset: an invalid command, or a program running off the RAM's end |
//!
//! Timing: the RAM reads synchronously, so the first command is played the cycle after
//! `start`, then one command per cycle: a block of `U` unit writes and 44 shifts keeps
//! `busy` for `U + 45` cycles (END included). Strobes and fields are 0 whenever not
//! busy. The RAM's content is undefined until written: the host writes a program before
//! starting it.
//!
//! Storage: `2^CAW x 64` RAM bits + `CAW + 3` flip-flops.
//!
//! Choices where the paper is silent: the paper's prototype reconfigures in 34 cycles
//! (§2); this loader takes one cycle per unit written and per route shift, so the core
//! holds thread injection until it is done instead of assuming a fixed time; an invalid
//! command or the RAM's end stops the program with `prog_error` (never wraps).
use rust_hdl::prelude::*;

/// Loader of `2^CAW` commands.
#[derive(LogicBlock)]
pub struct FabricLoader<const CAW: usize> {
    pub clock: Signal<In, Clock>,
    /// Synchronous, active high: stops a program, clears `replicas2` and `prog_error`.
    pub reset: Signal<In, Bit>,
    pub prog_write: Signal<In, Bit>,
    pub prog_addr: Signal<In, Bits<CAW>>,
    pub prog_data: Signal<In, Bits<64>>,
    pub start: Signal<In, Bit>,
    pub start_addr: Signal<In, Bits<CAW>>,
    pub busy: Signal<Out, Bit>,
    pub replicas2: Signal<Out, Bit>,
    pub route_shift: Signal<Out, Bit>,
    pub route_in_en: [Signal<Out, Bit>; 4],
    pub route_in_sel: [Signal<Out, Bits<4>>; 4],
    pub cfg_unit_valid: Signal<Out, Bit>,
    pub cfg_unit_id: Signal<Out, Bits<5>>,
    pub cfg_opcode: Signal<Out, Bits<4>>,
    pub cfg_imm_en: Signal<Out, Bit>,
    pub cfg_imm: Signal<Out, Bits<32>>,
    pub cfg_store: Signal<Out, Bit>,
    pub cfg_indexed: Signal<Out, Bit>,
    pub prog_error: Signal<Out, Bit>,
    commands: RAM<Bits<64>, CAW>,
    running: DFF<Bit>,
    /// Address of the command the RAM presents while running.
    pc: DFF<Bits<CAW>>,
    replicas: DFF<Bit>,
    error: DFF<Bit>,
    cmd: Signal<Local, Bits<64>>,
    kind: Signal<Local, Bits<2>>,
    /// Bits 61:44 are reserved: a command with one set is invalid.
    reserved: Signal<Local, Bit>,
    last_addr: Constant<Bits<CAW>>,
    one: Constant<Bits<CAW>>,
    unit_kind: Constant<Bits<2>>,
    route_kind: Constant<Bits<2>>,
    end_kind: Constant<Bits<2>>,
    zero4: Constant<Bits<4>>,
    zero5: Constant<Bits<5>>,
    zero32: Constant<Bits<32>>,
}

impl<const CAW: usize> Default for FabricLoader<CAW> {
    fn default() -> Self {
        assert!(
            (1..=16).contains(&CAW),
            "FabricLoader needs 1 <= CAW <= 16 (got {CAW})"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            prog_write: Default::default(),
            prog_addr: Default::default(),
            prog_data: Default::default(),
            start: Default::default(),
            start_addr: Default::default(),
            busy: Default::default(),
            replicas2: Default::default(),
            route_shift: Default::default(),
            route_in_en: Default::default(),
            route_in_sel: Default::default(),
            cfg_unit_valid: Default::default(),
            cfg_unit_id: Default::default(),
            cfg_opcode: Default::default(),
            cfg_imm_en: Default::default(),
            cfg_imm: Default::default(),
            cfg_store: Default::default(),
            cfg_indexed: Default::default(),
            prog_error: Default::default(),
            commands: Default::default(),
            running: Default::default(),
            pc: Default::default(),
            replicas: Default::default(),
            error: Default::default(),
            cmd: Default::default(),
            kind: Default::default(),
            reserved: Default::default(),
            last_addr: Constant::new(Bits::<CAW>::from((1u64 << CAW) - 1)),
            one: Constant::new(Bits::<CAW>::from(1u64)),
            unit_kind: Constant::new(Bits::<2>::from(0u64)),
            route_kind: Constant::new(Bits::<2>::from(1u64)),
            end_kind: Constant::new(Bits::<2>::from(2u64)),
            zero4: Constant::new(Bits::<4>::default()),
            zero5: Constant::new(Bits::<5>::default()),
            zero32: Constant::new(Bits::<32>::default()),
        }
    }
}

impl<const CAW: usize> Logic for FabricLoader<CAW> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, running, pc, replicas, error);
        self.commands.write_clock.next = self.clock.val();
        self.commands.read_clock.next = self.clock.val();
        self.commands.write_enable.next = self.prog_write.val();
        self.commands.write_address.next = self.prog_addr.val();
        self.commands.write_data.next = self.prog_data.val();
        self.commands.read_address.next = self.pc.q.val();

        self.cmd.next = self.commands.read_data.val();
        self.kind.next = self.cmd.val().get_bits::<2>(62);
        self.reserved.next = self.cmd.val().get_bits::<18>(44).any();
        // Fields are 0 while idle (the RAM's content is undefined until written).
        self.cfg_unit_id.next = self.zero5.val();
        self.cfg_opcode.next = self.zero4.val();
        self.cfg_imm_en.next = false;
        self.cfg_imm.next = self.zero32.val();
        self.cfg_store.next = false;
        self.cfg_indexed.next = false;
        self.cfg_unit_valid.next = false;
        self.route_shift.next = false;
        for r in 0..4 {
            self.route_in_en[r].next = false;
            self.route_in_sel[r].next = self.zero4.val();
        }
        self.busy.next = self.running.q.val();
        self.replicas2.next = self.replicas.q.val();
        self.prog_error.next = self.error.q.val();

        if self.running.q.val() {
            // The next command is read while this one plays.
            self.commands.read_address.next = self.pc.q.val() + self.one.val();
            self.pc.d.next = self.pc.q.val() + self.one.val();
            // Unit fields of every command, strobed below only for a unit write.
            self.cfg_unit_id.next = self.cmd.val().get_bits::<5>(0);
            self.cfg_opcode.next = self.cmd.val().get_bits::<4>(5);
            self.cfg_imm_en.next = self.cmd.val().get_bit(9);
            self.cfg_imm.next = self.cmd.val().get_bits::<32>(10);
            self.cfg_store.next = self.cmd.val().get_bit(42);
            self.cfg_indexed.next = self.cmd.val().get_bit(43);
            if self.reserved.val() {
                self.running.d.next = false;
                self.error.d.next = true;
            } else if self.kind.val() == self.unit_kind.val() {
                self.cfg_unit_valid.next = true;
            } else if self.kind.val() == self.route_kind.val() {
                self.route_shift.next = true;
                self.route_in_en[0].next = self.cmd.val().get_bit(0);
                self.route_in_sel[0].next = self.cmd.val().get_bits::<4>(1);
                self.route_in_en[1].next = self.cmd.val().get_bit(5);
                self.route_in_sel[1].next = self.cmd.val().get_bits::<4>(6);
                self.route_in_en[2].next = self.cmd.val().get_bit(10);
                self.route_in_sel[2].next = self.cmd.val().get_bits::<4>(11);
                self.route_in_en[3].next = self.cmd.val().get_bit(15);
                self.route_in_sel[3].next = self.cmd.val().get_bits::<4>(16);
            } else if self.kind.val() == self.end_kind.val() {
                self.running.d.next = false;
                self.replicas.d.next = self.cmd.val().get_bit(0);
            } else {
                self.running.d.next = false;
                self.error.d.next = true;
            }
            // A program must end before the RAM does.
            if (self.pc.q.val() == self.last_addr.val()) & (self.kind.val() != self.end_kind.val())
            {
                self.running.d.next = false;
                self.error.d.next = true;
            }
        } else if self.start.val() {
            self.commands.read_address.next = self.start_addr.val();
            self.pc.d.next = self.start_addr.val();
            self.running.d.next = true;
        }
        if self.reset.val() {
            self.running.d.next = false;
            self.replicas.d.next = false;
            self.error.d.next = false;
        }
    }
}
