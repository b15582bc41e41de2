//! The runner: drives a [`Bench`] for a number of cycles from a seed, streams a VCD,
//! records port vectors for co-simulation, and reports the speed.
use crate::bench::{ports_and_values, settle, Bench, Mismatch, Port};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::io::Write;
use std::time::Instant;

/// Half a clock period in VCD time units (ps).
pub const HALF_PERIOD: u64 = 5;

/// Where to put what a run produces besides its verdict.
#[derive(Default)]
pub struct Outputs<'a> {
    /// Stream a waveform here.
    pub vcd: Option<Box<dyn Write + 'a>>,
    /// Record the ports every cycle here (see [`VectorWriter`]).
    pub vectors: Option<&'a mut VectorWriter>,
    /// Print progress to stderr every this many cycles (0: never).
    pub progress_every: u64,
}

/// What a clean run measured.
#[derive(Clone, Debug)]
pub struct RunReport {
    pub cycles: u64,
    pub seconds: f64,
}

impl RunReport {
    pub fn cycles_per_second(&self) -> f64 {
        self.cycles as f64 / self.seconds.max(1e-9)
    }
}

/// Why a run stopped early.
#[derive(Debug)]
pub enum RunError {
    Mismatch(Mismatch),
    Io(std::io::Error),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Mismatch(m) => write!(f, "RTL and model disagree: {m}"),
            RunError::Io(e) => write!(f, "cannot write run output: {e}"),
        }
    }
}

impl std::error::Error for RunError {}

impl From<std::io::Error> for RunError {
    fn from(e: std::io::Error) -> Self {
        RunError::Io(e)
    }
}

/// The waveform being written, if any.
pub type Vcd<'a> = Option<rust_hdl::core::vcd_probe::VCDProbe<Box<dyn Write + 'a>>>;

/// Sets the clock low and settles the design: before the first [`step`].
pub fn start(bench: &mut dyn Bench) -> Result<(), RunError> {
    bench.set_clock(false);
    settle(bench.block_mut()).map_err(|e| RunError::Mismatch(Mismatch { cycle: 0, ..e }))
}

/// One clock cycle: inputs driven with the clock low, settle, outputs checked, rising
/// edge, settle, the bench's state advanced.
pub fn step(bench: &mut dyn Bench, cycle: u64, rng: &mut ChaCha8Rng) -> Result<(), RunError> {
    step_recorded(bench, cycle, rng, &mut None, None)
}

/// [`step`], also writing the waveform and the port vectors.
pub fn step_recorded<'a>(
    bench: &mut dyn Bench,
    cycle: u64,
    rng: &mut ChaCha8Rng,
    vcd: &mut Vcd<'a>,
    vectors: Option<&mut VectorWriter>,
) -> Result<(), RunError> {
    let at = |e: Mismatch| RunError::Mismatch(Mismatch { cycle, ..e });
    bench.set_clock(false);
    bench.drive(cycle, rng);
    settle(bench.block_mut()).map_err(at)?;
    if let Some(v) = vcd.take() {
        let mut v = write_vcd_change(v, bench.block());
        v.timestamp(2 * HALF_PERIOD * cycle)?;
        *vcd = Some(v);
    }
    bench.check().map_err(at)?;
    if let Some(rec) = vectors {
        rec.record(bench.block())?;
    }
    bench.set_clock(true);
    settle(bench.block_mut()).map_err(at)?;
    if let Some(v) = vcd.take() {
        let mut v = write_vcd_change(v, bench.block());
        v.timestamp(2 * HALF_PERIOD * cycle + HALF_PERIOD)?;
        *vcd = Some(v);
    }
    bench.tick().map_err(at)
}

/// Runs `cycles` cycles of random stimulus from `seed`.
pub fn run(
    bench: &mut dyn Bench,
    cycles: u64,
    seed: u64,
    mut out: Outputs,
) -> Result<RunReport, RunError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    start(bench)?;
    let mut vcd: Vcd = out.vcd.take().map(|w| write_vcd_header(w, bench.block()));
    let start = Instant::now();
    for cycle in 0..cycles {
        step_recorded(bench, cycle, &mut rng, &mut vcd, out.vectors.as_deref_mut())?;
        if out.progress_every > 0 && (cycle + 1) % out.progress_every == 0 {
            eprintln!("  {} / {} cycles", cycle + 1, cycles);
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    if let Some(v) = vcd.take() {
        let mut v = write_vcd_change(v, bench.block());
        v.timestamp(2 * HALF_PERIOD * cycles)?;
    }
    Ok(RunReport { cycles, seconds })
}

/// Streams one line per cycle: every input then every output (clock excluded),
/// MSB-first binary, space separated. The first line of the file names the ports.
pub struct VectorWriter {
    out: std::io::BufWriter<std::fs::File>,
    ports: Option<Vec<Port>>,
    pub cycles: u64,
}

impl VectorWriter {
    pub fn create(path: &std::path::Path) -> std::io::Result<Self> {
        Ok(VectorWriter {
            out: std::io::BufWriter::new(std::fs::File::create(path)?),
            ports: None,
            cycles: 0,
        })
    }

    /// Ports in file order: inputs first, then outputs; clock left out.
    pub fn ports(&self) -> &[Port] {
        self.ports.as_deref().unwrap_or(&[])
    }

    fn record(&mut self, block: &dyn Block) -> std::io::Result<()> {
        let (ports, values) = ports_and_values(block);
        let order = file_order(&ports);
        if self.ports.is_none() {
            let names: Vec<&str> = order.iter().map(|&i| ports[i].name.as_str()).collect();
            writeln!(self.out, "# {}", names.join(" "))?;
            self.ports = Some(order.iter().map(|&i| ports[i].clone()).collect());
        }
        let line: Vec<&str> = order.iter().map(|&i| values[i].as_str()).collect();
        writeln!(self.out, "{}", line.join(" "))?;
        self.cycles += 1;
        Ok(())
    }

    pub fn finish(mut self) -> std::io::Result<Vec<Port>> {
        self.out.flush()?;
        Ok(self.ports.unwrap_or_default())
    }
}

/// Indices of the ports in vector-file order: inputs, then outputs, clock left out.
fn file_order(ports: &[Port]) -> Vec<usize> {
    let inputs = (0..ports.len()).filter(|&i| ports[i].input && ports[i].name != "clock");
    let outputs = (0..ports.len()).filter(|&i| !ports[i].input);
    inputs.chain(outputs).collect()
}

pub use weft_flow::jobs::{on_big_stack, BIG_STACK};
