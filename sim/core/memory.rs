//! The memory hierarchy behind the cores' memory stage: per core an L1 data cache with
//! MSHRs, an optional shared L2, and a shared DRAM of banks with open rows and one data
//! bus of limited bandwidth (LWM Table 1; GPGPU-Sim's structure, not its detail).
//!
//! The core hands over one line at a time (its coalescer serves one distinct line per
//! cycle), each at the cycle of its lookup, in time order per core:
//! - a load that hits returns its data `l1_latency` cycles after the lookup;
//! - a load that misses takes an MSHR (or merges into the one already fetching its line,
//!   up to `l1_mshr_merge` requests) and goes to the L2 or DRAM; when the line arrives it
//!   fills the L1 (LRU) and every merged request completes;
//! - a load that finds every MSHR taken (or its MSHR full of merges) is refused: the
//!   core replays it when an MSHR frees;
//! - stores write through the L1 without allocating (a line present is updated); the
//!   storing warp does not wait for them. Below the L1 a write goes through the L2 to
//!   DRAM, or with `l2_write_allocate` the L2 is write-back with write allocation (a
//!   write hit dirties the line; a write miss goes on to DRAM and reads as many bytes to allocate the line; a
//!   dirty line goes to DRAM when evicted; the L2 is not flushed at the kernel's end, as
//!   GPGPU-Sim's `-gpgpu_flush_l2_cache 0`). A write moves the 32-byte bursts its bytes
//!   fill, a read the whole line.
//!
//! DRAM: `dram_channels` channels, each with its banks and its own data bus; consecutive
//! 256-byte blocks go to consecutive channels (one channel: every address is its own).
//! Inside its channel, a line at channel address `a` lives in bank `(a / row_bytes) %
//! banks` (the channel's banks), row `a / (row_bytes * banks)`. Each bank serves its queue
//! in order (FCFS) or row hits first (FR-FCFS). A request that finds its row open
//! completes `dram_row_hit` cycles after it starts; one that must close and open a row,
//! `dram_row_conflict`. The bank is busy for the line's transfer, plus the row switch
//! (`dram_row_conflict - dram_row_hit`) on a conflict; a channel's bus moves
//! `dram_gbps / clock_mhz / channels` bytes per cycle, so its completions are spaced at
//! least a line's transfer time apart. With `dram_queue` set, a channel holds that many
//! requests in its banks' queues; the rest wait in arrival order (a read in its MSHR) and
//! enter as requests are served.
use crate::core::machine::{DramScheduler, Machine};
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};

/// The DRAM burst: the smallest transfer.
pub const BURST: u32 = 32;

/// What a load lookup found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// In the L1: the data is there at this cycle.
    Hit { at: u64 },
    /// Missed: the waiter hears of it through [`MemorySystem::advance`].
    Miss,
    /// No MSHR could take it: replay later.
    Full,
}

/// A set-associative cache with LRU replacement (tags only).
#[derive(Clone, Debug)]
pub(crate) struct Cache {
    sets: usize,
    ways: usize,
    /// Per set, line numbers most recently used first.
    lines: Vec<Vec<u32>>,
}

impl Cache {
    pub(crate) fn new(kb: u32, ways: u32, line: u32) -> Cache {
        let sets = (kb as usize * 1024 / line as usize) / ways as usize;
        Cache {
            sets,
            ways: ways as usize,
            lines: vec![Vec::with_capacity(ways as usize); sets],
        }
    }

    /// Looks `line` up; a hit makes it the most recently used.
    pub(crate) fn touch(&mut self, line: u32) -> bool {
        let set = &mut self.lines[line as usize % self.sets];
        match set.iter().position(|&l| l == line) {
            Some(i) => {
                set[..=i].rotate_right(1);
                true
            }
            None => false,
        }
    }

    /// Fills `line`, evicting the least recently used line of its set: the evicted line.
    pub(crate) fn fill(&mut self, line: u32) -> Option<u32> {
        if self.touch(line) {
            return None;
        }
        let set = &mut self.lines[line as usize % self.sets];
        let evicted = if set.len() == self.ways {
            set.pop()
        } else {
            None
        };
        set.insert(0, line);
        evicted
    }
}

/// Counters of one cache level.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct CacheStats {
    /// Load lookups (one per distinct line per instruction, replays included).
    pub loads: u64,
    pub hits: u64,
    pub misses: u64,
    /// Misses merged into an MSHR already fetching the line (L1 only).
    pub merged: u64,
    /// Lookups refused because no MSHR could take them, replayed later (L1 only).
    pub mshr_full: u64,
    /// Stores (written through; with a write-back L1, stores looked up).
    pub stores: u64,
    /// Dirty lines written back (a write-back L1 only: evictions and the final flush).
    pub writebacks: u64,
}

