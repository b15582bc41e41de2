//! `weft fpga`: a preset placed and routed on a Lattice iCE40 with the open tools.
//!
//! Blocks have hundreds of ports, a package has a few dozen pins, and unregistered ports
//! would leave pad-to-pad paths in the timing report. So the block goes inside a
//! harness with three pins (`clk`, `din`, `dout`):
//! - every input bit of the block is a stage of one shift chain loaded from `din`, so no
//!   input is a constant Yosys could fold away;
//! - every output bit is registered, then XOR-reduced four bits per LUT with a register
//!   after each LUT level, so the harness's own paths are one LUT deep and the block's
//!   paths set Fmax; the chain's far end joins the reduction so `din` is always used.
//!
//! The harness's share is measured by synthesizing it around a black box with the
//! block's ports; the block's cost is the full design minus that share.
//! Fmax is nextpnr's figure after routing, the median over seeds 1..=N.
use crate::jobs::parallel;
use crate::tools::{transcript, NEXTPNR_ICE40, YOSYS};
use crate::verilog::{module_ports, Port};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The generated harness and its shape.
#[derive(Clone, Debug)]
pub struct Harness {
    pub verilog: String,
    /// Block input bits fed by the shift chain (the clock excluded).
    pub input_bits: usize,
    /// Block output bits registered and reduced.
    pub output_bits: usize,
}

pub const HARNESS_TOP: &str = "weft_fpga_harness";

/// The harness around block `top` with `ports`; the block's `clock` input, if any, is
/// the harness clock.
pub fn harness(top: &str, ports: &[Port]) -> Harness {
    let is_clock = |p: &Port| p.input && p.name == "clock" && p.width == 1;
    let input_bits: usize = ports
        .iter()
        .filter(|p| p.input && !is_clock(p))
        .map(|p| p.width)
        .sum();
    let output_bits: usize = ports.iter().filter(|p| !p.input).map(|p| p.width).sum();
    let chain = input_bits.max(1);
    let mut v = format!(
        "// Harness of `weft fpga` around {top}: {input_bits} input bits from a shift chain, \
         {output_bits} output bits registered and XOR-reduced.\n\
         module {HARNESS_TOP}(clk, din, dout);\n    input wire clk;\n    input wire din;\n    output wire dout;\n\n"
    );
    v.push_str(&format!("    reg [{}:0] chain;\n", chain - 1));
    if chain == 1 {
        v.push_str("    always @(posedge clk) chain <= din;\n");
    } else {
        v.push_str(&format!(
            "    always @(posedge clk) chain <= {{chain[{}:0], din}};\n",
            chain - 2
        ));
    }
    // The reduced vector: block outputs, then the chain's far end.
    let reduced = output_bits + 1;
    v.push_str(&format!("    wire [{}:0] block_out;\n", reduced - 1));
    v.push_str(&format!(
        "    assign block_out[{}] = chain[{}];\n",
        reduced - 1,
        chain - 1
    ));
    let mut connections = vec![];
    let (mut next_in, mut next_out) = (0usize, 0usize);
    for p in ports {
        let (base, next) = if is_clock(p) {
            connections.push(format!("        .{}(clk)", p.name));
            continue;
        } else if p.input {
            ("chain", &mut next_in)
        } else {
            ("block_out", &mut next_out)
        };
        connections.push(format!(
            "        .{}({base}[{}:{}])",
            p.name,
            *next + p.width - 1,
            *next
        ));
        *next += p.width;
    }
    v.push_str(&format!(
        "\n    {top} block(\n{}\n    );\n\n",
        connections.join(",\n")
    ));
    v.push_str(&format!(
        "    reg [{}:0] level0;\n    always @(posedge clk) level0 <= block_out;\n",
        reduced - 1
    ));
    let (mut level, mut width) = (0, reduced);
    while width > 1 {
        let next = width.div_ceil(4);
        v.push_str(&format!(
            "    reg [{}:0] level{};\n    always @(posedge clk) begin\n",
            next - 1,
            level + 1
        ));
        for i in 0..next {
            let (lo, hi) = (4 * i, (4 * i + 3).min(width - 1));
            v.push_str(&format!(
                "        level{}[{i}] <= ^level{level}[{hi}:{lo}];\n",
                level + 1
            ));
        }
        v.push_str("    end\n");
        level += 1;
        width = next;
    }
    v.push_str(&format!("    assign dout = level{level}[0];\nendmodule\n"));
    Harness {
        verilog: v,
        input_bits,
        output_bits,
    }
}

