//! The VGIW study's page: the kernels lowered beside Table 2, Fig. 7's speedup with what
//! bounds each kernel on each machine, Figs. 9-10's energy efficiency with the
//! sensitivity to each event class's energy, Fig. 3's live value cache accesses, the
//! reconfiguration share, each difference from the paper with the figures that explain
//! it, and the cost of VGIW's blocks from the report.
use super::{dram_bytes_per_cycle, energy, paper, Point, Vgiw, REPLICA_THREADS};
use crate::compare;
use crate::cost;
use crate::measure::{Dataflow, Measured};
use crate::page::{arithmetic, speedup_bars, speedup_table, table, Page};
use crate::sweep::Runs;
use crate::Study as _;
use energy::{Breakdown, Level, Table};
use serde_json::{json, Map, Value};
use weft_flow::chart::{grouped_bars, Series};

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

fn dataflow(m: &Measured) -> Dataflow {
    m.dataflow.clone().unwrap_or_default()
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

/// What one kernel's runs at the preset show.
struct Kernel {
    name: String,
    fermi: Measured,
    vgiw: Measured,
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
    fn dram_share(run: &Measured, bytes_per_cycle: f64) -> f64 {
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

fn kernels(study: &Vgiw, runs: &Runs<Point>, t: &Table) -> Vec<Kernel> {
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
            let priced = |m: &Measured| dataflow(m).energy.priced(t).unwrap_or_default();
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

pub fn page(study: &Vgiw, runs: &Runs<Point>) -> Page {
    let t = Table::published().expect("energy.toml parses (tested)");
    let ks = kernels(study, runs, &t);
    let preset = study.preset_point();
    let fermi_m = &runs.points[&Point::Fermi].machine;
    let vgiw_m = &runs.points[&preset].machine;
    let (fermi_bpc, vgiw_bpc) = (dram_bytes_per_cycle(fermi_m), dram_bytes_per_cycle(vgiw_m));
    let cost_rows = cost::rows(paper::COST);
    let mut md = String::new();
    let mut json = Map::new();

    md += &format!(
        "# VGIW against a Fermi SM on weft's machines\n\n\
         The VGIW paper's §5 (Voitsechov and Etsion, MICRO 2015) rerun on weft: every kernel of \
         `kernels/vgiw/` (Rodinia's kernels of the paper's Table 2, written in C with generated \
         inputs) runs from one RV32 binary on one Fermi SM (the `fermi` preset: weft's SIMT core) \
         and on one VGIW core (the `vgiw` preset: weft's paper-scale VGIW engine, the kernel \
         lowered to basic-block dataflow graphs). Every dump of every run equals the native run \
         (tests/vgiw_engine.rs, tests/kernels.rs). Each VGIW point is the `fermi` preset plus its \
         `--set` list in `vgiw.json`; one reproduces with `weft run kernels/vgiw/KERNEL.c \
         --machine vgiw --set vgiw_replica_threads=N`. {} runs in {}.\n\n\
         Speedup is the Fermi SM's cycles over the VGIW core's (both clocked at 1.4 GHz, the same \
         L2 and DRAM share); both run the same RV32 thread instructions (checked), which is the \
         work the energy figures are per. The VGIW core's threads in flight per replica are not \
         in the paper (it gives no virtual-channel count): the preset's is {}, and {} are \
         measured beside it.\n\n",
        runs.len(),
        weft_flow::report::duration(runs.seconds),
        study.preset_threads,
        REPLICA_THREADS
            .iter()
            .filter(|&&t| t != study.preset_threads)
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );

    // Table 2.
    md += "## The kernels lowered, beside Table 2\n\n";
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
         unrolled by clang have fewer. A memory-order edge keeps a store after a load or store \
         through another base that may alias it (weft cannot tell distinct arrays apart in the \
         binary; LLVM's alias analysis can): the kernels with many chain their stores.\n\n",
        ks.len()
    );

    // Fig. 7.
    md += &format!(
        "## Fig. 7: speedup of a VGIW core over a Fermi SM\n\n\
         The paper: {:.0}x on average, {}x to {:.0}x. Speedup (the Fermi SM's cycles over each \
         point's):\n\n",
        paper::SPEEDUP_MEAN,
        paper::SPEEDUP_RANGE.0,
        paper::SPEEDUP_RANGE.1
    );
    let points = study.points();
    md += &speedup_table(runs, &points);
    md += "\n![speedup](vgiw-fig7.svg)\n\n";
    let vgiw_points: Vec<Point> = points
        .iter()
        .copied()
        .filter(|p| *p != Point::Fermi)
        .collect();
    let charts = vec![(
        "vgiw-fig7.svg".to_string(),
        speedup_bars(runs, "VGIW core over a Fermi SM (Fig. 7)", &vgiw_points),
    )];

    // Bounds.
    md += &format!(
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
        fermi_bpc,
        100.0 * BINDS,
        REPLICA_THREADS.iter().max().unwrap_or(&0),
        100.0 * (LATENCY_GAIN - 1.0)
    );
    let mut bounds = Map::new();
    let rows: Vec<Vec<String>> = ks
        .iter()
        .map(|k| {
            let (fd, vd) = (
                Kernel::dram_share(&k.fermi, fermi_bpc),
                Kernel::dram_share(&k.vgiw, vgiw_bpc),
            );
            let v = k.vgiw_flow();
            let (class, busy) = k.busiest();
            let l1 = (k.vgiw.l1_loads + k.vgiw.l1_stores).max(1) as f64;
            let (fb, vb) = (k.fermi_bound(fd), k.vgiw_bound(vd));
            // The speedups the VGIW core's busiest units and its DRAM share would allow
            // at 100% busy: a kernel gains nothing beyond them.
            let allow = |share: f64| (share > 0.0).then(|| k.speedup / share);
            let (units_allow, dram_allow) = (allow(busy), allow(vd));
            bounds.insert(
                k.name.clone(),
                json!({"fermi": fb, "vgiw": vb, "fermi_dram_share": fd, "vgiw_dram_share": vd,
                       "busiest_class": class, "busiest_utilisation": busy,
                       "units_allow": units_allow, "dram_allows": dram_allow,
                       "over_ideal_fermi": k.speedup_over_ideal_fermi(fermi_bpc)}),
            );
            vec![
                k.name.clone(),
                f2(k.speedup),
                f2(k.fermi.ipc),
                f2(k.vgiw_operations_per_cycle()),
                percent(k.issue_share()),
                percent(k.fermi.simd_utilisation),
                percent(fd),
                fb,
                format!("{class} {}", percent(busy)),
                percent(vd),
                percent(k.reconfiguration_share()),
                percent(v.l1_bank_conflicts as f64 / l1),
                f2(v.replica_sum as f64 / v.block_executions.max(1) as f64),
                units_allow.map_or("n/a".into(), f2),
                dram_allow.map_or("n/a".into(), f2),
                vb,
                f2(k.speedup_over_ideal_fermi(fermi_bpc)),
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
    json.insert("bounds".into(), Value::Object(bounds));
    let speedups: Vec<f64> = ks.iter().map(|k| k.speedup).collect();
    let best: Vec<f64> = ks
        .iter()
        .map(|k| {
            vgiw_points
                .iter()
                .map(|p| runs.speedup(p, &k.name))
                .fold(0.0, f64::max)
        })
        .collect();
    let mean = arithmetic(&speedups).unwrap_or(0.0);
    md +=
        &format!(
        "\nAt the preset the VGIW core runs the kernels {}x as fast as the Fermi SM on average \
         ({}x to {}x; the paper: over {:.0}x, {}x to {:.0}x); with each kernel's best count of \
         threads in flight, {}x on average. The paper credits its gain to VGIW operating all \
         108 units at once where Fermi operates 32 lanes: weft's VGIW core runs {} lowered \
         operations per cycle on average against the Fermi SM's {} thread instructions.\n\n",
        f2(mean),
        f2(speedups.iter().copied().fold(f64::INFINITY, f64::min)),
        f2(speedups.iter().copied().fold(0.0, f64::max)),
        paper::SPEEDUP_MEAN,
        paper::SPEEDUP_RANGE.0,
        paper::SPEEDUP_RANGE.1,
        f2(arithmetic(&best).unwrap_or(0.0)),
        f2(arithmetic(&ks.iter().map(Kernel::vgiw_operations_per_cycle).collect::<Vec<_>>())
            .unwrap_or(0.0)),
        f2(arithmetic(&ks.iter().map(|k| k.fermi.ipc).collect::<Vec<_>>()).unwrap_or(0.0)),
    );

    // Figs. 9-10.
    md += &format!(
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
        t.scaling.target_nm
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
    let level_mean = |k: usize| {
        arithmetic(
            &ks.iter()
                .filter_map(|x| x.efficiency.map(|e| e[k]))
                .collect::<Vec<_>>(),
        )
    };
    rows.push(vec![
        "**mean**".into(),
        String::new(),
        String::new(),
        level_mean(0).map_or("n/a".into(), f2),
        level_mean(1).map_or("n/a".into(), f2),
        level_mean(2).map_or("n/a".into(), f2),
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
    let categories: Vec<String> = ks.iter().map(|k| k.name.clone()).collect();
    let series: Vec<Series> = Level::ALL
        .iter()
        .enumerate()
        .map(|(i, level)| Series {
            name: level.name().into(),
            values: ks.iter().map(|k| k.efficiency.map(|e| e[i])).collect(),
        })
        .collect();
    let mut charts = charts;
    charts.push((
        "vgiw-fig10.svg".into(),
        grouped_bars(
            "VGIW energy efficiency over a Fermi SM (Figs. 9-10)",
            "Fermi energy / VGIW energy",
            &categories,
            &series,
            2,
            Some((1.0, "Fermi")),
        ),
    ));
    json.insert(
        "efficiency".into(),
        Value::Object(
            ks.iter()
                .map(|k| (k.name.clone(), json!(k.efficiency)))
                .collect(),
        ),
    );

    // Where the energy goes, over all kernels.
    md += "Where the energy goes, summed over the kernels, in pJ per RV32 thread instruction:\n\n";
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

    // Sensitivity.
    md += "\nThe mean efficiency with each event class's energy halved and doubled (core and \
           system; classes that move neither by more than 1% are left out):\n\n";
    let sens: Vec<Vec<energy::Sensitivity>> = ks
        .iter()
        .filter_map(|k| energy::sensitivity(&t, &k.fermi_energy, &k.vgiw_energy).ok())
        .collect();
    let (core0, sys0) = (level_mean(0).unwrap_or(0.0), level_mean(2).unwrap_or(0.0));
    let mut srows = vec![];
    let mut sjson = Map::new();
    for (i, class) in energy::CLASSES.iter().enumerate() {
        let m = |f: &dyn Fn(&energy::Sensitivity) -> f64| {
            arithmetic(&sens.iter().map(|s| f(&s[i])).collect::<Vec<_>>()).unwrap_or(0.0)
        };
        let (hc, dc, hs, ds) = (
            m(&|s| s.half[0]),
            m(&|s| s.double[0]),
            m(&|s| s.half[2]),
            m(&|s| s.double[2]),
        );
        sjson.insert(
            class.to_string(),
            json!({"core": [hc, dc], "system": [hs, ds]}),
        );
        let moves = |a: f64, base: f64| (a - base).abs() > 0.01 * base;
        if moves(hc, core0) || moves(dc, core0) || moves(hs, sys0) || moves(ds, sys0) {
            srows.push(vec![
                format!("`{class}`"),
                format!("{} / {}", f2(hc), f2(dc)),
                format!("{} / {}", f2(hs), f2(ds)),
            ]);
        }
    }
    md += &table(
        &[
            "class".into(),
            format!("core: halved / doubled (mean {})", f2(core0)),
            format!("system: halved / doubled (mean {})", f2(sys0)),
        ],
        &srows,
    );
    json.insert("sensitivity".into(), Value::Object(sjson));
    let power = if sys0 > 0.0 { mean / sys0 } else { 0.0 };
    md += &format!(
        "\nThe VGIW core's power over the Fermi SM's (speedup over system efficiency, means): \
         {}; the paper's means imply {:.1} ({:.0}x faster at {}x the efficiency).\n\n",
        f2(power),
        paper::SPEEDUP_MEAN / paper::EFFICIENCY_MEAN,
        paper::SPEEDUP_MEAN,
        paper::EFFICIENCY_MEAN
    );

    // Fig. 3.
    md += "## Fig. 3: live value cache accesses against register-file accesses\n\n\
         The paper: the LVC is accessed \"almost 10x less frequently\" than a GPU's register \
         file (one register-file access per warp-wide operand read or result write; LVC accesses \
         are words, over all replicas). weft: the VGIW run's LVC reads and writes over the Fermi \
         run's register-file accesses, at the preset:\n\n";
    let ratios: Vec<f64> = ks.iter().filter_map(Kernel::lvc_over_rf).collect();
    let rows: Vec<Vec<String>> = ks
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
    let lvc_mean = arithmetic(&ratios).unwrap_or(0.0);
    md += &format!(
        "\nMean {:.3} (the paper: about {}).\n\n",
        lvc_mean,
        paper::LVC_OVER_RF
    );
    json.insert(
        "lvc_over_rf".into(),
        json!(ks
            .iter()
            .map(|k| (k.name.clone(), json!(k.lvc_over_rf())))
            .collect::<Map<String, Value>>()),
    );

    // Reconfiguration.
    let shares: Vec<f64> = ks.iter().map(Kernel::reconfiguration_share).collect();
    let rows: Vec<Vec<String>> = ks
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
    md += &format!(
        "## Reconfiguration\n\n\
         The paper: {} cycles each, {:.2}% of the runtime on average, the median below 0.1%. \
         weft's `vgiw_reconfig` is {} cycles:\n\n",
        paper::RECONFIGURATION_CYCLES,
        100.0 * paper::RECONFIGURATION_SHARE,
        vgiw_m.keys().vgiw_reconfig
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
    let (share_mean, share_median) = (
        arithmetic(&shares).unwrap_or(0.0),
        median(&shares).unwrap_or(0.0),
    );
    md += &format!(
        "\nMean {:.2}%, median {:.2}%.\n\n",
        100.0 * share_mean,
        100.0 * share_median
    );
    json.insert(
        "reconfiguration_share".into(),
        json!({"mean": share_mean, "median": share_median}),
    );

    // Beside the paper.
    md += "## Beside the paper, measured\n\n";
    let names = |v: Vec<String>| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
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
    // Kernels whose Fermi run keeps its DRAM busy: no SM feature can speed them up, and
    // VGIW's speedup is its DRAM bytes against Fermi's at best.
    let dram_bound: Vec<String> = ks
        .iter()
        .filter(|k| Kernel::dram_share(&k.fermi, fermi_bpc) >= DRAM_FULL)
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
    let busiest_mean =
        arithmetic(&ks.iter().map(|k| k.busiest().1).collect::<Vec<_>>()).unwrap_or(0.0);
    md +=
        &format!(
        "- **Speedup**: {}x on average at the preset against the paper's over {:.0}x; {} of {} \
         kernels run slower on the VGIW core ({}). Measured why:\n\
         \x20 - The VGIW core is far from its units: {} lowered operations per cycle on average \
         of its 108 units, its busiest class {} busy on average. A thread holds its place in a \
         replica from injection to its end, and its end waits for its loads and its stores' \
         line fills, so threads in flight over their lifetime bound the rate: {} run at least \
         {:.0}% faster with {} threads per replica than with {} (mean {}x at {}). The paper \
         gives no count of threads in flight (no virtual channels per unit).\n\
         \x20 - The Fermi SM keeps its DRAM share busy (at least {:.0}% of the cycles) on {}: \
         no scheduler or load-issue feature can speed those up, and VGIW, which reads and \
         writes the L1 per thread without coalescing and allocates a line on a store miss, \
         moves as many DRAM bytes or more, so its DRAM allows no more than the table's figure.\n\
         \x20 - Units: {} would stay slower than the Fermi SM even with their busiest class \
         busy every cycle.\n\
         \x20 - weft's SIMT core lacks the GTX480 SM's GTO scheduling, second scheduler and \
         more than one load in flight per warp. Each could only make the Fermi SM faster, and \
         by no more than its bound: one warp instruction per cycle or its DRAM share busy \
         every cycle. Against a Fermi SM at that bound the VGIW core's speedup would be {}x on \
         average (the last column), against weft's {}x: what the missing features could \
         change at most.\n",
        f2(mean),
        paper::SPEEDUP_MEAN,
        slower.len(),
        ks.len(),
        names(slower),
        f2(arithmetic(&ks.iter().map(Kernel::vgiw_operations_per_cycle).collect::<Vec<_>>())
            .unwrap_or(0.0)),
        percent(busiest_mean),
        names(latency),
        100.0 * (LATENCY_GAIN - 1.0),
        REPLICA_THREADS.iter().max().unwrap_or(&0),
        study.preset_threads,
        f2(arithmetic(&ks.iter().map(|k| k.speedup_most_threads).collect::<Vec<_>>())
            .unwrap_or(0.0)),
        REPLICA_THREADS.iter().max().unwrap_or(&0),
        100.0 * DRAM_FULL,
        names(dram_bound),
        names(units_short),
        f2(arithmetic(
            &ks.iter()
                .map(|k| k.speedup_over_ideal_fermi(fermi_bpc))
                .collect::<Vec<_>>()
        )
        .unwrap_or(0.0)),
        f2(mean),
    );
    // The LVC's working set: live values x threads of a tile x 4 bytes.
    let lvc_bytes = u64::from(vgiw_m.keys().lvc_kb) * 1024;
    let spilling: Vec<String> = ks
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
    md += &format!(
        "- **Energy**: {}x at the system level on average (the paper: {}x), {}x at the die, \
         {}x at the core. At the core, the Fermi SM's register file (warp-wide operands) \
         against VGIW's token buffers, switch hops and LVC ({} KB: {spills}); at the die and \
         system, VGIW's per-thread L1 accesses and write-allocate move more lines and DRAM \
         bytes than the SIMT core's coalesced ones.\n",
        f2(sys0),
        paper::EFFICIENCY_MEAN,
        f2(level_mean(1).unwrap_or(0.0)),
        f2(core0),
        lvc_bytes / 1024,
    );
    let total = |f: &dyn Fn(&Kernel) -> u64| ks.iter().map(f).sum::<u64>().max(1) as f64;
    let lvc_per_block =
        total(&|k| k.vgiw_flow().lvc_accesses) / total(&|k| k.vgiw_flow().thread_blocks);
    let rf_per_warp_instruction =
        total(&|k| k.fermi_flow().register_file_accesses) / total(&|k| k.fermi.warp_instructions);
    let instructions_per_block =
        total(&|k| k.fermi.thread_instructions) / total(&|k| k.vgiw_flow().thread_blocks);
    md += &format!(
        "- **Live value cache**: {:.3} of the register file's accesses on average (the paper: \
         about {}). The register file counts one access per warp-wide operand, the LVC one per \
         thread's word (both as the paper defines them): over all kernels a thread reads or \
         writes {} live-value words per block it runs, which holds {} RV32 instructions, and a \
         warp instruction accesses {} registers, so the LVC sees 32 x {} / ({} x {}) = {} of \
         the register file's accesses (full warps). The paper's 10x fewer needs blocks that \
         pass few values for the work they do: weft's blocks are short (clang's RV32 code, \
         blocks ended at barriers) and pass every register a successor reads.\n",
        lvc_mean,
        paper::LVC_OVER_RF,
        f2(lvc_per_block),
        f2(instructions_per_block),
        f2(rf_per_warp_instruction),
        f2(lvc_per_block),
        f2(rf_per_warp_instruction),
        f2(instructions_per_block),
        f2(32.0 * lvc_per_block / (rf_per_warp_instruction * instructions_per_block)),
    );
    let short: Vec<String> = ks
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
    md += &format!(
        "- **Reconfiguration**: {:.2}% of the cycles on average, median {:.2}% (the paper: \
         {:.2}%, median below 0.1%). Above 1%: {}: many blocks over a small tile (the CVT's \
         bits over the blocks) make short block executions.\n\n",
        100.0 * share_mean,
        100.0 * share_median,
        100.0 * paper::RECONFIGURATION_SHARE,
        names(short)
    );

    // Cost.
    md += "## Cost: VGIW's blocks in weft's RTL\n\n";
    md += &cost::markdown(&cost_rows, "the paper");
    md += "\nFrom the report (`docs/report/`); weft's `vgiw_core` is smaller than the paper's \
           core (its fabric has 32 units, not 108: see the README).\n";
    json.insert("cost".into(), Value::Array(cost_rows));
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
    Page {
        markdown: md,
        json,
        charts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_takes_the_middle_or_the_mean_of_the_two() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(&[]), None);
    }
}
