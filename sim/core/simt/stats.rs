//! What a timed run counts: the counters the cores add to while running, and the
//! [`Stats`] made of them at the end (one serde structure; its divergence section
//! belongs to the machine's divergence policy).
use super::divergence::DivergenceStats;
use crate::core::isa::Unit;
use crate::core::machine::Machine;
use crate::core::memory::{CacheStats, DramStats, MemorySystem};
use serde::Serialize;

/// Why no thread started on a functional unit in a cycle.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Stalls {
    /// The coalescer serves the second and later lines of a memory instruction.
    pub memory_serialization: u64,
    /// An unpipelined special function unit (`sfu_interval` > 1) holds the issue slot
    /// between its passes.
    pub sfu: u64,
    /// No warp ready; some wait for memory.
    pub memory: u64,
    /// No warp ready; none waits for memory, some wait at a barrier.
    pub barrier: u64,
    /// No warp ready; none waits for memory or at a barrier, some wait for their CTA's
    /// stack (thread block compaction: at a branch for the other warps, or for their
    /// path to come up).
    pub compaction: u64,
    /// No warp ready; every live warp has its instruction in the pipeline (barrel).
    pub pipeline: u64,
    /// No live warp on the core while CTAs are still to come (launch start, CTA
    /// turnover, a core without work).
    pub empty: u64,
    /// Every CTA is launched and none is left on this core: it waits for the other
    /// cores to finish theirs (the tail) or for its last stores to drain.
    pub drain: u64,
}

/// Thread operations by the functional unit class that performs them (the VGIW energy
/// model's per-operation events): one per thread that executes an instruction.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Operations {
    /// Integer ALU: arithmetic, logic, shifts, compares, `lui`/`auipc`, CSR reads and
    /// fences, and branches and jumps (their compare or link add runs on the ALU).
    pub alu: u64,
    /// Integer multiply (`mul`, `mulh*`).
    pub mul: u64,
    /// Float add, multiply, fused multiply-add, compares, conversions, moves.
    pub fpu: u64,
    /// Special function unit: integer divide and remainder, float divide and square
    /// root ([`Unit::Sfu`]).
    pub sfu: u64,
    /// Loads and stores (every space).
    pub memory: u64,
}

impl Operations {
    /// Adds `n` operations of an instruction of unit `unit`.
    pub fn add(&mut self, unit: Unit, n: u64) {
        match unit {
            Unit::Alu | Unit::Control => self.alu += n,
            Unit::Mul => self.mul += n,
            Unit::Fpu => self.fpu += n,
            Unit::Sfu => self.sfu += n,
            Unit::Memory => self.memory += n,
        }
    }

    /// Every operation.
    pub fn total(&self) -> u64 {
        self.alu + self.mul + self.fpu + self.sfu + self.memory
    }
}