/// A black box with the block's ports, to synthesize the harness alone.
pub fn black_box(top: &str, ports: &[Port]) -> String {
    let mut v = format!(
        "(* blackbox *)\nmodule {top}({});\n",
        ports
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(",")
    );
    for p in ports {
        let dir = if p.input { "input" } else { "output" };
        if p.width == 1 {
            v.push_str(&format!("    {dir} wire {};\n", p.name));
        } else {
            v.push_str(&format!("    {dir} wire [{}:0] {};\n", p.width - 1, p.name));
        }
    }
    v.push_str("endmodule\n");
    v
}

/// An iCE40 part with the package its committed PCF is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Device {
    Hx1k,
    Hx8k,
    Up5k,
}

impl Device {
    pub fn name(self) -> &'static str {
        match self {
            Device::Hx1k => "hx1k",
            Device::Hx8k => "hx8k",
            Device::Up5k => "up5k",
        }
    }
    pub fn part(self) -> &'static str {
        match self {
            Device::Hx1k => "iCE40HX1K-TQ144",
            Device::Hx8k => "iCE40HX8K-CT256",
            Device::Up5k => "iCE40UP5K-SG48",
        }
    }
    fn nextpnr_args(self) -> [&'static str; 3] {
        match self {
            Device::Hx1k => ["--hx1k", "--package", "tq144"],
            Device::Hx8k => ["--hx8k", "--package", "ct256"],
            Device::Up5k => ["--up5k", "--package", "sg48"],
        }
    }
    /// The pin constraints under `constraints/`.
    pub fn pcf(self) -> &'static str {
        match self {
            Device::Hx1k => "ice40_hx1k_tq144.pcf",
            Device::Hx8k => "ice40_hx8k_ct256.pcf",
            Device::Up5k => "ice40_up5k_sg48.pcf",
        }
    }
    /// Logic cells and 4 kbit block RAMs on the part.
    pub fn capacity(self) -> (u64, u64) {
        match self {
            Device::Hx1k => (1280, 16),
            Device::Hx8k => (7680, 32),
            Device::Up5k => (5280, 30),
        }
    }
}

/// iCE40 primitives after `synth_ice40`, from Yosys's `stat`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ice40Cells {
    pub luts: u64,
    pub flip_flops: u64,
    pub carries: u64,
    pub ram_blocks: u64,
}

/// Reads SB_LUT4, SB_DFF*, SB_CARRY and SB_RAM40_4K counts from a `stat` report.
pub fn parse_ice40_stat(log: &str) -> Result<Ice40Cells, String> {
    let counts = crate::area::cell_counts(log);
    if counts.is_empty() {
        return Err("no cell list in Yosys's synth_ice40 statistics".into());
    }
    let sum = |keep: &dyn Fn(&str) -> bool| -> u64 {
        counts.iter().filter(|(k, _)| keep(k)).map(|c| c.1).sum()
    };
    Ok(Ice40Cells {
        luts: sum(&|k| k == "SB_LUT4"),
        flip_flops: sum(&|k| k.starts_with("SB_DFF")),
        carries: sum(&|k| k == "SB_CARRY"),
        ram_blocks: sum(&|k| k.starts_with("SB_RAM40")),
    })
}

/// One resource line of nextpnr's "Device utilisation".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Utilisation {
    pub resource: String,
    pub used: u64,
    pub available: u64,
}

/// What one nextpnr run reports.
#[derive(Clone, Debug, PartialEq)]
pub struct PnrLog {
    pub utilisation: Vec<Utilisation>,
    /// Fmax of the harness clock after routing (the last report), if routing finished.
    pub fmax_mhz: Option<f64>,
    /// The first `ERROR:` line, if any.
    pub error: Option<String>,
}

impl PnrLog {
    pub fn used(&self, resource: &str) -> Option<&Utilisation> {
        self.utilisation.iter().find(|u| u.resource == resource)
    }
    /// Resources the design needs more of than the part has.
    pub fn overflows(&self) -> Vec<&Utilisation> {
        self.utilisation
            .iter()
            .filter(|u| u.used > u.available)
            .collect()
    }
}

