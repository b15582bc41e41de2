//! Which conditional branches of the kernel are *uniform*: at every dynamic execution,
//! every thread of the CTA that executes it takes the same direction (CAPRI §2.2, §4:
//! TBC+ skips the compaction stall at such branches). Computed once per kernel on the
//! RV32IMF binary, beside the reconvergence points of [`crate::core::cfg`].
//!
//! A dynamic execution is one issue of a CTA-wide PDOM execution (the block-wide stack
//! of thread block compaction): threads meet only at a branch's immediate
//! post-dominator, so two threads that execute a branch together have followed the same
//! path since their last reconvergence. A branch inside a divergent region with
//! uniform operands is therefore uniform for the threads that reach it.
//!
//! The analysis is sound ("uniform" is never wrong) and conservative ("divergent" may
//! be). Each register (`x`, `f`, and `frm`, which rounds dynamic-mode float
//! operations) is uniform or divergent at each instruction, to a fixpoint:
//! - at kernel entry every register is uniform (every thread starts with the same
//!   values: `ra` the exit address, `sp` the top of its private stack, `gp`, zeros);
//! - `weft_tid` (CSR 0xCC0) and every CSR but 0xCC1..0xCC3 (`ntid`, `ctaid`, CTA size)
//!   are divergent;
//! - **every load is divergent**, with one exception: a load from the thread's own
//!   stack at a known offset from `sp` whose bytes the analysis saw stored with uniform
//!   values (a spilled register reloaded). Global memory is never trusted: the kernel
//!   may store to it, and threads read it at different times;
//! - `sp` is uniform while its offset from the entry `sp` is the same constant on every
//!   path (every thread's stack sits at the same addresses); links (`jal`, `jalr`),
//!   `lui` and `auipc` are constants; anything else is divergent if an operand is;
//! - control dependence: at the immediate post-dominator of a divergent branch, every
//!   register and stack byte written in its influence region (what the branch reaches
//!   before the post-dominator, loop back edges included) becomes divergent: threads
//!   that took different paths meet there with different values. A store through any
//!   pointer other than `sp` in that region makes every stack byte divergent.
//!
//! A branch is uniform when both its operands are. Calls are inlined: every call site
//! analyses its callee afresh in its own context (the CFG refuses recursion, so the
//! contexts form a tree), a callee's branch reconverging at its return meets at the
//! call's return address; a branch is uniform if it is in every context. A kernel whose
//! calls unfold into more than [`MAX_CONTEXTS`] contexts gets no uniform branch (sound,
//! and never met by the kernels here). The answer also names the uniform branches
//! outside every divergent region ([`Uniformity::whole_cta`]): every thread of the CTA
//! executes those equally often.
//!
//! The answer follows the binary's layout, not the source: a loop placed inside the
//! region of a divergent `if` (clang's zero-trip guard can put the `if`'s
//! reconvergence point after the loop) runs once per side, and is uniform even when its
//! bound was assigned differently on each side. Cost: a few hundred microseconds per
//! kernel (at most 1.2 ms on the kernels of `kernels/`), once per `Kernel`.
use crate::core::cfg::{Cfg, Flow, Reconvergence};
use crate::core::isa::{Inst, Op};
use crate::core::thread::{CSR_CTAID, CSR_CTA_SIZE, CSR_FCSR, CSR_FRM, CSR_NTID};
use std::collections::{BTreeSet, HashMap};

/// The most call contexts the analysis unfolds before it gives up (and proves nothing).
pub const MAX_CONTEXTS: usize = 4096;

/// Register bits: `x0..x31` are 0..=31 and `f0..f31` 32..=63 (as [`Inst::registers`]
/// numbers them); `frm` is 64.
const FRM: u32 = 64;
const SP: u32 = 2;

fn bit(r: u32) -> u128 {
    1u128 << r
}

/// The PCs of the conditional branches proven uniform. `inst(pc)` is the instruction at
/// every PC the CFG reached.
pub fn uniform_branches(cfg: &Cfg, inst: impl Fn(u32) -> Option<Inst>) -> BTreeSet<u32> {
    analyse(cfg, inst).uniform
}

