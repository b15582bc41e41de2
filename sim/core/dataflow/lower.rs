//! Lowering: a kernel's RV32IMF ELF (the file the SIMT core runs) to a VGIW program of
//! basic-block dataflow graphs ([`graph`]), in six passes.
//!
//! 1. **Inlining.** The instructions reachable from `weft_kernel` are followed in their
//!    call context (the chain of call sites): a call (`jal ra`, or `auipc` + `jalr ra`)
//!    goes on at the callee's entry in a new context, and the callee's return goes back
//!    to the instruction after the call, so every call site gets its own copy of the
//!    callee. A call to a function already in the context (recursion) is refused with
//!    the function's address; so are indirect jumps other than the return, and a kernel
//!    whose inlined copies pass [`MAX_INSTRUCTIONS`].
//! 2. **Blocks.** A block starts at the entry, at every instruction with more than one
//!    predecessor or none (branch targets, loop heads, joins), after every conditional
//!    branch (both of its successors), and after every barrier; an unconditional jump or
//!    an inlined call or return whose target has no other predecessor does not end the
//!    block (straight-line code stays one block). When the entry itself is a loop head
//!    an empty entry block is added (§3.1: a single entry, ID 0).
//! 3. **Block IDs** in reverse postorder from the entry (the not-taken side of a branch
//!    first), so every edge goes to a larger ID except loop back edges, which go to a
//!    smaller or equal one: the scheduler's lowest-ID-first order finishes what comes
//!    before a block before the block, and runs a loop's body until its threads leave.
//! 4. **Constants and live values.** A forward pass to a fixpoint finds, per block
//!    entry and register, the constant it holds on every path (every thread starts with
//!    the same `ra`, `sp` and `gp`, other registers 0; `lui`, `auipc`, links and pure
//!    operations of constants are constants), so stack addresses, globals' addresses and
//!    loop bounds are folded. A backward liveness pass finds the registers live across
//!    blocks. A block reads a live value where it uses a register before defining it and
//!    the register is not a known constant there; it writes one at its end for every
//!    register live into some successor that does not know it as a constant, and that it
//!    defined or knows as a constant itself (otherwise the value already stored is the
//!    current one).
//! 5. **Dataflow graphs.** Each instruction becomes a node whose operand edges point at
//!    the nodes giving its registers (constant operations folded). Memory order: an
//!    access gets an order edge to every earlier access of the block when one of the two
//!    is a store and they may alias. The alias rule (`vgiw_alias`): two addresses are
//!    `base + offset` with the base a node (a constant base folds into the offset, and
//!    an `addi` on a base is looked through); accesses through the same base, or both at
//!    constant addresses, alias only if their byte ranges overlap (`base`); with
//!    `object` neither do accesses whose data objects are disjoint ([`anchors`]: an
//!    object's address plus an index stays in the object); `none` orders nothing.
//! 6. **Launch values.** A load from a constant device address that no store of the
//!    kernel may write is marked ([`mark_launch_constants`]).
//!
//! Loads and stores of every width (`lb`, `lbu`, `lh`, `lhu`, `lw`, `flw`, `sb`, `sh`,
//! `sw`, `fsw`) are nodes that keep their instruction, so the interpreter and the engine
//! extend and merge sub-words as the SIMT core does. weft's coordinates (`csrr` of
//! 0xCC0..0xCC3) are coordinate nodes; the barrier (`csrw 0x8C0`) ends its block. Refused
//! with the instruction and its address: `ecall`, `ebreak`, any other CSR access (the
//! float flags and rounding mode are per-thread state the dataflow graph does not
//! carry, so every float operation rounds to nearest even, as the functional run's does
//! while `frm` is 0), words that do not decode, and jumps the model cannot follow.
use super::graph::{Address, Block, Coordinate, Node, NodeId, NodeKind, Program, Reg, Terminator};
use super::interpret::evaluate;
use crate::core::cfg::Flow;
use crate::core::functional::{self, start_thread};
use crate::core::isa::{Inst, Op};
use crate::core::machine::VgiwAlias;
use crate::core::thread::{
    MemFault, Memory, ThreadEnv, CSR_BARRIER, CSR_CTAID, CSR_CTA_SIZE, CSR_NTID, CSR_TID,
};
use std::collections::HashMap;
use std::ops::Range;

/// The most instructions the inlined kernel may have (every call site's copy counted).
pub const MAX_INSTRUCTIONS: usize = 200_000;

/// How an instruction is lowered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A node (or nothing, for `fence` and writes to `x0`); goes on to the next one.
    Plain,
    /// A coordinate read.
    Coordinate(Coordinate),
    /// A conditional branch.
    Branch,
    /// `csrw 0x8C0`: the barrier.
    Barrier,
    /// `jal` / `jalr`: its link (if any) is a constant; control as its flow says.
    Jump(Flow),
}

/// One instruction in one call context.
struct Instance {
    ctx: usize,
    pc: u32,
    inst: Inst,
    kind: Kind,
    /// Branches: taken, then not taken.
    succs: Vec<usize>,
}

impl Instance {
    /// The registers it reads (as a bit set) and the one it writes, as the lowered
    /// program sees them: jumps read nothing (their targets are known).
    fn registers(&self) -> (u64, Option<Reg>) {
        let r = self.inst.registers();
        let rd = (self.inst.rd != 0).then_some(self.inst.rd);
        match self.kind {
            Kind::Plain | Kind::Branch => {
                let reads = r.reads.iter().flatten().fold(0, |m, &x| m | 1u64 << x);
                (reads, r.write)
            }
            Kind::Coordinate(_) | Kind::Barrier | Kind::Jump(_) => (0, rd),
        }
    }

    /// A pure operation: its value depends on its operands alone.
    fn is_pure(&self) -> bool {
        self.kind == Kind::Plain && !self.inst.is_load() && !self.inst.is_store()
    }
}