/// Parses nextpnr-ice40's log (stderr).
pub fn parse_nextpnr(log: &str) -> PnrLog {
    let mut utilisation = vec![];
    let mut lines = log.lines();
    if lines.any(|l| l.contains("Device utilisation:")) {
        for line in lines {
            let body = line.trim_start_matches("Info:").trim();
            let Some((name, rest)) = body.split_once(':') else {
                break;
            };
            let Some((used, rest)) = rest.split_once('/') else {
                break;
            };
            let available = rest.split_whitespace().next().and_then(|n| n.parse().ok());
            match (used.trim().parse(), available) {
                (Ok(used), Some(available)) => utilisation.push(Utilisation {
                    resource: name.trim().to_string(),
                    used,
                    available,
                }),
                _ => break,
            }
        }
    }
    let fmax_mhz = log
        .lines()
        .filter(|l| l.contains("Max frequency for clock"))
        .filter_map(|l| l.split("': ").nth(1))
        .filter_map(|r| r.split_whitespace().next())
        .filter_map(|n| n.parse::<f64>().ok())
        .next_back();
    let error = log
        .lines()
        .find(|l| l.starts_with("ERROR:"))
        .map(|l| l.trim().to_string());
    PnrLog {
        utilisation,
        fmax_mhz,
        error,
    }
}

/// Human names of nextpnr's iCE40 resources.
fn resource_name(resource: &str) -> &str {
    match resource {
        "ICESTORM_LC" => "logic cells",
        "ICESTORM_RAM" => "4 kbit block RAMs",
        "ICESTORM_SPRAM" => "SPRAMs",
        "SB_IO" => "I/O pins",
        "SB_GB" => "global buffers",
        other => other,
    }
}

/// The "does not fit" sentence: every resource over capacity, needed vs available.
pub fn does_not_fit(preset: &str, device: Device, over: &[(String, u64, u64)]) -> String {
    let parts: Vec<String> = over
        .iter()
        .map(|(r, used, avail)| {
            format!(
                "{used} {} needed, {avail} available ({r})",
                resource_name(r)
            )
        })
        .collect();
    format!(
        "{preset} does not fit an {}: {}",
        device.part(),
        parts.join("; ")
    )
}

/// Options of one `weft fpga` run.
#[derive(Clone, Debug)]
pub struct FpgaOptions {
    pub device: Device,
    /// Timing target in MHz; `None` uses constraints/ice40_clock.pcf.
    pub freq_mhz: Option<f64>,
    pub seeds: u64,
    /// nextpnr runs at once (seeds in parallel).
    pub jobs: usize,
    /// The committed constraints folder.
    pub constraints: PathBuf,
    /// Stop a nextpnr run after this many minutes (a congested design can route for
    /// hours); the result then says so instead of giving an Fmax.
    pub pnr_minutes: Option<u64>,
    /// Stop each Yosys run (`synth_ice40`) after this many minutes; `run` then returns
    /// `Ok(None)`.
    pub synth_minutes: Option<u64>,
}

impl FpgaOptions {
    /// The options of the published report (`weft report` with no flags), under whose
    /// key `weft export` looks figures up.
    pub fn published() -> FpgaOptions {
        FpgaOptions {
            device: Device::Hx8k,
            freq_mhz: None,
            seeds: 3,
            jobs: 1,
            constraints: PathBuf::from("constraints"),
            pnr_minutes: Some(20),
            synth_minutes: Some(60),
        }
    }

    /// Options that cannot work are refused with the flag to fix.
    pub fn check(&self) -> Result<(), String> {
        if self.seeds == 0 {
            return Err("--seeds must be at least 1".into());
        }
        if self.pnr_minutes == Some(0) {
            return Err("--pnr-minutes must be at least 1".into());
        }
        if self.synth_minutes == Some(0) {
            return Err("--synth-minutes must be at least 1".into());
        }
        if let Some(f) = self.freq_mhz {
            if !(f > 0.0 && f.is_finite()) {
                return Err(format!("--freq must be a positive number of MHz, got {f}"));
            }
        }
        Ok(())
    }
}

