//! The functional interpreter of a lowered program: the oracle that proves the lowering
//! (its dumps must equal the SIMT functional run's byte for byte), and later the VGIW
//! engine's functional half.
//!
//! A launch runs in waves of whole CTAs, at most `in_flight` threads each (at least one
//! CTA): the VGIW paper's tiling (§3.2), where the control vector table bounds the
//! threads in flight. Within a wave, as the basic block scheduler does, the block with
//! the lowest ID whose thread vector is not empty runs next, for its whole vector
//! (threads in ascending order; threads that arrive at the block while it runs wait for
//! its next turn). For each thread the block's nodes are evaluated in a topological
//! order of their operand and memory-order edges that is deliberately not program
//! order: among the ready nodes the latest in program order goes first, so a missing
//! order edge between two accesses that alias shows as a wrong result. Live values are
//! read from and written to the thread's live-value store (one word per register,
//! starting at the program's initial values); the block's writes happen at its end.
//!
//! Barriers: a thread that ends a block with the barrier waits in its CTA's barrier list;
//! when none of the CTA's live threads waits in a thread vector (all of them are at a
//! barrier or have returned), every waiting thread goes on to the block after its
//! barrier, as the functional run lets a CTA's threads go on when all its live threads
//! wait (a returned thread no longer takes part). Setup (`weft_setup`) runs on the
//! functional model, as on every machine. Memory (device memory, each CTA's shared copy,
//! each thread's private stack) is the functional run's, instruction semantics are the
//! SIMT core's ([`Thread::step`]), so the results are the same bytes.
use super::graph::{BlockId, Coordinate, NodeKind, Program, Terminator};
use crate::core::functional::{self, is_private, Launch, Stack, ThreadMemory};
use crate::core::image::{Image, SharedPlace};
use crate::core::isa::Inst;
use crate::core::thread::{Effect, Fault, Memory, Thread, ThreadEnv};
use std::collections::BinaryHeap;

/// The default bound on the threads of a wave. The results of a kernel whose CTAs do not
/// exchange data through device memory during the launch (CUDA gives such exchanges no
/// order) do not depend on it; it bounds the interpreter's memory: a live-value store
/// and a private stack per thread.
pub const IN_FLIGHT: u32 = 8192;

/// What an interpreted run did.
#[derive(Clone, Debug)]
pub struct Interpretation {
    /// The image after the run: read dumps from here.
    pub image: Image,
    /// Thread vectors the scheduler sent (block executions).
    pub vectors: u64,
    /// Blocks executed, summed over threads.
    pub thread_blocks: u64,
    /// Nodes evaluated, summed over threads.
    pub node_evaluations: u64,
    /// Live-value reads and writes, summed over threads (the live value cache's traffic).
    pub live_value_reads: u64,
    pub live_value_writes: u64,
}

/// Where a memory access went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Device memory (through the L1).
    Global,
    /// The thread's private stack.
    Private,
    /// Its CTA's shared memory (`WEFT_SHARED`).
    Shared,
}

/// One memory access of a thread in a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// The load or store node.
    pub node: usize,
    pub addr: u32,
    pub store: bool,
    pub place: Place,
}

/// A block execution as the timing sees it, handed to [`run_observed`]'s observer after
/// the block has run for its whole vector.
#[derive(Debug, Default)]
pub struct VectorRun {
    pub block: BlockId,
    /// The vector's threads (global thread indices), in the order they ran.
    pub tids: Vec<u32>,
    /// Per thread (as `tids`), its memory accesses in evaluation order.
    pub accesses: Vec<Vec<Access>>,
}

/// The value of instruction `inst` (at `pc`) on operands `args` (its registers' values,
/// in [`Inst::registers`] order): the register it writes, 0 for a store, 1 or 0 for a
/// conditional branch taken or not. Executed by the SIMT core's own [`Thread::step`].
pub fn evaluate(
    inst: &Inst,
    pc: u32,
    args: &[u32],
    mem: &mut dyn Memory,
    env: &ThreadEnv,
) -> Result<u32, Fault> {
    evaluate_effect(inst, pc, args, mem, env).map(|(v, _)| v)
}

