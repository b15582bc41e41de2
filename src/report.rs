//! `weft report`: `weft area` and `weft fpga` over every preset, cached per preset, written
//! as Markdown, JSON and SVG.
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use weft_testbenches::area;
use weft_testbenches::fpga::{self, FpgaOptions};
use weft_testbenches::presets::Preset;
use weft_testbenches::report::{self, Row};
use weft_testbenches::tools::{NEXTPNR_ICE40, YOSYS};

pub struct ReportOptions {
    pub out: PathBuf,
    pub fpga: FpgaOptions,
    /// Presets processed at once.
    pub jobs: usize,
    /// Where per-preset results are kept between runs; `None` recomputes everything.
    pub cache: Option<PathBuf>,
}

/// Everything a preset's figures depend on: its Verilog, the Yosys script, the harness,
/// the constraints, the flow options and the tools' versions.
fn key_of(
    preset: &Preset,
    verilog: &str,
    opts: &ReportOptions,
    tools: &str,
) -> Result<String, String> {
    let ports = fpga::module_ports(verilog, preset.name)?;
    let harness = fpga::harness(preset.name, &ports).verilog;
    let script = area::script(preset.name, Path::new("block.v"));
    let read = |name: &str| std::fs::read_to_string(opts.fpga.constraints.join(name));
    let pins = read(opts.fpga.device.pcf()).unwrap_or_default();
    let clock = read("ice40_clock.pcf").unwrap_or_default();
    let flow = format!(
        "{} seeds={} freq={:?}",
        opts.fpga.device.name(),
        opts.fpga.seeds,
        opts.fpga.freq_mhz
    );
    Ok(report::cache_key(&[
        verilog, &script, &harness, &pins, &clock, &flow, tools,
    ]))
}

