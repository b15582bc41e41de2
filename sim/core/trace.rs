//! The core's per-cycle state as a waveform (`weft run --vcd FILE`, opens in GTKWave):
//! per core the issuing warp, its PC, lane mask and active threads, every warp's state,
//! the MSHRs in use; the DRAM requests queued. The signals come in groups for a
//! viewer's save file ([`VcdTrace::groups`]). One time unit is one core cycle; a signal changes only
//! when the model's state does (the model skips the cycles in which nothing happens).
use crate::lwm::sub_warp_unit::Mode;
use std::io::Write;
use vcd::{IdCode, TimescaleUnit, Value};

/// A warp's state in one cycle (its VCD code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum WarpState {
    /// No CTA in the slot.
    Free = 0,
    /// May be fetched this cycle.
    Ready = 1,
    /// Its instruction is in the pipeline (barrel processing).
    Pipeline = 2,
    /// Put aside until its lines arrive.
    Memory = 3,
    /// Waiting at `weft_barrier`.
    Barrier = 4,
    /// Every thread returned.
    Done = 5,
    /// Thread block compaction: waits for its CTA's stack, or holds no warp.
    Parked = 6,
}

impl WarpState {
    /// Every state's name, by code: what a waveform viewer shows.
    pub const NAMES: [&'static str; 7] = [
        "free", "ready", "pipeline", "memory", "barrier", "done", "parked",
    ];
}

/// What issued on a core in one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Issue {
    pub warp: usize,
    /// Threads that executed the instruction.
    pub active: u32,
    pub pc: u32,
    /// The lanes of the first warp instruction formed (a large warp's further sub-warps
    /// issue in the next cycles).
    pub lanes: u64,
}

/// One core in one cycle.
pub struct Sample<'a> {
    pub issued: Option<Issue>,
    pub warps: &'a [WarpState],
    pub mshrs: usize,
}

/// Receives the model's state at every cycle it visits.
pub trait Trace {
    fn core(&mut self, cycle: u64, core: usize, sample: &Sample) -> std::io::Result<()>;
    fn dram(&mut self, cycle: u64, queued: usize) -> std::io::Result<()>;
    /// A warp was fetched with this mask (one `u64` per row) and broken into
    /// `sub_warps` sub-warps in `mode` (called before the cycle's `core`).
    fn fetch(
        &mut self,
        _core: usize,
        _warp: usize,
        _mask: &[u64],
        _mode: Mode,
        _sub_warps: u32,
    ) -> std::io::Result<()> {
        Ok(())
    }
}

struct CoreIds {
    issue_valid: IdCode,
    issue_warp: IdCode,
    issue_pc: IdCode,
    issue_lanes: IdCode,
    active_lanes: IdCode,
    mshrs: IdCode,
    warps: Vec<IdCode>,
}

/// How a waveform viewer should show a signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Radix {
    Binary,
    Decimal,
    Hex,
    /// By [`WarpState::NAMES`].
    WarpState,
}

/// A signal of the trace: its full path (scopes and name, dot-separated), its width and
/// how to show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wire {
    pub path: String,
    pub width: u32,
    pub radix: Radix,
}

/// The trace's signals in the groups a viewer should show them in (name, signals).
pub type Groups = Vec<(String, Vec<Wire>)>;

/// A VCD writer of the core's state; writes a signal only when it changes.
pub struct VcdTrace<W: Write> {
    out: vcd::Writer<W>,
    cores: Vec<CoreIds>,
    dram_queue: IdCode,
    lanes: u32,
    groups: Groups,
    /// Last value written per signal, to write changes only.
    last: std::collections::HashMap<IdCode, u64>,
    time: Option<u64>,
}

fn bits(v: u64, width: u32) -> Vec<Value> {
    (0..width)
        .rev()
        .map(|b| {
            if v >> b & 1 == 1 {
                Value::V1
            } else {
                Value::V0
            }
        })
        .collect()
}

