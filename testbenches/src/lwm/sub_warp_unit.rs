//! Sub-warp unit bench: RTL vs model with the SPEC §2.1 contracts.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::{bits_from_rows, fields_from_bits, small};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::lwm::sub_warp_unit::SubWarpUnit;
use weft_sim::lib::column_compactor::min_groups;
use weft_sim::lwm::sub_warp_unit::{Mode, SubWarpUnit as Model};

/// Inputs of one cycle.
#[derive(Clone, Debug, Default)]
pub struct SubWarpInputs {
    pub reset: bool,
    pub load: bool,
    pub mask: Vec<u64>,
    pub mode: u64,
}

pub struct SubWarpUnitBench<
    const LANES: usize,
    const ROWS: usize,
    const N: usize,
    const RW: usize,
    const GW: usize,
> {
    pub uut: SubWarpUnit<LANES, ROWS, N, RW, GW>,
    pub model: Model,
    pub inputs: SubWarpInputs,
    /// Load density in percent (how often a new large warp arrives).
    pub load_percent: u32,
    /// Contract bookkeeping for the large warp being broken down.
    loaded: Vec<u64>,
    mode: Mode,
    covered: Vec<u64>,
    emitted: usize,
}

impl<const LANES: usize, const ROWS: usize, const N: usize, const RW: usize, const GW: usize>
    crate::presets::Tested for SubWarpUnit<LANES, ROWS, N, RW, GW>
{
    fn params() -> Vec<(&'static str, usize)> {
        vec![("LANES", LANES), ("ROWS", ROWS)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(SubWarpUnitBench::<LANES, ROWS, N, RW, GW>::default())
    }
    fn properties() -> Option<crate::presets::Properties> {
        // The harness names the compactor's eight row registers.
        (ROWS == 8).then_some(crate::presets::Properties {
            harness: include_str!("sub_warp_unit.props.v"),
            planted: PLANTED,
        })
    }
}

/// The compactor's choice of rows 0 and 1, as exported (the `SWAPPED` bugs' text).
const ROWS_0_1: &str = concat!(
    "pick_row$0 = zero_lanes;\n",
    "        if (row_enable[0] & ~(one_row & row_taken)) begin\n",
    "            pick_row$0 = held$0$q & ~seen;\n",
    "            seen = seen | held$0$q;\n",
    "            row_taken = |held$0$q;\n",
    "        end\n",
    "        left = left | (held$0$q & ~pick_row$0);\n",
    "        pick_row$1 = zero_lanes;\n",
    "        if (row_enable[1] & ~(one_row & row_taken)) begin\n",
    "            pick_row$1 = held$1$q & ~seen;\n",
    "            seen = seen | held$1$q;\n",
    "            row_taken = |held$1$q;\n",
    "        end\n",
    "        left = left | (held$1$q & ~pick_row$1);",
);

/// The same with row 1 chosen before row 0: a lane's thread in row 1 goes before its
/// thread in row 0, and a memory-mode sub-warp takes row 1 before row 0, but every
/// sub-warp still takes one thread of every non-empty column (one whole row in memory
/// mode) and clears exactly what it shows, so the invariants hold.
const ROWS_1_0: &str = concat!(
    "pick_row$1 = zero_lanes;\n",
    "        if (row_enable[1] & ~(one_row & row_taken)) begin\n",
    "            pick_row$1 = held$1$q & ~seen;\n",
    "            seen = seen | held$1$q;\n",
    "            row_taken = |held$1$q;\n",
    "        end\n",
    "        left = left | (held$1$q & ~pick_row$1);\n",
    "        pick_row$0 = zero_lanes;\n",
    "        if (row_enable[0] & ~(one_row & row_taken)) begin\n",
    "            pick_row$0 = held$0$q & ~seen;\n",
    "            seen = seen | held$0$q;\n",
    "            row_taken = |held$0$q;\n",
    "        end\n",
    "        left = left | (held$0$q & ~pick_row$0);",
);

/// Bugs planted in the exported Verilog (of `sub_warp_unit_4x8`), each caught by the
/// property named. A property other than an invariant (`p_inv_*`) is caught by its own
/// clause: its bug leaves the ghost state tied to the registers and the sub-warps
/// counted (`tests/prove.rs` checks that the invariants still hold on it).
const PLANTED: &[(&str, &str, &str)] = &[
    // Presented threads of row 0 are never cleared: the rows held are not the threads
    // left.
    (
        "p_inv_tied",
        "held$0$d = held$0$q & ~pick_row$0;",
        "held$0$d = held$0$q;",
    ),
    // Memory mode packs across rows: a sub-warp can empty two rows.
    (
        "p_inv_counted",
        "compactor$one_row = held_mode$q == mode_memory;",
        "compactor$one_row = 1'b0;",
    ),
    // Every sub-warp carries lane 0, with or without a thread there (its row reads 0).
    (
        "p_held_threads",
        "sub_mask = compactor$group_mask;",
        "sub_mask = compactor$group_mask | {3'b0, compactor$group_valid};",
    ),
    // Memory mode stalls: no sub-warp is shown, nor taken, while threads wait.
    (
        "p_presents_while_pending",
        "compactor$take = ~is_jump;\n        compactor$flush = is_jump;\n        sub_valid = compactor$group_valid;",
        "compactor$take = ~is_jump & ~compactor$one_row;\n        compactor$flush = is_jump;\n        sub_valid = compactor$group_valid & ~compactor$one_row;",
    ),
    // Jump mode takes memory mode's row, then drops the rest.
    (
        "p_jump_one_sub_warp",
        "compactor$one_row = held_mode$q == mode_memory;",
        "compactor$one_row = (held_mode$q == mode_memory) | (held_mode$q == mode_jump);",
    ),
    // Lane 3 reports row 1 when inactive.
    (
        "p_rows_of_inactive_lanes_zero",
        "lane_field = zero_rows;\n        if (pick_row$0[3]) begin",
        "lane_field = row_top$1;\n        if (pick_row$0[3]) begin",
    ),
    // `last` only for jumps.
    (
        "p_last",
        "last = compactor$group_valid & (compactor$group_last | is_jump);",
        "last = compactor$group_valid & is_jump;",
    ),
    (
        "p_stall",
        "stall = compactor$group_valid & ~(compactor$group_last | is_jump);",
        "stall = compactor$group_valid;",
    ),
    // A lane's thread in row 1 goes before its thread in row 0.
    ("p_normal_packs_columns", ROWS_0_1, ROWS_1_0),
    // Normal mode breaks a large warp down as jump mode does: one sub-warp, the rest
    // dropped.
    (
        "p_normal_sub_warps_max_column_popcount",
        "is_jump = held_mode$q == mode_jump;",
        "is_jump = held_mode$q != mode_memory;",
    ),
    // Memory mode takes row 1 before row 0.
    ("p_memory_one_row", ROWS_0_1, ROWS_1_0),
    // A sub-warp is shown every cycle, empty once the threads are done: the breakdown
    // never ends.
    (
        "p_last_within_rows",
        "sub_valid = compactor$group_valid;",
        "sub_valid = 1'b1;",
    ),
];

impl<const LANES: usize, const ROWS: usize, const N: usize, const RW: usize, const GW: usize>
    Default for SubWarpUnitBench<LANES, ROWS, N, RW, GW>
{
    fn default() -> Self {
        let mut uut = SubWarpUnit::default();
        uut.connect_all();
        SubWarpUnitBench {
            uut,
            model: Model::new(LANES, ROWS),
            inputs: SubWarpInputs {
                mask: vec![0; ROWS],
                ..Default::default()
            },
            load_percent: 20,
            loaded: vec![0; ROWS],
            mode: Mode::Normal,
            covered: vec![0; ROWS],
            emitted: 0,
        }
    }
}

impl<const LANES: usize, const ROWS: usize, const N: usize, const RW: usize, const GW: usize>
    SubWarpUnitBench<LANES, ROWS, N, RW, GW>
{
    /// Applies explicit inputs (directed tests use this instead of `drive`).
    pub fn apply(&mut self, inputs: SubWarpInputs) {
        self.uut.reset.next = inputs.reset;
        self.uut.load.next = inputs.load;
        self.uut.mask_in.next = bits_from_rows(&inputs.mask, LANES);
        self.uut.mode.next = inputs.mode.into();
        self.inputs = inputs;
    }

    /// Random active mask: dense, sparse, single-row or empty, so every mode's corner
    /// cases come up.
    fn random_mask(rng: &mut ChaCha8Rng) -> Vec<u64> {
        let lane_bits = if LANES == 64 {
            u64::MAX
        } else {
            (1u64 << LANES) - 1
        };
        let style = rng.gen_range(0..6);
        (0..ROWS)
            .map(|r| match style {
                0 => rng.gen::<u64>() & lane_bits,
                1 => rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>() & lane_bits,
                2 => (rng.gen::<u64>() | rng.gen::<u64>()) & lane_bits,
                3 => (if r == 0 { rng.gen::<u64>() } else { 0 }) & lane_bits,
                4 => {
                    (if rng.gen_bool(0.3) {
                        rng.gen::<u64>()
                    } else {
                        0
                    }) & lane_bits
                }
                _ => 0,
            })
            .collect()
    }
}

impl<const LANES: usize, const ROWS: usize, const N: usize, const RW: usize, const GW: usize> Bench
    for SubWarpUnitBench<LANES, ROWS, N, RW, GW>
{
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        let busy = self.model.outputs().valid;
        // Mostly wait for the breakdown to finish (as fetch would), sometimes load
        // over a running one (load wins over clearing).
        let load = if busy {
            rng.gen_ratio(self.load_percent / 4, 100)
        } else {
            rng.gen_ratio(self.load_percent.max(1), 100)
        };
        self.apply(SubWarpInputs {
            reset: cycle == 0 || rng.gen_ratio(1, 500),
            load,
            mask: Self::random_mask(rng),
            mode: rng.gen_range(0..4),
        });
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let want = self.model.outputs();
        let got_mask = small(self.uut.sub_mask.val());
        let got_rows = fields_from_bits(self.uut.sub_rows.val(), RW);
        expect("sub_valid", want.valid, self.uut.sub_valid.val())?;
        expect("sub_mask", want.group.lanes, got_mask)?;
        expect("sub_rows", &want.group.rows, &got_rows)?;
        expect("last", want.last, self.uut.last.val())?;
        expect("stall", want.stall, self.uut.stall.val())?;
        // Contracts on the RTL's own outputs.
        contract(
            "stall == sub_valid && !last",
            self.uut.stall.val() == (self.uut.sub_valid.val() && !self.uut.last.val()),
            || "stall disagrees".into(),
        )?;
        if self.uut.sub_valid.val() {
            for (c, &row) in got_rows.iter().enumerate() {
                let active = got_mask >> c & 1 == 1;
                contract("inactive lanes carry row 0", active || row == 0, || {
                    format!("lane {c} row {row}")
                })?;
                if active {
                    let r = row;
                    contract(
                        "a presented thread was loaded",
                        self.loaded[r] >> c & 1 == 1,
                        || format!("row {r} lane {c} not in the loaded mask"),
                    )?;
                    contract(
                        "no thread presented twice",
                        self.covered[r] >> c & 1 == 0,
                        || format!("row {r} lane {c} presented again"),
                    )?;
                }
            }
            if self.mode == Mode::Memory {
                let rows: Vec<usize> = (0..LANES)
                    .filter(|c| got_mask >> c & 1 == 1)
                    .map(|c| got_rows[c])
                    .collect();
                contract(
                    "memory mode: one row per sub-warp",
                    rows.windows(2).all(|w| w[0] == w[1]),
                    || format!("rows {rows:?}"),
                )?;
            }
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = &self.inputs;
        let out = self.model.outputs();
        // Contract bookkeeping: conservation and sub-warp count over one breakdown.
        if i.reset {
            self.loaded = vec![0; ROWS];
            self.covered = vec![0; ROWS];
            self.emitted = 0;
        } else if i.load {
            self.loaded = i.mask.iter().map(|&m| m & lane_mask(LANES)).collect();
            self.mode = Mode::from_port(i.mode);
            self.covered = vec![0; ROWS];
            self.emitted = 0;
        } else if out.valid {
            for c in 0..LANES {
                if out.group.lanes >> c & 1 == 1 {
                    self.covered[out.group.rows[c]] |= 1 << c;
                }
            }
            self.emitted += 1;
            if out.last {
                // Conservation and optimality, checked when the breakdown ends.
                let (want, rule) = match self.mode {
                    Mode::Jump => (1, "jump mode emits one sub-warp"),
                    Mode::Normal => (
                        min_groups(&self.loaded, LANES),
                        "normal mode takes max-column-popcount sub-warps",
                    ),
                    Mode::Memory => (
                        self.loaded.iter().filter(|&&r| r != 0).count(),
                        "memory mode takes one sub-warp per non-empty row",
                    ),
                };
                contract(rule, self.emitted == want, || {
                    format!("{} sub-warps, expected {want}", self.emitted)
                })?;
                if self.mode != Mode::Jump {
                    contract(
                        "every loaded thread presented exactly once",
                        self.covered == self.loaded,
                        || format!("presented {:x?}, loaded {:x?}", self.covered, self.loaded),
                    )?;
                }
            }
        }
        self.model
            .clock(i.reset, i.load, &i.mask, Mode::from_port(i.mode));
        Ok(())
    }
}

fn lane_mask(lanes: usize) -> u64 {
    if lanes == 64 {
        u64::MAX
    } else {
        (1 << lanes) - 1
    }
}