/// Every reachable instruction in every call context; the entry (`weft_kernel`'s first
/// instruction, outside any call) is index 0.
fn inline(program: &functional::Program) -> Result<Vec<Instance>, String> {
    let kernel = program.image.kernel;
    // Contexts: the call sites and callee entries, outermost first.
    let mut contexts: Vec<Vec<(u32, u32)>> = vec![vec![]];
    let mut context_ids: HashMap<Vec<(u32, u32)>, usize> = HashMap::from([(vec![], 0)]);
    let mut index: HashMap<(usize, u32), usize> = HashMap::new();
    let mut instances: Vec<Instance> = vec![];
    let mut add = |ctx: usize,
                   pc: u32,
                   instances: &mut Vec<Instance>,
                   todo: &mut Vec<usize>|
     -> Result<usize, String> {
        if let Some(&i) = index.get(&(ctx, pc)) {
            return Ok(i);
        }
        if instances.len() >= MAX_INSTRUCTIONS {
            return Err(format!(
                "inlining every call makes more than {MAX_INSTRUCTIONS} instructions (at {pc:#x})"
            ));
        }
        let inst = *program
            .fetch(pc)
            .map_err(|e| format!("cannot lower: {e}"))?;
        let kind = classify(program, pc, &inst)?;
        instances.push(Instance {
            ctx,
            pc,
            inst,
            kind,
            succs: vec![],
        });
        index.insert((ctx, pc), instances.len() - 1);
        todo.push(instances.len() - 1);
        Ok(instances.len() - 1)
    };
    let mut todo = vec![];
    add(0, kernel, &mut instances, &mut todo)?;
    while let Some(i) = todo.pop() {
        let (ctx, pc, kind) = (instances[i].ctx, instances[i].pc, instances[i].kind);
        let next = pc.wrapping_add(4);
        let succs = match kind {
            Kind::Plain | Kind::Coordinate(_) | Kind::Barrier => {
                vec![add(ctx, next, &mut instances, &mut todo)?]
            }
            Kind::Branch => {
                let taken = pc.wrapping_add(instances[i].inst.imm as u32);
                vec![
                    add(ctx, taken, &mut instances, &mut todo)?,
                    add(ctx, next, &mut instances, &mut todo)?,
                ]
            }
            Kind::Jump(Flow::Jump { target }) => {
                vec![add(ctx, target, &mut instances, &mut todo)?]
            }
            Kind::Jump(Flow::Call { target }) => {
                let frames = &contexts[ctx];
                if target == kernel || frames.iter().any(|&(_, f)| f == target) {
                    return Err(format!(
                        "recursive call to the function at {target:#x} (`{}` at {pc:#x}): recursion cannot be inlined",
                        instances[i].inst.mnemonic()
                    ));
                }
                let mut inner = frames.clone();
                inner.push((pc, target));
                let id = *context_ids.entry(inner.clone()).or_insert_with(|| {
                    contexts.push(inner);
                    contexts.len() - 1
                });
                vec![add(id, target, &mut instances, &mut todo)?]
            }
            Kind::Jump(Flow::Return) => match contexts[ctx].last() {
                None => vec![], // the kernel's return: the thread exits
                Some(&(call, _)) => {
                    let mut outer = contexts[ctx].clone();
                    outer.pop();
                    let id = context_ids[&outer];
                    vec![add(id, call.wrapping_add(4), &mut instances, &mut todo)?]
                }
            },
            Kind::Jump(_) => unreachable!("classify gives jumps, calls and returns only"),
        };
        instances[i].succs = succs;
    }
    Ok(instances)
}

/// How the instruction at `pc` is lowered, or why it cannot be.
fn classify(program: &functional::Program, pc: u32, inst: &Inst) -> Result<Kind, String> {
    use Op::*;
    let m = inst.mnemonic();
    Ok(match inst.op {
        Ecall | Ebreak => {
            return Err(format!(
                "`{m}` at {pc:#x}: environment calls and breakpoints cannot be lowered"
            ))
        }
        Csrrw | Csrrs | Csrrc | Csrrwi | Csrrsi | Csrrci => {
            let csr = inst.imm as u32 & 0xfff;
            let writes = matches!(inst.op, Csrrw | Csrrwi) || inst.rs1 != 0;
            let coordinate = match csr {
                CSR_TID => Some(Coordinate::Tid),
                CSR_NTID => Some(Coordinate::Ntid),
                CSR_CTAID => Some(Coordinate::Ctaid),
                CSR_CTA_SIZE => Some(Coordinate::CtaSize),
                _ => None,
            };
            match (csr, writes, coordinate) {
                (CSR_BARRIER, true, _) => Kind::Barrier,
                (_, false, Some(c)) => Kind::Coordinate(c),
                _ => {
                    return Err(format!(
                        "`{m}` at {pc:#x}: CSR {csr:#x} cannot be lowered (only weft's coordinates are read and the barrier written; the float flags and rounding mode are per-thread state outside the dataflow graph)"
                    ))
                }
            }
        }
        Jal | Jalr => Kind::Jump(program.flow(pc).map_err(|e| format!("cannot lower: {e}"))?),
        _ if inst.is_branch() => Kind::Branch,
        _ => Kind::Plain,
    })
}

/// A register's value at a point, across every thread and path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lat {
    /// Not reached yet (optimistic start of the fixpoint).
    Top,
    Const(u32),
    Varying,
}

fn meet(a: Lat, b: Lat) -> Lat {
    match (a, b) {
        (Lat::Top, x) | (x, Lat::Top) => x,
        (Lat::Const(x), Lat::Const(y)) if x == y => a,
        _ => Lat::Varying,
    }
}

/// Memory that refuses every access: constant folding never touches memory.
struct NoMemory;

impl Memory for NoMemory {
    fn load(&mut self, _: u32, _: u32) -> Result<u32, MemFault> {
        Err(MemFault::Outside)
    }
    fn store(&mut self, _: u32, _: u32, _: u32) -> Result<(), MemFault> {
        Err(MemFault::Outside)
    }
}

/// The value of a pure instruction on constant operands (`None`: it faults, and is left
/// for the run to report).
fn fold(inst: &Inst, pc: u32, args: &[u32]) -> Option<u32> {
    evaluate(inst, pc, args, &mut NoMemory, &ThreadEnv::default()).ok()
}

/// A block before numbering: its instructions and where its threads go.
struct Raw {
    insts: Vec<usize>,
    /// Successor blocks (raw indices), taken first for a branch.
    succs: Vec<usize>,
}

/// Lowers the kernel of `program` with the `base` alias rule, or says which instruction
/// at which address it cannot.
pub fn lower(program: &functional::Program) -> Result<Program, String> {
    lower_with(program, VgiwAlias::Base)
}

