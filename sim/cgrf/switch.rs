//! Fabric switch model (SPEC §6; VGIW §3.5). Cycle semantics: `outputs()` is what the
//! switch presents this cycle for the given output readies; `clock()` applies a rising
//! edge with this cycle's inputs.
//!
//! Each input has a two-entry FIFO (ready = not full); each output is routed from one
//! input or disabled; an input's head leaves when every output routed from it is ready,
//! reaching all of them in the same cycle (multicast).
use std::collections::VecDeque;

/// One token on a fabric link.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Token {
    pub vc: u32,
    pub tid: u16,
    pub data: u32,
}

/// One output's route: `Some(input)` or disabled.
pub type Route = Option<usize>;

/// What the switch presents in one cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwitchOut {
    pub in_ready: Vec<bool>,
    /// `Some(token)` where `out_valid` is high.
    pub out: Vec<Option<Token>>,
    /// The last route of the configuration chain (what the next switch in the row
    /// receives when shifting).
    pub cfg_out: Route,
    /// Inputs whose head leaves on this edge.
    pub popped: Vec<bool>,
}

#[derive(Clone, Debug)]
pub struct Switch {
    fifos: Vec<VecDeque<Token>>,
    routes: Vec<Route>,
}

/// Entries per input FIFO: two, so that `in_ready` can be registered and a link still
/// carries one token per cycle.
pub const DEPTH: usize = 2;

impl Switch {
    pub fn new(inputs: usize, outputs: usize) -> Self {
        Switch {
            fifos: vec![VecDeque::new(); inputs],
            routes: vec![None; outputs],
        }
    }

    pub fn routes(&self) -> &[Route] {
        &self.routes
    }

    /// The token at the head of input `i`'s FIFO (what a routed output shows, whether
    /// or not it leaves this cycle).
    pub fn head(&self, i: usize) -> Option<Token> {
        self.fifos[i].front().copied()
    }

    pub fn outputs(&self, out_ready: &[bool]) -> SwitchOut {
        let n_in = self.fifos.len();
        let mut routed = vec![false; n_in];
        let mut all_ready = vec![true; n_in];
        for (k, route) in self.routes.iter().enumerate() {
            if let Some(i) = *route {
                routed[i] = true;
                all_ready[i] &= out_ready[k];
            }
        }
        let popped: Vec<bool> = (0..n_in)
            .map(|i| !self.fifos[i].is_empty() && routed[i] && all_ready[i])
            .collect();
        let out = self
            .routes
            .iter()
            .map(|route| route.filter(|&i| popped[i]).map(|i| self.fifos[i][0]))
            .collect();
        SwitchOut {
            in_ready: self.fifos.iter().map(|f| f.len() < DEPTH).collect(),
            out,
            cfg_out: *self.routes.last().expect("a switch has outputs"),
            popped,
        }
    }

    /// One rising edge. `inputs[i]` is `Some(token)` where `in_valid` is high;
    /// `cfg_shift` shifts `cfg_in` into output 0's route (output k takes k-1's).
    pub fn clock(
        &mut self,
        reset: bool,
        inputs: &[Option<Token>],
        out_ready: &[bool],
        cfg_shift: Option<Route>,
    ) {
        if reset {
            self.fifos.iter_mut().for_each(VecDeque::clear);
            self.routes.iter_mut().for_each(|r| *r = None);
            return;
        }
        let now = self.outputs(out_ready);
        for (i, fifo) in self.fifos.iter_mut().enumerate() {
            if now.popped[i] {
                fifo.pop_front();
            }
            if let Some(t) = inputs[i] {
                if now.in_ready[i] {
                    fifo.push_back(t);
                }
            }
        }
        if let Some(route) = cfg_shift {
            self.routes.rotate_right(1);
            self.routes[0] = route;
        }
    }
}
