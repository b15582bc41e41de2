//! The paper-scale VGIW engine (VGIW paper §2-3, Table 1): the lowered kernel's blocks
//! on a fabric of units by class, timed event by event (an event-level model: a node's
//! operation is an event at the cycle its operands are in; cycles in between are not
//! visited). The functional half is the lowered program's interpreter
//! ([`interpret::run_observed`]): it runs each block for its whole vector and hands the
//! threads and their memory accesses to this file, which times that block execution.
//! Timing never changes what the threads compute.
//!
//! The rules:
//! - **Scheduling** (the golden `bbs` and `cvt`'s rules, at any block count): the
//!   interpreter's order, which is the basic block scheduler's: the lowest block ID whose
//!   thread vector is not empty runs next, for the whole vector; threads that reach a
//!   block while it runs wait for its next turn. A block execution starts when the
//!   previous one has drained (the scheduler waits for the fabric to empty before it
//!   reconfigures). The control vector table holds a tile of threads (whole CTAs, at
//!   least one); tiles run one after the other. The tile is `vgiw_tile` threads, or
//!   with `vgiw_tile = 0` the paper's rule (§3.2): the table's bits over the kernel's
//!   blocks, `vgiw_cvt_bits / blocks`.
//! - **Reconfiguration**: `vgiw_reconfig` cycles before a block runs, unless the fabric
//!   already holds it (a loop of one block runs again without reconfiguring). Each
//!   iteration of such a loop is still a vector of its own that drains before the next
//!   (the RTL's scheduler streams returning threads into the running block instead).
//! - **Replicas**: a block needs per replica one FPU-ALU unit per ALU, multiply, FPU and
//!   branch-compare node, one special compute unit per divide, remainder, float divide
//!   and square root, one load/store unit per load and store, one split/join unit per
//!   memory access with memory-order edges (the join that orders it), one live value
//!   unit per live-value read and write, and two control vector units (initiator and
//!   terminator). Constants, jumps and the thread coordinates `tid`, `ntid` and
//!   `cta_size` are immediates (no unit); `ctaid` takes an FPU-ALU unit. The block is
//!   replicated as often as every class allows. A block larger than a class runs as
//!   ⌈need / units⌉ configurations in turn (the largest over its classes), one replica,
//!   a reconfiguration each; a thread enters once per configuration, so one thread per
//!   that many cycles (the live values passed between the parts are not counted).
//! - **Streaming**: each replica's initiator injects one thread per cycle (threads in
//!   ascending order, dealt to the replicas in turn); a replica holds at most
//!   `vgiw_replica_threads` threads (its token buffers' virtual channels), a thread from
//!   injection to its end.
//! - **Nodes**: a node starts when its operands and order predecessors are done; an
//!   FPU-ALU node takes `vgiw_alu_latency` cycles, a special one `vgiw_special_latency`
//!   (pipelined), an immediate none. A live-value read takes `lvc_latency` cycles in the
//!   live value cache, `l2_latency` more on a miss. A load or store of private (stack) or
//!   CTA-shared memory takes `private_latency` or `shared_latency`; of device memory it
//!   is one L1 access per thread (no coalescing) to bank `(addr / 4) % l1_banks` (one
//!   access per bank per cycle: a conflict waits), then the SIMT core's
//!   [`MemorySystem`]: a load as the SIMT core's, a store written back with allocation
//!   ([`MemorySystem::store_allocate`]); a store is done when its line is in
//!   (`vgiw_store_done = fill`) or the cycle after the L1 takes it (`accept`: the
//!   reservation buffer, §3.5; the fill still comes in). A refused access (no MSHR) is
//!   replayed when a line arrives. With `vgiw_launch_constants` a load of a launch value
//!   (the lowering's mark) is an immediate. Memory-order edges are the lowering's
//!   (`vgiw_alias`), none timed with `none`; every access is checked against the data
//!   objects the lowering claims for it. A thread ends when its last node is done,
//!   one cycle later if it writes live values (the write's hop).
//! - **Live value cache**: `lvc_kb` KiB, 4-way LRU, 128-byte lines holding one live
//!   value of 32 consecutive threads. A write allocates without fetching; an evicted
//!   line is a spill to the L2 (counted, not timed). Reads and writes are counted per
//!   thread, the figure the paper compares with register-file accesses.
//! - **End**: after the last block the L1's dirty lines are written back and the run
//!   ends when the memory system is idle (as the SIMT run ends after its writes).
//!
//! Not modelled: the interconnect's routing and hop counts (every block is taken to
//! place and route), token-buffer depth beyond the virtual-channel count, the CVT's bank
//! conflicts and the scheduler's own cycles between blocks, the LVC's banks, special
//! units' non-pipelined operation, the live-value traffic of a block split into
//! configurations, L1 write-back traffic's timing in the L2 beyond the DRAM queue.
use super::graph::{Block, Coordinate, NodeKind, Program};
use super::interpret::{self, Place, VectorRun};
use super::lower;
use crate::core::functional::{self, Launch};
use crate::core::image::Image;
use crate::core::isa::Unit;
use crate::core::machine::{Machine, Timing, VgiwAlias, VgiwStoreDone};
use crate::core::memory::{Cache, CacheStats, DramStats, MemorySystem, Probe};
use crate::core::simt::stats::Operations;
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::time::Instant;

/// The unit classes of Table 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Alu,
    Special,
    LiveValue,
    LoadStore,
    SplitJoin,
    Cvu,
}

impl Class {
    pub const ALL: [Class; 6] = [
        Class::Alu,
        Class::Special,
        Class::LiveValue,
        Class::LoadStore,
        Class::SplitJoin,
        Class::Cvu,
    ];

    /// The machine key giving the class's unit count.
    pub fn key(self) -> &'static str {
        match self {
            Class::Alu => "vgiw_alu_units",
            Class::Special => "vgiw_special_units",
            Class::LiveValue => "vgiw_lv_units",
            Class::LoadStore => "vgiw_ldst_units",
            Class::SplitJoin => "vgiw_split_join_units",
            Class::Cvu => "vgiw_cvus",
        }
    }

    /// The machine's units of the class.
    pub fn units(self, m: &Machine) -> u32 {
        match self {
            Class::Alu => m.vgiw_engine().alu_units,
            Class::Special => m.vgiw_engine().special_units,
            Class::LiveValue => m.vgiw_engine().lv_units,
            Class::LoadStore => m.vgiw_engine().ldst_units,
            Class::SplitJoin => m.vgiw_engine().split_join_units,
            Class::Cvu => m.vgiw_engine().cvus,
        }
    }
}

