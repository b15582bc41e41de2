//! A whole VGIW kernel (`vgiw-control-flow-coalescing.txt` §2, §3.2): basic blocks, each
//! a dataflow graph for the MT-CGRF fabric, joined by the block table's successors; and
//! its sequential meaning, the golden model of the VGIW core (`hdl/vgiw/vgiw_core.rs`).
//!
//! A thread starts in block 0 and runs one block after the other. Its branch outcome in
//! a block is bit 0 of the block's `End` value (the terminator's `in_taken`): outcome 1
//! leaves to `succ[1]` (or the kernel when `exit[1]`), outcome 0 to `succ[0]` / `exit[0]`.
//! Live values written in one block are read by the next through the live value space
//! (`dataflow::live_value_base`), kept in the same memory map as the kernel's data.
//!
//! `Program::image` is what the host loads into the core: one fabric loader program per
//! block (placed and routed by `cgrf::fabric::place_and_route`) back to back in the
//! loader RAM, and each block's start address, the block table's `cfg` field.
use crate::cgrf::compute_unit::Opcode;
use crate::cgrf::dataflow::{Dfg, NodeKind};
use crate::cgrf::fabric::place_and_route;
use crate::vgiw::bbs::Entry;
use crate::vgiw::fabric_loader;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One basic block: its graph, successors per branch outcome, and replica count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramBlock {
    pub dfg: Dfg,
    /// Next block for outcome 0 and 1 (ignored where `exit` is set).
    pub succ: [usize; 2],
    /// Outcome 0 / 1 leaves the kernel.
    pub exit: [bool; 2],
    /// Copies of the graph placed side by side (1 or 2 thread ports).
    pub replicas: usize,
}

/// A kernel: block 0 is the entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Program {
    pub blocks: Vec<ProgramBlock>,
}

/// One thread's run: (block, branch outcome) per block, and its writes (address, data).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Run {
    pub steps: Vec<(usize, bool)>,
    pub writes: Vec<(u32, u32)>,
}

/// The loader RAM contents and where each block's program starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub words: Vec<u64>,
    pub starts: Vec<usize>,
}

impl Program {
    /// Checks every block's graph and the table against a core of `max_blocks` blocks.
    pub fn validate(&self, max_blocks: usize) -> Result<(), String> {
        if self.blocks.is_empty() || self.blocks.len() > max_blocks {
            return Err(format!(
                "a program needs 1..={max_blocks} blocks, has {}",
                self.blocks.len()
            ));
        }
        for (b, block) in self.blocks.iter().enumerate() {
            block
                .dfg
                .validate()
                .map_err(|e| format!("block {b}: {e}"))?;
            if !(1..=2).contains(&block.replicas) {
                return Err(format!("block {b}: {} replicas (1 or 2)", block.replicas));
            }
            for o in 0..2 {
                if !block.exit[o] && block.succ[o] >= self.blocks.len() {
                    return Err(format!(
                        "block {b}: successor {} for outcome {o} is not a block",
                        block.succ[o]
                    ));
                }
            }
        }
        Ok(())
    }

    /// Runs thread `tid` through the kernel over `memory`; gives the blocks it ran, in
    /// order, or an error once it has run `max_blocks` blocks without leaving.
    pub fn execute(
        &self,
        tid: u16,
        memory: &mut HashMap<u32, u32>,
        max_blocks: usize,
    ) -> Result<Vec<usize>, String> {
        let run = self.trace(tid, memory, max_blocks)?;
        Ok(run.steps.iter().map(|&(b, _)| b).collect())
    }

    /// `execute` with every block's branch outcome and every write, in order.
    pub fn trace(
        &self,
        tid: u16,
        memory: &mut HashMap<u32, u32>,
        max_blocks: usize,
    ) -> Result<Run, String> {
        let mut run = Run::default();
        let mut b = 0;
        while run.steps.len() < max_blocks {
            let block = &self.blocks[b];
            let outcome = block.dfg.execute_logged(tid, memory, &mut run.writes) & 1 == 1;
            run.steps.push((b, outcome));
            let o = usize::from(outcome);
            if block.exit[o] {
                return Ok(run);
            }
            b = block.succ[o];
        }
        Err(format!("thread {tid} still runs after {max_blocks} blocks"))
    }

    /// The block table as the scheduler loads it, `cfg` = the block's program address.
    pub fn table(&self, image: &Image) -> Vec<Entry> {
        self.blocks
            .iter()
            .zip(&image.starts)
            .map(|(block, &start)| Entry {
                cfg: start as u64,
                succ: block
                    .succ
                    .map(|s| if s < self.blocks.len() { s } else { 0 }),
                exit: block.exit,
            })
            .collect()
    }

