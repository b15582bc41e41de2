//! weft-eval: the studies (`weft eval NAME`), papers' evaluations rerun on weft's core
//! model and C kernels, with the cost of the hardware measured on weft's RTL.
//!
//! A study is data first: a list of points, each a delta of machine keys (the exact
//! `--set KEY=VALUE` list, recorded in the study's JSON so that any cell reproduces
//! with `weft run KERNEL --machine PRESET --set ...`), run on every workload of its
//! folder. The shared parts are written once: discovering and compiling the workloads
//! ([`workload`]), the fan-out over points x workloads with its progress lines and the
//! same-thread-instructions check ([`sweep`]), what every run measures ([`measure`]),
//! the page's tables, data and charts ([`page`]), the decisions of its comparisons with
//! the paper ([`compare`]) and the cost rows from the report ([`cost`]). A study
//! ([`Study`]) gives its points, their names, what it counts of a run beyond the common
//! figures (its own type, in its folder's `measure.rs`), and its page; [`STUDIES`] lists
//! every study, once.
//!
//! Studies: [`lwm`] (large warps and two-level scheduling, the LWM paper's §6), [`capri`]
//! (thread block compaction, TBC+ and CAPRI, the CAPRI paper's §4-5), [`dom`] (diverge on
//! miss with fixed and adaptive slip, the DoM paper's §8), [`vgiw`] (a VGIW core against
//! a Fermi SM on the same kernels, the VGIW paper's §5).

pub mod capri;
pub mod compare;
pub mod cost;
pub mod dom;
pub mod lwm;
pub mod measure;
pub mod page;
pub mod sweep;
pub mod vgiw;
pub mod workload;
pub mod workloads;

use measure::Measured;
use page::Page;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;
use sweep::Runs;
use weft_sim::core::machine::Machine;
use workload::Workload;

/// Every study `weft eval` runs, in the order `weft eval --help` lists them: the one
/// place a study is registered.
pub const STUDIES: &[Registered] = &[
    Registered::of::<lwm::Lwm>(
        "Large warps and two-level scheduling (LWM paper §6)",
    ),
    Registered::of::<capri::Capri>(
        "Thread block compaction, TBC+ and CAPRI (CAPRI paper §4-5)",
    ),
    Registered::of::<dom::Dom>(
        "Diverge on miss with fixed and adaptive slip, 1-16 warps, with and without an L2 (DoM paper §8)",
    ),
    Registered::of::<vgiw::Vgiw>(
        "A VGIW core against a Fermi SM on the same C kernels: speed, energy, LVC traffic (VGIW paper §5)",
    ),
];

/// What receives a study's progress lines.
pub type Log<'a> = dyn Fn(&str) + Sync + 'a;

/// The files a study writes: (file name, contents).
pub type Files = Vec<(String, String)>;

/// A study as `weft eval` names it: what it is, running it, rendering its page again.
pub struct Registered {
    /// `weft eval NAME` (the study's [`Study::NAME`]).
    pub name: &'static str,
    /// What it is, for `weft eval --help`.
    pub about: &'static str,
    run: fn(&Options, &Log) -> Result<(), String>,
    render: fn(&Path) -> Result<Files, String>,
}

impl Registered {
    const fn of<S: Study + Default>(about: &'static str) -> Registered {
        Registered {
            name: S::NAME,
            about,
            run: |options, log| run(&S::default(), options, log),
            render: |dir| render(&S::default(), dir),
        }
    }
}

/// One study: its points over the machine preset, and its page from the runs.
pub trait Study: Sync {
    /// A point of the sweep (a machine configuration); its order is the JSON's and the
    /// progress lines'.
    type Point: Copy + Ord + Send + Sync;

    /// What the study measures of a run beyond [`Measured`]'s common figures (`()` for
    /// nothing): its fields sit beside the common ones in each run's JSON.
    type Counts: Clone + Default + Serialize + DeserializeOwned + Send + Sync;

    /// `weft eval NAME`; the page is `NAME.md`, its data `NAME.json`.
    const NAME: &'static str;

