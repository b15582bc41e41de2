//! MDT bench: RTL vs model, with the table's contracts.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::dom::mdt::Mdt;
use weft_sim::dom::mdt::Mdt as Model;
use weft_sim::dom::ones;

#[derive(Clone, Debug, Default)]
pub struct MdtInputs {
    pub reset: bool,
    pub access: bool,
    pub pc: u64,
    pub miss: u64,
    pub forbid: bool,
    pub release: u64,
}

pub struct MdtBench<const LANES: usize, const M: usize, const PCW: usize> {
    pub uut: Mdt<LANES, M, PCW>,
    pub model: Model,
    pub inputs: MdtInputs,
}

impl<const LANES: usize, const M: usize, const PCW: usize> crate::presets::Tested
    for Mdt<LANES, M, PCW>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![("LANES", LANES), ("M", M), ("PCW", PCW)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(MdtBench::<LANES, M, PCW>::default())
    }
    /// The harness reads the registers of up to four entries.
    fn properties() -> Option<crate::presets::Properties> {
        (M <= 4).then_some(crate::presets::Properties {
            harness: include_str!("mdt.props.v"),
            planted: PLANTED,
        })
    }
}

/// Bugs planted in the exported Verilog (of `mdt`), each caught by the property named.
const PLANTED: &[(&str, &str, &str)] = &[
    // No merge: a PC already held allocates a second entry.
    (
        "p_inv_pcs_unique",
        "target_now = match_entry;",
        "target_now = free_pick;",
    ),
    // Entry 0, while in use, also takes the misses of an access accepted into another
    // entry: a thread in two entries. (A merge that also writes the lowest free entry
    // would duplicate the PC: the invariant's bug.)
    (
        "p_masks_disjoint",
        "entry_mask$0$d = entry_mask$0$q & ~release_mask;",
        "entry_mask$0$d = (entry_mask$0$q & ~release_mask)\n            | (accept & |entry_mask$0$q ? miss_mask : zero_lanes);",
    ),
    // Entry 0 ignores a release on the edge it is written: released threads kept.
    (
        "p_no_thread_lost",
        "entry_mask$0$d = (entry_mask$0$q & ~release_mask) | miss_mask;",
        "entry_mask$0$d = entry_mask$0$q | miss_mask;",
    ),
    // `full` is never raised.
    ("p_state_outputs", "full = ~any_free;", "full = 1'b0;"),
    // `forbid` is ignored.
    (
        "p_accept_rule",
        "accept = want & ~forbid & (matched | any_free);",
        "accept = want & (matched | any_free);",
    ),
    // A free entry 0 is reported as entry 1.
    (
        "p_target_rule",
        "free_pick = onehot$0;",
        "free_pick = onehot$1;",
    ),
    // A merge into entry 1 replaces the threads it holds with the new misses. (Entry 1
    // keeping its old PC when allocated could duplicate a PC: the invariant's bug.)
    (
        "p_entry_update",
        "entry_mask$1$d = (entry_mask$1$q & ~release_mask) | miss_mask;",
        "entry_mask$1$d = miss_mask;",
    ),
    // Reset does not empty entry 1.
    (
        "p_reset_empties",
        "entry_mask$1$d = zero_lanes;",
        "entry_mask$1$d = entry_mask$1$q;",
    ),
];

impl<const LANES: usize, const M: usize, const PCW: usize> Default for MdtBench<LANES, M, PCW> {
    fn default() -> Self {
        let mut uut = Mdt::default();
        uut.connect_all();
        MdtBench {
            uut,
            model: Model::new(M),
            inputs: MdtInputs::default(),
        }
    }
}

impl<const LANES: usize, const M: usize, const PCW: usize> MdtBench<LANES, M, PCW> {
    pub fn apply(&mut self, i: MdtInputs) {
        self.uut.reset.next = i.reset;
        self.uut.access.next = i.access;
        self.uut.pc.next = i.pc.into();
        self.uut.miss_mask.next = i.miss.into();
        self.uut.forbid.next = i.forbid;
        self.uut.release_mask.next = i.release.into();
        self.inputs = i;
    }
}

fn onehot(k: Option<usize>) -> u64 {
    k.map_or(0, |k| 1 << k)
}

impl<const LANES: usize, const M: usize, const PCW: usize> Bench for MdtBench<LANES, M, PCW> {
    crate::bench_rtl_access!(clocked);
    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        let lanes = ones(LANES);
        // A few PCs so that merges happen; misses never overlap waiting threads (a
        // thread waits on one op), except rarely, to exercise the plain bit rules.
        let waiting = self.model.waiting();
        let mut miss = rng.gen::<u64>() & lanes;
        if !rng.gen_ratio(1, 20) {
            miss &= !waiting;
        }
        let release = if rng.gen_bool(0.3) {
            waiting & rng.gen::<u64>()
        } else {
            0
        };
        self.apply(MdtInputs {
            reset: cycle == 0 || rng.gen_ratio(1, 1000),
            access: rng.gen_bool(0.5),
            pc: rng.gen_range(0..4u64.min(1 << PCW.min(8))) * 4 % (1 << PCW.min(62)),
            miss,
            forbid: rng.gen_ratio(1, 6),
            release,
        });
    }
    fn check(&mut self) -> Result<(), Mismatch> {
        let i = &self.inputs;
        let d = self.model.decide(i.access, i.pc, i.miss, i.forbid);
        expect("matched", d.match_entry.is_some(), self.uut.matched.val())?;
        expect(
            "match_entry",
            onehot(d.match_entry),
            small(self.uut.match_entry.val()),
        )?;
        expect("match_mask", d.match_mask, small(self.uut.match_mask.val()))?;
        expect("accept", d.accept, self.uut.accept.val())?;
        expect("refuse", d.refuse, self.uut.refuse.val())?;
        expect("target", onehot(d.target), small(self.uut.target.val()))?;
        expect(
            "waiting",
            self.model.waiting(),
            small(self.uut.waiting.val()),
        )?;
        expect("valid", self.model.valid(), small(self.uut.valid.val()))?;
        expect("full", self.model.full(), self.uut.full.val())?;
        contract(
            "refused when forbidden",
            !(i.forbid && self.uut.accept.val()),
            || "accepted a forbidden access".into(),
        )?;
        contract(
            "a PC is held by at most one entry",
            (0..M).all(|a| {
                (0..M).all(|b| {
                    a == b
                        || self.model.masks[a] == 0
                        || self.model.masks[b] == 0
                        || self.model.pcs[a] != self.model.pcs[b]
                })
            }),
            || format!("pcs {:x?} masks {:x?}", self.model.pcs, self.model.masks),
        )?;
        contract(
            "refuse only when the PC is absent and the table full, or forbidden",
            !self.uut.refuse.val() || i.forbid || (d.match_entry.is_none() && self.model.full()),
            || "refused with room".into(),
        )
    }
    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs.clone();
        let before = self.model.waiting();
        let d = self.model.decide(i.access, i.pc, i.miss, i.forbid);
        self.model
            .clock(i.reset, i.access, i.pc, i.miss, i.forbid, i.release);
        if !i.reset {
            let want = (before & !i.release) | if d.accept { i.miss } else { 0 };
            contract(
                "no thread lost or invented",
                self.model.waiting() == want,
                || format!("waiting {:x}, expected {want:x}", self.model.waiting()),
            )?;
        }
        Ok(())
    }
}