    /// Places and routes every block and lays their loader programs out back to back
    /// in a RAM of `2^caw` commands.
    pub fn image(&self, caw: u32) -> Result<Image, String> {
        let mut words = vec![];
        let mut starts = vec![];
        for (b, block) in self.blocks.iter().enumerate() {
            let (config, _) = place_and_route(&block.dfg, block.replicas)
                .map_err(|e| format!("block {b}: {e}"))?;
            starts.push(words.len());
            words.extend(fabric_loader::program(&config, block.replicas));
        }
        if words.len() > 1 << caw {
            return Err(format!(
                "the programs take {} commands, the loader RAM holds {}",
                words.len(),
                1u64 << caw
            ));
        }
        Ok(Image { words, starts })
    }

    /// A diamond: block 0 loads `a[tid]`, writes `x = 3 a` as live value 0 and branches
    /// on `x & 1`; block 1 (outcome 0) stores `x + 100` to `b[tid]`, block 2 (outcome 1)
    /// stores `x ^ 0xff` there; both go to block 3, which stores `2 x` to `c[tid]`.
    pub fn diamond(base_a: u32, base_b: u32, base_c: u32, replicas: usize) -> Program {
        let mut entry = Dfg::default();
        let t = entry.push(NodeKind::Thread);
        let a = load(&mut entry, base_a, t);
        let x = compute(&mut entry, Opcode::Mul, Some(3), vec![a]);
        let lv = entry.push(NodeKind::LiveValueWrite { id: 0, input: x });
        let branch = compute(&mut entry, Opcode::And, Some(1), vec![x]);
        let join = compute(&mut entry, Opcode::Or, None, vec![branch, lv]);
        entry.push(NodeKind::End { input: join });
        let side = |op: Opcode, k: u32| {
            let mut g = Dfg::default();
            let t = g.push(NodeKind::Thread);
            let x = g.push(NodeKind::LiveValueRead { id: 0, trigger: t });
            let y = compute(&mut g, op, Some(k), vec![x]);
            let s = g.push(NodeKind::Store {
                indexed_base: Some(base_b),
                inputs: vec![y],
            });
            g.push(NodeKind::End { input: s });
            g
        };
        let mut merge = Dfg::default();
        let t = merge.push(NodeKind::Thread);
        let x = merge.push(NodeKind::LiveValueRead { id: 0, trigger: t });
        let y = compute(&mut merge, Opcode::Shl, Some(1), vec![x]);
        let s = merge.push(NodeKind::Store {
            indexed_base: Some(base_c),
            inputs: vec![y],
        });
        merge.push(NodeKind::End { input: s });
        let block = |dfg, succ, exit| ProgramBlock {
            dfg,
            succ,
            exit,
            replicas,
        };
        Program {
            blocks: vec![
                block(entry, [1, 2], [false, false]),
                block(side(Opcode::Add, 100), [3, 3], [false, false]),
                block(side(Opcode::Xor, 0xff), [3, 3], [false, false]),
                block(merge, [0, 0], [true, true]),
            ],
        }
    }

    /// A data-dependent loop: block 0 writes `n = a[tid] & 3` as live value 0; block 1
    /// reads the count `c`, writes `c - 1` back and to `b[tid]`, and runs again while
    /// `c != 0` (so `n + 1` times); block 2 stores the last count plus 5 to `c[tid]`.
    /// Block 1 uses both live value units, so every block runs as one replica.
    pub fn counted_loop(base_a: u32, base_b: u32, base_c: u32) -> Program {
        let mut entry = Dfg::default();
        let t = entry.push(NodeKind::Thread);
        let a = load(&mut entry, base_a, t);
        let n = compute(&mut entry, Opcode::And, Some(3), vec![a]);
        let lv = entry.push(NodeKind::LiveValueWrite { id: 0, input: n });
        entry.push(NodeKind::End { input: lv });
        let mut body = Dfg::default();
        let t = body.push(NodeKind::Thread);
        let c = body.push(NodeKind::LiveValueRead { id: 0, trigger: t });
        let next = compute(&mut body, Opcode::Sub, Some(1), vec![c]);
        let lv = body.push(NodeKind::LiveValueWrite { id: 0, input: next });
        let s = body.push(NodeKind::Store {
            indexed_base: Some(base_b),
            inputs: vec![next],
        });
        let again = compute(&mut body, Opcode::Ne, Some(0), vec![c]);
        let written = compute(&mut body, Opcode::Or, None, vec![lv, s]);
        let join = compute(&mut body, Opcode::Or, None, vec![again, written]);
        body.push(NodeKind::End { input: join });
        let mut exit = Dfg::default();
        let t = exit.push(NodeKind::Thread);
        let c = exit.push(NodeKind::LiveValueRead { id: 0, trigger: t });
        let y = compute(&mut exit, Opcode::Add, Some(5), vec![c]);
        let s = exit.push(NodeKind::Store {
            indexed_base: Some(base_c),
            inputs: vec![y],
        });
        exit.push(NodeKind::End { input: s });
        let block = |dfg, succ, exit| ProgramBlock {
            dfg,
            succ,
            exit,
            replicas: 1,
        };
        Program {
            blocks: vec![
                block(entry, [1, 1], [false, false]),
                block(body, [2, 1], [false, false]),
                block(exit, [0, 0], [true, true]),
            ],
        }
    }
}

