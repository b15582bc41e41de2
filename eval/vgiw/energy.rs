//! The energy model of the VGIW study (VGIW paper §4-5, Figs. 9-10): a run's event
//! counts times an energy per event, on the SIMT core (`fermi`) and on the VGIW engine,
//! summed at the three levels of the paper's Fig. 10:
//!
//! - **core**: SIMT: instruction fetch/decode/schedule (per warp instruction), the
//!   register file (per warp-wide operand read or result write), the ALU, multiplier,
//!   FPU, SFU and load/store operations (per thread); VGIW: the units' operations (per
//!   thread, the same classes and energies), token-buffer writes and reads, switch hops,
//!   the live value cache, the control vector table, reconfigurations;
//! - **die**: the core, the L1 (and private and CTA-shared accesses), the L2 and the
//!   interconnect and memory controller between them;
//! - **system**: the die and DRAM.
//!
//! The energies are the table of `energy.toml` ([`Table::published`]): one entry per
//! event class ([`CLASSES`]) in pJ at its source's node, its source, and whether the
//! figure was checked; one rule scales every on-chip figure to 40 nm. Dynamic energy
//! only: static power and the clock tree are not charged, so a slower run pays nothing
//! for its extra cycles (GPUWattch, which the paper extends, models both).
//!
//! Energy efficiency is work over energy; both machines run the same kernel over the
//! same launch, so VGIW's efficiency over the SIMT core's is the SIMT energy over the
//! VGIW energy ([`efficiency`]). [`sensitivity`] gives that ratio with each class's
//! energy halved and doubled. A run's events are what a study records ([`Breakdown`]
//! serialises its events, not their prices); [`Breakdown::priced`] charges them under
//! a table, so a page renders from recorded events under today's table.
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use weft_sim::core::dataflow::engine::Stats as VgiwStats;
use weft_sim::core::machine::Machine;
use weft_sim::core::simt::stats::Operations;
use weft_sim::core::simt::Stats as SimtStats;

/// The published table: `energy.toml`.
pub const TABLE: &str = include_str!("energy.toml");

/// Every event class the model charges; the table must give each one, and no other.
pub const CLASSES: &[&str] = &[
    "int_alu",
    "int_mul",
    "fpu",
    "sfu",
    "ldst",
    "fetch_decode",
    "rf_64bit",
    "token_buffer",
    "switch_hop",
    "lvc_64bit",
    "cvt_bit",
    "reconfiguration",
    "l1_64bit",
    "l2_64bit",
    "interconnect_bit",
    "dram_64bit",
];

/// The scaling rule to the target node.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Scaling {
    pub target_nm: f64,
    /// The rule in words (E ~ C V^2, which factor).
    pub rule: String,
}

/// One event class's energy and where it comes from.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// pJ per event at `node_nm`.
    pub pj: f64,
    pub node_nm: f64,
    /// Off-chip (DRAM): not scaled by the logic node.
    pub off_chip: bool,
    pub per: String,
    pub source: String,
    /// The figure itself was read in a source (the note says where).
    pub verified: bool,
    pub note: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    scaling: Scaling,
    class: BTreeMap<String, Entry>,
}

/// The energy table: per class, pJ per event.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub scaling: Scaling,
    pub entries: BTreeMap<String, Entry>,
}

impl Table {
    /// Reads a table in `energy.toml`'s format: every class of [`CLASSES`] exactly once,
    /// no other key, energies and nodes finite and not negative.
    pub fn parse(text: &str) -> Result<Table, String> {
        let file: File = toml::from_str(text).map_err(|e| format!("energy table: {e}"))?;
        let t = file.scaling.target_nm;
        if !(t.is_finite() && t > 0.0) {
            return Err(format!(
                "energy table: scaling.target_nm = {t}: must be a positive node in nm"
            ));
        }
        for name in file.class.keys() {
            if !CLASSES.contains(&name.as_str()) {
                return Err(format!(
                    "energy table: unknown event class `{name}` (classes: {})",
                    CLASSES.join(", ")
                ));
            }
        }
        for &c in CLASSES {
            let e = file
                .class
                .get(c)
                .ok_or_else(|| format!("energy table: no entry for event class `{c}`"))?;
            if !e.pj.is_finite() || e.pj < 0.0 {
                return Err(format!(
                    "energy table: class `{c}`: pj = {} is negative or not a number",
                    e.pj
                ));
            }
            if !(e.node_nm.is_finite() && e.node_nm > 0.0) {
                return Err(format!(
                    "energy table: class `{c}`: node_nm = {} must be a positive node in nm",
                    e.node_nm
                ));
            }
        }
        Ok(Table {
            scaling: file.scaling,
            entries: file.class,
        })
    }