fn one_preset(preset: &Preset, opts: &ReportOptions, tools: &str) -> Result<(Row, bool), String> {
    // The Verilog `weft export` writes, generated here so the report is never stale.
    let verilog = crate::export::exported(preset);
    let key = key_of(preset, &verilog, opts, tools)?;
    let cached = opts
        .cache
        .as_ref()
        .map(|dir| dir.join(format!("{}.json", preset.name)));
    if let Some(path) = &cached {
        if let Ok(text) = std::fs::read_to_string(path) {
            if let Ok(row) = serde_json::from_str::<Row>(&text) {
                // A run stopped at a time limit stands only for limits no longer than it.
                let pnr_sooner = row.fpga.as_ref().is_some_and(|f| {
                    f.unfinished.is_some()
                        && f.pnr_minutes.unwrap_or(0) < opts.fpga.pnr_minutes.unwrap_or(u64::MAX)
                });
                let synth_sooner = row
                    .synth_minutes
                    .is_some_and(|m| m < opts.fpga.synth_minutes.unwrap_or(u64::MAX));
                let stopped_sooner = pnr_sooner || synth_sooner;
                if row.key == key && !stopped_sooner {
                    return Ok((row, true));
                }
            }
        }
    }
    let work = std::env::temp_dir().join(format!(
        "weft-report-{}-{}",
        preset.name,
        std::process::id()
    ));
    std::fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let file = work.join(format!("{}.v", preset.name));
    let figures = std::fs::write(&file, &verilog)
        .map_err(|e| format!("cannot write {}: {e}", file.display()))
        .and_then(|()| {
            let limit = opts
                .fpga
                .synth_minutes
                .map(|m| std::time::Duration::from_secs(60 * m));
            // A stopped area flow skips the iCE40 flow: its synthesis is no shorter.
            let Some(area) = area::area_within(preset.name, &file, limit)? else {
                return Ok((None, None));
            };
            let fpga = fpga::run(preset.name, &file, &opts.fpga, &work.join("fpga"))?;
            Ok((Some(area), fpga))
        });
    let _ = std::fs::remove_dir_all(&work);
    let (area, fpga) = figures?;
    let stopped = area.is_none() || fpga.is_none();
    let row = Row {
        preset: preset.name.to_string(),
        key,
        area,
        fpga,
        synth_minutes: opts.fpga.synth_minutes.filter(|_| stopped),
    };
    if let Some(path) = &cached {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let text = serde_json::to_string_pretty(&row).map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok((row, false))
}

fn minutes(limit: Option<u64>) -> String {
    limit.map_or("no limit".into(), |m| format!("{m} min"))
}

/// Runs the report over `presets` and writes `report.md`, `report.json`, `report.svg`.
pub fn report(presets: &[Preset], opts: &ReportOptions) -> Result<(), String> {
    let start = Instant::now();
    let tools = format!("{}; {}", YOSYS.version()?, NEXTPNR_ICE40.version()?);
    std::fs::create_dir_all(&opts.out)
        .map_err(|e| format!("cannot create output folder {}: {e}", opts.out.display()))?;
    let done = AtomicUsize::new(0);
    let total = presets.len();
    let results = fpga::parallel(presets, opts.jobs, |p| {
        let t = Instant::now();
        let r = one_preset(p, opts, &tools);
        let n = done.fetch_add(1, Ordering::SeqCst) + 1;
        match &r {
            Ok((row, true)) => eprintln!("[{n:>2}/{total}] {:<28} cached", row.preset),
            Ok((row, false)) => eprintln!(
                "[{n:>2}/{total}] {:<28} {:>6.1} s  iCE40: {}",
                row.preset,
                t.elapsed().as_secs_f64(),
                row.ice40_cell()
            ),
            Err(e) => eprintln!("[{n:>2}/{total}] {:<28} FAILED: {e}", p.name),
        }
        r
    });
    let mut rows = vec![];
    let mut failures = vec![];
    for (p, r) in presets.iter().zip(results) {
        match r {
            Ok((row, _)) => rows.push(row),
            Err(e) => failures.push(format!("{}: {e}", p.name)),
        }
    }
    if !failures.is_empty() {
        return Err(format!("report failed for {}", failures.join("\n")));
    }
    let target = match opts.fpga.freq_mhz {
        Some(f) => format!("{f} MHz (--freq)"),
        None => "constraints/ice40_clock.pcf".into(),
    };
    let header = format!(
        "# Area and timing of every weft preset\n\n\
         Regenerate with `cargo run --release -- report`: it exports each preset itself, and \
         keeps each preset's figures in `target/weft-report-cache/`, keyed by a hash of the \
         preset's Verilog, the flow's scripts and constraints and the tools' versions, so only \
         changed presets are recomputed. Tools: {tools}.\n\n\
         - **cells, flip-flops**: Yosys `synth -flatten`, generic gates; RAMs stay memories, \
         their storage is **RAM bits**.\n\
         - **gates**: the same netlist mapped by ABC to 2-input gates and inverters; \
         **logic depth**: gates on the longest register-to-register path (`ltp -noff`).\n\
         - **transistors**: `stat -tech cmos` after `abc -g cmos2` (memories excluded).\n\
         - **Xilinx LUTs / FFs**: `synth_xilinx -flatten` (7-series).\n\
         - **iCE40**: the preset inside the `weft fpga` harness (inputs from a shift chain, outputs \
         registered and XOR-reduced), `synth_ice40` then `nextpnr-ice40` on an {}, seeds {}, \
         target {target}; logic cells after placement (in brackets: minus the harness alone), \
         Fmax = median over the seeds. See [constraints/README.md](../../constraints/README.md).\n\
         - **Time limits**: each Yosys run stops after {} and each nextpnr run after {} \
         (`--synth-minutes`, `--pnr-minutes`); a row stopped there reads \
         \"synthesis > N min\" or \"P&R > N min\".\n",
        opts.fpga.device.part(),
        match opts.fpga.seeds {
            1 => "1".to_string(),
            n => format!("1..={n}"),
        },
        minutes(opts.fpga.synth_minutes),
        minutes(opts.fpga.pnr_minutes),
    );
    let missing: Vec<&str> = weft_testbenches::presets::all()
        .iter()
        .map(|p| p.name)
        .filter(|n| !rows.iter().any(|r| r.preset == *n))
        .collect();
    let mut header = header;
    if !missing.is_empty() {
        header.push_str(&format!(
            "\n**Partial table**: {} of {} presets; not included: {}.\n",
            rows.len(),
            rows.len() + missing.len(),
            missing.join(", ")
        ));
    }
    let md = report::markdown(&rows, &header);
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
        &report::svg(
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
