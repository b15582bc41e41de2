//! `weft eval lwm`: the LWM paper's §6 on weft's core and kernels, with the cost of the
//! hardware measured on weft's RTL. Every workload of `kernels/lwm/` runs on the `lwm`
//! machine under each configuration of the paper's Figures 9 and 11-14 (warp size,
//! fetch group, the two LWM optimisations); the page (`lwm.md`), the data (`lwm.json`)
//! and the charts (`lwm-*.svg`) are written to `--out`.
//!
//! Performance is IPC normalised to the baseline (32 warps of 32, round robin). Every
//! configuration runs the same thread instructions (checked), so a normalised IPC is
//! the baseline's cycles over the configuration's.
use crate::workloads::{compile, run_to_end, Class, Workload, PAPER_CLASSES};
use clap::{Args, ValueEnum};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;
use weft_flow::chart::{grouped_bars, stacked_fractions, Series};
use weft_sim::core::machine::Machine;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Study {
    /// Large warps and two-level scheduling (LWM paper §6).
    Lwm,
}

#[derive(Args)]
pub struct EvalArgs {
    /// The study.
    study: Study,
    /// Where the page, its data and charts are written.
    #[arg(long, default_value = "docs/eval")]
    out: PathBuf,
    /// The folder of the workloads.
    #[arg(long, default_value = "kernels/lwm")]
    dir: PathBuf,
    /// Only these workloads (comma-separated names, default: every kernel in --dir).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Runs at a time.
    #[arg(long, default_value_t = 2)]
    jobs: usize,
}

/// The paper's averages over its baseline (§6.1): 2Lev8, LWM256, LWM256+2Lev2.
const PAPER_GAINS: [(&str, f64); 3] = [("2Lev8", 10.1), ("LWM256", 7.6), ("LWM256+2Lev2", 17.0)];
/// Large-warp sizes of Figure 11 and fetch groups of Figure 13.
const WARP_SIZES: [u32; 5] = [32, 64, 128, 256, 512];
const FETCH_GROUPS: [u32; 6] = [1, 2, 4, 8, 16, 32];
/// Bins of the active-lanes histograms (the paper's Figures 1 and 10 stack these).
const BINS: [(usize, usize); 6] = [(0, 0), (1, 7), (8, 15), (16, 23), (24, 31), (32, 32)];

/// One machine configuration of the study.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Config {
    warp_size: u32,
    fetch_group: u32,
    memory_opt: bool,
    jump_opt: bool,
    /// DRAM of 1-cycle rows and unlimited bandwidth: shows what memory latency costs.
    ideal_memory: bool,
}

impl Config {
    fn new(warp_size: u32, fetch_group: u32) -> Config {
        Config {
            warp_size,
            fetch_group,
            memory_opt: true,
            jump_opt: true,
            ideal_memory: false,
        }
    }

    fn with_ideal_memory(self) -> Config {
        Config {
            ideal_memory: true,
            ..self
        }
    }

    fn warps(&self, threads: u32) -> u32 {
        threads / self.warp_size
    }

    fn name(&self, threads: u32, lanes: u32) -> String {
        let grouped = self.fetch_group < self.warps(threads);
        let mut name = match (self.warp_size == lanes, grouped) {
            (true, false) => "Baseline".to_string(),
            (true, true) => format!("2Lev{}", self.fetch_group),
            (false, false) => format!("LWM{}", self.warp_size),
            (false, true) => format!("LWM{}+2Lev{}", self.warp_size, self.fetch_group),
        };
        if self.warp_size > lanes {
            match (self.memory_opt, self.jump_opt) {
                (true, true) => {}
                (false, true) => name.push_str(" no-mem-opt"),
                (true, false) => name.push_str(" no-jump-opt"),
                (false, false) => name.push_str(" no-opts"),
            }
        }
        if self.ideal_memory {
            name.push_str(" ideal memory");
        }
        name
    }

    /// The machine: `base` with this warp size, warp count and fetch group.
    fn machine(&self, base: &Machine, threads: u32) -> Result<Machine, String> {
        let mut m = base.clone();
        let divergence = if self.warp_size == base.lanes {
            "pdom"
        } else {
            "lwm"
        };
        m.set_all(&[
            format!("warp_size={}", self.warp_size).as_str(),
            format!("warps={}", self.warps(threads)).as_str(),
            format!("fetch_group={}", self.fetch_group).as_str(),
            format!("divergence={divergence}").as_str(),
            format!("lwm_memory_opt={}", self.memory_opt).as_str(),
            format!("lwm_jump_opt={}", self.jump_opt).as_str(),
        ])?;
        if self.ideal_memory {
            m.set_all(&["dram_row_hit=1", "dram_row_conflict=1", "dram_gbps=1000000"])?;
        }
        Ok(m)
    }
}