/// [`evaluate`], with the instruction's effect (a memory access's address).
fn evaluate_effect(
    inst: &Inst,
    pc: u32,
    args: &[u32],
    mem: &mut dyn Memory,
    env: &ThreadEnv,
) -> Result<(u32, Effect), Fault> {
    let mut t = Thread::new(pc);
    let regs = inst.registers();
    for (&r, &v) in regs.reads.iter().flatten().zip(args) {
        match r {
            0..=31 => t.x[r as usize] = v,
            _ => t.f[r as usize - 32] = v,
        }
    }
    let effect = t.step(inst, mem, env)?;
    let value = match (effect, regs.write) {
        (Effect::Branch { taken }, _) => u32::from(taken),
        (_, Some(w @ 0..=31)) => t.x[w as usize],
        (_, Some(w)) => t.f[w as usize - 32],
        (_, None) => 0,
    };
    Ok((value, effect))
}

/// Each block's evaluation order: ready nodes, latest in program order first.
fn evaluation_orders(program: &Program) -> Vec<Vec<usize>> {
    program
        .blocks
        .iter()
        .map(|block| {
            let n = block.nodes.len();
            let mut users = vec![vec![]; n];
            let mut waiting = vec![0usize; n];
            for (i, node) in block.nodes.iter().enumerate() {
                for &a in node.args.iter().chain(&node.after) {
                    users[a].push(i);
                    waiting[i] += 1;
                }
            }
            let mut ready: BinaryHeap<usize> = (0..n).filter(|&i| waiting[i] == 0).collect();
            let mut order = Vec::with_capacity(n);
            while let Some(i) = ready.pop() {
                order.push(i);
                for &u in &users[i] {
                    waiting[u] -= 1;
                    if waiting[u] == 0 {
                        ready.push(u);
                    }
                }
            }
            order
        })
        .collect()
}

/// Where a thread goes after a block.
enum Next {
    Block(BlockId),
    Barrier(BlockId),
    Exit,
}

/// A thread of the running wave.
struct ThreadState {
    env: ThreadEnv,
    /// The live-value store: one word per register.
    live: [u32; 64],
    stack: Stack,
}

/// Runs the launch on the lowered program `lowered` of `kernel`; stops with an error past
/// `limit` node evaluations or on a fault (naming the thread and the instruction).
pub fn run(
    lowered: &Program,
    kernel: functional::Program,
    launch: Launch,
    in_flight: u32,
    limit: u64,
) -> Result<Interpretation, String> {
    run_observed(lowered, kernel, launch, in_flight, limit, None)
}

/// Receives every block execution, after it ran (the VGIW engine times it).
pub type Observer<'a> = &'a mut dyn FnMut(&VectorRun) -> Result<(), String>;