/// DRAM counters.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct DramStats {
    pub reads: u64,
    pub writes: u64,
    pub row_hits: u64,
    pub row_conflicts: u64,
    pub bytes: u64,
    /// Bytes read, and of them those a write-allocating L2 fetched after a write miss.
    pub read_bytes: u64,
    pub allocate_bytes: u64,
    /// Sum over requests of the cycles from arrival to completion.
    pub latency_cycles: u64,
}

/// One MSHR: the line being fetched and who waits for it.
#[derive(Clone, Debug)]
struct Mshr {
    waiters: Vec<u32>,
    /// A store waits for it (write-back L1: the line is dirty when it arrives).
    dirty: bool,
}

#[derive(Clone, Copy, Debug)]
struct Request {
    line: u32,
    /// Bytes on the data bus.
    bytes: u32,
    arrival: u64,
    /// `Some(core)` for a read that fills that core's L1 (and the L2); `None` for a write.
    reader: Option<usize>,
    /// A read that fills only the L2 (a write-allocating L2's fetch after a write miss).
    l2_fill: bool,
}

#[derive(Clone, Debug)]
struct Bank {
    channel: usize,
    queue: VecDeque<Request>,
    open_row: Option<u32>,
    free_at: u64,
}

/// A DRAM channel: its data bus, and the requests its full queues hold back.
#[derive(Clone, Debug, Default)]
struct Channel {
    bus_free: f64,
    /// Requests in its banks' queues.
    queued: usize,
    /// Requests waiting for room, in arrival order.
    held: VecDeque<Request>,
}

/// Consecutive blocks of this many bytes go to consecutive channels.
const CHANNEL_BLOCK: u32 = 256;

/// The hierarchy of every core.
#[derive(Clone, Debug)]
pub struct MemorySystem {
    line_bytes: u32,
    l1_latency: u64,
    l1: Vec<Cache>,
    /// Per core, the dirty lines of a write-back L1 (empty when the L1 writes through).
    dirty: Vec<std::collections::HashSet<u32>>,
    mshrs: Vec<HashMap<u32, Mshr>>,
    mshr_limit: usize,
    merge_limit: usize,
    /// `l1_write_back`: stores that hit the L1 (or a line being fetched) stay there.
    write_back: bool,
    l2: Option<Cache>,
    l2_latency: u64,
    /// Write-back L2 with write allocation (`l2_write_allocate`), and its dirty lines.
    l2_write_allocate: bool,
    l2_dirty: std::collections::HashSet<u32>,
    banks: Vec<Bank>,
    channels: Vec<Channel>,
    /// Requests per channel queue at most (`usize::MAX`: unbounded).
    queue_limit: usize,
    lines_per_row: u32,
    row_hit: u64,
    row_switch: u64,
    scheduler: DramScheduler,
    /// Per channel.
    bytes_per_cycle: f64,
    /// Transfers completing: (cycle, reading core or `None` for a write, line).
    completions: BinaryHeap<Reverse<(u64, Option<usize>, u32)>>,
    pub l1_stats: CacheStats,
    pub l2_stats: CacheStats,
    pub dram_stats: DramStats,
}

impl MemorySystem {
    /// The memory system of `cores` cores of machine `machine`.
    pub fn new(machine: &Machine, cores: usize) -> MemorySystem {
        let (l1, l2, m) = (machine.l1(), &machine.l2().cache, machine.dram());
        let line = l1.cache.line;
        MemorySystem {
            line_bytes: line,
            l1_latency: u64::from(l1.cache.latency),
            l1: vec![Cache::new(l1.cache.kb, l1.cache.ways, line); cores],
            dirty: vec![Default::default(); cores],
            mshrs: vec![HashMap::new(); cores],
            mshr_limit: l1.mshrs as usize,
            merge_limit: l1.mshr_merge as usize,
            write_back: l1.write_back,
            l2: l2.present().then(|| Cache::new(l2.kb, l2.ways, line)),
            l2_latency: u64::from(l2.latency),
            l2_write_allocate: machine.l2().write_allocate,
            l2_dirty: Default::default(),
            banks: (0..m.banks as usize)
                .map(|b| Bank {
                    channel: b / (m.banks / m.channels) as usize,
                    queue: VecDeque::new(),
                    open_row: None,
                    free_at: 0,
                })
                .collect(),
            channels: vec![Channel::default(); m.channels as usize],
            queue_limit: match m.queue {
                0 => usize::MAX,
                q => q as usize,
            },
            lines_per_row: m.row_bytes / line,
            row_hit: u64::from(m.row_hit),
            row_switch: u64::from(m.row_conflict - m.row_hit),
            scheduler: m.scheduler,
            bytes_per_cycle: machine.dram_bytes_per_cycle() / f64::from(m.channels),
            completions: BinaryHeap::new(),
            l1_stats: CacheStats::default(),
            l2_stats: CacheStats::default(),
            dram_stats: DramStats::default(),
        }
    }

