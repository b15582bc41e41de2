//! `weft report`: `weft area` and `weft fpga` over every preset, cached per preset, written
//! as Markdown, JSON and SVG; and the area table `weft export` prints from what is known.
//!
//! A preset's figures are reused when the key of everything they depend on (its Verilog,
//! the Yosys script, the harness, the constraints, the flow options, the tools'
//! versions) is unchanged: first from the cache folder, then from the published
//! `docs/report/report.json`, so a fresh clone knows every published figure at once.
use crate::area::{self, Area};
use crate::asic;
use crate::fpga::{self, FpgaOptions};
use crate::jobs::parallel;
use crate::tools::{NEXTPNR_ICE40, YOSYS};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

pub mod table;
pub use table::{cache_key, markdown, svg, Row};

/// The published report, relative to the project root: the seed of every cache.
pub const PUBLISHED: &str = "docs/report/report.json";
/// The default cache folder, relative to the project root.
pub const CACHE: &str = "target/weft-report-cache";

/// A preset to measure: its name (the top module) and where its Verilog comes from.
pub struct Design<'a> {
    pub name: &'a str,
    /// The Verilog `weft export` writes, generated on demand (large presets take seconds).
    pub verilog: &'a (dyn Fn() -> String + Sync),
}

/// Where known figures are kept and found.
#[derive(Clone, Debug)]
pub struct Known {
    /// Per-preset rows kept between runs; `None`: neither read nor written.
    pub cache: Option<PathBuf>,
    /// Published rows read as a seed (never written here); `None`: not read.
    pub published: Option<PathBuf>,
}

impl Known {
    /// The defaults of a run from the project root.
    pub fn project() -> Known {
        Known {
            cache: Some(PathBuf::from(CACHE)),
            published: Some(PathBuf::from(PUBLISHED)),
        }
    }

    fn cached_path(&self, name: &str) -> Option<PathBuf> {
        self.cache.as_ref().map(|d| d.join(format!("{name}.json")))
    }

    /// Every row known for `name`, the cache's first, whatever its key.
    fn rows_of(&self, name: &str) -> Vec<Row> {
        let mut rows = vec![];
        if let Some(path) = self.cached_path(name) {
            if let Some(row) = std::fs::read_to_string(path)
                .ok()
                .and_then(|t| serde_json::from_str::<Row>(&t).ok())
            {
                rows.push(row);
            }
        }
        if let Some(path) = &self.published {
            if let Some(published) = std::fs::read_to_string(path)
                .ok()
                .and_then(|t| serde_json::from_str::<Vec<Row>>(&t).ok())
            {
                rows.extend(published.into_iter().filter(|r| r.preset == name));
            }
        }
        rows
    }

    /// The row of `name` measured under `key` and limits no shorter than `fpga`'s (a run
    /// stopped at a time limit stands only for limits no longer than it).
    pub fn find(&self, name: &str, key: &str, fpga: &FpgaOptions) -> Option<Row> {
        self.rows_of(name).into_iter().find(|row| {
            let pnr_sooner = row.fpga.as_ref().is_some_and(|f| {
                f.unfinished.is_some()
                    && f.pnr_minutes.unwrap_or(0) < fpga.pnr_minutes.unwrap_or(u64::MAX)
            });
            let synth_sooner = row
                .synth_minutes
                .is_some_and(|m| m < fpga.synth_minutes.unwrap_or(u64::MAX));
            row.key == key && !pnr_sooner && !synth_sooner
        })
    }

    /// The tools' versions the published report was measured with (its Markdown, beside
    /// the JSON, names them), so that its keys can be computed without the tools.
    pub fn published_tools(&self) -> Option<String> {
        let md = std::fs::read_to_string(self.published.as_ref()?.with_extension("md")).ok()?;
        let line = md.lines().find_map(|l| l.split_once(TOOLS_LABEL))?.1;
        Some(line.trim_end().strip_suffix('.')?.to_string())
    }

