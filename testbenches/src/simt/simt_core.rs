//! SIMT core bench: a kernel through the RTL core (`hdl/simt/simt_core.rs`). The bench
//! loads the code and the reconvergence table through the loader port, starts the
//! launch, and answers the core's memory port (lines of `L` words) with the given
//! readiness and latency.
//!
//! Golden model: the functional run of the same program and launch (`weft_sim`'s
//! `functional::run`, itself checked against the native build). Contracts checked every
//! cycle: `error` stays low; an issued warp instruction has active threads, and its
//! lanes are those of a launched warp; a request's line is in the image or in a private
//! stack. When `done` rises: every word of the image equals the functional run's.
use crate::bench::{contract, Bench, Mismatch};
use crate::convert::small;
use crate::memory::Timing;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::{HashMap, VecDeque};
use weft_hdl::simt::simt_core::{SimtCore, EXIT_PC, PRIVATE_BASE, STACK_BYTES};
use weft_sim::core::cfg::{Flow, Reconvergence};
use weft_sim::core::functional::{self, run_setup, Launch, Program};
use weft_sim::core::image::Image;
use weft_sim::core::isa::Op;

/// A kernel made ready for the core: its code with each branch's reconvergence PC, the
/// launch, and the image after `weft_setup`.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub code_base: u32,
    /// Per word of code from `code_base`: (instruction, reconvergence PC or 0).
    pub words: Vec<(u32, u32)>,
    pub entry: u32,
    pub gp: u32,
    pub launch: Launch,
    pub cta_warps: u32,
    /// The image after `weft_setup`: the core's initial memory.
    pub image: Image,
}

/// Why the core cannot run `inst` at `pc`, if it cannot.
fn refusal(op: Op, rd: u8, rs1: u8, csr: u32) -> Option<&'static str> {
    use Op::*;
    match op {
        Lui | Auipc | Jal | Jalr | Beq | Bne | Blt | Bge | Bltu | Bgeu | Lb | Lh | Lw | Lbu
        | Lhu | Sb | Sh | Sw | Addi | Slti | Sltiu | Xori | Ori | Andi | Slli | Srli | Srai
        | Add | Sub | Sll | Slt | Sltu | Xor | Srl | Sra | Or | And | Fence | Mul | Mulh
        | Mulhsu | Mulhu | Div | Divu | Rem | Remu => None,
        Csrrs if rs1 == 0 && (0xcc0..=0xcc3).contains(&csr) => None,
        Csrrw if rd == 0 && rs1 == 0 && csr == 0x8c0 => None,
        Csrrw | Csrrs | Csrrc | Csrrwi | Csrrsi | Csrrci => {
            Some("a CSR access other than weft's thread CSRs (0xCC0-0xCC3) and barrier (0x8C0)")
        }
        Ecall | Ebreak => Some("an environment call"),
        _ => Some("RV32F: the RTL core has no floating point"),
    }
}