/// Everything `weft fpga` reports for one preset.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct FpgaResult {
    pub preset: String,
    pub device: Device,
    pub part: String,
    pub target_mhz: f64,
    pub harness_input_bits: usize,
    pub harness_output_bits: usize,
    /// Harness plus block after synth_ice40.
    pub total: Ice40Cells,
    /// The harness around a black box.
    pub harness: Ice40Cells,
    /// Set when the design does not fit; Fmax is then absent and `logic_cells` is
    /// nextpnr's count of cells needed, when placement got that far.
    pub does_not_fit: Option<String>,
    /// Set when place and route was stopped at `FpgaOptions::pnr_minutes`.
    #[serde(default)]
    pub unfinished: Option<String>,
    /// The limit that stopped it.
    #[serde(default)]
    pub pnr_minutes: Option<u64>,
    pub logic_cells: Option<u64>,
    pub logic_cells_available: u64,
    pub ram_blocks: Option<u64>,
    pub seeds: Vec<u64>,
    pub fmax_per_seed_mhz: Vec<f64>,
    pub fmax_median_mhz: Option<f64>,
}

impl FpgaResult {
    /// The result of `top` in the harness `h` before place and route: no cells, seeds
    /// or figures yet.
    fn before_pnr(top: &str, options: &FpgaOptions, target_mhz: f64, h: &Harness) -> FpgaResult {
        FpgaResult {
            preset: top.to_string(),
            device: options.device,
            part: options.device.part().to_string(),
            target_mhz,
            harness_input_bits: h.input_bits,
            harness_output_bits: h.output_bits,
            total: Ice40Cells::default(),
            harness: Ice40Cells::default(),
            does_not_fit: None,
            unfinished: None,
            pnr_minutes: options.pnr_minutes,
            logic_cells: None,
            logic_cells_available: options.device.capacity().0,
            ram_blocks: None,
            seeds: vec![],
            fmax_per_seed_mhz: vec![],
            fmax_median_mhz: None,
        }
    }

    /// Block cost = full design minus the harness alone (Yosys counts).
    pub fn block(&self) -> Ice40Cells {
        Ice40Cells {
            luts: self.total.luts.saturating_sub(self.harness.luts),
            flip_flops: self
                .total
                .flip_flops
                .saturating_sub(self.harness.flip_flops),
            carries: self.total.carries.saturating_sub(self.harness.carries),
            ram_blocks: self
                .total
                .ram_blocks
                .saturating_sub(self.harness.ram_blocks),
        }
    }

    /// The human-readable report.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{} on {} (harness: {} input bits by shift chain, {} output bits registered and XOR-reduced)\n",
            self.preset, self.part, self.harness_input_bits, self.harness_output_bits
        );
        let row = |label: &str, c: &Ice40Cells| {
            format!(
                "  {label:<22} {:>7} LUT4 {:>7} flip-flops {:>6} carries {:>4} RAM blocks\n",
                c.luts, c.flip_flops, c.carries, c.ram_blocks
            )
        };
        s.push_str(&row("synth_ice40 total", &self.total));
        s.push_str(&row("harness alone", &self.harness));
        s.push_str(&row("block (difference)", &self.block()));
        match (&self.does_not_fit, &self.unfinished) {
            (Some(why), _) | (None, Some(why)) => s.push_str(&format!("  {why}\n")),
            (None, None) => {
                let (lc_avail, ram_avail) = self.device.capacity();
                s.push_str(&format!(
                    "  placed and routed: {} / {lc_avail} logic cells, {} / {ram_avail} RAM blocks\n",
                    self.logic_cells.unwrap_or(0),
                    self.ram_blocks.unwrap_or(0)
                ));
                let per_seed: Vec<String> = self
                    .seeds
                    .iter()
                    .zip(&self.fmax_per_seed_mhz)
                    .map(|(seed, f)| format!("seed {seed}: {f:.2}"))
                    .collect();
                s.push_str(&format!(
                    "  Fmax {:.2} MHz (median over seeds {}; target {:.0} MHz; {})\n",
                    self.fmax_median_mhz.unwrap_or(0.0),
                    seed_range(&self.seeds),
                    self.target_mhz,
                    per_seed.join(", ")
                ));
            }
        }
        s
    }
}