/// Lowers the kernel of `program` with alias rule `alias` (`vgiw_alias`).
pub fn lower_with(program: &functional::Program, alias: VgiwAlias) -> Result<Program, String> {
    let instances = inline(program)?;
    // Blocks: leaders, then the straight-line chains they start.
    let mut preds = vec![0usize; instances.len()];
    let mut last_pred = vec![usize::MAX; instances.len()];
    for (i, inst) in instances.iter().enumerate() {
        for &s in &inst.succs {
            preds[s] += 1;
            last_pred[s] = i;
        }
    }
    let leader = |i: usize| {
        i == 0
            || preds[i] != 1
            || matches!(instances[last_pred[i]].kind, Kind::Branch | Kind::Barrier)
    };
    let mut raws: Vec<Raw> = vec![];
    let mut block_of = vec![usize::MAX; instances.len()];
    if preds[0] > 0 {
        // The entry is a loop head: a synthetic entry block comes first (ID 0).
        raws.push(Raw {
            insts: vec![],
            succs: vec![],
        });
    }
    for start in (0..instances.len()).filter(|&i| leader(i)) {
        let mut insts = vec![start];
        let mut at = start;
        while let [s] = instances[at].succs[..] {
            if leader(s) || instances[at].kind == Kind::Barrier {
                break;
            }
            insts.push(s);
            at = s;
        }
        for &i in &insts {
            block_of[i] = raws.len();
        }
        raws.push(Raw {
            insts,
            succs: vec![],
        });
    }
    for raw in raws.iter_mut() {
        raw.succs = match raw.insts.last() {
            None => vec![0],
            Some(&last) => instances[last].succs.clone(),
        };
    }
    for raw in raws.iter_mut() {
        for s in raw.succs.iter_mut() {
            *s = block_of[*s];
        }
    }
    let order = reverse_postorder(&raws);
    let mut id = vec![usize::MAX; raws.len()];
    for (n, &r) in order.iter().enumerate() {
        id[r] = n;
    }
    // Raw blocks in ID order, successors renamed to IDs.
    let mut raws: Vec<Raw> = {
        let mut slots: Vec<Option<Raw>> = raws.into_iter().map(Some).collect();
        order
            .iter()
            .map(|&r| slots[r].take().expect("each block once"))
            .collect()
    };
    for raw in raws.iter_mut() {
        for s in raw.succs.iter_mut() {
            *s = id[*s];
        }
    }

    let (live_in, live_out) = liveness(&raws, &instances);
    let initial = initial_registers(program);
    let entries = constants(&raws, &instances, &initial);
    let objects = Objects::of(program);
    let anchored = anchors(&raws, &instances, &initial, &objects);

    let mut blocks = vec![];
    for (b, raw) in raws.iter().enumerate() {
        let mut builder = Builder::new(entries[b], anchored[b], &objects, alias);
        for &i in &raw.insts {
            builder.instruction(&instances[i]);
        }
        let terminator = match (raw.insts.last().map(|&i| &instances[i]), &raw.succs[..]) {
            (Some(last), &[taken, not_taken]) if last.kind == Kind::Branch => Terminator::Branch {
                cond: builder.branch.expect("a branch's compare"),
                taken,
                not_taken,
            },
            (Some(last), &[next]) if last.kind == Kind::Barrier => Terminator::Barrier(next),
            (_, &[next]) => Terminator::Jump(next),
            (_, []) => Terminator::Exit,
            _ => unreachable!("a block has at most two successors"),
        };
        // Live values out: what a successor the register is live into does not know as a
        // constant (a successor that never reads it needs no write).
        let mut writes = vec![];
        for r in 1..64u8 {
            if live_out[b] & (1 << r) == 0 {
                continue;
            }
            let needed = raw.succs.iter().any(|&s| {
                live_in[s] & (1 << r) != 0 && !matches!(entries[s][r as usize], Lat::Const(_))
            });
            if !needed {
                continue;
            }
            if builder.defined & (1 << r) != 0 {
                writes.push((r, builder.regs[r as usize].expect("defined")));
            } else if let Lat::Const(c) = entries[b][r as usize] {
                writes.push((r, builder.constant(c)));
            }
        }
        blocks.push(Block {
            id: b,
            pcs: raw.insts.iter().map(|&i| instances[i].pc).collect(),
            nodes: builder.nodes,
            writes,
            terminator,
        });
    }
    mark_launch_constants(&mut blocks, &objects);
    Ok(Program { blocks, initial })
}

/// Marks the loads of launch values: a load from a constant device-memory address (not
/// the stack, not CTA-shared) that no store of the kernel may write. Every thread reads
/// the same value there for the whole launch (a kernel argument, a read-only table's
/// word), so the value can be a constant of the block's configuration.
fn mark_launch_constants(blocks: &mut [Block], objects: &Objects) {
    // What the kernel's stores may write: byte ranges, or anything (`None`).
    let mut written: Option<Vec<Range<u64>>> = Some(vec![]);
    for node in blocks.iter().flat_map(|b| &b.nodes) {
        if !node.is_store() {
            continue;
        }
        match (&node.address, written.as_mut()) {
            (Address::Exact(a, size), Some(w)) => w.push(*a..*a + *size),
            (Address::Anchored(_), Some(w)) if !node.objects.is_empty() => {
                w.extend(node.objects.iter().map(|r| u64::from(r.0)..u64::from(r.1)))
            }
            _ => written = None,
        }
    }
    let Some(written) = written else { return };
    for node in blocks.iter_mut().flat_map(|b| b.nodes.iter_mut()) {
        if let (true, Address::Exact(a, size)) = (node.is_load(), &node.address) {
            let bytes = *a..*a + *size;
            node.launch_constant = !functional::is_private(*a as u32)
                && !objects.shared.contains(&(*a as u32))
                && !written
                    .iter()
                    .any(|w| w.start < bytes.end && bytes.start < w.end);
        }
    }
}

/// The data objects of the ELF: its symbols with a size outside the code, by address.
struct Objects {
    ranges: Vec<(u32, u32)>,
    /// CTA-shared memory's range.
    shared: Range<u32>,
}

/// How far below an object an anchor may lie and still mean the object: clang folds a
/// constant index into the symbol's address (`&S[i - 1]` is `(S - 4) + 4i`).
pub const ANCHOR_SLACK: u32 = 4096;

impl Objects {
    fn of(program: &functional::Program) -> Objects {
        let image = &program.image;
        let code = |a: u32| image.text.iter().any(|&(s, e)| (s..e).contains(&a));
        let mut ranges: Vec<(u32, u32)> = image
            .symbols
            .values()
            .filter(|s| s.size > 0 && !code(s.addr))
            .map(|s| (s.addr, s.addr.saturating_add(s.size)))
            .collect();
        ranges.sort_unstable();
        ranges.dedup();
        Objects {
            ranges,
            shared: image.shared.range.0..image.shared.range.1,
        }
    }

    /// The objects an address computed as `anchor` plus an index may fall in: the one
    /// holding the anchor, and those that start above it by at most [`ANCHOR_SLACK`]
    /// bytes and by less than the anchor lies above the start of the one holding it (so
    /// `&S - 4` inside the object before S claims both, and that object's own start only
    /// itself). Empty: the anchor is no object's (the address could be anywhere).
    fn candidates(&self, anchor: u32) -> Vec<(u32, u32)> {
        let inside = self
            .ranges
            .iter()
            .filter(|&&(s, e)| (s..e).contains(&anchor))
            .map(|&(s, _)| anchor - s)
            .min();
        self.ranges
            .iter()
            .filter(|&&(s, e)| {
                (s..e).contains(&anchor)
                    || (anchor < s
                        && s - anchor <= ANCHOR_SLACK
                        && inside.is_none_or(|depth| s - anchor <= depth))
            })
            .copied()
            .collect()
    }

    /// The objects a pointer anchored at `anchor` may fall in, when its chain started
    /// at the object address `symbol` (clang folds a constant into the address after
    /// taking it: `&S[i - 16]` is `(S - 64) + 4i`, whose anchor may lie in the object
    /// before S): those of either.
    fn claims(&self, anchor: u32, symbol: u32) -> Vec<(u32, u32)> {
        let mut claimed = self.candidates(anchor);
        if symbol != anchor {
            claimed.extend(self.candidates(symbol));
            claimed.sort_unstable();
            claimed.dedup();
        }
        claimed
    }
}

