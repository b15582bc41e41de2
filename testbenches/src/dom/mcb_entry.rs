//! MCB entry bench: RTL vs model; a thread's data is its line's value at the fill.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::{bits_from_rows, fields_from_bits, small};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::dom::mcb_entry::McbEntry;
use weft_sim::dom::mcb_entry::{McbEntry as Model, McbInputs};
use weft_sim::dom::ones;

/// The value memory holds at word address `a` in `version` (a line's version moves on
/// at every fill, so a stale capture shows).
pub fn memory_word(a: u64, version: u64, dw: usize) -> u64 {
    (a.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ version.wrapping_mul(0xc2b2_ae3d_27d4_eb4f))
        .rotate_left(17)
        & ones(dw)
}

pub struct McbEntryBench<
    const LANES: usize,
    const AW: usize,
    const OB: usize,
    const DW: usize,
    const NA: usize,
    const ND: usize,
> {
    pub uut: McbEntry<LANES, AW, OB, DW, NA, ND>,
    pub model: Model,
    pub inputs: McbInputs,
    /// Expected data of each ready lane (the value at its fill).
    expected: Vec<u64>,
    version: u64,
}

impl<
        const LANES: usize,
        const AW: usize,
        const OB: usize,
        const DW: usize,
        const NA: usize,
        const ND: usize,
    > crate::presets::Tested for McbEntry<LANES, AW, OB, DW, NA, ND>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![("LANES", LANES), ("AW", AW), ("OB", OB), ("DW", DW)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(McbEntryBench::<LANES, AW, OB, DW, NA, ND>::default())
    }
}

impl<
        const LANES: usize,
        const AW: usize,
        const OB: usize,
        const DW: usize,
        const NA: usize,
        const ND: usize,
    > Default for McbEntryBench<LANES, AW, OB, DW, NA, ND>
{
    fn default() -> Self {
        let mut uut = McbEntry::default();
        uut.connect_all();
        McbEntryBench {
            uut,
            model: Model::new(LANES, OB),
            inputs: McbInputs {
                addr_in: vec![0; LANES],
                fill_data: vec![0; LANES],
                ..Default::default()
            },
            expected: vec![0; LANES],
            version: 0,
        }
    }
}

impl<
        const LANES: usize,
        const AW: usize,
        const OB: usize,
        const DW: usize,
        const NA: usize,
        const ND: usize,
    > McbEntryBench<LANES, AW, OB, DW, NA, ND>
{
    pub fn apply(&mut self, i: McbInputs) {
        self.uut.reset.next = i.reset;
        self.uut.capture.next = i.capture;
        self.uut.capture_mask.next = i.capture_mask.into();
        self.uut.addr_in.next = bits_from_rows(&i.addr_in, AW);
        self.uut.fill.next = i.fill;
        self.uut.fill_addr.next = i.fill_addr.into();
        self.uut.fill_data.next = bits_from_rows(&i.fill_data, DW);
        self.uut.release_en.next = i.release;
        self.uut.release_mask.next = i.release_mask.into();
        self.inputs = i;
    }
}

impl<
        const LANES: usize,
        const AW: usize,
        const OB: usize,
        const DW: usize,
        const NA: usize,
        const ND: usize,
    > Bench for McbEntryBench<LANES, AW, OB, DW, NA, ND>
{
    crate::bench_rtl_access!(clocked);
    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        // Addresses from 4 lines so that one fill wakes several threads.
        let base = rng.gen::<u64>() & ones(AW) & !ones(OB + 2);
        let addr_in: Vec<u64> = (0..LANES)
            .map(|_| {
                (base + (rng.gen_range(0..4u64) << OB) + rng.gen_range(0..1u64 << OB)) & ones(AW)
            })
            .collect();
        let pending: Vec<usize> = (0..LANES)
            .filter(|&c| self.model.waiting >> c & 1 == 1)
            .collect();
        let fill_addr = if !pending.is_empty() && rng.gen_bool(0.8) {
            self.model.addr[pending[rng.gen_range(0..pending.len())]]
        } else {
            addr_in[rng.gen_range(0..LANES)]
        };
        let capture = rng.gen_bool(0.3);
        let capture_mask =
            rng.gen::<u64>() & ones(LANES) & !(self.model.waiting | self.model.ready);
        // The fill crossbar: each lane gets its own word of the line.
        self.version += 1;
        let fill_data = (0..LANES)
            .map(|c| {
                let a = if capture && capture_mask >> c & 1 == 1 {
                    addr_in[c]
                } else {
                    self.model.addr[c]
                };
                memory_word(a, self.version, DW)
            })
            .collect();
        self.apply(McbInputs {
            reset: cycle == 0 || rng.gen_ratio(1, 2000),
            capture,
            capture_mask,
            addr_in,
            fill: rng.gen_bool(0.3),
            fill_addr,
            fill_data,
            release: rng.gen_bool(0.3),
            release_mask: rng.gen::<u64>() & ones(LANES),
        });
    }
    fn check(&mut self) -> Result<(), Mismatch> {
        let i = &self.inputs;
        let m = &self.model;
        expect("waiting", m.waiting, small(self.uut.waiting.val()))?;
        expect("ready", m.ready, small(self.uut.ready.val()))?;
        expect("busy", m.waiting | m.ready != 0, self.uut.busy.val())?;
        let addr: Vec<u64> = fields_from_bits(self.uut.waiting_addr.val(), AW)
            .into_iter()
            .map(|v| v as u64)
            .collect();
        let data: Vec<u64> = fields_from_bits(self.uut.data_q.q.val(), DW)
            .into_iter()
            .map(|v| v as u64)
            .collect();
        let rdata: Vec<u64> = fields_from_bits(self.uut.release_data.val(), DW)
            .into_iter()
            .map(|v| v as u64)
            .collect();
        let want_addr: Vec<u64> = (0..LANES)
            .map(|c| {
                if m.waiting >> c & 1 == 1 {
                    m.addr[c]
                } else {
                    0
                }
            })
            .collect();
        expect("waiting_addr", &want_addr, &addr)?;
        expect("data", &m.data, &data)?;
        expect("release_data", &m.release_data(i), &rdata)?;
        contract(
            "never both waiting and ready",
            m.waiting & m.ready == 0,
            || format!("{:x}", m.waiting & m.ready),
        )?;
        for (c, (&got, &want)) in data.iter().zip(&self.expected).enumerate().take(LANES) {
            if m.ready >> c & 1 == 1 {
                contract(
                    "a ready thread holds its line's value at the fill",
                    got == want,
                    || format!("lane {c}: {got:x}, filled {want:x}"),
                )?;
            }
        }
        Ok(())
    }
    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs.clone();
        let wake = self.model.woken(&i);
        for c in 0..LANES {
            if wake >> c & 1 == 1 {
                let a = if i.capture && i.capture_mask >> c & 1 == 1 {
                    i.addr_in[c]
                } else {
                    self.model.addr[c]
                };
                self.expected[c] = memory_word(a, self.version, DW);
            }
        }
        let before = self.model.waiting;
        self.model.clock(&i);
        if !i.reset && i.fill {
            contract(
                "a returning line wakes every thread waiting on it",
                (0..LANES).all(|c| {
                    !(before >> c & 1 == 1
                        && (self.model.addr[c] ^ i.fill_addr) >> OB == 0
                        && !(i.capture && i.capture_mask >> c & 1 == 1))
                        || self.model.ready >> c & 1 == 1
                }),
                || "a waiting thread on the line stayed waiting".into(),
            )?;
        }
        Ok(())
    }
}