/// Why `program` cannot run on a core of `warps` warps of `lanes` lanes with `2^iaw`
/// words of code, if it cannot: an instruction outside RV32IM and weft's CSRs (named
/// with its address), a branch reconverging only at a callee's return, CTA-shared
/// memory, too much code, a CTA larger than the core.
pub fn check(
    program: &Program,
    launch: Launch,
    warps: usize,
    lanes: usize,
    iaw: usize,
) -> Result<(), String> {
    // Refuse what the core cannot run, naming the instruction and its address.
    let cfg = program.cfg()?;
    let mut pcs: Vec<u32> = cfg.flows.keys().copied().collect();
    pcs.sort_unstable();
    for &pc in &pcs {
        let inst = program.fetch(pc)?;
        if let Some(why) = refusal(inst.op, inst.rd, inst.rs1, inst.imm as u32 & 0xfff) {
            return Err(format!(
                "`{}` at {pc:#x}: {why}; the RTL core runs RV32IM and weft's CSRs",
                inst.mnemonic()
            ));
        }
    }
    for (&f, body) in &cfg.instructions {
        if f == program.image.kernel {
            continue;
        }
        for &pc in body {
            if let (Some(Flow::Branch { .. }), Some(Reconvergence::AtReturn)) =
                (cfg.flows.get(&pc).copied(), cfg.reconvergence_of(pc))
            {
                return Err(format!(
                    "the branch at {pc:#x} reconverges only at the return of the function at {f:#x}; the RTL core's reconvergence table holds addresses, not return points"
                ));
            }
        }
    }
    if program.image.shared.exists() {
        return Err("WEFT_SHARED memory: the RTL core has no CTA-shared memory yet".to_string());
    }
    let lo = *pcs.first().ok_or("the kernel has no instructions")?;
    let hi = *pcs.last().expect("non-empty");
    let count = ((hi - lo) / 4 + 1) as usize;
    if count > 1 << iaw {
        return Err(format!(
            "the kernel's code spans {count} words ({lo:#x}..={hi:#x}); the core's instruction memory holds {}",
            1 << iaw
        ));
    }
    let cta_warps = launch.cta.div_ceil(lanes as u32);
    if cta_warps as usize > warps {
        return Err(format!(
            "a CTA of {} threads needs {cta_warps} warps of {lanes}; the core has {warps}",
            launch.cta
        ));
    }
    Ok(())
}

/// Makes `program` ready for a core of `warps` warps of `lanes` lanes with `2^iaw`
/// words of code, or says why it cannot run there (before any work: no setup runs
/// until every check passed).
pub fn load(
    program: Program,
    launch: Launch,
    warps: usize,
    lanes: usize,
    iaw: usize,
    max_instructions: u64,
) -> Result<Loaded, String> {
    check(&program, launch, warps, lanes, iaw)?;
    let cfg = program.cfg()?;
    let mut pcs: Vec<u32> = cfg.flows.keys().copied().collect();
    pcs.sort_unstable();
    let lo = pcs[0];
    let count = ((pcs[pcs.len() - 1] - lo) / 4 + 1) as usize;
    let cta_warps = launch.cta.div_ceil(lanes as u32);
    let mut words = vec![];
    for i in 0..count as u32 {
        let pc = lo + 4 * i;
        let inst = program.image.read_u32(pc).unwrap_or(0);
        let rpc = match cfg.reconvergence_of(pc) {
            Some(Reconvergence::At(p)) => p,
            Some(Reconvergence::AtReturn) => EXIT_PC as u32,
            None => 0,
        };
        words.push((inst, rpc));
    }
    let gp = program
        .image
        .symbols
        .get("__global_pointer$")
        .map_or(0, |s| s.addr);
    let entry = program.image.kernel;
    let Program { mut image, code } = program;
    run_setup(&code, &mut image, launch, max_instructions)?;
    Ok(Loaded {
        code_base: lo,
        words,
        entry,
        gp,
        launch,
        cta_warps,
        image,
    })
}

/// The image's bytes as little-endian words (the image starts word-aligned or is
/// padded down to a word).
pub(crate) fn image_words(image: &Image) -> HashMap<u32, u32> {
    let base = image.base & !3;
    let pad = (image.base - base) as usize;
    let mut bytes = vec![0u8; pad];
    bytes.extend_from_slice(&image.bytes);
    bytes
        .chunks(4)
        .enumerate()
        .map(|(i, c)| {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            (base + 4 * i as u32, u32::from_le_bytes(w))
        })
        .collect()
}

/// `image` with its bytes read from `words` (little-endian words by address; a word
/// `words` lacks reads 0): the inverse of [`image_words`].
pub(crate) fn with_words(mut image: Image, words: &HashMap<u32, u32>) -> Image {
    let base = image.base;
    for (i, b) in image.bytes.iter_mut().enumerate() {
        let addr = base + i as u32;
        let word = words.get(&(addr & !3)).copied().unwrap_or(0);
        *b = (word >> (8 * (addr & 3))) as u8;
    }
    image
}

