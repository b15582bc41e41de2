//! Fabric loader model (`hdl/vgiw/fabric_loader.rs`) and its command format: a block's
//! `FabricConfig` becomes unit writes, 44 route shifts and END. Cycle semantics as the
//! other models: `outputs()` is what the loader presents this cycle, `clock()` applies a
//! rising edge.
use crate::cgrf::fabric::{FabricConfig, UnitConfig};
use std::collections::HashMap;

/// Route shifts per block: every row chain is 4 switches x 11 outputs long.
pub const ROUTE_SHIFTS: usize = 44;

pub fn encode_unit(id: u8, c: &UnitConfig) -> u64 {
    u64::from(id & 31)
        | u64::from(c.opcode & 15) << 5
        | u64::from(c.imm_en) << 9
        | u64::from(c.imm) << 10
        | u64::from(c.store) << 42
        | u64::from(c.indexed) << 43
}

/// One shift of the four row chains: (en, sel) per row.
pub fn encode_route(rows: [(bool, u8); 4]) -> u64 {
    let fields = rows
        .iter()
        .enumerate()
        .map(|(r, &(en, sel))| (u64::from(en) | u64::from(sel & 15) << 1) << (5 * r))
        .fold(0, |a, b| a | b);
    1 << 62 | fields
}

pub fn encode_end(replicas: usize) -> u64 {
    2 << 62 | u64::from(replicas == 2)
}

/// A block's program: its unit writes, the route shifts, END.
pub fn program(config: &FabricConfig, replicas: usize) -> Vec<u64> {
    assert!(
        (1..=2).contains(&replicas),
        "1 or 2 replicas, got {replicas}"
    );
    let streams: Vec<Vec<(bool, u8)>> = (0..4).map(|r| config.route_shift_stream(r)).collect();
    assert!(streams.iter().all(|s| s.len() == ROUTE_SHIFTS));
    let mut p: Vec<u64> = config
        .units
        .iter()
        .map(|(id, c)| encode_unit(*id, c))
        .collect();
    p.extend((0..ROUTE_SHIFTS).map(|k| encode_route([0, 1, 2, 3].map(|r| streams[r][k]))));
    p.push(encode_end(replicas));
    p
}

/// What the loader drives into the fabric in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strobe {
    #[default]
    None,
    Unit(u8, UnitConfig),
    Route([(bool, u8); 4]),
}

/// What the loader presents in one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoaderOut {
    pub busy: bool,
    pub replicas2: bool,
    pub prog_error: bool,
    pub strobe: Strobe,
}

/// Inputs of one edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoaderIn {
    pub reset: bool,
    /// Host write (address, command).
    pub write: Option<(usize, u64)>,
    /// Start at this address.
    pub start: Option<usize>,
}

#[derive(Clone, Debug)]
pub struct FabricLoader {
    words: usize,
    ram: HashMap<usize, u64>,
    /// The command the RAM presents (read on the last edge).
    read: u64,
    running: bool,
    pc: usize,
    replicas2: bool,
    error: bool,
}

/// Bits 61:44 are reserved: a command with one set is invalid.
const RESERVED: u64 = ((1 << 18) - 1) << 44;

/// The command's kind, 3 (invalid) when a reserved bit is set.
fn kind(cmd: u64) -> u64 {
    if cmd & RESERVED != 0 {
        3
    } else {
        cmd >> 62
    }
}

fn decode(cmd: u64) -> Strobe {
    match kind(cmd) {
        0 => Strobe::Unit(
            (cmd & 31) as u8,
            UnitConfig {
                opcode: (cmd >> 5 & 15) as u8,
                imm_en: cmd >> 9 & 1 == 1,
                imm: (cmd >> 10) as u32,
                store: cmd >> 42 & 1 == 1,
                indexed: cmd >> 43 & 1 == 1,
            },
        ),
        1 => Strobe::Route(
            [0, 1, 2, 3].map(|r| (cmd >> (5 * r) & 1 == 1, (cmd >> (5 * r + 1) & 15) as u8)),
        ),
        _ => Strobe::None,
    }
}

impl FabricLoader {
    /// A loader of `2^caw` commands.
    pub fn new(caw: u32) -> Self {
        Self {
            words: 1 << caw,
            ram: HashMap::new(),
            read: 0,
            running: false,
            pc: 0,
            replicas2: false,
            error: false,
        }
    }

    pub fn outputs(&self) -> LoaderOut {
        LoaderOut {
            busy: self.running,
            replicas2: self.replicas2,
            prog_error: self.error,
            strobe: if self.running {
                decode(self.read)
            } else {
                Strobe::None
            },
        }
    }

    pub fn clock(&mut self, i: &LoaderIn) {
        let read_address = if self.running {
            (self.pc + 1) % self.words
        } else if let Some(a) = i.start {
            a
        } else {
            self.pc
        };
        // The RAM reads before it writes on the same edge.
        let read = self.ram.get(&read_address).copied().unwrap_or(0);
        if let Some((a, cmd)) = i.write {
            self.ram.insert(a % self.words, cmd);
        }
        if self.running {
            let kind = kind(self.read);
            self.pc = (self.pc + 1) % self.words;
            match kind {
                0 | 1 => {}
                2 => {
                    self.running = false;
                    self.replicas2 = self.read & 1 == 1;
                }
                _ => {
                    self.running = false;
                    self.error = true;
                }
            }
            if self.pc == 0 && kind != 2 {
                // The command just played was the RAM's last.
                self.running = false;
                self.error = true;
            }
        } else if let Some(a) = i.start {
            self.pc = a;
            self.running = true;
        }
        self.read = read;
        if i.reset {
            self.running = false;
            self.replicas2 = false;
            self.error = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        let c = UnitConfig {
            opcode: 13,
            imm_en: true,
            imm: 0xdead_beef,
            store: false,
            indexed: true,
        };
        assert_eq!(decode(encode_unit(27, &c)), Strobe::Unit(27, c));
        let rows = [(true, 3), (false, 0), (true, 15), (true, 8)];
        assert_eq!(decode(encode_route(rows)), Strobe::Route(rows));
        assert_eq!(encode_end(2) >> 62, 2);
        assert_eq!(encode_end(2) & 1, 1);
        assert_eq!(encode_end(1) & 1, 0);
    }
}
