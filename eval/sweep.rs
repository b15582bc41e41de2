//! The sweep: every point of a study on every workload, one progress line per run, and
//! what every study must hold (every point of a workload runs the same thread
//! instructions: mechanisms change when threads run, never what they compute).
use crate::measure::Measured;
use crate::workload::Workload;
use crate::Study;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use weft_flow::runner::On;
use weft_sim::core::machine::Machine;

/// One point's runs, each with the study's counts `X`.
pub struct PointRuns<X = ()> {
    /// Its name on the page.
    pub label: String,
    /// The `--set` list that builds its machine from the preset.
    pub sets: Vec<String>,
    pub machine: Machine,
    /// Workload -> measurement.
    pub runs: BTreeMap<String, Measured<X>>,
}

impl<X> PointRuns<X> {
    /// A point whose machine is `base` with `sets` applied (checked once).
    pub fn new(
        base: &Machine,
        label: String,
        sets: Vec<String>,
        runs: BTreeMap<String, Measured<X>>,
    ) -> Result<PointRuns<X>, String> {
        let machine = base.with(&sets).map_err(|e| format!("{label}: {e}"))?;
        Ok(PointRuns {
            label,
            sets,
            machine,
            runs,
        })
    }
}

/// Every run of a study, each with the study's counts `X`.
pub struct Runs<P, X = ()> {
    /// The preset every point starts from.
    pub base: Machine,
    /// The point every other is normalised to.
    pub baseline: P,
    /// In the page's order.
    pub workloads: Vec<String>,
    pub points: BTreeMap<P, PointRuns<X>>,
    /// Host seconds of the whole study (compiling, running).
    pub seconds: f64,
}

impl<P: Copy + Ord, X> Runs<P, X> {
    /// `p`'s measurement on `w` (both were run).
    pub fn get(&self, p: &P, w: &str) -> &Measured<X> {
        &self.points[p].runs[w]
    }

    pub fn label(&self, p: &P) -> String {
        self.points[p].label.clone()
    }

    /// Runs in all.
    pub fn len(&self) -> usize {
        self.points.values().map(|p| p.runs.len()).sum()
    }

