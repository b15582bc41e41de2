//! The VGIW study's page: the kernels lowered beside Table 2, Fig. 7's speedup with what
//! bounds each kernel on each machine, Figs. 9-10's energy efficiency with the
//! sensitivity to each event class's energy, Fig. 3's live value cache accesses, the
//! reconfiguration share, each difference from the paper with the figures that explain
//! it, and the cost of VGIW's blocks from the report.
use super::measure::{Counts, Dataflow};
use super::{dram_bytes_per_cycle, energy, paper, Point, Row, Vgiw, REPLICA_THREADS, SWITCHES};
use crate::compare;
use crate::cost;
use crate::measure::Measured;
use crate::page::{arithmetic, speedup_bars, speedup_table, table, Page};
use crate::sweep::Runs;
use crate::Study as _;
use energy::{Breakdown, Level, Table};
use serde_json::{json, Map, Value};
use weft_flow::chart::{grouped_bars, Series};
use weft_sim::core::machine::{reader, Machine, Reader, VgiwStoreDone};

/// The VGIW core's unit classes in [`Dataflow::unit_utilisation`]'s order.
const CLASSES: [&str; 6] = ["FPU-ALU", "SCU", "LVU", "LDST", "SJU", "CVU"];

/// A share at or above this is what bounds a run (DRAM time, a class's units busy,
/// reconfiguration time over the cycles).
const BINDS: f64 = 0.5;

/// More threads in flight help a kernel when the most threads per replica run it this
/// much faster than the preset's.
const LATENCY_GAIN: f64 = 1.2;

/// A Fermi run keeps its DRAM busy at this share of its cycles or more.
const DRAM_FULL: f64 = 0.95;

fn dataflow(m: &Measured<Counts>) -> Dataflow {
    m.counts.dataflow.clone()
}

fn f2(x: f64) -> String {
    format!("{x:.2}")
}

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn median(xs: &[f64]) -> Option<f64> {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => None,
        n if n % 2 == 1 => Some(v[n / 2]),
        n => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

/// A kernel's speedup and energy efficiency (core, die, system) at a row of "From weft to
/// the paper".
type Figures = (f64, Option<[f64; 3]>);

/// What one kernel's runs at the preset show.
struct Kernel {
    name: String,
    fermi: Measured<Counts>,
    vgiw: Measured<Counts>,
    /// Speedup at the preset and at the most threads per replica.
    speedup: f64,
    speedup_most_threads: f64,
    /// Energy efficiency (core, die, system), `None` when a run charged nothing.
    efficiency: Option<[f64; 3]>,
    fermi_energy: Breakdown,
    vgiw_energy: Breakdown,
}

impl Kernel {
    fn fermi_flow(&self) -> Dataflow {
        dataflow(&self.fermi)
    }

    fn vgiw_flow(&self) -> Dataflow {
        dataflow(&self.vgiw)
    }

    /// Fermi: warp instructions issued per cycle (one issue slot per cycle).
    fn issue_share(&self) -> f64 {
        self.fermi.warp_instructions as f64 / self.fermi.cycles.max(1) as f64
    }

    /// The DRAM's busy share of a run's cycles on machine `m`.
    fn dram_share(run: &Measured<Counts>, bytes_per_cycle: f64) -> f64 {
        dataflow(run).dram_bytes as f64 / bytes_per_cycle / run.cycles.max(1) as f64
    }

    /// VGIW: the busiest class of units and its utilisation.
    fn busiest(&self) -> (&'static str, f64) {
        let u = self.vgiw_flow().unit_utilisation;
        let k = (0..6).max_by(|&a, &b| u[a].total_cmp(&u[b])).unwrap_or(0);
        (CLASSES[k], u[k])
    }

    fn reconfiguration_share(&self) -> f64 {
        self.vgiw_flow().reconfiguration_cycles as f64 / self.vgiw.cycles.max(1) as f64
    }

    /// VGIW: lowered operations per cycle (the units at work), beside Fermi's thread
    /// instructions per cycle (its lanes at work).
    fn vgiw_operations_per_cycle(&self) -> f64 {
        self.vgiw_flow().operations as f64 / self.vgiw.cycles.max(1) as f64
    }

    /// The VGIW core's speedup over a Fermi SM at its own bound: one warp instruction
    /// per cycle (two schedulers of 16 lanes) or its DRAM share busy every cycle,
    /// whichever takes longer; whatever the SM's scheduling and loads in flight, its
    /// cycles are at least these.
    fn speedup_over_ideal_fermi(&self, bytes_per_cycle: f64) -> f64 {
        let issue = self.fermi.warp_instructions as f64;
        let dram = self.fermi_flow().dram_bytes as f64 / bytes_per_cycle;
        issue.max(dram) / self.vgiw.cycles.max(1) as f64
    }

    fn lvc_over_rf(&self) -> Option<f64> {
        let rf = self.fermi_flow().register_file_accesses;
        (rf > 0).then(|| self.vgiw_flow().lvc_accesses as f64 / rf as f64)
    }

    /// What bounds the VGIW run: the DRAM, a class of units, reconfiguration, or else
    /// the threads in flight when more of them speed it up, else the injection of one
    /// thread per cycle per replica and the drains between block executions.
    fn vgiw_bound(&self, dram_share: f64) -> String {
        let (class, busy) = self.busiest();
        if dram_share >= BINDS {
            "DRAM bandwidth".into()
        } else if busy >= BINDS {
            format!("{class} units")
        } else if self.reconfiguration_share() >= BINDS {
            "reconfiguration".into()
        } else if compare::ahead(self.speedup_most_threads, self.speedup, LATENCY_GAIN) {
            "threads in flight (memory latency)".into()
        } else {
            "injection and drains".into()
        }
    }

    fn fermi_bound(&self, dram_share: f64) -> String {
        if dram_share >= BINDS {
            "DRAM bandwidth".into()
        } else if self.issue_share() >= BINDS {
            "issue".into()
        } else {
            "memory latency".into()
        }
    }
}

fn kernels(study: &Vgiw, runs: &Runs<Point, Counts>, t: &Table) -> Vec<Kernel> {
    let preset = study.preset_point();
    let most = Point::Vgiw {
        replica_threads: *REPLICA_THREADS
            .iter()
            .max()
            .unwrap_or(&study.preset_threads),
    };
    runs.workloads
        .iter()
        .map(|w| {
            let fermi = runs.get(&Point::Fermi, w).clone();
            let vgiw = runs.get(&preset, w).clone();
            let priced = |m: &Measured<Counts>| dataflow(m).energy.priced(t).unwrap_or_default();
            let (fermi_energy, vgiw_energy) = (priced(&fermi), priced(&vgiw));
            Kernel {
                name: w.clone(),
                speedup: runs.speedup(&preset, w),
                speedup_most_threads: runs.speedup(&most, w),
                efficiency: energy::efficiency(&fermi_energy, &vgiw_energy).ok(),
                fermi,
                vgiw,
                fermi_energy,
                vgiw_energy,
            }
        })
        .collect()
}

pub fn page(study: &Vgiw, runs: &Runs<Point, Counts>) -> Page {
    let p = VgiwPage::new(study, runs);
    Page {
        markdown: p.markdown(),
        json: p.json(),
        charts: p.charts(),
    }
}

struct VgiwPage<'a> {
    study: &'a Vgiw,
    runs: &'a Runs<Point, Counts>,
    /// The per-event energies the runs' events are charged at.
    table: Table,
    /// Each kernel's runs at the preset, in the page's order.
    ks: Vec<Kernel>,
    /// The DRAM's bytes per core cycle on the Fermi SM and on the VGIW core.
    fermi_bpc: f64,
    vgiw_bpc: f64,
    /// The report's figures of the blocks (JSON rows).
    cost: Vec<Value>,
}

