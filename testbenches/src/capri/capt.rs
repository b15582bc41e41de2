//! CAPT bench (SPEC §3.3): RTL vs model (true LRU by touch time) on random inserts,
//! updates and lookups over a PC pool a little larger than the table.
use crate::bench::{contract, expect, Bench, Mismatch};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::capri::capt::Capt;
use weft_sim::capri::capt::{Capt as Model, History, Op};

#[derive(Clone, Copy, Debug, Default)]
pub struct CaptInputs {
    pub reset: bool,
    pub lookup_pc: u32,
    pub op: u64,
    pub op_pc: u32,
    pub op_adequate: bool,
}

pub struct CaptBench<const ENTRIES: usize, const HISTORY: usize, const HW: usize, const AW: usize> {
    pub uut: Capt<ENTRIES, HISTORY, HW, AW>,
    pub model: Model,
    pub inputs: CaptInputs,
    pool: Vec<u32>,
}

impl<const ENTRIES: usize, const HISTORY: usize, const HW: usize, const AW: usize>
    crate::presets::Tested for Capt<ENTRIES, HISTORY, HW, AW>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![("ENTRIES", ENTRIES), ("HISTORY", HISTORY)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(CaptBench::<ENTRIES, HISTORY, HW, AW>::default())
    }
    /// The harness reads entries 0..7 by name, so presets of up to 8 entries.
    fn properties() -> Option<crate::presets::Properties> {
        (ENTRIES <= 8).then_some(crate::presets::Properties {
            harness: include_str!("capt.props.v"),
            planted: PLANTED,
        })
    }
}

/// Bugs planted in the exported Verilog (of `capt_8`), each caught by the property
/// named.
const PLANTED: &[(&str, &str, &str)] = &[
    // An insert of a held branch allocates a second entry.
    (
        "p_inv_tags_and_ages",
        "alloc = is_insert & ~|op_match;",
        "alloc = is_insert;",
    ),
    // Entry 5 predicts the opposite of its history.
    (
        "p_hit_reports_history",
        "if (|(history$5$q & hist_msb)) begin",
        "if (~|(history$5$q & hist_msb)) begin",
    ),
    // Entry 2, filled while invalid, starts with the opposite history. (Taking another
    // entry than the lowest invalid one would also break the ages' invariant: the
    // contract's recency moves the entry it names.)
    (
        "p_insert_fills_lowest_invalid",
        "history$2$d = hist_init;",
        "history$2$d = ~hist_init;",
    ),
    // Entry 0, filled as the least recently used entry of a full table, starts with the
    // opposite history (its tag and age are right: the invariant holds).
    (
        "p_insert_else_lru",
        "history$0$d = hist_init;",
        "history$0$d = found_free ? hist_init : ~hist_init;",
    ),
    // 1b-Latest: an update of entry 0 to inadequate keeps it adequate.
    (
        "p_update_sets_history",
        "if (mode == mode_latest) begin\n                    history$0$d = hist_zero;",
        "if (mode == mode_latest) begin\n                    history$0$d = hist_one;",
    ),
    // An insert that hits entry 1 resets its history.
    (
        "p_idle_keeps_entries",
        "history$1$d = hist_init;",
        "history$1$d = hist_init;\n            end\n            if (is_insert) begin\n                history$1$d = hist_init;",
    ),
    // Reset leaves entry 4 valid.
    (
        "p_reset_invalidates",
        "valid$4$d = 1'b0;",
        "valid$4$d = valid$4$q;",
    ),
];

pub fn history_of(h: usize) -> History {
    match h {
        0 => History::Latest,
        1 => History::Sticky,
        _ => History::Counter2,
    }
}

impl<const ENTRIES: usize, const HISTORY: usize, const HW: usize, const AW: usize> Default
    for CaptBench<ENTRIES, HISTORY, HW, AW>
{
    fn default() -> Self {
        let mut uut = Capt::default();
        uut.connect_all();
        // Branch PCs: word-aligned, high bits set so the full tag width is compared.
        let pool = (0..ENTRIES as u32 + 4)
            .map(|i| 0x8000_0000 ^ (i.wrapping_mul(0x9e37_79b9) & !3))
            .collect();
        CaptBench {
            uut,
            model: Model::new(ENTRIES, history_of(HISTORY)),
            inputs: CaptInputs::default(),
            pool,
        }
    }
}

impl<const ENTRIES: usize, const HISTORY: usize, const HW: usize, const AW: usize>
    CaptBench<ENTRIES, HISTORY, HW, AW>
{
    pub fn apply(&mut self, i: CaptInputs) {
        self.uut.reset.next = i.reset;
        self.uut.lookup_pc.next = (i.lookup_pc as u64).into();
        self.uut.op.next = i.op.into();
        self.uut.op_pc.next = (i.op_pc as u64).into();
        self.uut.op_adequate.next = i.op_adequate;
        self.inputs = i;
    }

    fn pc(&self, rng: &mut ChaCha8Rng) -> u32 {
        if rng.gen_ratio(1, 20) {
            rng.gen()
        } else {
            self.pool[rng.gen_range(0..self.pool.len())]
        }
    }
}

impl<const ENTRIES: usize, const HISTORY: usize, const HW: usize, const AW: usize> Bench
    for CaptBench<ENTRIES, HISTORY, HW, AW>
{
    crate::bench_rtl_access!(clocked);
    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        let lookup_pc = self.pc(rng);
        let op_pc = self.pc(rng);
        self.apply(CaptInputs {
            reset: cycle == 0 || rng.gen_ratio(1, 2000),
            lookup_pc,
            op: rng.gen_range(0..4),
            op_pc,
            op_adequate: rng.gen_bool(0.4),
        });
    }
    fn check(&mut self) -> Result<(), Mismatch> {
        let (hit, predict) = self.model.lookup(self.inputs.lookup_pc);
        expect("hit", hit, self.uut.hit.val())?;
        expect("predict_adequate", predict, self.uut.predict_adequate.val())?;
        contract("no prediction without a hit", hit || !predict, || {
            "predict on a miss".into()
        })
    }
    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let op = match i.op {
            1 => Op::Insert,
            2 => Op::Update(i.op_adequate),
            _ => Op::None,
        };
        self.model.clock(i.reset, op, i.op_pc);
        let valid: Vec<u32> = self
            .model
            .entries
            .iter()
            .filter(|e| e.valid)
            .map(|e| e.tag)
            .collect();
        for (k, t) in valid.iter().enumerate() {
            contract(
                "no two valid entries with the same tag",
                !valid[k + 1..].contains(t),
                || format!("tag {t:#x} twice"),
            )?;
        }
        Ok(())
    }
}
