//! The functional run of a kernel: what every thread computes, with no timing. `weft
//! run` without a timing model, the reference every timed run must match byte for byte,
//! and the runner of `weft_setup`.
//!
//! Threads of a CTA take turns: each runs until it exits or reaches `weft_barrier`; when
//! every live thread of the CTA waits there, they all go on (a thread that has returned
//! no longer takes part, as in CUDA). CTAs run one after another.
use crate::core::cfg::{self, Cfg, Flow, Reconvergence};
use crate::core::image::{Image, SharedPlace};
use crate::core::isa::{decode, Inst, Op};
use crate::core::thread::{Effect, MemFault, Memory, Thread, ThreadEnv, EXIT_PC};
use crate::core::uniformity;
use std::collections::BTreeMap;

/// Each thread's private stack: the same addresses in every thread, its own bytes (the
/// LWM paper's per-thread private memory), just below `STACK_TOP`.
pub const STACK_TOP: u32 = 0x7fff_f000;
/// Bytes of private stack per thread.
pub const STACK_BYTES: u32 = 16 << 10;

/// Whether `addr` is in a thread's private stack (the same range in every thread).
pub fn is_private(addr: u32) -> bool {
    (STACK_TOP - STACK_BYTES..STACK_TOP).contains(&addr)
}

/// The threads of a launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    pub threads: u32,
    pub cta: u32,
}

impl Launch {
    /// `threads` in CTAs of `cta`; a launch that cannot work is refused.
    pub fn new(threads: u32, cta: u32) -> Result<Launch, String> {
        if threads == 0 || cta == 0 {
            return Err(format!(
                "a launch needs at least one thread and one thread per CTA (got {threads} threads, CTAs of {cta})"
            ));
        }
        if !threads.is_multiple_of(cta) {
            return Err(format!("{threads} threads do not make whole CTAs of {cta}"));
        }
        Ok(Launch { threads, cta })
    }

    /// The environment of thread `tid`.
    pub fn env(&self, tid: u32) -> ThreadEnv {
        ThreadEnv {
            tid,
            ntid: self.threads,
            ctaid: tid / self.cta,
            cta_size: self.cta,
        }
    }
}

/// The kernel: its image and its code, decoded once.
pub struct Program {
    pub image: Image,
    pub code: Code,
}

/// One entry per word of each executable segment, by segment; an undecodable word is
/// refused only if it runs.
pub struct Code(Vec<(u32, Vec<Result<Inst, String>>)>);

impl Program {
    pub fn new(image: Image) -> Program {
        let decoded = image
            .text
            .iter()
            .map(|&(lo, hi)| {
                let words = (lo..hi)
                    .step_by(4)
                    .map(|pc| match image.read_u32(pc) {
                        Some(w) => decode(w).map_err(|e| e.to_string()),
                        None => Err("outside the image".into()),
                    })
                    .collect();
                (lo, words)
            })
            .collect();
        Program {
            image,
            code: Code(decoded),
        }
    }

    /// The kernel's control-flow graph from `weft_kernel`, with every branch's
    /// reconvergence point; calls through registers and indirect jumps other than the
    /// return are refused with their address.
    pub fn cfg(&self) -> Result<Cfg, String> {
        cfg::analyse(self.image.kernel, |pc| self.flow(pc))
    }