    /// The table of `energy.toml`.
    pub fn published() -> Result<Table, String> {
        Table::parse(TABLE)
    }

    /// The factor class `class`'s figure is scaled by: target / node on chip, 1 off chip.
    pub fn factor(&self, class: &str) -> f64 {
        let e = self.entry(class);
        if e.off_chip {
            1.0
        } else {
            self.scaling.target_nm / e.node_nm
        }
    }

    /// pJ per event of `class` at the target node.
    pub fn pj(&self, class: &str) -> f64 {
        self.entry(class).pj * self.factor(class)
    }

    fn entry(&self, class: &str) -> &Entry {
        // Every class of CLASSES is present (checked by `parse`); a name outside them is
        // a bug of this file.
        self.entries
            .get(class)
            .unwrap_or_else(|| panic!("internal: no event class `{class}`"))
    }

    /// The table with class `class`'s energy multiplied by `by`.
    pub fn with_scaled(&self, class: &str, by: f64) -> Table {
        let mut t = self.clone();
        if let Some(e) = t.entries.get_mut(class) {
            e.pj *= by;
        }
        t
    }
}

/// The levels of the paper's Fig. 10, each including the one before.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Core,
    Die,
    System,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Core, Level::Die, Level::System];

    pub fn name(self) -> &'static str {
        match self {
            Level::Core => "core",
            Level::Die => "die",
            Level::System => "system",
        }
    }
}

/// One charged event class of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// The part of the machine it belongs to (Fig. 10's breakdown: "register file",
    /// "token buffers", "L2"...).
    pub part: String,
    pub class: String,
    /// The level that first includes it.
    pub level: Level,
    /// Events, in the class's unit (64-bit accesses, bits, operations...).
    pub events: f64,
    /// pJ per event at the target node (not recorded: [`Breakdown::priced`] sets it).
    #[serde(skip)]
    pub pj_per_event: f64,
}

impl Item {
    /// Its energy in pJ.
    pub fn pj(&self) -> f64 {
        self.events * self.pj_per_event
    }
}

/// A run's energy by class, part and level.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Breakdown {
    pub items: Vec<Item>,
    /// The run's thread instructions (its own count: RV32 instructions on the SIMT
    /// core, lowered operations on VGIW).
    pub thread_instructions: u64,
}

impl Breakdown {
    /// The energy (pJ) at `level`: every item of that level and the ones inside it.
    pub fn level(&self, level: Level) -> f64 {
        self.items
            .iter()
            .filter(|i| i.level <= level)
            .map(Item::pj)
            .sum()
    }

    /// The energy (pJ) of the part `part`.
    pub fn part(&self, part: &str) -> f64 {
        self.items
            .iter()
            .filter(|i| i.part == part)
            .map(Item::pj)
            .sum()
    }

    /// The parts in order, each with its energy.
    pub fn parts(&self) -> Vec<(&str, Level, f64)> {
        let mut out: Vec<(&str, Level, f64)> = vec![];
        for i in &self.items {
            match out.iter_mut().find(|(p, _, _)| *p == i.part) {
                Some(o) => o.2 += i.pj(),
                None => out.push((&i.part, i.level, i.pj())),
            }
        }
        out
    }

    /// The same events charged under table `t`; a class `t` does not give is refused
    /// (recorded events of an older table).
    pub fn priced(&self, t: &Table) -> Result<Breakdown, String> {
        let mut b = self.clone();
        for i in &mut b.items {
            if !t.entries.contains_key(&i.class) {
                return Err(format!(
                    "recorded event class `{}` is not in the energy table",
                    i.class
                ));
            }
            i.pj_per_event = t.pj(&i.class);
        }
        Ok(b)
    }

    fn add(&mut self, t: &Table, part: &str, level: Level, class: &str, events: f64) {
        self.items.push(Item {
            part: part.into(),
            class: class.into(),
            level,
            events,
            pj_per_event: t.pj(class),
        });
    }

