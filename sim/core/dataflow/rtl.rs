//! A lowered kernel ([`graph`]) as a program of weft's RTL VGIW core (`vgiw_core`): each
//! lowered block becomes a fabric dataflow graph ([`Dfg`]) with its successors, and the
//! kernel's image (after `weft_setup`) the core's initial data memory, so that a C kernel
//! runs on the RTL (docs/core.md §7).
//!
//! Per block, the graph is built from the block's roots (its stores, its live-value
//! writes and its branch compare) back through their operands, so a value nothing uses
//! costs no unit:
//! - the thread index is the `Thread` node; `ntid` and the CTA size are constants; the
//!   CTA index is a shift (a power-of-two CTA) or a divide of the thread index;
//! - an integer operation is a compute unit (`Add` .. `Ltu`), its constant last operand
//!   the unit's immediate (a constant first operand of a commutative operation is
//!   swapped last; `sltu rd, x0, rs` becomes `Ne rs, 0`); a constant that must be a
//!   link is made once per block from the thread token (`And t, 0`, then `Or 0, c`);
//!   moves (`addi rd, rs, 0`, `fmv.x.w`, ...) cost nothing;
//! - `div`, `divu`, `rem`, `remu` go to a divide unit; `fadd.s` and `fmul.s` (rounding
//!   to nearest even) to `FAdd` / `FMul`, which flush subnormals (the functional run
//!   keeps them: a kernel whose float values are subnormal gives other bytes);
//! - `lw`/`flw` and `sw`/`fsw` are the load/store units: an address that is
//!   `4 tid + c` (found by following adds, shifts and multiplies by constants from the
//!   thread index) uses the unit's indexed mode, base `c`, and needs no compute unit;
//!   any other address is a link;
//! - a memory-order edge (lowered: a later access that may touch an earlier one's bytes,
//!   one of them a store) is kept by making the later access wait for the earlier
//!   one's token: the trigger of an indexed load, otherwise a `Select(p, x, x)` (value
//!   `x`, fired only when `p` is in) on its address (or, indexed store, its data); an
//!   edge already implied by the operands costs nothing. The memory tile answers a store
//!   once it is written, so the wait orders the two accesses;
//! - live values are the live value units: a read triggered by the thread token, a
//!   write of the value at the register's id (`LV_BASE + reg * 4 * 2^16 + 4 tid`); a
//!   register no block reads as a live value is not written (the lowering writes a
//!   register live into a successor that does not know it as a constant, even when
//!   every block that then reads it knows it as one: such a write would take a live
//!   value unit for nothing);
//! - the sinks (stores, live-value writes: zero tokens; the branch compare: 0 or 1) are
//!   joined into `End` with `Select(z1, z2, v)` (= `v` when `z1` is 0) per two zero
//!   tokens, so End's bit 0 is the branch outcome: outcome 1 goes to `succ[1]`
//!   (`bge`/`bgeu` are computed as `Lt`/`Ltu` and the successors swapped).
//!
//! Refused, with the block, the node, its instruction and address: an operation outside
//! the 16 compute opcodes and the divides (`mulh*`, `fsub.s`, `fmadd.s`, float
//! compares and conversions, ...), a float operation with a static rounding mode other
//! than nearest even, a sub-word access (`lb`, `lh`, `sb`, `sh`: the memory tile has no
//! byte enables), an access known to reach a thread's stack (every thread's `sp` starts
//! at one address, the RTL's memory has one copy) or CTA-shared memory, a barrier, a
//! block needing more units of a class than the fabric has per replica (16 compute, 8
//! load/store, 2 live value, 2 divide) or failing to place and route, more blocks than
//! the core's table holds (8), more threads than a tile (256), and an image reaching the
//! live value space. A block whose graph fits twice is placed as two replicas when it
//! routes, else as one.
use super::graph::{Coordinate, NodeKind as Lowered, Program as LoweredProgram, Terminator};
use super::lower;
use crate::cgrf::compute_unit::{execute, Opcode};
use crate::cgrf::dataflow::{Dfg, NodeKind, LV_BASE};
use crate::cgrf::fabric::place_and_route;
use crate::cgrf::special_compute_unit::DivOp;
use crate::core::functional::{self, is_private, Launch};
use crate::core::image::Image;
use crate::core::isa::Op;
use crate::vgiw::program::{Program, ProgramBlock};
use std::collections::HashMap;

/// Blocks in the core's block table.
pub const BLOCKS: usize = 8;
/// Threads of a tile (the control vector table's threads): the most a launch may have.
pub const THREADS: u32 = 256;
/// Units of the fabric by class (`sim/cgrf/fabric.rs`), shared by the replicas.
pub const COMPUTE_UNITS: usize = 16;
pub const LOAD_STORE_UNITS: usize = 8;
pub const LIVE_VALUE_UNITS: usize = 2;
pub const DIVIDE_UNITS: usize = 2;

/// A kernel ready for the RTL core.
#[derive(Clone, Debug)]
pub struct RtlKernel {
    pub program: Program,
    /// The data memory before the launch: every word of the image after `weft_setup`,
    /// by byte address.
    pub memory: HashMap<u32, u32>,
    pub threads: u32,
}

/// Lowers `kernel`, runs its `weft_setup` functionally (at most `limit` instructions)
/// and translates it for the RTL core; `Err` says what the RTL cannot run.
pub fn build(kernel: functional::Program, launch: Launch, limit: u64) -> Result<RtlKernel, String> {
    let lowered = lower::lower(&kernel)?;
    let functional::Program { mut image, code } = kernel;
    functional::run_setup(&code, &mut image, launch, limit)?;
    translate(&lowered, &image, launch)
}