    /// How the instruction at `pc` passes control on: direct jumps and calls, `auipc` +
    /// `jalr` pairs (`call` and `tail` as the linker leaves them), the return
    /// (`jalr x0, 0(ra)`); any other jump is refused with its address.
    pub fn flow(&self, pc: u32) -> Result<Flow, String> {
        let inst = self.fetch(pc)?;
        let target = pc.wrapping_add(inst.imm as u32);
        // `call` and `tail` as the linker leaves them: `auipc r, hi` then
        // `jalr rd, lo(r)`, a pc-relative target known before the run.
        let paired = (inst.op == Op::Jalr && inst.rs1 != 0)
            .then(|| self.fetch(pc.wrapping_sub(4)).ok())
            .flatten()
            .filter(|prev| prev.op == Op::Auipc && prev.rd == inst.rs1)
            .map(|prev| {
                pc.wrapping_sub(4)
                    .wrapping_add(prev.imm as u32)
                    .wrapping_add(inst.imm as u32)
            });
        Ok(match (inst.op, paired) {
            (Op::Jal, _) if inst.rd == 0 => Flow::Jump { target },
            (Op::Jal, _) if inst.rd == 1 => Flow::Call { target },
            (Op::Jalr, Some(target)) if inst.rd == 0 => Flow::Jump { target },
            (Op::Jalr, Some(target)) if inst.rd == 1 => Flow::Call { target },
            (Op::Jalr, None) if inst.rd == 0 && inst.rs1 == 1 && inst.imm == 0 => Flow::Return,
            (Op::Jal | Op::Jalr, _) => {
                return Err(format!(
                    "`{}` at {pc:#x}: a jump the model cannot follow (only direct calls and jumps, `auipc`+`jalr` pairs, and the return)",
                    inst.mnemonic()
                ))
            }
            _ if inst.is_branch() => Flow::Branch { taken: target },
            _ => Flow::Next,
        })
    }

    /// The instruction at `pc`, or why it cannot run.
    pub fn fetch(&self, pc: u32) -> Result<&Inst, String> {
        self.code.fetch(pc)
    }

    /// The decoded kernel, to read a waveform's PC and a divergence against: every word
    /// of code with its address and instruction under the symbols that start there, and
    /// each conditional branch's reconvergence point, and `# uniform` after it when
    /// [`uniformity`] proves every thread of a CTA takes it the same way (`weft run
    /// --listing`).
    pub fn listing(&self) -> String {
        let (cfg, unknown) = match self.cfg() {
            Ok(cfg) => (cfg, None),
            Err(why) => (Cfg::default(), Some(why)),
        };
        let uniform = uniformity::uniform_branches(&cfg, |pc| self.fetch(pc).ok().copied());
        let mut out = String::new();
        if let Some(why) = unknown {
            out.push_str(&format!("# no reconvergence points: {why}\n"));
        }
        let mut labels: BTreeMap<u32, Vec<&str>> = BTreeMap::new();
        for (name, symbol) in &self.image.symbols {
            if self.image.is_text(symbol.addr) {
                labels.entry(symbol.addr).or_default().push(name);
            }
        }
        for (lo, words) in &self.code.0 {
            for (pc, word) in (*lo..).step_by(4).zip(words) {
                if let Some(names) = labels.get(&pc) {
                    out.push_str(&format!("{}:\n", names.join(", ")));
                }
                let line = match word {
                    Ok(inst) => inst.assembly(pc),
                    Err(why) => format!("({why})"),
                };
                let mut note = match word {
                    Ok(inst) if inst.is_branch() => match cfg.reconvergence_of(pc) {
                        Some(Reconvergence::At(at)) => format!("  # reconverges at {at:#x}"),
                        Some(Reconvergence::AtReturn) => {
                            "  # reconverges at the function's return".into()
                        }
                        None => "  # not reached from weft_kernel".into(),
                    },
                    _ => String::new(),
                };
                if uniform.contains(&pc) {
                    note.push_str("  # uniform");
                }
                let text = format!("  {pc:08x}  {line:<36}{note}");
                out.push_str(text.trim_end());
                out.push('\n');
            }
        }
        out
    }
}

impl Code {
    /// The instruction at `pc`, or why it cannot run.
    pub fn fetch(&self, pc: u32) -> Result<&Inst, String> {
        if !pc.is_multiple_of(4) {
            return Err(format!("jump to misaligned address {pc:#x}"));
        }
        for (lo, words) in &self.0 {
            if pc >= *lo {
                if let Some(w) = words.get(((pc - lo) / 4) as usize) {
                    return w
                        .as_ref()
                        .map_err(|why| format!("instruction at {pc:#x}: {why}"));
                }
            }
        }
        Err(format!("jump to {pc:#x}, outside the kernel's code"))
    }
}

