//! The one place that picks the timing model: a kernel runs on the machine's `timing`,
//! the SIMT core ([`simt`]) or the VGIW engine ([`engine`]), with one result type.
use crate::core::dataflow::engine;
use crate::core::functional::{Launch, Program};
use crate::core::image::Image;
use crate::core::machine::{Machine, Timing};
use crate::core::simt;

pub use crate::core::simt::Options;

/// What the model that timed the run counted.
pub enum Counted {
    Simt(simt::Stats),
    Vgiw(engine::Stats),
}

/// A timed run's result, on either model.
pub struct Run {
    /// The memory after the run (the same on every machine).
    pub image: Image,
    pub stats: Counted,
    /// Host seconds of the timed part (after `weft_setup`): the simulator's speed.
    pub seconds: f64,
}

/// Runs `weft_setup` functionally, then the launch on the machine's timing model. The
/// VGIW engine reads `max_instructions` as its limit of node evaluations, and has
/// neither a cycle limit, progress lines nor a waveform (a trace is refused).
pub fn run(
    program: Program,
    launch: Launch,
    machine: &Machine,
    options: Options,
) -> Result<Run, String> {
    match machine.timing() {
        Timing::Simt => {
            let r = simt::run(program, launch, machine, options)?;
            Ok(Run {
                image: r.image,
                stats: Counted::Simt(r.stats),
                seconds: r.seconds,
            })
        }
        Timing::Vgiw => {
            if options.trace.is_some() {
                traceable(machine)?;
            }
            let r = engine::run(program, launch, machine, options.max_instructions)?;
            Ok(Run {
                image: r.image,
                stats: Counted::Vgiw(r.stats),
                seconds: r.seconds,
            })
        }
    }
}

/// Refuses a waveform of a machine whose model has none (before a file is created).
pub fn traceable(machine: &Machine) -> Result<(), String> {
    match machine.timing() {
        Timing::Simt => Ok(()),
        Timing::Vgiw => Err("--vcd records the SIMT core; the VGIW engine has no waveform".into()),
    }
}