/// The RTL program of `lowered` over `image` (its data as the launch starts).
pub fn translate(
    lowered: &LoweredProgram,
    image: &Image,
    launch: Launch,
) -> Result<RtlKernel, String> {
    if launch.threads > THREADS {
        return Err(format!(
            "the launch has {} threads, a tile of the RTL core holds {THREADS}",
            launch.threads
        ));
    }
    if lowered.blocks.len() > BLOCKS {
        return Err(format!(
            "the kernel lowers to {} blocks, the RTL core's block table holds {BLOCKS}",
            lowered.blocks.len()
        ));
    }
    if !image.base.is_multiple_of(4) || image.end() > u64::from(LV_BASE) {
        return Err(format!(
            "the image spans {:#x}..{:#x}: the RTL's data memory takes word-aligned images below the live value space at {LV_BASE:#x}",
            image.base,
            image.end()
        ));
    }
    let mut blocks = vec![];
    for b in 0..lowered.blocks.len() {
        let (dfg, succ, exit) = Translator::new(lowered, b, image, launch).run()?;
        let replicas = replicas(&dfg)
            .map_err(|e| format!("block {b} does not place and route on the fabric: {e}"))?;
        blocks.push(ProgramBlock {
            dfg,
            succ,
            exit,
            replicas,
        });
    }
    let memory = image
        .bytes
        .chunks(4)
        .enumerate()
        .map(|(i, w)| {
            let mut word = [0u8; 4];
            word[..w.len()].copy_from_slice(w);
            (image.base + 4 * i as u32, u32::from_le_bytes(word))
        })
        .collect();
    let program = Program { blocks };
    program.validate(BLOCKS)?;
    Ok(RtlKernel {
        program,
        memory,
        threads: launch.threads,
    })
}

/// Two replicas when the graph fits twice and routes so, else one.
fn replicas(dfg: &Dfg) -> Result<usize, String> {
    let u = Units::of(dfg);
    if u.fits(2) && place_and_route(dfg, 2).is_ok() {
        return Ok(2);
    }
    place_and_route(dfg, 1).map(|_| 1)
}

/// Units a graph takes per replica, by class.
struct Units {
    compute: usize,
    load_store: usize,
    live_value: usize,
    divide: usize,
}

impl Units {
    fn of(dfg: &Dfg) -> Units {
        let count = |f: fn(&NodeKind) -> bool| dfg.nodes.iter().filter(|n| f(&n.kind)).count();
        Units {
            compute: count(|k| matches!(k, NodeKind::Compute { .. })),
            load_store: count(|k| matches!(k, NodeKind::Load { .. } | NodeKind::Store { .. })),
            live_value: count(|k| {
                matches!(
                    k,
                    NodeKind::LiveValueRead { .. } | NodeKind::LiveValueWrite { .. }
                )
            }),
            divide: count(|k| matches!(k, NodeKind::Divide { .. })),
        }
    }

    fn fits(&self, replicas: usize) -> bool {
        self.compute * replicas <= COMPUTE_UNITS
            && self.load_store * replicas <= LOAD_STORE_UNITS
            && self.live_value * replicas <= LIVE_VALUE_UNITS
            && self.divide * replicas <= DIVIDE_UNITS
    }
}

/// Whether a graph node is of a unit class.
type IsClass = fn(&NodeKind) -> bool;

/// A lowered node's value in the graph being built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    Const(u32),
    Node(usize),
}

/// Where an access goes: `base + 4 tid` (indexed) or a node's value.
enum Address {
    Indexed(u32),
    Node(usize),
}

/// Builds one block's graph.
struct Translator<'a> {
    lowered: &'a LoweredProgram,
    b: usize,
    image: &'a Image,
    launch: Launch,
    dfg: Dfg,
    thread: usize,
    /// Per lowered node: its value once built.
    built: Vec<Option<Val>>,
    /// Per lowered node: `(k, c)` when its value is `k * tid + c` for every thread.
    affine: Vec<Option<(u32, u32)>>,
    /// Per lowered node: a root or an operand of one (what the block must compute).
    needed: Vec<bool>,
    /// Constants made as links, and the zero they are made from.
    consts: HashMap<u32, usize>,
    /// Per graph node: the lowered node it was built for (messages name it).
    origin: Vec<Option<usize>>,
    /// The lowered node being built (the origin of the nodes pushed meanwhile).
    current: Option<usize>,
    /// Zero tokens End must wait for (stores, live-value writes).
    sinks: Vec<usize>,
}

impl<'a> Translator<'a> {
    fn new(lowered: &'a LoweredProgram, b: usize, image: &'a Image, launch: Launch) -> Self {
        let n = lowered.blocks[b].nodes.len();
        let mut dfg = Dfg::default();
        let thread = dfg.push(NodeKind::Thread);
        let mut t = Translator {
            lowered,
            b,
            image,
            launch,
            dfg,
            thread,
            built: vec![None; n],
            affine: vec![None; n],
            needed: vec![false; n],
            consts: HashMap::new(),
            origin: vec![None],
            current: None,
            sinks: vec![],
        };
        t.analyse();
        t
    }