/// What a timed run counted.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Stats {
    pub cycles: u64,
    /// Instructions executed by threads (the program's count, the same on every
    /// machine).
    pub thread_instructions: u64,
    /// Warp instructions issued: what enters the SIMD lanes (sub-warps for large warps).
    /// Each is one instruction fetch, decode and schedule for the energy model.
    pub warp_instructions: u64,
    /// Register-file reads: per warp instruction, one per source register operand
    /// other than `x0` ([`crate::core::isa::Inst::registers`]), a warp-wide access (as
    /// the VGIW paper's Fig. 3 counts the register file).
    pub register_reads: u64,
    /// Register-file writes: one per warp instruction that writes a register other
    /// than `x0`.
    pub register_writes: u64,
    /// Thread operations by unit class (they sum to `thread_instructions`).
    pub operations: Operations,
    /// Thread instructions per cycle.
    pub ipc: f64,
    /// Threads carried by the issued warp instructions over their lanes.
    pub simd_utilisation: f64,
    /// Threads carried per warp instruction (LWM Table 2's branch intensity).
    pub active_threads_per_warp: f64,
    /// Entry `k`: core cycles in which `k` threads started on a functional unit.
    pub active_lanes_histogram: Vec<u64>,
    /// Core cycles with no thread starting (entry 0 of the histogram).
    pub idle_cycles: u64,
    /// `idle_cycles` over core cycles (LWM Table 2's idle FU intensity).
    pub idle_fraction: f64,
    pub stalls: Stalls,
    /// Private (per-thread stack) accesses, in warp instructions.
    pub private_accesses: u64,
    /// CTA-shared memory (`WEFT_SHARED`) accesses, in warp instructions.
    pub shared_accesses: u64,
    /// Loads and stores (every space), in thread instructions: the DoM paper's Table 3
    /// reads thread instructions per memory operation.
    pub memory_thread_instructions: u64,
    pub l1: CacheStats,
    pub l2: CacheStats,
    pub dram: DramStats,
    /// DRAM bytes per cycle over the run, and as a share of the limit.
    pub dram_bytes_per_cycle: f64,
    pub dram_bandwidth_used: f64,
    /// What the divergence policy counted.
    pub divergence: DivergenceStats,
    /// CTAs one core holds at once at most: the least of the warp slots, `max_ctas`,
    /// the register file and CTA-shared memory ([`super::occupancy`]).
    pub ctas_per_core: u32,
}

/// The counters the cores add to.
#[derive(Default)]
pub struct Counts {
    pub thread_instructions: u64,
    /// Threads carried by the warp instructions issued (fewer than the thread
    /// instructions when a policy issues several threads' instruction once, as a jump
    /// of a large warp under `lwm_jump_opt`).
    pub carried_threads: u64,
    pub warp_instructions: u64,
    pub register_reads: u64,
    pub register_writes: u64,
    pub operations: Operations,
    pub histogram: Vec<u64>,
    pub stalls: Stalls,
    pub private_accesses: u64,
    pub shared_accesses: u64,
    pub memory_thread_instructions: u64,
    pub ctas_done: u32,
    /// CTAs one core holds at once at most (the occupancy limit).
    pub ctas_per_core: u32,
}

impl Counts {
    pub fn new(lanes: u32) -> Counts {
        Counts {
            histogram: vec![0; lanes as usize + 1],
            ..Counts::default()
        }
    }

    /// The run's statistics after `cycles` cycles.
    pub fn into_stats(
        mut self,
        m: &Machine,
        cycles: u64,
        memory: &MemorySystem,
        divergence: DivergenceStats,
    ) -> Stats {
        let core_cycles = cycles * u64::from(m.core().cores);
        let busy: u64 = self.histogram[1..].iter().sum();
        self.histogram[0] = core_cycles - busy;
        let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
        let bytes_per_cycle = ratio(memory.dram_stats.bytes as f64, cycles as f64);
        let carried = self.carried_threads as f64;
        Stats {
            cycles,
            thread_instructions: self.thread_instructions,
            warp_instructions: self.warp_instructions,
            register_reads: self.register_reads,
            register_writes: self.register_writes,
            operations: self.operations,
            ipc: ratio(self.thread_instructions as f64, cycles as f64),
            simd_utilisation: ratio(
                carried,
                (self.warp_instructions * u64::from(m.core().lanes)) as f64,
            ),
            active_threads_per_warp: ratio(carried, self.warp_instructions as f64),
            idle_cycles: self.histogram[0],
            idle_fraction: ratio(self.histogram[0] as f64, core_cycles as f64),
            active_lanes_histogram: self.histogram,
            stalls: self.stalls,
            private_accesses: self.private_accesses,
            shared_accesses: self.shared_accesses,
            memory_thread_instructions: self.memory_thread_instructions,
            l1: memory.l1_stats.clone(),
            l2: memory.l2_stats.clone(),
            dram: memory.dram_stats.clone(),
            dram_bytes_per_cycle: bytes_per_cycle,
            dram_bandwidth_used: bytes_per_cycle / m.dram_bytes_per_cycle(),
            divergence,
            ctas_per_core: self.ctas_per_core,
        }
    }
}