/// What one run measured.
#[derive(Clone, Debug, Serialize)]
struct Measured {
    cycles: u64,
    thread_instructions: u64,
    /// Warp instructions issued (sub-warps with large warps).
    warp_instructions: u64,
    /// L1 load lookups: one per distinct line per (sub-)warp instruction, replays included.
    l1_loads: u64,
    /// Store requests written through.
    l1_stores: u64,
    dram_row_hits: u64,
    /// Warp-cycles spent waiting at a barrier.
    barrier_stalls: u64,
    ipc: f64,
    simd_utilisation: f64,
    idle_fraction: f64,
    active_lanes_histogram: Vec<u64>,
    host_seconds: f64,
}

fn measure(w: &Workload, m: &Machine) -> Result<Measured, String> {
    let run = run_to_end(w, m).map_err(|e| format!("{}: {e}", w.name))?;
    let s = run.stats;
    Ok(Measured {
        cycles: s.cycles,
        thread_instructions: s.thread_instructions,
        warp_instructions: s.warp_instructions,
        l1_loads: s.l1.loads,
        l1_stores: s.l1.stores,
        dram_row_hits: s.dram.row_hits,
        barrier_stalls: s.stalls.barrier,
        ipc: s.ipc,
        simd_utilisation: s.simd_utilisation,
        idle_fraction: s.idle_fraction,
        active_lanes_histogram: s.active_lanes_histogram,
        host_seconds: run.seconds,
    })
}

/// Every run of the study: configuration name -> workload -> measurement.
struct Runs {
    threads: u32,
    lanes: u32,
    workloads: Vec<String>,
    configs: BTreeMap<Config, BTreeMap<String, Measured>>,
}

impl Runs {
    fn base(&self) -> Config {
        Config::new(self.lanes, self.threads / self.lanes)
    }

    fn get(&self, c: &Config, w: &str) -> &Measured {
        &self.configs[c][w]
    }

    /// IPC of `c` on `w` over the baseline's.
    fn speedup(&self, c: &Config, w: &str) -> f64 {
        self.get(c, w).ipc / self.get(&self.base(), w).ipc
    }

    /// The mean over the workloads of the normalised IPC.
    fn mean(&self, c: &Config) -> f64 {
        let n = self.workloads.len() as f64;
        self.workloads
            .iter()
            .map(|w| self.speedup(c, w))
            .sum::<f64>()
            / n
    }

    fn geomean(&self, c: &Config) -> f64 {
        let n = self.workloads.len() as f64;
        (self
            .workloads
            .iter()
            .map(|w| self.speedup(c, w).ln())
            .sum::<f64>()
            / n)
            .exp()
    }

    fn name(&self, c: &Config) -> String {
        c.name(self.threads, self.lanes)
    }

    /// Fetch groups possible with warps of `ws`: the powers of two up to the warp count.
    fn groups_of(&self, ws: u32) -> Vec<u32> {
        let warps = self.threads / ws;
        FETCH_GROUPS
            .iter()
            .copied()
            .filter(|&g| g <= warps)
            .collect()
    }
}

/// The configurations of Figures 9 and 11-14.
fn configs(threads: u32, lanes: u32) -> Vec<Config> {
    let mut all = vec![];
    for ws in WARP_SIZES.iter().map(|k| k * lanes / 32) {
        for g in FETCH_GROUPS.iter().copied().filter(|&g| g <= threads / ws) {
            all.push(Config::new(ws, g));
        }
    }
    let lwm256 = Config::new(8 * lanes, threads / (8 * lanes));
    for (memory_opt, jump_opt) in [(false, true), (true, false), (false, false)] {
        all.push(Config {
            memory_opt,
            jump_opt,
            ..lwm256
        });
    }
    all.push(Config::new(lanes, threads / lanes).with_ideal_memory());
    all.push(lwm256.with_ideal_memory());
    all
}