/// What a register or node holds, for the object rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ptr {
    /// Not reached yet (the fixpoint's start).
    Top,
    /// The same constant for every thread.
    Exact(u32),
    /// A value computed from no object's address (coordinates, loaded data, constants
    /// that are no object's address): an index.
    Index,
    /// An object's address (the anchor, a constant) plus an index; the second constant
    /// is the address the chain started from, before constant offsets moved the anchor.
    Anchored(u32, u32),
    /// Anything.
    Unknown,
}

impl Ptr {
    /// An address that some object holds or lies just below.
    fn anchor_of(c: u32, objects: &Objects) -> Ptr {
        if objects.candidates(c).is_empty() {
            Ptr::Index
        } else {
            Ptr::Anchored(c, c)
        }
    }

    fn meet(self, other: Ptr, objects: &Objects) -> Ptr {
        use Ptr::*;
        // Two constants met: an index, the same object's addresses, or (a constant just
        // below an object, as a pool's, in none) anything.
        let as_anchor = |p: Ptr| match p {
            Exact(c) if objects.ranges.iter().any(|&(s, e)| (s..e).contains(&c)) => Anchored(c, c),
            Exact(c) => match Ptr::anchor_of(c, objects) {
                Index => Index,
                _ => Unknown,
            },
            p => p,
        };
        match (self, other) {
            (Top, x) | (x, Top) => x,
            (a, b) if a == b => a,
            (Unknown, _) | (_, Unknown) => Unknown,
            (a, b) => match (as_anchor(a), as_anchor(b)) {
                (Index, Index) => Index,
                (Anchored(x, sx), Anchored(y, sy))
                    if objects.claims(x, sx) == objects.claims(y, sy) =>
                {
                    Anchored(x.min(y), sx.min(sy))
                }
                _ => Unknown,
            },
        }
    }

    /// The sum of two values: an object's address plus an index stays in the object
    /// (C's rule for array indexing), a constant offset moving the anchor; two objects'
    /// addresses make no object's.
    fn add(self, other: Ptr, objects: &Objects) -> Ptr {
        use Ptr::*;
        match (self, other) {
            (Top, _) | (_, Top) => Top,
            (Unknown, _) | (_, Unknown) => Unknown,
            (Exact(a), Exact(b)) => Exact(a.wrapping_add(b)),
            (Exact(c), Index) | (Index, Exact(c)) => Ptr::anchor_of(c, objects),
            (Index, Index) => Index,
            // A constant offset moves the anchor (`S + 4i - 48` is anchored at `S - 48`).
            (Anchored(a, s), Exact(d)) | (Exact(d), Anchored(a, s)) => {
                Anchored(a.wrapping_add(d), s)
            }
            (Anchored(a, s), Index) | (Index, Anchored(a, s)) => Anchored(a, s),
            (Anchored(..), Anchored(..)) => Unknown,
        }
    }
}

/// What instruction `inst` computes from operands `args`, for the object rule.
fn ptr_of(inst: &Inst, pc: u32, args: &[Ptr], objects: &Objects) -> Ptr {
    use Ptr::*;
    if args.contains(&Top) {
        return Top;
    }
    if inst.is_load() {
        return Index; // loaded data is taken to be no address (the kernels keep none)
    }
    let consts: Option<Vec<u32>> = args
        .iter()
        .map(|a| match a {
            Exact(c) => Some(*c),
            _ => None,
        })
        .collect();
    if let Some(c) = consts.and_then(|c| fold(inst, pc, &c)) {
        return Exact(c);
    }
    // The operands by position (`x0`, which has no node, is 0).
    let mut given = args.iter();
    let args: Vec<Ptr> = inst
        .registers()
        .reads
        .iter()
        .map(|r| match r {
            Some(_) => *given.next().unwrap_or(&Unknown),
            None => Exact(0),
        })
        .collect();
    let args = [
        args.first().copied().unwrap_or(Exact(0)),
        args.get(1).copied().unwrap_or(Exact(0)),
    ];
    match inst.op {
        Op::Add => args[0].add(args[1], objects),
        Op::Addi => args[0].add(Exact(inst.imm as u32), objects),
        // An object's address less an index stays in it; less another's is an index.
        Op::Sub => match (args[0], args[1]) {
            (Anchored(a, s), Exact(d)) => Anchored(a.wrapping_sub(d), s),
            (Anchored(a, s), Index) => Anchored(a, s),
            (Exact(c), Index) => Ptr::anchor_of(c, objects),
            (Index, Index | Exact(_)) => Index,
            (Anchored(..) | Exact(_), Anchored(..) | Exact(_)) => Index,
            _ => Unknown,
        },
        Op::Lui | Op::Auipc => Exact(fold(inst, pc, &[]).unwrap_or(0)),
        _ if args.iter().all(|a| matches!(a, Index | Exact(_))) => Index,
        _ => Unknown,
    }
}

/// Each block's entry state for the object rule: what each register holds on every
/// path (a forward fixpoint, as [`constants`]).
fn anchors(
    raws: &[Raw],
    instances: &[Instance],
    initial: &[u32; 64],
    objects: &Objects,
) -> Vec<[Ptr; 64]> {
    let mut entries = vec![[Ptr::Top; 64]; raws.len()];
    entries[0] = initial.map(Ptr::Exact);
    let mut exits = vec![[Ptr::Top; 64]; raws.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..raws.len() {
            let mut state = entries[b];
            for &i in &raws[b].insts {
                let instance = &instances[i];
                let (_, write) = instance.registers();
                let Some(w) = write else { continue };
                state[w as usize] = match instance.kind {
                    Kind::Plain => {
                        let args: Vec<Ptr> = instance
                            .inst
                            .registers()
                            .reads
                            .iter()
                            .flatten()
                            .map(|&r| state[r as usize])
                            .collect();
                        ptr_of(&instance.inst, instance.pc, &args, objects)
                    }
                    Kind::Barrier => Ptr::Exact(0),
                    Kind::Jump(_) => Ptr::Exact(instance.pc.wrapping_add(4)),
                    Kind::Coordinate(_) | Kind::Branch => Ptr::Index,
                };
            }
            if state != exits[b] {
                exits[b] = state;
                changed = true;
                for &s in &raws[b].succs {
                    if s != 0 {
                        for r in 0..64 {
                            entries[s][r] = entries[s][r].meet(state[r], objects);
                        }
                    }
                }
            }
        }
    }
    entries
}

/// Every register's value when a thread starts.
fn initial_registers(program: &functional::Program) -> [u32; 64] {
    let start = start_thread(&program.image, program.image.kernel);
    let mut regs = [0u32; 64];
    regs[..32].copy_from_slice(&start.x);
    regs[32..].copy_from_slice(&start.f);
    regs
}