fn load(g: &mut Dfg, base: u32, trigger: usize) -> usize {
    g.push(NodeKind::Load {
        indexed_base: Some(base),
        input: trigger,
    })
}

fn compute(g: &mut Dfg, op: Opcode, imm: Option<u32>, inputs: Vec<usize>) -> usize {
    g.push(NodeKind::Compute {
        opcode: op as u8,
        imm,
        inputs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn memory(base: u32, values: &[u32]) -> HashMap<u32, u32> {
        (0..).zip(values).map(|(i, &v)| (base + 4 * i, v)).collect()
    }

    #[test]
    fn diamond_takes_the_side_of_x_and_1() {
        let p = Program::diamond(0x0, 0x100, 0x200, 1);
        p.validate(8).unwrap();
        let mut mem = memory(0, &[2, 5]);
        // tid 0: x = 6 (even) -> block 1: b = 106; c = 12.
        assert_eq!(p.execute(0, &mut mem, 16).unwrap(), [0, 1, 3]);
        // tid 1: x = 15 (odd) -> block 2: b = 15 ^ 0xff = 0xf0; c = 30.
        assert_eq!(p.execute(1, &mut mem, 16).unwrap(), [0, 2, 3]);
        assert_eq!(
            [mem[&0x100], mem[&0x104], mem[&0x200], mem[&0x204]],
            [106, 0xf0, 12, 30]
        );
    }

    #[test]
    fn the_loop_runs_n_plus_one_times() {
        let p = Program::counted_loop(0x0, 0x100, 0x200);
        p.validate(8).unwrap();
        let mut mem = memory(0, &[4, 7]);
        // n = 0: one pass, count -1 stored; c = -1 + 5 = 4.
        assert_eq!(p.execute(0, &mut mem, 16).unwrap(), [0, 1, 2]);
        // n = 3: four passes.
        assert_eq!(p.execute(1, &mut mem, 16).unwrap(), [0, 1, 1, 1, 1, 2]);
        assert_eq!([mem[&0x100], mem[&0x200]], [u32::MAX, 4]);
        assert_eq!([mem[&0x104], mem[&0x204]], [u32::MAX, 4]);
        p.image(10).expect("the loop places and routes");
        let err = p.execute(1, &mut memory(0, &[0, 3]), 3).unwrap_err();
        assert!(err.contains("after 3 blocks"), "{err}");
    }

    #[test]
    fn validate_names_the_problem() {
        let mut p = Program::diamond(0, 0x100, 0x200, 2);
        assert!(p.validate(3).unwrap_err().contains("1..=3 blocks"));
        p.blocks[1].succ[0] = 9;
        assert!(p.validate(8).unwrap_err().contains("successor 9"));
        p.blocks[1].succ[0] = 3;
        p.blocks[2].replicas = 3;
        assert!(p.validate(8).unwrap_err().contains("3 replicas"));
    }

    #[test]
    fn the_image_lays_programs_back_to_back() {
        let p = Program::diamond(0, 0x100, 0x200, 2);
        let image = p.image(10).unwrap();
        assert_eq!(image.starts.len(), 4);
        assert_eq!(image.starts[0], 0);
        for b in 0..4 {
            let end = image
                .starts
                .get(b + 1)
                .copied()
                .unwrap_or(image.words.len());
            // Every program ends with END for two replicas, and only there.
            assert_eq!(image.words[end - 1], fabric_loader::encode_end(2));
            let ends = image.words[image.starts[b]..end]
                .iter()
                .filter(|&&w| w >> 62 == 2)
                .count();
            assert_eq!(ends, 1, "block {b}");
        }
        let table = p.table(&image);
        assert_eq!(table[3].cfg, image.starts[3] as u64);
        assert_eq!(table[0].succ, [1, 2]);
        assert!(p.image(5).unwrap_err().contains("loader RAM holds 32"));
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(serde_json::from_str::<Program>(&json).unwrap(), p);
    }
}