    fn operations(&mut self, t: &Table, part: &str, o: &Operations) {
        for (class, n) in [
            ("int_alu", o.alu),
            ("int_mul", o.mul),
            ("fpu", o.fpu),
            ("sfu", o.sfu),
            ("ldst", o.memory),
        ] {
            self.add(t, part, Level::Core, class, n as f64);
        }
    }

    /// The die and system levels both machines share: the L2 (`l2` line accesses, the
    /// L1's write-backs among its stores), the interconnect carrying those lines, DRAM.
    fn below_l1(&mut self, t: &Table, m: &Machine, l2: u64, dram_bytes: u64) {
        let line_words = f64::from(m.keys().l1_line) / 8.0;
        self.add(t, "L2", Level::Die, "l2_64bit", l2 as f64 * line_words);
        self.add(
            t,
            "interconnect/MC",
            Level::Die,
            "interconnect_bit",
            l2 as f64 * f64::from(m.keys().l1_line) * 8.0,
        );
        self.add(
            t,
            "DRAM",
            Level::System,
            "dram_64bit",
            dram_bytes as f64 / 8.0,
        );
    }
}

/// Line transfers below the L1: L2 loads and stores (write-backs are L2 stores), or the
/// DRAM's reads and writes on a machine without an L2.
fn below_l1_lines(
    m: &Machine,
    l2: &weft_sim::core::memory::CacheStats,
    reads: u64,
    writes: u64,
) -> u64 {
    if m.keys().l2_kb > 0 {
        l2.loads + l2.stores + l2.writebacks
    } else {
        reads + writes
    }
}

/// The energy of a SIMT run `s` on machine `m`.
pub fn simt(t: &Table, s: &SimtStats, m: &Machine) -> Breakdown {
    let mut b = Breakdown {
        items: vec![],
        thread_instructions: s.thread_instructions,
    };
    // A warp-wide access moves 32 bits per lane.
    let warp_words = f64::from(m.keys().lanes) * 32.0 / 64.0;
    let line_words = f64::from(m.keys().l1_line) / 8.0;
    b.add(
        t,
        "fetch/decode/schedule",
        Level::Core,
        "fetch_decode",
        s.warp_instructions as f64,
    );
    b.add(
        t,
        "register file",
        Level::Core,
        "rf_64bit",
        (s.register_reads + s.register_writes) as f64 * warp_words,
    );
    b.operations(t, "ALU/FPU/SFU", &s.operations);
    let lines = s.l1.loads + s.l1.stores + s.l1.writebacks;
    let scratch = s.private_accesses + s.shared_accesses;
    b.add(
        t,
        "L1",
        Level::Die,
        "l1_64bit",
        lines as f64 * line_words + scratch as f64 * warp_words,
    );
    let l2 = below_l1_lines(m, &s.l2, s.dram.reads, s.dram.writes);
    b.below_l1(t, m, l2, s.dram.bytes);
    b
}

/// The energy of a VGIW engine run `s` on machine `m`.
pub fn vgiw(t: &Table, s: &VgiwStats, m: &Machine) -> Breakdown {
    let mut b = Breakdown {
        items: vec![],
        thread_instructions: s.thread_instructions,
    };
    let line_words = f64::from(m.keys().l1_line) / 8.0;
    b.operations(t, "units", &s.operations);
    b.add(
        t,
        "token buffers",
        Level::Core,
        "token_buffer",
        (s.token_writes + s.token_reads) as f64,
    );
    b.add(
        t,
        "switches",
        Level::Core,
        "switch_hop",
        s.switch_hops as f64,
    );
    b.add(
        t,
        "LVC",
        Level::Core,
        "lvc_64bit",
        (s.lvc_reads + s.lvc_writes) as f64,
    );
    b.add(
        t,
        "CVT",
        Level::Core,
        "cvt_bit",
        (s.cvt_reads + s.cvt_writes) as f64,
    );
    b.add(
        t,
        "reconfiguration",
        Level::Core,
        "reconfiguration",
        s.reconfigurations as f64,
    );
    // One word per thread access (no coalescing); write-backs move lines.
    let words = s.l1.loads + s.l1.stores + s.private_accesses + s.shared_accesses;
    b.add(
        t,
        "L1",
        Level::Die,
        "l1_64bit",
        words as f64 + s.l1.writebacks as f64 * line_words,
    );
    // The live value cache's spills and misses are L2 line accesses too.
    let l2 =
        below_l1_lines(m, &s.l2, s.dram.reads, s.dram.writes) + s.lvc_spills + s.lvc_read_misses;
    b.below_l1(t, m, l2, s.dram.bytes);
    b
}