/// The analysis' answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Uniformity {
    /// Conditional branches every thread of a CTA that reaches them together takes the
    /// same way, at every execution.
    pub uniform: BTreeSet<u32>,
    /// Those of them outside every divergent region (in every call context): every
    /// thread of the CTA executes them as often, and takes them the same way each time.
    pub whole_cta: BTreeSet<u32>,
}

/// Analyses the kernel of `cfg`; `inst(pc)` is the instruction at every PC it reached.
pub fn analyse(cfg: &Cfg, inst: impl Fn(u32) -> Option<Inst>) -> Uniformity {
    match Graph::new(cfg, &inst) {
        Some(graph) => graph.solve(),
        None => Uniformity::default(),
    }
}

/// One instruction in one call context.
struct Node {
    pc: u32,
    inst: Inst,
    flow: Flow,
    succ: Vec<usize>,
    /// For a branch: where its two paths meet again (`None`: only at the kernel's exit).
    reconvergence: Option<usize>,
}

/// The kernel with every call inlined.
struct Graph {
    nodes: Vec<Node>,
    entry: usize,
}

/// A call context: a function, and where it returns to (`None` for the kernel).
struct Context {
    function: u32,
    ret: Option<(usize, u32)>,
}

impl Graph {
    fn new(cfg: &Cfg, inst: &impl Fn(u32) -> Option<Inst>) -> Option<Graph> {
        let kernel = *cfg.functions.first()?;
        let mut contexts = vec![Context {
            function: kernel,
            ret: None,
        }];
        let mut index: HashMap<(usize, u32), usize> = HashMap::new();
        let mut nodes = vec![];
        // Contexts are created in order, a callee's after its caller's.
        let mut c = 0;
        while c < contexts.len() {
            for &pc in cfg.instructions.get(&contexts[c].function)? {
                let flow = *cfg.flows.get(&pc)?;
                if let Flow::Call { target } = flow {
                    if contexts.len() >= MAX_CONTEXTS {
                        return None;
                    }
                    contexts.push(Context {
                        function: target,
                        ret: Some((c, pc.wrapping_add(4))),
                    });
                }
                index.insert((c, pc), nodes.len());
                nodes.push(Node {
                    pc,
                    inst: inst(pc)?,
                    flow,
                    succ: vec![],
                    reconvergence: None,
                });
            }
            c += 1;
        }
        // The callee context of each call site, in creation order.
        let mut callee: HashMap<(usize, u32), usize> = HashMap::new();
        for (i, ctx) in contexts.iter().enumerate().skip(1) {
            let (parent, ret) = ctx.ret?;
            callee.insert((parent, ret.wrapping_sub(4)), i);
        }
        let return_point = |c: usize| -> Option<Option<usize>> {
            match contexts[c].ret {
                None => Some(None),
                Some((parent, ret)) => Some(Some(*index.get(&(parent, ret))?)),
            }
        };
        let mut c_of = vec![0; nodes.len()];
        for (&(c, _), &n) in &index {
            c_of[n] = c;
        }
        for n in 0..nodes.len() {
            let (c, pc) = (c_of[n], nodes[n].pc);
            let at = |p: u32| index.get(&(c, p)).copied();
            let succ = match nodes[n].flow {
                Flow::Next => vec![at(pc.wrapping_add(4))?],
                Flow::Branch { taken } => vec![at(taken)?, at(pc.wrapping_add(4))?],
                Flow::Jump { target } => vec![at(target)?],
                Flow::Call { target } => {
                    let callee = *callee.get(&(c, pc))?;
                    vec![*index.get(&(callee, target))?]
                }
                Flow::Return => return_point(c)?.into_iter().collect(),
            };
            nodes[n].succ = succ;
            if let Flow::Branch { .. } = nodes[n].flow {
                nodes[n].reconvergence = match cfg.reconvergence_of(pc)? {
                    Reconvergence::At(p) => Some(at(p)?),
                    Reconvergence::AtReturn => return_point(c)?,
                };
            }
        }
        let entry = *index.get(&(0, kernel))?;
        Some(Graph { nodes, entry })
    }

