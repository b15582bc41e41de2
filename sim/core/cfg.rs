//! The kernel's control-flow graph and its reconvergence points, computed once per
//! kernel: the immediate post-dominator of every conditional branch (where the PDOM
//! divergence stack reconverges the branch's two paths; LWM §2.3, CAPRI §2.1).
//!
//! The graph is per function, at instruction granularity: a function is `weft_kernel`
//! or the target of a direct call (`jal ra, f`) reached from it. A call falls through
//! to the next instruction in its caller (the callee reconverges inside itself); a
//! return (`jalr x0, 0(ra)`) goes to the function's exit. Any other indirect jump is
//! refused with its address: the model cannot know where it goes.
//!
//! Post-dominators are found with the iterative algorithm of Cooper, Harvey and Kennedy
//! ("A simple, fast dominance algorithm", 2001) on the reversed graph, rooted at a
//! virtual exit node that every return reaches.
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// How an instruction passes control on, as far as the graph is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Falls through to the next instruction.
    Next,
    /// A conditional branch: to `taken`, or to the next instruction.
    Branch { taken: u32 },
    /// An unconditional direct jump.
    Jump { target: u32 },
    /// A direct call: `target` is a function; control comes back to the next instruction.
    Call { target: u32 },
    /// A return to the caller (the kernel's own return ends the thread).
    Return,
}

/// Where a branch's paths meet again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reconvergence {
    /// At this instruction.
    At(u32),
    /// Only at the function's return (its paths leave through different returns, or
    /// one of them never returns).
    AtReturn,
}

/// The analysed kernel.
#[derive(Clone, Debug, Default)]
pub struct Cfg {
    /// Every function's entry, `weft_kernel` first.
    pub functions: Vec<u32>,
    /// Every conditional branch's reconvergence point.
    pub reconvergence: HashMap<u32, Reconvergence>,
    /// Instructions reached, per function entry.
    pub instructions: BTreeMap<u32, BTreeSet<u32>>,
    /// How every reached instruction passes control on.
    pub flows: HashMap<u32, Flow>,
}

impl Cfg {
    /// The reconvergence point of the branch at `pc`.
    pub fn reconvergence_of(&self, pc: u32) -> Option<Reconvergence> {
        self.reconvergence.get(&pc).copied()
    }
}

/// Builds the graph of every function reachable from `entry`; `flow(pc)` classifies the
/// instruction at `pc` (or says why the model cannot follow it).
pub fn analyse(entry: u32, flow: impl Fn(u32) -> Result<Flow, String>) -> Result<Cfg, String> {
    let mut cfg = Cfg::default();
    let mut pending = vec![entry];
    let mut seen = BTreeSet::new();
    let mut callees: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    while let Some(f) = pending.pop() {
        if !seen.insert(f) {
            continue;
        }
        cfg.functions.push(f);
        let mut calls = vec![];
        let flows = function(f, &flow, &mut calls, &mut cfg.reconvergence)?;
        cfg.instructions.insert(f, flows.keys().copied().collect());
        cfg.flows.extend(flows);
        pending.extend(&calls);
        callees.insert(f, calls);
    }
    refuse_recursion(entry, &callees)?;
    Ok(cfg)
}

/// A function that calls itself, directly or through others, is refused: a divergence
/// stack entry names its reconvergence point by address alone, which a recursive call
/// would reach again before its caller does.
fn refuse_recursion(entry: u32, callees: &BTreeMap<u32, Vec<u32>>) -> Result<(), String> {
    fn visit(
        f: u32,
        callees: &BTreeMap<u32, Vec<u32>>,
        path: &mut Vec<u32>,
        done: &mut BTreeSet<u32>,
    ) -> Result<(), String> {
        if let Some(at) = path.iter().position(|&g| g == f) {
            let cycle: Vec<String> = path[at..]
                .iter()
                .chain([&f])
                .map(|g| format!("{g:#x}"))
                .collect();
            return Err(format!(
                "recursive call {}: the model cannot follow recursion",
                cycle.join(" -> ")
            ));
        }
        if !done.insert(f) {
            return Ok(());
        }
        path.push(f);
        for &g in callees.get(&f).into_iter().flatten() {
            visit(g, callees, path, done)?;
        }
        path.pop();
        Ok(())
    }
    visit(entry, callees, &mut vec![], &mut BTreeSet::new())
}

