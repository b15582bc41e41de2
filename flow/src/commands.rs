//! What `weft export` (its area table), `weft area`, `weft fpga` and `weft report` do,
//! given the presets' exported files and plain option structs (the command line's
//! types stay in the `weft` binary).
use crate::fpga::{self, Device, FpgaOptions};
use crate::report::{self, AsicOptions, Known, Overview, ReportOptions};
use crate::runner::On;
use crate::tools::YOSYS;
use crate::verilog::Synthesis;
use crate::{area, asic};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// `DIR/<name>.v`, which `weft export` writes.
pub fn exported_file(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let file = dir.join(format!("{name}.v"));
    if file.is_file() {
        Ok(file)
    } else {
        Err(format!(
            "{} does not exist; run `weft export --out {}` first",
            file.display(),
            dir.display()
        ))
    }
}

/// Creates the output folder `dir` of option `flag` now, so that an unwritable one is
/// refused before any tool or run starts.
pub fn output_folder(flag: &str, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("{flag} {}: cannot create the folder: {e}", dir.display()))
}

/// A scratch folder, or the one the user asked to keep.
pub fn work_dir(keep: &Option<PathBuf>, what: &str) -> PathBuf {
    keep.clone()
        .unwrap_or_else(|| std::env::temp_dir().join(format!("weft-{what}-{}", std::process::id())))
}

/// After `weft export`: the area table of the exported `files` (name, file), published
/// or cached figures where the Verilog is unchanged (also without Yosys).
pub fn export_table(files: &[(&str, PathBuf)], started: Instant) -> Result<(), String> {
    let texts: Vec<String> = files
        .iter()
        .map(|(_, f)| {
            std::fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))
        })
        .collect::<Result<_, _>>()?;
    let designs: Vec<(&str, &str)> = files
        .iter()
        .zip(&texts)
        .map(|((name, _), t)| (*name, t.as_str()))
        .collect();
    let table = report::overview(
        &designs,
        &FpgaOptions::published(),
        &Known::project(),
        Overview::default(),
    )?;
    println!("\n{table}");
    println!(
        "figures: {} for unchanged presets (`weft report` computes and caches the rest); {:.0} s",
        report::PUBLISHED,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `weft area`'s options.
pub struct AreaCommand {
    pub json: bool,
    /// Stop each preset's Yosys run after this many minutes.
    pub synth_minutes: Option<u64>,
    /// The cell library of the ASIC figures: osu018, osu035, or none.
    pub asic: String,
    /// Flat, hierarchical, or by the report's size rule.
    pub synthesis: Synthesis,
}

impl AreaCommand {
    /// The synthesis time limit; 0 minutes, or a cell library not known, is refused.
    pub fn limit(&self) -> Result<Option<Duration>, String> {
        if self.asic != "none" {
            asic::Library::by_name(&self.asic)?;
        }
        match self.synth_minutes {
            Some(0) => Err("--synth-minutes must be at least 1".into()),
            m => Ok(m.map(|m| Duration::from_secs(60 * m))),
        }
    }
}

/// `weft area` on `designs` (name, exported file): the table, or JSON rows.
pub fn area(designs: &[(&str, &Path)], options: &AreaCommand) -> Result<(), String> {
    let limit = options.limit()?;
    YOSYS.find()?;
    let (rows, stopped) = area::areas(designs, limit, 2, options.synthesis)?;
    let cells = asic_figures(&options.asic, designs, limit, options.synthesis)?;
    if options.json {
        let mut values = serde_json::to_value(&rows).map_err(|e| e.to_string())?;
        for v in values.as_array_mut().expect("rows are an array") {
            let name = v["preset"].as_str().unwrap_or_default().to_string();
            if let Some((_, Some(f))) = cells.iter().find(|(n, _)| *n == name) {
                v["asic"] = serde_json::to_value(f).map_err(|e| e.to_string())?;
            }
        }
        println!(
            "{}",
            serde_json::to_string_pretty(&values).map_err(|e| e.to_string())?
        );
        // JSON holds measured rows only; a stopped run is named on stderr.
        for s in stopped {
            eprintln!("{s}");
        }
    } else {
        print!("{}", area::table(&rows));
        for s in stopped {
            println!("{s}");
        }
        if !cells.is_empty() {
            print!("{}", asic::table(&cells));
        }
    }
    Ok(())
}

/// `weft area`'s cell-library figures per design (`None`: stopped by the limit); none
/// when `library` is `none`. A missing library or OpenSTA is named on stderr and the
/// other figures still print.
fn asic_figures(
    library: &str,
    designs: &[(&str, &Path)],
    limit: Option<Duration>,
    mode: Synthesis,
) -> Result<Vec<(String, Option<asic::AsicFigures>)>, String> {
    if library == "none" {
        return Ok(vec![]);
    }
    let library = asic::Library::by_name(library)?;
    if let Err(missing) = library.find().and_then(|_| asic::OPENSTA.find()) {
        eprintln!("no cell-library figures: {missing}");
        return Ok(vec![]);
    }
    let sdc = Path::new("constraints/weft.sdc");
    let results = crate::jobs::parallel(designs, 2, |(name, file)| {
        let dir = Path::new("target/asic").join(name);
        asic::asic_figures(name, file, library, sdc, &dir, limit, mode)
            .map(|f| (name.to_string(), f))
    });
    results.into_iter().collect()
}

/// `weft fpga`'s options.
pub struct FpgaCommand {
    pub device: Device,
    /// Timing target in MHz (default: the constraints').
    pub freq: Option<f64>,
    /// nextpnr runs with seeds 1..=N.
    pub seeds: u64,
    pub json: bool,
    /// Keep the harness, netlist and constraints in this folder.
    pub keep: Option<PathBuf>,
    /// Stop each nextpnr run after this many minutes.
    pub pnr_minutes: Option<u64>,
}

/// `weft fpga` on one preset's exported `file`: the iCE40 figures, as text or JSON.
pub fn fpga(name: &str, file: &Path, c: &FpgaCommand) -> Result<(), String> {
    let options = FpgaOptions {
        device: c.device,
        freq_mhz: c.freq,
        seeds: c.seeds,
        jobs: 2,
        constraints: PathBuf::from("constraints"),
        pnr_minutes: c.pnr_minutes,
        synth_minutes: None,
    };
    options.check()?;
    let work = work_dir(&c.keep, &format!("fpga-{name}"));
    let result = fpga::run(name, file, &options, &work);
    if c.keep.is_none() {
        let _ = std::fs::remove_dir_all(&work);
    }
    let result = result?.ok_or("synthesis stopped without a time limit")?;
    if c.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&result).map_err(|e| e.to_string())?
        );
    } else {
        print!("{}", result.summary());
    }
    // Not fitting is an answer, not a failure: the message says what is needed.
    Ok(())
}

