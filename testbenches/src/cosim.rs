//! Co-simulation of a preset: its bench runs in Rust (model and RTL agree every cycle)
//! while the ports are recorded; `weft-flow` replays them on the exported Verilog under
//! Icarus and Verilator and compares every output every cycle.
use crate::presets::Preset;
use crate::run::{run, Outputs, RunReport, VectorWriter};
use std::path::Path;
pub use weft_flow::cosim::{CosimReport, Simulator};

/// What one co-simulation found.
#[derive(Clone, Debug)]
pub struct Cosim {
    pub preset: String,
    /// Cycles asked for.
    pub cycles: u64,
    pub seed: u64,
    /// The Rust run that recorded the vectors.
    pub recorded: RunReport,
    /// One replay per simulator, in the order asked.
    pub replays: Vec<CosimReport>,
    /// The cycles each replay was asked to replay (the first of the recorded ones).
    pub replay_cycles: Vec<u64>,
}

impl Cosim {
    /// What `weft cosim` prints: the recording, then each replay with its speed and its
    /// first mismatches.
    pub fn summary(&self) -> String {
        let rust_rate = self.recorded.cycles_per_second();
        let mut s = format!(
            "{}: recorded {} cycles from the Rust simulation (seed {}, model and RTL agree); Rust steps {rust_rate:.0} cycles/s with recording\n",
            self.preset, self.recorded.cycles, self.seed
        );
        for r in &self.replays {
            let rate = r.cycles as f64 / r.seconds.max(1e-9);
            s.push_str(&format!(
                "  {:<10} {} cycles, {} mismatches, {rate:.0} cycles/s (vector replay)\n",
                r.simulator.name(),
                r.cycles,
                r.mismatches,
            ));
            if r.simulator == Simulator::Verilator {
                s.push_str(&format!(
                    "  speed: Verilator {rate:.0} cycles/s vs Rust {rust_rate:.0} cycles/s (model checks and recording included): {:.1}x\n",
                    rate / rust_rate.max(1e-9)
                ));
            }
            for m in &r.first_mismatches {
                s.push_str(&format!("    {m}\n"));
            }
        }
        s
    }

    /// Every replay that mismatched or stopped short, as sentences; empty when clean.
    pub fn failures(&self) -> Vec<String> {
        self.replays
            .iter()
            .zip(&self.replay_cycles)
            .filter(|(r, &asked)| r.mismatches > 0 || r.cycles != asked)
            .map(|(r, asked)| {
                format!(
                    "{}: {} mismatches over {} of {asked} cycles",
                    r.simulator.name(),
                    r.mismatches,
                    r.cycles,
                )
            })
            .collect()
    }
}

/// Progress lines on long runs: every tenth of a run of a million cycles or more.
pub fn progress_step(cycles: u64) -> u64 {
    if cycles >= 1_000_000 {
        cycles / 10
    } else {
        0
    }
}

/// Records `cycles` cycles of `preset` from `seed` and replays them under each of
/// `simulators`, working in `dir` (vectors, testbench, builds). `Err` when a tool is
/// missing, a file cannot be written, or the Rust run itself finds a mismatch.
pub fn cosimulate(
    preset: &Preset,
    cycles: u64,
    seed: u64,
    simulators: &[Simulator],
    dir: &Path,
) -> Result<Cosim, String> {
    let replays: Vec<(Simulator, u64)> = simulators.iter().map(|&s| (s, cycles)).collect();
    cosimulate_prefixes(preset, cycles, seed, &replays, dir)
}

/// [`cosimulate`] with each simulator replaying the first `n` of the `cycles` recorded
/// (`n` at most `cycles`): Icarus replays about 5 000 cycles a second, Verilator hundreds
/// of thousands, so a long recording can be Verilator's alone past Icarus's prefix.
pub fn cosimulate_prefixes(
    preset: &Preset,
    cycles: u64,
    seed: u64,
    replays: &[(Simulator, u64)],
    dir: &Path,
) -> Result<Cosim, String> {
    if cycles == 0 {
        return Err("--cycles must be at least 1".into());
    }
    if let Some((s, n)) = replays.iter().find(|(_, n)| *n == 0 || *n > cycles) {
        return Err(format!(
            "{} cannot replay {n} of {cycles} recorded cycles",
            s.name()
        ));
    }
    for (s, _) in replays {
        s.tool().find()?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let vectors_path = dir.join("vectors.txt");
    let mut writer = VectorWriter::create(&vectors_path)
        .map_err(|e| format!("cannot create {}: {e}", vectors_path.display()))?;
    let mut bench = (preset.bench)();
    let clocked = crate::bench::ports_and_values(bench.block())
        .0
        .iter()
        .any(|port| port.input && port.name == "clock");
    let recorded = run(
        bench.as_mut(),
        cycles,
        seed,
        Outputs {
            vcd: None,
            vectors: Some(&mut writer),
            progress_every: progress_step(cycles),
        },
    )
    .map_err(|e| format!("{} (seed {seed}): {e}", preset.name))?;
    let ports = writer.finish().map_err(|e| e.to_string())?;
    let write = |name: &str, text: String| {
        std::fs::write(dir.join(name), text).map_err(|e| format!("cannot write {name}: {e}"))
    };
    write("dut.v", preset.exported())?;
    let mut reports = vec![];
    for &(s, n) in replays {
        let vectors = if n < cycles {
            let prefix = format!("vectors_first_{n}.txt");
            first_cycles(&vectors_path, &dir.join(&prefix), n)?;
            prefix
        } else {
            "vectors.txt".to_string()
        };
        match s {
            Simulator::Icarus => write(
                "tb.v",
                weft_flow::cosim::testbench(preset.name, clocked, &ports, &vectors),
            )?,
            Simulator::Verilator => write(
                "harness.cpp",
                weft_flow::cosim::verilator_harness(clocked, &ports, &vectors),
            )?,
        }
        reports.push(weft_flow::cosim::replay(s, preset.name, dir)?);
    }
    Ok(Cosim {
        preset: preset.name.to_string(),
        cycles,
        seed,
        recorded,
        replays: reports,
        replay_cycles: replays.iter().map(|r| r.1).collect(),
    })
}

/// Copies the header and the first `n` cycles of the vector file `from` to `to`.
fn first_cycles(from: &Path, to: &Path, n: u64) -> Result<(), String> {
    use std::io::{BufRead, BufWriter, Write};
    let open = std::fs::File::open(from).map_err(|e| format!("{}: {e}", from.display()))?;
    let create = std::fs::File::create(to).map_err(|e| format!("{}: {e}", to.display()))?;
    let mut out = BufWriter::new(create);
    for line in std::io::BufReader::new(open).lines().take(n as usize + 1) {
        let line = line.map_err(|e| format!("{}: {e}", from.display()))?;
        writeln!(out, "{line}").map_err(|e| format!("{}: {e}", to.display()))?;
    }
    out.flush().map_err(|e| format!("{}: {e}", to.display()))
}