    /// The line holding byte `addr`.
    pub fn line_of(&self, addr: u32) -> u32 {
        addr / self.line_bytes
    }

    /// A load of `line` by warp `waiter` of `core`, looked up at cycle `at`.
    pub fn load(&mut self, core: usize, at: u64, line: u32, waiter: u32) -> Probe {
        self.l1_stats.loads += 1;
        if self.l1[core].touch(line) {
            self.l1_stats.hits += 1;
            return Probe::Hit {
                at: at + self.l1_latency,
            };
        }
        let mshrs = &mut self.mshrs[core];
        if let Some(m) = mshrs.get_mut(&line) {
            if m.waiters.len() < self.merge_limit {
                m.waiters.push(waiter);
                self.l1_stats.misses += 1;
                self.l1_stats.merged += 1;
                return Probe::Miss;
            }
            self.l1_stats.mshr_full += 1;
            return Probe::Full;
        }
        if mshrs.len() >= self.mshr_limit {
            self.l1_stats.mshr_full += 1;
            return Probe::Full;
        }
        self.l1_stats.misses += 1;
        mshrs.insert(
            line,
            Mshr {
                waiters: vec![waiter],
                dirty: false,
            },
        );
        let arrival = at + self.l1_latency;
        self.below_l1(core, arrival, line);
        Probe::Miss
    }

    /// An L1 miss of `core` reaching the L2 (when there is one) or DRAM at `arrival`.
    fn below_l1(&mut self, core: usize, arrival: u64, line: u32) {
        if let Some(l2) = &mut self.l2 {
            self.l2_stats.loads += 1;
            if l2.touch(line) {
                self.l2_stats.hits += 1;
                self.completions
                    .push(Reverse((arrival + self.l2_latency, Some(core), line)));
                return;
            }
            self.l2_stats.misses += 1;
        }
        let arrival = arrival
            + if self.l2.is_some() {
                self.l2_latency
            } else {
                0
            };
        self.enqueue(Request {
            line,
            bytes: self.line_bytes,
            arrival,
            reader: Some(core),
            l2_fill: false,
        });
    }

    /// A store of `bytes` bytes to `line` by `core` at cycle `at`: written through to
    /// DRAM in 32-byte bursts; with `l1_write_back`, see [`MemorySystem::store_back`].
    pub fn store(&mut self, core: usize, at: u64, line: u32, bytes: u32) {
        if self.write_back && self.store_back(core, line) {
            return;
        }
        self.l1_stats.stores += 1;
        self.l1[core].touch(line);
        let bursts = bytes.clamp(1, self.line_bytes).div_ceil(BURST) * BURST;
        self.write_below_l1(at + self.l1_latency, line, bursts.min(self.line_bytes));
    }

    /// A write of `bytes` bytes of `line` leaving the L1 at `arrival`. Without write
    /// allocation the L2 updates a line it holds and the bytes go on to DRAM. With it
    /// (GPGPU-Sim 3.x's write-back, write-allocate L2): a hit dirties the line and stops
    /// there; a miss sends the bytes on to DRAM and fetches as many into the L2 (the line
    /// is then present, clean).
    fn write_below_l1(&mut self, arrival: u64, line: u32, bytes: u32) {
        if let Some(l2) = &mut self.l2 {
            self.l2_stats.stores += 1;
            let hit = l2.touch(line);
            if self.l2_write_allocate {
                if hit {
                    self.l2_dirty.insert(line);
                    return;
                }
                // The fetch reads as many bytes as the write brings (3.x's `wr_miss_wa`
                // sends a read of the write's data size).
                self.enqueue(Request {
                    line,
                    bytes,
                    arrival: arrival + self.l2_latency,
                    reader: None,
                    l2_fill: true,
                });
            }
        }
        self.enqueue(Request {
            line,
            bytes,
            arrival,
            reader: None,
            l2_fill: false,
        });
    }

