//! Memory tile model (`hdl/cgrf/memory_tile.rs`): the token buffer model in front of
//! the load/store unit model, composed as the RTL wires them. The fired entry is the
//! memory operation: by address (a = address, b = store data) or indexed (address
//! `base + 4 x tid`, a = store data or a load's trigger). A configuration write sets
//! the buffer to two operands for a store by address, one otherwise. Cycle semantics as
//! the unit models: `outputs()` is what the tile presents this cycle, `clock()` applies
//! a rising edge.
use crate::cgrf::dataflow::indexed_address;
use crate::cgrf::load_store_unit::{LoadStoreUnit, LsuToken};
use crate::cgrf::token_buffer::{OperandToken, TokenBuffer, TokenBufferIn};

/// Reservation entries of the tile's LDSTU (`LoadStoreUnit<VB, 16, 4, 5>`).
pub const RESERVATIONS: usize = 16;

/// A configuration write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryConfig {
    pub store: bool,
    pub indexed: bool,
    pub base: u32,
}

/// Inputs of one edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryTileIn {
    pub reset: bool,
    pub cfg: Option<MemoryConfig>,
    pub a: Option<OperandToken>,
    pub b: Option<OperandToken>,
    pub mem_req_ready: bool,
    /// A memory response (tag, data).
    pub response: Option<(usize, u32)>,
    pub out_ready: bool,
}

/// A memory request the tile offers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemRequest {
    pub addr: u32,
    pub data: u32,
    pub write: bool,
    pub tag: usize,
}

/// What the tile presents in one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryTileOut {
    pub a_ready: bool,
    pub b_ready: bool,
    pub request: Option<MemRequest>,
    pub out: Option<LsuToken>,
    pub busy: bool,
    pub tid_error: bool,
}

#[derive(Clone, Debug)]
pub struct MemoryTile {
    buffer: TokenBuffer,
    lsu: LoadStoreUnit,
    config: MemoryConfig,
}

impl MemoryTile {
    pub fn new(vcs: usize) -> Self {
        Self::with_reservations(vcs, RESERVATIONS)
    }

    /// Another reservation buffer size than the RTL's (tests show the bench notices).
    pub fn with_reservations(vcs: usize, rb: usize) -> Self {
        Self {
            buffer: TokenBuffer::new(vcs),
            lsu: LoadStoreUnit::new(rb),
            config: MemoryConfig::default(),
        }
    }

    pub fn config(&self) -> MemoryConfig {
        self.config
    }

    /// The operation the buffer presents: (vc, tid, address, data).
    pub fn operation(&self, a_vc: usize, b_vc: usize) -> Option<(u32, u16, u32, u32)> {
        let c = self.config;
        self.buffer.outputs([a_vc, b_vc, 0]).out.map(|f| {
            let [a, b, _] = f.operands;
            let (addr, data) = if c.indexed {
                (indexed_address(c.base, f.tid), a)
            } else {
                (a, b)
            };
            (f.vc as u32, f.tid, addr, data)
        })
    }

    /// Outputs, given the channels on links a and b (whatever their valid bits).
    pub fn outputs(&self, a_vc: usize, b_vc: usize, mem_req_ready: bool) -> MemoryTileOut {
        let buffer = self.buffer.outputs([a_vc, b_vc, 0]);
        let op = self.operation(a_vc, b_vc);
        let lsu = self.lsu.outputs(op.is_some(), mem_req_ready);
        MemoryTileOut {
            a_ready: buffer.link_ready[0],
            b_ready: buffer.link_ready[1],
            request: op
                .filter(|_| lsu.mem_req_valid)
                .map(|(_, _, addr, data)| MemRequest {
                    addr,
                    data,
                    write: self.config.store,
                    tag: lsu.mem_req_tag,
                }),
            out: lsu.out_valid.then_some(lsu.out),
            busy: buffer.busy || lsu.outstanding > 0,
            tid_error: buffer.tid_error,
        }
    }

    /// Rising edge.
    pub fn clock(&mut self, i: &MemoryTileIn) {
        let (a_vc, b_vc) = (i.a.map_or(0, |t| t.vc), i.b.map_or(0, |t| t.vc));
        let op = self.operation(a_vc, b_vc);
        let lsu_ready = self.lsu.outputs(op.is_some(), i.mem_req_ready).in_ready;
        self.buffer.clock(&TokenBufferIn {
            reset: i.reset,
            cfg: i.cfg.map(|c| if c.store && !c.indexed { 2 } else { 1 }),
            links: [i.a, i.b, None],
            out_ready: lsu_ready,
        });
        self.lsu.clock(
            i.reset,
            self.config.store,
            op.map(|(vc, tid, _, _)| (vc, tid)),
            i.mem_req_ready,
            i.response,
            i.out_ready,
        );
        if let Some(c) = i.cfg {
            self.config = c;
        }
        if i.reset {
            self.config = MemoryConfig::default();
        }
    }
}
