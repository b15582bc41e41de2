//! One-warp diverge-on-miss bench: RTL vs model plus the contracts: a thread
//! is never both active and waiting; no thread is lost (periodic drains fill every
//! pending line and force reconvergence, after which nothing may still wait); a
//! released thread's data is its line's value when the line returned; a warp at the
//! slip limit issues no divergent memory op; with an entry per lane (M >= LANES, the
//! MDT that does not limit) no load blocks for want of an entry, with more load PCs
//! than entries. Counter wrap is covered by the slip controller's bench (the same block
//! inside).
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::{bits_from_rows, fields_from_bits, small};
use crate::dom::mcb_entry::memory_word;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::dom::warp_memory_divergence::WarpMemoryDivergence;
use weft_sim::dom::ones;
use weft_sim::dom::warp_memory_divergence::{WarpInputs, WarpMemoryDivergence as Model};

/// Cycles between drains, and the drain length.
pub const DRAIN_EVERY: u64 = 400;

pub struct WarpMemoryDivergenceBench<
    const LANES: usize,
    const M: usize,
    const PCW: usize,
    const AW: usize,
    const OB: usize,
    const DW: usize,
    const NA: usize,
    const ND: usize,
    const INIT: usize,
    const STEP: usize,
> {
    pub uut: WarpMemoryDivergence<LANES, M, PCW, AW, OB, DW, NA, ND, INIT, STEP>,
    pub model: Model,
    pub inputs: WarpInputs,
    /// Hit probability in percent.
    pub hit_percent: u32,
    expected: Vec<u64>,
    version: u64,
    draining: bool,
    drain_end: bool,
}

impl<
        const LANES: usize,
        const M: usize,
        const PCW: usize,
        const AW: usize,
        const OB: usize,
        const DW: usize,
        const NA: usize,
        const ND: usize,
        const INIT: usize,
        const STEP: usize,
    > crate::presets::Tested
    for WarpMemoryDivergence<LANES, M, PCW, AW, OB, DW, NA, ND, INIT, STEP>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![
            ("LANES", LANES),
            ("M", M),
            ("PCW", PCW),
            ("AW", AW),
            ("OB", OB),
            ("DW", DW),
        ]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(WarpMemoryDivergenceBench::<
            LANES,
            M,
            PCW,
            AW,
            OB,
            DW,
            NA,
            ND,
            INIT,
            STEP,
        >::default())
    }
}

impl<
        const LANES: usize,
        const M: usize,
        const PCW: usize,
        const AW: usize,
        const OB: usize,
        const DW: usize,
        const NA: usize,
        const ND: usize,
        const INIT: usize,
        const STEP: usize,
    > Default for WarpMemoryDivergenceBench<LANES, M, PCW, AW, OB, DW, NA, ND, INIT, STEP>
{
    fn default() -> Self {
        let mut uut = WarpMemoryDivergence::default();
        uut.connect_all();
        WarpMemoryDivergenceBench {
            uut,
            model: Model::new(LANES, M, OB, INIT as u8, STEP as u8),
            inputs: WarpInputs {
                addr: vec![0; LANES],
                fill_data: vec![0; LANES],
                ..Default::default()
            },
            hit_percent: 60,
            expected: vec![0; LANES],
            version: 0,
            draining: false,
            drain_end: false,
        }
    }
}

impl<
        const LANES: usize,
        const M: usize,
        const PCW: usize,
        const AW: usize,
        const OB: usize,
        const DW: usize,
        const NA: usize,
        const ND: usize,
        const INIT: usize,
        const STEP: usize,
    > WarpMemoryDivergenceBench<LANES, M, PCW, AW, OB, DW, NA, ND, INIT, STEP>
{
    pub fn apply(&mut self, i: WarpInputs) {
        self.uut.reset.next = i.reset;
        self.uut.branch_mask.next = i.branch_mask.into();
        self.uut.op.next = i.op;
        self.uut.pc.next = i.pc.into();
        self.uut.hit_mask.next = i.hit_mask.into();
        self.uut.addr.next = bits_from_rows(&i.addr, AW);
        self.uut.reconverge.next = i.reconverge;
        self.uut.fill.next = i.fill;
        self.uut.fill_addr.next = i.fill_addr.into();
        self.uut.fill_data.next = bits_from_rows(&i.fill_data, DW);
        self.uut.raise.next = i.raise;
        self.uut.lower.next = i.lower;
        self.inputs = i;
    }

    /// The address lane `c` waits on, if any.
    fn pending(&self, c: usize) -> Option<u64> {
        self.model
            .mcb
            .iter()
            .find(|e| e.waiting >> c & 1 == 1)
            .map(|e| e.addr[c])
    }

    /// A fill of `line` with every lane's word as the fill crossbar would extract it.
    pub fn fill_inputs(&mut self, line: u64, i: &mut WarpInputs) {
        self.version += 1;
        i.fill = true;
        i.fill_addr = line;
        i.fill_data = (0..LANES)
            .map(|c| memory_word(self.pending(c).unwrap_or(i.addr[c]), self.version, DW))
            .collect();
    }
}