    /// [`Study::NAME`].
    fn name(&self) -> &'static str {
        Self::NAME
    }

    /// The machine preset every point starts from.
    fn machine(&self) -> &'static str;

    /// The folder of the study's workloads (`weft eval --dir` overrides it).
    fn workloads_dir(&self) -> &'static str;

    /// The workloads' order on the page (the paper's); any other kernel follows by name.
    fn order(&self) -> Vec<&'static str>;

    /// Every point, in the order they run.
    fn points(&self) -> Vec<Self::Point>;

    /// The point every other is normalised to.
    fn baseline(&self) -> Self::Point;

    /// The machine keys `p` changes, as `KEY=VALUE` (keys left at the preset's value are
    /// dropped before the list is recorded).
    fn sets(&self, p: &Self::Point) -> Vec<String>;

    /// The point's name on the page and in the JSON ("LWM256+2Lev2").
    fn label(&self, p: &Self::Point) -> String;

    /// Whether point `p` runs on workload `w` (every point on every workload by default;
    /// a study leaves out runs no figure of its page reads).
    fn runs_on(&self, _p: &Self::Point, _w: &str) -> bool {
        true
    }

    /// The workloads built from kernel `w` with macros defined, run beside it: (name,
    /// `NAME=VALUE` list). None by default.
    fn variants(&self, _w: &str) -> Vec<(String, Vec<String>)> {
        vec![]
    }

    /// Machine keys recorded beside each point's `sets` in the JSON, read from the
    /// machine the point ran.
    fn recorded_keys(&self) -> &'static [&'static str] {
        &[]
    }

    /// One run of `w` on `machine`, with the study's counts.
    fn measure(&self, w: &Workload, machine: &Machine) -> Result<Measured<Self::Counts>, String>;

    /// The page, its JSON fields beside the runs, and its charts.
    fn page(&self, runs: &Runs<Self::Point, Self::Counts>) -> Page;
}

/// `weft eval`'s options.
pub struct Options {
    /// Where the page, its data and charts are written.
    pub out: PathBuf,
    /// The folder of the workloads (default: the study's).
    pub dir: Option<PathBuf>,
    /// Only these workloads (all of the folder when empty).
    pub only: Vec<String>,
    /// Runs at a time.
    pub jobs: usize,
    /// Where the runs go: this machine's threads, or a Slurm job array.
    pub on: weft_flow::runner::On,
}

/// The study called `name` (one of [`STUDIES`]).
fn named(name: &str) -> Result<&'static Registered, String> {
    STUDIES.iter().find(|s| s.name == name).ok_or_else(|| {
        format!(
            "no study `{name}` (studies: {})",
            STUDIES
                .iter()
                .map(|s| s.name)
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// Runs the study called `name` (one of [`STUDIES`]).
pub fn run_named(name: &str, options: &Options, log: &Log) -> Result<(), String> {
    (named(name)?.run)(options, log)
}

/// The page of the study called `name` rendered from its data `NAME.json` in `dir`
/// (nothing runs): (file name, contents) of every file the study writes.
pub fn render_recorded(name: &str, dir: &Path) -> Result<Files, String> {
    (named(name)?.render)(dir)
}

/// `study`'s page rendered from its data in `dir`.
fn render<S: Study>(study: &S, dir: &Path) -> Result<Files, String> {
    let path = dir.join(format!("{}.json", study.name()));
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let data: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let runs = sweep::recorded(study, &data)?;
    page::files(study, &runs, &study.page(&runs))
}

/// Runs `study` on its workloads and writes its page, data and charts to `options.out`;
/// `log` receives the progress lines.
pub fn run<S: Study>(study: &S, options: &Options, log: &Log) -> Result<(), String> {
    if options.jobs == 0 {
        return Err("--jobs 0: at least one run at a time".into());
    }
    let started = Instant::now();
    let dir = options
        .dir
        .clone()
        .unwrap_or_else(|| PathBuf::from(study.workloads_dir()));
    let paths = workload::discover(&dir, &options.only, &study.order())?;
    let mut workloads: Vec<Workload> = paths
        .iter()
        .map(|p| workload::compile(p))
        .collect::<Result<_, _>>()?;
    for p in &paths {
        let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        for (name, defines) in study.variants(stem) {
            workloads.push(workload::compile_defined(p, name, &defines)?);
        }
    }
    log(&format!("compiled {} workloads", workloads.len()));
    let mut runs = sweep::sweep(study, &workloads, options, log)?;
    runs.seconds = started.elapsed().as_secs_f64();
    let written = page::write(study, &runs, &study.page(&runs), &options.out)?;
    log(&format!(
        "wrote {} ({}) in {}",
        options.out.display(),
        written,
        weft_flow::report::duration(runs.seconds)
    ));
    Ok(())
}
