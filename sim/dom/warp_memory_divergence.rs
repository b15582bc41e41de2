//! One warp's diverge-on-miss model (SPEC §4): MDT + MCB entries + slip counters,
//! composed as `weft_hdl::dom::warp_memory_divergence` documents.
use super::mcb_entry::{McbEntry, McbInputs};
use super::mdt::Mdt;
use super::slip_controller::{SlipController, SlipInputs};

/// One cycle's inputs (vectors per lane).
#[derive(Clone, Debug, Default)]
pub struct WarpInputs {
    pub reset: bool,
    pub branch_mask: u64,
    pub op: bool,
    pub pc: u64,
    pub hit_mask: u64,
    pub addr: Vec<u64>,
    pub reconverge: bool,
    pub fill: bool,
    pub fill_addr: u64,
    pub fill_data: Vec<u64>,
    pub raise: bool,
    pub lower: bool,
}

/// What the warp shows this cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarpOutputs {
    pub active: u64,
    pub block: bool,
    pub release_mask: u64,
    pub release_data: Vec<u64>,
    pub waiting: u64,
    pub ready: u64,
    pub slip_limit: u64,
    pub max_slip: u8,
    pub mdt_valid: u64,
    /// Not a port: the MDT entry the misses went to (contracts).
    pub target: Option<usize>,
    /// Not a port: the op completed and diverged.
    pub slipped: bool,
}

#[derive(Clone, Debug)]
pub struct WarpMemoryDivergence {
    pub lanes: usize,
    pub mdt: Mdt,
    pub mcb: Vec<McbEntry>,
    pub slip: SlipController,
}

struct Plan {
    out: WarpOutputs,
    mdt_access: bool,
    miss: u64,
    forbid: bool,
    mcb_in: Vec<McbInputs>,
    slip_in: SlipInputs,
}

impl WarpMemoryDivergence {
    pub fn new(lanes: usize, entries: usize, offset_bits: usize, init: u8, step: u8) -> Self {
        WarpMemoryDivergence {
            lanes,
            mdt: Mdt::new(entries),
            mcb: (0..entries)
                .map(|_| McbEntry::new(lanes, offset_bits))
                .collect(),
            slip: SlipController::new(lanes, 1, init, step),
        }
    }

    fn plan(&self, i: &WarpInputs) -> Plan {
        let e = i.branch_mask & !self.mdt.waiting();
        let h = e & i.hit_mask;
        let x = e & !i.hit_mask;
        let do_op = i.op && !i.reconverge;
        let mut slip_in = SlipInputs {
            reset: i.reset,
            warp: 0,
            considered: i.branch_mask,
            exec: e,
            hit: i.hit_mask,
            raise: i.raise,
            lower: i.lower,
            ..Default::default()
        };
        let forbid = self.slip.outputs(&slip_in).forbid || h == 0;
        let d = self.mdt.decide(do_op, i.pc, x, forbid);
        let complete = do_op && !d.refuse;
        // Every executed load is a slip event, refused ones too: otherwise a warp whose
        // leaders reached the limit never lowers them (issue 30; see the RTL header).
        slip_in.event = do_op;
        slip_in.slipped = d.accept;
        let mut release_mask = 0;
        let mut release_data = vec![0; self.lanes];
        let mut ready = 0;
        let mut mcb_in = vec![];
        for (k, entry) in self.mcb.iter().enumerate() {
            let rel = if i.reconverge || (complete && d.match_entry == Some(k)) {
                entry.ready
            } else {
                0
            };
            let mi = McbInputs {
                reset: i.reset,
                capture: d.target == Some(k),
                capture_mask: x,
                addr_in: i.addr.clone(),
                fill: i.fill,
                fill_addr: i.fill_addr,
                fill_data: i.fill_data.clone(),
                release: rel != 0,
                release_mask: rel,
            };
            for (c, v) in entry.release_data(&mi).into_iter().enumerate() {
                release_data[c] |= v;
            }
            release_mask |= rel;
            ready |= entry.ready;
            mcb_in.push(mi);
        }
        let so = self.slip.outputs(&slip_in);
        Plan {
            out: WarpOutputs {
                active: e,
                block: d.refuse,
                release_mask,
                release_data,
                waiting: self.mdt.waiting(),
                ready,
                slip_limit: so.limit_mask,
                max_slip: so.max_slip,
                mdt_valid: self.mdt.valid(),
                target: d.target,
                slipped: d.accept,
            },
            mdt_access: do_op,
            miss: x,
            forbid,
            mcb_in,
            slip_in,
        }
    }

    pub fn outputs(&self, i: &WarpInputs) -> WarpOutputs {
        self.plan(i).out
    }

    pub fn clock(&mut self, i: &WarpInputs) {
        let p = self.plan(i);
        self.mdt.clock(
            i.reset,
            p.mdt_access,
            i.pc,
            p.miss,
            p.forbid,
            p.out.release_mask,
        );
        for (entry, mi) in self.mcb.iter_mut().zip(&p.mcb_in) {
            entry.clock(mi);
        }
        self.slip.clock(&p.slip_in);
    }
}