/// Per class of unit, in [`Class::ALL`] order, named for the JSON.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct PerClass<T> {
    pub alu: T,
    pub special: T,
    pub live_value: T,
    pub load_store: T,
    pub split_join: T,
    pub cvu: T,
}

impl<T: Copy> PerClass<T> {
    fn from_fn(f: impl Fn(Class) -> T) -> PerClass<T> {
        PerClass {
            alu: f(Class::Alu),
            special: f(Class::Special),
            live_value: f(Class::LiveValue),
            load_store: f(Class::LoadStore),
            split_join: f(Class::SplitJoin),
            cvu: f(Class::Cvu),
        }
    }
}

/// A node's class on the fabric, `None` for an immediate (no unit, no time).
pub fn class_of(block: &Block, node: usize) -> Option<Class> {
    let n = &block.nodes[node];
    match &n.kind {
        NodeKind::Const(_) => None,
        NodeKind::LiveIn(_) => Some(Class::LiveValue),
        NodeKind::Coordinate(Coordinate::Ctaid) => Some(Class::Alu),
        NodeKind::Coordinate(_) => None,
        NodeKind::Inst { inst, .. } => match inst.unit() {
            Unit::Memory => Some(Class::LoadStore),
            Unit::Sfu => Some(Class::Special),
            Unit::Control if inst.is_jump() => None,
            _ => Some(Class::Alu),
        },
    }
}

/// A node's class on machine `m`: [`class_of`], except that a load of a launch value is
/// an immediate (a constant of the block's configuration) with `vgiw_launch_constants`.
pub fn class_on(block: &Block, node: usize, m: &Machine) -> Option<Class> {
    if m.vgiw_engine().launch_constants && block.nodes[node].launch_constant {
        return None;
    }
    class_of(block, node)
}

/// Node `node`'s memory-order edges as machine `m` times them: none with `vgiw_alias =
/// none` (the interpreter keeps the `base` rule's, so results stay right).
fn order_edges<'b>(block: &'b Block, node: usize, m: &Machine) -> &'b [usize] {
    match m.vgiw_engine().alias {
        VgiwAlias::None => &[],
        _ => &block.nodes[node].after,
    }
}

/// The waiter of a store done when the L1 accepted it: its fill completes nobody.
const ACCEPTED_STORE: u32 = u32::MAX;

/// How a block sits on the fabric.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Units one replica takes, by [`Class::ALL`] index.
    pub units: [u32; 6],
    pub replicas: u32,
    /// Configurations the block runs as (1 unless a class has too few units).
    pub configurations: u32,
}

impl Shape {
    /// Block `block`'s shape on machine `m`.
    pub fn new(block: &Block, m: &Machine) -> Shape {
        let mut units = [0u32; 6];
        for i in 0..block.nodes.len() {
            if let Some(c) = class_on(block, i, m) {
                units[c as usize] += 1;
            }
            if !order_edges(block, i, m).is_empty() {
                units[Class::SplitJoin as usize] += 1;
            }
        }
        units[Class::LiveValue as usize] += block.writes.len() as u32;
        units[Class::Cvu as usize] = 2;
        let mut replicas = u32::MAX;
        let mut configurations = 1;
        let mut missing = false;
        for c in Class::ALL {
            let (need, have) = (units[c as usize], c.units(m));
            if let Some(r) = have.checked_div(need) {
                replicas = replicas.min(r);
                missing |= have == 0;
                configurations = configurations.max(need.div_ceil(have.max(1)));
            }
        }
        // Too few units of a class: the block runs in parts, one replica (none at all
        // without a unit of a class it needs: `replicas` 0, refused when it runs).
        if configurations > 1 {
            replicas = u32::from(!missing);
        }
        Shape {
            units,
            replicas,
            configurations,
        }
    }
}

/// What a VGIW run counted.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Stats {
    pub cycles: u64,
    /// Operations executed (instructions and coordinate reads, per thread: the lowered
    /// nodes' work; constants and live-value reads not counted).
    pub thread_instructions: u64,
    /// Thread instructions per cycle.
    pub ipc: f64,
    /// Block executions (thread vectors the scheduler sent).
    pub block_executions: u64,
    /// Blocks executed, summed over threads.
    pub thread_blocks: u64,
    pub tiles: u64,
    /// Threads per tile (`vgiw_tile` or the paper's rule), before whole CTAs.
    pub tile: u32,
    pub reconfigurations: u64,
    pub reconfiguration_cycles: u64,
    /// The most replicas a block execution had, and replicas summed over block
    /// executions (their mean is this over `block_executions`).
    pub max_replicas: u32,
    pub replica_sum: u64,
    /// Block executions that ran as more than one configuration.
    pub split_executions: u64,
    pub lvc_reads: u64,
    pub lvc_writes: u64,
    pub lvc_read_misses: u64,
    /// Lines evicted from the live value cache (spilled to the L2).
    pub lvc_spills: u64,
    /// L1 accesses that waited for their bank.
    pub l1_bank_conflicts: u64,
    /// L1 accesses refused for want of an MSHR, replayed.
    pub l1_replays: u64,
    /// Lines the L1 fetched because a store missed (write allocation: a store that found
    /// no MSHR already fetching its line).
    pub store_fetches: u64,
    pub private_accesses: u64,
    pub shared_accesses: u64,
    pub l1: CacheStats,
    pub l2: CacheStats,
    pub dram: DramStats,
    /// Operations per class of unit (per thread; two CVU operations per thread-block:
    /// its initiation and termination).
    pub unit_operations: PerClass<u64>,
    /// Thread operations by the instruction's unit class, as the SIMT core counts them
    /// ([`Operations`]), counted when a node fires: the FPU-ALU units' operations split
    /// into integer ALU (`ctaid` and the branch compare included), multiply and FPU;
    /// the special units' are `sfu`, the load/store units' `memory`.
    pub operations: Operations,
    /// Token-buffer writes: one per operand (or memory-order) token delivered to a node
    /// on a unit from a node on a unit, per thread; one per node on a unit none of whose
    /// inputs comes from a unit (the initiator's thread token triggers it: constants and
    /// `tid` are immediates in the configuration); one per live-value write (the value
    /// reaching its live value unit).
    pub token_writes: u64,
    /// Token-buffer reads: one per node firing on a unit (FPU-ALU, special, load/store,
    /// live value read) and per live-value write, per thread (its operands read at once).
    pub token_reads: u64,
    /// Interconnect switch hops: assumed one per token delivered (the engine does not
    /// place or route; the paper's folded hypercube gives one-cycle hops and every
    /// delivery takes at least one), so equal to `token_writes`.
    pub switch_hops: u64,
    /// Control vector table reads: one per thread-block, the thread's bit read and
    /// cleared when its initiator injects it.
    pub cvt_reads: u64,
    /// Control vector table writes: one per thread-block, the bit its terminator sets
    /// when the thread ends the block (for its next block, or its exit).
    pub cvt_writes: u64,
    /// Each class's operations over its units times the cycles.
    pub unit_utilisation: PerClass<f64>,
}