/// How a figure reads.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Count(u64),
    Number(f64),
    /// A fraction, shown as a percentage.
    Share(f64),
    Counts(Vec<u64>),
}

impl Value {
    /// The value as a number (a histogram has none).
    pub fn number(&self) -> Option<f64> {
        match *self {
            Value::Count(n) => Some(n as f64),
            Value::Number(x) | Value::Share(x) => Some(x),
            Value::Counts(_) => None,
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Value::Count(n) => write!(f, "{n}"),
            Value::Number(x) => write!(f, "{x:.3}"),
            Value::Share(x) => write!(f, "{:.1}%", 100.0 * x),
            Value::Counts(v) => {
                // Non-zero entries as `index:count`.
                let entries: Vec<String> = v
                    .iter()
                    .enumerate()
                    .filter(|(_, &n)| n > 0)
                    .map(|(k, n)| format!("{k}:{n}"))
                    .collect();
                write!(f, "{}", entries.join(" "))
            }
        }
    }
}

/// One figure of a run, as every printer names and shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// Its name in machine-readable output: the field's path in [`Stats`] joined by `_`
    /// (`l1_loads`, `stalls_barrier`), a derived figure's (`l1_miss_rate`,
    /// `dram_mean_latency`), or a divergence policy's, prefixed with the policy's name
    /// (`lwm_jump_opt_threads`).
    pub key: &'static str,
    /// What it is, in words.
    pub label: &'static str,
    pub value: Value,
}

/// A run's figures, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Figures(pub Vec<Figure>);

impl Figures {
    pub fn add(&mut self, key: &'static str, label: &'static str, value: Value) {
        self.0.push(Figure { key, label, value });
    }
    pub fn add_count(&mut self, key: &'static str, label: &'static str, n: u64) {
        self.add(key, label, Value::Count(n));
    }

    /// The figure `key`.
    pub fn get(&self, key: &str) -> Result<&Value, String> {
        self.0
            .iter()
            .find(|f| f.key == key)
            .map(|f| &f.value)
            .ok_or_else(|| format!("no statistic `{key}`"))
    }

    /// The count `key`.
    pub fn count(&self, key: &str) -> Result<u64, String> {
        match self.get(key)? {
            Value::Count(n) => Ok(*n),
            v => Err(format!("`{key}` is {v:?}, not a count")),
        }
    }

