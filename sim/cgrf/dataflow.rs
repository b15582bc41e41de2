//! A basic block's dataflow graph for the MT-CGRF fabric (`vgiw-control-flow-coalescing.txt`
//! §3.5; SPEC §6), and its sequential meaning: `Dfg::execute` runs the block for one
//! thread in node order, the golden model of the fabric's end-to-end tests.
//!
//! Each node is one fabric unit (`fabric.rs` places it): `Thread` the injector's token
//! (value = thread id), `Compute` a compute unit, `Load`/`Store` a load/store unit,
//! `LiveValueWrite`/`LiveValueRead` a live value unit, `Divide` a special compute unit,
//! `End` the terminator. Inputs are listed in operand order (a, b, c) and refer to
//! earlier nodes, so node order is a topological order.
//!
//! Choices where the paper is silent:
//! - Every node must be an ancestor of `End`: when the terminator sees the thread's last
//!   token no token of that thread is still in flight, so its virtual channel can be
//!   reused. Two sinks are joined by a compute unit (e.g. `Or` of two control tokens),
//!   whose token buffer waits for both.
//! - Live values live at `LV_BASE + id * 4 * THREADS + 4 * tid` (the live value unit's
//!   indexed mode with base `LV_BASE + id * 4 * THREADS`). `THREADS = 2^16` covers every
//!   thread id, so no two (id, tid) pairs alias; `LV_BASE = 0x8000_0000` keeps live
//!   values apart from kernel data when the bench backs the live value ports and the
//!   memory ports with one memory (the model keeps both in one map).
//! - Addresses wrap at 32 bits, as the memory tile's adder does.
use crate::cgrf::compute_unit::{execute, Opcode};
use crate::cgrf::special_compute_unit::{divide, DivOp};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// First byte address of the live value space.
pub const LV_BASE: u32 = 0x8000_0000;
/// Threads per live value id (every `u16` thread id).
pub const THREADS: u32 = 1 << 16;
/// Live value ids that fit above `LV_BASE` without wrapping.
pub const LIVE_VALUE_IDS: u32 = (u32::MAX - LV_BASE) / (4 * THREADS) + 1;

/// Base address of live value `id` (the live value unit's configured base).
pub fn live_value_base(id: u32) -> u32 {
    assert!(
        id < LIVE_VALUE_IDS,
        "live value id {id} >= {LIVE_VALUE_IDS}"
    );
    LV_BASE + id * 4 * THREADS
}

/// Address of word `tid` of the array at `base` (indexed mode).
pub fn indexed_address(base: u32, tid: u16) -> u32 {
    base.wrapping_add(4 * u32::from(tid))
}

/// What a node computes. Inputs are node indices in operand order (a, b, c).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NodeKind {
    /// The thread token from the injector; value = thread id.
    Thread,
    /// A compute unit: `opcode` is an `Opcode` code; `imm` replaces the last operand
    /// (b, or c for select), so `inputs` has one operand fewer.
    Compute {
        opcode: u8,
        imm: Option<u32>,
        inputs: Vec<usize>,
    },
    /// Indexed (`Some(base)`): address `base + 4 * tid`, `input` only triggers.
    /// Otherwise the address is `input`'s value. Value: the loaded word.
    Load {
        indexed_base: Option<u32>,
        input: usize,
    },
    /// Indexed: `inputs = [data]`, address `base + 4 * tid`; otherwise
    /// `inputs = [address, data]`. Value: a control token (0) once written.
    Store {
        indexed_base: Option<u32>,
        inputs: Vec<usize>,
    },
    /// A special compute unit: `op` is a `DivOp` code, `inputs = [a, b]`.
    Divide { op: u8, inputs: Vec<usize> },
    /// Writes `input`'s value as live value `id` of this thread; value: control token 0.
    LiveValueWrite { id: u32, input: usize },
    /// Reads live value `id` of this thread when `trigger` arrives.
    LiveValueRead { id: u32, trigger: usize },
    /// The thread's last token; its value is the block's result.
    End { input: usize },
}

impl NodeKind {
    /// Input nodes in operand order (a, b, c).
    pub fn inputs(&self) -> Vec<usize> {
        match self {
            NodeKind::Thread => vec![],
            NodeKind::Compute { inputs, .. }
            | NodeKind::Store { inputs, .. }
            | NodeKind::Divide { inputs, .. } => inputs.clone(),
            NodeKind::Load { input, .. }
            | NodeKind::LiveValueWrite { input, .. }
            | NodeKind::LiveValueRead { trigger: input, .. }
            | NodeKind::End { input } => vec![*input],
        }
    }