    /// Runs the dataflow to its fixpoint, adds the control dependences of the branches
    /// it found divergent, and again until no more branch turns divergent.
    fn solve(&self) -> Uniformity {
        let mut divergent: BTreeSet<usize> = BTreeSet::new();
        let mut extra: HashMap<usize, Writes> = HashMap::new();
        loop {
            let states = self.dataflow(&extra);
            let found: BTreeSet<usize> = (0..self.nodes.len())
                .filter(|&n| self.nodes[n].inst.is_branch())
                .filter(|&n| match &states[n] {
                    Some(s) => s.reads_divergent(&self.nodes[n].inst),
                    None => false,
                })
                .collect();
            if found == divergent {
                return self.answer(&divergent, &states);
            }
            divergent = found;
            extra.clear();
            for &b in &divergent {
                if let Some(r) = self.nodes[b].reconvergence {
                    let w = self.region_writes(b, &states);
                    extra.entry(r).or_default().add(&w);
                }
            }
        }
    }

    /// The branches uniform in every context, and those of them outside every
    /// divergent region.
    fn answer(&self, divergent: &BTreeSet<usize>, states: &[Option<State>]) -> Uniformity {
        let mut inside = vec![false; self.nodes.len()];
        for &b in divergent {
            for (n, r) in self.region(b).into_iter().enumerate() {
                inside[n] |= r;
            }
        }
        let mut uniform: BTreeSet<u32> = BTreeSet::new();
        let mut refused: BTreeSet<u32> = BTreeSet::new();
        let mut partial: BTreeSet<u32> = BTreeSet::new();
        for (n, node) in self.nodes.iter().enumerate() {
            if node.inst.is_branch() && states[n].is_some() {
                if divergent.contains(&n) {
                    refused.insert(node.pc);
                } else {
                    uniform.insert(node.pc);
                }
                if inside[n] {
                    partial.insert(node.pc);
                }
            }
        }
        let uniform = &uniform - &refused;
        let whole_cta = &uniform - &partial;
        Uniformity { uniform, whole_cta }
    }

    /// The influence region of the branch `b`: what it reaches before its
    /// reconvergence point (before the kernel's exit when it has none).
    fn region(&self, b: usize) -> Vec<bool> {
        let r = self.nodes[b].reconvergence;
        let mut seen = vec![false; self.nodes.len()];
        let mut todo: Vec<usize> = self.nodes[b].succ.clone();
        while let Some(n) = todo.pop() {
            if Some(n) == r || seen[n] {
                continue;
            }
            seen[n] = true;
            todo.extend(&self.nodes[n].succ);
        }
        seen
    }

    /// What the influence region of the branch `b` writes.
    fn region_writes(&self, b: usize, states: &[Option<State>]) -> Writes {
        let mut w = Writes::default();
        for (n, inside) in self.region(b).into_iter().enumerate() {
            if !inside {
                continue;
            }
            let node = &self.nodes[n];
            w.regs |= written(&node.inst);
            if node.inst.is_store() {
                match states[n].as_ref().and_then(|s| s.sp_slot(&node.inst)) {
                    Some(bytes) => w.slots.extend(bytes),
                    None => w.all_slots = true,
                }
            }
        }
        w
    }

    /// The state before every node, given the control-dependence writes `extra` that
    /// take effect at reconvergence nodes.
    fn dataflow(&self, extra: &HashMap<usize, Writes>) -> Vec<Option<State>> {
        let mut states: Vec<Option<State>> = vec![None; self.nodes.len()];
        states[self.entry] = Some(State::entry());
        let mut todo: BTreeSet<usize> = BTreeSet::from([self.entry]);
        while let Some(n) = todo.pop_first() {
            let mut s = states[n].clone().expect("queued nodes have a state");
            if let Some(w) = extra.get(&n) {
                s.apply(w);
            }
            s.step(&self.nodes[n].inst);
            for &m in &self.nodes[n].succ {
                let changed = match &mut states[m] {
                    Some(t) => t.join(&s),
                    slot @ None => {
                        *slot = Some(s.clone());
                        true
                    }
                };
                if changed {
                    todo.insert(m);
                }
            }
        }
        // The state a branch reads includes its own node's control dependences.
        for (n, s) in states.iter_mut().enumerate() {
            if let (Some(s), Some(w)) = (s.as_mut(), extra.get(&n)) {
                s.apply(w);
            }
        }
        states
    }
}

