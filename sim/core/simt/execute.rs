//! Executing a warp's instruction: every active thread runs it through the interpreter
//! (execution happens at issue), and the outcome becomes one record, [`Executed`], that
//! the timing and the divergence policy read.
use super::kernel::Step;
use super::warp::Slot;
use crate::core::cfg::{Flow, Reconvergence};
use crate::core::functional::{is_private, ThreadMemory};
use crate::core::image::{Image, SharedPlace};
use crate::core::memory::MemorySystem;
use crate::core::thread::{Effect, EXIT_PC};

/// What one thread's memory instruction accessed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    None,
    /// The thread's private stack (banked by lane, no line).
    Private,
    /// Its CTA's shared memory (`WEFT_SHARED`: on chip, no line).
    Shared,
    /// Device memory: the line, the address and the bytes.
    Global {
        line: u32,
        addr: u32,
        bytes: u32,
    },
}

/// What a warp's instruction did, per thread and as a whole (reused between issues).
#[derive(Debug, Default)]
pub struct Executed {
    /// The instruction's PC and the rows it was fetched with (one `u64` of lanes per
    /// row; thread `r * lanes + c` is row `r`, lane `c`).
    pub pc: u32,
    pub mask: Vec<u64>,
    /// Threads that executed it.
    pub active: u32,
    /// Per row, the threads whose branch was taken.
    pub taken: Vec<u64>,
    /// Per thread of the warp (by its place in the warp), what it accessed.
    pub accesses: Vec<Access>,
    /// The instruction is a store / touched device memory / is `weft_barrier`.
    pub store: bool,
    pub global: bool,
    pub barrier: bool,
    /// Where the threads go next (every thread's, unless the instruction branches).
    pub next_pc: u32,
    /// Where a branch reconverges: its immediate post-dominator, or the return address
    /// of the call the threads are in (`EXIT_PC` outside every call).
    pub reconvergence_pc: u32,
}

impl Executed {
    pub fn new(rows: usize, warp_size: usize) -> Executed {
        Executed {
            taken: vec![0; rows],
            accesses: vec![Access::None; warp_size],
            ..Executed::default()
        }
    }
}

/// Runs `step` (at `pc`) in the threads of `mask` of the warp whose slots are `slots`,
/// and records the outcome in `ex`.
pub fn execute(
    step: &Step,
    (pc, mask): (u32, &[u64]),
    lanes: usize,
    slots: &mut [Slot],
    image: &mut Image,
    memory: &MemorySystem,
    ex: &mut Executed,
) -> Result<(), String> {
    ex.pc = pc;
    ex.mask.clear();
    ex.mask.extend_from_slice(mask);
    ex.taken.iter_mut().for_each(|r| *r = 0);
    ex.store = false;
    ex.global = false;
    ex.barrier = false;
    ex.active = 0;
    let mut first: Option<(usize, u32)> = None;
    for (r, &row) in mask.iter().enumerate() {
        for lane in bits(row) {
            let t = r * lanes + lane;
            ex.active += 1;
            let slot = &mut slots[t];
            if slot.thread.pc != pc {
                return Err(format!(
                    "internal: thread {} is at {:#x} but its warp issues {pc:#x}",
                    slot.env.tid, slot.thread.pc
                ));
            }
            let mut thread_memory = ThreadMemory {
                image,
                stack: &mut slot.stack,
                cta: Some(slot.env.ctaid),
            };
            let effect = slot
                .thread
                .step(&step.inst, &mut thread_memory, &slot.env)
                .map_err(|f| format!("thread {}: {f}", slot.env.tid))?;
            ex.accesses[t] = Access::None;
            match effect {
                Effect::Branch { taken: true } => ex.taken[r] |= 1 << lane,
                Effect::Load { addr, size } | Effect::Store { addr, size } => {
                    ex.store = matches!(effect, Effect::Store { .. });
                    ex.accesses[t] = if is_private(addr) {
                        Access::Private
                    } else if image.shared.place(addr, size) != SharedPlace::Outside {
                        Access::Shared
                    } else {
                        ex.global = true;
                        Access::Global {
                            line: memory.line_of(addr),
                            addr,
                            bytes: size,
                        }
                    };
                }
                Effect::Barrier => ex.barrier = true,
                // The CTA's shared copy goes with its last thread (the per-CTA state
                // lives in the image, beside the bytes it copies).
                Effect::Exit => image.shared.exited(slot.env.ctaid, slot.env.cta_size),
                _ => {}
            }
            match step.flow {
                Flow::Call { .. } => slot.calls.push(pc.wrapping_add(4)),
                Flow::Return => {
                    slot.calls.pop();
                }
                _ => {}
            }
            // Every thread must go where the first went, unless the warp branches.
            let next = slot.thread.pc;
            match first {
                None => first = Some((t, next)),
                Some((t0, pc0)) if next != pc0 && !step.inst.is_branch() => {
                    let tid = slot.env.tid;
                    return Err(format!(
                        "`{}` at {pc:#x}: threads {tid} and {} of one warp went to different places ({next:#x}, {pc0:#x}); the model cannot follow an indirect jump that diverges",
                        step.inst.mnemonic(),
                        slots[t0].env.tid,
                    ));
                }
                Some(_) => {}
            }
        }
    }
    let Some((first_thread, next_pc)) = first else {
        return Err(format!(
            "internal: a warp issued {pc:#x} with no active thread"
        ));
    };
    ex.next_pc = next_pc;
    ex.reconvergence_pc = match step.reconvergence {
        Some(Reconvergence::At(p)) => p,
        Some(Reconvergence::AtReturn) | None => {
            *slots[first_thread].calls.last().unwrap_or(&EXIT_PC)
        }
    };
    Ok(())
}

/// The set bits of `mask`, lowest first.
pub fn bits(mask: u64) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            b
        })
    })
}
