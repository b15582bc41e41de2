//! The lowered program: a kernel as VGIW basic blocks (§2-3.1 of the VGIW paper), each a
//! dataflow graph, numbered so that the basic block scheduler's lowest-id-first order
//! runs them.
//!
//! A block holds its nodes in program order (a topological order of its edges):
//! constants, live-value reads, thread coordinates and the instructions that compute
//! (ALU, FPU, loads, stores and the compare of the closing branch). A node's operand
//! edges name the nodes whose values it reads, one per register its instruction reads,
//! in [`Inst::registers`] order; a memory access's order edges name the earlier accesses
//! of the block it must follow (they may touch the same bytes and one of the two is a
//! store). At its end a block writes its live values (registers other blocks read) and
//! passes its threads on by its [`Terminator`].
//!
//! Live values are named by the architectural register that carries them (1..=31 are
//! `x1..x31`, 32..=63 `f0..f31`): the lowering inlines calls, so the register file is
//! the one set of names every block agrees on, and a register is a live value ID.
use crate::core::isa::Inst;

/// A block's ID: its place in the scheduler's order (0 is the entry).
pub type BlockId = usize;
/// A node's index in its block.
pub type NodeId = usize;
/// A register, numbered as [`Inst::registers`] numbers them.
pub type Reg = u8;

/// A thread coordinate (weft's read-only CSRs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coordinate {
    Tid,
    Ntid,
    Ctaid,
    CtaSize,
}

/// What a node computes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// A constant (folded at lowering time).
    Const(u32),
    /// A live-value read: the value of `Reg` another block wrote.
    LiveIn(Reg),
    /// A thread coordinate.
    Coordinate(Coordinate),
    /// The instruction at `pc` applied to the node's operands: its result is the
    /// register it writes; a store's is 0; a conditional branch's is 1 when taken.
    Inst { inst: Inst, pc: u32 },
}

/// One node of a block's dataflow graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub kind: NodeKind,
    /// Operand edges.
    pub args: Vec<NodeId>,
    /// Memory-order edges (loads and stores only): earlier accesses this one follows.
    pub after: Vec<NodeId>,
    /// The value is the same for every thread of a CTA: it is built from constants and
    /// the CTA-wide coordinates only (a live-value read is never taken as uniform).
    pub uniform: bool,
    /// A memory access's address as the lowering sees it.
    pub address: Address,
    /// The byte ranges `[start, end)` of the data objects an anchored access stays in
    /// (C's rule for array indexing; checked on every access the engine times); empty:
    /// anywhere.
    pub objects: Vec<(u32, u32)>,
    /// A load of a launch value: a constant address no store of the kernel may write.
    pub launch_constant: bool,
}

/// A memory access's address as the lowering sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Address {
    /// Not a memory access.
    #[default]
    None,
    /// A constant address and the access's size in bytes.
    Exact(u64, u64),
    /// A data object's address (the anchor) plus an index.
    Anchored(u32),
    /// Anything.
    Unknown,
}

impl Node {
    pub fn is_load(&self) -> bool {
        matches!(&self.kind, NodeKind::Inst { inst, .. } if inst.is_load())
    }

    pub fn is_store(&self) -> bool {
        matches!(&self.kind, NodeKind::Inst { inst, .. } if inst.is_store())
    }

    /// An operation the fabric performs (not a constant nor a live-value read).
    pub fn is_operation(&self) -> bool {
        matches!(self.kind, NodeKind::Inst { .. } | NodeKind::Coordinate(_))
    }
}

/// Where a block sends its threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terminator {
    /// To `taken` when node `cond` is non-zero, else to `not_taken`.
    Branch {
        cond: NodeId,
        taken: BlockId,
        not_taken: BlockId,
    },
    Jump(BlockId),
    /// The CTA barrier: the thread waits until every live thread of its CTA waits at a
    /// barrier, then goes on to the block.
    Barrier(BlockId),
    /// The thread returns from the kernel.
    Exit,
}

impl Terminator {
    /// The blocks a thread may go to next.
    pub fn successors(&self) -> Vec<BlockId> {
        match *self {
            Terminator::Branch {
                taken, not_taken, ..
            } => vec![taken, not_taken],
            Terminator::Jump(b) | Terminator::Barrier(b) => vec![b],
            Terminator::Exit => vec![],
        }
    }
}

/// One basic block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub id: BlockId,
    /// The addresses of the instructions it came from, in order (an inlined function's
    /// instructions appear in every block they were inlined into). Empty for the
    /// synthetic entry block the lowering adds when the kernel's first instruction is a
    /// loop head.
    pub pcs: Vec<u32>,
    pub nodes: Vec<Node>,
    /// The live values written at the block's end: register and the node giving it.
    pub writes: Vec<(Reg, NodeId)>,
    pub terminator: Terminator,
}

impl Block {
    /// The live values the block reads.
    pub fn reads(&self) -> impl Iterator<Item = Reg> + '_ {
        self.nodes.iter().filter_map(|n| match n.kind {
            NodeKind::LiveIn(r) => Some(r),
            _ => None,
        })
    }

    /// How many distinct live values the block reads or writes.
    pub fn live_values(&self) -> usize {
        let mut regs: u64 = 0;
        for r in self.reads().chain(self.writes.iter().map(|w| w.0)) {
            regs |= 1 << r;
        }
        regs.count_ones() as usize
    }
}

/// A lowered kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Blocks by ID: `blocks[i].id == i`.
    pub blocks: Vec<Block>,
    /// Every register's value when a thread starts (`ra`, `sp`, `gp`; the rest 0):
    /// the values the entry block's constants are folded from.
    pub initial: [u32; 64],
}

/// What Table 2 of the VGIW paper and the study compare: a lowered kernel's size.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Counts {
    pub blocks: usize,
    /// Operations (instructions and coordinate reads; constants and live-value reads
    /// not counted).
    pub nodes: usize,
    /// Distinct live values (registers some block writes or reads).
    pub live_values: usize,
    /// The most live values one block reads or writes.
    pub max_block_live_values: usize,
    /// Live-value reads and writes over all blocks (static).
    pub live_value_reads: usize,
    pub live_value_writes: usize,
    /// Memory-order edges over all blocks.
    pub order_edges: usize,
}

impl Program {
    pub fn counts(&self) -> Counts {
        let mut regs: u64 = 0;
        let mut c = Counts {
            blocks: self.blocks.len(),
            ..Counts::default()
        };
        for b in &self.blocks {
            c.nodes += b.nodes.iter().filter(|n| n.is_operation()).count();
            c.order_edges += b.nodes.iter().map(|n| n.after.len()).sum::<usize>();
            c.live_value_reads += b.reads().count();
            c.live_value_writes += b.writes.len();
            c.max_block_live_values = c.max_block_live_values.max(b.live_values());
            for r in b.reads().chain(b.writes.iter().map(|w| w.0)) {
                regs |= 1 << r;
            }
        }
        c.live_values = regs.count_ones() as usize;
        c
    }
}