/// VGIW's energy efficiency over the SIMT core's at each level ([`Level::ALL`]): the
/// same work, so the SIMT energy over the VGIW energy.
pub fn efficiency(simt: &Breakdown, vgiw: &Breakdown) -> Result<[f64; 3], String> {
    let mut out = [0.0; 3];
    for (k, level) in Level::ALL.into_iter().enumerate() {
        let v = vgiw.level(level);
        if v <= 0.0 {
            return Err(format!(
                "the VGIW run has no {} energy: no efficiency ratio",
                level.name()
            ));
        }
        out[k] = simt.level(level) / v;
    }
    Ok(out)
}

/// The efficiency ratio with one class's energy changed.
#[derive(Clone, Debug, PartialEq)]
pub struct Sensitivity {
    pub class: &'static str,
    /// [`efficiency`] with the class's energy halved, and doubled (per level).
    pub half: [f64; 3],
    pub double: [f64; 3],
}

/// Per class of [`CLASSES`], the efficiency ratio of the events of `simt` and `vgiw`
/// charged under `t` with the class's energy halved and doubled.
pub fn sensitivity(
    t: &Table,
    simt: &Breakdown,
    vgiw: &Breakdown,
) -> Result<Vec<Sensitivity>, String> {
    let under = |t: &Table| efficiency(&simt.priced(t)?, &vgiw.priced(t)?);
    CLASSES
        .iter()
        .map(|&class| {
            Ok(Sensitivity {
                class,
                half: under(&t.with_scaled(class, 0.5))?,
                double: under(&t.with_scaled(class, 2.0))?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_sim::core::memory::{CacheStats, DramStats};
    use weft_sim::core::simt::divergence::DivergenceStats;
    use weft_sim::core::simt::stats::Stalls;

    /// A table with round energies at 40 nm (factor 1), except `fetch_decode` given at
    /// 80 nm (halved by the rule) and DRAM given at 45 nm off chip (not scaled).
    fn table_text(skip: &str, extra: &str) -> String {
        let pj = [
            ("int_alu", 1.0),
            ("int_mul", 2.0),
            ("fpu", 3.0),
            ("sfu", 4.0),
            ("ldst", 5.0),
            ("fetch_decode", 20.0),
            ("rf_64bit", 0.5),
            ("token_buffer", 0.25),
            ("switch_hop", 0.75),
            ("lvc_64bit", 6.0),
            ("cvt_bit", 0.125),
            ("reconfiguration", 100.0),
            ("l1_64bit", 7.0),
            ("l2_64bit", 8.0),
            ("interconnect_bit", 0.01),
            ("dram_64bit", 20.0),
        ];
        let mut s = String::from("[scaling]\ntarget_nm = 40.0\nrule = \"linear\"\n");
        for (c, e) in pj {
            if c == skip {
                continue;
            }
            let node = match c {
                "fetch_decode" => 80.0,
                "dram_64bit" => 45.0,
                _ => 40.0,
            };
            s += &format!(
                "[class.{c}]\npj = {e}\nnode_nm = {node}\noff_chip = {}\nper = \"x\"\nsource = \"x\"\nverified = false\nnote = \"x\"\n",
                c == "dram_64bit"
            );
            if c == "int_alu" {
                s += extra;
            }
        }
        s
    }

    fn table() -> Table {
        Table::parse(&table_text("", "")).unwrap()
    }

    fn simt_stats() -> SimtStats {
        SimtStats {
            cycles: 10,
            thread_instructions: 17,
            warp_instructions: 3,
            register_reads: 4,
            register_writes: 2,
            operations: Operations {
                alu: 10,
                mul: 1,
                fpu: 2,
                sfu: 1,
                memory: 3,
            },
            ipc: 1.7,
            simd_utilisation: 0.2,
            active_threads_per_warp: 5.7,
            active_lanes_histogram: vec![0; 33],
            idle_cycles: 0,
            idle_fraction: 0.0,
            stalls: Stalls::default(),
            private_accesses: 1,
            shared_accesses: 0,
            memory_thread_instructions: 3,
            l1: CacheStats {
                loads: 2,
                stores: 1,
                ..CacheStats::default()
            },
            l2: CacheStats {
                loads: 1,
                stores: 1,
                ..CacheStats::default()
            },
            dram: DramStats {
                reads: 1,
                bytes: 64,
                ..DramStats::default()
            },
            dram_bytes_per_cycle: 6.4,
            dram_bandwidth_used: 0.5,
            divergence: DivergenceStats::Pdom,
            ctas_per_core: 1,
        }
    }

    fn vgiw_stats() -> VgiwStats {
        VgiwStats {
            thread_instructions: 15,
            operations: Operations {
                alu: 8,
                mul: 1,
                fpu: 2,
                sfu: 1,
                memory: 3,
            },
            token_writes: 10,
            token_reads: 8,
            switch_hops: 10,
            lvc_reads: 2,
            lvc_writes: 2,
            lvc_spills: 1,
            cvt_reads: 4,
            cvt_writes: 4,
            reconfigurations: 1,
            l1: CacheStats {
                loads: 3,
                stores: 1,
                writebacks: 1,
                ..CacheStats::default()
            },
            l2: CacheStats {
                loads: 1,
                stores: 2,
                ..CacheStats::default()
            },
            dram: DramStats {
                reads: 2,
                bytes: 128,
                ..DramStats::default()
            },
            ..VgiwStats::default()
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn a_simt_run_is_charged_per_warp_instruction_warp_operand_thread_and_line() {
        let b = simt(&table(), &simt_stats(), &Machine::fermi());
        // By hand on fermi (32 lanes: a warp operand is 16 64-bit words; 128 B lines: 16
        // words, 1024 bits). Fetch: 3 x (20 pJ at 80 nm = 10 at 40 nm).
        let parts = [
            ("fetch/decode/schedule", 30.0),
            ("register file", 6.0 * 16.0 * 0.5),
            ("ALU/FPU/SFU", 10.0 + 2.0 + 6.0 + 4.0 + 15.0),
            // Three line transactions and a private warp access.
            ("L1", (3.0 + 1.0) * 16.0 * 7.0),
            ("L2", 2.0 * 16.0 * 8.0),
            ("interconnect/MC", 2.0 * 1024.0 * 0.01),
            // 64 bytes, off chip: not scaled.
            ("DRAM", 8.0 * 20.0),
        ];
        for (part, pj) in parts {
            assert!(close(b.part(part), pj), "{part}: {} != {pj}", b.part(part));
        }
        let core = 30.0 + 48.0 + 37.0;
        let die = core + 448.0 + 256.0 + 20.48;
        assert!(close(b.level(Level::Core), core));
        assert!(close(b.level(Level::Die), die));
        assert!(close(b.level(Level::System), die + 160.0));
        // Each level is the sum of its parts and the levels inside it.
        for level in Level::ALL {
            let sum: f64 = b.parts().iter().filter(|p| p.1 <= level).map(|p| p.2).sum();
            assert!(close(b.level(level), sum), "{level:?}");
        }
    }

    #[test]
    fn a_vgiw_run_is_charged_per_token_hop_live_value_bit_and_word() {
        let b = vgiw(&table(), &vgiw_stats(), &Machine::vgiw());
        let parts = [
            ("units", 8.0 + 2.0 + 6.0 + 4.0 + 15.0),
            ("token buffers", 18.0 * 0.25),
            ("switches", 10.0 * 0.75),
            ("LVC", 4.0 * 6.0),
            ("CVT", 8.0 * 0.125),
            ("reconfiguration", 100.0),
            // Four thread words and a line written back.
            ("L1", (4.0 + 16.0) * 7.0),
            // Three L2 accesses and the LVC's spill, as lines.
            ("L2", 4.0 * 16.0 * 8.0),
            ("interconnect/MC", 4.0 * 1024.0 * 0.01),
            ("DRAM", 16.0 * 20.0),
        ];
        for (part, pj) in parts {
            assert!(close(b.part(part), pj), "{part}: {} != {pj}", b.part(part));
        }
        let core = 35.0 + 4.5 + 7.5 + 24.0 + 1.0 + 100.0;
        assert!(close(b.level(Level::Core), core));
        assert!(close(b.level(Level::Die), core + 140.0 + 512.0 + 40.96));
        assert!(close(
            b.level(Level::System),
            core + 140.0 + 512.0 + 40.96 + 320.0
        ));
    }

    #[test]
    fn efficiency_is_simt_energy_over_vgiw_energy_and_moves_with_each_class() {
        let t = table();
        let (fermi, vgiw_m) = (Machine::fermi(), Machine::vgiw());
        let (s, v) = (simt_stats(), vgiw_stats());
        let (bs, bv) = (simt(&t, &s, &fermi), vgiw(&t, &v, &vgiw_m));
        let e = efficiency(&bs, &bv).unwrap();
        let want = [115.0 / 172.0, 839.48 / 864.96, 999.48 / 1184.96];
        for k in 0..3 {
            assert!(close(e[k], want[k]), "{k}: {} != {}", e[k], want[k]);
        }
        let rows = sensitivity(&t, &bs, &bv).unwrap();
        assert_eq!(rows.len(), CLASSES.len());
        let row = |c: &str| rows.iter().find(|r| r.class == c).unwrap();
        // Halving the register file takes 24 pJ off the SIMT core (and die, system).
        assert!(close(row("rf_64bit").half[0], 91.0 / 172.0));
        assert!(close(row("rf_64bit").half[2], 975.48 / 1184.96));
        // Doubling reconfiguration adds 100 pJ to VGIW's core.
        assert!(close(row("reconfiguration").double[0], 115.0 / 272.0));
        // DRAM is outside the core: the core ratio does not move.
        assert!(close(row("dram_64bit").double[0], want[0]));
        assert!(close(row("dram_64bit").double[2], 1159.48 / 1504.96));
        // A VGIW run with no energy has no ratio.
        let empty = vgiw(&t, &VgiwStats::default(), &vgiw_m);
        let err = efficiency(&bs, &empty).unwrap_err();
        assert!(err.contains("no core energy"), "{err}");
        // Recorded events (no prices) charged again under the table give the same
        // energies; a class the table lacks is refused.
        let recorded: Breakdown =
            serde_json::from_str(&serde_json::to_string(&bv).unwrap()).unwrap();
        assert!(recorded.items.iter().all(|i| i.pj_per_event == 0.0));
        assert_eq!(recorded.priced(&t).unwrap(), bv);
        let mut odd = recorded;
        odd.items[0].class = "warp_drive".into();
        let err = odd.priced(&t).unwrap_err();
        assert!(err.contains("`warp_drive`"), "{err}");
    }

    #[test]
    fn the_table_refuses_a_missing_class_a_negative_energy_and_unknown_keys() {
        let cases = [
            (table_text("sfu", ""), "no entry for event class `sfu`"),
            (
                table_text("", "").replace("pj = 4\n", "pj = -4\n"),
                "class `sfu`: pj = -4 is negative",
            ),
            (
                table_text("", "colour = \"red\"\n"),
                "unknown field `colour`",
            ),
            (
                table_text("", "").replace("[class.fpu]", "[class.fpuu]"),
                "unknown event class `fpuu`",
            ),
            (
                format!("{}[other]\nx = 1\n", table_text("", "")),
                "unknown field `other`",
            ),
            (
                table_text("", "").replace("target_nm = 40.0", "target_nm = 0.0"),
                "target_nm = 0",
            ),
            (
                table_text("", "").replace("node_nm = 80", "node_nm = -80"),
                "class `fetch_decode`: node_nm = -80",
            ),
            ("[scaling]\ntarget_nm = 40.0\n".to_string(), "missing field"),
        ];
        for (text, want) in cases {
            let err = Table::parse(&text).unwrap_err();
            assert!(err.contains(want), "want `{want}`: {err}");
        }
    }

    /// Prints the published table's figures for kernels of `kernels/vgiw/` on `fermi`
    /// and `vgiw` (`cfd_copy`, `nn`, `bfs`, or the names in `WEFT_ENERGY_KERNELS`,
    /// comma-separated): `cargo test --release -p weft-eval --lib vgiw::energy -- \
    /// --ignored --nocapture`.
    #[test]
    #[ignore]
    fn print_kernel_energies() {
        use weft_sim::core::dataflow::engine;
        use weft_sim::core::functional::Program;
        let t = Table::published().unwrap();
        let names =
            std::env::var("WEFT_ENERGY_KERNELS").unwrap_or_else(|_| "cfd_copy,nn,bfs".into());
        // The kernels build from the project root (`kernels/include/weft.h`).
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        std::env::set_current_dir(&root).unwrap();
        let dir = root.join("kernels/vgiw");
        let (fermi, vgiw_m) = (Machine::fermi(), Machine::vgiw());
        for name in names.split(',') {
            let w = crate::workload::compile(&dir.join(format!("{name}.c"))).unwrap();
            let s = crate::workload::run_to_end(&w, &fermi).unwrap().stats;
            let v = engine::run(Program::new(w.image.clone()), w.launch, &vgiw_m, u64::MAX)
                .unwrap()
                .stats;
            // The counters' identities on a real kernel.
            assert_eq!(s.operations.total(), s.thread_instructions, "{name}");
            assert_eq!(s.operations.memory, s.memory_thread_instructions, "{name}");
            let (o, u) = (&v.operations, &v.unit_operations);
            assert_eq!(o.alu + o.mul + o.fpu, u.alu, "{name}");
            assert_eq!((o.sfu, o.memory), (u.special, u.load_store), "{name}");
            assert_eq!(
                (v.cvt_reads, v.cvt_writes),
                (v.thread_blocks, v.thread_blocks)
            );
            assert_eq!(
                v.token_reads,
                u.alu + u.special + u.live_value + u.load_store,
                "{name}"
            );
            let (bs, bv) = (simt(&t, &s, &fermi), vgiw(&t, &v, &vgiw_m));
            let e = efficiency(&bs, &bv).unwrap();
            // Per thread instruction of the program (the SIMT core's count: the same work
            // on both machines; VGIW's own count of lowered operations is smaller).
            let per = s.thread_instructions as f64;
            println!(
                "\n## {name}: {} threads, {} thread instructions (VGIW: {} operations), cycles fermi {} / vgiw {}",
                w.launch.threads, s.thread_instructions, v.thread_instructions, s.cycles, v.cycles
            );
            println!("| level | fermi pJ/instr | vgiw pJ/instr | VGIW efficiency over fermi |");
            println!("|---|---|---|---|");
            for (k, level) in Level::ALL.into_iter().enumerate() {
                assert!(bs.level(level) > 0.0 && bv.level(level) > 0.0);
                println!(
                    "| {} | {:.2} | {:.2} | {:.2}x |",
                    level.name(),
                    bs.level(level) / per,
                    bv.level(level) / per,
                    e[k]
                );
            }
            for (machine, b) in [("fermi", &bs), ("vgiw", &bv)] {
                let parts: Vec<String> = b
                    .parts()
                    .iter()
                    .map(|(p, _, pj)| format!("{p} {:.2}", pj / per))
                    .collect();
                println!("{machine} parts (pJ/instr): {}", parts.join(", "));
            }
            let rows = sensitivity(&t, &bs, &bv).unwrap();
            let moved: Vec<String> = rows
                .iter()
                .filter(|r| (r.half[2] - e[2]).abs() > 0.01 * e[2])
                .map(|r| format!("{} {:.2}-{:.2}", r.class, r.half[2], r.double[2]))
                .collect();
            println!(
                "system ratio with one class halved-doubled (those moving it over 1%): {}",
                moved.join(", ")
            );
        }
    }

    #[test]
    fn the_published_table_gives_every_class_with_its_source_scaled_to_40_nm() {
        let t = Table::published().unwrap();
        assert_eq!(t.entries.len(), CLASSES.len());
        assert_eq!(t.scaling.target_nm, 40.0);
        for c in CLASSES {
            let e = &t.entries[*c];
            assert!(
                !e.source.is_empty() && !e.per.is_empty() && !e.note.is_empty(),
                "{c}"
            );
            let factor = if e.off_chip { 1.0 } else { 40.0 / e.node_nm };
            assert!(close(t.pj(c), e.pj * factor), "{c}");
        }
        // Horowitz's 45 nm int add, scaled by 40/45.
        assert!(close(t.pj("int_alu"), 0.1 * 40.0 / 45.0));
        assert!(close(t.pj("dram_64bit"), 1300.0));
    }
}