/// The registers `inst` writes (as bits), `frm` included.
fn written(inst: &Inst) -> u128 {
    let mut w = inst.registers().write.map_or(0, |r| bit(u32::from(r)));
    if writes_frm(inst) {
        w |= bit(FRM);
    }
    w
}

fn is_csr(inst: &Inst) -> bool {
    use Op::*;
    matches!(inst.op, Csrrw | Csrrs | Csrrc | Csrrwi | Csrrsi | Csrrci)
}

/// A CSR instruction that writes `frm` (`csrrs`/`csrrc` with `x0` or a zero immediate
/// only read).
fn writes_frm(inst: &Inst) -> bool {
    let csr = inst.imm as u32 & 0xfff;
    is_csr(inst)
        && (csr == CSR_FRM || csr == CSR_FCSR)
        && (matches!(inst.op, Op::Csrrw | Op::Csrrwi) || inst.rs1 != 0)
}

/// What a region writes: registers, stack bytes at known offsets, or any stack byte.
#[derive(Clone, Debug, Default)]
struct Writes {
    regs: u128,
    slots: BTreeSet<i32>,
    all_slots: bool,
}

impl Writes {
    fn add(&mut self, o: &Writes) {
        self.regs |= o.regs;
        self.slots.extend(&o.slots);
        self.all_slots |= o.all_slots;
    }
}

/// What the analysis knows before an instruction, over every path to it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct State {
    /// Divergent registers.
    div: u128,
    /// `sp` minus the kernel-entry `sp`, when it is the same on every path.
    sp: Option<i32>,
    /// Stack bytes (offsets from the kernel-entry `sp`) known to hold the same value in
    /// every thread; every other stack byte may differ.
    slots: BTreeSet<i32>,
}

impl State {
    fn entry() -> State {
        State {
            div: 0,
            sp: Some(0),
            slots: BTreeSet::new(),
        }
    }

    fn is_div(&self, r: Option<u8>) -> bool {
        r.is_some_and(|r| self.div & bit(u32::from(r)) != 0)
    }

    /// Whether any operand `inst` reads (registers, and `frm` for a dynamic rounding
    /// mode) is divergent.
    fn reads_divergent(&self, inst: &Inst) -> bool {
        inst.registers().reads.iter().any(|&r| self.is_div(r))
            || (inst.rm == 7 && self.div & bit(FRM) != 0)
    }

    /// The stack bytes an access through `sp` touches, when `sp` is known.
    fn sp_slot(&self, inst: &Inst) -> Option<std::ops::Range<i32>> {
        let size = match inst.op {
            Op::Lb | Op::Lbu | Op::Sb => 1,
            Op::Lh | Op::Lhu | Op::Sh => 2,
            _ => 4,
        };
        let base = self.sp.filter(|_| u32::from(inst.rs1) == SP)?;
        let at = base.checked_add(inst.imm)?;
        Some(at..at.checked_add(size)?)
    }

    /// Threads that took different paths meet: what the paths wrote differs.
    fn apply(&mut self, w: &Writes) {
        self.div |= w.regs;
        if w.all_slots {
            self.slots.clear();
        } else {
            for b in &w.slots {
                self.slots.remove(b);
            }
        }
        self.pin_sp();
    }

    /// A known `sp` offset is the same address in every thread.
    fn pin_sp(&mut self) {
        if self.sp.is_some() {
            self.div &= !bit(SP);
        }
    }