fn seed_range(seeds: &[u64]) -> String {
    match seeds {
        [] => "none".into(),
        [one] => one.to_string(),
        [first, .., last] => format!("{first}..={last}"),
    }
}

/// The median of `values` (mean of the middle two for an even count).
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    let mid = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2.0
    })
}

fn write(dir: &Path, name: &str, text: &str) -> Result<PathBuf, String> {
    let path = dir.join(name);
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// `synth_ice40` of `files`; `Ok(None)` when stopped at `limit`.
fn synth_ice40(
    files: &[&Path],
    dir: &Path,
    json: Option<&str>,
    limit: Option<std::time::Duration>,
) -> Result<Option<Ice40Cells>, String> {
    let reads: Vec<String> = files
        .iter()
        .map(|f| format!("read_verilog {}", f.display()))
        .collect();
    let json = json.map(|j| format!(" -json {j}")).unwrap_or_default();
    let script = format!(
        "{}; synth_ice40 -top {HARNESS_TOP}{json}; tee -a /dev/stdout stat",
        reads.join("; ")
    );
    let Some(out) = YOSYS.run_limited(&["-q", "-p", &script], dir, limit)? else {
        return Ok(None);
    };
    if !out.status.success() {
        return Err(format!("synth_ice40 failed:\n{}", transcript(&out)));
    }
    parse_ice40_stat(&String::from_utf8_lossy(&out.stdout)).map(Some)
}

/// The timing target in MHz and the clock constraint's text.
fn clock_target(options: &FpgaOptions) -> Result<(f64, String), String> {
    match options.freq_mhz {
        Some(f) => Ok((f, format!("set_frequency clk {f}\n"))),
        None => {
            let path = options.constraints.join("ice40_clock.pcf");
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let f = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("set_frequency clk "))
                .and_then(|f| f.trim().parse::<f64>().ok())
                .ok_or_else(|| format!("{} has no `set_frequency clk MHZ`", path.display()))?;
            Ok((f, text))
        }
    }
}

/// The result of the flow for a block of `flip_flops` flip-flops (from `weft area`) when,
/// with the harness's own registers, they outnumber the device's logic cells: each
/// iCE40 logic cell holds one flip-flop, so the design cannot fit, and `synth_ice40` of
/// `fabric` (hours, flat) is not run to say so. `None` when the count leaves it open.
pub fn too_many_flip_flops(
    top: &str,
    verilog: &str,
    options: &FpgaOptions,
    flip_flops: u64,
) -> Result<Option<FpgaResult>, String> {
    let ports = module_ports(verilog, top)?;
    let h = harness(top, &ports);
    let needed = flip_flops + (h.input_bits + h.output_bits) as u64;
    let (lc_avail, _) = options.device.capacity();
    if needed <= lc_avail {
        return Ok(None);
    }
    let (target_mhz, _) = clock_target(options)?;
    let why = format!(
        "{top} does not fit an {}: at least {needed} logic cells needed, {lc_avail} available \
         (one per flip-flop: the block's {flip_flops} and the harness's {}, not synthesised for iCE40)",
        options.device.part(),
        h.input_bits + h.output_bits
    );
    Ok(Some(FpgaResult {
        does_not_fit: Some(why),
        ..FpgaResult::before_pnr(top, options, target_mhz, &h)
    }))
}