    /// The number `key` (a count, number or share).
    pub fn number(&self, key: &str) -> Result<f64, String> {
        let v = self.get(key)?;
        v.number()
            .ok_or_else(|| format!("`{key}` is {v:?}, not a number"))
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b > 0 {
        a as f64 / b as f64
    } else {
        0.0
    }
}

/// A cache level's figures, keys and labels prefixed with its name.
macro_rules! cache {
    ($f:expr, $c:expr, $key:literal, $name:literal) => {
        let c = &$c;
        $f.add_count(
            concat!($key, "_loads"),
            concat!($name, " loads (lookups)"),
            c.loads,
        );
        $f.add_count(concat!($key, "_hits"), concat!($name, " hits"), c.hits);
        $f.add_count(
            concat!($key, "_misses"),
            concat!($name, " misses"),
            c.misses,
        );
        $f.add_count(
            concat!($key, "_merged"),
            concat!($name, " misses merged into an MSHR"),
            c.merged,
        );
        $f.add_count(
            concat!($key, "_mshr_full"),
            concat!($name, " lookups replayed for want of an MSHR"),
            c.mshr_full,
        );
        $f.add_count(
            concat!($key, "_stores"),
            concat!($name, " stores"),
            c.stores,
        );
        $f.add(
            concat!($key, "_miss_rate"),
            concat!($name, " miss rate"),
            Value::Share(ratio(c.misses, c.loads)),
        );
    };
}

impl Stats {
    /// Every figure of the run: the one projection that `weft run`, `weft workloads`
    /// and the studies print from.
    pub fn figures(&self) -> Figures {
        let mut f = Figures::default();
        f.add_count("cycles", "cycles", self.cycles);
        f.add_count(
            "thread_instructions",
            "thread instructions",
            self.thread_instructions,
        );
        f.add_count(
            "warp_instructions",
            "warp instructions (into the SIMD lanes)",
            self.warp_instructions,
        );
        f.add(
            "ipc",
            "IPC (thread instructions per cycle)",
            Value::Number(self.ipc),
        );
        f.add(
            "simd_utilisation",
            "SIMD utilisation",
            Value::Share(self.simd_utilisation),
        );
        f.add(
            "active_threads_per_warp",
            "active threads per warp instruction",
            Value::Number(self.active_threads_per_warp),
        );
        f.add(
            "active_lanes_histogram",
            "active lanes (lanes:cycles)",
            Value::Counts(self.active_lanes_histogram.clone()),
        );
        f.add_count("idle_cycles", "idle cycles", self.idle_cycles);
        f.add(
            "idle_fraction",
            "idle cycles' share",
            Value::Share(self.idle_fraction),
        );
        let st = &self.stalls;
        f.add_count(
            "stalls_memory_serialization",
            "idle: memory serialization",
            st.memory_serialization,
        );
        f.add_count(
            "stalls_sfu",
            "idle: the unpipelined SFU between passes",
            st.sfu,
        );
        f.add_count("stalls_memory", "idle: waiting for memory", st.memory);
        f.add_count("stalls_barrier", "idle: waiting at a barrier", st.barrier);
        f.add_count(
            "stalls_compaction",
            "idle: waiting for the CTA's stack",
            st.compaction,
        );
        f.add_count(
            "stalls_pipeline",
            "idle: every warp in the pipeline",
            st.pipeline,
        );
        f.add_count("stalls_empty", "idle: no warp on the core", st.empty);
        f.add_count(
            "stalls_drain",
            "idle: the core's CTAs done, not the kernel's (tail)",
            st.drain,
        );
        f.add_count(
            "private_accesses",
            "private accesses",
            self.private_accesses,
        );
        f.add_count(
            "shared_accesses",
            "CTA-shared accesses",
            self.shared_accesses,
        );
        f.add_count(
            "memory_thread_instructions",
            "loads and stores (thread instructions)",
            self.memory_thread_instructions,
        );
        f.add_count(
            "register_reads",
            "register-file reads (warp-wide)",
            self.register_reads,
        );
        f.add_count(
            "register_writes",
            "register-file writes (warp-wide)",
            self.register_writes,
        );
        let op = &self.operations;
        f.add_count("operations_alu", "thread operations: integer ALU", op.alu);
        f.add_count(
            "operations_mul",
            "thread operations: integer multiply",
            op.mul,
        );
        f.add_count("operations_fpu", "thread operations: FPU", op.fpu);
        f.add_count(
            "operations_sfu",
            "thread operations: SFU (divide, square root)",
            op.sfu,
        );
        f.add_count(
            "operations_memory",
            "thread operations: loads and stores",
            op.memory,
        );
        cache!(f, self.l1, "l1", "L1");
        cache!(f, self.l2, "l2", "L2");
        let d = &self.dram;
        f.add_count("dram_reads", "DRAM reads", d.reads);
        f.add_count("dram_writes", "DRAM writes", d.writes);
        f.add_count("dram_row_hits", "DRAM row hits", d.row_hits);
        f.add_count("dram_row_conflicts", "DRAM row conflicts", d.row_conflicts);
        f.add_count("dram_bytes", "DRAM bytes", d.bytes);
        f.add_count(
            "dram_latency_cycles",
            "DRAM latency, summed (cycles)",
            d.latency_cycles,
        );
        f.add(
            "dram_mean_latency",
            "DRAM mean latency (cycles)",
            Value::Number(ratio(d.latency_cycles, d.reads + d.writes)),
        );
        f.add(
            "dram_bytes_per_cycle",
            "DRAM bytes per cycle",
            Value::Number(self.dram_bytes_per_cycle),
        );
        f.add(
            "dram_bandwidth_used",
            "DRAM bandwidth used (of the limit)",
            Value::Share(self.dram_bandwidth_used),
        );
        f.add_count(
            "ctas_per_core",
            "CTAs per core at most (occupancy)",
            u64::from(self.ctas_per_core),
        );
        self.divergence.figures(&mut f);
        f
    }
}

#[cfg(test)]
mod tests {
    use crate::core::asm::*;
    use crate::core::functional::{Launch, Program};
    use crate::core::machine::Machine;
    use crate::core::simt::{run, Options};