/// The end of the private stacks of a core of `warps` x `lanes` threads.
pub(crate) fn private_end(warps: usize, lanes: usize) -> u64 {
    PRIVATE_BASE + (warps * lanes) as u64 * STACK_BYTES
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Reset,
    Program(usize),
    Start,
    Run,
    Done,
}

/// What the memory port does this cycle (decided in `drive`, applied at the edge).
#[derive(Clone, Debug, Default)]
struct PortCycle {
    ready: bool,
    latency: u64,
    answer: bool,
}

/// A request the core offers this cycle.
#[derive(Clone, Debug)]
struct Request {
    addr: u32,
    write: bool,
    data: Vec<u32>,
    /// Per word of the line, its 4 byte strobes.
    strobe: Vec<u8>,
}

/// What a run on the core counted.
#[derive(Clone, Debug, Default)]
pub struct Counts {
    /// Cycles from the start to `done`.
    pub cycles: u64,
    pub warp_instructions: u64,
    pub thread_instructions: u64,
    pub line_requests: u64,
    /// Cycles from the start to `done` in each of the core's states (`phase` output,
    /// indexed by `weft_hdl::simt::simt_core::phase`); they sum to `cycles`.
    pub states: [u64; 16],
    /// Every warp instruction's warp in issue order, with the warps the scheduler was
    /// offered (its `ready` input) in the cycle it granted that warp.
    pub issue_order: Vec<Issued>,
}

/// One issue: the warp, and the scheduler's `ready` bits when it was granted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Issued {
    pub warp: usize,
    pub ready: u64,
}

/// The core's states by their `phase` value, as `--json` names them.
pub const STATE_NAMES: [(u64, &str); 11] = {
    use weft_hdl::simt::simt_core::phase::*;
    [
        (IDLE, "idle"),
        (SCHED, "schedule"),
        (LAUNCH, "launch"),
        (LAUNCH_REGS, "launch_registers"),
        (DECODE, "decode"),
        (EXEC, "execute"),
        (MEM_REQ, "memory_request"),
        (MEM_WAIT, "memory_wait"),
        (MD_START, "multiply_divide_start"),
        (MD_WAIT, "multiply_divide_wait"),
        (DONE, "done"),
    ]
};

pub struct SimtCoreBench<
    const W: usize,
    const L: usize,
    const DEPTH: usize,
    const DW: usize,
    const WW: usize,
    const LW: usize,
    const IAW: usize,
    const RAW: usize,
    const LB: usize,
    const SB: usize,
    const G: usize,
    const GS: usize,
    const GW: usize,
    const GLW: usize,
> {
    pub uut: SimtCore<W, L, DEPTH, DW, WW, LW, IAW, RAW, LB, SB, G, GS, GW, GLW>,
    pub kernel: Loaded,
    /// The functional run's words after the kernel, over the image.
    golden: Option<HashMap<u32, u32>>,
    phase: Phase,
    now: PortCycle,
    request: Option<Request>,
    memory: HashMap<u32, u32>,
    /// Load answers owed, in order: (first cycle it may be given, line).
    owed: VecDeque<(u64, Vec<u32>)>,
    cycle: u64,
    started: u64,
    pub counts: Counts,
    /// The scheduler's `ready` bits in the last schedule cycle.
    offered: u64,
    /// Cycle `done` rose (from the start).
    pub finished: Option<u64>,
    pub memory_timing: Timing,
}