impl Stats {
    /// Every figure as (label, value) for the text report, in a fixed order.
    pub fn lines(&self) -> Vec<(&'static str, String)> {
        let u = &self.unit_utilisation;
        let pct = |x: f64| format!("{:.1}%", 100.0 * x);
        let mean_replicas = self.replica_sum as f64 / self.block_executions.max(1) as f64;
        vec![
            ("cycles", self.cycles.to_string()),
            ("thread instructions", self.thread_instructions.to_string()),
            (
                "IPC (thread instructions per cycle)",
                format!("{:.3}", self.ipc),
            ),
            ("block executions", self.block_executions.to_string()),
            ("thread-blocks", self.thread_blocks.to_string()),
            (
                "tiles (threads each)",
                format!("{} ({})", self.tiles, self.tile),
            ),
            (
                "reconfigurations (cycles)",
                format!(
                    "{} ({})",
                    self.reconfigurations, self.reconfiguration_cycles
                ),
            ),
            (
                "replicas per block execution (max)",
                format!("{mean_replicas:.2} ({})", self.max_replicas),
            ),
            ("block executions split", self.split_executions.to_string()),
            (
                "LVC reads / writes / read misses / spills",
                format!(
                    "{} / {} / {} / {}",
                    self.lvc_reads, self.lvc_writes, self.lvc_read_misses, self.lvc_spills
                ),
            ),
            (
                "private / shared accesses",
                format!("{} / {}", self.private_accesses, self.shared_accesses),
            ),
            (
                "L1 loads / stores / hits / misses",
                format!(
                    "{} / {} / {} / {}",
                    self.l1.loads, self.l1.stores, self.l1.hits, self.l1.misses
                ),
            ),
            (
                "L1 write-backs / bank conflicts / replays",
                format!(
                    "{} / {} / {}",
                    self.l1.writebacks, self.l1_bank_conflicts, self.l1_replays
                ),
            ),
            (
                "L2 loads / hits / stores",
                format!("{} / {} / {}", self.l2.loads, self.l2.hits, self.l2.stores),
            ),
            (
                "DRAM reads / writes / bytes",
                format!(
                    "{} / {} / {}",
                    self.dram.reads, self.dram.writes, self.dram.bytes
                ),
            ),
            (
                "utilisation ALU / SCU / LVU / LDST / SJU / CVU",
                format!(
                    "{} / {} / {} / {} / {} / {}",
                    pct(u.alu),
                    pct(u.special),
                    pct(u.live_value),
                    pct(u.load_store),
                    pct(u.split_join),
                    pct(u.cvu)
                ),
            ),
        ]
    }
}

/// Threads per tile on machine `m` for a kernel of `blocks` basic blocks: `vgiw_tile`,
/// or with 0 the VGIW paper's §3.2 rule, the control vector table's bits over the
/// blocks (at least one thread; the launch rounds it to whole CTAs).
pub fn tile(m: &Machine, blocks: usize) -> u32 {
    if m.vgiw_engine().tile > 0 {
        return m.vgiw_engine().tile;
    }
    let blocks = u32::try_from(blocks.max(1)).unwrap_or(u32::MAX);
    (m.vgiw_engine().cvt_bits / blocks).max(1)
}

/// A timed VGIW run's result.
pub struct EngineRun {
    pub image: Image,
    pub stats: Stats,
    /// Host seconds of the run (after `weft_setup`).
    pub seconds: f64,
}

/// A block's structure for the timing: per node its class, latency (immediates and
/// fixed-latency nodes), operand-and-order users and how many it waits for.
struct Timed {
    shape: Shape,
    class: Vec<Option<Class>>,
    latency: Vec<u64>,
    users: Vec<Vec<usize>>,
    inputs: Vec<u32>,
    live_in: Vec<Option<u8>>,
    writes: Vec<u8>,
    operations: u64,
    /// Per node on a unit, none of whose inputs comes from a unit: the initiator's
    /// thread token triggers it.
    triggered: Vec<bool>,
    /// Per node, the unit class its operation counts in ([`Stats::operations`]).
    op_unit: Vec<Option<Unit>>,
}

impl Timed {
    fn new(block: &Block, m: &Machine) -> Timed {
        let n = block.nodes.len();
        let class: Vec<Option<Class>> = (0..n).map(|i| class_on(block, i, m)).collect();
        let mut users = vec![vec![]; n];
        let mut inputs = vec![0; n];
        for (i, node) in block.nodes.iter().enumerate() {
            for &a in node.args.iter().chain(order_edges(block, i, m)) {
                users[a].push(i);
                inputs[i] += 1;
            }
        }
        let latency = class
            .iter()
            .map(|c| match c {
                Some(Class::Alu) => u64::from(m.vgiw_engine().alu_latency),
                Some(Class::Special) => u64::from(m.vgiw_engine().special_latency),
                _ => 0,
            })
            .collect();
        let triggered = block
            .nodes
            .iter()
            .zip(&class)
            .enumerate()
            .map(|(i, (node, c))| {
                c.is_some()
                    && node
                        .args
                        .iter()
                        .chain(order_edges(block, i, m))
                        .all(|&a| class[a].is_none())
            })
            .collect();
        let op_unit = block
            .nodes
            .iter()
            .zip(&class)
            .map(|(node, c)| match (&node.kind, c) {
                (_, None) => None,
                (NodeKind::Inst { inst, .. }, Some(_)) => Some(inst.unit()),
                (NodeKind::Coordinate(_), Some(_)) => Some(Unit::Alu),
                _ => None,
            })
            .collect();
        Timed {
            shape: Shape::new(block, m),
            class,
            latency,
            users,
            inputs,
            live_in: block
                .nodes
                .iter()
                .map(|node| match node.kind {
                    NodeKind::LiveIn(r) => Some(r),
                    _ => None,
                })
                .collect(),
            writes: block.writes.iter().map(|w| w.0).collect(),
            operations: block.nodes.iter().filter(|x| x.is_operation()).count() as u64,
            triggered,
            op_unit,
        }
    }
}

/// Events of a block execution, ordered by cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    /// A thread's memory access reaches its load/store unit (thread, node), or its L1
    /// bank (the bank reserved for this cycle: `true`).
    Access(usize, usize, bool),
    /// A thread has ended (thread).
    End(usize),
    /// A replica's initiator may inject a thread (thread).
    Inject(usize),
}

