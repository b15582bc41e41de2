//! `weft eval lwm`: the LWM paper's §6 on weft's core and kernels, with the cost of the
//! hardware measured on weft's RTL. Every workload of `kernels/lwm/` runs on the `lwm`
//! machine under each configuration of the paper's Figures 9 and 11-14 (warp size,
//! fetch group, the two LWM optimisations); the page (`lwm.md`), the data (`lwm.json`)
//! and the charts (`lwm-*.svg`) are written to `--out`.
//!
//! Performance is IPC normalised to the baseline (32 warps of 32, round robin). Every
//! configuration runs the same thread instructions (checked), so a normalised IPC is
//! the baseline's cycles over the configuration's.
mod page;
pub mod paper;

use crate::measure::{self, Measured};
use crate::page::Page;
use crate::sweep::Runs;
use crate::workload::Workload;
use crate::Study;
use weft_sim::core::machine::Machine;

pub const NAME: &str = "lwm";

/// Large-warp sizes of Figure 11 and fetch groups of Figure 13 (for 32 lanes).
const WARP_SIZES: [u32; 5] = [32, 64, 128, 256, 512];
const FETCH_GROUPS: [u32; 6] = [1, 2, 4, 8, 16, 32];

/// One machine configuration of the study.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Config {
    pub warp_size: u32,
    pub fetch_group: u32,
    pub memory_opt: bool,
    pub jump_opt: bool,
    /// DRAM of 1-cycle rows and unlimited bandwidth: shows what memory latency costs.
    pub ideal_memory: bool,
}

impl Config {
    pub const fn new(warp_size: u32, fetch_group: u32) -> Config {
        Config {
            warp_size,
            fetch_group,
            memory_opt: true,
            jump_opt: true,
            ideal_memory: false,
        }
    }

    pub fn with_ideal_memory(self) -> Config {
        Config {
            ideal_memory: true,
            ..self
        }
    }

    pub fn with_opts(self, memory_opt: bool, jump_opt: bool) -> Config {
        Config {
            memory_opt,
            jump_opt,
            ..self
        }
    }
}

/// The study: the `lwm` preset's threads on its lanes.
pub struct Lwm {
    threads: u32,
    lanes: u32,
}

impl Default for Lwm {
    fn default() -> Self {
        Lwm::new()
    }
}

impl Lwm {
    pub fn new() -> Lwm {
        let base = Machine::lwm();
        Lwm {
            threads: base.keys().warps * base.keys().warp_size,
            lanes: base.keys().lanes,
        }
    }

    fn warps(&self, c: &Config) -> u32 {
        self.threads / c.warp_size
    }

    /// Warps of `lanes`, all in one fetch group: round robin.
    fn base(&self) -> Config {
        Config::new(self.lanes, self.threads / self.lanes)
    }

    /// Figure 11's warp sizes, scaled to the lanes.
    fn warp_sizes(&self) -> Vec<u32> {
        WARP_SIZES.iter().map(|k| k * self.lanes / 32).collect()
    }

    /// Fetch groups possible with warps of `ws`: the powers of two up to the warp count.
    fn groups_of(&self, ws: u32) -> Vec<u32> {
        FETCH_GROUPS
            .iter()
            .copied()
            .filter(|&g| g <= self.threads / ws)
            .collect()
    }

    /// Large warps of 256 threads (for 32 lanes), round robin.
    fn lwm256(&self) -> Config {
        let ws = 8 * self.lanes;
        Config::new(ws, self.threads / ws)
    }

    /// Figure 9's bars: the baseline, 2Lev8, LWM256, LWM256+2Lev2.
    fn figure9(&self) -> [Config; 4] {
        let l = self.lanes;
        [
            self.base(),
            Config::new(l, 8),
            self.lwm256(),
            Config::new(8 * l, 2),
        ]
    }
}

impl Study for Lwm {
    type Point = Config;
    type Counts = ();

    const NAME: &'static str = NAME;

    fn machine(&self) -> &'static str {
        "lwm"
    }

    fn workloads_dir(&self) -> &'static str {
        "kernels/lwm"
    }

    fn order(&self) -> Vec<&'static str> {
        paper::CLASSES.iter().map(|(name, _, _)| *name).collect()
    }

    /// Figures 9 and 11-14: every warp size with every fetch group, LWM256 without each
    /// optimisation, and the baseline and LWM256 on ideal memory.
    fn points(&self) -> Vec<Config> {
        let mut all = vec![];
        for ws in self.warp_sizes() {
            for g in self.groups_of(ws) {
                all.push(Config::new(ws, g));
            }
        }
        for (memory_opt, jump_opt) in [(false, true), (true, false), (false, false)] {
            all.push(self.lwm256().with_opts(memory_opt, jump_opt));
        }
        all.push(self.base().with_ideal_memory());
        all.push(self.lwm256().with_ideal_memory());
        all
    }

    fn baseline(&self) -> Config {
        self.base()
    }

    fn sets(&self, c: &Config) -> Vec<String> {
        let divergence = if c.warp_size == self.lanes {
            "pdom"
        } else {
            "lwm"
        };
        let mut sets = vec![
            format!("warp_size={}", c.warp_size),
            format!("warps={}", self.warps(c)),
            format!("fetch_group={}", c.fetch_group),
            format!("divergence={divergence}"),
            format!("lwm_memory_opt={}", c.memory_opt),
            format!("lwm_jump_opt={}", c.jump_opt),
        ];
        if c.ideal_memory {
            sets.extend(
                ["dram_row_hit=1", "dram_row_conflict=1", "dram_gbps=1000000"].map(String::from),
            );
        }
        sets
    }

    fn label(&self, c: &Config) -> String {
        let grouped = c.fetch_group < self.warps(c);
        let mut name = match (c.warp_size == self.lanes, grouped) {
            (true, false) => "Baseline".to_string(),
            (true, true) => format!("2Lev{}", c.fetch_group),
            (false, false) => format!("LWM{}", c.warp_size),
            (false, true) => format!("LWM{}+2Lev{}", c.warp_size, c.fetch_group),
        };
        if c.warp_size > self.lanes {
            match (c.memory_opt, c.jump_opt) {
                (true, true) => {}
                (false, true) => name.push_str(" no-mem-opt"),
                (true, false) => name.push_str(" no-jump-opt"),
                (false, false) => name.push_str(" no-opts"),
            }
        }
        if c.ideal_memory {
            name.push_str(" ideal memory");
        }
        name
    }

    fn recorded_keys(&self) -> &'static [&'static str] {
        &[
            "warp_size",
            "warps",
            "fetch_group",
            "lwm_memory_opt",
            "lwm_jump_opt",
        ]
    }

    fn measure(&self, w: &Workload, machine: &Machine) -> Result<Measured, String> {
        measure::simt(w, machine)
    }

    fn page(&self, runs: &Runs<Config>) -> Page {
        page::page(self, runs)
    }
}