    /// The state after `inst`.
    fn step(&mut self, inst: &Inst) {
        let regs = inst.registers();
        let operands_div = self.reads_divergent(inst);
        let csr = inst.imm as u32 & 0xfff;
        let value_div = match inst.op {
            _ if inst.is_load() => match self.sp_slot(inst) {
                Some(bytes) => !bytes.clone().all(|b| self.slots.contains(&b)),
                None => true,
            },
            _ if inst.is_store() => {
                let value_div = self.is_div(regs.reads[1]);
                match self.sp_slot(inst) {
                    Some(bytes) => {
                        for b in bytes {
                            if value_div {
                                self.slots.remove(&b);
                            } else {
                                self.slots.insert(b);
                            }
                        }
                    }
                    // Every thread writes the same value at the same address: a stack
                    // byte the same in every thread stays so. Otherwise any may differ.
                    None if value_div || self.is_div(regs.reads[0]) => self.slots.clear(),
                    None => {}
                }
                false
            }
            // Links are the address after the jump, the same in every thread.
            Op::Jal | Op::Jalr => false,
            _ if is_csr(inst) => {
                if writes_frm(inst) {
                    let old_kept = matches!(inst.op, Op::Csrrs | Op::Csrrc);
                    let frm_div = operands_div || (old_kept && self.div & bit(FRM) != 0);
                    self.set(FRM, frm_div);
                }
                !matches!(csr, CSR_NTID | CSR_CTAID | CSR_CTA_SIZE)
            }
            _ => operands_div,
        };
        if let Some(rd) = regs.write {
            self.set(u32::from(rd), value_div);
            if u32::from(rd) == SP {
                self.sp = match (inst.op, self.sp) {
                    (Op::Addi, Some(at)) if u32::from(inst.rs1) == SP => at.checked_add(inst.imm),
                    _ => None,
                };
            }
        }
        self.pin_sp();
    }

    fn set(&mut self, r: u32, divergent: bool) {
        if divergent {
            self.div |= bit(r);
        } else {
            self.div &= !bit(r);
        }
    }