/// A thread's private stack: [`STACK_BYTES`] bytes, allocated at its first access, and
/// the lowest offset accessed since it was last emptied (it grows down from the top), so
/// that emptying it for the slot's next thread zeroes only what was touched.
#[derive(Clone, Debug)]
pub struct Stack {
    bytes: Vec<u8>,
    low: usize,
}

impl Default for Stack {
    fn default() -> Stack {
        Stack {
            bytes: vec![],
            low: STACK_BYTES as usize,
        }
    }
}

impl Stack {
    /// The `size` bytes at offset `at` from the stack's bottom.
    fn get_mut(&mut self, at: usize, size: usize) -> Option<&mut [u8]> {
        if self.bytes.is_empty() {
            self.bytes.resize(STACK_BYTES as usize, 0);
        }
        self.low = self.low.min(at);
        self.bytes.get_mut(at..at + size)
    }

    /// Every byte zero again, as a new thread's.
    pub fn clear(&mut self) {
        if let Some(touched) = self.bytes.get_mut(self.low..) {
            touched.fill(0);
        }
        self.low = STACK_BYTES as usize;
    }
}

/// Device memory (the image, seen by every thread), the thread's CTA's shared memory,
/// and one thread's private stack.
pub struct ThreadMemory<'a> {
    pub image: &'a mut Image,
    pub stack: &'a mut Stack,
    /// The thread's CTA, whose copy of the shared memory it sees (`None`: `weft_setup`,
    /// which runs in no CTA).
    pub cta: Option<u32>,
}

impl ThreadMemory<'_> {
    /// The bytes behind `[addr, addr + size)`: stack, the CTA's shared copy or image.
    fn bytes(&mut self, addr: u32, size: u32) -> Result<&mut [u8], MemFault> {
        let lo = STACK_TOP - STACK_BYTES;
        if addr >= lo && u64::from(addr) + u64::from(size) <= u64::from(STACK_TOP) {
            return self
                .stack
                .get_mut((addr - lo) as usize, size as usize)
                .ok_or(MemFault::Outside);
        }
        match self.image.shared.place(addr, size) {
            SharedPlace::Outside => {}
            SharedPlace::Straddles => return Err(MemFault::StraddlesShared),
            SharedPlace::Inside(at) => {
                let cta = self.cta.ok_or(MemFault::SharedOutsideCta)?;
                let at = at as usize;
                return Ok(&mut self.image.shared.copy(cta)[at..at + size as usize]);
            }
        }
        let at = addr.checked_sub(self.image.base).ok_or(MemFault::Outside)? as usize;
        self.image
            .bytes
            .get_mut(at..at + size as usize)
            .ok_or(MemFault::Outside)
    }
}

impl Memory for ThreadMemory<'_> {
    fn load(&mut self, addr: u32, size: u32) -> Result<u32, MemFault> {
        let b = self.bytes(addr, size)?;
        Ok(b.iter()
            .rev()
            .fold(0, |v, &byte| (v << 8) | u32::from(byte)))
    }

    fn store(&mut self, addr: u32, size: u32, value: u32) -> Result<(), MemFault> {
        if self.image.is_text(addr) {
            return Err(MemFault::Outside);
        }
        let b = self.bytes(addr, size)?;
        for (i, byte) in b.iter_mut().enumerate() {
            *byte = (value >> (8 * i)) as u8;
        }
        Ok(())
    }
}

/// A thread at the start of `entry`: `ra` returns to [`EXIT_PC`], `sp` at the top of its
/// private stack, `gp` at the linker's global pointer when there is one.
pub fn start_thread(image: &Image, entry: u32) -> Thread {
    let mut t = Thread::new(entry);
    t.x[1] = EXIT_PC;
    t.x[2] = STACK_TOP;
    if let Some(gp) = image.symbols.get("__global_pointer$") {
        t.x[3] = gp.addr;
    }
    t
}