impl<
        const LANES: usize,
        const M: usize,
        const PCW: usize,
        const AW: usize,
        const OB: usize,
        const DW: usize,
        const NA: usize,
        const ND: usize,
        const INIT: usize,
        const STEP: usize,
    > Bench for WarpMemoryDivergenceBench<LANES, M, PCW, AW, OB, DW, NA, ND, INIT, STEP>
{
    crate::bench_rtl_access!(clocked);
    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        let lanes = ones(LANES);
        let phase = cycle % DRAIN_EVERY;
        self.draining = cycle > 0 && phase >= DRAIN_EVERY - (2 * LANES as u64 + 8);
        self.drain_end = cycle > 0 && phase == DRAIN_EVERY - 1;
        let lines = 6u64;
        let addr: Vec<u64> = (0..LANES)
            .map(|_| {
                ((0x40 + (rng.gen_range(0..lines) << OB)) | rng.gen_range(0..1u64 << OB)) & ones(AW)
            })
            .collect();
        let pending: Vec<u64> = (0..LANES).filter_map(|c| self.pending(c)).collect();
        // Three load PCs fill a small MDT; with an entry per lane, more PCs than entries
        // (each a different load, as in a kernel with many load PCs).
        let pcs = if M >= LANES { LANES as u64 + 2 } else { 3 };
        let mut i = WarpInputs {
            reset: cycle == 0 || rng.gen_ratio(1, 20_000),
            branch_mask: if rng.gen_bool(0.9) {
                lanes
            } else {
                rng.gen::<u64>() & lanes
            },
            op: !self.draining && rng.gen_bool(0.5),
            pc: (0x10 + 4 * rng.gen_range(0..pcs)) & ones(PCW),
            hit_mask: (0..LANES).fold(0, |m, c| {
                m | (u64::from(rng.gen_ratio(self.hit_percent, 100)) << c)
            }),
            addr,
            reconverge: if self.draining {
                pending.is_empty()
            } else {
                rng.gen_ratio(1, 40)
            },
            fill_data: vec![0; LANES],
            raise: rng.gen_ratio(1, 100),
            lower: rng.gen_ratio(1, 90),
            ..Default::default()
        };
        if !pending.is_empty() && (self.draining || rng.gen_bool(0.3)) {
            let line = pending[rng.gen_range(0..pending.len())];
            self.fill_inputs(line, &mut i);
        } else if rng.gen_bool(0.05) {
            let line = i.addr[0];
            self.fill_inputs(line, &mut i);
        }
        self.apply(i);
    }
    fn check(&mut self) -> Result<(), Mismatch> {
        let i = &self.inputs;
        let want = self.model.outputs(i);
        expect("active", want.active, small(self.uut.active.val()))?;
        expect("block", want.block, self.uut.block.val())?;
        expect(
            "release_mask",
            want.release_mask,
            small(self.uut.release_mask.val()),
        )?;
        let rdata: Vec<u64> = fields_from_bits(self.uut.release_data.val(), DW)
            .into_iter()
            .map(|v| v as u64)
            .collect();
        expect("release_data", &want.release_data, &rdata)?;
        expect("waiting", want.waiting, small(self.uut.waiting.val()))?;
        expect("ready", want.ready, small(self.uut.ready.val()))?;
        expect(
            "slip_limit",
            want.slip_limit,
            small(self.uut.slip_limit.val()),
        )?;
        expect(
            "max_slip",
            want.max_slip as u64,
            small(self.uut.max_slip.val()),
        )?;
        expect("mdt_valid", want.mdt_valid, small(self.uut.mdt_valid.val()))?;
        contract(
            "a thread is never both active and waiting",
            want.active & want.waiting == 0,
            || format!("{:x}", want.active & want.waiting),
        )?;
        let mcb = self
            .model
            .mcb
            .iter()
            .fold(0, |m, e| m | e.waiting | e.ready);
        contract(
            "MDT bitmasks == MCB threads waiting or ready",
            mcb == want.waiting,
            || format!("mdt {:x} mcb {mcb:x}", want.waiting),
        )?;
        let slip_forbid = want.slip_limit & i.branch_mask != 0;
        contract(
            "an MDT of an entry per lane never refuses for want of an entry",
            M < LANES || !want.block || slip_forbid || want.active & i.hit_mask == 0,
            || {
                format!(
                    "M {M}, {LANES} lanes: refused with entries {:x}",
                    want.mdt_valid
                )
            },
        )?;
        contract(
            "a warp at the slip limit issues no divergent memory op",
            !(want.slip_limit & i.branch_mask != 0 && want.target.is_some()),
            || format!("limit {:x}, op merged or allocated", want.slip_limit),
        )?;
        for (c, (&got, &line)) in rdata.iter().zip(&self.expected).enumerate().take(LANES) {
            if want.release_mask >> c & 1 == 1 {
                contract(
                    "a released thread's data is its line's value at the fill",
                    got == line,
                    || format!("lane {c}: {got:x}, line returned {line:x}"),
                )?;
            }
        }
        Ok(())
    }
    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs.clone();
        let out = self.model.outputs(&i);
        let x = out.active & !i.hit_mask;
        for e in &self.model.mcb {
            let mi = weft_sim::dom::mcb_entry::McbInputs {
                capture: out.target.is_some(),
                capture_mask: x,
                addr_in: i.addr.clone(),
                fill: i.fill,
                fill_addr: i.fill_addr,
                fill_data: i.fill_data.clone(),
                ..Default::default()
            };
            let wake = e.woken(&mi) & (e.waiting | if out.target.is_some() { x } else { 0 });
            for c in 0..LANES {
                if wake >> c & 1 == 1 {
                    self.expected[c] = i.fill_data[c];
                }
            }
        }
        self.model.clock(&i);
        if self.drain_end && !i.reset {
            contract(
                "no thread lost: after filling every line and forcing reconvergence nothing waits",
                self.model.mdt.waiting() == 0,
                || format!("still waiting {:x}", self.model.mdt.waiting()),
            )?;
        }
        Ok(())
    }
}