    /// Joins `o` into `self`; whether `self` changed.
    fn join(&mut self, o: &State) -> bool {
        let before = (self.div, self.sp, self.slots.len());
        self.div |= o.div;
        if self.sp != o.sp {
            // Paths with different `sp` offsets: `sp` is no longer a known address.
            if self.sp.is_some() && o.sp.is_some() {
                self.div |= bit(SP);
            }
            self.sp = None;
            self.div |= o.div & bit(SP);
        }
        self.slots.retain(|b| o.slots.contains(b));
        self.pin_sp();
        before != (self.div, self.sp, self.slots.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::cfg;
    use crate::core::thread::CSR_TID;
    use Op::*;

    const ZERO: u8 = 0;
    const RA: u8 = 1;
    const A0: u8 = 10;
    const A1: u8 = 11;
    const A2: u8 = 12;
    const A3: u8 = 13;

    fn i(op: Op, rd: u8, rs1: u8, rs2: u8, imm: i32) -> Inst {
        Inst {
            op,
            rd,
            rs1,
            rs2,
            rs3: 0,
            rm: 0,
            imm,
        }
    }
    fn csr(rd: u8, number: u32) -> Inst {
        i(Csrrs, rd, ZERO, 0, number as i32)
    }
    /// A branch to the instruction `to` (a PC), placed at `at`.
    fn br(op: Op, rs1: u8, rs2: u8, at: u32, to: u32) -> Inst {
        i(op, 0, rs1, rs2, to.wrapping_sub(at) as i32)
    }
    fn ret() -> Inst {
        i(Jalr, ZERO, RA, 0, 0)
    }
    fn nop() -> Inst {
        i(Addi, ZERO, ZERO, 0, 0)
    }

    /// The uniform branches of `code`, placed at 0x100 and entered there; control flow
    /// as `Program::cfg` classifies it (`jal ra` calls, `jalr x0, 0(ra)` returns).
    fn uniform(code: &[Inst]) -> BTreeSet<u32> {
        analysed(code).uniform
    }

    fn analysed(code: &[Inst]) -> Uniformity {
        let at = |pc: u32| code.get((pc.wrapping_sub(0x100) / 4) as usize).copied();
        let cfg = cfg::analyse(0x100, |pc| {
            let inst = at(pc).ok_or(format!("no instruction at {pc:#x}"))?;
            let target = pc.wrapping_add(inst.imm as u32);
            Ok(match inst.op {
                Jal if inst.rd == ZERO => Flow::Jump { target },
                Jal => Flow::Call { target },
                Jalr => Flow::Return,
                _ if inst.is_branch() => Flow::Branch { taken: target },
                _ => Flow::Next,
            })
        })
        .unwrap();
        analyse(&cfg, at)
    }

    #[test]
    fn a_branch_on_the_thread_index_is_divergent() {
        let code = [
            csr(A0, CSR_TID),
            br(Beq, A0, ZERO, 0x104, 0x10c),
            i(Addi, A1, A1, 0, 1),
            ret(),
        ];
        assert!(!uniform(&code).contains(&0x104));
        // The same branch on the CTA index is uniform.
        let mut code = code;
        code[0] = csr(A0, CSR_CTAID);
        assert!(uniform(&code).contains(&0x104));
    }

    #[test]
    fn a_loop_bounded_by_the_launch_or_cta_size_is_uniform() {
        for bound in [CSR_NTID, CSR_CTA_SIZE] {
            let code = [
                csr(A1, bound),
                csr(A3, CSR_TID),
                i(Addi, A0, ZERO, 0, 0),
                i(Add, A2, A2, A3, 0), // 10c: the body works on the thread's data
                i(Addi, A0, A0, 0, 1),
                br(Blt, A0, A1, 0x114, 0x10c),
                ret(),
            ];
            let u = analysed(&code);
            assert_eq!(u.uniform, BTreeSet::from([0x114]), "{bound:#x}");
            assert_eq!(u.whole_cta, u.uniform, "{bound:#x}");
        }
    }

    /// 100: a1 = 5; 104: if (tid) a1 = 7 (108..10c); 110: branch on a1 at the join.
    fn assigned_under(cond: u32) -> [Inst; 7] {
        [
            csr(A0, cond),
            i(Addi, A1, ZERO, 0, 5),
            br(Beq, A0, ZERO, 0x108, 0x110),
            i(Addi, A1, ZERO, 0, 7),
            br(Beq, A1, ZERO, 0x110, 0x118),
            nop(),
            ret(),
        ]
    }

    #[test]
    fn a_value_assigned_under_a_divergent_branch_is_divergent_after_the_join() {
        let u = uniform(&assigned_under(CSR_TID));
        assert!(!u.contains(&0x108) && !u.contains(&0x110), "{u:x?}");
        // Under a uniform branch the two constants stay uniform.
        let u = uniform(&assigned_under(CSR_NTID));
        assert!(u.contains(&0x108) && u.contains(&0x110), "{u:x?}");
    }

    #[test]
    fn a_branch_inside_a_divergent_region_with_uniform_operands_is_uniform() {
        let code = [
            csr(A0, CSR_TID),
            csr(A1, CSR_NTID),
            br(Beq, A0, ZERO, 0x108, 0x114),
            br(Bne, A1, ZERO, 0x10c, 0x114), // reached by part of the CTA, all alike
            i(Addi, A2, ZERO, 0, 1),
            ret(),
        ];
        let u = analysed(&code);
        assert!(
            !u.uniform.contains(&0x108) && u.uniform.contains(&0x10c),
            "{u:x?}"
        );
        // Only part of the CTA reaches it.
        assert!(u.whole_cta.is_empty(), "{u:x?}");
    }

    #[test]
    fn loads_are_divergent_from_a_thread_indexed_address_and_from_global_memory() {
        for address_from in [CSR_TID, CSR_NTID] {
            let code = [
                csr(A0, address_from),
                i(Slli, A0, A0, 0, 2),
                i(Lui, A1, 0, 0, 0x10 << 12),
                i(Add, A1, A1, A0, 0),
                i(Lw, A2, A1, 0, 0),
                br(Beq, A2, ZERO, 0x114, 0x11c),
                nop(),
                ret(),
            ];
            assert!(uniform(&code).is_empty(), "{address_from:#x}");
        }
    }

    #[test]
    fn a_store_never_makes_a_register_divergent() {
        let code = [
            csr(A0, CSR_TID),
            csr(A1, CSR_NTID),
            i(Sw, 0, A1, A0, 0), // a divergent value at a uniform address
            i(Sw, 0, A0, A1, 0), // a uniform value at a divergent address
            br(Beq, A1, ZERO, 0x110, 0x118),
            nop(),
            ret(),
        ];
        assert_eq!(uniform(&code), BTreeSet::from([0x110]));
    }

    #[test]
    fn a_loop_whose_exit_depends_on_a_loaded_value_is_divergent() {
        let code = [
            i(Lui, A1, 0, 0, 0x10 << 12),
            i(Lw, A2, A1, 0, 0), // 104
            i(Addi, A1, A1, 0, 4),
            br(Bne, A2, ZERO, 0x10c, 0x104),
            ret(),
        ];
        assert!(uniform(&code).is_empty());
    }

    #[test]
    fn a_counter_is_uniform_inside_a_loop_with_a_divergent_exit_and_divergent_after() {
        let code = [
            csr(A0, CSR_TID),
            i(Addi, A1, ZERO, 0, 0),
            i(Addi, A1, A1, 0, 1),           // 108: loop
            br(Blt, A1, A0, 0x10c, 0x108),   // divergent exit
            br(Beq, A1, ZERO, 0x110, 0x118), // after the loop: a1 differs
            nop(),
            ret(),
        ];
        let u = uniform(&code);
        assert!(!u.contains(&0x10c) && !u.contains(&0x110), "{u:x?}");
        // An inner test of the counter, inside the loop, is uniform.
        let code = [
            csr(A0, CSR_TID),
            i(Addi, A1, ZERO, 0, 0),
            i(Addi, A1, A1, 0, 1),           // 108: loop
            br(Beq, A1, ZERO, 0x10c, 0x114), // uniform among the threads still looping
            nop(),
            br(Blt, A1, A0, 0x114, 0x108),
            ret(),
        ];
        let u = uniform(&code);
        assert!(u.contains(&0x10c) && !u.contains(&0x114), "{u:x?}");
    }

    /// 100: sp -= 16; a1 = value; 108: sw a1, 12(sp); 10c: clobber; a1 = tid;
    /// 114: lw a2, 12(sp); 118: branch on a2.
    fn spilled(value: u32, clobber: Inst) -> BTreeSet<u32> {
        uniform(&[
            i(Addi, 2, 2, 0, -16),
            csr(A1, value),
            i(Sw, 0, 2, A1, 12),
            clobber,
            csr(A1, CSR_TID),
            i(Lw, A2, 2, 0, 12),
            br(Beq, A2, ZERO, 0x118, 0x120),
            nop(),
            i(Addi, 2, 2, 0, 16),
            ret(),
        ])
    }

    #[test]
    fn a_spilled_uniform_register_reloads_uniform() {
        assert!(spilled(CSR_NTID, nop()).contains(&0x118));
        assert!(spilled(CSR_TID, nop()).is_empty());
        // Another slot of the stack leaves it alone; a store through a pointer the
        // threads do not share may hit it.
        assert!(spilled(CSR_NTID, i(Sw, 0, 2, A1, 8)).contains(&0x118));
        assert!(spilled(CSR_NTID, i(Sw, 0, A1, ZERO, 0)).contains(&0x118));
        let tid_pointer = uniform(&[
            i(Addi, 2, 2, 0, -16),
            csr(A1, CSR_NTID),
            i(Sw, 0, 2, A1, 12),
            csr(A1, CSR_TID),
            i(Sw, 0, A1, ZERO, 0),
            i(Lw, A2, 2, 0, 12),
            br(Beq, A2, ZERO, 0x118, 0x120),
            nop(),
            i(Addi, 2, 2, 0, 16),
            ret(),
        ]);
        assert!(tid_pointer.is_empty());
    }

    #[test]
    fn calls_are_analysed_in_each_context() {
        // 100: a0 = tid or ntid; 104: call 11c; 108: branch on the result; 10c: nop;
        // 110..118: ret padding | 11c: a3 = a0; 120: loop bound by ntid; 124: ret.
        let code = |arg: u32| {
            [
                csr(A0, arg),
                i(Jal, RA, 0, 0, 0x11c - 0x104),
                br(Beq, A3, ZERO, 0x108, 0x110),
                nop(),
                ret(), // 110
                nop(),
                nop(),
                i(Addi, A3, A0, 0, 0), // 11c: the callee
                csr(A1, CSR_NTID),
                br(Blt, A3, A1, 0x124, 0x11c),
                ret(),
            ]
        };
        let u = uniform(&code(CSR_TID));
        assert!(!u.contains(&0x108) && !u.contains(&0x124), "{u:x?}");
        let u = uniform(&code(CSR_NTID));
        assert!(u.contains(&0x108) && u.contains(&0x124), "{u:x?}");
    }

    #[test]
    fn a_register_a_callee_writes_under_a_divergent_branch_differs_after_the_join() {
        // 100: tid; 104: a3 = 0; 108: if (tid) call 11c (sets a3 = 1); 110: join.
        let code = |cond: u32| {
            [
                csr(A0, cond),
                i(Addi, A3, ZERO, 0, 0),
                br(Beq, A0, ZERO, 0x108, 0x110),
                i(Jal, RA, 0, 0, 0x11c - 0x10c),
                br(Beq, A3, ZERO, 0x110, 0x118), // 110: join
                nop(),
                ret(),                   // 118
                i(Addi, A3, ZERO, 0, 1), // 11c: callee
                ret(),
            ]
        };
        assert!(!uniform(&code(CSR_TID)).contains(&0x110));
        assert!(uniform(&code(CSR_CTAID)).contains(&0x110));
    }

    #[test]
    fn a_callee_branch_reconverging_at_its_return_makes_its_writes_divergent_after_the_call() {
        // 100: call 110; 104: branch on a3; 108: nop; 10c: ret | 110: a3 = 0;
        // 114: cond; 118: if (cond) { 11c: a3 = 1; 120: ret } 124: ret (two returns:
        // the paths meet only at the call's return address).
        let code = |cond: u32| {
            [
                i(Jal, RA, 0, 0, 0x110 - 0x100),
                br(Beq, A3, ZERO, 0x104, 0x10c),
                nop(),
                ret(),
                i(Addi, A3, ZERO, 0, 0), // 110: the callee
                csr(A0, cond),
                br(Beq, A0, ZERO, 0x118, 0x124),
                i(Addi, A3, ZERO, 0, 1),
                ret(),
                ret(), // 124
            ]
        };
        let u = uniform(&code(CSR_TID));
        assert!(!u.contains(&0x104) && !u.contains(&0x118), "{u:x?}");
        let u = uniform(&code(CSR_CTA_SIZE));
        assert!(u.contains(&0x104) && u.contains(&0x118), "{u:x?}");
    }

    #[test]
    fn dynamic_rounding_follows_a_divergent_frm() {
        // fcvt.w.s a1, f0 with the dynamic mode after frm = a0.
        let code = |value: u32| {
            let mut cvt = i(FcvtWS, A1, 0, 0, 0);
            cvt.rm = 7;
            [
                csr(A0, value),
                i(Csrrw, ZERO, A0, 0, CSR_FRM as i32),
                cvt,
                br(Beq, A1, ZERO, 0x10c, 0x114),
                nop(),
                ret(),
            ]
        };
        assert!(uniform(&code(CSR_TID)).is_empty());
        assert!(uniform(&code(CSR_NTID)).contains(&0x10c));
    }
}