/// What a functional run did.
#[derive(Clone, Debug)]
pub struct FunctionalRun {
    /// The image after the run: read dumps from here.
    pub image: Image,
    /// Instructions the kernel's threads executed (`weft_setup` excluded).
    pub thread_instructions: u64,
    /// Of them, loads and stores.
    pub memory_thread_instructions: u64,
}

/// What the threads of a run executed so far: instructions, of them loads and stores.
#[derive(Default)]
struct Executed {
    instructions: u64,
    memory: u64,
}

/// How one thread's turn ended.
enum Turn {
    Exited,
    AtBarrier,
}

/// Runs `thread` until it exits or reaches a barrier; counts into `executed` and stops
/// with an error past `limit` instructions.
fn turn(
    code: &Code,
    thread: &mut Thread,
    memory: &mut ThreadMemory,
    env: &ThreadEnv,
    executed: &mut Executed,
    limit: u64,
) -> Result<Turn, String> {
    loop {
        if thread.pc == EXIT_PC {
            return Ok(Turn::Exited);
        }
        if executed.instructions >= limit {
            return Err(format!(
                "stopped after {limit} thread instructions (thread {} at {:#x}); raise the limit if the kernel is meant to run longer",
                env.tid, thread.pc
            ));
        }
        let inst = code.fetch(thread.pc)?;
        let effect = thread
            .step(inst, memory, env)
            .map_err(|f| format!("thread {}: {f}", env.tid))?;
        executed.instructions += 1;
        if inst.is_load() || inst.is_store() {
            executed.memory += 1;
        }
        match effect {
            Effect::Barrier => return Ok(Turn::AtBarrier),
            Effect::Exit => return Ok(Turn::Exited),
            _ => {}
        }
    }
}

/// Runs `weft_setup` (when the kernel has one) on one thread with thread 0's coordinates.
pub fn run_setup(code: &Code, image: &mut Image, launch: Launch, limit: u64) -> Result<(), String> {
    let Some(setup) = image.setup else {
        return Ok(());
    };
    let mut thread = start_thread(image, setup);
    let mut stack = Stack::default();
    let mut memory = ThreadMemory {
        image,
        stack: &mut stack,
        cta: None,
    };
    let turned = turn(
        code,
        &mut thread,
        &mut memory,
        &launch.env(0),
        &mut Executed::default(),
        limit,
    );
    match turned.map_err(|e| format!("weft_setup: {e}"))? {
        Turn::Exited => Ok(()),
        Turn::AtBarrier => {
            Err("weft_setup: weft_barrier in setup (setup runs on one thread)".into())
        }
    }
}

/// Runs the whole launch functionally: setup, then every CTA, each with its own copy of
/// the shared memory.
pub fn run(program: Program, launch: Launch, limit: u64) -> Result<FunctionalRun, String> {
    let Program { mut image, code } = program;
    run_setup(&code, &mut image, launch, limit)?;
    let mut executed = Executed::default();
    for cta in 0..launch.threads / launch.cta {
        let first = cta * launch.cta;
        let mut threads: Vec<Thread> = (0..launch.cta)
            .map(|_| start_thread(&image, image.kernel))
            .collect();
        let mut stacks = vec![Stack::default(); launch.cta as usize];
        let mut live: Vec<bool> = vec![true; launch.cta as usize];
        while live.iter().any(|&l| l) {
            for i in 0..launch.cta as usize {
                if !live[i] {
                    continue;
                }
                let env = launch.env(first + i as u32);
                let mut memory = ThreadMemory {
                    image: &mut image,
                    stack: &mut stacks[i],
                    cta: Some(env.ctaid),
                };
                match turn(
                    &code,
                    &mut threads[i],
                    &mut memory,
                    &env,
                    &mut executed,
                    limit,
                )? {
                    Turn::Exited => {
                        live[i] = false;
                        image.shared.exited(env.ctaid, env.cta_size);
                    }
                    // Every live thread gets its turn up to the barrier before any goes on.
                    Turn::AtBarrier => {}
                }
            }
        }
    }
    Ok(FunctionalRun {
        image,
        thread_instructions: executed.instructions,
        memory_thread_instructions: executed.memory,
    })
}