/// The engine's state across block executions.
struct Engine<'a> {
    m: &'a Machine,
    lowered: &'a Program,
    blocks: Vec<Timed>,
    memory: MemorySystem,
    lvc: Cache,
    /// When each L1 bank takes its next access.
    bank_free: Vec<u64>,
    configured: Option<usize>,
    /// Threads per tile (before rounding to whole CTAs).
    tile: u32,
    now: u64,
    stats: Stats,
    /// Per class, operations executed.
    ops: [u64; 6],
    work: Vec<(usize, u64)>,
    /// The flat per-thread, per-node buffers of [`Vector`], kept between block executions.
    buffers: (Vec<u64>, Vec<u32>),
}

/// One block execution's threads in flight.
struct Vector<'v> {
    run: &'v VectorRun,
    nodes: usize,
    /// Per thread and node, flat: when its inputs are in, and inputs not yet in.
    ready: Vec<u64>,
    waiting: Vec<u32>,
    /// Per thread: nodes not done, the last one's cycle.
    left: Vec<usize>,
    last: Vec<u64>,
    events: BinaryHeap<Reverse<(u64, Event)>>,
    /// Accesses refused for want of an MSHR, to replay: those that wait for their line's
    /// MSHR to take merges again (by line), and those that wait for any MSHR.
    replay_line: HashMap<u32, Vec<(usize, usize)>>,
    replay_any: VecDeque<(usize, usize)>,
    /// Misses the memory system has yet to deliver.
    outstanding: usize,
    /// Per replica, its last injection.
    injected: Vec<Option<u64>>,
    start: u64,
    end: u64,
}