/// The blocks in reverse postorder from block 0.
fn reverse_postorder(raws: &[Raw]) -> Vec<usize> {
    let mut post = vec![];
    let mut seen = vec![false; raws.len()];
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    while let Some((b, next)) = stack.pop() {
        if let Some(&s) = raws[b].succs.get(next) {
            stack.push((b, next + 1));
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
        }
    }
    post.reverse();
    post
}

/// Registers live at each block's start and end (bit sets).
fn liveness(raws: &[Raw], instances: &[Instance]) -> (Vec<u64>, Vec<u64>) {
    let (mut uses, mut defs) = (vec![0u64; raws.len()], vec![0u64; raws.len()]);
    for (b, raw) in raws.iter().enumerate() {
        for &i in &raw.insts {
            let (reads, write) = instances[i].registers();
            uses[b] |= reads & !defs[b];
            if let Some(w) = write {
                defs[b] |= 1 << w;
            }
        }
    }
    let mut live_in = vec![0u64; raws.len()];
    let mut live_out = vec![0u64; raws.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..raws.len()).rev() {
            let out = raws[b].succs.iter().fold(0, |m, &s| m | live_in[s]);
            let inn = uses[b] | (out & !defs[b]);
            if (out, inn) != (live_out[b], live_in[b]) {
                (live_out[b], live_in[b]) = (out, inn);
                changed = true;
            }
        }
    }
    (live_in, live_out)
}

/// Each block's entry state: which registers hold the same constant on every path.
fn constants(raws: &[Raw], instances: &[Instance], initial: &[u32; 64]) -> Vec<[Lat; 64]> {
    let mut entries = vec![[Lat::Top; 64]; raws.len()];
    entries[0] = initial.map(Lat::Const);
    let mut exits = vec![[Lat::Top; 64]; raws.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..raws.len() {
            let mut state = entries[b];
            for &i in &raws[b].insts {
                transfer(&instances[i], &mut state);
            }
            if state != exits[b] {
                exits[b] = state;
                changed = true;
                for &s in &raws[b].succs {
                    if s != 0 {
                        for r in 0..64 {
                            entries[s][r] = meet(entries[s][r], state[r]);
                        }
                    }
                }
            }
        }
    }
    // Block 0 has no predecessor (a loop head at the entry gets the synthetic entry
    // block): its state stays the threads' start.
    entries
}

/// One instruction's effect on the constant state.
fn transfer(instance: &Instance, state: &mut [Lat; 64]) {
    let (reads, write) = instance.registers();
    let Some(w) = write else { return };
    state[w as usize] = match instance.kind {
        Kind::Plain if instance.is_pure() => {
            let operands = (1..64).filter(|r| reads & (1 << r) != 0).map(|r| state[r]);
            match operands.fold(Lat::Const(0), |acc, x| match (acc, x) {
                (Lat::Varying, _) | (_, Lat::Varying) => Lat::Varying,
                (Lat::Top, _) | (_, Lat::Top) => Lat::Top,
                _ => acc,
            }) {
                // Every operand constant: the instruction's value on them.
                Lat::Const(_) => {
                    let args: Vec<u32> = instance
                        .inst
                        .registers()
                        .reads
                        .iter()
                        .flatten()
                        .map(|&r| match state[r as usize] {
                            Lat::Const(c) => c,
                            _ => unreachable!("every operand is constant"),
                        })
                        .collect();
                    fold(&instance.inst, instance.pc, &args).map_or(Lat::Varying, Lat::Const)
                }
                other => other,
            }
        }
        Kind::Barrier => Lat::Const(0),
        Kind::Jump(_) => Lat::Const(instance.pc.wrapping_add(4)),
        _ => Lat::Varying,
    };
}

/// A memory access of the block being built, for the alias rule.
struct Access {
    node: NodeId,
    store: bool,
    /// `None`: a constant address.
    base: Option<NodeId>,
    offset: i64,
    size: i64,
    /// The object rule's view: the objects it stays in (`None`: anywhere; a constant
    /// address is its own bytes).
    objects: Option<Vec<(u32, u32)>>,
}

/// Builds one block's nodes.
struct Builder<'o> {
    entry: [Lat; 64],
    /// Per register at the block's entry, and per node, the object rule's view.
    entry_ptrs: [Ptr; 64],
    ptrs: Vec<Ptr>,
    objects: &'o Objects,
    alias: VgiwAlias,
    nodes: Vec<Node>,
    /// Each register's current node.
    regs: [Option<NodeId>; 64],
    /// Registers the block defines.
    defined: u64,
    consts: HashMap<u32, NodeId>,
    accesses: Vec<Access>,
    /// The closing branch's compare.
    branch: Option<NodeId>,
}