pub fn run(args: EvalArgs) -> Result<(), String> {
    let Study::Lwm = args.study;
    if args.jobs == 0 {
        return Err("--jobs 0: at least one run at a time".into());
    }
    let started = Instant::now();
    let base = Machine::lwm();
    let threads = base.warps * base.warp_size;
    let lanes = base.lanes;
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&args.dir)
        .map_err(|e| format!("{}: {e}", args.dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .filter(|p| {
            args.only.is_empty()
                || p.file_stem()
                    .and_then(|s| s.to_str())
                    .is_some_and(|s| args.only.iter().any(|o| o == s))
        })
        .collect();
    // The paper's order (its Table 2 and figures), then any other kernel by name.
    paths.sort_by_key(|p| {
        let name = p
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("")
            .to_string();
        let at = PAPER_CLASSES.iter().position(|(n, _, _)| *n == name);
        (at.unwrap_or(PAPER_CLASSES.len()), name)
    });
    for o in &args.only {
        if !paths
            .iter()
            .any(|p| p.file_stem().is_some_and(|s| s == o.as_str()))
        {
            return Err(format!("--only {o}: no {o}.c in {}", args.dir.display()));
        }
    }
    if paths.is_empty() {
        return Err(format!("no kernels (*.c) in {}", args.dir.display()));
    }
    eprintln!("compiling {} workloads", paths.len());
    let workloads: Vec<Workload> = paths.iter().map(|p| compile(p)).collect::<Result<_, _>>()?;
    let configs = configs(threads, lanes);
    let jobs: Vec<(Config, usize)> = configs
        .iter()
        .flat_map(|&c| (0..workloads.len()).map(move |w| (c, w)))
        .collect();
    eprintln!(
        "{} configurations x {} workloads = {} runs, {} at a time",
        configs.len(),
        workloads.len(),
        jobs.len(),
        args.jobs
    );
    let done = std::sync::atomic::AtomicUsize::new(0);
    let results = weft_flow::jobs::parallel(&jobs, args.jobs, |(c, w)| {
        let m = c.machine(&base, threads)?;
        let r = measure(&workloads[*w], &m);
        let k = done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        eprintln!(
            "  [{k}/{}] {} on {}: {}",
            jobs.len(),
            workloads[*w].name,
            c.name(threads, lanes),
            match &r {
                Ok(r) => format!("{} cycles, {:.2} s", r.cycles, r.host_seconds),
                Err(e) => e.clone(),
            }
        );
        r
    });
    let mut runs = Runs {
        threads,
        lanes,
        workloads: workloads.iter().map(|w| w.name.clone()).collect(),
        configs: BTreeMap::new(),
    };
    for ((c, w), r) in jobs.iter().zip(results) {
        runs.configs
            .entry(*c)
            .or_default()
            .insert(workloads[*w].name.clone(), r?);
    }
    // Mechanisms change when threads run, never what they compute.
    for w in &runs.workloads {
        let base = runs.get(&runs.base(), w).thread_instructions;
        for (c, by) in &runs.configs {
            if by[w].thread_instructions != base {
                return Err(format!(
                    "{w}: {} ran {} thread instructions, the baseline {base}",
                    runs.name(c),
                    by[w].thread_instructions
                ));
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let write = |file: &str, text: String| {
        let path = args.out.join(file);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    let page = Page::new(&runs, seconds);
    write("lwm.md", page.markdown())?;
    write(
        "lwm.json",
        serde_json::to_string_pretty(&page.json()).map_err(|e| e.to_string())? + "\n",
    )?;
    for (file, svg) in page.charts() {
        write(&file, svg)?;
    }
    eprintln!(
        "wrote {} (lwm.md, lwm.json, charts) in {}",
        args.out.display(),
        weft_flow::report::duration(seconds)
    );
    Ok(())
}

/// The study's page: tables, charts and data from the runs.
struct Page<'a> {
    runs: &'a Runs,
    seconds: f64,
    fig9: Vec<Config>,
}

fn pct(x: f64) -> String {
    format!("{:+.1}%", 100.0 * (x - 1.0))
}

/// A Markdown table.
fn table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut s = format!(
        "| {} |\n|{}\n",
        header.join(" | "),
        "---|".repeat(header.len())
    );
    for r in rows {
        s.push_str(&format!("| {} |\n", r.join(" | ")));
    }
    s
}

impl<'a> Page<'a> {
    fn new(runs: &'a Runs, seconds: f64) -> Page<'a> {
        let l = runs.lanes;
        let t = runs.threads;
        let fig9 = vec![
            runs.base(),
            Config::new(l, 8),
            Config::new(8 * l, t / (8 * l)),
            Config::new(8 * l, 2),
        ];
        Page {
            runs,
            seconds,
            fig9,
        }
    }

    fn lwm256(&self) -> Config {
        self.fig9[2]
    }

    /// Normalised-IPC table: one row per workload, one column per configuration, then
    /// the mean and geometric mean.
    fn speedup_table(&self, configs: &[Config]) -> String {
        let names: Vec<String> = configs.iter().map(|c| self.runs.name(c)).collect();
        self.labelled_speedup_table(configs, &names)
    }

    /// As `speedup_table`, with the columns labelled `labels`.
    fn labelled_speedup_table(&self, configs: &[Config], labels: &[String]) -> String {
        let r = self.runs;
        let mut header = vec!["workload".to_string()];
        header.extend(labels.iter().cloned());
        let mut rows: Vec<Vec<String>> = r
            .workloads
            .iter()
            .map(|w| {
                let mut row = vec![w.clone()];
                row.extend(configs.iter().map(|c| format!("{:.3}", r.speedup(c, w))));
                row
            })
            .collect();
        for (label, f) in [
            ("**mean**", Runs::mean as fn(&Runs, &Config) -> f64),
            ("geometric mean", Runs::geomean),
        ] {
            let mut row = vec![label.to_string()];
            row.extend(configs.iter().map(|c| format!("{:.3}", f(r, c))));
            rows.push(row);
        }
        table(&header, &rows)
    }

    /// The best fetch group per warp size (Figure 14), by mean normalised IPC.
    fn best_groups(&self) -> Vec<Config> {
        let r = self.runs;
        WARP_SIZES
            .iter()
            .map(|k| k * r.lanes / 32)
            .map(|ws| {
                r.groups_of(ws)
                    .into_iter()
                    .map(|g| Config::new(ws, g))
                    .max_by(|a, b| r.mean(a).total_cmp(&r.mean(b)))
                    .expect("every warp size has a fetch group")
            })
            .collect()
    }

    fn warp_sizes(&self) -> Vec<Config> {
        let r = self.runs;
        WARP_SIZES
            .iter()
            .map(|k| k * r.lanes / 32)
            .map(|ws| Config::new(ws, r.threads / ws))
            .collect()
    }

    fn opts(&self) -> Vec<Config> {
        let l = self.lwm256();
        [(true, true), (false, true), (true, false), (false, false)]
            .into_iter()
            .map(|(memory_opt, jump_opt)| Config {
                memory_opt,
                jump_opt,
                ..l
            })
            .collect()
    }

    fn fetch_groups(&self) -> Vec<Config> {
        let r = self.runs;
        r.groups_of(r.lanes)
            .into_iter()
            .map(|g| Config::new(r.lanes, g))
            .collect()
    }

    /// Fractions of cycles per bin of active lanes.
    fn binned(&self, c: &Config, w: &str) -> Vec<f64> {
        let h = &self.runs.get(c, w).active_lanes_histogram;
        let total: u64 = h.iter().sum();
        let lanes = self.runs.lanes as usize;
        BINS.iter()
            .map(|&(lo, hi)| {
                let (lo, hi) = (lo * lanes / 32, hi * lanes / 32);
                let n: u64 = h[lo.min(h.len() - 1)..=hi.min(h.len() - 1)].iter().sum();
                n as f64 / total.max(1) as f64
            })
            .collect()
    }

    /// Mean normalised IPC of `c` over the workloads `pick` selects by their paper class.
    fn class_mean(&self, c: &Config, pick: impl Fn(Class, Class) -> bool) -> (f64, Vec<String>) {
        let r = self.runs;
        let chosen: Vec<String> = r
            .workloads
            .iter()
            .filter(|w| {
                PAPER_CLASSES
                    .iter()
                    .any(|(n, branch, idle)| n == w && pick(*branch, *idle))
            })
            .cloned()
            .collect();
        let mean = chosen.iter().map(|w| r.speedup(c, w)).sum::<f64>() / chosen.len().max(1) as f64;
        (mean, chosen)
    }

    /// What the paper's §6 says beside what weft measured, each difference with the
    /// measurement that explains it. Generated from the runs: the text states only what
    /// the numbers show.
    fn beside_the_paper(&self) -> String {
        let r = self.runs;
        let (base, lev8, lwm256, both) = (self.fig9[0], self.fig9[1], self.fig9[2], self.fig9[3]);
        let mut s = String::new();
        let means: Vec<String> = self.fig9[1..].iter().map(|c| pct(r.mean(c))).collect();
        let same_sign = self.fig9[1..]
            .iter()
            .zip(PAPER_GAINS)
            .all(|(c, (_, paper))| (r.mean(c) > 1.0) == (paper > 0.0));
        s.push_str(&format!(
            "- **Figure 9 averages.** weft {} for 2Lev8 / LWM256 / LWM256+2Lev2, the paper \
             +10.1 / +7.6 / +17.0%: {}; the combination {} the best of the three ({}).\n",
            means.join(" / "),
            if same_sign {
                "every gain has the paper's sign"
            } else {
                "not every gain has the paper's sign"
            },
            if r.mean(&both) > r.mean(&lev8).max(r.mean(&lwm256)) {
                "is"
            } else {
                "is not"
            },
            "paper: it is"
        ));
        let divergent = |b: Class, _| b != Class::Low;
        let idle = |_, i: Class| i != Class::Low;
        let (on, names) = self.class_mean(&lwm256, divergent);
        let (off, _) = self.class_mean(&lwm256, |b, i| !divergent(b, i));
        s.push_str(&format!(
            "- **Where each mechanism helps.** The paper: LWM helps the branch-intensive \
             workloads, two-level scheduling the idle-FU-intensive ones. LWM256 on the \
             workloads its Table 2 calls divergent (medium or high: {}) {}, on the others {}.",
            names.join(", "),
            pct(on),
            pct(off)
        ));
        let (on, names) = self.class_mean(&lev8, idle);
        let (off, _) = self.class_mean(&lev8, |b, i| !idle(b, i));
        s.push_str(&format!(
            " 2Lev8 on its idle-FU-intensive ones (medium or high: {}) {}, on the others {}.\n",
            names.join(", "),
            pct(on),
            pct(off)
        ));
        // LWM alone losing: the paper reports no benefit on the memory-bound workloads,
        // not a loss. Ideal memory separates latency from everything else.
        let losers: Vec<&String> = r
            .workloads
            .iter()
            .filter(|w| r.speedup(&lwm256, w) < 0.98)
            .collect();
        if !losers.is_empty() {
            let ideal = |w: &str| {
                r.get(&base.with_ideal_memory(), w).cycles as f64
                    / r.get(&lwm256.with_ideal_memory(), w).cycles as f64
            };
            let (latency, other): (Vec<&String>, Vec<&String>) =
                losers.iter().partition(|w| ideal(w) >= 0.98);
            let detail = |ws: &[&String]| -> String {
                ws.iter()
                    .map(|w| {
                        format!(
                            "{w} {:.3} (idle FU {:.1}% -> {:.1}%; with ideal memory {:.3}; \
                             barrier-stall warp-cycles {} -> {})",
                            r.speedup(&lwm256, w),
                            100.0 * r.get(&base, w).idle_fraction,
                            100.0 * r.get(&lwm256, w).idle_fraction,
                            ideal(w),
                            r.get(&base, w).barrier_stalls,
                            r.get(&lwm256, w).barrier_stalls,
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            };
            s.push_str(
                "- **LWM256 loses on some workloads** (the paper: LWM alone \"does not provide \
                 much benefit\" on the idle-FU-intensive ones, no loss). Ideal memory below is \
                 DRAM rows of 1 cycle and unlimited bandwidth, for the baseline and LWM256 \
                 alike.",
            );
            if !latency.is_empty() {
                s.push_str(&format!(
                    " Memory latency: {}. With ideal memory the loss is gone: a large warp is \
                     fetched again only when all its sub-warps complete, so it waits for the \
                     slowest of its rows' loads, and the scheduler has 4 streams instead of 32 \
                     to cover the wait. Two-level scheduling takes most of it back (Figure 9, \
                     LWM256+2Lev2).",
                    detail(&latency)
                ));
            }
            if !other.is_empty() {
                s.push_str(&format!(
                    " Not memory latency (the loss stays with ideal memory): {}. Where the \
                     barrier stalls grow, a large warp waiting at a barrier takes 256 threads \
                     out of issue, and 4 warps cannot keep the pipeline busy meanwhile.",
                    detail(&other)
                ));
            }
            s.push('\n');
        }
        let opts = self.opts();
        let (no_mem, no_jump) = (opts[1], opts[2]);
        let helped: Vec<String> = r
            .workloads
            .iter()
            .filter(|w| r.speedup(&no_mem, w) > 1.01 * r.speedup(&lwm256, w))
            .map(|w| {
                let (a, b) = (r.get(&lwm256, w), r.get(&no_mem, w));
                format!(
                    "{w} {:.3} -> {:.3} (sub-warps {} -> {}, L1 load lookups {} -> {}, \
                     stores {} -> {}, DRAM row hits {} -> {})",
                    r.speedup(&lwm256, w),
                    r.speedup(&no_mem, w),
                    a.warp_instructions,
                    b.warp_instructions,
                    a.l1_loads,
                    b.l1_loads,
                    a.l1_stores,
                    b.l1_stores,
                    a.dram_row_hits,
                    b.dram_row_hits
                )
            })
            .collect();
        s.push_str(&format!(
            "- **Figure 12, memory optimisation.** The paper: \"does not provide much benefit\". \
             weft: LWM256 {} with it, {} without.",
            pct(r.mean(&lwm256)),
            pct(r.mean(&no_mem))
        ));
        if !helped.is_empty() {
            s.push_str(&format!(
                " Without it, faster on {} (with it -> without). Packing threads of different \
                 rows into a sub-warp adds the memory requests the optimisation avoids (more \
                 lookups and stores) and issues fewer sub-warps; where the sub-warps fall, \
                 the issue cycles saved weigh more; where the DRAM row hits rise, the packed \
                 order of scattered stores finds open rows more often (FCFS).",
                helped.join("; ")
            ));
        }
        s.push('\n');
        let most = r
            .workloads
            .iter()
            .max_by(|a, b| {
                let gain = |w: &str| r.speedup(&lwm256, w) - r.speedup(&no_jump, w);
                gain(a).total_cmp(&gain(b))
            })
            .expect("workloads");
        s.push_str(&format!(
            "- **Figure 12, jump optimisation.** The paper: about +1%. weft: {} with it, {} \
             without (most on {most}: {:.3} without, {:.3} with).\n",
            pct(r.mean(&lwm256)),
            pct(r.mean(&no_jump)),
            r.speedup(&no_jump, most),
            r.speedup(&lwm256, most),
        ));
        let best = |configs: &[Config]| -> Config {
            *configs
                .iter()
                .max_by(|a, b| r.mean(a).total_cmp(&r.mean(b)))
                .expect("configurations")
        };
        let sizes = self.warp_sizes();
        let best_size = best(&sizes);
        s.push_str(&format!(
            "- **Figure 11.** The paper: best at 256 threads, 512 slightly worse. weft: best \
             {} ({}), LWM512 {} against LWM256 {}.\n",
            r.name(&best_size),
            pct(r.mean(&best_size)),
            pct(r.mean(&sizes[4])),
            pct(r.mean(&sizes[3]))
        ));
        let groups = self.fetch_groups();
        let best_group = best(&groups);
        let means: Vec<String> = groups
            .iter()
            .map(|c| format!("{} {}", c.fetch_group, pct(r.mean(c))))
            .collect();
        s.push_str(&format!(
            "- **Figure 13.** The paper: groups of 8 best (8 warps fill the 7-stage pipeline), \
             16 less, smaller or larger like round robin. weft: best {} ({}).\n",
            r.name(&best_group),
            means.join(", ")
        ));
        let combos = self.best_groups();
        let best_combo = best(&combos);
        s.push_str(&format!(
            "- **Figure 14.** The paper: LWM256+2Lev2 best overall. weft: best {} ({}), \
             LWM256+2Lev2 {}.",
            r.name(&best_combo),
            pct(r.mean(&best_combo)),
            pct(r.mean(&both))
        ));
        if best_combo != both {
            let mut gaps: Vec<(f64, &String)> = r
                .workloads
                .iter()
                .map(|w| (r.speedup(&best_combo, w) - r.speedup(&both, w), w))
                .collect();
            gaps.sort_by(|a, b| b.0.total_cmp(&a.0));
            let (gap, w) = gaps[0];
            s.push_str(&format!(
                " The largest difference is {w} ({:.3} against {:.3}, {:+.3}); LWM256 alone \
                 gives {:.3} there.",
                r.speedup(&best_combo, w),
                r.speedup(&both, w),
                gap,
                r.speedup(&lwm256, w)
            ));
        }
        s.push('\n');
        s
    }

    fn markdown(&self) -> String {
        let r = self.runs;
        let base = r.base();
        let size = |pick: fn(u64, u64) -> u64| {
            r.workloads
                .iter()
                .map(|w| r.get(&base, w).thread_instructions)
                .reduce(pick)
                .unwrap_or(0)
        };
        let mut s = String::new();
        s.push_str("# Large warps and two-level scheduling on weft's core (LWM paper §6)\n\n");
        s.push_str(&format!(
            "Regenerate with `cargo run --release -- eval lwm` ({} runs, {} on two cores). \
             Machine: the `lwm` preset (CORE.md §3: 1 core, {} lanes, {} threads, barrel \
             processing, 7-stage pipeline, 32 KB L1, DRAM 8 banks FCFS 128 GB/s at an assumed \
             1.5 GHz). Workloads: `kernels/lwm/` ({}). Performance is IPC normalised to the \
             baseline (32 warps of 32, round robin); every configuration runs the same thread \
             instructions (checked), so it is the baseline's cycles over the configuration's. \
             Averages are the arithmetic mean over the workloads (the paper does not say which \
             mean it uses); the geometric mean is beside it. Workloads are in the paper's order \
             (its Table 2). Two differences of method: the paper's workloads run 100-200 M \
             instructions (x86 Pthreads ports), weft's C kernels {:.1}-{:.1} M; and DWF, the \
             paper's second bar, is not a weft block, so it is not here.\n\n",
            r.configs.len() * r.workloads.len(),
            weft_flow::report::duration(self.seconds),
            r.lanes,
            r.threads,
            r.workloads.join(", "),
            size(u64::min) as f64 / 1e6,
            size(u64::max) as f64 / 1e6,
        ));
        s.push_str("## Figure 9: IPC over the baseline\n\n");
        s.push_str(&self.speedup_table(&self.fig9[1..]));
        s.push_str("\n![Figure 9](lwm-fig9.svg)\n\n");
        s.push_str("Averages beside the paper's (§6.1):\n\n");
        let rows: Vec<Vec<String>> = PAPER_GAINS
            .iter()
            .zip(&self.fig9[1..])
            .map(|((name, paper), c)| {
                vec![
                    name.to_string(),
                    pct(r.mean(c)),
                    pct(r.geomean(c)),
                    format!("{paper:+.1}%"),
                ]
            })
            .collect();
        s.push_str(&table(
            &[
                "configuration".into(),
                "weft (mean)".into(),
                "weft (geometric mean)".into(),
                "paper".into(),
            ],
            &rows,
        ));
        s.push_str("\nBaseline per workload (the denominators):\n\n");
        let rows: Vec<Vec<String>> = r
            .workloads
            .iter()
            .map(|w| {
                let m = r.get(&base, w);
                let l = r.get(&self.lwm256(), w);
                vec![
                    w.clone(),
                    m.cycles.to_string(),
                    format!("{:.2}", m.ipc),
                    format!("{:.1}%", 100.0 * m.simd_utilisation),
                    format!("{:.1}%", 100.0 * l.simd_utilisation),
                    format!("{:.1}%", 100.0 * m.idle_fraction),
                    format!("{:.1}%", 100.0 * l.idle_fraction),
                ]
            })
            .collect();
        s.push_str(&table(
            &[
                "workload".into(),
                "baseline cycles".into(),
                "baseline IPC".into(),
                "SIMD util. baseline".into(),
                "SIMD util. LWM256".into(),
                "idle FU baseline".into(),
                "idle FU LWM256".into(),
            ],
            &rows,
        ));
        s.push_str("\n## Figure 11: warp size (round robin)\n\n");
        s.push_str(&self.speedup_table(&self.warp_sizes()[1..]));
        s.push_str("\n![Figure 11](lwm-fig11.svg)\n\n");
        s.push_str("## Figure 12: the LWM optimisations (LWM256)\n\n");
        s.push_str(&self.speedup_table(&self.opts()));
        s.push_str("\n## Figure 13: fetch group size (warps of 32)\n\n");
        s.push_str(&self.speedup_table(&self.fetch_groups()));
        s.push_str("\n![Figure 13](lwm-fig13.svg)\n\n");
        s.push_str("## Figure 14: the best fetch group per warp size\n\n");
        let best = self.best_groups();
        let names: Vec<String> = best.iter().map(|c| r.name(c)).collect();
        s.push_str(&format!(
            "Columns are warp sizes, each with its best fetch group by mean: {}.\n\n",
            names.join(", ")
        ));
        let sizes: Vec<String> = best
            .iter()
            .map(|c| format!("warps of {}", c.warp_size))
            .collect();
        s.push_str(&self.labelled_speedup_table(&best, &sizes));
        s.push_str("\n## Beside the paper, measured\n\n");
        s.push_str(&self.beside_the_paper());
        s.push_str("\n## Figures 1 and 10: active lanes per cycle, baseline and LWM256\n\n");
        s.push_str(&format!(
            "Fraction of cycles with 0, 1-{}, ... active lanes.\n\n![Figures 1 and 10](lwm-lanes.svg)\n\n",
            7 * r.lanes / 32
        ));
        s.push_str("## Cost: the hardware each mechanism adds, measured on weft's RTL\n\n");
        s.push_str(&cost_markdown());
        s
    }

    fn charts(&self) -> Vec<(String, String)> {
        let r = self.runs;
        let mut categories = r.workloads.clone();
        categories.push("mean".into());
        let series = |configs: &[Config]| -> Vec<Series> {
            configs
                .iter()
                .map(|c| Series {
                    name: r.name(c),
                    values: r
                        .workloads
                        .iter()
                        .map(|w| Some(r.speedup(c, w)))
                        .chain([Some(r.mean(c))])
                        .collect(),
                })
                .collect()
        };
        let baseline = Some((1.0, "baseline"));
        let bars = |title: &str, configs: &[Config]| {
            grouped_bars(
                title,
                "IPC over the baseline",
                &categories,
                &series(configs),
                2,
                baseline,
            )
        };
        let mut lanes_rows = vec![];
        let mut fractions = vec![];
        for w in &r.workloads {
            for (label, c) in [("baseline", r.base()), ("LWM256", self.lwm256())] {
                lanes_rows.push(format!("{w} {label}"));
                fractions.push(self.binned(&c, w));
            }
        }
        let bins: Vec<String> = BINS
            .iter()
            .map(|&(lo, hi)| {
                let (lo, hi) = (lo * r.lanes as usize / 32, hi * r.lanes as usize / 32);
                if lo == hi {
                    lo.to_string()
                } else {
                    format!("{lo}-{hi}")
                }
            })
            .collect();
        vec![
            (
                "lwm-fig9.svg".into(),
                bars(
                    "LWM paper Figure 9 on weft: IPC over the baseline",
                    &self.fig9[1..],
                ),
            ),
            (
                "lwm-fig11.svg".into(),
                bars(
                    "Figure 11 on weft: warp size, round robin",
                    &self.warp_sizes()[1..],
                ),
            ),
            (
                "lwm-fig13.svg".into(),
                bars(
                    "Figure 13 on weft: fetch group size, warps of 32",
                    &self.fetch_groups(),
                ),
            ),
            (
                "lwm-lanes.svg".into(),
                stacked_fractions(
                    "Figures 1 and 10 on weft: cycles by active lanes",
                    &lanes_rows,
                    &bins,
                    &fractions,
                ),
            ),
        ]
    }

    fn json(&self) -> serde_json::Value {
        let r = self.runs;
        let configs: serde_json::Map<String, serde_json::Value> = r
            .configs
            .iter()
            .map(|(c, by)| {
                let m = c.machine(&Machine::lwm(), r.threads).expect("ran");
                (
                    r.name(c),
                    serde_json::json!({
                        "warp_size": c.warp_size,
                        "warps": m.warps,
                        "fetch_group": c.fetch_group,
                        "lwm_memory_opt": c.memory_opt,
                        "lwm_jump_opt": c.jump_opt,
                        "mean_normalised_ipc": r.mean(c),
                        "geomean_normalised_ipc": r.geomean(c),
                        "normalised_ipc": r.workloads.iter().map(|w| (w.clone(), r.speedup(c, w))).collect::<BTreeMap<_, _>>(),
                        "runs": by,
                    }),
                )
            })
            .collect();
        serde_json::json!({
            "study": "lwm",
            "machine": "lwm",
            "seconds": self.seconds,
            "workloads": r.workloads,
            "paper_gains_percent": PAPER_GAINS.iter().map(|(n, g)| (n.to_string(), *g)).collect::<BTreeMap<_, _>>(),
            "figure9": self.fig9[1..].iter().map(|c| r.name(c)).collect::<Vec<_>>(),
            "best_fetch_group": self.best_groups().iter().map(|c| r.name(c)).collect::<Vec<_>>(),
            "configs": configs,
            "cost": cost_rows(),
        })
    }
}

/// The blocks each mechanism adds, as presets of the report, and what the paper says
/// they store (§3.3).
const COST: &[(&str, &str, &str)] = &[
    ("LWM", "sub_warp_unit", "active-mask copy: 256 bits"),
    (
        "LWM",
        "branch_buffers",
        "taken / not-taken buffers: 512 bits",
    ),
    ("2Lev8", "two_level_scheduler", "no storage"),
    ("baseline", "round_robin_scheduler", "(what 2Lev8 replaces)"),
    ("LWM256+2Lev2", "two_level_scheduler_4x2", "no storage"),
];

/// The cost presets' figures from the report (cache, then the published report).
fn cost_rows() -> Vec<serde_json::Value> {
    let known = weft_flow::report::Known::project();
    COST.iter()
        .map(|&(mechanism, preset, paper)| {
            let row = known.last(preset);
            serde_json::json!({
                "mechanism": mechanism,
                "preset": preset,
                "paper_storage": paper,
                "flip_flops": row.as_ref().and_then(|r| r.area.as_ref()).map(|a| a.flip_flops),
                "cells": row.as_ref().and_then(|r| r.area.as_ref()).map(|a| a.cells),
                "gates": row.as_ref().and_then(|r| r.area.as_ref()).map(|a| a.gates),
                "ice40_logic_cells": row.as_ref().and_then(|r| r.fpga.as_ref()).map(|f| f.logic_cells),
                "ice40_fmax_mhz": row.as_ref().and_then(|r| r.fpga.as_ref()).and_then(|f| f.fmax_median_mhz),
                "asic": row.as_ref().and_then(|r| r.asic.clone()),
            })
        })
        .collect()
}

fn cost_markdown() -> String {
    let cell = |v: &serde_json::Value| match v {
        serde_json::Value::Null => "n/a".to_string(),
        serde_json::Value::Number(n) => n.to_string(),
        other => other.to_string(),
    };
    let rows: Vec<Vec<String>> = cost_rows()
        .iter()
        .map(|r| {
            let asic = &r["asic"];
            vec![
                r["mechanism"].as_str().unwrap_or("").to_string(),
                format!("`{}`", r["preset"].as_str().unwrap_or("")),
                cell(&r["flip_flops"]),
                cell(&r["cells"]),
                cell(&r["gates"]),
                cell(&r["ice40_logic_cells"]),
                cell(&r["ice40_fmax_mhz"]),
                asic["area_um2"]
                    .as_f64()
                    .map_or("n/a".into(), |a| format!("{a:.0}")),
                asic["critical_path_ns"]
                    .as_f64()
                    .map_or("n/a".into(), |a| format!("{a:.3}")),
                r["paper_storage"].as_str().unwrap_or("").to_string(),
            ]
        })
        .collect();
    let mut s = table(
        &[
            "mechanism".into(),
            "block (preset)".into(),
            "flip-flops".into(),
            "Yosys cells".into(),
            "2-input gates".into(),
            "iCE40 LCs".into(),
            "iCE40 Fmax MHz".into(),
            "osu018 um2".into(),
            "osu018 critical path ns".into(),
            "paper (§3.3)".into(),
        ],
        &rows,
    );
    let rows = cost_rows();
    let of = |preset: &str, key: &dyn Fn(&serde_json::Value) -> Option<f64>| -> Option<f64> {
        rows.iter().find(|r| r["preset"] == preset).and_then(key)
    };
    let ffs = |r: &serde_json::Value| r["flip_flops"].as_f64();
    let um2 = |r: &serde_json::Value| r["asic"]["area_um2"].as_f64();
    let cells = |r: &serde_json::Value| r["cells"].as_f64();
    if let (Some(a), Some(b)) = (of("sub_warp_unit", &ffs), of("branch_buffers", &ffs)) {
        s.push_str(&format!(
            "\nLWM's blocks together: {} flip-flops against the paper's 768 bits of storage{}.",
            a + b,
            match (of("sub_warp_unit", &um2), of("branch_buffers", &um2)) {
                (Some(x), Some(y)) => format!(", {:.0} um2 of osu018 cells", x + y),
                _ => String::new(),
            }
        ));
    }
    if let (Some(two), Some(rr)) = (
        of("two_level_scheduler", &cells),
        of("round_robin_scheduler", &cells),
    ) {
        s.push_str(&format!(
            " Two-level scheduling over round robin (32 warps): {:+.0} Yosys cells.",
            two - rr
        ));
    }
    s.push_str(
        "\nFigures from `docs/report/` (`cargo run --release -- report PRESET` remeasures one). \
         The paper's 768 bits are the LWM's storage for 256-thread warps on 32 lanes; the \
         sub-warp unit and branch buffers presets are that size, their flip-flops also count \
         control state. Two-level scheduling adds no storage in the paper; the scheduler \
         rows show the logic it adds over round robin.\n",
    );
    s
}