    /// Inputs this kind of node must have.
    fn expected_inputs(&self) -> usize {
        match self {
            NodeKind::Thread => 0,
            NodeKind::Compute { opcode, imm, .. } => {
                usize::from(Opcode::from_code(*opcode).operands()) - usize::from(imm.is_some())
            }
            NodeKind::Store { indexed_base, .. } => {
                if indexed_base.is_some() {
                    1
                } else {
                    2
                }
            }
            NodeKind::Divide { .. } => 2,
            _ => 1,
        }
    }
}

/// One node: its index in `Dfg::nodes` and what it computes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    pub id: usize,
    pub kind: NodeKind,
}

/// A basic block's dataflow graph (nodes in topological order).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dfg {
    pub nodes: Vec<Node>,
}

impl Dfg {
    /// Appends a node and returns its id.
    pub fn push(&mut self, kind: NodeKind) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Node { id, kind });
        id
    }

    /// Index of the `End` node (call on a valid graph).
    pub fn end(&self) -> usize {
        self.nodes
            .iter()
            .position(|n| matches!(n.kind, NodeKind::End { .. }))
            .expect("Dfg has no End node")
    }

    /// Checks the graph is one block the fabric can run (see the file header).
    pub fn validate(&self) -> Result<(), String> {
        let count = |f: fn(&NodeKind) -> bool| self.nodes.iter().filter(|n| f(&n.kind)).count();
        let threads = count(|k| matches!(k, NodeKind::Thread));
        let ends = count(|k| matches!(k, NodeKind::End { .. }));
        if threads != 1 || ends != 1 {
            return Err(format!(
                "a Dfg needs exactly one Thread and one End node, found {threads} and {ends}"
            ));
        }
        for (i, node) in self.nodes.iter().enumerate() {
            if node.id != i {
                return Err(format!("node at index {i} has id {}", node.id));
            }
            let inputs = node.kind.inputs();
            if let Some(&bad) = inputs.iter().find(|&&j| j >= i) {
                return Err(format!(
                    "node {i} takes node {bad} as input: inputs must be earlier nodes"
                ));
            }
            if inputs.len() != node.kind.expected_inputs() {
                return Err(format!(
                    "node {i} ({:?}) has {} inputs, needs {}",
                    node.kind,
                    inputs.len(),
                    node.kind.expected_inputs()
                ));
            }
            match node.kind {
                NodeKind::Compute { opcode, .. } if opcode > 15 => {
                    return Err(format!("node {i}: opcode {opcode} > 15"));
                }
                NodeKind::Divide { op, .. } if op > 3 => {
                    return Err(format!("node {i}: divide op {op} > 3"));
                }
                NodeKind::LiveValueWrite { id, .. } | NodeKind::LiveValueRead { id, .. }
                    if id >= LIVE_VALUE_IDS =>
                {
                    return Err(format!("node {i}: live value id {id} >= {LIVE_VALUE_IDS}"));
                }
                _ => {}
            }
        }
        // Walk back from End: every node must be reached.
        let mut ancestor = vec![false; self.nodes.len()];
        ancestor[self.end()] = true;
        for i in (0..self.nodes.len()).rev() {
            if ancestor[i] {
                for j in self.nodes[i].kind.inputs() {
                    ancestor[j] = true;
                }
            }
        }
        if let Some(i) = ancestor.iter().position(|&a| !a) {
            return Err(format!(
                "node {i} is not an ancestor of End: join every sink into End \
                 (e.g. a Compute Or of control tokens)"
            ));
        }
        Ok(())
    }

    /// Runs the block for thread `tid` in node order over `memory` (a missing word reads
    /// 0); returns End's value. Panics on an invalid graph.
    pub fn execute(&self, tid: u16, memory: &mut HashMap<u32, u32>) -> u32 {
        self.execute_logged(tid, memory, &mut vec![])
    }

    /// `execute`, also appending every write (address, data) to `writes` in order.
    pub fn execute_logged(
        &self,
        tid: u16,
        memory: &mut HashMap<u32, u32>,
        writes: &mut Vec<(u32, u32)>,
    ) -> u32 {
        if let Err(e) = self.validate() {
            panic!("execute on an invalid Dfg: {e}");
        }
        let mut value = vec![0u32; self.nodes.len()];
        for (i, node) in self.nodes.iter().enumerate() {
            let arg = |k: usize| value[node.kind.inputs()[k]];
            value[i] = match &node.kind {
                NodeKind::Thread => u32::from(tid),
                NodeKind::Compute {
                    opcode,
                    imm,
                    inputs,
                } => {
                    let mut ops: Vec<u32> = inputs.iter().map(|&j| value[j]).collect();
                    ops.extend(*imm);
                    ops.resize(3, 0);
                    execute(Opcode::from_code(*opcode), ops[0], ops[1], ops[2])
                }
                NodeKind::Load { indexed_base, .. } => {
                    let address = match indexed_base {
                        Some(base) => indexed_address(*base, tid),
                        None => arg(0),
                    };
                    memory.get(&address).copied().unwrap_or(0)
                }
                NodeKind::Store { indexed_base, .. } => {
                    let (address, data) = match indexed_base {
                        Some(base) => (indexed_address(*base, tid), arg(0)),
                        None => (arg(0), arg(1)),
                    };
                    memory.insert(address, data);
                    writes.push((address, data));
                    0
                }
                NodeKind::Divide { op, .. } => divide(DivOp::ALL[usize::from(*op)], arg(0), arg(1)),
                NodeKind::LiveValueWrite { id, .. } => {
                    let address = indexed_address(live_value_base(*id), tid);
                    memory.insert(address, arg(0));
                    writes.push((address, arg(0)));
                    0
                }
                NodeKind::LiveValueRead { id, .. } => memory
                    .get(&indexed_address(live_value_base(*id), tid))
                    .copied()
                    .unwrap_or(0),
                NodeKind::End { .. } => arg(0),
            };
        }
        value[self.end()]
    }

    /// Kernel (a): `c[tid] = a[tid] * b[tid] + k` (32-bit wrapping). Two indexed loads
    /// triggered by the thread token, `Mul`, `Add` with immediate `k`, an indexed store,
    /// End on the store's control token (value 0). Kernel (c) is this graph placed twice
    /// (`fabric::place_and_route(.., 2)`).
    pub fn mul_add(k: u32, base_a: u32, base_b: u32, base_c: u32) -> Dfg {
        let mut g = Dfg::default();
        let thread = g.push(NodeKind::Thread);
        let a = g.push(NodeKind::Load {
            indexed_base: Some(base_a),
            input: thread,
        });
        let b = g.push(NodeKind::Load {
            indexed_base: Some(base_b),
            input: thread,
        });
        let product = g.push(NodeKind::Compute {
            opcode: Opcode::Mul as u8,
            imm: None,
            inputs: vec![a, b],
        });
        let sum = g.push(NodeKind::Compute {
            opcode: Opcode::Add as u8,
            imm: Some(k),
            inputs: vec![product],
        });
        let store = g.push(NodeKind::Store {
            indexed_base: Some(base_c),
            inputs: vec![sum],
        });
        g.push(NodeKind::End { input: store });
        g
    }

    /// Kernel (b): `q = x[tid] op y[tid]` on a special compute unit (`op` a `DivOp`);
    /// q is written as live value 0 (for the next block) and stored to `q_out[tid]`;
    /// the two control tokens are joined by an `Or` (value 0) whose result is End's.
    pub fn divide_live_value(op: DivOp, base_x: u32, base_y: u32, base_q: u32) -> Dfg {
        let mut g = Dfg::default();
        let thread = g.push(NodeKind::Thread);
        let x = g.push(NodeKind::Load {
            indexed_base: Some(base_x),
            input: thread,
        });
        let y = g.push(NodeKind::Load {
            indexed_base: Some(base_y),
            input: thread,
        });
        let q = g.push(NodeKind::Divide {
            op: op as u8,
            inputs: vec![x, y],
        });
        let live = g.push(NodeKind::LiveValueWrite { id: 0, input: q });
        let store = g.push(NodeKind::Store {
            indexed_base: Some(base_q),
            inputs: vec![q],
        });
        let join = g.push(NodeKind::Compute {
            opcode: Opcode::Or as u8,
            imm: None,
            inputs: vec![live, store],
        });
        g.push(NodeKind::End { input: join });
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(base: u32, values: &[u32]) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..).zip(values).map(move |(i, &v)| (base + 4 * i, v))
    }

    #[test]
    fn mul_add_computes_c_from_a_and_b() {
        let g = Dfg::mul_add(7, 0x100, 0x200, 0x300);
        g.validate().unwrap();
        let mut mem: HashMap<u32, u32> = words(0x100, &[1, 2, 0xffff_ffff])
            .chain(words(0x200, &[10, 20, 3]))
            .collect();
        for tid in 0..4u16 {
            assert_eq!(
                g.execute(tid, &mut mem),
                0,
                "End sees the store's control token"
            );
        }
        // Hand-computed: 1*10+7, 2*20+7, (-1)*3+7 wrapping, 0*0+7 (missing words read 0).
        let c: Vec<u32> = (0..4).map(|i| mem[&(0x300 + 4 * i)]).collect();
        assert_eq!(c, [17, 47, 4, 7]);
    }

    #[test]
    fn divide_live_value_writes_live_value_and_store() {
        let g = Dfg::divide_live_value(DivOp::Div, 0x100, 0x200, 0x300);
        g.validate().unwrap();
        let mut mem: HashMap<u32, u32> = words(0x100, &[100, (-9i32) as u32, 5])
            .chain(words(0x200, &[7, 2, 0]))
            .collect();
        for tid in 0..3u16 {
            assert_eq!(g.execute(tid, &mut mem), 0);
        }
        // Signed division, RISC-V divide by zero = all ones.
        let expected = [14, (-4i32) as u32, u32::MAX];
        for (tid, q) in expected.into_iter().enumerate() {
            assert_eq!(mem[&(0x300 + 4 * tid as u32)], q);
            assert_eq!(
                mem[&(0x8000_0000 + 4 * tid as u32)],
                q,
                "live value 0 of {tid}"
            );
        }
        assert_eq!(live_value_base(1), 0x8004_0000);
    }

    #[test]
    fn live_value_read_select_immediate_and_plain_addresses() {
        // v = lv1[tid]; s = v != 0 ? v : 99 (select with immediate c); mem[s] = tid; End = s.
        let mut g = Dfg::default();
        let t = g.push(NodeKind::Thread);
        let v = g.push(NodeKind::LiveValueRead { id: 1, trigger: t });
        let s = g.push(NodeKind::Compute {
            opcode: Opcode::Select as u8,
            imm: Some(99),
            inputs: vec![v, v],
        });
        let st = g.push(NodeKind::Store {
            indexed_base: None,
            inputs: vec![s, t],
        });
        let join = g.push(NodeKind::Compute {
            opcode: Opcode::Add as u8,
            imm: None,
            inputs: vec![s, st],
        });
        g.push(NodeKind::End { input: join });
        g.validate().unwrap();
        let mut mem = HashMap::from([(0x8004_0000 + 8, 0x40)]);
        assert_eq!(g.execute(2, &mut mem), 0x40);
        assert_eq!(g.execute(3, &mut mem), 99);
        assert_eq!((mem[&0x40], mem[&99]), (2, 3));
    }

    #[test]
    fn validate_rejects_malformed_graphs() {
        let good = Dfg::mul_add(1, 0, 0x40, 0x80);
        let reject = |g: &Dfg, what: &str| {
            let e = g.validate().expect_err(what);
            assert!(e.contains(what), "error {e:?} should mention {what:?}");
        };
        let mut g = good.clone();
        g.nodes.pop();
        reject(&g, "one Thread and one End");
        let mut g = good.clone();
        g.nodes[3].kind = NodeKind::Compute {
            opcode: Opcode::Mul as u8,
            imm: None,
            inputs: vec![1, 4],
        };
        reject(&g, "inputs must be earlier nodes");
        let mut g = good.clone();
        g.nodes[4].kind = NodeKind::Compute {
            opcode: Opcode::Add as u8,
            imm: None,
            inputs: vec![3],
        };
        reject(&g, "has 1 inputs, needs 2");
        let mut g = good.clone();
        g.nodes[2].id = 7;
        reject(&g, "has id 7");
        // A second load whose word nobody uses: not an ancestor of End.
        let mut g = good.clone();
        let end = g.nodes.pop().unwrap();
        g.push(NodeKind::Load {
            indexed_base: Some(0),
            input: 0,
        });
        g.push(end.kind);
        reject(&g, "node 6 is not an ancestor of End");
        let mut g = good;
        g.nodes[4].kind = NodeKind::Compute {
            opcode: 16,
            imm: Some(1),
            inputs: vec![3],
        };
        reject(&g, "opcode 16 > 15");
    }

    #[test]
    fn json_round_trip() {
        let g = Dfg::divide_live_value(DivOp::Remu, 1, 2, 3);
        let text = serde_json::to_string(&g).unwrap();
        assert!(text.contains("\"LiveValueWrite\""), "{text}");
        assert_eq!(serde_json::from_str::<Dfg>(&text).unwrap(), g);
    }
}