/// `weft report`'s options.
pub struct ReportCommand {
    pub out: PathBuf,
    pub device: Device,
    pub freq: Option<f64>,
    pub seeds: u64,
    /// Presets processed at once.
    pub jobs: usize,
    pub cache: PathBuf,
    /// Recompute every preset (the cache is neither read nor written).
    pub no_cache: bool,
    pub pnr_minutes: u64,
    pub synth_minutes: u64,
    /// The cell library of the ASIC columns: osu018, osu035, or none.
    pub asic: String,
    pub asic_minutes: u64,
    /// Where the presets' flows run.
    pub on: On,
}

impl ReportCommand {
    /// The report's options, checked.
    pub fn options(self) -> Result<ReportOptions, String> {
        if self.jobs == 0 {
            return Err("--jobs must be at least 1".into());
        }
        if self.asic_minutes == 0 {
            return Err("--asic-minutes must be at least 1".into());
        }
        output_folder("--out", &self.out)?;
        if !self.no_cache {
            output_folder("--cache", &self.cache)?;
        }
        let asic = match self.asic.as_str() {
            "none" => None,
            name => Some(AsicOptions {
                library: asic::Library::by_name(name)?,
                sdc: PathBuf::from("constraints/weft.sdc"),
                minutes: Some(self.asic_minutes),
            }),
        };
        let fpga = FpgaOptions {
            device: self.device,
            freq_mhz: self.freq,
            seeds: self.seeds,
            jobs: 1,
            constraints: PathBuf::from("constraints"),
            pnr_minutes: Some(self.pnr_minutes),
            synth_minutes: Some(self.synth_minutes),
        };
        fpga.check()?;
        Ok(ReportOptions {
            out: self.out,
            fpga,
            jobs: self.jobs,
            on: self.on,
            known: Known {
                cache: (!self.no_cache).then_some(self.cache),
                published: (!self.no_cache).then(|| PathBuf::from(report::PUBLISHED)),
            },
            asic,
        })
    }
}