impl<'o> Builder<'o> {
    fn new(
        entry: [Lat; 64],
        entry_ptrs: [Ptr; 64],
        objects: &'o Objects,
        alias: VgiwAlias,
    ) -> Builder<'o> {
        Builder {
            entry,
            entry_ptrs,
            ptrs: vec![],
            objects,
            alias,
            nodes: vec![],
            regs: [None; 64],
            defined: 0,
            consts: HashMap::new(),
            accesses: vec![],
            branch: None,
        }
    }

    fn push(&mut self, kind: NodeKind, args: Vec<NodeId>, uniform: bool) -> NodeId {
        let ptr = match &kind {
            NodeKind::Const(c) => Ptr::Exact(*c),
            NodeKind::LiveIn(r) => self.entry_ptrs[*r as usize],
            NodeKind::Coordinate(_) => Ptr::Index,
            NodeKind::Inst { inst, pc } => {
                let a: Vec<Ptr> = args.iter().map(|&a| self.ptrs[a]).collect();
                ptr_of(inst, *pc, &a, self.objects)
            }
        };
        self.ptrs.push(ptr);
        self.nodes.push(Node {
            kind,
            args,
            after: vec![],
            uniform,
            address: Address::None,
            objects: vec![],
            launch_constant: false,
        });
        self.nodes.len() - 1
    }

    fn constant(&mut self, c: u32) -> NodeId {
        if let Some(&n) = self.consts.get(&c) {
            return n;
        }
        let n = self.push(NodeKind::Const(c), vec![], true);
        self.consts.insert(c, n);
        n
    }

    fn value_of(&self, n: NodeId) -> Option<u32> {
        match self.nodes[n].kind {
            NodeKind::Const(c) => Some(c),
            _ => None,
        }
    }

    /// The node holding register `r` here.
    fn value(&mut self, r: Reg) -> NodeId {
        if let Some(n) = self.regs[r as usize] {
            return n;
        }
        let n = match self.entry[r as usize] {
            Lat::Const(c) => self.constant(c),
            _ => self.push(NodeKind::LiveIn(r), vec![], false),
        };
        self.regs[r as usize] = Some(n);
        n
    }

    fn define(&mut self, r: Reg, n: NodeId) {
        self.regs[r as usize] = Some(n);
        self.defined |= 1 << r;
    }

    fn instruction(&mut self, instance: &Instance) {
        let (inst, pc) = (instance.inst, instance.pc);
        let write = instance.registers().1;
        match instance.kind {
            Kind::Coordinate(c) => {
                if let Some(w) = write {
                    let uniform = c != Coordinate::Tid;
                    let n = self.push(NodeKind::Coordinate(c), vec![], uniform);
                    self.define(w, n);
                }
            }
            Kind::Barrier => {
                if let Some(w) = write {
                    let n = self.constant(0);
                    self.define(w, n);
                }
            }
            Kind::Jump(_) => {
                if let Some(w) = write {
                    let n = self.constant(pc.wrapping_add(4));
                    self.define(w, n);
                }
            }
            Kind::Plain | Kind::Branch => {
                let pure = instance.is_pure() || instance.kind == Kind::Branch;
                if pure && write.is_none() && instance.kind != Kind::Branch {
                    return; // `fence`, or a result thrown away in x0
                }
                let args: Vec<NodeId> = inst
                    .registers()
                    .reads
                    .iter()
                    .flatten()
                    .map(|&r| self.value(r))
                    .collect();
                let values: Option<Vec<u32>> = args.iter().map(|&a| self.value_of(a)).collect();
                let folded = values.filter(|_| pure).and_then(|v| fold(&inst, pc, &v));
                let n = match folded {
                    Some(c) => self.constant(c),
                    None => {
                        let uniform = pure && args.iter().all(|&a| self.nodes[a].uniform);
                        let n = self.push(NodeKind::Inst { inst, pc }, args, uniform);
                        if inst.is_load() || inst.is_store() {
                            self.order(n);
                        }
                        n
                    }
                };
                if instance.kind == Kind::Branch {
                    self.branch = Some(n);
                } else if let Some(w) = write {
                    self.define(w, n);
                }
            }
        }
    }

    /// `base + offset` of the address of access `n` (its instruction's `rs1 + imm`).
    fn address(&self, n: NodeId) -> (Option<NodeId>, i64) {
        let NodeKind::Inst { inst, .. } = self.nodes[n].kind else {
            unreachable!("an access is an instruction")
        };
        let mut offset = i64::from(inst.imm);
        if inst.rs1 == 0 {
            return (None, offset & 0xffff_ffff);
        }
        let mut base = self.nodes[n].args[0];
        loop {
            match &self.nodes[base].kind {
                NodeKind::Const(c) => return (None, (i64::from(*c) + offset) & 0xffff_ffff),
                NodeKind::Inst { inst, .. } if inst.op == Op::Addi && inst.rs1 != 0 => {
                    offset += i64::from(inst.imm);
                    base = self.nodes[base].args[0];
                }
                _ => return (Some(base), offset),
            }
        }
    }

    /// Order edges from access `n` to every earlier access it may alias, when one of
    /// the two stores.
    fn order(&mut self, n: NodeId) {
        let NodeKind::Inst { inst, .. } = self.nodes[n].kind else {
            unreachable!("an access is an instruction")
        };
        let size = match inst.op {
            Op::Lb | Op::Lbu | Op::Sb => 1,
            Op::Lh | Op::Lhu | Op::Sh => 2,
            _ => 4,
        };
        let (base, offset) = self.address(n);
        // The object rule's view of the address: the base's value plus the offset.
        let base_ptr = if inst.rs1 == 0 {
            Ptr::Exact(0)
        } else {
            self.ptrs[self.nodes[n].args[0]]
        };
        let ptr = base_ptr.add(Ptr::Exact(inst.imm as u32), self.objects);
        let address = match ptr {
            Ptr::Exact(a) => Address::Exact(u64::from(a), size as u64),
            Ptr::Anchored(c, _) => Address::Anchored(c),
            _ => Address::Unknown,
        };
        let objects = match (address, ptr) {
            (Address::Exact(a, size), _) => Some(vec![(a as u32, (a + size) as u32)]),
            (Address::Anchored(c), Ptr::Anchored(_, s)) => Some(self.objects.claims(c, s)),
            _ => None,
        };
        self.nodes[n].address = address;
        if let (Address::Anchored(_), Some(o)) = (address, &objects) {
            self.nodes[n].objects = o.clone();
        }
        let access = Access {
            node: n,
            store: inst.is_store(),
            base,
            offset,
            size,
            objects,
        };
        let alias = self.alias;
        let after: Vec<NodeId> = self
            .accesses
            .iter()
            .filter(|e| (e.store || access.store) && may_alias(e, &access, alias))
            .map(|e| e.node)
            .collect();
        self.nodes[n].after = after;
        self.accesses.push(access);
    }
}