    fn block(&self) -> &'a super::graph::Block {
        &self.lowered.blocks[self.b]
    }

    /// `needed` (roots and their operands, backwards) and `affine` (forwards).
    fn analyse(&mut self) {
        let block = self.block();
        let mut roots: Vec<usize> = block.writes.iter().map(|w| w.1).collect();
        roots.extend((0..block.nodes.len()).filter(|&i| block.nodes[i].is_store()));
        if let Terminator::Branch { cond, .. } = block.terminator {
            roots.push(cond);
        }
        for r in roots {
            self.needed[r] = true;
        }
        for i in (0..block.nodes.len()).rev() {
            if self.needed[i] {
                for &a in &block.nodes[i].args {
                    self.needed[a] = true;
                }
            }
        }
        for i in 0..block.nodes.len() {
            self.affine[i] = self.affine_of(i);
        }
    }

    fn affine_of(&self, i: usize) -> Option<(u32, u32)> {
        let node = &self.block().nodes[i];
        match node.kind {
            Lowered::Const(c) => Some((0, c)),
            Lowered::Coordinate(Coordinate::Tid) => Some((1, 0)),
            Lowered::Coordinate(Coordinate::Ntid) => Some((0, self.launch.threads)),
            Lowered::Coordinate(Coordinate::CtaSize) => Some((0, self.launch.cta)),
            Lowered::Coordinate(Coordinate::Ctaid) | Lowered::LiveIn(_) => None,
            Lowered::Inst { inst, .. } => {
                let ops = self.operand_nodes(i);
                let of = |k: usize| match ops[k] {
                    Some(n) => self.affine[n],
                    None => Some((0, 0)), // x0
                };
                let imm = inst.imm as u32;
                match inst.op {
                    Op::Add => {
                        let ((k1, c1), (k2, c2)) = (of(0)?, of(1)?);
                        Some((k1.wrapping_add(k2), c1.wrapping_add(c2)))
                    }
                    Op::Sub => {
                        let ((k1, c1), (k2, c2)) = (of(0)?, of(1)?);
                        Some((k1.wrapping_sub(k2), c1.wrapping_sub(c2)))
                    }
                    Op::Addi => of(0).map(|(k, c)| (k, c.wrapping_add(imm))),
                    Op::Slli => of(0).map(|(k, c)| (k << (imm & 31), c << (imm & 31))),
                    Op::Mul => match (of(0)?, of(1)?) {
                        ((k, c), (0, m)) | ((0, m), (k, c)) => {
                            Some((k.wrapping_mul(m), c.wrapping_mul(m)))
                        }
                        _ => None,
                    },
                    _ => None,
                }
            }
        }
    }

    /// The lowered nodes giving node `i`'s operands, by [`crate::core::isa::Inst::registers`]
    /// position (`None`: `x0` or no operand there).
    fn operand_nodes(&self, i: usize) -> [Option<usize>; 3] {
        let node = &self.block().nodes[i];
        let mut ops = [None; 3];
        if let Lowered::Inst { inst, .. } = node.kind {
            let mut args = node.args.iter();
            for (k, r) in inst.registers().reads.iter().enumerate() {
                if r.is_some() {
                    ops[k] = args.next().copied();
                }
            }
        }
        ops
    }

    /// Does some block of the kernel read live value `r`?
    fn read_anywhere(&self, r: u8) -> bool {
        self.lowered
            .blocks
            .iter()
            .any(|b| b.reads().any(|x| x == r))
    }

    /// What a message calls lowered node `i`.
    fn describe(&self, i: usize) -> String {
        let b = self.b;
        match self.block().nodes[i].kind {
            Lowered::Inst { inst, pc } => {
                format!("`{}` at {pc:#x} (node {i} of block {b})", inst.mnemonic())
            }
            Lowered::LiveIn(r) => format!(
                "the read of live value {} (node {i} of block {b})",
                reg_name(r)
            ),
            Lowered::Coordinate(c) => format!("the coordinate {c:?} (node {i} of block {b})"),
            Lowered::Const(c) => format!("the constant {c:#x} (node {i} of block {b})"),
        }
    }

    fn push(&mut self, kind: NodeKind) -> usize {
        self.origin.push(self.current);
        self.dfg.push(kind)
    }

    fn compute(&mut self, op: Opcode, imm: Option<u32>, inputs: Vec<usize>) -> usize {
        self.push(NodeKind::Compute {
            opcode: op as u8,
            imm,
            inputs,
        })
    }

    /// Constant `c` as a link: `And t, 0` once per block, then `Or 0, c`.
    fn constant(&mut self, c: u32) -> usize {
        if let Some(&n) = self.consts.get(&c) {
            return n;
        }
        let zero = match self.consts.get(&0) {
            Some(&z) => z,
            None => {
                let z = self.compute(Opcode::And, Some(0), vec![self.thread]);
                self.consts.insert(0, z);
                z
            }
        };
        if c == 0 {
            return zero;
        }
        let n = self.compute(Opcode::Or, Some(c), vec![zero]);
        self.consts.insert(c, n);
        n
    }

    fn link(&mut self, v: Val) -> usize {
        match v {
            Val::Node(n) => n,
            Val::Const(c) => self.constant(c),
        }
    }

    /// `op x, y` with the fewest units: folded, a move, or one compute unit.
    fn binary(&mut self, op: Opcode, x: Val, y: Val) -> Val {
        use Opcode::*;
        let commutative = matches!(op, Add | Mul | And | Or | Xor | Eq | Ne | FAdd | FMul);
        match (x, y) {
            (Val::Const(a), Val::Const(b)) => Val::Const(execute(op, a, b, 0)),
            (Val::Node(n), Val::Const(c)) => {
                let identity = match op {
                    Add | Sub | Or | Xor => c == 0,
                    Shl | Shr | Sra => c & 31 == 0,
                    Mul => c == 1,
                    And => c == u32::MAX,
                    _ => false,
                };
                if identity {
                    x
                } else {
                    Val::Node(self.compute(op, Some(c), vec![n]))
                }
            }
            (Val::Const(_), Val::Node(_)) if commutative => self.binary(op, y, x),
            (Val::Const(0), Val::Node(n)) if op == Ltu => {
                Val::Node(self.compute(Ne, Some(0), vec![n]))
            }
            _ => {
                let (a, b) = (self.link(x), self.link(y));
                Val::Node(self.compute(op, None, vec![a, b]))
            }
        }
    }

    /// Is graph node `p` an ancestor of (or) any of `of`?
    fn reaches(&self, p: usize, of: &[usize]) -> bool {
        let mut seen = vec![false; self.dfg.nodes.len()];
        let mut todo: Vec<usize> = of.to_vec();
        while let Some(n) = todo.pop() {
            if n == p {
                return true;
            }
            if n < p || std::mem::replace(&mut seen[n], true) {
                continue;
            }
            todo.extend(self.dfg.nodes[n].kind.inputs());
        }
        false
    }

    /// Builds lowered node `i` (and what it needs); memoised.
    fn value(&mut self, i: usize) -> Result<Val, String> {
        if let Some(v) = self.built[i] {
            return Ok(v);
        }
        let outer = self.current.replace(i);
        let v = self.build_node(i);
        self.current = outer;
        let v = v?;
        self.built[i] = Some(v);
        Ok(v)
    }

    fn build_node(&mut self, i: usize) -> Result<Val, String> {
        let node = &self.block().nodes[i];
        let (inst, pc) = match node.kind {
            Lowered::Const(c) => return Ok(Val::Const(c)),
            Lowered::LiveIn(r) => {
                let trigger = self.thread;
                return Ok(Val::Node(self.push(NodeKind::LiveValueRead {
                    id: u32::from(r),
                    trigger,
                })));
            }
            Lowered::Coordinate(c) => {
                let t = Val::Node(self.thread);
                return Ok(match c {
                    Coordinate::Tid => t,
                    Coordinate::Ntid => Val::Const(self.launch.threads),
                    Coordinate::CtaSize => Val::Const(self.launch.cta),
                    Coordinate::Ctaid if self.launch.cta.is_power_of_two() => {
                        self.binary(Opcode::Shr, t, Val::Const(self.launch.cta.trailing_zeros()))
                    }
                    Coordinate::Ctaid => self.divide(DivOp::Divu, t, Val::Const(self.launch.cta)),
                });
            }
            Lowered::Inst { inst, pc } => (inst, pc),
        };
        if inst.is_load() || inst.is_store() {
            return self.access(i);
        }
        let ops = self.operand_nodes(i);
        let mut vals = [Val::Const(0); 3];
        for (k, op) in ops.iter().enumerate() {
            if let Some(n) = *op {
                vals[k] = self.value(n)?;
            }
        }
        let [a, b, _] = vals;
        let imm = Val::Const(inst.imm as u32);
        let m = inst.mnemonic();
        let float = |what: &str| {
            format!(
                "{}: {what}; the RTL's float operations are `FAdd` and `FMul` (nearest even)",
                self.describe(i)
            )
        };
        use Opcode as O;
        let (op, x, y) = match inst.op {
            Op::Add => (O::Add, a, b),
            Op::Addi => (O::Add, a, imm),
            Op::Sub => (O::Sub, a, b),
            Op::Mul => (O::Mul, a, b),
            Op::And => (O::And, a, b),
            Op::Andi => (O::And, a, imm),
            Op::Or => (O::Or, a, b),
            Op::Ori => (O::Or, a, imm),
            Op::Xor => (O::Xor, a, b),
            Op::Xori => (O::Xor, a, imm),
            Op::Sll => (O::Shl, a, b),
            Op::Slli => (O::Shl, a, imm),
            Op::Srl => (O::Shr, a, b),
            Op::Srli => (O::Shr, a, imm),
            Op::Sra => (O::Sra, a, b),
            Op::Srai => (O::Sra, a, imm),
            Op::Slt => (O::Lt, a, b),
            Op::Slti => (O::Lt, a, imm),
            Op::Sltu => (O::Ltu, a, b),
            Op::Sltiu => (O::Ltu, a, imm),
            Op::Lui => return Ok(Val::Const(inst.imm as u32)),
            Op::Auipc => return Ok(Val::Const(pc.wrapping_add(inst.imm as u32))),
            Op::Div => return Ok(self.divide(DivOp::Div, a, b)),
            Op::Divu => return Ok(self.divide(DivOp::Divu, a, b)),
            Op::Rem => return Ok(self.divide(DivOp::Rem, a, b)),
            Op::Remu => return Ok(self.divide(DivOp::Remu, a, b)),
            // Bit moves between the register files.
            Op::FmvXW | Op::FmvWX => return Ok(a),
            Op::FsgnjS if inst.rs1 == inst.rs2 => return Ok(a), // fmv.s
            Op::FaddS | Op::FmulS if matches!(inst.rm, 0 | 7) => {
                let op = if inst.op == Op::FaddS { O::FAdd } else { O::FMul };
                (op, a, b)
            }
            Op::FaddS | Op::FmulS => {
                return Err(float(&format!(
                    "rounding mode {} (only nearest even, 0, or the dynamic 0 of the run)",
                    inst.rm
                )))
            }
            Op::FsubS | Op::FmaddS | Op::FmsubS | Op::FnmsubS | Op::FnmaddS | Op::FdivS
            | Op::FsqrtS | Op::FsgnjS | Op::FsgnjnS | Op::FsgnjxS | Op::FminS | Op::FmaxS
            | Op::FcvtWS | Op::FcvtWuS | Op::FeqS | Op::FltS | Op::FleS | Op::FclassS
            | Op::FcvtSW | Op::FcvtSWu => {
                return Err(float(&format!("the RTL has no `{m}`")));
            }
            _ => {
                return Err(format!(
                    "{}: the RTL has no `{m}` (its compute units do add, sub, mul (low word), and, or, xor, the shifts, the compares and select; its divide units div, divu, rem, remu)",
                    self.describe(i)
                ))
            }
        };
        Ok(self.binary(op, x, y))
    }

    fn divide(&mut self, op: DivOp, a: Val, b: Val) -> Val {
        let (a, b) = (self.link(a), self.link(b));
        Val::Node(self.push(NodeKind::Divide {
            op: op as u8,
            inputs: vec![a, b],
        }))
    }

    /// Load or store node `i`.
    fn access(&mut self, i: usize) -> Result<Val, String> {
        let node = &self.block().nodes[i];
        let Lowered::Inst { inst, .. } = node.kind else {
            unreachable!("an access is an instruction")
        };
        if !matches!(inst.op, Op::Lw | Op::Flw | Op::Sw | Op::Fsw) {
            return Err(format!(
                "{}: a sub-word access; the RTL's memory tile reads and writes whole 32-bit words (no byte enables)",
                self.describe(i)
            ));
        }
        let ops = self.operand_nodes(i);
        let offset = inst.imm as u32;
        let base_affine = match ops[0] {
            Some(n) => self.affine[n],
            None => Some((0, 0)),
        };
        let fixed = |base: u32| -> Result<(), String> {
            let (start, end) = self.image.shared.range;
            if is_private(base) {
                Err(format!(
                    "{}: a stack access at {base:#x}; every thread's stack starts at the same address and the RTL's memory has one copy",
                    self.describe(i)
                ))
            } else if start <= base && base < end {
                Err(format!(
                    "{}: an access to CTA-shared memory at {base:#x}; the RTL core has none",
                    self.describe(i)
                ))
            } else {
                Ok(())
            }
        };
        let address = match base_affine {
            Some((0, c)) => {
                let at = c.wrapping_add(offset);
                fixed(at)?;
                Address::Node(self.constant(at))
            }
            Some((4, c)) => {
                let base = c.wrapping_add(offset);
                fixed(base)?;
                Address::Indexed(base)
            }
            _ => {
                let base = self.value(ops[0].expect("a non-affine base is a register"))?;
                let at = self.binary(Opcode::Add, base, Val::Const(offset));
                Address::Node(self.link(at))
            }
        };
        let data = match ops[1] {
            Some(n) if inst.is_store() => Some(self.value(n)?),
            None if inst.is_store() => Some(Val::Const(0)),
            _ => None,
        };
        let mut data = data.map(|d| self.link(d));
        // Order: wait for every earlier access this one follows that the block builds
        // and that its own operands do not already wait for.
        let mut before = vec![];
        for &p in &self.block().nodes[i].after {
            if self.needed[p] || self.block().nodes[p].is_store() {
                if let Val::Node(n) = self.value(p)? {
                    before.push(n);
                }
            }
        }
        let mut own: Vec<usize> = data.into_iter().collect();
        if let Address::Node(a) = address {
            own.push(a);
        }
        before.retain(|&p| !self.reaches(p, &own));
        let wait = before
            .into_iter()
            .reduce(|x, y| self.compute(Opcode::Or, None, vec![x, y]));
        let gate = |t: &mut Self, v: usize| match wait {
            Some(w) => t.push(NodeKind::Compute {
                opcode: Opcode::Select as u8,
                imm: None,
                inputs: vec![w, v, v],
            }),
            None => v,
        };
        let n = match (address, inst.is_store()) {
            (Address::Indexed(base), false) => self.push(NodeKind::Load {
                indexed_base: Some(base),
                input: wait.unwrap_or(self.thread),
            }),
            (Address::Node(a), false) => {
                let a = gate(self, a);
                self.push(NodeKind::Load {
                    indexed_base: None,
                    input: a,
                })
            }
            (Address::Indexed(base), true) => {
                data = data.map(|d| gate(self, d));
                self.push(NodeKind::Store {
                    indexed_base: Some(base),
                    inputs: data.into_iter().collect(),
                })
            }
            (Address::Node(a), true) => {
                let a = gate(self, a);
                self.push(NodeKind::Store {
                    indexed_base: None,
                    inputs: vec![a, data.expect("a store has data")],
                })
            }
        };
        if inst.is_store() {
            self.sinks.push(n);
        }
        Ok(Val::Node(n))
    }

    /// The branch compare of the block: its node and whether its value is the outcome
    /// negated (`None`: the outcome is the constant given).
    fn branch(&mut self, cond: usize) -> Result<Result<(usize, bool), bool>, String> {
        let node = &self.block().nodes[cond];
        let inst = match node.kind {
            Lowered::Const(c) => return Ok(Err(c != 0)),
            Lowered::Inst { inst, .. } if inst.is_branch() => inst,
            _ => unreachable!("a branch's condition is its compare or a folded constant"),
        };
        self.current = Some(cond);
        let ops = self.operand_nodes(cond);
        let mut vals = [Val::Const(0); 2];
        for (k, val) in vals.iter_mut().enumerate() {
            if let Some(n) = ops[k] {
                *val = self.value(n)?;
            }
        }
        let [mut a, mut b] = vals;
        let (op, mut negate) = match inst.op {
            Op::Beq => (Opcode::Eq, false),
            Op::Bne => (Opcode::Ne, false),
            Op::Blt => (Opcode::Lt, false),
            Op::Bge => (Opcode::Lt, true),
            Op::Bltu => (Opcode::Ltu, false),
            _ => (Opcode::Ltu, true), // bgeu
        };
        // c < x is !(x < c + 1): the constant goes to the immediate.
        if let (Val::Const(c), Val::Node(_)) = (a, b) {
            let room = match op {
                Opcode::Lt => c as i32 != i32::MAX,
                Opcode::Ltu => c != u32::MAX,
                _ => false,
            };
            if room {
                (a, b) = (b, Val::Const(c.wrapping_add(1)));
                negate = !negate;
            }
        }
        Ok(match self.binary(op, a, b) {
            Val::Node(n) => Ok((n, negate)),
            Val::Const(c) => Err((c != 0) != negate),
        })
    }

    /// The block's graph, successors and exits.
    fn run(mut self) -> Result<(Dfg, [usize; 2], [bool; 2]), String> {
        let block = self.block();
        if let Terminator::Barrier(_) = block.terminator {
            return Err(format!(
                "block {} ends with a barrier (`csrw 0x8c0` at {:#x}); the RTL core has none",
                self.b,
                block.pcs.last().copied().unwrap_or(0)
            ));
        }
        for i in 0..block.nodes.len() {
            if block.nodes[i].is_store() {
                self.value(i)?;
            }
        }
        for &(r, n) in &block.writes {
            if !self.read_anywhere(r) {
                continue; // a live value no block reads (see the file header)
            }
            self.current = Some(n);
            let v = self.value(n)?;
            let input = self.link(v);
            let w = self.push(NodeKind::LiveValueWrite {
                id: u32::from(r),
                input,
            });
            self.sinks.push(w);
        }
        let (value, succ, exit) = match block.terminator {
            Terminator::Branch {
                cond,
                taken,
                not_taken,
            } => match self.branch(cond)? {
                Ok((n, false)) => (Some(n), [not_taken, taken], [false; 2]),
                Ok((n, true)) => (Some(n), [taken, not_taken], [false; 2]),
                Err(outcome) => {
                    let to = if outcome { taken } else { not_taken };
                    (None, [to, to], [false; 2])
                }
            },
            Terminator::Jump(to) => (None, [to, to], [false; 2]),
            Terminator::Exit => (None, [0, 0], [true; 2]),
            Terminator::Barrier(_) => unreachable!("refused above"),
        };
        self.current = None;
        // End: the outcome (or a zero token) after every zero token; Select(z1, z2, v)
        // is v when z1 is 0, so each unit joins two of them.
        let mut zeros = std::mem::take(&mut self.sinks);
        let mut acc = value.or_else(|| zeros.pop()).unwrap_or(self.thread);
        while zeros.len() >= 2 {
            let (z1, z2) = (zeros.pop().unwrap_or(acc), zeros.pop().unwrap_or(acc));
            acc = self.push(NodeKind::Compute {
                opcode: Opcode::Select as u8,
                imm: None,
                inputs: vec![z1, z2, acc],
            });
        }
        if let Some(z) = zeros.pop() {
            acc = self.compute(Opcode::Or, None, vec![z, acc]);
        }
        self.push(NodeKind::End { input: acc });
        self.check_units()?;
        self.dfg
            .validate()
            .map_err(|e| format!("block {}: {e} (a translation bug)", self.b))?;
        Ok((self.dfg, succ, exit))
    }

    /// Refuses a graph that needs more units of a class than the fabric has, naming the
    /// first node past the limit.
    fn check_units(&self) -> Result<(), String> {
        let classes: [(&str, usize, IsClass); 4] = [
            ("compute", COMPUTE_UNITS, |k| {
                matches!(k, NodeKind::Compute { .. })
            }),
            ("load/store", LOAD_STORE_UNITS, |k| {
                matches!(k, NodeKind::Load { .. } | NodeKind::Store { .. })
            }),
            ("live value", LIVE_VALUE_UNITS, |k| {
                matches!(
                    k,
                    NodeKind::LiveValueRead { .. } | NodeKind::LiveValueWrite { .. }
                )
            }),
            ("divide", DIVIDE_UNITS, |k| {
                matches!(k, NodeKind::Divide { .. })
            }),
        ];
        for (name, limit, is) in classes {
            let nodes: Vec<usize> = (0..self.dfg.nodes.len())
                .filter(|&n| is(&self.dfg.nodes[n].kind))
                .collect();
            if nodes.len() > limit {
                let past = nodes[limit];
                let what = match self.origin[past] {
                    Some(i) => self.describe(i),
                    None => "the join of the block's sinks into End".to_string(),
                };
                let detail = if name == "live value" {
                    let block = self.block();
                    let reads: Vec<String> = block.reads().map(reg_name).collect();
                    let writes: Vec<String> = block
                        .writes
                        .iter()
                        .filter(|w| self.read_anywhere(w.0))
                        .map(|w| reg_name(w.0))
                        .collect();
                    format!(" (reads {}; writes {})", list(&reads), list(&writes))
                } else {
                    String::new()
                };
                return Err(format!(
                    "block {} needs {} {name} units{detail}, the fabric has {limit}: the first past them is for {what}",
                    self.b,
                    nodes.len()
                ));
            }
        }
        Ok(())
    }
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