/// What bounds one kernel, on each machine, at the preset.
struct Bound {
    /// The DRAM's busy share of the Fermi run's and the VGIW run's cycles.
    fermi_dram: f64,
    vgiw_dram: f64,
    /// VGIW's busiest class of units and its utilisation.
    class: &'static str,
    busy: f64,
    fermi: String,
    vgiw: String,
    /// The speedups the VGIW core's busiest units and its DRAM share would allow at 100%
    /// busy: a kernel gains nothing beyond them.
    units_allow: Option<f64>,
    dram_allows: Option<f64>,
}

impl<'a> VgiwPage<'a> {
    fn new(study: &'a Vgiw, runs: &'a Runs<Point, Counts>) -> VgiwPage<'a> {
        let table = Table::published().expect("energy.toml parses (tested)");
        let preset = study.preset_point();
        VgiwPage {
            study,
            runs,
            ks: kernels(study, runs, &table),
            table,
            fermi_bpc: dram_bytes_per_cycle(&runs.points[&Point::Fermi].machine),
            vgiw_bpc: dram_bytes_per_cycle(&runs.points[&preset].machine),
            cost: cost::rows(paper::COST),
        }
    }

    /// The VGIW core's machine at the preset.
    fn vgiw_machine(&self) -> &Machine {
        &self.runs.points[&self.study.preset_point()].machine
    }

    /// The sweep's points (the Fermi SM and the VGIW core at each count of threads in
    /// flight), in the study's order.
    fn sweep_points(&self) -> Vec<Point> {
        self.study
            .points()
            .into_iter()
            .filter(|p| !matches!(p, Point::Row { .. }))
            .collect()
    }

    /// The sweep's VGIW points.
    fn vgiw_points(&self) -> Vec<Point> {
        self.sweep_points()
            .into_iter()
            .filter(|p| *p != Point::Fermi)
            .collect()
    }

    /// The mean over the kernels of `f`.
    fn mean(&self, f: impl Fn(&Kernel) -> f64) -> f64 {
        arithmetic(&self.ks.iter().map(f).collect::<Vec<_>>()).unwrap_or(0.0)
    }

    /// The mean speedup at the preset.
    fn mean_speedup(&self) -> f64 {
        self.mean(|k| k.speedup)
    }

    /// The mean efficiency at level `k` (core, die, system) over the kernels whose runs
    /// charged energy.
    fn level_mean(&self, k: usize) -> Option<f64> {
        arithmetic(
            &self
                .ks
                .iter()
                .filter_map(|x| x.efficiency.map(|e| e[k]))
                .collect::<Vec<_>>(),
        )
    }

    /// The mean LVC accesses over register-file accesses.
    fn lvc_mean(&self) -> f64 {
        let ratios: Vec<f64> = self.ks.iter().filter_map(Kernel::lvc_over_rf).collect();
        arithmetic(&ratios).unwrap_or(0.0)
    }

    /// Reconfiguration's share of the cycles: the mean and the median over the kernels.
    fn reconfiguration_shares(&self) -> (f64, f64) {
        let shares: Vec<f64> = self.ks.iter().map(Kernel::reconfiguration_share).collect();
        (
            arithmetic(&shares).unwrap_or(0.0),
            median(&shares).unwrap_or(0.0),
        )
    }

    fn bound(&self, k: &Kernel) -> Bound {
        let (fermi_dram, vgiw_dram) = (
            Kernel::dram_share(&k.fermi, self.fermi_bpc),
            Kernel::dram_share(&k.vgiw, self.vgiw_bpc),
        );
        let (class, busy) = k.busiest();
        let allow = |share: f64| (share > 0.0).then(|| k.speedup / share);
        Bound {
            fermi_dram,
            vgiw_dram,
            class,
            busy,
            fermi: k.fermi_bound(fermi_dram),
            vgiw: k.vgiw_bound(vgiw_dram),
            units_allow: allow(busy),
            dram_allows: allow(vgiw_dram),
        }
    }

    /// The mean efficiency with each event class's energy halved and doubled, at the
    /// core and the system: (class, [core halved, core doubled, system halved, system
    /// doubled]).
    fn sensitivity(&self) -> Vec<(&'static str, [f64; 4])> {
        let sens: Vec<Vec<energy::Sensitivity>> = self
            .ks
            .iter()
            .filter_map(|k| energy::sensitivity(&self.table, &k.fermi_energy, &k.vgiw_energy).ok())
            .collect();
        energy::CLASSES
            .iter()
            .enumerate()
            .map(|(i, class)| {
                let m = |f: &dyn Fn(&energy::Sensitivity) -> f64| {
                    arithmetic(&sens.iter().map(|s| f(&s[i])).collect::<Vec<_>>()).unwrap_or(0.0)
                };
                (
                    *class,
                    [
                        m(&|s| s.half[0]),
                        m(&|s| s.double[0]),
                        m(&|s| s.half[2]),
                        m(&|s| s.double[2]),
                    ],
                )
            })
            .collect()
    }

    fn markdown(&self) -> String {
        [
            self.intro(),
            self.table2(),
            self.fig7(),
            self.bounds(),
            self.efficiency(),
            self.energy_parts(),
            self.energy_sensitivity(),
            self.fig3(),
            self.reconfiguration(),
            self.weft_to_the_paper(),
            "## Beside the paper, measured\n\n".to_string(),
            self.beside_speedup(),
            self.beside_energy(),
            self.beside_lvc(),
            self.beside_reconfiguration(),
            self.cost_markdown(),
        ]
        .concat()
    }

    fn intro(&self) -> String {
        let (study, runs) = (self.study, self.runs);
        format!(
            "# VGIW against a Fermi SM on weft's machines\n\n\
             The VGIW paper's §5 (Voitsechov and Etsion, MICRO 2015) rerun on weft: every kernel of \
             `kernels/vgiw/` (Rodinia's kernels of the paper's Table 2, written in C with generated \
             inputs: {}) runs from one RV32 binary on one Fermi SM (the `fermi` preset: weft's SIMT core) \
             and on one VGIW core (the `vgiw` preset: weft's paper-scale VGIW engine, the kernel \
             lowered to basic-block dataflow graphs). Every dump of every run equals the native run \
             (tests/vgiw_engine.rs, tests/kernels.rs). Each VGIW point is the `fermi` preset plus its \
             `--set` list in `vgiw.json`; one reproduces with `weft run kernels/vgiw/KERNEL.c \
             --machine vgiw --set vgiw_replica_threads=N`. {} runs in {}.\n\n\
             Speedup is the Fermi SM's cycles over the VGIW core's (both clocked at 1.4 GHz, the same \
             L2 and DRAM share); both run the same RV32 thread instructions (checked), which is the \
             work the energy figures are per. The VGIW core's threads in flight per replica: the \
             preset's {} follow from §3.4 (token buffers 70% smaller than the Fermi SM's 128 KB \
             register file, over 108 units of three-operand entries), and {} are measured beside \
             it.\n\n",
            self.coverage(),
            runs.len(),
            weft_flow::report::duration(runs.seconds),
            study.preset_threads,
            REPLICA_THREADS
                .iter()
                .filter(|&&t| t != study.preset_threads)
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    }

    /// Which of Table 2's kernels the means are over.
    fn coverage(&self) -> String {
        if self.ks.len() == paper::TABLE2_KERNELS {
            format!(
                "weft runs all {} kernels of Table 2, the kernels the paper's means are over",
                paper::TABLE2_KERNELS
            )
        } else {
            format!(
                "weft runs {} of Table 2's {} kernels, so its means are over those {} and the \
                 paper's over all {}",
                self.ks.len(),
                paper::TABLE2_KERNELS,
                self.ks.len(),
                paper::TABLE2_KERNELS
            )
        }
    }

    /// The kernels lowered, beside Table 2.
    fn table2(&self) -> String {
        let ks = &self.ks;
        let mut md = "## The kernels lowered, beside Table 2\n\n".to_string();
        let rows: Vec<Vec<String>> = ks
            .iter()
            .map(|k| {
                let p = paper::KERNELS.iter().find(|p| p.name == k.name);
                let v = k.vgiw_flow();
                vec![
                    k.name.clone(),
                    p.map_or("-".into(), |p| format!("{} {}", p.application, p.kernel)),
                    p.map_or("-".into(), |p| p.blocks.to_string()),
                    v.blocks.to_string(),
                    format!("{} ({})", v.live_values, v.max_block_live_values),
                    v.order_edges.to_string(),
                    k.fermi.thread_instructions.to_string(),
                    f2(v.operations as f64 / k.fermi.thread_instructions.max(1) as f64),
                ]
            })
            .collect();
        md += &table(
            &[
                "kernel".into(),
                "Table 2's kernel".into(),
                "Table 2's blocks".into(),
                "weft's blocks".into(),
                "live values (most per block)".into(),
                "memory-order edges".into(),
                "RV32 thread instructions".into(),
                "lowered operations per RV32 instruction".into(),
            ],
            &rows,
        );
        let more = ks
            .iter()
            .filter(|k| {
                paper::KERNELS
                    .iter()
                    .any(|p| p.name == k.name && u64::from(p.blocks) < k.vgiw_flow().blocks)
            })
            .count();
        md += &format!(
            "\nweft lowers the RV32 binary the SIMT core runs (the paper lowers LLVM's SSA form): \
             {more} of {} kernels have more blocks than Table 2 gives, since weft ends a block at \
             every barrier and clang splits a kernel's entry test from its body; constant loops \
             unrolled by clang have fewer. A memory-order edge keeps an access after an earlier \
             store, or a store after an earlier load, that may alias it, by the preset's rule \
             (`vgiw_alias = {}`: docs/core.md §6; `object` tells apart the data objects the \
             binary's symbols show, as the paper's LLVM alias analysis tells distinct arrays \
             apart).\n\n",
            ks.len(),
            self.vgiw_machine()
                .keys()
                .values()
                .iter()
                .find(|(k, _)| *k == "vgiw_alias")
                .map_or(String::new(), |(_, v)| v.trim_matches('"').to_string())
        );
        md
    }

    /// Fig. 7: the speedup of every point.
    fn fig7(&self) -> String {
        let mut md = format!(
            "## Fig. 7: speedup of a VGIW core over a Fermi SM\n\n\
             The paper: {:.0}x on average, {}x to {:.0}x. Speedup (the Fermi SM's cycles over each \
             point's):\n\n",
            paper::SPEEDUP_MEAN,
            paper::SPEEDUP_RANGE.0,
            paper::SPEEDUP_RANGE.1
        );
        md += &speedup_table(self.runs, &self.sweep_points());
        md += "\n![speedup](vgiw-fig7.svg)\n\n";
        md
    }

    /// What bounds each kernel on each machine, and the mean speedups.
    fn bounds(&self) -> String {
        let (study, runs, ks) = (self.study, self.runs, &self.ks);
        let mut md = format!(
            "## What bounds each kernel\n\n\
             At the preset ({} threads per replica). Fermi: warp instructions issued per cycle (one \
             issue slot), SIMD utilisation, the DRAM's busy share ({:.2} bytes per cycle); VGIW: \
             lowered operations per cycle (108 units), the busiest class of units and its \
             utilisation, the DRAM's busy share, reconfiguration's share of the cycles, L1 accesses \
             that waited for their bank, replicas per block execution; and the speedups the VGIW \
             core's busiest units and its DRAM share would allow if they were busy every cycle (the \
             speedup over their busy share): no kernel gains beyond them, whatever its divergence. \
             A share of at least {:.0}% names the bound; else threads in flight bound a VGIW run when {} per replica run it at \
             least {:.0}% faster, and the injection of one thread per cycle per replica with the \
             drain after every block execution bound the rest. The last column sets the VGIW \
             core beside a Fermi SM at its own bound (one warp instruction per cycle, or its \
             DRAM share busy every cycle).\n\n",
            study.preset_threads,
            self.fermi_bpc,
            100.0 * BINDS,
            REPLICA_THREADS.iter().max().unwrap_or(&0),
            100.0 * (LATENCY_GAIN - 1.0)
        );
        let rows: Vec<Vec<String>> = ks
            .iter()
            .map(|k| {
                let b = self.bound(k);
                let v = k.vgiw_flow();
                let l1 = (k.vgiw.l1_loads + k.vgiw.l1_stores).max(1) as f64;
                vec![
                    k.name.clone(),
                    f2(k.speedup),
                    f2(k.fermi.ipc),
                    f2(k.vgiw_operations_per_cycle()),
                    percent(k.issue_share()),
                    percent(k.fermi.simd_utilisation),
                    percent(b.fermi_dram),
                    b.fermi,
                    format!("{} {}", b.class, percent(b.busy)),
                    percent(b.vgiw_dram),
                    percent(k.reconfiguration_share()),
                    percent(v.l1_bank_conflicts as f64 / l1),
                    f2(v.replica_sum as f64 / v.block_executions.max(1) as f64),
                    b.units_allow.map_or("n/a".into(), f2),
                    b.dram_allows.map_or("n/a".into(), f2),
                    b.vgiw,
                    f2(k.speedup_over_ideal_fermi(self.fermi_bpc)),
                ]
            })
            .collect();
        md += &table(
            &[
                "kernel".into(),
                "speedup".into(),
                "Fermi thread instr./cycle".into(),
                "VGIW operations/cycle".into(),
                "Fermi issue".into(),
                "Fermi SIMD util.".into(),
                "Fermi DRAM".into(),
                "Fermi bound".into(),
                "VGIW busiest units".into(),
                "VGIW DRAM".into(),
                "VGIW reconfig.".into(),
                "VGIW L1 bank waits".into(),
                "VGIW replicas".into(),
                "speedup the units allow".into(),
                "speedup the DRAM allows".into(),
                "VGIW bound".into(),
                "speedup over a Fermi SM at its bound".into(),
            ],
            &rows,
        );
        let speedups: Vec<f64> = ks.iter().map(|k| k.speedup).collect();
        let vgiw_points = self.vgiw_points();
        let best: Vec<f64> = ks
            .iter()
            .map(|k| {
                vgiw_points
                    .iter()
                    .map(|p| runs.speedup(p, &k.name))
                    .fold(0.0, f64::max)
            })
            .collect();
        md += &format!(
            "\nAt the preset the VGIW core runs weft's {} kernels {}x as fast as the Fermi SM on \
             average ({}x to {}x; the paper: over {:.0}x, {}x to {:.0}x, over Table 2's {} kernels{}); \
             with each kernel's best count of \
             threads in flight, {}x on average. The paper credits its gain to VGIW operating all \
             108 units at once where Fermi operates 32 lanes: weft's VGIW core runs {} lowered \
             operations per cycle on average against the Fermi SM's {} thread instructions.\n\n",
            ks.len(),
            f2(self.mean_speedup()),
            f2(speedups.iter().copied().fold(f64::INFINITY, f64::min)),
            f2(speedups.iter().copied().fold(0.0, f64::max)),
            paper::SPEEDUP_MEAN,
            paper::SPEEDUP_RANGE.0,
            paper::SPEEDUP_RANGE.1,
            paper::TABLE2_KERNELS,
            if ks.len() == paper::TABLE2_KERNELS {
                ", the same kernels"
            } else {
                ", so the two means are over different kernels"
            },
            f2(arithmetic(&best).unwrap_or(0.0)),
            f2(self.mean(Kernel::vgiw_operations_per_cycle)),
            f2(self.mean(|k| k.fermi.ipc)),
        );
        md
    }

    /// Whether kernel `k` is memory bound by weft's rule: the Fermi SM at its preset
    /// keeps its DRAM share busy at least [`BINDS`] of its cycles.
    fn memory_bound(&self, k: &Kernel) -> bool {
        Kernel::dram_share(&k.fermi, self.fermi_bpc) >= BINDS
    }

    /// Kernel `w`'s speedup and energy efficiency (core, die, system) at row `row`: the
    /// row's Fermi SM's cycles and energy over its VGIW core's.
    fn row_figures(&self, row: Row, w: &str) -> Figures {
        let fermi = self.runs.get(&row.fermi(), w);
        let vgiw = self.runs.get(&row.vgiw(self.study.preset_threads), w);
        let priced = |m: &Measured<Counts>| dataflow(m).energy.priced(&self.table).ok();
        let efficiency = match (priced(fermi), priced(vgiw)) {
            (Some(f), Some(v)) => energy::efficiency(&f, &v).ok(),
            _ => None,
        };
        (fermi.cycles as f64 / vgiw.cycles.max(1) as f64, efficiency)
    }

    /// Each row's figures per kernel, in the page's order.
    fn rows(&self) -> Vec<(Row, Vec<Figures>)> {
        Row::ALL
            .iter()
            .map(|&row| {
                let figures = self
                    .ks
                    .iter()
                    .map(|k| self.row_figures(row, &k.name))
                    .collect();
                (row, figures)
            })
            .collect()
    }

    /// The switch row `row` makes, as `--set` assignments (the first row: the published
    /// page's values of every switch).
    fn row_sets(row: Row) -> String {
        let vgiw = Machine::vgiw();
        let values = vgiw.values();
        let sets: Vec<String> = SWITCHES
            .iter()
            .filter(|(r, _)| row == Row::Published || *r == row)
            .map(|(_, set)| {
                let key = set.split_once('=').map_or("", |(k, _)| k);
                let value = if row == Row::Published {
                    set.split_once('=').map_or("", |(_, v)| v).to_string()
                } else {
                    values
                        .iter()
                        .find(|(k, _)| *k == key)
                        .map_or(String::new(), |(_, v)| v.clone())
                };
                let both = if reader(key) == Reader::Both {
                    " (both)"
                } else {
                    ""
                };
                format!("`{key}={}`{both}", value.trim_matches('"'))
            })
            .collect();
        sets.join(", ")
    }

    /// "From weft to the paper": one cause switched per row, speed and energy per row.
    fn weft_to_the_paper(&self) -> String {
        let ks = &self.ks;
        let rows = self.rows();
        let memory: Vec<bool> = ks.iter().map(|k| self.memory_bound(k)).collect();
        let published: Vec<bool> = ks
            .iter()
            .map(|k| paper::PUBLISHED_KERNELS.contains(&k.name.as_str()))
            .collect();
        let mean_of = |figures: &[Figures], keep: &dyn Fn(usize) -> bool| {
            let xs: Vec<f64> = (0..figures.len())
                .filter(|&i| keep(i))
                .map(|i| figures[i].0)
                .collect();
            (arithmetic(&xs), geometric(&xs), xs.len())
        };
        let cell = |(a, g, n): (Option<f64>, Option<f64>, usize)| match (a, g) {
            (Some(a), Some(g)) => format!("{} / {} ({n})", f2(a), f2(g)),
            _ => "n/a".into(),
        };
        let mut md = format!(
            "## From weft to the paper\n\n\
             The page as first published set a mean over 10 kernels against the paper's over {} \
             kernels. Each row below switches one cause of a difference from the paper and keeps \
             the rows above it; each is a recorded set of runs in `vgiw.json` (the points \
             `Fermi SM, ROW` and `VGIW, ROW`, or the sweep's points where they are the same \
             machines): the `fermi` and `vgiw` presets with the published page's values of the \
             switches below the row (`Row::undone` in `eval/vgiw/mod.rs`). Speedup is the row's \
             Fermi SM's cycles over its VGIW core's, efficiency the Fermi SM's energy over the \
             VGIW core's. Means (arithmetic / geometric, kernels) over weft's {} kernels, split \
             into the paper's two categories (§5): a kernel is memory bound here when the Fermi SM \
             at its preset keeps its DRAM share busy at least {:.0}% of its cycles (weft's rule; \
             the paper says which kernel is which only in Fig. 7's image).\n\n",
            paper::TABLE2_KERNELS,
            ks.len(),
            100.0 * BINDS
        );
        let table_rows: Vec<Vec<String>> = rows
            .iter()
            .map(|(row, figures)| {
                let level = |l: usize| {
                    let xs: Vec<f64> = figures.iter().filter_map(|f| f.1.map(|e| e[l])).collect();
                    arithmetic(&xs).map_or("n/a".into(), f2)
                };
                vec![
                    row.name().to_string(),
                    Self::row_sets(*row),
                    cell(mean_of(figures, &|_| true)),
                    cell(mean_of(figures, &|i| !memory[i])),
                    cell(mean_of(figures, &|i| memory[i])),
                    cell(mean_of(figures, &|i| published[i])),
                    format!("{} / {} / {}", level(0), level(1), level(2)),
                ]
            })
            .collect();
        md += &table(
            &[
                "row".into(),
                "`--set` (switched at this row)".into(),
                "speedup, all".into(),
                "computational".into(),
                "memory bound".into(),
                "the published page's 10 kernels".into(),
                "energy efficiency, core / die / system".into(),
            ],
            &table_rows,
        );
        md += "\nPer kernel (speedup at each row):\n\n";
        let mut header = vec![
            "kernel".to_string(),
            "category (Fermi DRAM busy)".to_string(),
        ];
        header.extend(rows.iter().map(|(row, _)| row.name().to_string()));
        let kernel_rows: Vec<Vec<String>> = ks
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let category = if memory[i] {
                    "memory bound"
                } else {
                    "computational"
                };
                let mut cells = vec![
                    k.name.clone(),
                    format!(
                        "{category} ({})",
                        percent(Kernel::dram_share(&k.fermi, self.fermi_bpc))
                    ),
                ];
                cells.extend(
                    rows.iter()
                        .map(|(_, figures)| format!("{:.3}", figures[i].0)),
                );
                cells
            })
            .collect();
        md += &table(&header, &kernel_rows);
        md += "\nWhat each switch moved (measured, from the rows above):\n\n";
        for pair in rows.windows(2) {
            let ((_, before), (row, after)) = (&pair[0], &pair[1]);
            let movers = movers(
                &ks.iter().map(|k| k.name.clone()).collect::<Vec<_>>(),
                &before.iter().map(|f| f.0).collect::<Vec<_>>(),
                &after.iter().map(|f| f.0).collect::<Vec<_>>(),
                3,
            );
            md += &format!(
                "- {} ({}): mean {}x -> {}x; moved most: {}.\n",
                row.name(),
                Self::row_sets(*row),
                f2(mean_of(before, &|_| true).0.unwrap_or(0.0)),
                f2(mean_of(after, &|_| true).0.unwrap_or(0.0)),
                movers
            );
        }
        let last = &rows[rows.len() - 1].1;
        let best = self
            .vgiw_points()
            .into_iter()
            .map(|p| (Some(p), self.runs.mean(&p)))
            .fold((None, 0.0), |acc, x| if x.1 > acc.1 { x } else { acc });
        let missing: Vec<&str> = paper::KERNELS
            .iter()
            .filter(|p| !self.ks.iter().any(|k| k.name == p.name))
            .map(|p| p.kernel)
            .collect();
        md += &format!(
            "\n**Not explained**: the rest of the gap, from {}x at the presets (over weft's {} of \
             Table 2's {} kernels) to the paper's over {:.0}x (over all {}). Tried: each switch \
             above, and the threads in flight per replica ({}: the best mean is {}x, at {}). Not \
             tried: {}the drain of a one-block loop between its iterations (the engine runs each \
             iteration as a vector, §6 of docs/core.md); the Fermi SM features weft's SIMT core \
             lacks (GTO scheduling, a second scheduler, more than one load in flight per warp), \
             which could only make the Fermi SM faster.\n\n",
            f2(mean_of(last, &|_| true).0.unwrap_or(0.0)),
            ks.len(),
            paper::TABLE2_KERNELS,
            paper::SPEEDUP_MEAN,
            paper::TABLE2_KERNELS,
            REPLICA_THREADS
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            f2(best.1),
            best.0.map_or("n/a".into(), |p| self.runs.label(&p)),
            if missing.is_empty() {
                String::new()
            } else {
                format!(
                    "the {} kernels of Table 2 this run does not have ({}); ",
                    missing.len(),
                    missing.join(", ")
                )
            },
        );
        md
    }

    fn rows_json(&self) -> Value {
        self.rows()
            .into_iter()
            .map(|(row, figures)| {
                let per: Map<String, Value> = self
                    .ks
                    .iter()
                    .zip(&figures)
                    .map(|(k, (s, e))| (k.name.clone(), json!({"speedup": s, "efficiency": e})))
                    .collect();
                (
                    row.name().to_string(),
                    json!({
                        "fermi": self.runs.label(&row.fermi()),
                        "vgiw": self.runs.label(&row.vgiw(self.study.preset_threads)),
                        "fermi_sets": row.undone(true),
                        "vgiw_sets": row.undone(false),
                        "kernels": per,
                    }),
                )
            })
            .collect::<Map<String, Value>>()
            .into()
    }

    /// Where each kernel's extra DRAM bytes on the VGIW core come from, by the counters.
    fn dram_excess_text(&self) -> String {
        let line = u64::from(self.vgiw_machine().l1().cache.line);
        let named: Vec<String> = self
            .ks
            .iter()
            .filter_map(|k| {
                let (f, v) = (k.fermi_flow(), k.vgiw_flow());
                let ratio = v.dram_bytes as f64 / f.dram_bytes.max(1) as f64;
                (ratio >= EXCESS).then(|| {
                    let (cause, bytes) = dram_excess(&f, &v, line)[0];
                    format!(
                        "{} ({}x: {}, {} KB)",
                        k.name,
                        f2(ratio),
                        cause.text(),
                        bytes / 1024
                    )
                })
            })
            .collect();
        // Load lines: the VGIW core's L1 against the Fermi SM's, per kernel.
        let (mut same, mut more) = (0, vec![]);
        for k in &self.ks {
            let (f, v) = (k.fermi_flow(), k.vgiw_flow());
            let ratio = (v.l1_fetches - v.store_fetches) as f64 / f.l1_fetches.max(1) as f64;
            if ratio < EXCESS {
                same += 1;
            } else {
                more.push(format!("{} ({}x)", k.name, f2(ratio)));
            }
        }
        format!(
            "the VGIW core moves at least {}x the Fermi SM's DRAM bytes on {}, the largest of three \
             counted causes named (the L1's write-allocate fetches of lines stores missed; load \
             lines fetched beyond the Fermi SM's; DRAM write bytes beyond the Fermi SM's). The \
             VGIW core's L1 fetches less than {}x the Fermi SM's lines for loads on {same} of {} \
             kernels: an MSHR fetches a line once for all the threads that miss it, so per-thread \
             accesses without coalescing add no lines by themselves; more on {} (lines fetched \
             again after their eviction)",
            f2(EXCESS),
            names(named),
            f2(EXCESS),
            self.ks.len(),
            names(more),
        )
    }

    fn bounds_json(&self) -> Value {
        self.ks
            .iter()
            .map(|k| {
                let b = self.bound(k);
                (
                    k.name.clone(),
                    json!({"fermi": b.fermi, "vgiw": b.vgiw, "fermi_dram_share": b.fermi_dram,
                           "vgiw_dram_share": b.vgiw_dram, "busiest_class": b.class,
                           "busiest_utilisation": b.busy, "units_allow": b.units_allow,
                           "dram_allows": b.dram_allows,
                           "over_ideal_fermi": k.speedup_over_ideal_fermi(self.fermi_bpc)}),
                )
            })
            .collect::<Map<String, Value>>()
            .into()
    }

    /// Figs. 9 and 10: energy efficiency per kernel and level.
    fn efficiency(&self) -> String {
        let ks = &self.ks;
        let mut md = format!(
            "## Figs. 9 and 10: energy efficiency over a Fermi SM\n\n\
             The paper: {}x on average, {}x to {:.0}x (Fig. 9, the system), its gain \"attributed \
             [to] its efficient compute engine\" (Fig. 10). Each run's events times the per-event \
             energies of `eval/vgiw/energy.toml` (each with its source and node, scaled to {:.0} nm; \
             the figures that are assumptions are marked there); dynamic energy only, so a slower \
             run pays nothing for its extra cycles. Efficiency is the Fermi SM's energy over the \
             VGIW core's for the same work, at the core (the SIMT core with its register file; the \
             VGIW core with its LVC, CVT and reconfigurations), the die (with the L1, L2, \
             interconnect and memory controller) and the system (with DRAM):\n\n",
            paper::EFFICIENCY_MEAN,
            paper::EFFICIENCY_RANGE.0,
            paper::EFFICIENCY_RANGE.1,
            self.table.scaling.target_nm
        );
        let level_cell = |e: &Option<[f64; 3]>, k: usize| e.map_or("n/a".into(), |e| f2(e[k]));
        let mut rows: Vec<Vec<String>> = ks
            .iter()
            .map(|k| {
                let per = k.fermi.thread_instructions.max(1) as f64;
                vec![
                    k.name.clone(),
                    f2(k.fermi_energy.level(Level::System) / per),
                    f2(k.vgiw_energy.level(Level::System) / per),
                    level_cell(&k.efficiency, 0),
                    level_cell(&k.efficiency, 1),
                    level_cell(&k.efficiency, 2),
                ]
            })
            .collect();
        rows.push(vec![
            "**mean**".into(),
            String::new(),
            String::new(),
            self.level_mean(0).map_or("n/a".into(), f2),
            self.level_mean(1).map_or("n/a".into(), f2),
            self.level_mean(2).map_or("n/a".into(), f2),
        ]);
        md += &table(
            &[
                "kernel".into(),
                "Fermi pJ per RV32 instr. (system)".into(),
                "VGIW pJ per RV32 instr. (system)".into(),
                "efficiency, core".into(),
                "die".into(),
                "system".into(),
            ],
            &rows,
        );
        md += "\n![efficiency](vgiw-fig10.svg)\n\n";
        md
    }

    /// Where the energy goes, over all kernels.
    fn energy_parts(&self) -> String {
        let ks = &self.ks;
        let mut md = "Where the energy goes, summed over the kernels, in pJ per RV32 thread \
                      instruction:\n\n"
            .to_string();
        let instructions: f64 = ks
            .iter()
            .map(|k| k.fermi.thread_instructions as f64)
            .sum::<f64>()
            .max(1.0);
        let mut parts_rows = vec![];
        for (machine, energies) in [
            (
                "Fermi",
                ks.iter().map(|k| &k.fermi_energy).collect::<Vec<_>>(),
            ),
            ("VGIW", ks.iter().map(|k| &k.vgiw_energy).collect()),
        ] {
            let mut parts: Vec<(String, Level, f64)> = vec![];
            for b in energies {
                for (p, level, pj) in b.parts() {
                    match parts.iter_mut().find(|x| x.0 == p) {
                        Some(x) => x.2 += pj,
                        None => parts.push((p.to_string(), level, pj)),
                    }
                }
            }
            for (p, level, pj) in parts {
                parts_rows.push(vec![
                    machine.to_string(),
                    level.name().to_string(),
                    p,
                    f2(pj / instructions),
                ]);
            }
        }
        md += &table(
            &[
                "machine".into(),
                "level".into(),
                "part".into(),
                "pJ per RV32 instr.".into(),
            ],
            &parts_rows,
        );
        md
    }

    /// The efficiency's sensitivity to each event class's energy, and the power ratio.
    fn energy_sensitivity(&self) -> String {
        let mut md = "\nThe mean efficiency with each event class's energy halved and doubled \
                      (core and system; classes that move neither by more than 1% are left \
                      out):\n\n"
            .to_string();
        let (core0, sys0) = (
            self.level_mean(0).unwrap_or(0.0),
            self.level_mean(2).unwrap_or(0.0),
        );
        let moves = |a: f64, base: f64| (a - base).abs() > 0.01 * base;
        let rows: Vec<Vec<String>> = self
            .sensitivity()
            .into_iter()
            .filter(|(_, [hc, dc, hs, ds])| {
                moves(*hc, core0) || moves(*dc, core0) || moves(*hs, sys0) || moves(*ds, sys0)
            })
            .map(|(class, [hc, dc, hs, ds])| {
                vec![
                    format!("`{class}`"),
                    format!("{} / {}", f2(hc), f2(dc)),
                    format!("{} / {}", f2(hs), f2(ds)),
                ]
            })
            .collect();
        md += &table(
            &[
                "class".into(),
                format!("core: halved / doubled (mean {})", f2(core0)),
                format!("system: halved / doubled (mean {})", f2(sys0)),
            ],
            &rows,
        );
        let power = if sys0 > 0.0 {
            self.mean_speedup() / sys0
        } else {
            0.0
        };
        md += &format!(
            "\nThe VGIW core's power over the Fermi SM's (speedup over system efficiency, means): \
             {}; the paper's means imply {:.1} ({:.0}x faster at {}x the efficiency).\n\n",
            f2(power),
            paper::SPEEDUP_MEAN / paper::EFFICIENCY_MEAN,
            paper::SPEEDUP_MEAN,
            paper::EFFICIENCY_MEAN
        );
        md
    }

    /// Fig. 3: live value cache accesses against register-file accesses.
    fn fig3(&self) -> String {
        let mut md = "## Fig. 3: live value cache accesses against register-file accesses\n\n\
             The paper: the LVC is accessed \"almost 10x less frequently\" than a GPU's register \
             file (one register-file access per warp-wide operand read or result write; LVC accesses \
             are words, over all replicas). weft: the VGIW run's LVC reads and writes over the Fermi \
             run's register-file accesses, at the preset:\n\n"
            .to_string();
        let rows: Vec<Vec<String>> = self
            .ks
            .iter()
            .map(|k| {
                let v = k.vgiw_flow();
                vec![
                    k.name.clone(),
                    k.fermi_flow().register_file_accesses.to_string(),
                    v.lvc_accesses.to_string(),
                    k.lvc_over_rf().map_or("n/a".into(), |r| format!("{r:.3}")),
                    format!("{} / {}", v.lvc_spills, v.lvc_read_misses),
                ]
            })
            .collect();
        md += &table(
            &[
                "kernel".into(),
                "Fermi register-file accesses".into(),
                "VGIW LVC accesses".into(),
                "LVC / register file".into(),
                "LVC spills / read misses".into(),
            ],
            &rows,
        );
        md += &format!(
            "\nMean {:.3} (the paper: about {}).\n\n",
            self.lvc_mean(),
            paper::LVC_OVER_RF
        );
        md
    }

    /// Reconfiguration's cycles per kernel.
    fn reconfiguration(&self) -> String {
        let rows: Vec<Vec<String>> = self
            .ks
            .iter()
            .map(|k| {
                let v = k.vgiw_flow();
                vec![
                    k.name.clone(),
                    v.block_executions.to_string(),
                    v.reconfigurations.to_string(),
                    v.reconfiguration_cycles.to_string(),
                    format!("{:.2}%", 100.0 * k.reconfiguration_share()),
                    format!("{} x {}", v.tiles, v.tile),
                ]
            })
            .collect();
        let mut md = format!(
            "## Reconfiguration\n\n\
             The paper: {} cycles each, {:.2}% of the runtime on average, the median below 0.1%. \
             weft's `vgiw_reconfig` is {} cycles:\n\n",
            paper::RECONFIGURATION_CYCLES,
            100.0 * paper::RECONFIGURATION_SHARE,
            self.vgiw_machine().keys().vgiw_reconfig
        );
        md += &table(
            &[
                "kernel".into(),
                "block executions".into(),
                "reconfigurations".into(),
                "their cycles".into(),
                "share of the cycles".into(),
                "tiles x threads".into(),
            ],
            &rows,
        );
        let (share_mean, share_median) = self.reconfiguration_shares();
        md += &format!(
            "\nMean {:.2}%, median {:.2}%.\n\n",
            100.0 * share_mean,
            100.0 * share_median
        );
        md
    }

    /// Beside the paper: the speedup, and what the runs show bounds it.
    fn beside_speedup(&self) -> String {
        let ks = &self.ks;
        let slower: Vec<String> = ks
            .iter()
            .filter(|k| k.speedup < 1.0)
            .map(|k| k.name.clone())
            .collect();
        let latency: Vec<String> = ks
            .iter()
            .filter(|k| compare::ahead(k.speedup_most_threads, k.speedup, LATENCY_GAIN))
            .map(|k| k.name.clone())
            .collect();
        // Kernels whose Fermi run keeps its DRAM busy: no SM feature can speed them up,
        // and VGIW's speedup is its DRAM bytes against Fermi's at best.
        let dram_bound: Vec<String> = ks
            .iter()
            .filter(|k| Kernel::dram_share(&k.fermi, self.fermi_bpc) >= DRAM_FULL)
            .map(|k| {
                format!(
                    "{} ({}x the bytes)",
                    k.name,
                    f2(k.vgiw_flow().dram_bytes as f64 / k.fermi_flow().dram_bytes.max(1) as f64)
                )
            })
            .collect();
        let units_short: Vec<String> = ks
            .iter()
            .filter(|k| {
                let (_, busy) = k.busiest();
                busy > 0.0 && k.speedup / busy < 1.0
            })
            .map(|k| format!("{} ({} units)", k.name, k.busiest().0))
            .collect();
        let mean = self.mean_speedup();
        let most = REPLICA_THREADS.iter().max().unwrap_or(&0);
        format!(
            "- **Speedup**: {}x on average at the preset over weft's {} kernels, against the \
             paper's over {:.0}x over Table 2's {}; {} of {} kernels run slower on the VGIW core \
             ({}). Measured why:\n\
             \x20 - The VGIW core is far from its units: {} lowered operations per cycle on average \
             of its 108 units, its busiest class {} busy on average. A thread holds its place in a \
             replica from injection to its end, and its end waits for its loads{}, so threads in \
             flight over their lifetime bound the rate: {} run at least \
             {:.0}% faster with {} threads per replica than with {} (mean {}x at {}). The \
             preset's {} is §3.4's token-buffer storage over its units (docs/core.md §3).\n\
             \x20 - The Fermi SM keeps its DRAM share busy (at least {:.0}% of the cycles) on {}: \
             no scheduler or load-issue feature can speed those up, and the VGIW core's DRAM \
             allows no more than the table's figure. DRAM bytes: {}.\n\
             \x20 - Units: {} would stay slower than the Fermi SM even with their busiest class \
             busy every cycle.\n\
             \x20 - weft's SIMT core lacks the GTX480 SM's GTO scheduling, second scheduler and \
             more than one load in flight per warp. Each could only make the Fermi SM faster, and \
             by no more than its bound: one warp instruction per cycle or its DRAM share busy \
             every cycle. Against a Fermi SM at that bound the VGIW core's speedup would be {}x on \
             average (the last column), against weft's {}x: what the missing features could \
             change at most.\n",
            f2(mean),
            ks.len(),
            paper::SPEEDUP_MEAN,
            paper::TABLE2_KERNELS,
            slower.len(),
            ks.len(),
            names(slower),
            f2(self.mean(Kernel::vgiw_operations_per_cycle)),
            percent(self.mean(|k| k.busiest().1)),
            match self.vgiw_machine().vgiw_engine().store_done {
                VgiwStoreDone::Fill => " and its stores' line fills",
                VgiwStoreDone::Accept => " (a store is done once the L1 accepts it)",
            },
            names(latency),
            100.0 * (LATENCY_GAIN - 1.0),
            most,
            self.study.preset_threads,
            f2(self.mean(|k| k.speedup_most_threads)),
            most,
            self.study.preset_threads,
            100.0 * DRAM_FULL,
            names(dram_bound),
            self.dram_excess_text(),
            names(units_short),
            f2(self.mean(|k| k.speedup_over_ideal_fermi(self.fermi_bpc))),
            f2(mean),
        )
    }

    /// Beside the paper: the energy efficiency at each level, and the LVC's spills.
    fn beside_energy(&self) -> String {
        // The LVC's working set: live values x threads of a tile x 4 bytes.
        let lvc_bytes = u64::from(self.vgiw_machine().keys().lvc_kb) * 1024;
        let spilling: Vec<String> = self
            .ks
            .iter()
            .filter(|k| {
                let v = k.vgiw_flow();
                v.lvc_spills * 100 > v.lvc_accesses
            })
            .map(|k| {
                let v = k.vgiw_flow();
                format!(
                    "{} ({} x {} threads x 4 B = {} KB)",
                    k.name,
                    v.live_values,
                    v.tile,
                    v.live_values * v.tile * 4 / 1024
                )
            })
            .collect();
        let spills = if spilling.is_empty() {
            "no kernel spills more than 1% of its LVC accesses at the preset".to_string()
        } else {
            format!(
                "over 1% of its accesses spill to the L2 on {} (each with a tile's live values)",
                spilling.join(", ")
            )
        };
        format!(
            "- **Energy**: {}x at the system level on average (the paper: {}x), {}x at the die, \
             {}x at the core. At the core, the Fermi SM's register file (warp-wide operands) \
             against VGIW's token buffers, switch hops and LVC ({} KB: {spills}); at the die and \
             system, the L1 accesses and the DRAM bytes (their causes under Speedup).\n",
            f2(self.level_mean(2).unwrap_or(0.0)),
            paper::EFFICIENCY_MEAN,
            f2(self.level_mean(1).unwrap_or(0.0)),
            f2(self.level_mean(0).unwrap_or(0.0)),
            lvc_bytes / 1024,
        )
    }

    /// Beside the paper: the LVC's accesses against the register file's, worked out.
    fn beside_lvc(&self) -> String {
        let total = |f: &dyn Fn(&Kernel) -> u64| self.ks.iter().map(f).sum::<u64>().max(1) as f64;
        let lvc_per_block =
            total(&|k| k.vgiw_flow().lvc_accesses) / total(&|k| k.vgiw_flow().thread_blocks);
        let rf_per_warp_instruction = total(&|k| k.fermi_flow().register_file_accesses)
            / total(&|k| k.fermi.warp_instructions);
        let instructions_per_block =
            total(&|k| k.fermi.thread_instructions) / total(&|k| k.vgiw_flow().thread_blocks);
        format!(
            "- **Live value cache**: {:.3} of the register file's accesses on average (the paper: \
             about {}). The register file counts one access per warp-wide operand, the LVC one per \
             thread's word (both as the paper defines them): over all kernels a thread reads or \
             writes {} live-value words per block it runs, which holds {} RV32 instructions, and a \
             warp instruction accesses {} registers, so the LVC sees 32 x {} / ({} x {}) = {} of \
             the register file's accesses (full warps). The paper's 10x fewer needs blocks that \
             pass few values for the work they do: weft's blocks are short (clang's RV32 code, \
             blocks ended at barriers) and pass every register a successor reads.\n",
            self.lvc_mean(),
            paper::LVC_OVER_RF,
            f2(lvc_per_block),
            f2(instructions_per_block),
            f2(rf_per_warp_instruction),
            f2(lvc_per_block),
            f2(rf_per_warp_instruction),
            f2(instructions_per_block),
            f2(32.0 * lvc_per_block / (rf_per_warp_instruction * instructions_per_block)),
        )
    }

    /// Beside the paper: reconfiguration's share, and the kernels where it is large.
    fn beside_reconfiguration(&self) -> String {
        let short: Vec<String> = self
            .ks
            .iter()
            .filter(|k| k.reconfiguration_share() > 0.01)
            .map(|k| {
                let v = k.vgiw_flow();
                format!(
                    "{} ({} threads per block execution)",
                    k.name,
                    v.thread_blocks / v.block_executions.max(1)
                )
            })
            .collect();
        let (share_mean, share_median) = self.reconfiguration_shares();
        format!(
            "- **Reconfiguration**: {:.2}% of the cycles on average, median {:.2}% (the paper: \
             {:.2}%, median below 0.1%). Above 1%: {}: many blocks over a small tile (the CVT's \
             bits over the blocks) make short block executions.\n\n",
            100.0 * share_mean,
            100.0 * share_median,
            100.0 * paper::RECONFIGURATION_SHARE,
            names(short)
        )
    }

    /// The cost of VGIW's blocks in weft's RTL.
    fn cost_markdown(&self) -> String {
        let mut md = "## Cost: VGIW's blocks in weft's RTL\n\n".to_string();
        md += &cost::markdown(&self.cost, "the paper");
        md += "\nFrom the report (`docs/report/`); weft's `vgiw_core` is smaller than the paper's \
               core (its fabric has 32 units, not 108: see the README).\n";
        md
    }

    fn charts(&self) -> Vec<(String, String)> {
        let ks = &self.ks;
        let categories: Vec<String> = ks.iter().map(|k| k.name.clone()).collect();
        let series: Vec<Series> = Level::ALL
            .iter()
            .enumerate()
            .map(|(i, level)| Series {
                name: level.name().into(),
                values: ks.iter().map(|k| k.efficiency.map(|e| e[i])).collect(),
            })
            .collect();
        vec![
            (
                "vgiw-fig7.svg".to_string(),
                speedup_bars(
                    self.runs,
                    "VGIW core over a Fermi SM (Fig. 7)",
                    &self.vgiw_points(),
                ),
            ),
            (
                "vgiw-fig10.svg".into(),
                grouped_bars(
                    "VGIW energy efficiency over a Fermi SM (Figs. 9-10)",
                    "Fermi energy / VGIW energy",
                    &categories,
                    &series,
                    2,
                    Some((1.0, "Fermi")),
                ),
            ),
        ]
    }

    fn json(&self) -> Map<String, Value> {
        let ks = &self.ks;
        let (share_mean, share_median) = self.reconfiguration_shares();
        let mut json = Map::new();
        json.insert("bounds".into(), self.bounds_json());
        json.insert("from_weft_to_the_paper".into(), self.rows_json());
        json.insert(
            "memory_bound".into(),
            ks.iter()
                .map(|k| (k.name.clone(), json!(self.memory_bound(k))))
                .collect::<Map<String, Value>>()
                .into(),
        );
        json.insert(
            "efficiency".into(),
            ks.iter()
                .map(|k| (k.name.clone(), json!(k.efficiency)))
                .collect::<Map<String, Value>>()
                .into(),
        );
        json.insert(
            "sensitivity".into(),
            self.sensitivity()
                .into_iter()
                .map(|(class, [hc, dc, hs, ds])| {
                    (
                        class.to_string(),
                        json!({"core": [hc, dc], "system": [hs, ds]}),
                    )
                })
                .collect::<Map<String, Value>>()
                .into(),
        );
        json.insert(
            "lvc_over_rf".into(),
            ks.iter()
                .map(|k| (k.name.clone(), json!(k.lvc_over_rf())))
                .collect::<Map<String, Value>>()
                .into(),
        );
        json.insert(
            "reconfiguration_share".into(),
            json!({"mean": share_mean, "median": share_median}),
        );
        json.insert("cost".into(), Value::Array(self.cost.clone()));
        json.insert(
            "paper".into(),
            json!({
                "speedup_mean": paper::SPEEDUP_MEAN,
                "speedup_range": [paper::SPEEDUP_RANGE.0, paper::SPEEDUP_RANGE.1],
                "efficiency_mean": paper::EFFICIENCY_MEAN,
                "efficiency_range": [paper::EFFICIENCY_RANGE.0, paper::EFFICIENCY_RANGE.1],
                "lvc_over_rf": paper::LVC_OVER_RF,
                "reconfiguration_share": paper::RECONFIGURATION_SHARE,
                "table2_blocks": paper::KERNELS.iter().map(|k| (k.name.to_string(), json!(k.blocks))).collect::<Map<String, Value>>(),
            }),
        );
        json
    }
}