    /// A store into a write-back L1 without allocation (GPGPU-Sim 2.x's L1 with
    /// `-gpgpu_cache_wt_through 0`): a store that hits makes the line dirty, one to a
    /// line an MSHR is fetching makes it dirty when it arrives (a hit under the miss);
    /// either goes no further, and the line goes to the L2 and DRAM when evicted.
    /// Whether it stayed in the L1 (false: a miss, written through by the caller).
    fn store_back(&mut self, core: usize, line: u32) -> bool {
        if self.l1[core].touch(line) {
            self.dirty[core].insert(line);
        } else if let Some(m) = self.mshrs[core].get_mut(&line) {
            m.dirty = true;
        } else {
            return false;
        }
        self.l1_stats.stores += 1;
        true
    }

    /// A store of `line` by `waiter` of `core` at cycle `at` into a write-back L1 with
    /// allocation (the VGIW engine's L1): a hit marks the line dirty and is done
    /// `l1_latency` later; a miss fetches the line as a load does (an MSHR, merged or
    /// refused alike) and the line is dirty when it arrives; the waiter hears of it
    /// through [`MemorySystem::advance`]. Dirty lines go to the L2 (updated) and DRAM
    /// (a whole line) when evicted or flushed.
    pub fn store_allocate(&mut self, core: usize, at: u64, line: u32, waiter: u32) -> Probe {
        let probe = self.load(core, at, line, waiter);
        // Counted as a store, not a load.
        self.l1_stats.loads -= 1;
        match probe {
            Probe::Full => {}
            _ => self.l1_stats.stores += 1,
        }
        match probe {
            Probe::Hit { .. } => {
                self.dirty[core].insert(line);
            }
            Probe::Miss => self.mshrs[core].get_mut(&line).expect("just taken").dirty = true,
            Probe::Full => {}
        }
        probe
    }

    /// Writes back every dirty line of `core`'s L1 at cycle `at` (the end of a kernel on
    /// a write-back L1).
    pub fn flush(&mut self, core: usize, at: u64) {
        let mut lines: Vec<u32> = self.dirty[core].drain().collect();
        lines.sort_unstable();
        for line in lines {
            self.write_back(at, line);
        }
    }

    /// A dirty line leaving the L1 at `at`.
    fn write_back(&mut self, at: u64, line: u32) {
        self.l1_stats.writebacks += 1;
        self.write_below_l1(at, line, self.line_bytes);
    }

    /// A line's bank (over all channels) and its row in that bank.
    fn bank_of(&self, line: u32) -> (usize, u32) {
        let channels = self.channels.len() as u32;
        let per_channel = self.banks.len() as u32 / channels;
        let (channel, line) = if channels == 1 {
            (0, line)
        } else {
            let block_lines = (CHANNEL_BLOCK / self.line_bytes).max(1);
            let block = line / block_lines;
            (
                block % channels,
                block / channels * block_lines + line % block_lines,
            )
        };
        let chunk = line / self.lines_per_row;
        (
            (channel * per_channel + chunk % per_channel) as usize,
            chunk / per_channel,
        )
    }

    /// Queues `r` at its bank, or holds it while its channel's queues are full.
    fn enqueue(&mut self, r: Request) {
        let (bank, _) = self.bank_of(r.line);
        let channel = &mut self.channels[self.banks[bank].channel];
        if channel.queued >= self.queue_limit {
            channel.held.push_back(r);
            return;
        }
        channel.queued += 1;
        self.queue_at(bank, r);
    }

    /// Puts `r` in `bank`'s queue in arrival order (ties in the order they came).
    fn queue_at(&mut self, bank: usize, r: Request) {
        let queue = &mut self.banks[bank].queue;
        let at = queue.len()
            - queue
                .iter()
                .rev()
                .take_while(|q| q.arrival > r.arrival)
                .count();
        queue.insert(at, r);
    }

    /// MSHRs of `core` in use.
    pub fn mshrs_in_use(&self, core: usize) -> usize {
        self.mshrs[core].len()
    }

    /// Requests waiting in the DRAM banks' queues or for room in them.
    pub fn dram_queued(&self) -> usize {
        let held: usize = self.channels.iter().map(|c| c.held.len()).sum();
        self.banks.iter().map(|b| b.queue.len()).sum::<usize>() + held
    }

    /// Whether `core` could take a new miss now (an MSHR is free).
    pub fn mshr_free(&self, core: usize) -> bool {
        self.mshrs[core].len() < self.mshr_limit
    }

    /// The cycle a bank next decides what to serve: when it is free and a request has
    /// arrived.
    fn decision(&self, bank: &Bank) -> Option<u64> {
        Some(bank.queue.front()?.arrival.max(bank.free_at))
    }

    /// The next cycle at which something happens below the cores.
    pub fn next_event(&self) -> Option<u64> {
        let banks = self.banks.iter().filter_map(|b| self.decision(b));
        let done = self.completions.peek().map(|Reverse((t, _, _))| *t);
        banks.chain(done).min()
    }

