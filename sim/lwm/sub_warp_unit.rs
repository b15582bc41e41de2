//! Sub-warp unit model (SPEC §2.1). Cycle semantics: `outputs()` is what the unit
//! presents this cycle; `clock()` applies a rising edge with this cycle's inputs.
use crate::lib::column_compactor::{clear, pick, Group};

/// Breakdown mode, sampled with `load`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Normal,
    Memory,
    Jump,
}

impl Mode {
    /// Decodes the 2-bit `mode` port (3 means normal).
    pub fn from_port(v: u64) -> Mode {
        match v & 3 {
            1 => Mode::Memory,
            2 => Mode::Jump,
            _ => Mode::Normal,
        }
    }
}

/// What the unit presents in one cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubWarp {
    pub valid: bool,
    pub group: Group,
    pub last: bool,
    pub stall: bool,
}

#[derive(Clone, Debug)]
pub struct SubWarpUnit {
    lanes: usize,
    /// The copy of the large warp's mask, one `u64` per row.
    held: Vec<u64>,
    mode: Mode,
}

impl SubWarpUnit {
    pub fn new(lanes: usize, rows: usize) -> Self {
        assert!((1..=64).contains(&lanes), "1..=64 lanes");
        assert!(rows >= 1, "at least one row");
        SubWarpUnit {
            lanes,
            held: vec![0; rows],
            mode: Mode::Normal,
        }
    }

    fn presented(&self) -> Group {
        match self.mode {
            Mode::Memory => {
                let lowest = self.held.iter().position(|&row| row != 0);
                pick(&self.held, self.lanes, |r| Some(r) == lowest)
            }
            Mode::Normal | Mode::Jump => pick(&self.held, self.lanes, |_| true),
        }
    }

    pub fn outputs(&self) -> SubWarp {
        let group = self.presented();
        let valid = group.lanes != 0;
        let mut after = self.held.clone();
        clear(&mut after, &group);
        let last = valid && (self.mode == Mode::Jump || after.iter().all(|&row| row == 0));
        SubWarp {
            valid,
            group,
            last,
            stall: valid && !last,
        }
    }

    /// Rising edge. `mask_in` holds one `u64` per row.
    pub fn clock(&mut self, reset: bool, load: bool, mask_in: &[u64], mode: Mode) {
        if reset {
            self.held.iter_mut().for_each(|row| *row = 0);
            self.mode = Mode::Normal;
        } else if load {
            let lane_bits = if self.lanes == 64 {
                u64::MAX
            } else {
                (1 << self.lanes) - 1
            };
            for (row, &m) in self.held.iter_mut().zip(mask_in) {
                *row = m & lane_bits;
            }
            self.mode = mode;
        } else {
            let group = self.presented();
            if group.lanes != 0 {
                if self.mode == Mode::Jump {
                    self.held.iter_mut().for_each(|row| *row = 0);
                } else {
                    clear(&mut self.held, &group);
                }
            }
        }
    }

    /// The copy of the mask (one `u64` per row).
    pub fn held(&self) -> &[u64] {
        &self.held
    }
}