/// Runs the whole flow for the block in `file` (top module `top`) inside `work`;
/// `Ok(None)` when synthesis was stopped at `options.synth_minutes`.
pub fn run(
    top: &str,
    file: &Path,
    options: &FpgaOptions,
    work: &Path,
) -> Result<Option<FpgaResult>, String> {
    options.check()?;
    YOSYS.find()?;
    NEXTPNR_ICE40.find()?;
    let verilog = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let ports = module_ports(&verilog, top)?;
    let h = harness(top, &ports);
    std::fs::create_dir_all(work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let harness_file = write(work, "harness.v", &h.verilog)?;
    let stub_file = write(work, "black_box.v", &black_box(top, &ports))?;
    let block_file = std::fs::canonicalize(file).map_err(|e| e.to_string())?;
    let synth_limit = options
        .synth_minutes
        .map(|m| std::time::Duration::from_secs(60 * m));
    let Some(total) = synth_ice40(
        &[&block_file, &harness_file],
        work,
        Some("design.json"),
        synth_limit,
    )
    .map_err(|e| format!("{top}: {e}"))?
    else {
        return Ok(None);
    };
    let Some(harness_cells) = synth_ice40(&[&stub_file, &harness_file], work, None, synth_limit)
        .map_err(|e| format!("{top} (harness alone): {e}"))?
    else {
        return Ok(None);
    };

    let pins = options.constraints.join(options.device.pcf());
    let mut pcf = std::fs::read_to_string(&pins).map_err(|e| {
        format!(
            "cannot read {}: {e} (run weft from the project root)",
            pins.display()
        )
    })?;
    let (target_mhz, clock) = clock_target(options)?;
    pcf.push_str(&clock);
    write(work, "harness.pcf", &pcf)?;

    let mut result = FpgaResult {
        total,
        harness: harness_cells,
        seeds: (1..=options.seeds).collect(),
        ..FpgaResult::before_pnr(top, options, target_mhz, &h)
    };
    let seeds = result.seeds.clone();
    let limit = options
        .pnr_minutes
        .map(|m| std::time::Duration::from_secs(60 * m));
    // Once a seed is stopped at the limit the others are not started.
    let stopped = std::sync::atomic::AtomicBool::new(false);
    let logs = parallel(&seeds, options.jobs.max(1), |&seed| {
        if stopped.load(std::sync::atomic::Ordering::SeqCst) {
            return Ok(None);
        }
        let log = nextpnr(options.device, work, seed, target_mhz, limit);
        if matches!(log, Ok(None)) {
            stopped.store(true, std::sync::atomic::Ordering::SeqCst);
        }
        log
    });
    let mut fmax = vec![];
    for (seed, log) in seeds.iter().zip(logs) {
        let Some((log, raw)) = log? else {
            result.unfinished = Some(format!(
                "place and route of {top} did not finish within {} min (seed {seed}; raise --pnr-minutes)",
                options.pnr_minutes.unwrap_or(0)
            ));
            return Ok(Some(result));
        };
        let overflows = log.overflows();
        if !overflows.is_empty() {
            let over: Vec<(String, u64, u64)> = overflows
                .iter()
                .map(|u| (u.resource.clone(), u.used, u.available))
                .collect();
            result.does_not_fit = Some(does_not_fit(top, options.device, &over));
            result.logic_cells = log.used("ICESTORM_LC").map(|u| u.used);
            return Ok(Some(result));
        }
        match log.fmax_mhz {
            Some(f) if log.error.is_none() => fmax.push(f),
            _ => {
                let tail: Vec<&str> = raw.lines().rev().take(15).collect();
                let tail: Vec<&str> = tail.into_iter().rev().collect();
                return Err(format!(
                    "nextpnr-ice40 failed on {top} (seed {seed}): {}\n{}",
                    log.error.unwrap_or_else(|| "no Fmax reported".into()),
                    tail.join("\n")
                ));
            }
        }
        result.logic_cells = log.used("ICESTORM_LC").map(|u| u.used);
        result.ram_blocks = log.used("ICESTORM_RAM").map(|u| u.used);
    }
    result.fmax_median_mhz = median(&fmax);
    result.fmax_per_seed_mhz = fmax;
    Ok(Some(result))
}

fn nextpnr(
    device: Device,
    work: &Path,
    seed: u64,
    target_mhz: f64,
    limit: Option<std::time::Duration>,
) -> Result<Option<(PnrLog, String)>, String> {
    let seed = seed.to_string();
    let freq = target_mhz.to_string();
    let mut args: Vec<&str> = device.nextpnr_args().to_vec();
    args.extend([
        "--json",
        "design.json",
        "--pcf",
        "harness.pcf",
        "--seed",
        &seed,
        "--freq",
        &freq,
        "--timing-allow-fail",
    ]);
    let Some(out) = NEXTPNR_ICE40.run_limited(&args, work, limit)? else {
        return Ok(None);
    };
    let raw = transcript(&out);
    Ok(Some((parse_nextpnr(&raw), raw)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NEXTPNR_OK: &str = include_str!("../../tests/data/nextpnr_ok.log");
    const NEXTPNR_TOO_BIG: &str = include_str!("../../tests/data/nextpnr_too_big.log");
    const ICE40_STAT: &str = include_str!("../../tests/data/yosys_ice40_stat.log");

    #[test]
    fn more_flip_flops_than_logic_cells_cannot_fit() {
        let v = "module blk(clock,a,y);\n    input wire clock;\n    input wire [2:0] a;\n    output reg [4:0] y;\nendmodule\n";
        let options = FpgaOptions {
            constraints: PathBuf::from("../constraints"),
            ..FpgaOptions::published()
        };
        let (cells, _) = Device::Hx8k.capacity();
        // 3 chain bits and 5 output registers in the harness: 8 more than the block's.
        assert_eq!(
            too_many_flip_flops("blk", v, &options, cells - 8).unwrap(),
            None
        );
        let r = too_many_flip_flops("blk", v, &options, cells - 7)
            .unwrap()
            .expect("one flip-flop over");
        assert_eq!(r.fmax_median_mhz, None);
        assert_eq!(
            crate::report::table::fmax_cell(&r),
            format!(
                "does not fit: at least {} logic cells needed, {cells} available",
                cells + 1
            )
        );
        assert!(too_many_flip_flops("other", v, &options, 1).is_err());
    }

    #[test]
    fn harness_wires_every_bit_once() {
        let ports = vec![
            Port {
                name: "clock".into(),
                input: true,
                width: 1,
            },
            Port {
                name: "a".into(),
                input: true,
                width: 3,
            },
            Port {
                name: "b".into(),
                input: true,
                width: 1,
            },
            Port {
                name: "y".into(),
                input: false,
                width: 6,
            },
        ];
        let h = harness("blk", &ports);
        assert_eq!((h.input_bits, h.output_bits), (4, 6));
        let v = &h.verilog;
        assert!(v.contains(".clock(clk)"), "{v}");
        assert!(
            v.contains(".a(chain[2:0])") && v.contains(".b(chain[3:3])"),
            "{v}"
        );
        assert!(v.contains(".y(block_out[5:0])"), "{v}");
        assert!(v.contains("assign block_out[6] = chain[3];"), "{v}");
        // 7 bits -> 2 -> 1: two XOR levels after the output register.
        assert!(v.contains("level1[1] <= ^level0[6:4];"), "{v}");
        assert!(v.contains("level2[0] <= ^level1[1:0];"), "{v}");
        assert!(v.contains("assign dout = level2[0];"), "{v}");
    }

    #[test]
    fn parses_a_routed_nextpnr_log() {
        let log = parse_nextpnr(NEXTPNR_OK);
        assert_eq!(log.error, None);
        let lc = log.used("ICESTORM_LC").unwrap();
        assert_eq!((lc.used, lc.available), (210, 7680));
        assert_eq!(log.used("ICESTORM_RAM").unwrap().available, 32);
        assert!(log.overflows().is_empty());
        // The routed figure (the last report), not the placer's estimate of 101.66 MHz.
        assert_eq!(log.fmax_mhz, Some(97.88));
    }

    #[test]
    fn a_design_too_big_names_needed_and_available() {
        // Captured: `capt` in the harness given to nextpnr for an iCE40HX1K.
        let log = parse_nextpnr(NEXTPNR_TOO_BIG);
        assert!(log.error.as_deref().unwrap().contains("no BELs remaining"));
        assert_eq!(log.fmax_mhz, None);
        let over: Vec<(String, u64, u64)> = log
            .overflows()
            .iter()
            .map(|u| (u.resource.clone(), u.used, u.available))
            .collect();
        assert_eq!(over, [("ICESTORM_LC".to_string(), 4576, 1280)]);
        assert_eq!(log.used("ICESTORM_RAM").unwrap().available, 16);
        assert_eq!(
            does_not_fit("capt", Device::Hx1k, &over),
            "capt does not fit an iCE40HX1K-TQ144: 4576 logic cells needed, 1280 available (ICESTORM_LC)"
        );
    }

    #[test]
    fn parses_synth_ice40_statistics() {
        assert_eq!(
            parse_ice40_stat(ICE40_STAT).unwrap(),
            Ice40Cells {
                luts: 158,
                flip_flops: 52 + 2 + 32 + 12,
                carries: 0,
                ram_blocks: 0
            }
        );
        assert!(parse_ice40_stat("nothing").is_err());
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[]), None);
    }
}