    /// `mul rd, rs1, rs2` and `div rd, rs1, rs2` (R-type, funct7 1).
    fn m_type(f3: u32, rd: u32, rs1: u32, rs2: u32) -> u32 {
        (1 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | 0x33
    }

    #[test]
    fn register_file_accesses_and_operations_are_counted_per_warp_and_per_thread() {
        let words = [
            csrr(A0, TID),                             // alu: reads none (x0), writes a0
            addi(A1, A0, 1),                           // alu: 1 read, 1 write
            m_type(0, A2, A1, A1),                     // mul: 2 reads (a1 twice), 1 write
            m_type(4, A3, A2, A1),                     // div (sfu): 2 reads, 1 write
            andi(A4, A0, 1),                           // alu: 1 read, 1 write
            branch(1, A4, ZERO, CODE + 20, CODE + 28), // bne a4, x0: alu, 1 read
            addi(A3, A3, 5),                           // alu, even threads only: 1 read, 1 write
            slli(T0, A0, 2),                           // alu: 1 read, 1 write
            lui(A4, DATA >> 12),                       // alu: no read, 1 write
            add(T0, T0, A4),                           // alu: 2 reads, 1 write
            sw(A3, T0, 0),                             // memory: 2 reads
            ret(),                                     // alu (jalr x0, ra): 1 read
        ];
        let options = Options {
            max_cycles: u64::MAX,
            max_instructions: u64::MAX,
            progress: &mut |_, _, _, _| {},
            trace: None,
            two_level_always: false,
        };
        let launch = Launch::new(64, 64).unwrap();
        let run = run(
            Program::new(image(&words)),
            launch,
            &Machine::fermi(),
            options,
        )
        .unwrap();
        let s = run.stats;
        // By hand: two warps of 32 each issue the 12 instructions once (the skipped
        // add once for its 16 even threads).
        assert_eq!(s.warp_instructions, 2 * 12);
        assert_eq!(s.register_reads, 2 * 14);
        assert_eq!(s.register_writes, 2 * 9);
        // Per thread: 8 ALU instructions, the add on the 32 even threads, one of each
        // other class.
        let o = &s.operations;
        assert_eq!(
            (o.alu, o.mul, o.fpu, o.sfu, o.memory),
            (8 * 64 + 32, 64, 0, 64, 64)
        );
        assert_eq!(o.total(), s.thread_instructions);
        // Against the timing's own count of loads and stores.
        assert_eq!(o.memory, s.memory_thread_instructions);
        // The kernel ran: data[tid] = (tid+1)^2 / (tid+1), plus 5 for even threads.
        for tid in 0..64u32 {
            let at = (DATA - CODE + 4 * tid) as usize;
            let got = u32::from_le_bytes(run.image.bytes[at..at + 4].try_into().unwrap());
            assert_eq!(
                got,
                tid + 1 + if tid % 2 == 0 { 5 } else { 0 },
                "data[{tid}]"
            );
        }
    }
}