/// [`run`], handing every block execution (its threads and their memory accesses) to
/// `observer`; an error from the observer stops the run with it. A new wave starts when
/// the previous one has ended, so the observer sees the tiles one after the other.
pub fn run_observed(
    lowered: &Program,
    kernel: functional::Program,
    launch: Launch,
    in_flight: u32,
    limit: u64,
    mut observer: Option<Observer>,
) -> Result<Interpretation, String> {
    let functional::Program { mut image, code } = kernel;
    functional::run_setup(&code, &mut image, launch, limit)?;
    let orders = evaluation_orders(lowered);
    let mut result = Interpretation {
        image,
        vectors: 0,
        thread_blocks: 0,
        node_evaluations: 0,
        live_value_reads: 0,
        live_value_writes: 0,
    };
    let ctas = launch.threads / launch.cta;
    let per_wave = (in_flight / launch.cta).max(1);
    let mut values: Vec<u32> = vec![];
    let mut observed = VectorRun::default();
    for first_cta in (0..ctas).step_by(per_wave as usize) {
        let wave: Vec<u32> = (first_cta..ctas.min(first_cta + per_wave)).collect();
        let mut threads: Vec<ThreadState> = wave
            .iter()
            .flat_map(|&cta| cta * launch.cta..(cta + 1) * launch.cta)
            .map(|tid| ThreadState {
                env: launch.env(tid),
                live: lowered.initial,
                stack: Stack::default(),
            })
            .collect();
        let mut vectors: Vec<Vec<usize>> = vec![vec![]; lowered.blocks.len()];
        vectors[0] = (0..threads.len()).collect();
        // Per CTA of the wave: threads in a vector, and threads at a barrier.
        let mut in_vectors = vec![launch.cta; wave.len()];
        let mut at_barrier: Vec<Vec<(usize, BlockId)>> = vec![vec![]; wave.len()];
        // The basic block scheduler: the lowest ID with waiting threads.
        while let Some(b) = vectors.iter().position(|v| !v.is_empty()) {
            let mut vector = std::mem::take(&mut vectors[b]);
            vector.sort_unstable();
            result.vectors += 1;
            let record = observer.is_some();
            if record {
                observed.block = b;
                observed.tids.clear();
                observed.accesses.resize_with(vector.len(), Vec::new);
            }
            for (k, t) in vector.into_iter().enumerate() {
                let cta = (threads[t].env.ctaid - first_cta) as usize;
                in_vectors[cta] -= 1;
                let accesses = if record {
                    observed.tids.push(threads[t].env.tid);
                    observed.accesses[k].clear();
                    Some(&mut observed.accesses[k])
                } else {
                    None
                };
                let next = run_block(
                    lowered,
                    &orders[b],
                    b,
                    &mut threads[t],
                    &mut result,
                    &mut values,
                    limit,
                    accesses,
                )?;
                match next {
                    Next::Block(n) => {
                        vectors[n].push(t);
                        in_vectors[cta] += 1;
                    }
                    Next::Barrier(n) => at_barrier[cta].push((t, n)),
                    Next::Exit => {
                        threads[t].stack = Stack::default();
                        let env = threads[t].env;
                        result.image.shared.exited(env.ctaid, env.cta_size);
                    }
                }
            }
            if let Some(observe) = observer.as_mut() {
                observed.accesses.truncate(observed.tids.len());
                observe(&observed)?;
            }
            // A CTA none of whose live threads is in a vector passes its barrier.
            for cta in 0..wave.len() {
                if in_vectors[cta] == 0 {
                    for (t, n) in at_barrier[cta].drain(..) {
                        vectors[n].push(t);
                        in_vectors[cta] += 1;
                    }
                }
            }
        }
    }
    Ok(result)
}

/// Runs block `b` for one thread; records its memory accesses in `accesses` if given.
#[allow(clippy::too_many_arguments)]
fn run_block(
    lowered: &Program,
    order: &[usize],
    b: BlockId,
    thread: &mut ThreadState,
    result: &mut Interpretation,
    values: &mut Vec<u32>,
    limit: u64,
    mut accesses: Option<&mut Vec<Access>>,
) -> Result<Next, String> {
    let block = &lowered.blocks[b];
    if result.node_evaluations + block.nodes.len() as u64 > limit {
        return Err(format!(
            "stopped after {limit} node evaluations (thread {} at block {b}); raise the limit if the kernel is meant to run longer",
            thread.env.tid
        ));
    }
    result.thread_blocks += 1;
    result.node_evaluations += block.nodes.len() as u64;
    values.clear();
    values.resize(block.nodes.len(), 0);
    let env = thread.env;
    let mut memory = ThreadMemory {
        image: &mut result.image,
        stack: &mut thread.stack,
        cta: Some(env.ctaid),
    };
    let mut args = vec![];
    for &i in order {
        let node = &block.nodes[i];
        values[i] = match node.kind {
            NodeKind::Const(c) => c,
            NodeKind::LiveIn(r) => {
                result.live_value_reads += 1;
                thread.live[r as usize]
            }
            NodeKind::Coordinate(c) => match c {
                Coordinate::Tid => env.tid,
                Coordinate::Ntid => env.ntid,
                Coordinate::Ctaid => env.ctaid,
                Coordinate::CtaSize => env.cta_size,
            },
            NodeKind::Inst { ref inst, pc } => {
                args.clear();
                args.extend(node.args.iter().map(|&a| values[a]));
                let (value, effect) = evaluate_effect(inst, pc, &args, &mut memory, &env)
                    .map_err(|f| format!("thread {}: {f} (in block {b})", env.tid))?;
                if let (Some(list), Effect::Load { addr, size } | Effect::Store { addr, size }) =
                    (accesses.as_mut(), effect)
                {
                    let place = if is_private(addr) {
                        Place::Private
                    } else if memory.image.shared.place(addr, size) != SharedPlace::Outside {
                        Place::Shared
                    } else {
                        Place::Global
                    };
                    list.push(Access {
                        node: i,
                        addr,
                        store: matches!(effect, Effect::Store { .. }),
                        place,
                    });
                }
                value
            }
        };
    }
    for &(r, n) in &block.writes {
        thread.live[r as usize] = values[n];
    }
    result.live_value_writes += block.writes.len() as u64;
    Ok(match block.terminator {
        Terminator::Branch {
            cond,
            taken,
            not_taken,
        } => Next::Block(if values[cond] != 0 { taken } else { not_taken }),
        Terminator::Jump(n) => Next::Block(n),
        Terminator::Barrier(n) => Next::Barrier(n),
        Terminator::Exit => Next::Exit,
    })
}

