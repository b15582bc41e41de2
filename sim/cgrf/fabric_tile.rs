//! Fabric tile model (`hdl/cgrf/fabric_tile.rs`): the switch model (9 inputs, 11
//! outputs) and the compute unit model composed as the RTL wires them: switch outputs
//! 8, 9, 10 are the unit's operand links a, b, c, the unit's result is switch input 8,
//! inputs and outputs 0..7 are the neighbour links n, ne, e, se, s, sw, w, nw. The
//! unit's link readiness depends on the channel of the token a routed output shows (the
//! head of its input), and the switch's outputs on those readies, so `outputs()` takes
//! the neighbours' readies and resolves the unit's first. Cycle semantics as the unit
//! models: `outputs()` is what the tile presents, `clock()` applies a rising edge.
use crate::cgrf::compute_unit::{ComputeUnit, ComputeUnitIn, Config};
use crate::cgrf::switch::{Route, Switch, Token};
use crate::cgrf::token_buffer::OperandToken;

/// Neighbour links (switch ports 0..7).
pub const NEIGHBOURS: usize = 8;
/// Switch inputs (neighbours + the unit's result) and outputs (neighbours + a, b, c).
pub const INPUTS: usize = 9;
pub const OUTPUTS: usize = 11;

/// Inputs of one edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FabricTileIn {
    pub reset: bool,
    /// A route shifted into the switch's chain (`cfg_shift` with `cfg_in_*`).
    pub cfg_shift: Option<Route>,
    /// A compute unit configuration write.
    pub cfg: Option<Config>,
    /// Tokens offered by the neighbours.
    pub inputs: [Option<Token>; NEIGHBOURS],
    /// The neighbours' readies for the tile's outputs.
    pub out_ready: [bool; NEIGHBOURS],
}

/// What the tile presents in one cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FabricTileOut {
    pub in_ready: [bool; NEIGHBOURS],
    pub out: [Option<Token>; NEIGHBOURS],
    pub cfg_out: Route,
    pub busy: bool,
    pub tid_error: bool,
}

#[derive(Clone, Debug)]
pub struct FabricTile {
    switch: Switch,
    unit: ComputeUnit,
    /// The unit's result enters switch input 8 (false only in the wiring mutation).
    result_link: bool,
}

impl FabricTile {
    pub fn new(vcs: usize) -> Self {
        Self {
            switch: Switch::new(INPUTS, OUTPUTS),
            unit: ComputeUnit::new(vcs),
            result_link: true,
        }
    }

    /// A wiring mutation: the unit's result never reaches the switch (tests show the
    /// bench notices).
    pub fn without_result_link(vcs: usize) -> Self {
        Self {
            result_link: false,
            ..Self::new(vcs)
        }
    }

    pub fn unit(&self) -> &ComputeUnit {
        &self.unit
    }

    /// Every switch output's ready: the neighbours' and the unit's operand links'.
    fn readies(&self, out_ready: &[bool; NEIGHBOURS]) -> [bool; OUTPUTS] {
        let routes = self.switch.routes();
        let vc = |slot: usize| {
            routes[NEIGHBOURS + slot]
                .and_then(|i| self.switch.head(i))
                .map_or(0, |t| t.vc as usize)
        };
        let unit = self.unit.outputs([vc(0), vc(1), vc(2)]);
        let mut ready = [false; OUTPUTS];
        ready[..NEIGHBOURS].copy_from_slice(out_ready);
        ready[NEIGHBOURS..].copy_from_slice(&unit.link_ready);
        ready
    }

    pub fn outputs(&self, out_ready: &[bool; NEIGHBOURS]) -> FabricTileOut {
        let sw = self.switch.outputs(&self.readies(out_ready));
        let unit = self.unit.outputs([0; 3]);
        let mut in_ready = [false; NEIGHBOURS];
        in_ready.copy_from_slice(&sw.in_ready[..NEIGHBOURS]);
        let mut out = [None; NEIGHBOURS];
        out.copy_from_slice(&sw.out[..NEIGHBOURS]);
        FabricTileOut {
            in_ready,
            out,
            cfg_out: sw.cfg_out,
            busy: unit.busy,
            tid_error: unit.tid_error,
        }
    }

    /// Rising edge.
    pub fn clock(&mut self, i: &FabricTileIn) {
        let ready = self.readies(&i.out_ready);
        let sw = self.switch.outputs(&ready);
        let link = |k: usize| {
            sw.out[NEIGHBOURS + k].map(|t| OperandToken {
                vc: t.vc as usize,
                tid: t.tid,
                data: t.data,
            })
        };
        let result = self.unit.outputs([0; 3]).out.map(|r| Token {
            vc: r.vc as u32,
            tid: r.tid,
            data: r.data,
        });
        let mut inputs = [None; INPUTS];
        inputs[..NEIGHBOURS].copy_from_slice(&i.inputs);
        inputs[NEIGHBOURS] = result.filter(|_| self.result_link);
        self.unit.clock(&ComputeUnitIn {
            reset: i.reset,
            cfg: i.cfg,
            links: [link(0), link(1), link(2)],
            out_ready: sw.in_ready[NEIGHBOURS],
        });
        self.switch.clock(i.reset, &inputs, &ready, i.cfg_shift);
    }
}