    /// Bytes the DRAM has moved (reads and writes served so far).
    pub fn dram_bytes(&self) -> u64 {
        self.dram_stats.bytes
    }

    /// Whether nothing is queued or in flight.
    pub fn idle(&self) -> bool {
        self.completions.is_empty()
            && self.banks.iter().all(|b| b.queue.is_empty())
            && self.channels.iter().all(|c| c.held.is_empty())
    }

    /// Runs the banks up to cycle `now` and reports every read completed by then as
    /// (core, waiting warp, line, cycle), in completion order.
    pub fn advance(&mut self, now: u64, done: &mut Vec<(usize, u32, u32, u64)>) {
        for b in 0..self.banks.len() {
            while let Some(t) = self.decision(&self.banks[b]) {
                if t > now {
                    break;
                }
                self.serve(b, t);
            }
        }
        while let Some(&Reverse((t, reader, line))) = self.completions.peek() {
            if t > now {
                break;
            }
            self.completions.pop();
            let Some(core) = reader else {
                continue; // a write's transfer ended
            };
            if let Some(evicted) = self.l1[core].fill(line) {
                if self.dirty[core].remove(&evicted) {
                    self.write_back(t, evicted);
                }
            }
            if let Some(m) = self.mshrs[core].remove(&line) {
                if m.dirty {
                    self.dirty[core].insert(line);
                }
                done.extend(m.waiters.into_iter().map(|w| (core, w, line, t)));
            }
        }
    }