#[cfg(test)]
mod tests {
    use super::super::graph::Terminator;
    use super::super::lower::lower;
    use super::*;
    use crate::core::asm::*;

    const LIMIT: u64 = 1_000_000;

    /// The lowered program of `words`, interpreted over `threads` in CTAs of `cta` with
    /// `in_flight` threads per wave, and the functional run's image.
    fn runs(
        words: &[u32],
        edit: impl Fn(&mut Program),
        threads: u32,
        cta: u32,
        in_flight: u32,
    ) -> (Interpretation, Image) {
        let kernel = || functional::Program::new(image(words));
        let mut lowered = lower(&kernel()).unwrap();
        edit(&mut lowered);
        let launch = Launch::new(threads, cta).unwrap();
        let run = run(&lowered, kernel(), launch, in_flight, LIMIT).unwrap();
        let reference = functional::run(kernel(), launch, LIMIT).unwrap().image;
        (run, reference)
    }

    /// The data area's words.
    fn data(image: &Image) -> Vec<u32> {
        image
            .symbol_bytes("data")
            .unwrap()
            .chunks(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect()
    }

    #[test]
    fn threads_of_both_sides_of_a_branch_run_each_block_once_together() {
        let diamond = [
            csrr(A0, TID),                       // 1000
            andi(A1, A0, 1),                     // 1004
            branch(0, A1, ZERO, 0x1008, 0x1014), // 1008: beq -> even
            addi(A2, ZERO, 7),                   // 100c: odd
            jal(ZERO, 0x1010, 0x1018),           // 1010
            addi(A2, ZERO, 9),                   // 1014: even
            lui(A3, 2),                          // 1018: join
            slli(A4, A0, 2),                     // 101c
            add(A4, A4, A3),                     // 1020
            sw(A2, A4, 0),                       // 1024
            ret(),                               // 1028
        ];
        for in_flight in [4, IN_FLIGHT] {
            let (run, reference) = runs(&diamond, |_| {}, 8, 4, in_flight);
            let want: Vec<u32> = (0..8).map(|t| if t % 2 == 1 { 7 } else { 9 }).collect();
            assert_eq!(data(&run.image)[..8], want);
            assert_eq!(run.image.bytes, reference.bytes);
            // One vector per block per wave: the join runs once for both paths' threads.
            let waves = 8 / in_flight.min(8);
            assert_eq!(run.vectors, 4 * u64::from(waves));
            assert_eq!(run.thread_blocks, 8 * 3);
            // Each thread writes `tid` and its side's value once, and the join reads both.
            assert_eq!((run.live_value_writes, run.live_value_reads), (16, 16));
        }
    }

    #[test]
    fn a_load_after_a_store_it_may_read_waits_for_it_through_its_order_edge() {
        let program = [
            csrr(A0, TID),   // 1000
            slli(A0, A0, 2), // 1004
            lui(A1, 2),      // 1008
            add(A2, A1, A0), // 100c: data + 4 tid
            addi(A3, A0, 5), // 1010
            sh(A3, A2, 0),   // 1014: a sub-word store
            add(A4, A0, A1), // 1018: the same address through another base
            lbu(A4, A4, 0),  // 101c: reads the low byte just stored
            sw(A4, A2, 128), // 1020: data[32 + tid]
            ret(),
        ];
        let (run, reference) = runs(&program, |_| {}, 4, 4, IN_FLIGHT);
        assert_eq!(data(&run.image)[32..36], [5, 9, 13, 17]);
        assert_eq!(run.image.bytes, reference.bytes);
        // Without the edge the interpreter, latest ready node first, loads before the
        // store: the edge is what keeps the order.
        let (cut, _) = runs(
            &program,
            |p| {
                for n in p.blocks[0].nodes.iter_mut() {
                    n.after.clear();
                }
            },
            4,
            4,
            IN_FLIGHT,
        );
        assert_eq!(data(&cut.image)[32..36], [0; 4]);
    }

    #[test]
    fn a_barrier_holds_threads_until_their_cta_arrives() {
        // Even threads wait at a barrier, then read what their odd neighbour stored
        // before its own barrier. The even side's blocks get the smaller IDs, so the
        // scheduler alone would run the read first.
        let program = [
            csrr(A0, TID),                       // 1000
            andi(A1, A0, 1),                     // 1004
            branch(1, A1, ZERO, 0x1008, 0x1028), // 1008: bne -> odd
            barrier(),                           // 100c: even
            lui(A2, 2),                          // 1010
            slli(A3, A0, 2),                     // 1014
            add(A3, A3, A2),                     // 1018
            lw(A4, A3, 4),                       // 101c: data[tid + 1]
            sw(A4, A3, 0),                       // 1020
            ret(),                               // 1024
            lui(A2, 2),                          // 1028: odd
            slli(A3, A0, 2),                     // 102c
            add(A3, A3, A2),                     // 1030
            sw(A0, A3, 0),                       // 1034: data[tid] = tid
            barrier(),                           // 1038
            ret(),                               // 103c
        ];
        let (run, reference) = runs(&program, |_| {}, 8, 4, IN_FLIGHT);
        assert_eq!(data(&run.image)[..8], [1, 1, 3, 3, 5, 5, 7, 7]);
        assert_eq!(run.image.bytes, reference.bytes);
        let as_jumps = |p: &mut Program| {
            for b in p.blocks.iter_mut() {
                if let Terminator::Barrier(next) = b.terminator {
                    b.terminator = Terminator::Jump(next);
                }
            }
        };
        let (unheld, _) = runs(&program, as_jumps, 8, 4, IN_FLIGHT);
        assert_eq!(data(&unheld.image)[..8], [0, 1, 0, 3, 0, 5, 0, 7]);
    }

    #[test]
    fn inlined_calls_compute_what_the_calls_do() {
        let program = [
            addi(SP, SP, -16),       // 1000
            sw(RA, SP, 12),          // 1004: ra kept on the thread's stack
            csrr(A0, TID),           // 1008
            jal(RA, 0x100c, 0x1030), // 100c: f
            jal(RA, 0x1010, 0x1030), // 1010: f
            lui(A2, 2),              // 1014
            slli(A3, A1, 2),         // 1018
            add(A3, A3, A2),         // 101c
            sw(A0, A3, 0),           // 1020: data[tid] = tid + 6
            lw(RA, SP, 12),          // 1024
            addi(SP, SP, 16),        // 1028
            ret(),                   // 102c
            addi(A0, A0, 3),         // 1030: f
            addi(A1, A0, -6),        // 1034
            ret(),                   // 1038
        ];
        let (run, reference) = runs(&program, |_| {}, 4, 2, IN_FLIGHT);
        assert_eq!(run.image.bytes, reference.bytes);
        assert_eq!(data(&run.image)[..4], [6, 7, 8, 9]);
    }

    #[test]
    fn a_fault_names_the_thread_and_the_instruction() {
        let program = [csrr(A0, TID), lw(A1, A0, 0), ret()]; // address = tid: outside
        let kernel = || functional::Program::new(image(&program));
        let lowered = lower(&kernel()).unwrap();
        let launch = Launch::new(2, 2).unwrap();
        let err = run(&lowered, kernel(), launch, IN_FLIGHT, LIMIT).unwrap_err();
        let reference = functional::run(kernel(), launch, LIMIT).unwrap_err();
        assert!(err.starts_with(&reference), "{err} / {reference}");
        assert!(err.contains("`lw` at 0x1004"), "{err}");
        let err = run(&lowered, kernel(), launch, IN_FLIGHT, 1).unwrap_err();
        assert!(err.starts_with("stopped after 1 node evaluations"), "{err}");
    }
}