/// The successors of `pc` inside its function; `None` stands for the virtual exit.
fn successors(pc: u32, flow: Flow) -> Vec<Option<u32>> {
    match flow {
        Flow::Next | Flow::Call { .. } => vec![Some(pc.wrapping_add(4))],
        Flow::Branch { taken } => vec![Some(taken), Some(pc.wrapping_add(4))],
        Flow::Jump { target } => vec![Some(target)],
        Flow::Return => vec![None],
    }
}

/// Analyses one function: its instructions, the calls it makes (pushed on `calls`) and
/// the reconvergence point of each of its branches.
fn function(
    entry: u32,
    flow: &impl Fn(u32) -> Result<Flow, String>,
    calls: &mut Vec<u32>,
    reconvergence: &mut HashMap<u32, Reconvergence>,
) -> Result<BTreeMap<u32, Flow>, String> {
    // Discover the instructions and their flows.
    let mut flows: BTreeMap<u32, Flow> = BTreeMap::new();
    let mut todo = vec![entry];
    while let Some(pc) = todo.pop() {
        if flows.contains_key(&pc) {
            continue;
        }
        let f = flow(pc)?;
        if let Flow::Call { target } = f {
            calls.push(target);
        }
        flows.insert(pc, f);
        todo.extend(successors(pc, f).into_iter().flatten());
    }

    // Node 0 is the virtual exit; instruction i of `order` is node i + 1.
    let order: Vec<u32> = flows.keys().copied().collect();
    let index: HashMap<u32, usize> = order
        .iter()
        .enumerate()
        .map(|(i, &pc)| (pc, i + 1))
        .collect();
    let n = order.len() + 1;
    // Edges of the reversed graph: predecessors there are successors in the program.
    let mut rev_succ: Vec<Vec<usize>> = vec![vec![]; n]; // reversed-graph successors
    let mut rev_pred: Vec<Vec<usize>> = vec![vec![]; n]; // reversed-graph predecessors
    for (&pc, &f) in &flows {
        let from = index[&pc];
        for s in successors(pc, f) {
            let to = s.map_or(0, |t| index[&t]);
            rev_succ[to].push(from);
            rev_pred[from].push(to);
        }
    }
    // Reverse postorder of the reversed graph from the exit.
    let mut post = vec![];
    let mut visited = vec![false; n];
    let mut stack = vec![(0usize, 0usize)];
    visited[0] = true;
    while let Some((node, next)) = stack.pop() {
        if let Some(&s) = rev_succ[node].get(next) {
            stack.push((node, next + 1));
            if !visited[s] {
                visited[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(node);
        }
    }
    let mut rank = vec![usize::MAX; n];
    for (i, &node) in post.iter().enumerate() {
        rank[node] = i;
    }
    // Instructions that cannot reach a return (an endless loop) have no post-dominator
    // other than the exit: treat them as reaching it.
    let mut ipdom: Vec<Option<usize>> = vec![None; n];
    ipdom[0] = Some(0);
    let intersect = |ipdom: &[Option<usize>], mut a: usize, mut b: usize| {
        while a != b {
            while rank[a] < rank[b] {
                a = ipdom[a].expect("processed");
            }
            while rank[b] < rank[a] {
                b = ipdom[b].expect("processed");
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &node in post.iter().rev().skip(1) {
            let mut new: Option<usize> = None;
            for &p in &rev_pred[node] {
                if ipdom[p].is_some() {
                    new = Some(match new {
                        None => p,
                        Some(cur) => intersect(&ipdom, p, cur),
                    });
                }
            }
            if new.is_some() && ipdom[node] != new {
                ipdom[node] = new;
                changed = true;
            }
        }
    }
    for (&pc, &f) in &flows {
        if let Flow::Branch { .. } = f {
            let node = index[&pc];
            let point = match ipdom[node] {
                Some(0) | None => Reconvergence::AtReturn,
                Some(p) => Reconvergence::At(order[p - 1]),
            };
            reconvergence.insert(pc, point);
        }
    }
    Ok(flows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A program as a table of flows, at 4-byte steps from 0x100.
    fn program(flows: &[Flow]) -> impl Fn(u32) -> Result<Flow, String> + '_ {
        move |pc| {
            flows
                .get(((pc - 0x100) / 4) as usize)
                .copied()
                .ok_or(format!("no instruction at {pc:#x}"))
        }
    }

    #[test]
    fn an_if_else_reconverges_after_both_arms() {
        use Flow::*;
        // 100: beq -> 10c; 104: then; 108: j 110; 10c: else; 110: join; 114: ret
        let flows = [
            Branch { taken: 0x10c },
            Next,
            Jump { target: 0x110 },
            Next,
            Next,
            Return,
        ];
        let cfg = analyse(0x100, program(&flows)).unwrap();
        assert_eq!(cfg.reconvergence_of(0x100), Some(Reconvergence::At(0x110)));
    }

    #[test]
    fn a_loop_branch_reconverges_at_the_loop_exit() {
        use Flow::*;
        // 100: body; 104: bne -> 100 (back edge); 108: after; 10c: ret
        let flows = [Next, Branch { taken: 0x100 }, Next, Return];
        let cfg = analyse(0x100, program(&flows)).unwrap();
        assert_eq!(cfg.reconvergence_of(0x104), Some(Reconvergence::At(0x108)));
    }

    #[test]
    fn nested_branches_reconverge_innermost_first() {
        use Flow::*;
        // 100: beq -> 118 (outer); 104: beq -> 110 (inner); 108: a; 10c: j 114;
        // 110: b; 114: inner join; 118: outer join; 11c: ret
        let flows = [
            Branch { taken: 0x118 },
            Branch { taken: 0x110 },
            Next,
            Jump { target: 0x114 },
            Next,
            Next,
            Next,
            Return,
        ];
        let cfg = analyse(0x100, program(&flows)).unwrap();
        assert_eq!(cfg.reconvergence_of(0x100), Some(Reconvergence::At(0x118)));
        assert_eq!(cfg.reconvergence_of(0x104), Some(Reconvergence::At(0x114)));
    }

    #[test]
    fn paths_that_leave_by_different_returns_meet_only_at_the_return() {
        use Flow::*;
        // 100: beq -> 108; 104: ret; 108: ret
        let flows = [Branch { taken: 0x108 }, Return, Return];
        let cfg = analyse(0x100, program(&flows)).unwrap();
        assert_eq!(cfg.reconvergence_of(0x100), Some(Reconvergence::AtReturn));
    }

    #[test]
    fn calls_fall_through_and_their_targets_are_functions() {
        use Flow::*;
        // 100: call 110; 104: beq -> 10c; 108: next; 10c: ret | 110: beq -> 118; 114: next; 118: ret
        let flows = [
            Call { target: 0x110 },
            Branch { taken: 0x10c },
            Next,
            Return,
            Branch { taken: 0x118 },
            Next,
            Return,
        ];
        let cfg = analyse(0x100, program(&flows)).unwrap();
        assert_eq!(cfg.functions, [0x100, 0x110]);
        assert_eq!(cfg.reconvergence_of(0x104), Some(Reconvergence::At(0x10c)));
        assert_eq!(cfg.reconvergence_of(0x110), Some(Reconvergence::At(0x118)));
        assert!(
            !cfg.instructions[&0x100].contains(&0x110),
            "the callee is not inlined"
        );
    }

    #[test]
    fn recursion_is_refused_with_the_cycle() {
        use Flow::*;
        // 100: call 108; 104: ret | 108: call 110; 10c: ret | 110: call 108; 114: ret
        let flows = [
            Call { target: 0x108 },
            Return,
            Call { target: 0x110 },
            Return,
            Call { target: 0x108 },
            Return,
        ];
        let err = analyse(0x100, program(&flows)).unwrap_err();
        assert!(err.contains("0x108 -> 0x110 -> 0x108"), "{err}");
    }

    #[test]
    fn an_instruction_the_model_cannot_follow_is_refused_by_address() {
        let err = analyse(0x100, |pc| {
            if pc == 0x104 {
                Err(format!("indirect jump at {pc:#x}"))
            } else {
                Ok(Flow::Next)
            }
        })
        .unwrap_err();
        assert!(err.contains("0x104"), "{err}");
    }
}