/// The alias rule (`vgiw_alias`). `base`: the same base (or both constant) and disjoint
/// bytes do not alias. `object`: neither do accesses whose objects are disjoint (a
/// constant address is its own bytes). `none`: nothing aliases.
fn may_alias(a: &Access, b: &Access, alias: VgiwAlias) -> bool {
    if alias == VgiwAlias::None {
        return false;
    }
    if a.base == b.base {
        return a.offset < b.offset + b.size && b.offset < a.offset + a.size;
    }
    if alias == VgiwAlias::Base {
        return true;
    }
    match (&a.objects, &b.objects) {
        (Some(x), Some(y)) => x.iter().any(|p| y.iter().any(|q| p.0 < q.1 && q.0 < p.1)),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::super::graph::Block;
    use super::*;
    use crate::core::asm::*;
    use crate::core::functional::STACK_TOP;

    fn lowered(words: &[u32]) -> Result<Program, String> {
        lower(&functional::Program::new(image(words)))
    }

    /// The block holding the instruction at `pc` (its first copy).
    fn block_at(p: &Program, pc: u32) -> &Block {
        p.blocks.iter().find(|b| b.pcs.contains(&pc)).unwrap()
    }

    /// The node of the instruction at `pc` in block `b`.
    fn node_at(b: &Block, at: u32) -> NodeId {
        b.nodes
            .iter()
            .position(|n| matches!(n.kind, NodeKind::Inst { pc, .. } if pc == at))
            .unwrap()
    }

    #[test]
    fn a_loop_goes_back_to_a_smaller_id_and_every_other_edge_forward() {
        let p = lowered(&[
            csrr(A0, TID),                     // 1000
            addi(A1, ZERO, 0),                 // 1004
            branch(5, A1, A0, 0x1008, 0x1014), // 1008: bge a1, a0 -> exit
            addi(A1, A1, 1),                   // 100c
            jal(ZERO, 0x1010, 0x1008),         // 1010: back to the head
            lui(A2, 2),                        // 1014
            slli(A3, A0, 2),                   // 1018
            add(A3, A3, A2),                   // 101c
            sw(A1, A3, 0),                     // 1020
            ret(),                             // 1024
        ])
        .unwrap();
        assert_eq!(p.blocks.len(), 4);
        assert_eq!(block_at(&p, 0x1000).id, 0);
        let (head, body) = (block_at(&p, 0x1008), block_at(&p, 0x100c));
        assert_eq!(head.pcs, [0x1008]);
        assert_eq!(body.pcs, [0x100c, 0x1010]);
        assert_eq!(body.terminator, Terminator::Jump(head.id));
        assert!(head.id < body.id, "the back edge goes to a smaller id");
        for b in &p.blocks {
            for s in b.terminator.successors() {
                assert!(s > b.id || b.id == body.id, "block {} -> {s}", b.id);
            }
        }
        // The counter is a live value: the head and the exit read it, the body writes it.
        assert!(head.reads().any(|r| r == A1 as u8));
        assert!(body.writes.iter().any(|w| w.0 == A1 as u8));
    }

    #[test]
    fn a_value_used_two_blocks_later_is_written_once_and_read_once() {
        let p = lowered(&[
            csrr(A0, TID),     // 1000  block 0 defines a0
            barrier(),         // 1004
            addi(T0, ZERO, 1), // 1008  block 1 leaves it alone
            barrier(),         // 100c
            lui(A2, 2),        // 1010  block 2 uses it
            slli(A3, A0, 2),   // 1014
            add(A3, A3, A2),   // 1018
            sw(A0, A3, 0),     // 101c
            ret(),             // 1020
        ])
        .unwrap();
        assert_eq!(p.blocks.len(), 3);
        let [b0, b1, b2] = [0x1000, 0x1008, 0x1010].map(|pc| block_at(&p, pc));
        assert_eq!((b0.id, b1.id, b2.id), (0, 1, 2));
        assert_eq!(b0.terminator, Terminator::Barrier(1));
        let a0 = A0 as u8;
        assert_eq!(b0.writes.len(), 1);
        assert_eq!(b0.writes[0].0, a0);
        assert!(b1.writes.is_empty() && b1.reads().next().is_none());
        assert_eq!(b2.reads().collect::<Vec<_>>(), [a0]);
        let c = p.counts();
        assert_eq!(
            (c.live_values, c.live_value_reads, c.live_value_writes),
            (1, 1, 1)
        );
    }

    #[test]
    fn stores_through_one_base_at_disjoint_offsets_are_unordered_through_two_ordered() {
        let p = lowered(&[
            csrr(A0, TID),    // 1000
            slli(A0, A0, 3),  // 1004
            lui(A1, 2),       // 1008
            add(A2, A1, A0),  // 100c  p = data + 8 tid
            sw(A0, A2, 0),    // 1010
            sw(A0, A2, 4),    // 1014  same base, disjoint: no edge
            add(A3, A0, A1),  // 1018  the same address, another base
            sw(A0, A3, 0),    // 101c  may alias both
            lh(A4, A2, 6),    // 1020  overlaps 1014's bytes and may alias 101c
            addi(A2, A2, 16), // 1024
            sb(A4, A2, -10),  // 1028  = p + 6: the same base through the addi, over 1020's
            lbu(A4, A2, -12), // 102c  = p + 4: over 1014's bytes, beside 1028's
            ret(),
        ])
        .unwrap();
        let b = &p.blocks[0];
        let n = |pc| node_at(b, pc);
        let after = |pc| b.nodes[n(pc)].after.clone();
        assert!(after(0x1010).is_empty());
        assert!(after(0x1014).is_empty(), "same base, disjoint offsets");
        assert_eq!(after(0x101c), [n(0x1010), n(0x1014)], "another base");
        assert_eq!(after(0x1020), [n(0x1014), n(0x101c)]);
        assert_eq!(after(0x1028), [n(0x1014), n(0x101c), n(0x1020)]);
        assert_eq!(after(0x102c), [n(0x1014), n(0x101c)]);
    }

    fn two_objects(words: &[u32], alias: VgiwAlias) -> Program {
        lower_with(
            &functional::Program::new(image_with_two_objects(words)),
            alias,
        )
        .unwrap()
    }

    #[test]
    fn the_object_rule_orders_accesses_within_one_object_only() {
        let words = [
            csrr(A0, TID),           // 1000
            slli(A0, A0, 2),         // 1004
            lui(A1, 2),              // 1008  a
            add(A2, A1, A0),         // 100c  &a[tid]
            addi(A3, A1, 0x100),     // 1010  b
            add(A3, A3, A0),         // 1014  &b[tid]
            sw(A0, A2, 0),           // 1018  a[tid]
            lw(A4, A3, 0),           // 101c  b[tid]: another object
            add(A2, A0, A1),         // 1020  &a[tid] through another base
            lw(A4, A2, 0),           // 1024  a[tid] again: the same object
            sw(A4, A1, 0x100),       // 1028  b[0], a constant address
            addi(A3, A1, 0x100 - 4), // 102c  &b - 4, the anchor of b[tid - 1]
            add(A3, A3, A0),         // 1030
            lw(A4, A3, 0),           // 1034  b[tid - 1]
            ret(),
        ];
        let n = |p: &Program, pc| node_at(&p.blocks[0], pc);
        let after = |p: &Program, pc| p.blocks[0].nodes[n(p, pc)].after.clone();
        let base = two_objects(&words, VgiwAlias::Base);
        let object = two_objects(&words, VgiwAlias::Object);
        let none = two_objects(&words, VgiwAlias::None);
        assert_eq!(after(&base, 0x101c), [n(&base, 0x1018)]);
        assert!(after(&object, 0x101c).is_empty(), "a and b are apart");
        assert_eq!(
            after(&object, 0x1024),
            [n(&object, 0x1018)],
            "a, another base"
        );
        // b[0] may be b[tid]; it is not a[tid] (a constant address is its bytes).
        assert_eq!(after(&object, 0x1028), [n(&object, 0x101c)]);
        assert_eq!(after(&base, 0x1028).len(), 3);
        // The anchor &b - 4 lies in a: the access may be in either object.
        assert_eq!(
            after(&object, 0x1034),
            [n(&object, 0x1018), n(&object, 0x1028)]
        );
        let b = &object.blocks[0].nodes[n(&object, 0x1034)];
        assert_eq!(b.address, Address::Anchored(DATA + 0x100 - 4));
        assert_eq!(
            b.objects,
            [(DATA, DATA + 0x100), (DATA + 0x100, DATA + DATA_BYTES)]
        );
        assert_eq!(
            object.blocks[0].nodes[n(&object, 0x1018)].objects,
            [(DATA, DATA + 0x100)]
        );
        for pc in [0x101c, 0x1024, 0x1028, 0x1034] {
            assert!(after(&none, pc).is_empty());
        }
    }

    /// clang may add a negative constant after the object's address and the index
    /// (`&b[tid - 64]` as `(b + 4 tid) - 256`): the anchor then lies at the start of
    /// the object before b, and the access claims both.
    #[test]
    fn a_constant_folded_after_the_index_keeps_the_object_it_started_from() {
        let words = [
            csrr(A0, TID),        // 1000
            slli(A0, A0, 2),      // 1004
            lui(A1, 2),           // 1008  a
            add(A2, A1, A0),      // 100c  &a[tid]
            sw(A0, A2, 0),        // 1010  a[tid]
            addi(A3, A1, 0x100),  // 1014  b
            add(A3, A3, A0),      // 1018  &b[tid]
            addi(A3, A3, -0x100), // 101c  &b[tid - 64]: anchored at a's start
            lw(A4, A3, 0),        // 1020
            ret(),
        ];
        let object = two_objects(&words, VgiwAlias::Object);
        let n = |pc| node_at(&object.blocks[0], pc);
        let load = &object.blocks[0].nodes[n(0x1020)];
        assert_eq!(load.address, Address::Anchored(DATA));
        assert_eq!(
            load.objects,
            [(DATA, DATA + 0x100), (DATA + 0x100, DATA + DATA_BYTES)]
        );
        assert_eq!(load.after, [n(0x1010)], "it may read a[tid]'s bytes");
    }

    #[test]
    fn a_load_no_store_may_write_is_a_launch_constant() {
        let p = lowered(&[
            csrr(A0, TID),    // 1000
            slli(A0, A0, 2),  // 1004
            lui(A1, 2),       // 1008
            lw(A2, A1, 0x10), // 100c  data + 0x10: written by nobody
            lw(A3, A1, 0x14), // 1010  data + 0x14: written below
            add(A4, A1, A0),  // 1014
            sw(A2, A1, 0x14), // 1018
            sw(A3, A4, 0x20), // 101c  data[8 + tid]: anywhere in data
            ret(),
        ])
        .unwrap();
        let b = &p.blocks[0];
        let constant = |pc| b.nodes[node_at(b, pc)].launch_constant;
        // The store through a0 may write all of data: neither load is a constant.
        assert!(!constant(0x100c) && !constant(0x1010));
        let p = lowered(&[
            csrr(A0, TID),     // 1000
            lui(A1, 2),        // 1004
            lw(A2, A1, 0x10),  // 1008
            lw(A3, A1, 0x14),  // 100c
            sw(A2, A1, 0x14),  // 1010
            addi(SP, SP, -16), // 1014
            sw(A0, SP, 0),     // 1018  the stack: not device memory
            lw(A0, SP, 0),     // 101c
            ret(),
        ])
        .unwrap();
        let b = &p.blocks[0];
        let constant = |pc| b.nodes[node_at(b, pc)].launch_constant;
        assert!(constant(0x1008));
        assert!(!constant(0x100c), "written by the store at 0x1010");
        assert!(!constant(0x101c), "the stack");
    }

    #[test]
    fn constants_fold_into_addresses_and_operations() {
        let p = lowered(&[
            addi(SP, SP, -16), // 1000
            csrr(A0, TID),     // 1004
            sw(A0, SP, 12),    // 1008: at STACK_TOP - 4
            lui(A1, 2),        // 100c
            addi(A1, A1, 8),   // 1010
            lw(A2, A1, 0),     // 1014: at data + 8
            ret(),
        ])
        .unwrap();
        let b = &p.blocks[0];
        let address = |pc| match b.nodes[b.nodes[node_at(b, pc)].args[0]].kind {
            NodeKind::Const(c) => c,
            ref k => panic!("{k:?}"),
        };
        assert_eq!(address(0x1008), STACK_TOP - 16);
        assert_eq!(address(0x1014), DATA + 8);
        // Only the coordinate, the store and the load are operations.
        assert_eq!(p.counts().nodes, 3);
    }

    #[test]
    fn calls_are_inlined_at_each_call_site() {
        let p = lowered(&[
            csrr(A0, TID),           // 1000
            jal(RA, 0x1004, 0x1018), // 1004: f
            jal(RA, 0x1008, 0x1018), // 1008: f again
            lui(A2, 2),              // 100c
            sw(A0, A2, 0),           // 1010
            ret(),                   // 1014
            addi(A0, A0, 3),         // 1018: f
            ret(),                   // 101c
        ])
        .unwrap();
        assert_eq!(p.blocks.len(), 1, "straight-line code through two calls");
        assert_eq!(
            p.blocks[0].pcs,
            [0x1000, 0x1004, 0x1018, 0x101c, 0x1008, 0x1018, 0x101c, 0x100c, 0x1010, 0x1014]
        );
        let copies = p.blocks[0]
            .nodes
            .iter()
            .filter(|n| matches!(n.kind, NodeKind::Inst { pc: 0x1018, .. }))
            .count();
        assert_eq!(copies, 2);
        assert_eq!(p.blocks[0].terminator, Terminator::Exit);
    }

    #[test]
    fn a_kernel_that_starts_with_a_loop_gets_an_empty_entry_block() {
        let p = lowered(&[
            addi(A0, A0, 1),                   // 1000: loop head
            addi(A1, ZERO, 8),                 // 1004
            branch(4, A0, A1, 0x1008, 0x1000), // 1008: blt a0, a1 -> head
            ret(),
        ])
        .unwrap();
        let (entry, head) = (&p.blocks[0], &p.blocks[1]);
        assert!(entry.pcs.is_empty());
        assert_eq!(entry.terminator, Terminator::Jump(1));
        // The counter's start (0, as every register but ra, sp and gp) is written there.
        assert_eq!(entry.writes.len(), 1);
        assert_eq!(entry.writes[0].0, A0 as u8);
        assert_eq!(entry.nodes[entry.writes[0].1].kind, NodeKind::Const(0));
        assert_eq!(head.pcs, [0x1000, 0x1004, 0x1008]);
        assert!(matches!(
            head.terminator,
            Terminator::Branch { taken: 1, .. }
        ));
    }

    #[test]
    fn recursion_is_refused_with_the_functions_address() {
        let err = lowered(&[
            jal(RA, 0x1000, 0x100c), // 1000: f
            ret(),                   // 1004
            ret(),                   // 1008
            jal(RA, 0x100c, 0x1014), // 100c: f calls g
            ret(),                   // 1010
            jal(RA, 0x1014, 0x100c), // 1014: g calls f
            ret(),                   // 1018
        ])
        .unwrap_err();
        assert!(
            err.starts_with("recursive call to the function at 0x100c (`jal` at 0x1014)"),
            "{err}"
        );
    }

    #[test]
    fn what_cannot_be_lowered_is_refused_with_its_address() {
        let refusal = |word: u32| lowered(&[csrr(A0, TID), word, ret()]).unwrap_err();
        assert!(
            refusal(ECALL).starts_with("`ecall` at 0x1004:"),
            "{}",
            refusal(ECALL)
        );
        let frflags = csrr(A1, 0x001);
        assert!(
            refusal(frflags).starts_with("`csrrs` at 0x1004: CSR 0x1 cannot be lowered"),
            "{}",
            refusal(frflags)
        );
        let undecodable = refusal(0);
        assert!(
            undecodable.contains("instruction at 0x1004"),
            "{undecodable}"
        );
        let indirect = refusal(0x0005_0067); // jalr zero, 0(a0)
        assert!(indirect.contains("`jalr` at 0x1004"), "{indirect}");
    }
}