/// A list of names, "none" when empty.
fn names(v: Vec<String>) -> String {
    if v.is_empty() {
        "none".to_string()
    } else {
        v.join(", ")
    }
}

/// The geometric mean of `xs` (`None` when empty or when one is not positive).
fn geometric(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty() && xs.iter().all(|&x| x > 0.0))
        .then(|| (xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp())
}

/// The `n` kernels whose figure moved most between `before` and `after` (by the ratio,
/// either way), as "name (before -> after)"; "none" when none moved.
fn movers(names: &[String], before: &[f64], after: &[f64], n: usize) -> String {
    let mut moved: Vec<(f64, usize)> = (0..names.len())
        .filter(|&i| before[i] > 0.0 && after[i] > 0.0 && before[i] != after[i])
        .map(|i| ((after[i] / before[i]).ln().abs(), i))
        .collect();
    moved.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    self::names(
        moved
            .iter()
            .take(n)
            .map(|&(_, i)| format!("{} ({} -> {})", names[i], f2(before[i]), f2(after[i])))
            .collect(),
    )
}

/// A VGIW run whose DRAM bytes are at least this many times the Fermi SM's names where
/// the extra bytes come from.
const EXCESS: f64 = 1.1;

/// A counted cause of a VGIW run's DRAM bytes beyond the Fermi SM's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Excess {
    /// Lines the L1 fetched because a store missed (its write allocation).
    StoreFetches,
    /// Lines fetched for loads beyond the Fermi SM's.
    LoadLines,
    /// DRAM write bytes beyond the Fermi SM's (whole dirty lines written back).
    Writes,
}

