//! The cycle-by-cycle bench every block shares: random stimulus into the RTL and its
//! golden model, every output compared every cycle, contracts asserted, ports
//! recorded for co-simulation and streamed to a VCD.
//!
//! One cycle, as the runner drives it:
//! 1. clock low; `drive` sets this cycle's inputs on the RTL (and keeps them for the
//!    model); the RTL settles;
//! 2. `check` compares every RTL output with the model and asserts the contracts;
//!    the port values are recorded;
//! 3. clock high; the RTL settles (its registers take the edge); `tick` clocks the
//!    model with the same inputs.
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::fmt;
pub use weft_flow::verilog::Port;

/// A difference between the RTL and its model, or a broken contract.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub cycle: u64,
    pub signal: String,
    pub expected: String,
    pub got: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cycle {}: signal `{}`: expected {}, got {}",
            self.cycle, self.signal, self.expected, self.got
        )
    }
}

impl std::error::Error for Mismatch {}

/// Compares one output; `Err` names the signal with both values.
pub fn expect<T: PartialEq + fmt::Debug>(
    signal: &str,
    expected: T,
    got: T,
) -> Result<(), Mismatch> {
    if expected == got {
        Ok(())
    } else {
        Err(Mismatch {
            cycle: 0,
            signal: signal.to_string(),
            expected: format!("{expected:?}"),
            got: format!("{got:?}"),
        })
    }
}

/// A contract that must hold; `Err` names it.
pub fn contract(name: &str, holds: bool, detail: impl FnOnce() -> String) -> Result<(), Mismatch> {
    if holds {
        Ok(())
    } else {
        Err(Mismatch {
            cycle: 0,
            signal: format!("contract: {name}"),
            expected: "holds".into(),
            got: detail(),
        })
    }
}

/// One block under test with its golden model.
pub trait Bench {
    /// The RTL, for probing ports and writing waveforms.
    fn block(&self) -> &dyn Block;
    /// The RTL, to settle it.
    fn block_mut(&mut self) -> &mut dyn Block;
    /// Drives the RTL's clock input.
    fn set_clock(&mut self, high: bool);
    /// Sets this cycle's inputs (random, or from a scenario) on the RTL and remembers
    /// them for the model. `cycle` 0 should assert reset.
    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng);
    /// Compares every RTL output with the model and checks the contracts.
    fn check(&mut self) -> Result<(), Mismatch>;
    /// Clocks the model with the inputs `drive` set; contracts that span cycles
    /// (a whole breakdown, a whole schedule) are checked here.
    fn tick(&mut self) -> Result<(), Mismatch>;
}

/// The three `Bench` methods every bench writes the same way, for a bench whose RTL
/// is its field `uut`: `bench_rtl_access!(clocked)` drives the `clock` port,
/// `bench_rtl_access!(combinational)` has no clock to drive.
#[macro_export]
macro_rules! bench_rtl_access {
    (clocked) => {
        $crate::bench_rtl_access!(@block);
        fn set_clock(&mut self, high: bool) {
            self.uut.clock.next = rust_hdl::prelude::Clock::from(high);
        }
    };
    (combinational) => {
        $crate::bench_rtl_access!(@block);
        fn set_clock(&mut self, _high: bool) {}
    };
    (@block) => {
        fn block(&self) -> &dyn rust_hdl::prelude::Block {
            &self.uut
        }
        fn block_mut(&mut self) -> &mut dyn rust_hdl::prelude::Block {
            &mut self.uut
        }
    };
}

/// Settles combinational logic (rust-hdl's `simulate` for a `dyn Block`).
pub fn settle(block: &mut dyn Block) -> Result<(), Mismatch> {
    for _ in 0..1000 {
        block.update_all();
        if !block.has_changed() {
            return Ok(());
        }
    }
    Err(Mismatch {
        cycle: 0,
        signal: "<settle>".into(),
        expected: "combinational logic converges".into(),
        got: "no fixed point after 1000 passes (a combinational loop?)".into(),
    })
}

struct PortProbe {
    depth: usize,
    ports: Vec<Port>,
    values: Vec<String>,
}

impl Probe for PortProbe {
    fn visit_start_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.depth += 1;
    }
    fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.depth -= 1;
    }
    fn visit_start_namespace(&mut self, _name: &str, _node: &dyn Block) {
        self.depth += 1;
    }
    fn visit_end_namespace(&mut self, _name: &str, _node: &dyn Block) {
        self.depth -= 1;
    }
    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
        let input = match signal.kind() {
            AtomKind::InputParameter => true,
            AtomKind::OutputParameter => false,
            _ => return,
        };
        if self.depth != 1 {
            return;
        }
        self.ports.push(Port {
            name: name.to_string(),
            input,
            width: signal.bits(),
        });
        self.values.push(binary(&signal.vcd()));
    }
}

/// MSB-first binary digits of a signal value.
fn binary(v: &VCDValue) -> String {
    fn digit(v: &vcd::Value) -> char {
        match v {
            vcd::Value::V1 => '1',
            vcd::Value::V0 => '0',
            vcd::Value::X => 'x',
            vcd::Value::Z => 'z',
        }
    }
    match v {
        VCDValue::Single(s) => digit(s).to_string(),
        VCDValue::Vector(bits) => bits.iter().map(digit).collect(),
        VCDValue::String(_) | VCDValue::Composite(_) => {
            panic!("weft ports are plain bit vectors; enum and struct ports are not recorded")
        }
    }
}

/// The block's top-level ports (clock included) with their current values as
/// MSB-first binary strings.
pub fn ports_and_values(block: &dyn Block) -> (Vec<Port>, Vec<String>) {
    let mut probe = PortProbe {
        depth: 0,
        ports: vec![],
        values: vec![],
    };
    block.accept("top", &mut probe);
    (probe.ports, probe.values)
}