    /// Bank `b` picks a request at cycle `t` and schedules its completion.
    fn serve(&mut self, b: usize, t: u64) {
        let bank = &self.banks[b];
        // The queue is in arrival order: the oldest request has arrived by `t`.
        let pick = match self.scheduler {
            DramScheduler::Fcfs => 0,
            DramScheduler::FrFcfs => bank
                .queue
                .iter()
                .take_while(|r| r.arrival <= t)
                .position(|r| Some(self.bank_of(r.line).1) == bank.open_row)
                .unwrap_or(0),
        };
        let r = self.banks[b].queue.remove(pick).expect("picked");
        let (_, row) = self.bank_of(r.line);
        let c = self.banks[b].channel;
        // A held request takes the place served (it arrives no earlier than now).
        self.channels[c].queued -= 1;
        if let Some(mut next) = self.channels[c].held.pop_front() {
            next.arrival = next.arrival.max(t);
            self.channels[c].queued += 1;
            let (to, _) = self.bank_of(next.line);
            self.queue_at(to, next);
        }
        let bank = &mut self.banks[b];
        let hit = bank.open_row == Some(row);
        bank.open_row = Some(row);
        let latency = self.row_hit + if hit { 0 } else { self.row_switch };
        let transfer = f64::from(r.bytes) / self.bytes_per_cycle;
        // The bank is busy for the row switch and the line's burst; the data bus carries
        // one line at a time at the bandwidth limit.
        let busy = if hit { 0 } else { self.row_switch } as f64 + transfer;
        bank.free_at = t + busy.ceil() as u64;
        let ready = (t + latency) as f64;
        let bus = &mut self.channels[c].bus_free;
        let end = ready.max(*bus + transfer);
        *bus = end;
        let completion = end.ceil() as u64;
        let reads = r.reader.is_some() || r.l2_fill;
        let stats = &mut self.dram_stats;
        if hit {
            stats.row_hits += 1;
        } else {
            stats.row_conflicts += 1;
        }
        stats.bytes += u64::from(r.bytes);
        stats.latency_cycles += completion - r.arrival;
        if reads {
            stats.reads += 1;
            stats.read_bytes += u64::from(r.bytes);
            if r.l2_fill {
                stats.allocate_bytes += u64::from(r.bytes);
            }
        } else {
            stats.writes += 1;
        }
        if reads {
            let evicted = self.l2.as_mut().and_then(|l2| l2.fill(r.line));
            if let Some(evicted) = evicted.filter(|e| self.l2_dirty.remove(e)) {
                // A dirty line leaves the write-back L2: a whole line to DRAM.
                self.enqueue(Request {
                    line: evicted,
                    bytes: self.line_bytes,
                    arrival: t,
                    reader: None,
                    l2_fill: false,
                });
            }
        }
        // Writes stay in flight until their transfer ends, so that a run ends after it.
        self.completions
            .push(Reverse((completion, r.reader, r.line)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(set: &[&str]) -> Machine {
        let mut m = Machine::lwm();
        m.set_all(set).unwrap();
        m
    }

    /// The memory system of the `lwm` machine with `set`.
    fn memory(set: &[&str]) -> MemorySystem {
        let m = machine(set);
        MemorySystem::new(&m, m.core().cores as usize)
    }

    /// Runs until the load of `line` by warp 0 of core 0 completes; its cycle.
    fn wait(mem: &mut MemorySystem, mut now: u64) -> u64 {
        let mut done = vec![];
        loop {
            mem.advance(now, &mut done);
            if let Some(&(_, _, _, t)) = done.first() {
                return t;
            }
            now = mem.next_event().expect("something in flight");
        }
    }

    #[test]
    fn a_miss_takes_the_row_latency_then_hits() {
        let mut mem = memory(&[]);
        assert_eq!(mem.load(0, 10, 5, 0), Probe::Miss);
        // The first access to a bank opens its row: a conflict (no row open).
        assert_eq!(wait(&mut mem, 10), 10 + 1 + 300);
        assert_eq!(mem.load(0, 400, 5, 0), Probe::Hit { at: 401 });
        // The next line of the same row: a row hit.
        assert_eq!(mem.load(0, 500, 6, 0), Probe::Miss);
        assert_eq!(wait(&mut mem, 500), 500 + 1 + 100);
        assert_eq!(mem.dram_stats.row_hits, 1);
        assert_eq!(mem.dram_stats.row_conflicts, 1);
    }

    #[test]
    fn misses_to_one_line_merge_and_a_full_table_refuses() {
        let mut mem = memory(&["l1_mshrs=2", "l1_mshr_merge=2"]);
        assert_eq!(mem.load(0, 0, 1, 0), Probe::Miss);
        assert_eq!(mem.load(0, 0, 1, 1), Probe::Miss);
        assert_eq!(mem.load(0, 0, 1, 2), Probe::Full, "merge limit");
        assert_eq!(mem.load(0, 0, 2, 3), Probe::Miss);
        assert_eq!(mem.load(0, 0, 3, 4), Probe::Full, "every MSHR taken");
        assert!(!mem.mshr_free(0));
        let mut done = vec![];
        while !mem.idle() {
            let t = mem.next_event().unwrap();
            mem.advance(t, &mut done);
        }
        let waiters: Vec<u32> = done.iter().map(|d| d.1).collect();
        assert_eq!(waiters, [0, 1, 3]);
        assert!(mem.mshr_free(0));
        assert_eq!(mem.l1_stats.merged, 1);
        assert_eq!(mem.l1_stats.mshr_full, 2);
    }

    #[test]
    fn a_write_moves_only_the_bursts_it_fills() {
        let mut mem = memory(&[]);
        mem.store(0, 0, 1, 4);
        mem.store(0, 0, 2, 40);
        mem.store(0, 0, 3, 128);
        while !mem.idle() {
            let t = mem.next_event().unwrap();
            mem.advance(t, &mut vec![]);
        }
        assert_eq!(mem.dram_stats.bytes, 32 + 64 + 128);
        assert_eq!(mem.dram_stats.writes, 3);
    }

    #[test]
    fn a_write_back_l1_allocates_on_a_store_and_writes_dirty_lines_back_once() {
        // 1 KB 2-way L1 of 128-byte lines: 4 sets; lines 0, 4, 8 share set 0.
        let mut mem = memory(&["l1_kb=1", "l1_ways=2"]);
        assert_eq!(mem.store_allocate(0, 0, 0, 7), Probe::Miss, "fetched first");
        assert_eq!(drain(&mut mem), [(7, 301)]);
        assert_eq!(mem.store_allocate(0, 400, 0, 8), Probe::Hit { at: 401 });
        assert_eq!(mem.dram_stats.writes, 0, "nothing written yet");
        // Two more lines of set 0 evict line 0, dirty: one write-back of a whole line.
        mem.load(0, 500, 4, 1);
        drain(&mut mem);
        mem.load(0, 1000, 8, 2);
        drain(&mut mem);
        assert_eq!((mem.l1_stats.writebacks, mem.dram_stats.writes), (1, 1));
        assert_eq!(mem.l1_stats.stores, 2);
        // A clean line evicted writes nothing; the flush writes the dirty ones.
        mem.store_allocate(0, 2000, 1, 3);
        drain(&mut mem);
        mem.flush(0, 3000);
        mem.flush(0, 3000);
        drain(&mut mem);
        assert_eq!((mem.l1_stats.writebacks, mem.dram_stats.writes), (2, 2));
        // Four lines read (a store's miss fetches its line), two written: whole lines.
        assert_eq!((mem.dram_stats.reads, mem.dram_stats.bytes), (4, 6 * 128));
    }

    #[test]
    fn a_write_back_l1_keeps_store_hits_and_writes_misses_through_without_allocating() {
        // 1 KB 2-way L1 of 128-byte lines: 4 sets; lines 0, 4, 8 share set 0.
        let mut mem = {
            let m = machine(&["l1_kb=1", "l1_ways=2", "l1_write_back=true"]);
            MemorySystem::new(&m, 1)
        };
        // A store miss writes its burst through and does not allocate.
        mem.store(0, 0, 0, 4);
        drain(&mut mem);
        assert_eq!((mem.dram_stats.writes, mem.dram_stats.bytes), (1, 32));
        assert_eq!(mem.load(0, 1000, 0, 1), Probe::Miss, "not allocated");
        drain(&mut mem);
        // A store hit stays in the L1: nothing more reaches DRAM.
        mem.store(0, 2000, 0, 128);
        drain(&mut mem);
        assert_eq!(mem.dram_stats.writes, 1);
        // A store to a line being fetched makes it dirty when it arrives.
        assert_eq!(mem.load(0, 3000, 4, 2), Probe::Miss);
        mem.store(0, 3001, 4, 4);
        drain(&mut mem);
        assert_eq!(mem.dram_stats.writes, 1, "a hit under the miss");
        // Line 8 evicts line 0 (dirty): a whole line written back; then line 4 (dirty).
        mem.load(0, 4000, 8, 3);
        drain(&mut mem);
        assert_eq!((mem.l1_stats.writebacks, mem.dram_stats.writes), (1, 2));
        mem.load(0, 5000, 0, 3);
        drain(&mut mem);
        assert_eq!((mem.l1_stats.writebacks, mem.dram_stats.writes), (2, 3));
        assert_eq!(mem.dram_stats.bytes, 32 + 4 * 128 + 2 * 128);
        assert_eq!(mem.l1_stats.stores, 3);
        // Write-through (the default) sends every store down.
        let mut wt = {
            let m = machine(&["l1_kb=1", "l1_ways=2"]);
            MemorySystem::new(&m, 1)
        };
        wt.load(0, 0, 0, 1);
        drain(&mut wt);
        wt.store(0, 1000, 0, 4);
        drain(&mut wt);
        assert_eq!(wt.dram_stats.writes, 1);
    }

    #[test]
    fn a_write_allocating_l2_fetches_on_a_write_miss_and_keeps_later_writes() {
        // 1 KB 2-way L2 of 128-byte lines: 4 sets; lines 0, 4, 8 share set 0.
        for allocate in [false, true] {
            let mut mem = memory(&[
                "l2_kb=1",
                "l2_ways=2",
                &format!("l2_write_allocate={allocate}"),
            ]);
            mem.store(0, 0, 0, 128);
            drain(&mut mem);
            mem.store(0, 1000, 0, 128);
            drain(&mut mem);
            let (reads, writes) = (mem.dram_stats.reads, mem.dram_stats.writes);
            if !allocate {
                assert_eq!((reads, writes), (0, 2), "written through twice");
                assert_eq!(mem.dram_stats.read_bytes, 0);
                continue;
            }
            // The miss goes on to DRAM and fetches as many bytes; the hit stays in the L2.
            assert_eq!((reads, writes), (1, 1));
            assert_eq!(mem.dram_stats.allocate_bytes, 128);
            // Two more lines of set 0 evict line 0, dirty: a whole line written.
            mem.load(0, 2000, 4, 1);
            drain(&mut mem);
            mem.load(0, 3000, 8, 2);
            drain(&mut mem);
            assert_eq!((mem.dram_stats.reads, mem.dram_stats.writes), (3, 2));
            assert_eq!(mem.dram_stats.bytes, 5 * 128);
            assert_eq!(mem.dram_stats.read_bytes, 3 * 128);
        }
    }

    #[test]
    fn lru_evicts_the_least_recently_used_way() {
        let mut c = Cache::new(1, 2, 128); // 8 lines, 2 ways, 4 sets
        c.fill(0);
        c.fill(4);
        assert!(c.touch(0));
        c.fill(8); // evicts 4, the least recently used of set 0
        assert!(c.touch(0) && c.touch(8) && !c.touch(4));
    }

    #[test]
    fn fr_fcfs_serves_the_row_hit_first() {
        for (sched, first) in [("fcfs", 1u32), ("fr-fcfs", 2)] {
            let mut mem = memory(&[&format!("dram_scheduler={sched}")]);
            // Line 0 opens row 0 of bank 0; line 256 is row 1 of bank 0 (32 lines per
            // row, 8 banks); line 1 is row 0 again.
            mem.load(0, 0, 0, 0);
            mem.load(0, 5, 256, 1);
            mem.load(0, 6, 1, 2);
            let mut done = vec![];
            while !mem.idle() {
                let t = mem.next_event().unwrap();
                mem.advance(t, &mut done);
            }
            assert_eq!(done[1].1, first, "{sched}: {done:?}");
        }
    }

    #[test]
    fn the_bus_spaces_completions_by_the_bandwidth() {
        // 128 B lines at 8 bytes per cycle: 16 cycles per line.
        let mut mem = memory(&["dram_gbps=12", "clock_mhz=1500"]);
        for line in 0..8 {
            // One row per bank: 8 lines in 8 banks, all row conflicts started at once.
            mem.load(0, 0, line * 32, line);
        }
        let mut done = vec![];
        while !mem.idle() {
            let t = mem.next_event().unwrap();
            mem.advance(t, &mut done);
        }
        let times: Vec<u64> = done.iter().map(|d| d.3).collect();
        // Every load completes (fewer than two would leave no spacing to check).
        assert_eq!(times.len(), 8, "{times:?}");
        for w in times.windows(2) {
            assert!(w[1] - w[0] >= 16, "{times:?}");
        }
    }
    /// Every read to completion: (waiter, cycle) in completion order.
    fn drain(mem: &mut MemorySystem) -> Vec<(u32, u64)> {
        let mut done = vec![];
        while !mem.idle() {
            let t = mem.next_event().unwrap();
            mem.advance(t, &mut done);
        }
        done.iter().map(|d| (d.1, d.3)).collect()
    }

    #[test]
    fn consecutive_256_byte_blocks_go_to_consecutive_channels() {
        // 128-byte lines: two per block; 2 channels of 4 banks, 32 lines per row.
        let mem = memory(&["dram_channels=2", "dram_banks=8"]);
        // (line, bank over all channels, row)
        let want = [
            (0, 0, 0),
            (1, 0, 0),
            (2, 4, 0),
            (3, 4, 0),
            (4, 0, 0),
            (6, 4, 0),
        ];
        for (line, bank, row) in want {
            assert_eq!(mem.bank_of(line), (bank, row), "line {line}");
        }
        // Channel 0's lines 0, 1, 4, 5, ...: its 33rd line (line 64) opens its bank 1,
        // its 129th (line 256) wraps to bank 0, row 1.
        assert_eq!(mem.bank_of(64), (1, 0));
        assert_eq!(mem.bank_of(256), (0, 1));
        // One channel: the layout of old, a row of 32 lines per bank.
        let one = memory(&[]);
        assert_eq!(
            (one.bank_of(31), one.bank_of(32), one.bank_of(256)),
            ((0, 0), (1, 0), (0, 1))
        );
    }

    #[test]
    fn each_channel_has_its_own_bus() {
        // 0.2 bytes per cycle in all: a 128-byte line takes 640 cycles on one bus, 1280
        // on each of two half-speed buses, far more than the 300-cycle row latency.
        let slow = ["dram_gbps=0.3", "clock_mhz=1500"];
        let mut one = memory(&slow);
        one.load(0, 0, 0, 0);
        one.load(0, 0, 32, 1); // another bank, the same bus
        assert_eq!(drain(&mut one), [(0, 640), (1, 1280)]);
        let two: Vec<&str> = slow.iter().copied().chain(["dram_channels=2"]).collect();
        let mut two = memory(&two);
        two.load(0, 0, 0, 0);
        two.load(0, 0, 2, 1); // the other channel
        assert_eq!(drain(&mut two), [(0, 1280), (1, 1280)]);
    }

    #[test]
    fn a_full_channel_queue_holds_requests_back_in_arrival_order() {
        // FR-FCFS serves line 1 (row 0, open) before line 256 (row 1) when both wait in
        // the bank's queue; with room for one request, line 1 is still held when the
        // bank picks, so line 256 goes first.
        for (queue, order) in [(0, [0, 2, 1]), (1, [0, 1, 2])] {
            let queue_key = format!("dram_queue={queue}");
            let mut mem = memory(&["dram_scheduler=fr-fcfs", &queue_key]);
            mem.load(0, 0, 0, 0);
            mem.load(0, 0, 256, 1);
            mem.load(0, 0, 1, 2);
            if queue == 1 {
                assert_eq!(mem.dram_queued(), 3, "one queued, two held");
            }
            let waiters: Vec<u32> = drain(&mut mem).iter().map(|d| d.0).collect();
            assert_eq!(waiters, order, "dram_queue = {queue}");
        }
    }
}