impl Excess {
    fn text(self) -> &'static str {
        match self {
            Excess::StoreFetches => "write-allocate fetches",
            Excess::LoadLines => "more load lines",
            Excess::Writes => "more write bytes",
        }
    }
}

/// The three counted causes of the VGIW run's extra DRAM bytes over the Fermi run's, in
/// bytes, largest first (ties in the order of [`Excess`]).
fn dram_excess(fermi: &Dataflow, vgiw: &Dataflow, line: u64) -> [(Excess, u64); 3] {
    let writes = |d: &Dataflow| d.dram_bytes.saturating_sub(d.dram_read_bytes);
    let vgiw_load_lines = vgiw.l1_fetches.saturating_sub(vgiw.store_fetches);
    let mut causes = [
        (Excess::StoreFetches, vgiw.store_fetches * line),
        (
            Excess::LoadLines,
            vgiw_load_lines.saturating_sub(fermi.l1_fetches) * line,
        ),
        (Excess::Writes, writes(vgiw).saturating_sub(writes(fermi))),
    ];
    causes.sort_by_key(|c| std::cmp::Reverse(c.1));
    causes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flow(l1_fetches: u64, store_fetches: u64, dram: u64, read: u64) -> Dataflow {
        Dataflow {
            l1_fetches,
            store_fetches,
            dram_bytes: dram,
            dram_read_bytes: read,
            ..Dataflow::default()
        }
    }

    /// Each counted cause of extra DRAM bytes is named when it is the largest.
    #[test]
    fn the_largest_counted_cause_of_extra_dram_bytes_is_named() {
        let fermi = flow(10, 0, 10 * 128 + 256, 10 * 128);
        // 8 store fetches, 2 load lines beyond Fermi's 10, 256 more write bytes.
        let stores = flow(20, 8, 0, 0);
        assert_eq!(
            dram_excess(&fermi, &stores, 128)[0],
            (Excess::StoreFetches, 1024)
        );
        // No store fetches, 6 load lines beyond.
        let loads = flow(16, 0, 16 * 128 + 256, 16 * 128);
        assert_eq!(
            dram_excess(&fermi, &loads, 128)[0],
            (Excess::LoadLines, 768)
        );
        // As many lines; 4 KB more written.
        let writes = flow(10, 0, 10 * 128 + 256 + 4096, 10 * 128);
        assert_eq!(dram_excess(&fermi, &writes, 128)[0], (Excess::Writes, 4096));
        assert_eq!(
            dram_excess(&fermi, &fermi, 128).map(|c| c.1),
            [0, 0, 0],
            "nothing beyond itself"
        );
    }

    #[test]
    fn the_movers_are_the_largest_ratios_either_way() {
        let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        assert_eq!(
            movers(&names, &[1.0, 1.0, 1.0], &[1.5, 0.25, 1.0], 2),
            "b (1.00 -> 0.25), a (1.00 -> 1.50)"
        );
        assert_eq!(movers(&names, &[1.0; 3], &[1.0; 3], 2), "none");
        assert_eq!(geometric(&[1.0, 4.0]), Some(2.0));
        assert_eq!(geometric(&[]), None);
    }

    #[test]
    fn the_median_takes_the_middle_or_the_mean_of_the_two() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(&[]), None);
    }
}