impl<W: Write> VcdTrace<W> {
    /// A trace of `cores` cores of `warps` warps, issuing on `lanes` lanes (1..=64).
    pub fn new(w: W, cores: usize, warps: usize, lanes: u32) -> std::io::Result<VcdTrace<W>> {
        let mut out = vcd::Writer::new(w);
        out.comment(
            "weft core model: one time unit = one core cycle; warp states 0 free, 1 ready, 2 pipeline, 3 memory, 4 barrier, 5 done, 6 parked (thread block compaction)",
        )?;
        out.timescale(1, TimescaleUnit::NS)?;
        out.add_module("gpu")?;
        let mut groups: Groups = vec![];
        // Declares a wire in scope `scope` and lists it in the viewer's group `group`.
        let mut wire = |out: &mut vcd::Writer<W>,
                        group: String,
                        scope: &str,
                        name: &str,
                        width: u32,
                        radix: Radix| {
            if groups.last().is_none_or(|(g, _)| *g != group) {
                groups.push((group, vec![]));
            }
            let path = format!("{scope}.{name}");
            let last = groups.last_mut().expect("pushed above");
            last.1.push(Wire { path, width, radix });
            out.add_wire(width, name)
        };
        let dram_queue = wire(
            &mut out,
            "dram".into(),
            "gpu",
            "dram_queue",
            16,
            Radix::Decimal,
        )?;
        let mut ids = vec![];
        for c in 0..cores {
            let core = format!("core{c}");
            out.add_module(&core)?;
            let scope = format!("gpu.{core}");
            let group = |name: &str| format!("{core} {name}");
            let issue_valid = wire(
                &mut out,
                group("issue"),
                &scope,
                "issue_valid",
                1,
                Radix::Binary,
            )?;
            let issue_warp = wire(
                &mut out,
                group("issue"),
                &scope,
                "issue_warp",
                6,
                Radix::Decimal,
            )?;
            let issue_pc = wire(&mut out, group("issue"), &scope, "issue_pc", 32, Radix::Hex)?;
            let issue_lanes = wire(
                &mut out,
                group("issue"),
                &scope,
                "issue_lanes",
                lanes,
                Radix::Hex,
            )?;
            let active_lanes = wire(
                &mut out,
                group("issue"),
                &scope,
                "active_lanes",
                7,
                Radix::Decimal,
            )?;
            let warps = (0..warps)
                .map(|w| {
                    let name = format!("warp{w:02}_state");
                    wire(&mut out, group("warps"), &scope, &name, 3, Radix::WarpState)
                })
                .collect::<Result<_, _>>()?;
            let mshrs = wire(
                &mut out,
                group("memory"),
                &scope,
                "mshrs",
                8,
                Radix::Decimal,
            )?;
            out.upscope()?;
            ids.push(CoreIds {
                issue_valid,
                issue_warp,
                issue_pc,
                issue_lanes,
                active_lanes,
                mshrs,
                warps,
            });
        }
        out.upscope()?;
        out.enddefinitions()?;
        Ok(VcdTrace {
            out,
            cores: ids,
            dram_queue,
            lanes,
            groups,
            last: Default::default(),
            time: None,
        })
    }

    /// The signals, grouped per core as a viewer should show them: issue, warps, memory.
    pub fn groups(&self) -> &Groups {
        &self.groups
    }

    fn set(&mut self, cycle: u64, id: IdCode, width: u32, v: u64) -> std::io::Result<()> {
        let v = v.min(if width >= 64 {
            u64::MAX
        } else {
            (1 << width) - 1
        });
        if self.last.get(&id) == Some(&v) {
            return Ok(());
        }
        if self.time != Some(cycle) {
            self.out.timestamp(cycle)?;
            self.time = Some(cycle);
        }
        self.last.insert(id, v);
        if width == 1 {
            self.out
                .change_scalar(id, if v == 1 { Value::V1 } else { Value::V0 })
        } else {
            self.out.change_vector(id, &bits(v, width))
        }
    }
}

impl<W: Write> Trace for VcdTrace<W> {
    fn core(&mut self, cycle: u64, core: usize, s: &Sample) -> std::io::Result<()> {
        // An idle cycle keeps the last PC and lane mask: issue_valid says whether they hold.
        let ids = &self.cores[core];
        let (v, w, l, m) = (ids.issue_valid, ids.issue_warp, ids.active_lanes, ids.mshrs);
        let (pc, mask) = (ids.issue_pc, ids.issue_lanes);
        let warp_ids = ids.warps.clone();
        match s.issued {
            Some(issue) => {
                self.set(cycle, v, 1, 1)?;
                self.set(cycle, w, 6, issue.warp as u64)?;
                self.set(cycle, l, 7, u64::from(issue.active))?;
                self.set(cycle, pc, 32, u64::from(issue.pc))?;
                self.set(cycle, mask, self.lanes, issue.lanes)?;
            }
            None => {
                self.set(cycle, v, 1, 0)?;
                self.set(cycle, w, 6, 0)?;
                self.set(cycle, l, 7, 0)?;
            }
        }
        self.set(cycle, m, 8, s.mshrs as u64)?;
        for (id, state) in warp_ids.into_iter().zip(s.warps) {
            self.set(cycle, id, 3, *state as u64)?;
        }
        Ok(())
    }

    fn dram(&mut self, cycle: u64, queued: usize) -> std::io::Result<()> {
        let id = self.dram_queue;
        self.set(cycle, id, 16, queued as u64)
    }
}
