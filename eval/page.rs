//! A study's page: Markdown tables of normalised IPC, the JSON of every run, the charts,
//! and writing them.
use crate::sweep::Runs;
use crate::Study;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::path::Path;
use weft_flow::chart::{grouped_bars, Series};

/// What a study writes besides its runs.
pub struct Page {
    /// `NAME.md`.
    pub markdown: String,
    /// The study's own fields of `NAME.json` (paper numbers, picks), beside the runs.
    pub json: Map<String, Value>,
    /// (file, SVG).
    pub charts: Vec<(String, String)>,
}

/// A ratio as a signed percentage change: 1.084 is "+8.4%".
pub fn pct(x: f64) -> String {
    format!("{:+.1}%", 100.0 * (x - 1.0))
}

/// A ratio as a signed percentage change, "n/a" without one.
pub fn change(x: Option<f64>) -> String {
    x.map_or("n/a".into(), pct)
}

/// The arithmetic mean of `xs` (`None` when empty).
pub fn arithmetic(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// A Markdown table.
pub fn table(header: &[String], rows: &[Vec<String>]) -> String {
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

/// Normalised IPC: the header (workload, then each point's label) and one row per
/// workload.
pub fn speedup_rows<P: Copy + Ord, X>(
    runs: &Runs<P, X>,
    points: &[P],
) -> (Vec<String>, Vec<Vec<String>>) {
    let mut header = vec!["workload".to_string()];
    header.extend(points.iter().map(|p| runs.label(p)));
    let rows = runs
        .workloads
        .iter()
        .map(|w| {
            let mut row = vec![w.clone()];
            row.extend(points.iter().map(|p| format!("{:.3}", runs.speedup(p, w))));
            row
        })
        .collect();
    (header, rows)
}

/// Normalised IPC: one row per workload, one column per point (headed by its label),
/// then the mean and the geometric mean.
pub fn speedup_table<P: Copy + Ord, X>(runs: &Runs<P, X>, points: &[P]) -> String {
    let (header, mut rows) = speedup_rows(runs, points);
    for (label, f) in [
        ("**mean**", Runs::mean as fn(&Runs<P, X>, &P) -> f64),
        ("geometric mean", Runs::geomean),
    ] {
        let mut row = vec![label.to_string()];
        row.extend(points.iter().map(|p| format!("{:.3}", f(runs, p))));
        rows.push(row);
    }
    table(&header, &rows)
}

/// Grouped bars of normalised IPC: a group per workload and one for the mean, a bar
/// per point, the baseline drawn at 1.
pub fn speedup_bars<P: Copy + Ord, X>(runs: &Runs<P, X>, title: &str, points: &[P]) -> String {
    let mut categories = runs.workloads.clone();
    categories.push("mean".into());
    let series: Vec<Series> = points
        .iter()
        .map(|p| Series {
            name: runs.label(p),
            values: runs
                .workloads
                .iter()
                .map(|w| Some(runs.speedup(p, w)))
                .chain([Some(runs.mean(p))])
                .collect(),
        })
        .collect();
    grouped_bars(
        title,
        "IPC over the baseline",
        &categories,
        &series,
        2,
        Some((1.0, "baseline")),
    )
}

/// `NAME.json`: the study, its machine and workloads, every point (its `--set` list,
/// the keys the study records, its normalised IPC and runs), and the page's own fields.
pub fn json<S: Study>(
    study: &S,
    runs: &Runs<S::Point, S::Counts>,
    page: &Page,
) -> Result<Value, String> {
    let mut configs = Map::new();
    for (p, point) in &runs.points {
        let machine = serde_json::to_value(&point.machine).map_err(|e| e.to_string())?;
        let mut config = Map::new();
        for key in study.recorded_keys() {
            config.insert(key.to_string(), machine[*key].clone());
        }
        let normalised: BTreeMap<&String, f64> = runs
            .workloads
            .iter()
            .filter(|w| point.runs.contains_key(*w))
            .map(|w| (w, runs.speedup(p, w)))
            .collect();
        config.insert("sets".into(), json!(point.sets));
        config.insert("mean_normalised_ipc".into(), json!(runs.mean(p)));
        config.insert("geomean_normalised_ipc".into(), json!(runs.geomean(p)));
        config.insert("normalised_ipc".into(), json!(normalised));
        config.insert("runs".into(), json!(point.runs));
        configs.insert(point.label.clone(), Value::Object(config));
    }
    let mut all = Map::new();
    all.insert("study".into(), json!(study.name()));
    all.insert("machine".into(), json!(study.machine()));
    all.insert("seconds".into(), json!(runs.seconds));
    all.insert("workloads".into(), json!(runs.workloads));
    all.insert("configs".into(), Value::Object(configs));
    for (key, value) in &page.json {
        if all.insert(key.clone(), value.clone()).is_some() {
            return Err(format!(
                "{}: the page's field `{key}` is the runs'",
                study.name()
            ));
        }
    }
    Ok(Value::Object(all))
}

/// The files of a study's page: (file name, contents) of `NAME.md`, `NAME.json` and
/// the charts.
pub fn files<S: Study>(
    study: &S,
    runs: &Runs<S::Point, S::Counts>,
    page: &Page,
) -> Result<Vec<(String, String)>, String> {
    let name = study.name();
    let data = json(study, runs, page)?;
    let mut all = vec![
        (format!("{name}.md"), page.markdown.clone()),
        (
            format!("{name}.json"),
            serde_json::to_string_pretty(&data).map_err(|e| e.to_string())? + "\n",
        ),
    ];
    all.extend(page.charts.iter().cloned());
    Ok(all)
}

/// Writes `NAME.md`, `NAME.json` and the charts to `out`; says what it wrote.
pub fn write<S: Study>(
    study: &S,
    runs: &Runs<S::Point, S::Counts>,
    page: &Page,
    out: &Path,
) -> Result<String, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    for (file, text) in files(study, runs, page)? {
        let path = out.join(&file);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let name = study.name();
    Ok(format!("{name}.md, {name}.json, charts"))
}