impl<
        const W: usize,
        const L: usize,
        const DEPTH: usize,
        const DW: usize,
        const WW: usize,
        const LW: usize,
        const IAW: usize,
        const RAW: usize,
        const LB: usize,
        const SB: usize,
        const G: usize,
        const GS: usize,
        const GW: usize,
        const GLW: usize,
    > SimtCoreBench<W, L, DEPTH, DW, WW, LW, IAW, RAW, LB, SB, G, GS, GW, GLW>
{
    /// A bench for `kernel`; with `golden`, the memory at `done` is checked against the
    /// functional run of `program` (the same program `kernel` was loaded from).
    pub fn new(kernel: Loaded, golden: Option<Image>, memory_timing: Timing) -> Self {
        let mut uut = SimtCore::default();
        uut.connect_all();
        let memory = image_words(&kernel.image);
        SimtCoreBench {
            uut,
            golden: golden.as_ref().map(image_words),
            kernel,
            phase: Phase::Reset,
            now: PortCycle::default(),
            request: None,
            memory,
            owed: VecDeque::new(),
            cycle: 0,
            started: 0,
            counts: Counts::default(),
            offered: 0,
            finished: None,
            memory_timing,
        }
    }

    /// Loads `program` for this core and runs the functional model for the golden image.
    pub fn for_program(
        program: &Program,
        launch: Launch,
        memory_timing: Timing,
        max_instructions: u64,
    ) -> Result<Self, String> {
        let kernel = load(clone_program(program), launch, W, L, IAW, max_instructions)?;
        let golden = functional::run(clone_program(program), launch, max_instructions)?.image;
        Ok(Self::new(kernel, Some(golden), memory_timing))
    }

    /// The image after the run: the initial image with the core's memory written back.
    pub fn final_image(&self) -> Image {
        with_words(self.kernel.image.clone(), &self.memory)
    }

    fn in_image(&self, addr: u32) -> bool {
        let image = &self.kernel.image;
        let end = image.end();
        let private_end = private_end(W, L);
        (u64::from(addr) + 4 * L as u64 > u64::from(image.base) && u64::from(addr) < end)
            || (u64::from(addr) >= PRIVATE_BASE && u64::from(addr) < private_end)
    }

    fn line_bits(words: &[u32]) -> Bits<LB> {
        let mut b = Bits::<LB>::default();
        for (i, &w) in words.iter().enumerate() {
            b.set_bits::<32>(32 * i, Bits::<32>::from(u64::from(w)));
        }
        b
    }
}

/// A second `Program` from the same image (the functional run and the loader each take one).
pub fn clone_program(p: &Program) -> Program {
    Program::new(p.image.clone())
}