impl Engine<'_> {
    /// Times one block execution, from `self.now`; `self.now` becomes its end.
    fn block(&mut self, run: &VectorRun) -> Result<(), String> {
        let b = run.block;
        let t = &self.blocks[b];
        let shape = t.shape.clone();
        if shape.replicas == 0 {
            let c = Class::ALL
                .into_iter()
                .find(|&c| shape.units[c as usize] > 0 && c.units(self.m) == 0)
                .unwrap_or(Class::Cvu);
            return Err(format!(
                "block {b} needs {} {} and the machine has none",
                shape.units[c as usize],
                c.key()
            ));
        }
        let threads = run.tids.len() as u64;
        let p = u64::from(shape.configurations);
        let reconfigurations = if self.configured == Some(b) && p == 1 {
            0
        } else {
            p
        };
        self.configured = Some(b);
        let reconfig = reconfigurations * u64::from(self.m.vgiw_engine().reconfig);
        self.stats.reconfigurations += reconfigurations;
        self.stats.reconfiguration_cycles += reconfig;
        self.stats.block_executions += 1;
        self.stats.thread_blocks += threads;
        self.stats.max_replicas = self.stats.max_replicas.max(shape.replicas);
        self.stats.replica_sum += u64::from(shape.replicas);
        self.stats.split_executions += u64::from(p > 1);
        self.stats.thread_instructions += t.operations * threads;
        for c in Class::ALL {
            self.ops[c as usize] += u64::from(shape.units[c as usize]) * threads;
        }
        let nodes = t.class.len();
        let n = run.tids.len();
        let start = self.now + reconfig;
        // Per-thread slices are set when the thread enters: the buffers are reused.
        let (mut ready, mut waiting) = std::mem::take(&mut self.buffers);
        if ready.len() < n * nodes {
            ready.resize(n * nodes, 0);
            waiting.resize(n * nodes, 0);
        }
        let mut v = Vector {
            run,
            nodes,
            ready,
            waiting,
            left: vec![nodes; n],
            last: vec![start; n],
            events: BinaryHeap::new(),
            replay_line: HashMap::new(),
            replay_any: VecDeque::new(),
            outstanding: 0,
            injected: vec![None; shape.replicas as usize],
            start,
            end: start,
        };
        let r = shape.replicas as usize;
        let in_flight = r * self.m.vgiw_engine().replica_threads as usize;
        for k in 0..n.min(in_flight) {
            v.events
                .push(Reverse((self.slot(&v, &shape, k), Event::Inject(k))));
        }
        let mut arrivals = vec![];
        loop {
            let next_event = v.events.peek().map(|Reverse((t, _))| *t);
            // Memory is advanced while this block waits on it: for its misses, or for an
            // MSHR (which an accepted store's fill may hold).
            let waits = v.outstanding > 0 || !v.replay_any.is_empty() || !v.replay_line.is_empty();
            let next_memory = waits.then(|| self.memory.next_event()).flatten();
            let Some(now) = next_event.into_iter().chain(next_memory).min() else {
                if v.outstanding == 0 && !v.replay_any.is_empty() {
                    // Nothing in flight holds an MSHR of this block: every waiter tries.
                    for (k, node) in v.replay_any.drain(..) {
                        v.events
                            .push(Reverse((self.now, Event::Access(k, node, false))));
                    }
                    continue;
                }
                if v.outstanding > 0 || !v.replay_any.is_empty() || !v.replay_line.is_empty() {
                    return Err(format!(
                        "block {b}: memory accesses wait with nothing in flight (an engine bug)"
                    ));
                }
                break;
            };
            let now = now.max(self.now);
            self.now = now;
            self.memory.advance(now, &mut arrivals);
            // One access waiting for an MSHR tries again per line delivered (in the
            // order they were refused), not all of them.
            let delivered = arrivals.len().min(v.replay_any.len());
            for (_, waiter, line, at) in arrivals.drain(..) {
                if waiter != ACCEPTED_STORE {
                    v.outstanding -= 1;
                    let (k, node) = (waiter as usize / nodes, waiter as usize % nodes);
                    self.done(&mut v, k, node, at.max(now));
                }
                for (k, node) in v.replay_line.remove(&line).unwrap_or_default() {
                    v.events.push(Reverse((now, Event::Access(k, node, false))));
                }
            }
            for (k, node) in v.replay_any.drain(..delivered) {
                v.events.push(Reverse((now, Event::Access(k, node, false))));
            }
            while let Some(&Reverse((t, e))) = v.events.peek() {
                if t > now {
                    break;
                }
                v.events.pop();
                match e {
                    Event::Inject(k) => {
                        let replica = k % r;
                        let earliest = v.injected[replica].map_or(0, |i| i + p);
                        if now < earliest {
                            v.events.push(Reverse((earliest, Event::Inject(k))));
                            continue;
                        }
                        v.injected[replica] = Some(now);
                        self.inject(&mut v, k, now);
                    }
                    Event::Access(k, node, reserved) => {
                        self.access(&mut v, k, node, now, reserved)?
                    }
                    Event::End(k) => {
                        // The terminator sets the thread's bit (a block without nodes
                        // too).
                        self.stats.cvt_writes += 1;
                        v.end = v.end.max(now);
                        let next = k + in_flight;
                        if next < n {
                            let at = self.slot(&v, &shape, next).max(now);
                            v.events.push(Reverse((at, Event::Inject(next))));
                        }
                    }
                }
            }
        }
        self.now = v.end.max(start);
        self.buffers = (v.ready, v.waiting);
        Ok(())
    }

    /// The earliest cycle thread `k` of the vector may enter: its replica injects one
    /// thread per cycle (per configuration pass).
    fn slot(&self, v: &Vector, shape: &Shape, k: usize) -> u64 {
        v.start + (k / shape.replicas as usize) as u64 * u64::from(shape.configurations)
    }

    /// Thread `k` enters the fabric at `now`.
    fn inject(&mut self, v: &mut Vector, k: usize, now: u64) {
        let t = &self.blocks[v.run.block];
        let base = k * v.nodes;
        for i in 0..v.nodes {
            v.ready[base + i] = now;
            v.waiting[base + i] = t.inputs[i];
        }
        v.last[k] = now;
        self.stats.cvt_reads += 1;
        if v.nodes == 0 {
            v.events.push(Reverse((now, Event::End(k))));
            return;
        }
        for i in 0..v.nodes {
            if self.blocks[v.run.block].inputs[i] == 0 {
                self.fire(v.run.block, i);
                self.start_node(v, k, i, now);
            }
        }
    }

    /// Node `node` of block `block` fires (its inputs are in) for one thread: the token
    /// buffer's read, the initiator's token when no input comes from a unit, and its
    /// operation.
    fn fire(&mut self, block: usize, node: usize) {
        let t = &self.blocks[block];
        if t.class[node].is_none() {
            return;
        }
        self.stats.token_reads += 1;
        if t.triggered[node] {
            self.stats.token_writes += 1;
            self.stats.switch_hops += 1;
        }
        if let Some(unit) = t.op_unit[node] {
            self.stats.operations.add(unit, 1);
        }
    }

    /// Node `i` of thread `k` has its inputs at `at`.
    fn start_node(&mut self, v: &mut Vector, k: usize, i: usize, at: u64) {
        let t = &self.blocks[v.run.block];
        match t.class[i] {
            Some(Class::LoadStore) => {
                v.events
                    .push(Reverse((at.max(self.now), Event::Access(k, i, false))));
            }
            Some(Class::LiveValue) => {
                let reg = t.live_in[i].expect("a live-value node reads one");
                let tid = v.run.tids[k];
                self.stats.lvc_reads += 1;
                let line = lvc_line(reg, tid, self.tile.div_ceil(32));
                let mut latency = u64::from(self.m.vgiw_engine().lvc_latency);
                if !self.lvc.touch(line) {
                    self.stats.lvc_read_misses += 1;
                    latency += u64::from(self.m.l2().cache.latency);
                    if self.lvc.fill(line).is_some() {
                        self.stats.lvc_spills += 1;
                    }
                }
                self.done(v, k, i, at + latency);
            }
            _ => {
                let latency = t.latency[i];
                self.done(v, k, i, at + latency);
            }
        }
    }

    /// Node `i` of thread `k` is done at `at`: its users may start.
    fn done(&mut self, v: &mut Vector, k: usize, i: usize, at: u64) {
        // Nodes done whose users may start (a buffer kept between calls).
        let mut work = std::mem::take(&mut self.work);
        work.push((i, at));
        while let Some((i, at)) = work.pop() {
            let base = k * v.nodes;
            v.left[k] -= 1;
            v.last[k] = v.last[k].max(at);
            let users = std::mem::take(&mut self.blocks[v.run.block].users[i]);
            for &u in &users {
                v.ready[base + u] = v.ready[base + u].max(at);
                v.waiting[base + u] -= 1;
                let t = &self.blocks[v.run.block];
                if t.class[i].is_some() && t.class[u].is_some() {
                    // A token from a unit to a unit: into the user's buffer, over a hop.
                    self.stats.token_writes += 1;
                    self.stats.switch_hops += 1;
                }
                if v.waiting[base + u] == 0 {
                    self.fire(v.run.block, u);
                    let ready = v.ready[base + u];
                    let t = &self.blocks[v.run.block];
                    match t.class[u] {
                        Some(Class::LoadStore) | Some(Class::LiveValue) => {
                            self.start_node(v, k, u, ready)
                        }
                        _ => work.push((u, ready + t.latency[u])),
                    }
                }
            }
            self.blocks[v.run.block].users[i] = users;
            if v.left[k] == 0 {
                self.end_thread(v, k);
            }
        }
        self.work = work;
    }

    /// Thread `k`'s last node is done: it writes its live values and leaves.
    fn end_thread(&mut self, v: &mut Vector, k: usize) {
        let t = &self.blocks[v.run.block];
        let tid = v.run.tids[k];
        let mut end = v.last[k];
        if !t.writes.is_empty() {
            end += 1;
            for w in 0..t.writes.len() {
                let reg = self.blocks[v.run.block].writes[w];
                self.stats.lvc_writes += 1;
                // The value reaches its live value unit, which fires.
                self.stats.token_writes += 1;
                self.stats.token_reads += 1;
                self.stats.switch_hops += 1;
                let line = lvc_line(reg, tid, self.tile.div_ceil(32));
                if !self.lvc.touch(line) && self.lvc.fill(line).is_some() {
                    self.stats.lvc_spills += 1;
                }
            }
        }
        v.events.push(Reverse((end.max(self.now), Event::End(k))));
    }

    /// Thread `k`'s memory node `i` reaches its load/store unit at `now`.
    fn access(
        &mut self,
        v: &mut Vector,
        k: usize,
        i: usize,
        now: u64,
        reserved: bool,
    ) -> Result<(), String> {
        let b = v.run.block;
        let a = *v.run.accesses[k]
            .iter()
            .find(|a| a.node == i)
            .ok_or_else(|| format!("block {b}: no access recorded for node {i}"))?;
        let claimed = &self.lowered.blocks[b].nodes[i].objects;
        if !claimed.is_empty() && !claimed.iter().any(|&(s, e)| (s..e).contains(&a.addr)) {
            return Err(format!(
                "block {b}: the access at {:#x} reached {:#x}, outside the data objects its address is anchored in ({}): the lowering's object rule does not hold for this kernel",
                pc_of(&self.lowered.blocks[b], i),
                a.addr,
                claimed
                    .iter()
                    .map(|(s, e)| format!("{s:#x}..{e:#x}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        match a.place {
            Place::Private => {
                self.stats.private_accesses += 1;
                self.done(v, k, i, now + u64::from(self.m.core().private_latency));
            }
            Place::Shared => {
                self.stats.shared_accesses += 1;
                self.done(v, k, i, now + u64::from(self.m.core().shared_latency));
            }
            Place::Global => {
                let bank = (a.addr / 4) as usize % self.bank_free.len();
                if !reserved {
                    // The bank's next free cycle is this access's.
                    let at = self.bank_free[bank].max(now);
                    self.bank_free[bank] = at + 1;
                    if at > now {
                        self.stats.l1_bank_conflicts += 1;
                        v.events.push(Reverse((at, Event::Access(k, i, true))));
                        return Ok(());
                    }
                }
                let line = self.memory.line_of(a.addr);
                let waiter = u32::try_from(k * v.nodes + i)
                    .ok()
                    .filter(|&w| w != ACCEPTED_STORE)
                    .ok_or_else(|| format!("block {b}: too many threads in a vector"))?;
                let accept = a.store && self.m.vgiw_engine().store_done == VgiwStoreDone::Accept;
                let probe = if a.store {
                    let waiter = if accept { ACCEPTED_STORE } else { waiter };
                    let merged = self.memory.l1_stats.merged;
                    let probe = self.memory.store_allocate(0, now, line, waiter);
                    if probe == Probe::Miss && self.memory.l1_stats.merged == merged {
                        self.stats.store_fetches += 1;
                    }
                    probe
                } else {
                    self.memory.load(0, now, line, waiter)
                };
                match probe {
                    // Accepted: the store's reservation buffer entry is free next cycle.
                    Probe::Hit { .. } | Probe::Miss if accept => self.done(v, k, i, now + 1),
                    Probe::Hit { at } => self.done(v, k, i, at),
                    Probe::Miss => v.outstanding += 1,
                    Probe::Full => {
                        self.stats.l1_replays += 1;
                        // With an MSHR free, the line's own MSHR is full of merges.
                        if self.memory.mshr_free(0) {
                            v.replay_line.entry(line).or_default().push((k, i));
                        } else {
                            v.replay_any.push_back((k, i));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// The address of node `i`'s instruction (0 for a node that is none).
fn pc_of(block: &Block, i: usize) -> u32 {
    match block.nodes[i].kind {
        NodeKind::Inst { pc, .. } => pc,
        _ => 0,
    }
}

/// The live value cache line of live value `reg` of thread `tid`: 32 threads' words.
/// Laid out as an array per live value over a tile's worth of threads
/// (`tile_groups` lines), so that a tile's live values spread over the sets.
fn lvc_line(reg: u8, tid: u32, tile_groups: u32) -> u32 {
    let group = tid / 32;
    // Wraps past 2^26 threads (lines then share tags: a cache, not an address map).
    (group / tile_groups)
        .wrapping_mul(64 * tile_groups)
        .wrapping_add(u32::from(reg) * tile_groups + group % tile_groups)
}

/// The kernel as the engine of `machine` runs it: lowered by the machine's alias rule
/// (with `vgiw_alias = none` the blocks keep the `base` rule's order for the interpreter;
/// the timing ignores every order edge).
pub fn lowered(program: &functional::Program, machine: &Machine) -> Result<Program, String> {
    let alias = match machine.vgiw_engine().alias {
        VgiwAlias::None => VgiwAlias::Base,
        a => a,
    };
    lower::lower_with(program, alias)
}

/// Runs `weft_setup` functionally, then the launch on the VGIW engine of `machine`
/// (which must have `timing = vgiw`); stops with an error past `limit` node evaluations.
/// A kernel the lowering refuses is refused with its message.
pub fn run(
    program: functional::Program,
    launch: Launch,
    machine: &Machine,
    limit: u64,
) -> Result<EngineRun, String> {
    if machine.timing() != Timing::Vgiw {
        return Err(format!(
            "the VGIW engine runs a machine with timing = vgiw (this one has timing = {})",
            machine.timing().name()
        ));
    }
    let lowered = lowered(&program, machine)?;
    let tile = tile(machine, lowered.blocks.len());
    let mut engine = Engine {
        m: machine,
        lowered: &lowered,
        blocks: lowered
            .blocks
            .iter()
            .map(|b| Timed::new(b, machine))
            .collect(),
        // One core: the fabric.
        memory: MemorySystem::new(machine, 1),
        lvc: Cache::new(machine.vgiw_engine().lvc_kb, 4, 128),
        bank_free: vec![0; machine.l1().banks as usize],
        configured: None,
        tile,
        now: 0,
        stats: Stats::default(),
        ops: [0; 6],
        work: vec![],
        buffers: (vec![], vec![]),
    };
    let started = Instant::now();
    let mut observe = |run: &VectorRun| -> Result<(), String> {
        // The entry block has no predecessor: it runs once per tile, first.
        engine.stats.tiles += u64::from(run.block == 0);
        engine.block(run)
    };
    let result =
        interpret::run_observed(&lowered, program, launch, tile, limit, Some(&mut observe))?;
    // The kernel's end: the fills of accepted stores in, dirty lines written back,
    // every transfer done.
    let mut now = engine.now;
    let drain = |memory: &mut MemorySystem, now: &mut u64| {
        while !memory.idle() {
            let t = memory
                .next_event()
                .expect("a memory system that is not idle has an event");
            *now = (*now).max(t);
            memory.advance(*now, &mut vec![]);
        }
    };
    engine.memory.flush(0, now);
    drain(&mut engine.memory, &mut now);
    // Lines an accepted store's fill dirtied after the first flush.
    engine.memory.flush(0, now);
    drain(&mut engine.memory, &mut now);
    let mut stats = engine.stats;
    stats.tile = tile;
    stats.cycles = now;
    stats.ipc = stats.thread_instructions as f64 / now.max(1) as f64;
    stats.l1 = engine.memory.l1_stats.clone();
    stats.l2 = engine.memory.l2_stats.clone();
    stats.dram = engine.memory.dram_stats.clone();
    let ops = engine.ops;
    stats.unit_operations = PerClass::from_fn(|c| ops[c as usize]);
    stats.unit_utilisation = PerClass::from_fn(|c| {
        ops[c as usize] as f64 / (f64::from(c.units(machine)) * now.max(1) as f64)
    });
    Ok(EngineRun {
        image: result.image,
        stats,
        seconds: started.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::asm::*;

    const LIMIT: u64 = 10_000_000;

    #[test]
    fn a_store_accepted_by_the_l1_frees_its_thread_before_its_line_arrives() {
        // 8 threads, one line each, one at a time (one replica, one thread in flight):
        // with `fill` each waits for its write-allocate fetch, with `accept` none does.
        let words = [
            csrr(A0, TID),
            slli(A0, A0, 7),
            lui(A1, 2),
            add(A0, A0, A1),
            sw(A1, A0, 0),
            ret(),
        ];
        let serial = ["vgiw_ldst_units=1", "vgiw_replica_threads=1"];
        let run = |done: &str| {
            let mut m = vgiw(&serial);
            m.set_all(&[format!("vgiw_store_done={done}")]).unwrap();
            time(&words, &m, 8, 8)
        };
        let (fill, accept) = (run("fill"), run("accept"));
        assert!(
            fill.cycles > 8 * u64::from(Machine::vgiw().keys().dram_row_hit),
            "{}",
            fill.cycles
        );
        assert!(
            accept.cycles * 3 < fill.cycles,
            "{} {}",
            accept.cycles,
            fill.cycles
        );
        // The lines still come in and go back: the same traffic.
        assert_eq!(fill.l1, accept.l1);
        assert_eq!(fill.dram.bytes, accept.dram.bytes);
    }

    #[test]
    fn a_launch_constant_is_no_l1_access_with_the_key() {
        // Every thread loads data + 0x10, which no store writes, and stores it at data.
        let words = [
            csrr(A0, TID),
            lui(A1, 2),
            lw(A2, A1, 0x10),
            sw(A2, A1, 0),
            ret(),
        ];
        let loads = |on: bool| {
            let key = format!("vgiw_launch_constants={on}");
            let m = vgiw(&[key.as_str()]);
            time(&words, &m, 64, 32).l1.loads
        };
        // Without it each thread's load is an L1 lookup (replays of merges included).
        assert!(loads(false) >= 64);
        assert_eq!(loads(true), 0);
    }

    #[test]
    fn an_access_outside_the_objects_its_address_is_anchored_in_is_refused() {
        // b + 4 tid - 8: thread 0 and 1 reach into a, which the lowering cannot see.
        let words = [
            csrr(A0, TID),
            slli(A0, A0, 2),
            addi(A0, A0, -8),
            lui(A1, 2),
            addi(A1, A1, 0x100),
            add(A0, A0, A1),
            sw(A1, A0, 0),
            ret(),
        ];
        let kernel = functional::Program::new(image_with_two_objects(&words));
        let launch = Launch::new(8, 8).unwrap();
        let err = run(kernel, launch, &Machine::vgiw(), LIMIT).err().unwrap();
        assert!(
            err.contains("reached 0x20f8, outside the data objects its address is anchored in (0x2100..0x2400)"),
            "{err}"
        );
    }

    /// The tile: `vgiw_tile` when set, else the control vector table's bits over the
    /// blocks (the paper's §3.2), never zero.
    #[test]
    fn the_tile_is_the_tables_bits_over_the_blocks_unless_set() {
        let m = vgiw(&["vgiw_cvt_bits=32768"]);
        assert_eq!(tile(&m, 1), 32768);
        assert_eq!(tile(&m, 3), 10922);
        assert_eq!(tile(&m, 32), 1024);
        assert_eq!(tile(&vgiw(&["vgiw_cvt_bits=4"]), 8), 1);
        assert_eq!(tile(&vgiw(&["vgiw_tile=256"]), 3), 256);
    }

    fn vgiw(set: &[&str]) -> Machine {
        let mut m = Machine::vgiw();
        m.set_all(set).unwrap();
        m
    }

    /// `words` on machine `m` over `threads` in CTAs of `cta`; the functional run's image
    /// must be the engine's.
    fn time(words: &[u32], m: &Machine, threads: u32, cta: u32) -> Stats {
        let kernel = || functional::Program::new(image(words));
        let launch = Launch::new(threads, cta).unwrap();
        let run = run(kernel(), launch, m, LIMIT).unwrap();
        let reference = functional::run(kernel(), launch, LIMIT).unwrap().image;
        assert_eq!(run.image.bytes, reference.bytes);
        run.stats
    }

    /// `tid`, then `n` adds that each read only `tid` (independent), then return.
    fn independent_adds(n: u32) -> Vec<u32> {
        let mut w = vec![csrr(A0, TID)];
        w.extend((0..n).map(|k| addi(11 + k % 16, A0, k as i32 + 1)));
        w.push(ret());
        w
    }

    #[test]
    fn a_straight_line_block_streams_its_threads_through_its_replicas() {
        let m = vgiw(&[]);
        let threads = 1024u64;
        for n in [4u32, 5, 8, 16, 40] {
            let words = independent_adds(n);
            let lowered = lower::lower(&functional::Program::new(image(&words))).unwrap();
            assert_eq!(lowered.blocks.len(), 1);
            let shape = Shape::new(&lowered.blocks[0], &m);
            assert_eq!(shape.units, [n, 0, 0, 0, 0, 2], "{n} adds");
            // The model's rule, by hand: 32 FPU-ALU units and 8 initiator/terminator
            // pairs; a block over 32 adds runs as two configurations, one replica, a
            // thread entering every second cycle.
            let (replicas, passes) = if n <= 32 {
                (u64::from((32 / n).min(8)), 1)
            } else {
                (1, u64::from(n.div_ceil(32)))
            };
            assert_eq!(
                (u64::from(shape.replicas), u64::from(shape.configurations)),
                (replicas, passes)
            );
            let s = time(&words, &m, threads as u32, 256);
            // The last thread enters at slot ceil(T / R) - 1 (per pass), then one add.
            let want = passes * 34 + (threads.div_ceil(replicas) - 1) * passes + 4;
            assert_eq!(s.cycles, want, "{n} adds on {replicas} replicas");
            assert_eq!(s.reconfigurations, passes);
            assert_eq!(s.thread_instructions, threads * (u64::from(n) + 1));
            assert_eq!(s.unit_operations.alu, threads * u64::from(n));
        }
    }

    #[test]
    fn fewer_virtual_channels_hold_threads_back() {
        // One replica of 40 adds with 2 threads in flight: a thread enters when the one
        // two before it has left (4 cycles after it entered), so two threads per 4 cycles.
        let m = vgiw(&["vgiw_replica_threads=2", "vgiw_alu_units=40"]);
        let s = time(&independent_adds(40), &m, 64, 64);
        assert_eq!(s.cycles, 34 + (64 / 2 - 1) * 4 + 1 + 4);
    }

    #[test]
    fn a_kernel_of_two_blocks_pays_two_reconfigurations() {
        // Block 0 computes tid + 1 and writes it as a live value; the barrier ends it;
        // block 1 reads it and adds 2.
        let words = [
            csrr(A0, TID),
            addi(A1, A0, 1),
            barrier(),
            addi(A2, A1, 2),
            ret(),
        ];
        let lowered = lower::lower(&functional::Program::new(image(&words))).unwrap();
        assert_eq!(lowered.blocks.len(), 2);
        let threads = 256u64;
        let s = time(&words, &vgiw(&[]), threads as u32, threads as u32);
        assert_eq!((s.reconfigurations, s.reconfiguration_cycles), (2, 68));
        assert_eq!(
            (s.lvc_writes, s.lvc_reads, s.lvc_read_misses),
            (256, 256, 0)
        );
        // Each block takes one FPU-ALU and one live value unit: 8 replicas (the CVUs'
        // limit). Block 0: an add and the live value's write hop; block 1: a live value
        // cache hit (the lines block 0 wrote) and an add.
        let slots = threads / 8 - 1;
        assert_eq!(s.cycles, (34 + slots + 4 + 1) + (34 + slots + 4 + 4));
    }

    /// The energy model's events against the classes' operation counts (counted per
    /// block execution, not per firing) and the thread-blocks.
    fn assert_event_identities(s: &Stats) {
        let u = &s.unit_operations;
        let o = &s.operations;
        assert_eq!(o.alu + o.mul + o.fpu, u.alu, "FPU-ALU operations");
        assert_eq!(o.sfu, u.special, "special operations");
        assert_eq!(o.memory, u.load_store, "load/store operations");
        // Every node on a unit fires once per thread, and every live-value write.
        assert_eq!(
            s.token_reads,
            u.alu + u.special + u.live_value + u.load_store
        );
        assert_eq!(s.lvc_reads + s.lvc_writes, u.live_value);
        assert_eq!(
            (s.cvt_reads, s.cvt_writes),
            (s.thread_blocks, s.thread_blocks)
        );
        assert_eq!(s.switch_hops, s.token_writes);
        assert!(s.token_writes >= s.token_reads, "a firing has a token");
    }

    #[test]
    fn tokens_hops_and_control_vector_bits_are_counted_per_thread() {
        // The two-block kernel: block 0 is `tid + 1` (the add triggered by the
        // initiator, `tid` an immediate) written as a live value; block 1 reads it
        // (triggered) and adds 2 (its operand from the live value unit).
        let words = [
            csrr(A0, TID),
            addi(A1, A0, 1),
            barrier(),
            addi(A2, A1, 2),
            ret(),
        ];
        let threads = 256u64;
        let s = time(&words, &vgiw(&[]), threads as u32, threads as u32);
        // Per thread, by hand: block 0 two firings (the add, the live-value write) and
        // two tokens (the trigger, the value to its unit); block 1 two firings (the
        // live-value read, the add) and two tokens (the trigger, the value to the add).
        assert_eq!(s.token_reads, 4 * threads);
        assert_eq!(s.token_writes, 4 * threads);
        assert_eq!(s.switch_hops, 4 * threads);
        assert_eq!((s.cvt_reads, s.cvt_writes), (2 * threads, 2 * threads));
        assert_eq!(s.operations.alu, 2 * threads);
        assert_event_identities(&s);
    }

    #[test]
    fn operand_tokens_come_from_units_only_and_memory_order_edges_carry_one() {
        // tid*4 + data: the shift triggered, the add's operand from the shift (the data
        // address is an immediate); a load, then a store to the same word ordered after
        // it (a memory-order token besides its address and data operands).
        let words = [
            csrr(A0, TID),
            slli(T0, A0, 2),
            lui(A4, DATA >> 12),
            add(T0, T0, A4),
            lw(A1, T0, 0),
            addi(A1, A1, 3),
            sw(A1, T0, 0),
            ret(),
        ];
        let threads = 64u64;
        let s = time(&words, &vgiw(&[]), threads as u32, threads as u32);
        let lowered = lower::lower(&functional::Program::new(image(&words))).unwrap();
        let block = &lowered.blocks[0];
        // Hand count from the graph: each operand or order edge between nodes on
        // units, plus one trigger per node on a unit with no such input.
        let class: Vec<_> = (0..block.nodes.len()).map(|i| class_of(block, i)).collect();
        let mut edges = 0;
        let mut triggers = 0;
        let mut fired = 0;
        for (i, n) in block.nodes.iter().enumerate() {
            if class[i].is_none() {
                continue;
            }
            fired += 1;
            let from_units = n
                .args
                .iter()
                .chain(&n.after)
                .filter(|&&a| class[a].is_some())
                .count();
            edges += from_units;
            triggers += usize::from(from_units == 0);
        }
        // slli (trigger), add (from slli), lw (from add), addi (from lw), sw (address
        // from add, data from addi, order from lw).
        assert_eq!((fired, edges, triggers), (5, 6, 1));
        assert_eq!(s.token_reads, threads * fired as u64);
        assert_eq!(s.token_writes, threads * (edges + triggers) as u64);
        assert_eq!(s.operations.memory, 2 * threads);
        assert_eq!(s.operations.alu, 3 * threads);
        assert_event_identities(&s);
    }

    #[test]
    fn every_thread_block_clears_and_sets_its_control_vector_bit_even_in_an_empty_block() {
        // Odd threads branch straight to the return, a block with no node.
        let words = [
            csrr(A0, TID),
            andi(A1, A0, 1),
            branch(1, A1, ZERO, CODE + 8, CODE + 16),
            addi(A2, A0, 1),
            ret(),
        ];
        let lowered = lower::lower(&functional::Program::new(image(&words))).unwrap();
        assert!(
            lowered.blocks.iter().any(|b| b.nodes.is_empty()),
            "{lowered:?}"
        );
        let s = time(&words, &vgiw(&[]), 64, 64);
        assert_event_identities(&s);
    }

    #[test]
    fn a_machine_without_a_unit_class_is_refused() {
        for (set, says) in [
            ("vgiw_alu_units=0", "vgiw_alu_units = 0: must be at least 1"),
            ("vgiw_cvus=1", "initiator and terminator"),
            ("timing=dataflow", "timing = dataflow"),
        ] {
            let err = Machine::vgiw().set_all(&[set]).unwrap_err();
            assert!(err.contains(says), "{set}: {err}");
        }
        let kernel = functional::Program::new(image(&independent_adds(1)));
        let launch = Launch::new(1, 1).unwrap();
        let err = run(kernel, launch, &Machine::fermi(), LIMIT).err().unwrap();
        assert!(err.contains("timing = vgiw"), "{err}");
    }
}
