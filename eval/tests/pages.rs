//! Every study's committed page is what the current model gives: a study rerun on a few
//! of its workloads reproduces those workloads' rows of the committed page and their
//! runs in the committed JSON. Runs are deterministic and independent of the other
//! workloads; only the means and the points picked by mean (a figure's "best" columns)
//! need every workload, and those columns are checked against the committed JSON.
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};
use weft_eval::{Options, Study};

/// The workspace root: kernels are compiled against `kernels/include` and the cost rows
/// read `docs/report/`, both relative to it, as `weft eval` runs from it.
fn at_the_root() -> &'static Path {
    static CD: Once = Once::new();
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    CD.call_once(|| std::env::set_current_dir(root).expect("the workspace root"));
    root
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("weft-eval-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The tables of a Markdown page: (header row, body rows).
fn tables(page: &str) -> Vec<(String, Vec<String>)> {
    let lines: Vec<&str> = page.lines().collect();
    let mut all = vec![];
    for (i, pair) in lines.windows(2).enumerate() {
        if pair[1].starts_with("|---") {
            let body = lines[i + 2..]
                .iter()
                .take_while(|l| l.starts_with('|'))
                .map(|l| l.to_string())
                .collect();
            all.push((pair[0].to_string(), body));
        }
    }
    all
}

fn cells(row: &str) -> Vec<String> {
    row.trim_matches('|')
        .split('|')
        .map(|c| c.trim().to_string())
        .collect()
}

/// Runs `study` on `only` and checks the page, charts and JSON against the committed
/// ones in `docs/eval/`.
fn assert_page_regenerates<S: Study>(study: &S, only: &[&str]) {
    let root = at_the_root();
    let name = study.name();
    let out = scratch(name);
    let log = Mutex::new(vec![]);
    let options = Options {
        out: out.clone(),
        dir: None,
        only: only.iter().map(|s| s.to_string()).collect(),
        jobs: 2,
        on: weft_flow::runner::On::Local,
    };
    let result = weft_eval::run(study, &options, &|line| {
        log.lock().unwrap().push(line.to_string())
    });
    let log = log.into_inner().unwrap();
    assert_eq!(result, Ok(()), "{}", log.join("\n"));
    // A point runs only the workloads its figures read (the kernels' variants among them).
    let workloads: Vec<String> = only
        .iter()
        .flat_map(|w| {
            std::iter::once(w.to_string()).chain(study.variants(w).into_iter().map(|(v, _)| v))
        })
        .collect();
    let runs: usize = study
        .points()
        .iter()
        .map(|p| workloads.iter().filter(|w| study.runs_on(p, w)).count())
        .sum();
    let progress = log
        .iter()
        .filter(|l| l.trim_start().starts_with('['))
        .count();
    assert_eq!(
        progress,
        runs,
        "one progress line per run: {}",
        log.join("\n")
    );
    assert!(log.iter().any(|l| l.contains(&format!("[{runs}/{runs}]"))));

    let stale =
        format!("docs/eval is stale: regenerate it with `cargo run --release -- eval {name}`");
    let committed_dir = root.join("docs/eval");
    let (ours, committed) = (
        read(&out.join(format!("{name}.md"))),
        read(&committed_dir.join(format!("{name}.md"))),
    );
    let json = |p: PathBuf| -> Value { serde_json::from_str(&read(&p)).unwrap() };
    let (ours_json, committed_json) = (
        json(out.join(format!("{name}.json"))),
        json(committed_dir.join(format!("{name}.json"))),
    );

    let headings = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with('#'))
            .map(String::from)
            .collect()
    };
    assert_eq!(headings(&ours), headings(&committed), "{stale}");

    // Tables: a workload's row is the committed one where the columns are the same; where
    // a table's columns are points picked over all workloads, each of its cells is the
    // committed JSON's normalised IPC of that point and workload.
    let (ours_tables, committed_tables) = (tables(&ours), tables(&committed));
    assert_eq!(ours_tables.len(), committed_tables.len(), "{stale}");
    let mut rows_checked = 0;
    for ((header, body), (committed_header, committed_body)) in
        ours_tables.iter().zip(&committed_tables)
    {
        let row_of = |body: &[String], w: &str| -> Option<String> {
            body.iter()
                .find(|l| l.starts_with(&format!("| {w} |")))
                .cloned()
        };
        for w in only {
            let (row, committed_row) = (row_of(body, w), row_of(committed_body, w));
            assert_eq!(
                row.is_some(),
                committed_row.is_some(),
                "{w} in `{header}`: {stale}"
            );
            let Some(row) = row else { continue };
            if header == committed_header {
                assert_eq!(Some(row), committed_row, "{w}: {stale}");
            } else {
                // Both pages' cells are the committed JSON's for their own columns.
                assert_eq!(
                    cells(header).len(),
                    cells(committed_header).len(),
                    "{header}: {stale}"
                );
                let committed_row = committed_row.unwrap();
                for (header, row) in [(header, &row), (committed_header, &committed_row)] {
                    for (label, cell) in cells(header).iter().zip(cells(row)).skip(1) {
                        let ipc = committed_json["configs"][label]["normalised_ipc"][*w].as_f64();
                        let ipc = ipc.unwrap_or_else(|| {
                            panic!("`{header}`: `{label}` is not a point of {name}.json")
                        });
                        assert_eq!(cell, format!("{ipc:.3}"), "{w} on {label}: {stale}");
                    }
                }
            }
            rows_checked += 1;
        }
    }
    assert!(
        rows_checked >= 5 * only.len(),
        "{rows_checked} rows checked"
    );

    let charts = |s: &str| -> Vec<String> {
        s.split("](")
            .skip(1)
            .map(|l| l.split(')').next().unwrap().to_string())
            .filter(|l| l.ends_with(".svg"))
            .collect()
    };
    assert!(!charts(&ours).is_empty());
    assert_eq!(charts(&ours), charts(&committed), "{stale}");
    for chart in charts(&ours) {
        let svg = read(&out.join(&chart));
        assert!(
            svg.starts_with("<svg") && svg.ends_with("</svg>\n"),
            "{chart}"
        );
        let committed_svg = read(&committed_dir.join(&chart));
        // A chart shows the workloads its figure shows (Fig. 12: the divergent set): the
        // committed chart's.
        assert!(
            only.iter().any(|w| svg.contains(w)),
            "{chart}: none of {only:?}"
        );
        for w in only {
            assert_eq!(
                svg.contains(w),
                committed_svg.contains(w),
                "{chart}: {w}: {stale}"
            );
        }
    }

    let keys = |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(keys(&ours_json), keys(&committed_json), "{stale}");
    let configs = &ours_json["configs"];
    assert_eq!(keys(configs), keys(&committed_json["configs"]), "{stale}");
    assert_eq!(keys(configs).len(), study.points().len());
    for (label, config) in configs.as_object().unwrap() {
        let theirs = &committed_json["configs"][label];
        assert_eq!(keys(config), keys(theirs), "{label}");
        assert_eq!(config["sets"], theirs["sets"], "{label}: {stale}");
        for w in only {
            let without_host_time = |run: &Value| {
                let mut run = run.clone();
                // The host's time is the one figure that is not the model's.
                run.as_object_mut().unwrap().remove("host_seconds");
                run
            };
            // A point that does not run `w` (`Study::runs_on`) has no run of it here or
            // in the committed data.
            if config["runs"][w].is_null() {
                assert!(theirs["runs"][w].is_null(), "{label}: {w}: {stale}");
                continue;
            }
            let run = without_host_time(&config["runs"][w]);
            assert!(run["cycles"].as_u64().unwrap() > 0);
            assert_eq!(
                run,
                without_host_time(&theirs["runs"][w]),
                "{label} on {w}: {stale}"
            );
            assert_eq!(
                config["normalised_ipc"][w], theirs["normalised_ipc"][w],
                "{label} on {w}: {stale}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_lwm_page_regenerates() {
    assert_page_regenerates(&weft_eval::lwm::Lwm::new(), &["blackjack", "matrix_mult"]);
}

#[test]
fn the_capri_page_regenerates() {
    // One divergent and one non-divergent workload of Table 2, both among the cheapest.
    assert_page_regenerates(&weft_eval::capri::Capri::new(), &["backp", "fft"]);
}

#[test]
fn the_dom_page_regenerates() {
    // Two of the cheapest kernels (every point of the study on each).
    assert_page_regenerates(&weft_eval::dom::Dom::new(), &["lj", "gf"]);
}

#[test]
fn the_vgiw_page_regenerates() {
    // A memory-bound copy and a small three-block kernel, the cheapest (12 runs each: the
    // sweep's 5 points and the 7 of "From weft to the paper").
    assert_page_regenerates(
        &weft_eval::vgiw::Vgiw::new(),
        &["gaussian_fan1", "cfd_copy"],
    );
}

/// No VGIW run beats what its units and its DRAM share allow, and none of the Fermi
/// SM's beats its DRAM share, on every recorded run: each class of units at most busy
/// every cycle, the DRAM moving at most its share of bytes per cycle. This is what lets
/// the page say what bounds each kernel (a bound a run could exceed bounds nothing).
#[test]
fn no_vgiw_study_run_outruns_its_units_or_its_dram_share() {
    use weft_sim::core::machine::Machine;
    let root = at_the_root();
    let data: Value = serde_json::from_str(&read(&root.join("docs/eval/vgiw.json"))).unwrap();
    let mut checked = 0;
    for (label, config) in data["configs"].as_object().unwrap() {
        let mut m = Machine::fermi();
        let sets: Vec<String> = serde_json::from_value(config["sets"].clone()).unwrap();
        m.set_all(&sets).unwrap();
        let bytes_per_cycle = weft_eval::vgiw::dram_bytes_per_cycle(&m);
        for (w, run) in config["runs"].as_object().unwrap() {
            let cycles = run["cycles"].as_f64().unwrap();
            let flow = &run["dataflow"];
            let dram = flow["dram_bytes"].as_f64().unwrap();
            assert!(
                dram / bytes_per_cycle <= cycles,
                "{label} on {w}: {dram} DRAM bytes in {cycles} cycles"
            );
            for (k, u) in flow["unit_utilisation"]
                .as_array()
                .unwrap()
                .iter()
                .enumerate()
            {
                let u = u.as_f64().unwrap();
                assert!(
                    (0.0..=1.0).contains(&u),
                    "{label} on {w}: class {k} busy {u}"
                );
            }
            checked += 1;
        }
    }
    // Every point of the study on every kernel of Table 2 that weft runs.
    let points = weft_eval::vgiw::Vgiw::new().points().len();
    assert_eq!(
        checked,
        points * weft_eval::vgiw::paper::KERNELS.len(),
        "{points} points x the kernels"
    );
}

/// The capri page splits every run's core-cycles into busy and idle ones and reads a
/// scheme's change in cycles as the sum of the parts' changes: that holds only if each
/// idle core-cycle is counted once, under one reason, on every recorded run.
#[test]
fn every_capri_run_counts_each_idle_core_cycle_under_one_reason() {
    let root = at_the_root();
    let data: Value = serde_json::from_str(&read(&root.join("docs/eval/capri.json"))).unwrap();
    let mut runs = 0;
    for (label, config) in data["configs"].as_object().unwrap() {
        for (w, run) in config["runs"].as_object().unwrap() {
            let c = &run["compaction"];
            let n = |k: &str| {
                c[k].as_u64()
                    .unwrap_or_else(|| panic!("{label} {w}: no {k}"))
            };
            let reasons = [
                "idle_memory_serialization",
                "idle_memory",
                "idle_barrier",
                "compaction_stalls",
                "idle_pipeline",
                "idle_empty",
                "idle_drain",
            ];
            let idle: u64 = reasons.iter().map(|k| n(k)).sum();
            assert_eq!(idle, n("idle_cycles"), "{label} on {w}");
            // Every warp instruction keeps the lanes busy for at least one cycle.
            let busy = n("core_cycles")
                .checked_sub(idle)
                .unwrap_or_else(|| panic!("{label} on {w}: more idle than core-cycles"));
            assert!(
                busy >= run["warp_instructions"].as_u64().unwrap(),
                "{label} on {w}"
            );
            runs += 1;
        }
    }
    assert!(runs >= 12 * 11, "{runs} runs");
}

#[test]
fn a_workload_that_is_not_there_is_named() {
    at_the_root();
    let options = Options {
        out: scratch("missing"),
        dir: None,
        only: vec!["nosuch".into()],
        jobs: 2,
        on: weft_flow::runner::On::Local,
    };
    let e = weft_eval::run(&weft_eval::lwm::Lwm::new(), &options, &|_| {}).unwrap_err();
    assert_eq!(e, "--only nosuch: no nosuch.c in kernels/lwm");
    let zero = Options { jobs: 0, ..options };
    let e = weft_eval::run(&weft_eval::lwm::Lwm::new(), &zero, &|_| {}).unwrap_err();
    assert_eq!(e, "--jobs 0: at least one run at a time");
}

/// Every study's committed page, data and charts are what its committed data renders:
/// every number and section of the page follows from the recorded runs (the runs
/// themselves are checked against the model by `assert_page_regenerates`).
#[test]
fn every_committed_page_renders_from_its_committed_data() {
    let root = at_the_root();
    let dir = root.join("docs/eval");
    for name in weft_eval::STUDIES.iter().map(|s| s.name) {
        let files = weft_eval::render_recorded(name, &dir).unwrap();
        assert!(files.len() >= 3, "{name}: {files:?}");
        for (file, text) in files {
            let committed = read(&dir.join(&file));
            assert!(
                committed == text,
                "{name}: docs/eval/{file} is not what its JSON renders; first difference at line {}",
                committed
                    .lines()
                    .zip(text.lines())
                    .position(|(a, b)| a != b)
                    .map_or(committed.lines().count().min(text.lines().count()) + 1, |i| i + 1)
            );
        }
    }
    // A changed run changes the page: the check can fail.
    let data = read(&dir.join("lwm.json"));
    let edited = data.replacen("\"cycles\": ", "\"cycles\": 1", 1);
    assert_ne!(data, edited);
    let scratch = scratch("render");
    std::fs::create_dir_all(&scratch).unwrap();
    std::fs::write(scratch.join("lwm.json"), edited).unwrap();
    let changed = weft_eval::render_recorded("lwm", &scratch).unwrap();
    assert!(
        changed
            .iter()
            .any(|(file, text)| *text != read(&dir.join(file))),
        "an edited run rendered the committed page"
    );
    assert!(weft_eval::render_recorded("nosuch", &dir)
        .unwrap_err()
        .contains("no study `nosuch`"));
}