impl<
        const W: usize,
        const L: usize,
        const DEPTH: usize,
        const DW: usize,
        const WW: usize,
        const LW: usize,
        const IAW: usize,
        const RAW: usize,
        const LB: usize,
        const SB: usize,
        const G: usize,
        const GS: usize,
        const GW: usize,
        const GLW: usize,
    > Bench for SimtCoreBench<W, L, DEPTH, DW, WW, LW, IAW, RAW, LB, SB, G, GS, GW, GLW>
{
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        self.cycle = cycle;
        let u = &mut self.uut;
        u.reset.next = cycle == 0;
        if cycle == 0 {
            self.phase = Phase::Reset;
        }
        u.prog_write.next = false;
        u.start.next = false;
        u.mem_req_ready.next = false;
        u.mem_resp_valid.next = false;
        u.mem_resp_data.next = Bits::default();
        let k = &self.kernel;
        u.code_base.next = u64::from(k.code_base).into();
        u.entry_pc.next = u64::from(k.entry).into();
        u.gp.next = u64::from(k.gp).into();
        u.ntid.next = u64::from(k.launch.threads).into();
        u.cta_size.next = u64::from(k.launch.cta).into();
        u.ctas.next = u64::from(k.launch.threads / k.launch.cta).into();
        u.cta_warps.next = u64::from(k.cta_warps).into();
        match self.phase {
            Phase::Reset => {}
            Phase::Program(i) => {
                let (inst, rpc) = k.words[i];
                u.prog_write.next = true;
                u.prog_addr.next = (i as u64).into();
                u.prog_inst.next = u64::from(inst).into();
                u.prog_rpc.next = u64::from(rpc).into();
            }
            Phase::Start => u.start.next = true,
            Phase::Run | Phase::Done => {
                let t = &self.memory_timing;
                self.now = PortCycle {
                    ready: rng.gen_range(0..100) < t.ready_percent,
                    latency: rng.gen_range(t.latency.0..=t.latency.1),
                    answer: false,
                };
                if let Some(&(due, ref line)) = self.owed.front() {
                    if due <= cycle && rng.gen_range(0..100) < t.answer_percent {
                        self.now.answer = true;
                        u.mem_resp_valid.next = true;
                        u.mem_resp_data.next = Self::line_bits(line);
                    }
                }
                u.mem_req_ready.next = self.now.ready;
            }
        }
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let u = &self.uut;
        if self.phase != Phase::Run {
            self.request = None;
            return Ok(());
        }
        contract("no error", !u.error.val(), || {
            format!(
                "the core raised `error` at cycle {} of the run (phase {})",
                self.cycle - self.started,
                small(u.phase.val())
            )
        })?;
        if u.issue.val() {
            let mask = small(u.issue_mask.val());
            contract("an issued warp has active threads", mask != 0, || {
                format!(
                    "warp {} at {:#x}",
                    small(u.issue_warp.val()),
                    small(u.issue_pc.val())
                )
            })?;
            self.counts.warp_instructions += 1;
            self.counts.thread_instructions += u64::from(mask.count_ones());
            // The grant was taken in the cycle just before the decode.
            self.counts.issue_order.push(Issued {
                warp: small(u.issue_warp.val()) as usize,
                ready: self.offered,
            });
        }
        if u.scheduler.accept.val() {
            self.offered = small(u.scheduler.ready.val());
        }
        self.request = None;
        if u.mem_req_valid.val() {
            let addr = small(u.mem_req_addr.val()) as u32;
            contract(
                "requests are in the image or a private stack",
                self.in_image(addr),
                || format!("line {addr:#x}: memory outside the image"),
            )?;
            contract(
                "lines are aligned",
                addr.is_multiple_of(4 * L as u32),
                || format!("{addr:#x}"),
            )?;
            let data = (0..L)
                .map(|i| small(u.mem_req_data.val().get_bits::<32>(32 * i)) as u32)
                .collect();
            self.request = Some(Request {
                addr,
                write: u.mem_req_write.val(),
                data,
                strobe: (0..L)
                    .map(|i| small(u.mem_req_strobe.val().get_bits::<4>(4 * i)) as u8)
                    .collect(),
            });
        }
        if !u.done.val() {
            self.counts.states[small(u.phase.val()) as usize & 15] += 1;
        }
        if u.done.val() && self.finished.is_none() {
            self.finished = Some(self.cycle - self.started);
            self.counts.cycles = self.cycle - self.started;
            if let Some(golden) = &self.golden {
                let mut addrs: Vec<&u32> = golden.keys().collect();
                addrs.sort_unstable();
                for &a in addrs {
                    let got = self.memory.get(&a).copied().unwrap_or(0);
                    let want = golden[&a];
                    contract(
                        "memory at done equals the functional run",
                        got == want,
                        || format!("word {a:#x}: RTL {got:#010x}, functional {want:#010x}"),
                    )?;
                }
            }
            self.phase = Phase::Done;
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        match self.phase {
            Phase::Reset => {
                self.phase = if self.kernel.words.is_empty() {
                    Phase::Start
                } else {
                    Phase::Program(0)
                }
            }
            Phase::Program(i) => {
                self.phase = if i + 1 < self.kernel.words.len() {
                    Phase::Program(i + 1)
                } else {
                    Phase::Start
                }
            }
            Phase::Start => {
                self.phase = Phase::Run;
                self.started = self.cycle + 1;
            }
            Phase::Run | Phase::Done => {
                if self.now.answer {
                    self.owed.pop_front();
                }
                if let (true, Some(r)) = (self.now.ready, self.request.take()) {
                    self.counts.line_requests += 1;
                    if r.write {
                        for (i, &d) in r.data.iter().enumerate() {
                            let strobe = r.strobe[i];
                            if strobe == 0 {
                                continue;
                            }
                            let a = r.addr + 4 * i as u32;
                            let mut word = self.memory.get(&a).copied().unwrap_or(0);
                            for b in 0..4 {
                                if strobe >> b & 1 == 1 {
                                    word = (word & !(0xff << (8 * b))) | (d & (0xff << (8 * b)));
                                }
                            }
                            self.memory.insert(a, word);
                        }
                    } else {
                        let line = (0..L as u32)
                            .map(|i| self.memory.get(&(r.addr + 4 * i)).copied().unwrap_or(0))
                            .collect();
                        self.owed.push_back((self.cycle + self.now.latency, line));
                    }
                }
            }
        }
        Ok(())
    }
}