/// A register as the lowering numbers them: `x1..x31`, then `f0..f31`.
fn reg_name(r: u8) -> String {
    if r < 32 {
        format!("x{r}")
    } else {
        format!("f{}", r - 32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::asm::*;
    use crate::core::functional::STACK_TOP;

    const LIMIT: u64 = 1_000_000;

    fn r_type(f7: u32, rs2: u32, rs1: u32, f3: u32, rd: u32) -> u32 {
        (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | 0x33
    }
    /// An RV32F operation (`opcode` 0x53): `f7` selects it, `rm` the rounding mode.
    fn f_type(f7: u32, rs2: u32, rs1: u32, rm: u32, rd: u32) -> u32 {
        (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (rm << 12) | (rd << 7) | 0x53
    }

    /// `words` with `data` at `DATA`, lowered and translated for `threads` threads.
    fn translated(words: &[u32], data: &[u32], threads: u32) -> Result<RtlKernel, String> {
        let mut img = image(words);
        for (i, w) in data.iter().enumerate() {
            let at = (DATA - CODE) as usize + 4 * i;
            img.bytes[at..at + 4].copy_from_slice(&w.to_le_bytes());
        }
        let launch = Launch::new(threads, threads.min(64)).map_err(|e| e.to_string())?;
        build(functional::Program::new(img), launch, LIMIT)
    }

    /// The functional run's image of the same kernel, as words by address.
    fn functional_words(words: &[u32], data: &[u32], threads: u32) -> HashMap<u32, u32> {
        let mut img = image(words);
        for (i, w) in data.iter().enumerate() {
            let at = (DATA - CODE) as usize + 4 * i;
            img.bytes[at..at + 4].copy_from_slice(&w.to_le_bytes());
        }
        let launch = Launch::new(threads, threads.min(64)).unwrap();
        let run = functional::run(functional::Program::new(img), launch, LIMIT).unwrap();
        let base = run.image.base;
        run.image
            .bytes
            .chunks(4)
            .enumerate()
            .map(|(i, w)| {
                (
                    base + 4 * i as u32,
                    u32::from_le_bytes(w.try_into().unwrap()),
                )
            })
            .collect()
    }

    /// Runs every thread of `k` through the RTL program's golden model; gives the
    /// memory after and each thread's block path.
    fn trace(k: &RtlKernel) -> (HashMap<u32, u32>, Vec<Vec<usize>>) {
        let mut memory = k.memory.clone();
        let paths = (0..k.threads as u16)
            .map(|t| k.program.execute(t, &mut memory, 64).unwrap())
            .collect();
        (memory, paths)
    }

    /// Is graph node `p` an ancestor of node `n`?
    fn ancestor(g: &Dfg, p: usize, n: usize) -> bool {
        g.nodes[n]
            .kind
            .inputs()
            .iter()
            .any(|&i| i == p || ancestor(g, p, i))
    }

    fn refusal(words: &[u32], threads: u32) -> String {
        translated(words, &[], threads).expect_err("the RTL must refuse this kernel")
    }

    /// `y[tid] = x[tid] >= s ? x[tid] - 1 : x[tid] + 5`, with `s` at a fixed address:
    /// three blocks, the loaded value carried as a live value.
    fn diamond() -> Vec<u32> {
        vec![
            csrr(A0, TID),
            slli(A2, A0, 2),
            lui(A1, 2),
            add(A2, A2, A1),
            lw(A3, A2, 0),
            lw(A4, A1, 0x100),
            branch(5, A3, A4, 0x1018, 0x1034),
            csrr(A0, TID),
            slli(A0, A0, 2),
            add(A0, A0, A1),
            addi(A3, A3, 5),
            sw(A3, A0, 0x200),
            ret(),
            csrr(A0, TID),
            slli(A0, A0, 2),
            add(A0, A0, A1),
            addi(A3, A3, -1),
            sw(A3, A0, 0x200),
            ret(),
        ]
    }

    #[test]
    fn a_translated_diamond_leaves_the_functional_runs_memory() {
        // x: 64 words of both signs around s = 40 (at 0x2100).
        let mut data: Vec<u32> = (0..64u32)
            .map(|i| (i * 37 % 101) as i32 as u32 - 30)
            .collect();
        data.resize(0x41, 0);
        data[0x40] = 40;
        let k = translated(&diamond(), &data, 64).unwrap();
        let p = &k.program;
        assert_eq!(p.blocks.len(), 3);
        // Entry: two loads (x indexed, s at a fixed address: no compute unit for the
        // indexed address), the compare, the live value x written once.
        let entry = Units::of(&p.blocks[0].dfg);
        assert_eq!((entry.load_store, entry.live_value), (2, 1));
        assert_eq!(p.blocks[0].replicas, 2);
        // bge is computed as Lt with the successors swapped: taken (x >= s) is outcome 0.
        let taken = p.blocks[0].succ[0];
        assert!(p.blocks[taken].dfg.nodes.iter().any(|n| matches!(
            n.kind,
            NodeKind::Compute { opcode, imm: Some(imm), .. } if opcode == Opcode::Add as u8 && imm == u32::MAX
        )), "the taken side subtracts one");
        let (memory, paths) = trace(&k);
        assert!(paths.iter().any(|p| p[1] == taken) && paths.iter().any(|p| p[1] != taken));
        let want = functional_words(&diamond(), &data, 64);
        for (addr, w) in &want {
            assert_eq!(memory.get(addr).copied().unwrap_or(0), *w, "word {addr:#x}");
        }
        // The image is the initial memory, the stores land where the functional run's do.
        assert_eq!(k.memory.len(), want.len());
        assert_eq!(want[&(DATA + 0x200)], data[0].wrapping_add(5));
    }

    #[test]
    fn a_store_then_a_load_that_may_alias_it_waits_for_its_token() {
        // p = x + 4 tid; x[tid] = tid; q = x + 4 * x[0x40] (another base); y = *q;
        // x[tid + 0x80] = y. The load through q may read the store's word.
        let words = [
            csrr(A0, TID),     // 1000
            slli(A2, A0, 2),   // 1004
            lui(A1, 2),        // 1008
            add(A2, A2, A1),   // 100c
            sw(A0, A2, 0),     // 1010 x[tid] = tid
            lw(A3, A1, 0x100), // 1014 k = x[0x40]
            slli(A3, A3, 2),   // 1018
            add(A3, A3, A1),   // 101c q = x + 4 k
            lw(A4, A3, 0),     // 1020 y = *q: after the store (may alias)
            sw(A4, A2, 0x200), // 1024 x[tid + 0x80] = y
            ret(),             // 1028
        ];
        let mut data = vec![0; 0x41];
        data[0x40] = 5;
        let k = translated(&words, &data, 32).unwrap();
        let g = &k.program.blocks[0].dfg;
        let find = |want: fn(&NodeKind) -> bool| -> Vec<usize> {
            (0..g.nodes.len())
                .filter(|&i| want(&g.nodes[i].kind))
                .collect()
        };
        let stores = find(|k| matches!(k, NodeKind::Store { .. }));
        let loads = find(|k| matches!(k, NodeKind::Load { .. }));
        let selects = find(
            |k| matches!(k, NodeKind::Compute { opcode, .. } if *opcode == Opcode::Select as u8),
        );
        // Both loads follow the store (k's fixed address and q may be x[tid]): k's
        // address waits in a Select on the store's token; q's address is built from k,
        // so its own edge costs nothing.
        assert_eq!(loads.len(), 2);
        assert!(loads.iter().all(|&l| ancestor(g, stores[0], l)), "{g:?}");
        assert_eq!(selects.len(), 1, "{g:?}");
        let NodeKind::Compute { ref inputs, .. } = g.nodes[selects[0]].kind else {
            unreachable!()
        };
        assert_eq!(inputs[0], stores[0]);
        assert_eq!(inputs[1], inputs[2]);
        let (memory, _) = trace(&k);
        let want = functional_words(&words, &data, 32);
        for (addr, w) in &want {
            assert_eq!(memory.get(addr).copied().unwrap_or(0), *w, "word {addr:#x}");
        }
        // Thread t reads x[5], which thread 5 wrote (the threads run in order).
        assert_eq!(want[&(DATA + 0x200 + 4 * 9)], 5);
    }

    #[test]
    fn an_empty_exit_block_is_a_thread_token_into_end() {
        // if (tid < 3) x[tid] = tid; the exit block is a lone `ret`.
        let words = [
            csrr(A0, TID),                     // 1000
            addi(A1, ZERO, 3),                 // 1004
            branch(5, A0, A1, 0x1008, 0x1018), // 1008 bge a0, 3 -> exit
            slli(A2, A0, 2),                   // 100c
            lui(A1, 2),                        // 1010
            jal(ZERO, 0x1014, 0x101c),         // 1014 -> store
            ret(),                             // 1018 exit
            add(A2, A2, A1),                   // 101c
            sw(A0, A2, 0),                     // 1020
            ret(),                             // 1024
        ];
        let k = translated(&words, &[], 8).unwrap();
        k.program.image(10).expect("every block places and routes");
        let lone = k
            .program
            .blocks
            .iter()
            .find(|b| b.dfg.nodes.len() == 2)
            .expect("the lone ret");
        assert_eq!(lone.exit, [true, true]);
        let (memory, paths) = trace(&k);
        assert_eq!(paths.iter().filter(|p| p.len() == 2).count(), 8);
        for (addr, w) in functional_words(&words, &[], 8) {
            assert_eq!(memory.get(&addr).copied().unwrap_or(0), w, "word {addr:#x}");
        }
    }

    #[test]
    fn an_operation_outside_the_compute_and_divide_units_is_refused_with_its_address() {
        let mulh = refusal(
            &[
                csrr(A0, TID),
                r_type(1, A0, A0, 1, A1),
                sw(A1, A0, 0),
                ret(),
            ],
            4,
        );
        assert!(mulh.starts_with("`mulh` at 0x1004 (node"), "{mulh}");
        assert!(mulh.contains("the RTL has no `mulh`"), "{mulh}");
        // a divide is a divide unit; a product's high word is not
        let divu = translated(
            &[
                csrr(A0, TID),
                r_type(1, A0, A0, 5, A1),
                sw(A1, A0, 0x100),
                ret(),
            ],
            &[],
            4,
        )
        .unwrap();
        assert_eq!(Units::of(&divu.program.blocks[0].dfg).divide, 1);
        let mulhu = refusal(
            &[
                csrr(A0, TID),
                r_type(1, A0, A0, 3, A1),
                sw(A1, A0, 0),
                ret(),
            ],
            4,
        );
        assert!(mulhu.contains("`mulhu` at 0x1004"), "{mulhu}");
    }

    #[test]
    fn floats_the_rtl_lacks_are_refused() {
        // fmv.w.x ft0, a0 (a bit move, free); then the operation on ft0, ft0; fsw.
        let kernel = |op: u32| {
            [
                csrr(A0, TID),
                0xf005_0053, // fmv.w.x ft0, a0
                op,
                0x0000_2027 | (1 << 15), // fsw ft0, 0(ra): ra is a constant
                ret(),
            ]
        };
        let fsub = refusal(&kernel(f_type(0x04, 0, 0, 7, 0)), 4);
        assert!(fsub.starts_with("`fsub.s` at 0x1008"), "{fsub}");
        assert!(fsub.contains("FAdd"), "{fsub}");
        let fdiv = refusal(&kernel(f_type(0x0c, 0, 0, 7, 0)), 4);
        assert!(fdiv.contains("no `fdiv.s`"), "{fdiv}");
        let rtz = refusal(&kernel(f_type(0x00, 0, 0, 1, 0)), 4);
        assert!(
            rtz.contains("`fadd.s` at 0x1008") && rtz.contains("rounding mode 1"),
            "{rtz}"
        );
        // fadd.s rounding to nearest even runs on FAdd.
        let ok = translated(&kernel(f_type(0x00, 0, 0, 7, 0)), &[], 4).unwrap();
        assert!(ok.program.blocks[0].dfg.nodes.iter().any(|n| matches!(
            n.kind,
            NodeKind::Compute { opcode, .. } if opcode == Opcode::FAdd as u8
        )));
    }

    #[test]
    fn sub_word_stack_and_shared_accesses_are_refused() {
        let byte = refusal(
            &[
                csrr(A0, TID),
                lui(A1, 2),
                add(A1, A1, A0),
                lbu(A2, A1, 0),
                sw(A2, A1, 0),
                ret(),
            ],
            4,
        );
        assert!(byte.starts_with("`lbu` at 0x100c"), "{byte}");
        assert!(byte.contains("sub-word"), "{byte}");
        let half = refusal(
            &[
                csrr(A0, TID),
                slli(A0, A0, 2),
                lui(A1, 2),
                add(A1, A1, A0),
                sh(A0, A1, 0),
                ret(),
            ],
            4,
        );
        assert!(
            half.starts_with("`sh` at 0x1010") && half.contains("sub-word"),
            "{half}"
        );
        // sp is the same constant in every thread: its words would be shared.
        let stack = refusal(&[csrr(A0, TID), sw(A0, SP, -4), ret()], 4);
        assert!(stack.starts_with("`sw` at 0x1004"), "{stack}");
        assert!(
            stack.contains(&format!("stack access at {:#x}", STACK_TOP - 4)),
            "{stack}"
        );
        // A store to a fixed address inside the CTA-shared section.
        let mut img = image(&[csrr(A0, TID), lui(A1, 2), sw(A0, A1, 8), ret()]);
        img.shared.range = (DATA, DATA + 0x100);
        let launch = Launch::new(4, 4).unwrap();
        let shared = build(functional::Program::new(img), launch, LIMIT).unwrap_err();
        assert!(shared.starts_with("`sw` at 0x1008"), "{shared}");
        assert!(
            shared.contains(&format!("CTA-shared memory at {:#x}", DATA + 8)),
            "{shared}"
        );
        let barrier = refusal(&[csrr(A0, TID), barrier(), sw(A0, A0, 0), ret()], 4);
        assert!(
            barrier.contains("block 0 ends with a barrier (`csrw 0x8c0` at 0x1004)"),
            "{barrier}"
        );
    }

    #[test]
    fn more_live_values_than_the_live_value_units_are_refused() {
        // Three registers cross from block 0 to block 1 (a branch to the next
        // instruction ends the block): block 0 writes three live values.
        let words = [
            csrr(A0, TID),                     // 1000
            addi(A1, A0, 1),                   // 1004
            addi(A2, A0, 2),                   // 1008
            branch(0, A0, A1, 0x100c, 0x1010), // 100c
            add(A3, A0, A1),                   // 1010
            add(A3, A3, A2),                   // 1014
            slli(A4, A0, 2),                   // 1018
            sw(A3, A4, 0x100),                 // 101c
            ret(),
        ];
        let e = refusal(&words, 4);
        assert!(e.starts_with("block 0 needs 3 live value units (reads none; writes x10, x11, x12), the fabric has 2"), "{e}");
        assert!(
            e.contains("for the read") || e.contains("`addi` at 0x1008"),
            "{e}"
        );
    }

    #[test]
    fn a_block_over_the_compute_units_and_a_kernel_over_the_block_table_are_refused() {
        let mut words = vec![csrr(A0, TID)];
        words.extend((0..17).map(|_| r_type(0, A0, A0, 4, A0)));
        words.push(sw(A0, A0, 0));
        words.push(ret());
        // xor a0, a0, a0 is 0 for every thread but is not folded by the lowering (a0
        // varies): 17 compute units.
        let e = refusal(&words, 4);
        assert!(e.starts_with("block 0 needs 17 compute units, the fabric has 16: the first past them is for `xor` at 0x1044"), "{e}");
        // Nine branches to their next instruction: ten blocks.
        let mut words = vec![csrr(A0, TID)];
        for k in 0..9u32 {
            let at = 0x1004 + 4 * k;
            words.push(branch(0, A0, A0, at, at + 4));
        }
        words.push(ret());
        let e = refusal(&words, 4);
        assert!(
            e.starts_with("the kernel lowers to 10 blocks, the RTL core's block table holds 8"),
            "{e}"
        );
        let e = refusal(&[csrr(A0, TID), ret()], 512);
        assert!(
            e.contains("512 threads, a tile of the RTL core holds 256"),
            "{e}"
        );
    }

    #[test]
    fn a_live_value_no_block_reads_is_not_written() {
        use super::super::graph::{Block, Node};
        let node = |kind| Node {
            kind,
            args: vec![],
            after: vec![],
            uniform: false,
            address: Default::default(),
            objects: vec![],
            launch_constant: false,
        };
        // Block 0 writes x10 (block 1 reads it) and x11 (nobody reads it).
        let lowered = LoweredProgram {
            blocks: vec![
                Block {
                    id: 0,
                    pcs: vec![],
                    nodes: vec![
                        node(Lowered::Coordinate(Coordinate::Tid)),
                        node(Lowered::Const(7)),
                    ],
                    writes: vec![(10, 0), (11, 1)],
                    terminator: Terminator::Jump(1),
                },
                Block {
                    id: 1,
                    pcs: vec![],
                    nodes: vec![node(Lowered::LiveIn(10))],
                    writes: vec![],
                    terminator: Terminator::Exit,
                },
            ],
            initial: [0; 64],
        };
        let k = translate(&lowered, &image(&[ret()]), Launch::new(4, 4).unwrap()).unwrap();
        let written: Vec<u32> = k.program.blocks[0]
            .dfg
            .nodes
            .iter()
            .filter_map(|n| match n.kind {
                NodeKind::LiveValueWrite { id, .. } => Some(id),
                _ => None,
            })
            .collect();
        assert_eq!(written, [10]);
    }
}