    /// The workloads `p` ran on, in the page's order.
    fn ran(&self, p: &P) -> impl Iterator<Item = &String> {
        let runs = &self.points[p].runs;
        self.workloads.iter().filter(move |w| runs.contains_key(*w))
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// IPC of `p` on `w` over the baseline's.
    pub fn speedup(&self, p: &P, w: &str) -> f64 {
        self.get(p, w).ipc / self.get(&self.baseline, w).ipc
    }

    /// The arithmetic mean over the workloads `p` ran on of the normalised IPC.
    pub fn mean(&self, p: &P) -> f64 {
        let n = self.ran(p).count() as f64;
        self.ran(p).map(|w| self.speedup(p, w)).sum::<f64>() / n
    }

    /// The geometric mean over the workloads `p` ran on of the normalised IPC.
    pub fn geomean(&self, p: &P) -> f64 {
        let n = self.ran(p).count() as f64;
        (self.ran(p).map(|w| self.speedup(p, w).ln()).sum::<f64>() / n).exp()
    }

    /// The point of `candidates` with the highest mean normalised IPC (the last of equal
    /// ones); `None` when there are none.
    pub fn best(&self, candidates: &[P]) -> Option<P> {
        candidates
            .iter()
            .copied()
            .max_by(|a, b| self.mean(a).total_cmp(&self.mean(b)))
    }
}

/// The assignments of `sets` that change `base` into `full` (built from `base` with
/// `sets`), in their order: the shortest `--set` list that builds the same machine (a
/// key whose last value is the base's is dropped with every assignment of it).
pub fn delta(base: &Machine, full: &Machine, sets: &[String]) -> Vec<String> {
    let (before, after) = (base.values(), full.values());
    let changed = |key: &str| {
        let at = before.iter().position(|(k, _)| *k == key);
        at.is_none_or(|i| before[i].1 != after[i].1)
    };
    sets.iter()
        .filter(|s| changed(s.split_once('=').map_or(s.as_str(), |(k, _)| k).trim()))
        .cloned()
        .collect()
}

/// Runs every point of `study` on every workload where `options` say (`jobs` at a time
/// here, or a Slurm array), and checks that the points of a workload ran the same thread
/// instructions.
pub fn sweep<S: Study>(
    study: &S,
    workloads: &[Workload],
    options: &crate::Options,
    log: &(dyn Fn(&str) + Sync),
) -> Result<Runs<S::Point, S::Counts>, String> {
    let base = Machine::preset(study.machine())?;
    let mut points = BTreeMap::new();
    let order = study.points();
    for p in &order {
        let label = study.label(p);
        let sets = study.sets(p);
        let machine = base.with(&sets).map_err(|e| format!("{label}: {e}"))?;
        let sets = delta(&base, &machine, &sets);
        let runs = BTreeMap::new();
        points.insert(
            *p,
            PointRuns {
                label,
                sets,
                machine,
                runs,
            },
        );
    }
    let work: Vec<(S::Point, usize)> = order
        .iter()
        .flat_map(|&p| (0..workloads.len()).map(move |w| (p, w)))
        .filter(|(p, w)| study.runs_on(p, &workloads[*w].name))
        .collect();
    log(&format!(
        "{} configurations x {} workloads: {} runs, {}",
        order.len(),
        workloads.len(),
        work.len(),
        match options.on {
            On::Local => format!("{} at a time", options.jobs),
            On::Slurm(_) => "as a Slurm job array".into(),
        }
    ));
    let done = AtomicUsize::new(0);
    let what =
        |(p, w): &(S::Point, usize)| format!("{} on {}", workloads[*w].name, points[p].label);
    let results = weft_flow::runner::run(
        &options.on,
        options.jobs,
        &work,
        what,
        |(p, w)| study.measure(&workloads[*w], &points[p].machine),
        |job, r| {
            let k = done.fetch_add(1, Ordering::SeqCst) + 1;
            log(&format!(
                "  [{k}/{}] {}: {}",
                work.len(),
                what(job),
                match r {
                    Ok(r) => format!("{} cycles, {:.2} s", r.cycles, r.host_seconds),
                    Err(e) => e.clone(),
                }
            ))
        },
    )?;
    let names: Vec<String> = work.iter().map(what).collect();
    let mut failed = vec![];
    for ((p, w), (r, name)) in work.iter().zip(results.into_iter().zip(names)) {
        match r {
            Ok(r) => {
                let point = points.get_mut(p).expect("every point is listed");
                point.runs.insert(workloads[*w].name.clone(), r);
            }
            Err(e) => failed.push(format!("{name}: {e}")),
        }
    }
    if !failed.is_empty() {
        return Err(format!(
            "{} of {} runs failed:\n{}",
            failed.len(),
            work.len(),
            failed.join("\n")
        ));
    }
    let runs = Runs {
        base,
        baseline: study.baseline(),
        workloads: workloads.iter().map(|w| w.name.clone()).collect(),
        points,
        seconds: 0.0,
    };
    same_thread_instructions(&runs)?;
    Ok(runs)
}

/// The runs a study's data (`NAME.json`, as [`crate::page::json`] writes it) records:
/// every point of the study, its `--set` list and its runs, so that the page renders
/// again without running anything.
pub fn recorded<S: Study>(study: &S, data: &Value) -> Result<Runs<S::Point, S::Counts>, String> {
    let name = study.name();
    let field = |v: &Value, key: &str| -> Result<Value, String> {
        v.get(key)
            .cloned()
            .ok_or_else(|| format!("{name}.json: no `{key}`"))
    };
    fn parse<T: serde::de::DeserializeOwned>(v: Value, what: &str) -> Result<T, String> {
        serde_json::from_value(v).map_err(|e| format!("{what}: {e}"))
    }
    let base = Machine::preset(study.machine())?;
    let workloads: Vec<String> = parse(
        field(data, "workloads")?,
        &format!("{name}.json: workloads"),
    )?;
    let seconds: f64 = parse(field(data, "seconds")?, &format!("{name}.json: seconds"))?;
    let configs = field(data, "configs")?;
    let mut points = BTreeMap::new();
    for p in study.points() {
        let label = study.label(&p);
        let config = field(&configs, &label)?;
        let sets: Vec<String> = parse(
            field(&config, "sets")?,
            &format!("{name}.json: {label}'s sets"),
        )?;
        let runs: BTreeMap<String, Measured<S::Counts>> = parse(
            field(&config, "runs")?,
            &format!("{name}.json: {label}'s runs"),
        )?;
        if let Some(w) = workloads
            .iter()
            .find(|w| study.runs_on(&p, w) && !runs.contains_key(*w))
        {
            return Err(format!("{name}.json: {label} has no run of {w}"));
        }
        let point =
            PointRuns::new(&base, label, sets, runs).map_err(|e| format!("{name}.json: {e}"))?;
        points.insert(p, point);
    }
    let runs = Runs {
        base,
        baseline: study.baseline(),
        workloads,
        points,
        seconds,
    };
    same_thread_instructions(&runs)?;
    Ok(runs)
}

/// Every point of a workload ran the baseline's thread instructions.
pub fn same_thread_instructions<P: Copy + Ord, X>(runs: &Runs<P, X>) -> Result<(), String> {
    for w in &runs.workloads {
        let base = runs.get(&runs.baseline, w).thread_instructions;
        for point in runs.points.values() {
            let Some(run) = point.runs.get(w) else {
                continue;
            };
            if run.thread_instructions != base {
                return Err(format!(
                    "{w}: {} ran {} thread instructions, the baseline {base}",
                    point.label, run.thread_instructions
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Runs built by hand: each point with its IPC per workload (in `workloads`' order),
    /// labelled `P<index>`, 1000 thread instructions everywhere.
    pub(crate) fn runs_of<P: Copy + Ord, X: Default>(
        workloads: &[&str],
        baseline: P,
        ipc: &[(P, &[f64])],
    ) -> Runs<P, X> {
        let points = ipc
            .iter()
            .enumerate()
            .map(|(i, &(p, by_workload))| {
                assert_eq!(
                    by_workload.len(),
                    workloads.len(),
                    "P{i}: an IPC per workload"
                );
                let runs = workloads
                    .iter()
                    .zip(by_workload)
                    .map(|(w, &ipc)| {
                        let m = Measured {
                            ipc,
                            thread_instructions: 1000,
                            ..Measured::default()
                        };
                        (w.to_string(), m)
                    })
                    .collect();
                let point = PointRuns {
                    label: format!("P{i}"),
                    sets: vec![],
                    machine: Machine::lwm(),
                    runs,
                };
                (p, point)
            })
            .collect();
        Runs {
            base: Machine::lwm(),
            baseline,
            workloads: workloads.iter().map(|w| w.to_string()).collect(),
            points,
            seconds: 0.0,
        }
    }

    /// A study's runs built by hand on `workloads`: every point of `study` at IPC 1 and
    /// 1000 cycles on each workload unless `listed` gives its IPCs (the baseline's stay 1
    /// unless listed, so an IPC is the normalised IPC), labelled as the page labels them.
    pub(crate) fn hand_runs<S: crate::Study>(
        study: &S,
        workloads: &[&str],
        listed: &[(S::Point, &[f64])],
    ) -> Runs<S::Point, S::Counts> {
        let ones = vec![1.0; workloads.len()];
        let ipc: Vec<(S::Point, &[f64])> = study
            .points()
            .into_iter()
            .map(|p| {
                let given = listed.iter().find(|(q, _)| *q == p);
                (p, given.map_or(&ones[..], |(_, x)| *x))
            })
            .collect();
        let mut runs = runs_of(workloads, study.baseline(), &ipc);
        for (p, point) in runs.points.iter_mut() {
            point.label = study.label(p);
            for m in point.runs.values_mut() {
                m.cycles = 1000;
            }
        }
        runs
    }

    #[test]
    fn mean_and_geomean_of_normalised_ipc() {
        // Baseline IPC 2 and 4; point 1 runs at 4 and 2: normalised 2 and 0.5.
        let runs: Runs<i32> = runs_of(&["a", "b"], 0, &[(0, &[2.0, 4.0]), (1, &[4.0, 2.0])]);
        assert_eq!(runs.speedup(&1, "a"), 2.0);
        assert_eq!(runs.speedup(&1, "b"), 0.5);
        // (2 + 0.5) / 2 = 1.25; sqrt(2 * 0.5) = 1.
        assert!((runs.mean(&1) - 1.25).abs() < 1e-12, "{}", runs.mean(&1));
        assert!(
            (runs.geomean(&1) - 1.0).abs() < 1e-12,
            "{}",
            runs.geomean(&1)
        );
        assert_eq!(runs.mean(&0), 1.0);
        // Normalised 1.5, 3 and 6: mean 3.5, geometric mean cbrt(27) = 3.
        let runs: Runs<i32> = runs_of(
            &["a", "b", "c"],
            0,
            &[(0, &[1.0, 1.0, 1.0]), (1, &[1.5, 3.0, 6.0])],
        );
        assert!((runs.mean(&1) - 3.5).abs() < 1e-12);
        assert!((runs.geomean(&1) - 3.0).abs() < 1e-12);
    }

    #[test]
    fn best_is_the_highest_mean_not_the_highest_geomean() {
        // Point 1: normalised 3 and 0.25 (mean 1.625, geomean 0.87);
        // point 2: 1.5 and 1.5 (mean 1.5, geomean 1.5); point 3: 1.2 and 1.2.
        let runs: Runs<i32> = runs_of(
            &["a", "b"],
            0,
            &[
                (0, &[1.0, 1.0]),
                (1, &[3.0, 0.25]),
                (2, &[1.5, 1.5]),
                (3, &[1.2, 1.2]),
            ],
        );
        assert_eq!(runs.best(&[0, 1, 2, 3]), Some(1));
        assert_eq!(runs.best(&[2, 3]), Some(2));
        assert_eq!(runs.best(&[]), None);
    }

    #[test]
    fn a_point_with_other_thread_instructions_is_refused() {
        let mut runs: Runs<i32> = runs_of(&["a"], 0, &[(0, &[1.0]), (1, &[2.0])]);
        assert_eq!(same_thread_instructions(&runs), Ok(()));
        let p1 = runs.points.get_mut(&1).unwrap();
        p1.runs.get_mut("a").unwrap().thread_instructions = 999;
        assert_eq!(
            same_thread_instructions(&runs),
            Err("a: P1 ran 999 thread instructions, the baseline 1000".into())
        );
    }

    #[test]
    fn delta_keeps_only_the_keys_that_change_the_preset() {
        let base = Machine::lwm();
        let delta_of = |sets: &[&str]| {
            let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
            let full = base.with(&sets).unwrap();
            let kept = delta(&base, &full, &sets);
            assert_eq!(base.with(&kept).unwrap(), full, "{sets:?}: {kept:?}");
            kept
        };
        assert_eq!(
            delta_of(&[
                "warp_size=256",
                "warps=4",
                "fetch_group=4",
                "divergence=lwm",
                "lwm_memory_opt=true",
                "lanes=32",
            ]),
            [
                "warp_size=256",
                "warps=4",
                "fetch_group=4",
                "divergence=lwm"
            ]
        );
        assert_eq!(delta_of(&["warp_size=32"]), Vec::<String>::new());
        // A key set away and back is dropped; one set twice keeps both (the last wins).
        assert_eq!(delta_of(&["warps=8", "warps=32"]), Vec::<String>::new());
        assert_eq!(
            delta_of(&["warps=8", "fetch_group=8", "warps=16", "fetch_group=16"]),
            ["warps=8", "fetch_group=8", "warps=16", "fetch_group=16"]
        );
    }
}