/// The preset's kernel, assembled here so that the bench needs no compiler: every
/// thread computes into `out[tid]` through a divergent branch (multiply on odd threads,
/// divide on even ones), its private stack, a barrier, a CTA index read and byte and
/// halfword accesses; 32 threads in CTAs of 8 (two waves on a 4-warp core).
pub mod preset_kernel {
    use super::*;
    use crate::simt::asm::{b, i, j, lui, r, s};

    const CODE: u32 = 0x1000;
    pub const OUT: u32 = 0x2000;
    pub const THREADS: u32 = 32;

    /// The program's words from `CODE`.
    pub fn code() -> Vec<u32> {
        let (sp, ra, a0, a1, a2, a3, a4, a5, a6, a7) = (2, 1, 10, 11, 12, 13, 14, 15, 16, 17);
        vec![
            i(0xcc0, 0, 2, a0, 0x73),  // 0x00 csrr a0, 0xcc0 (tid)
            lui(OUT >> 12, a1),        // 0x04 lui a1, OUT >> 12
            i(2, a0, 1, a2, 0x13),     // 0x08 slli a2, a0, 2
            r(0, a2, a1, 0, a1, 0x33), // 0x0c add a1, a1, a2
            i(1, a0, 7, a3, 0x13),     // 0x10 andi a3, a0, 1
            b(16, 0, a3, 0),           // 0x14 beq a3, x0, 0x24
            r(1, a0, a0, 0, a4, 0x33), // 0x18 mul a4, a0, a0
            s(0, a4, a1, 2),           // 0x1c sw a4, 0(a1)
            j(16, 0),                  // 0x20 j 0x30
            i(3, 0, 0, a5, 0x13),      // 0x24 li a5, 3
            r(1, a5, a0, 5, a4, 0x33), // 0x28 divu a4, a0, a5
            s(0, a4, a1, 2),           // 0x2c sw a4, 0(a1)
            i(-16, sp, 0, sp, 0x13),   // 0x30 addi sp, sp, -16
            s(12, a0, sp, 2),          // 0x34 sw a0, 12(sp)
            i(0x8c0, 0, 1, 0, 0x73),   // 0x38 csrw 0x8c0, zero (barrier)
            i(0xcc2, 0, 2, a6, 0x73),  // 0x3c csrr a6, 0xcc2 (ctaid)
            i(0, a1, 2, a7, 0x03),     // 0x40 lw a7, 0(a1)
            r(0, a6, a7, 0, a7, 0x33), // 0x44 add a7, a7, a6
            s(2, a7, a1, 1),           // 0x48 sh a7, 2(a1)
            i(12, sp, 0, a5, 0x03),    // 0x4c lb a5, 12(sp)
            s(1, a5, a1, 0),           // 0x50 sb a5, 1(a1)
            i(16, sp, 0, sp, 0x13),    // 0x54 addi sp, sp, 16
            i(0, ra, 0, 0, 0x67),      // 0x58 ret
        ]
    }