    /// What measuring `name` last cost, in seconds (the area and iCE40 flows and the
    /// cell-library mapping; a flow stopped at a limit counts its limit; 0 when unknown).
    pub fn cost(&self, name: &str) -> f64 {
        let Some(row) = self.last(name) else {
            return 0.0;
        };
        let flows = row
            .seconds
            .or(row.synth_minutes.map(|m| 60.0 * m as f64))
            .unwrap_or(0.0);
        let asic = row
            .asic_seconds
            .or(row.asic_minutes.map(|m| 60.0 * m as f64))
            .unwrap_or(0.0);
        flows + asic
    }

    /// The last row of `name` under any key: what an earlier version cost.
    pub fn last(&self, name: &str) -> Option<Row> {
        self.rows_of(name).into_iter().next()
    }

    fn keep(&self, row: &Row) -> Result<(), String> {
        let Some(path) = self.cached_path(&row.preset) else {
            return Ok(());
        };
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let text = serde_json::to_string_pretty(row).map_err(|e| e.to_string())?;
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

pub struct ReportOptions {
    pub out: PathBuf,
    pub fpga: FpgaOptions,
    /// Presets processed at once.
    pub jobs: usize,
    /// Where the presets' flows run.
    pub on: crate::runner::On,
    pub known: Known,
    /// Cell-library figures, or none.
    pub asic: Option<AsicOptions>,
}

/// The report's cell-library columns.
pub struct AsicOptions {
    pub library: asic::Library,
    pub sdc: PathBuf,
    /// Stop each mapping after this many minutes.
    pub minutes: Option<u64>,
}

/// Where the report's Markdown names the tools' versions.
const TOOLS_LABEL: &str = "Tools: ";

/// The tools' versions, part of every key.
pub fn tool_versions() -> Result<String, String> {
    Ok(format!(
        "{}; {}",
        YOSYS.version()?,
        NEXTPNR_ICE40.version()?
    ))
}

/// Everything a preset's figures depend on: its Verilog, the Yosys script, the harness,
/// the constraints, the flow options and the tools' versions.
pub fn key_of(
    name: &str,
    verilog: &str,
    fpga: &FpgaOptions,
    tools: &str,
) -> Result<String, String> {
    let ports = crate::verilog::module_ports(verilog, name)?;
    let harness = fpga::harness(name, &ports).verilog;
    let blocks = crate::verilog::synthesis_blocks(verilog, name);
    let script = area::script(name, Path::new("block.v"), &blocks);
    let read = |file: &str| std::fs::read_to_string(fpga.constraints.join(file));
    let pins = read(fpga.device.pcf()).unwrap_or_default();
    let clock = read("ice40_clock.pcf").unwrap_or_default();
    let flow = format!(
        // `flip-flop bound`: a preset with more flip-flops than logic cells skips iCE40.
        "{} seeds={} freq={:?} flip-flop bound",
        fpga.device.name(),
        fpga.seeds,
        fpga.freq_mhz
    );
    Ok(cache_key(&[
        verilog, &script, &harness, &pins, &clock, &flow, tools,
    ]))
}

/// A preset's row: from what is known under its key, else measured; then its
/// cell-library figures when asked for and not known under their own key. Whether the
/// row was known, and whether the cell-library flow ran.
fn one_preset(
    design: &Design,
    opts: &ReportOptions,
    asic: Option<&AsicOptions>,
    tools: &str,
) -> Result<(Row, bool, bool), String> {
    let verilog = (design.verilog)();
    let name = design.name;
    let key = key_of(name, &verilog, &opts.fpga, tools)?;
    let (mut row, known) = match opts.known.find(name, &key, &opts.fpga) {
        Some(row) => (row, true),
        None => (measure(name, &verilog, key, opts)?, false),
    };
    let mapped = match asic {
        Some(a) => with_asic(&mut row, &verilog, a)?,
        None => false,
    };
    if mapped || !known {
        opts.known.keep(&row)?;
    }
    Ok((row, known, mapped))
}

/// A scratch folder holding the preset's Verilog, removed after `work`.
fn in_scratch<T>(
    name: &str,
    verilog: &str,
    work: impl FnOnce(&Path, &Path) -> Result<T, String>,
) -> Result<T, String> {
    let dir = std::env::temp_dir().join(format!("weft-report-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let file = dir.join(format!("{name}.v"));
    let result = std::fs::write(&file, verilog)
        .map_err(|e| format!("cannot write {}: {e}", file.display()))
        .and_then(|()| work(&dir, &file));
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// The area and iCE40 figures of a preset.
fn measure(name: &str, verilog: &str, key: String, opts: &ReportOptions) -> Result<Row, String> {
    let start = Instant::now();
    let (area, fpga) = in_scratch(name, verilog, |dir, file| {
        let limit = opts.fpga.synth_minutes.map(|m| Duration::from_secs(60 * m));
        // A stopped area flow skips the iCE40 flow: its synthesis is no shorter.
        let Some(area) = area::area_within(name, file, limit)? else {
            return Ok((None, None));
        };
        let fpga = match fpga::too_many_flip_flops(name, verilog, &opts.fpga, area.flip_flops)? {
            Some(over) => Some(over),
            None => fpga::run(name, file, &opts.fpga, &dir.join("fpga"))?,
        };
        Ok((Some(area), fpga))
    })?;
    let stopped = area.is_none() || fpga.is_none();
    Ok(Row {
        preset: name.to_string(),
        key,
        area,
        fpga,
        synth_minutes: opts.fpga.synth_minutes.filter(|_| stopped),
        seconds: Some(start.elapsed().as_secs_f64().round()),
        asic: None,
        asic_key: None,
        asic_minutes: None,
        asic_seconds: None,
    })
}

/// Adds the cell-library figures unless they are known under their key (or Yosys was
/// stopped before, so the mapping would be too); whether the flow ran.
fn with_asic(row: &mut Row, verilog: &str, a: &AsicOptions) -> Result<bool, String> {
    if row.area.is_none() {
        return Ok(false);
    }
    let name = row.preset.clone();
    let key = cache_key(&[verilog, &asic::flow_identity(&name, a.library, &a.sdc)?]);
    let stopped_sooner = row.asic.is_none()
        && row
            .asic_minutes
            .is_some_and(|m| m < a.minutes.unwrap_or(u64::MAX));
    if row.asic_key.as_deref() == Some(key.as_str()) && !stopped_sooner {
        return Ok(false);
    }
    let limit = a.minutes.map(|m| Duration::from_secs(60 * m));
    let start = Instant::now();
    let figures = in_scratch(&name, verilog, |dir, file| {
        asic::asic_figures(
            &name,
            file,
            a.library,
            &a.sdc,
            &dir.join("asic"),
            limit,
            crate::verilog::Synthesis::Auto,
        )
    })?;
    row.asic_minutes = a.minutes.filter(|_| figures.is_none());
    row.asic_seconds = Some(start.elapsed().as_secs_f64().round());
    row.asic = figures;
    row.asic_key = Some(key);
    Ok(true)
}

fn minutes(limit: Option<u64>) -> String {
    limit.map_or("no limit".into(), |m| format!("{m} min"))
}

/// A duration as people read it: `42 s`, `12 min`, `2 h 25 min`.
pub fn duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..=119 => format!("{s} s"),
        120..=5399 => format!("{} min", (s + 30) / 60),
        _ => format!("{} h {} min", s / 3600, (s % 3600 + 30) / 60),
    }
}

/// Runs the report over `designs` and writes `report.md`, `report.json`, `report.svg`;
/// `every_preset` names the presets a full table holds, so a partial one says what is
/// missing.
pub fn report(
    designs: &[Design],
    every_preset: &[&str],
    opts: &ReportOptions,
) -> Result<(), String> {
    let start = Instant::now();
    let tools = tool_versions()?;
    // A missing library or OpenSTA leaves the cell-library columns empty, said once.
    let mut asic_note = None;
    let asic =
        opts.asic.as_ref().filter(
            |a| match a.library.find().and_then(|_| asic::OPENSTA.find()) {
                Ok(_) => true,
                Err(missing) => {
                    eprintln!("no cell-library figures: {missing}");
                    asic_note = Some(missing);
                    false
                }
            },
        );
    std::fs::create_dir_all(&opts.out)
        .map_err(|e| format!("cannot create output folder {}: {e}", opts.out.display()))?;
    let done = AtomicUsize::new(0);
    let total = designs.len();
    // The costliest first (by their last run's time), so that the last preset to start
    // is a short one and the workers finish together.
    let mut order: Vec<(usize, &Design)> = designs.iter().enumerate().collect();
    order.sort_by(|a, b| {
        opts.known
            .cost(b.1.name)
            .total_cmp(&opts.known.cost(a.1.name))
    });
    let ran = crate::runner::run(
        &opts.on,
        opts.jobs,
        &order,
        |(_, d)| d.name.to_string(),
        |&(_, d)| {
            let t = Instant::now();
            one_preset(d, opts, asic, &tools).map(|r| (r, t.elapsed().as_secs_f64()))
        },
        |(_, d), r| {
            let n = done.fetch_add(1, Ordering::SeqCst) + 1;
            match r {
                Ok(((row, true, false), _)) => {
                    eprintln!("[{n:>2}/{total}] {:<28} cached", row.preset)
                }
                Ok(((row, true, true), seconds)) => eprintln!(
                    "[{n:>2}/{total}] {:<28} cached; cell library {seconds:.1} s: {}",
                    row.preset,
                    row.asic_cells()
                ),
                Ok(((row, false, _), seconds)) => eprintln!(
                    "[{n:>2}/{total}] {:<28} {seconds:>6.1} s  iCE40: {}",
                    row.preset,
                    row.ice40_cell()
                ),
                Err(e) => eprintln!("[{n:>2}/{total}] {:<28} FAILED: {e}", d.name),
            }
        },
    )?;
    let mut ran: Vec<(usize, Result<Row, String>)> = order
        .iter()
        .zip(ran)
        .map(|(&(i, _), r)| (i, r.map(|((row, _, _), _)| row)))
        .collect();
    ran.sort_by_key(|(i, _)| *i);
    let results = ran.into_iter().map(|(_, r)| r);
    let mut rows = vec![];
    let mut failures = vec![];
    for (d, r) in designs.iter().zip(results) {
        match r {
            Ok(row) => rows.push(row),
            Err(e) => failures.push(format!("{}: {e}", d.name)),
        }
    }
    if !failures.is_empty() {
        return Err(format!("report failed for {}", failures.join("\n")));
    }
    let target = match opts.fpga.freq_mhz {
        Some(f) => format!("{f} MHz (--freq)"),
        None => "constraints/ice40_clock.pcf".into(),
    };
    let mut header = format!(
        "# Area and timing of every weft preset\n\n\
         Regenerate with `cargo run --release -- report`: it exports each preset itself, and \
         keeps each preset's figures in `target/weft-report-cache/`, keyed by a hash of the \
         preset's Verilog, the flow's scripts and constraints and the tools' versions, so only \
         changed presets are recomputed. {TOOLS_LABEL}{tools}.\n\n\
         - **cells, flip-flops**: Yosys `synth -flatten`, generic gates; RAMs stay memories, \
         their storage is **RAM bits**. Designs over {} elaborated lines (`fabric`, \
         `vgiw_core`) are synthesised hierarchically: each module of at least {} lines that \
         the design holds twice or more (the fabric's tiles) keeps its hierarchy, is \
         synthesised once, flat inside, and every figure is summed over its copies; the \
         logic depth is then the longest path inside one module.\n\
         - **gates**: the same netlist mapped by ABC to 2-input gates and inverters; \
         **logic depth**: gates on the longest register-to-register path (`ltp -noff`).\n\
         - **transistors**: `stat -tech cmos` after `abc -g cmos2` (memories excluded).\n\
         - **Xilinx LUTs / FFs**: `synth_xilinx -flatten` (7-series).\n\
         - **iCE40**: the preset inside the `weft fpga` harness (inputs from a shift chain, outputs \
         registered and XOR-reduced), `synth_ice40` then `nextpnr-ice40` on an {}, seeds {}, \
         target {target}; logic cells after placement (in brackets: minus the harness alone), \
         Fmax = median over the seeds. A preset whose flip-flops (above) and the harness's \
         outnumber the device's logic cells (one flip-flop each) cannot fit and is not \
         synthesised for iCE40: its row says \"does not fit: at least N logic cells needed\". See [constraints/README.md](../../constraints/README.md).\n\
         - **Time limits**: each Yosys run stops after {} and each nextpnr run after {} \
         (`--synth-minutes`, `--pnr-minutes`); a row stopped there reads \
         \"synthesis > N min\" or \"P&R > N min\".\n\
         - **Cell library** (last four columns): {}\n",
        crate::verilog::FLAT_LINES,
        crate::verilog::BLOCK_LINES,
        opts.fpga.device.part(),
        match opts.fpga.seeds {
            1 => "1".to_string(),
            n => format!("1..={n}"),
        },
        minutes(opts.fpga.synth_minutes),
        minutes(opts.fpga.pnr_minutes),
        match (asic, &asic_note) {
            (Some(a), _) => format!(
                "`synth -flatten`, `dfflibmap` and `abc -D 1000` to the {} cells (`weft area \
                 --asic`; abc's constraints, inputs driven by `BUFX2` and 10 fF per output, \
                 make it buffer high-fanout nets and size gates), area in um2 and cell count from `stat -liberty`; the critical path is \
                 the shortest clock period meeting `constraints/weft.sdc` in OpenSTA, hence \
                 Fmax. The library has no memories: rust-hdl's RAMs stay macros (\"+ N \
                 RAMs\" beside the cells), without area (their storage is the RAM bits \
                 column) and timed as ideal registers (a path ends at a RAM's inputs and \
                 starts at its word, with no setup or access time). Typical corner, no wires, no placement: a lower bound on a placed \
                 design's area and delay. Each mapping stops after {} (`--asic-minutes`).",
                a.library.name,
                minutes(a.minutes)
            ),
            (None, Some(missing)) => format!("not measured: {missing}"),
            (None, None) => "not measured (`--asic none`).".into(),
        },
    );
    let missing: Vec<&str> = every_preset
        .iter()
        .copied()
        .filter(|n| !rows.iter().any(|r| r.preset == *n))
        .collect();
    if !missing.is_empty() {
        header.push_str(&format!(
            "\n**Partial table**: {} of {} presets; not included: {}.\n",
            rows.len(),
            rows.len() + missing.len(),
            missing.join(", ")
        ));
    }
    let md = markdown(&rows, &header);
    let write = |name: &str, text: &str| {
        let path = opts.out.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    write("report.md", &md)?;
    write(
        "report.json",
        &serde_json::to_string_pretty(&rows).map_err(|e| e.to_string())?,
    )?;
    write(
        "report.svg",
        &svg(
            &rows,
            &format!("weft presets: gates and {} Fmax", opts.fpga.device.part()),
        ),
    )?;
    print!("{md}");
    println!(
        "\nwrote {}/report.{{md,json,svg}} ({} presets) in {:.0} s",
        opts.out.display(),
        rows.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// How `weft export` tells a small preset (its area is measured on the spot) from a large
/// one (listed with the command that measures it).
#[derive(Clone, Copy, Debug)]
pub struct Overview {
    /// A preset whose last report run took longer than this is large.
    pub small_seconds: f64,
    /// Without a recorded time: a preset of more cells than this is large.
    pub small_cells: u64,
    /// Without any earlier row: a preset of more Verilog bytes than this is large.
    pub small_bytes: usize,
    /// Each area run on the spot is stopped after this long (then listed as large).
    pub limit: Duration,
    /// Area runs at once.
    pub jobs: usize,
}

impl Default for Overview {
    fn default() -> Self {
        Overview {
            small_seconds: 300.0,
            small_cells: 20_000,
            small_bytes: 400_000,
            limit: Duration::from_secs(120),
            jobs: 2,
        }
    }
}

/// One line of the export's table.
enum Figures {
    /// Known under the current key (cache or published report).
    Known(Box<Row>),
    /// Measured now (area only).
    Measured(Area),
    /// Not measured here: why, and what it cost last time.
    Deferred(String),
}

/// The area table `weft export` prints: the figures known for each preset's current
/// Verilog, small changed presets measured now (area only, in parallel), large changed
/// ones named with the command that measures them and how long it took last time.
/// Without Yosys (or nextpnr) the keys are those of the tools the published report names:
/// its figures still print, and the presets it does not cover are named in one line with
/// how to install Yosys.
pub fn overview(
    designs: &[(&str, &str)],
    fpga: &FpgaOptions,
    known: &Known,
    how: Overview,
) -> Result<String, String> {
    let yosys = YOSYS.find();
    let tools = match (&yosys, tool_versions()) {
        (Ok(_), Ok(tools)) => tools,
        (_, versions) => match known.published_tools() {
            Some(tools) => tools,
            None => versions?,
        },
    };
    let mut figures: Vec<Option<Figures>> = vec![];
    let mut to_measure = vec![];
    let mut unmeasurable = vec![];
    for (i, (name, verilog)) in designs.iter().enumerate() {
        let key = key_of(name, verilog, fpga, &tools)?;
        if let Some(row) = known.find(name, &key, fpga) {
            figures.push(Some(Figures::Known(Box::new(row))));
            continue;
        }
        if yosys.is_err() {
            figures.push(None);
            unmeasurable.push(*name);
            continue;
        }
        let last = known.last(name);
        let large = match &last {
            Some(Row {
                seconds: Some(s), ..
            }) => *s > how.small_seconds,
            Some(row) => row.area.as_ref().is_none_or(|a| a.cells > how.small_cells),
            None => verilog.len() > how.small_bytes,
        };
        if large {
            let when = match &last {
                Some(Row {
                    seconds: Some(s), ..
                }) => format!("last run took {}", duration(*s)),
                Some(Row {
                    synth_minutes: Some(m),
                    ..
                }) => format!("last run stopped its synthesis at {m} min"),
                Some(_) => "last run's time not recorded".into(),
                None => "never measured".into(),
            };
            figures.push(Some(Figures::Deferred(format!(
                "changed since its figures; `cargo run --release -- report {name}` measures it ({when})"
            ))));
        } else {
            figures.push(None);
            to_measure.push(i);
        }
    }
    let done = AtomicUsize::new(0);
    let measured = parallel(&to_measure, how.jobs, |&i| {
        let (name, verilog) = designs[i];
        let start = Instant::now();
        let r = area_now(name, verilog, how.limit);
        let n = done.fetch_add(1, Ordering::SeqCst) + 1;
        eprintln!(
            "[{n:>2}/{}] area {name:<28} {:.1} s",
            to_measure.len(),
            start.elapsed().as_secs_f64()
        );
        r
    });
    for (&i, r) in to_measure.iter().zip(measured) {
        figures[i] = Some(match r? {
            Some(a) => Figures::Measured(a),
            None => Figures::Deferred(format!(
                "area not finished within {}; `cargo run --release -- report {}` measures it",
                duration(how.limit.as_secs_f64()),
                designs[i].0
            )),
        });
    }
    let mut text = area::table_header("iCE40 Fmax MHz (HX8K)");
    let mut notes = vec![];
    for ((name, _), f) in designs.iter().zip(figures) {
        let Some(f) = f else {
            continue; // named below, with how to install Yosys
        };
        match f {
            Figures::Known(row) => match &row.area {
                Some(a) => text.push_str(&area::table_line(a, &row.ice40_cell())),
                None => notes.push(format!("{name}: {}", row.ice40_cell())),
            },
            Figures::Measured(a) => {
                text.push_str(&area::table_line(&a, &format!("run `weft report {name}`")))
            }
            Figures::Deferred(why) => notes.push(format!("{name}: {why}")),
        }
    }
    for n in notes {
        text.push_str(&format!("{n}\n"));
    }
    if let Err(why) = yosys {
        if !unmeasurable.is_empty() {
            text.push_str(&format!(
                "not measured (changed since the published figures): {}; {why}\n",
                unmeasurable.join(", ")
            ));
        }
    }
    Ok(text)
}

/// The area of `verilog` (top `name`), stopped after `limit`.
fn area_now(name: &str, verilog: &str, limit: Duration) -> Result<Option<Area>, String> {
    let work = std::env::temp_dir().join(format!("weft-area-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let file = work.join(format!("{name}.v"));
    let r = std::fs::write(&file, verilog)
        .map_err(|e| format!("cannot write {}: {e}", file.display()))
        .and_then(|()| area::area_within(name, &file, Some(limit)));
    let _ = std::fs::remove_dir_all(&work);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(duration(42.4), "42 s");
        assert_eq!(duration(719.0), "12 min");
        assert_eq!(duration(8685.0), "2 h 25 min");
    }
}
