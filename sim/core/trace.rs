//! The core's per-cycle state as a waveform (`weft run --vcd FILE`, opens in GTKWave):
//! per core the issuing warp and its active lanes, every warp's state, the MSHRs in
//! use; the DRAM requests queued. One time unit is one core cycle; a signal changes only
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
}

/// One core in one cycle.
pub struct Sample<'a> {
    /// The warp that issued this cycle and its active lanes.
    pub issued: Option<(usize, u32)>,
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
    active_lanes: IdCode,
    mshrs: IdCode,
    warps: Vec<IdCode>,
}

/// A VCD writer of the core's state; writes a signal only when it changes.
pub struct VcdTrace<W: Write> {
    out: vcd::Writer<W>,
    cores: Vec<CoreIds>,
    dram_queue: IdCode,
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
    pub fn new(w: W, cores: usize, warps: usize) -> std::io::Result<VcdTrace<W>> {
        let mut out = vcd::Writer::new(w);
        out.comment(
            "weft core model: one time unit = one core cycle; warp states 0 free, 1 ready, 2 pipeline, 3 memory, 4 barrier, 5 done",
        )?;
        out.timescale(1, TimescaleUnit::NS)?;
        out.add_module("gpu")?;
        let dram_queue = out.add_wire(16, "dram_queue")?;
        let mut ids = vec![];
        for c in 0..cores {
            out.add_module(&format!("core{c}"))?;
            let issue_valid = out.add_wire(1, "issue_valid")?;
            let issue_warp = out.add_wire(6, "issue_warp")?;
            let active_lanes = out.add_wire(7, "active_lanes")?;
            let mshrs = out.add_wire(8, "mshrs")?;
            let warps = (0..warps)
                .map(|w| out.add_wire(3, &format!("warp{w:02}_state")))
                .collect::<Result<_, _>>()?;
            out.upscope()?;
            ids.push(CoreIds {
                issue_valid,
                issue_warp,
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
            last: Default::default(),
            time: None,
        })
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
        let (valid, warp, lanes) = match s.issued {
            Some((w, l)) => (1, w as u64, u64::from(l)),
            None => (0, 0, 0),
        };
        let ids = &self.cores[core];
        let (v, w, l, m) = (ids.issue_valid, ids.issue_warp, ids.active_lanes, ids.mshrs);
        let warp_ids = ids.warps.clone();
        self.set(cycle, v, 1, valid)?;
        self.set(cycle, w, 6, warp)?;
        self.set(cycle, l, 7, lanes)?;
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