    pub fn program() -> Program {
        crate::simt::asm::program(CODE, &code(), &[], OUT, 4 * THREADS, Some((THREADS, 8)))
    }

    pub fn launch() -> Launch {
        Launch::new(THREADS, 8).expect("a valid launch")
    }

    /// The bench's launch on a core of `warps` x `lanes`: four CTAs of 8 threads, or of
    /// as many as the core holds (`simt_core_2x2`: 16 threads in CTAs of 4).
    pub fn launch_for(warps: usize, lanes: usize) -> Launch {
        let cta = 8.min(warps * lanes) as u32;
        Launch::new(4 * cta, cta).expect("a valid launch")
    }
}

impl<
        const W: usize,
        const L: usize,
        const DEPTH: usize,
        const DW: usize,
        const WW: usize,
        const LW: usize,
        const IAW: usize,
        const RAW: usize,
        const LB: usize,
        const SB: usize,
        const G: usize,
        const GS: usize,
        const GW: usize,
        const GLW: usize,
    > crate::presets::Tested
    for SimtCore<W, L, DEPTH, DW, WW, LW, IAW, RAW, LB, SB, G, GS, GW, GLW>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![
            ("WARPS", W),
            ("LANES", L),
            ("STACK_ENTRIES", DEPTH),
            ("CODE_WORDS", 1 << IAW),
        ]
    }
    fn bench() -> Box<dyn Bench> {
        let program = preset_kernel::program();
        Box::new(
            SimtCoreBench::<W, L, DEPTH, DW, WW, LW, IAW, RAW, LB, SB, G, GS, GW, GLW>::for_program(
                &program,
                preset_kernel::launch_for(W, L),
                Timing::default(),
                1_000_000,
            )
            .expect("the preset kernel loads"),
        )
    }
    /// The harness reads the registers of 2 warps of 2 lanes with 4-entry stacks: the
    /// size the proofs fit (`simt_core_2x2`; the instruction RAM becomes flip-flops).
    fn properties() -> Option<crate::presets::Properties> {
        (W == 2 && L == 2 && DEPTH == 4 && IAW <= 8).then_some(crate::presets::Properties {
            harness: include_str!("simt_core.props.v"),
            planted: PLANTED,
        })
    }
}

/// Bugs planted in the exported Verilog (of `simt_core_2x2`), each caught by the
/// property named; a property other than an invariant (`p_inv_*`) is caught by its own
/// clause, the invariants holding (`tests/prove.rs`). Each shows within a few cycles of
/// reset, before the 32-cycle launch of a warp ends.
const PLANTED: &[(&str, &str, &str)] = &[
    // The second warp of a CTA starts at the first one's threads plus one warp.
    (
        "p_inv_launch",
        "launch_base$d = zero32;",
        "launch_base$d = lanes32;",
    ),
    // A warp's stack starts with the threads it was not given.
    (
        "p_inv_stack_threads",
        "entry_mask$0$d = init_mask;",
        "entry_mask$0$d = ~init_mask;",
    ),
    // The scheduler offers the warps that do not run: a free warp issues.
    ("p_inv_in_flight", "offered = live;", "offered = ~live;"),
    // A CTA's last lane counts one thread too many.
    (
        "p_launch_mask",
        "if ((launch_base$q + lane_num$1) < cta_size) begin",
        "if ((launch_base$q + lane_num$1) <= cta_size) begin",
    ),
    // The issue shows while the scheduler picks, before the instruction is in flight.
    (
        "p_issue",
        "issue = state$q == at_decode;",
        "issue = state$q == at_sched;",
    ),
    // Reset leaves the stacks' overflow set.
    (
        "p_two_lanes_never_overflow",
        "overflowed$d = 1'b0;",
        "overflowed$d = 1'b1;",
    ),
];
