//! Configuration of the MT-CGRF fabric top (`vgiw-control-flow-coalescing.txt` §3.5;
//! SPEC §6; geometry and fields as `hdl/cgrf/fabric.rs`): which unit runs each node of a
//! basic block's dataflow graph (`dataflow.rs`), each unit's settings, and every switch
//! route; a greedy placer and a BFS router produce it, `trace` checks it.
//!
//! ```text
//!  units:  0..15 compute unit of tile t = 4r + c;  16 + p perimeter slot p = 4 side + j
//!          slot 0, 1 injectors | 2, 3 live value units | 4..7, 12..15 load/store units
//!               8, 9 terminators | 10, 11 divide units
//!  routes: routes[t][k] = (route_en, route_sel) of switch output k of tile t
//! ```
//!
//! Choices where the paper is silent:
//! - Replica r uses injector r and terminator r (slots r, 8 + r): at most 2 replicas.
//! - Placement is greedy in node order, replicas interleaved node by node: each node
//!   takes the free unit of its kind nearest (in switch hops, diagonals count 1) to its
//!   inputs' units and to its already placed consumers (End), lowest unit id on ties.
//!   A tile whose incoming links are fewer than the nets it needs costs more
//!   (`CROWD_COST`); when routing fails, placement is retried with deterministic noise
//!   on the costs (`PLACE_ATTEMPTS`).
//! - Routing is net by net (a net: one producer of one replica), each consumer edge a
//!   breadth-first search over free switch outputs from every tile the producer's token
//!   already reaches (a net is a tree: it enters each switch at most once and branches
//!   by multicast). Shortest path, directions tried in order 0..7. A net that fails
//!   moves to the front of the order and routing starts over (`ROUTE_ATTEMPTS`); the
//!   last failure is the error, naming the edge. Random graphs: one replica of up to
//!   16 computes routes 200 of 200, two replicas 180 of 200 (test
//!   `random_graphs_route_exactly_or_name_the_edge`).
//! - Only used units get a configuration write; unused compute units keep their reset
//!   opcode and are never sent a token.
use crate::cgrf::dataflow::{live_value_base, Dfg, NodeKind};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Tiles per side of the grid.
pub const SIDE: usize = 4;
pub const TILES: usize = SIDE * SIDE;
/// Perimeter slots.
pub const SLOTS: usize = 16;
/// Switch outputs per tile: 8 directions + compute operands a, b, c.
pub const OUTS: usize = 11;
/// Switch input carrying the tile's compute unit result.
pub const COMPUTE_INPUT: u8 = 8;
/// Replicas the fabric can run at once (thread ports).
pub const MAX_REPLICAS: usize = 2;

/// Row and column steps of directions 0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW.
const STEPS: [(isize, isize); 8] = [
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

pub fn opposite(d: u8) -> u8 {
    (d + 4) % 8
}

/// The tile in direction `d` of `tile`, if inside the grid.
pub fn neighbour(tile: usize, d: u8) -> Option<usize> {
    let (dr, dc) = STEPS[usize::from(d)];
    let r = (tile / SIDE).checked_add_signed(dr)?;
    let c = (tile % SIDE).checked_add_signed(dc)?;
    (r < SIDE && c < SIDE).then_some(r * SIDE + c)
}

/// Switch hops between two tiles (diagonal links count one).
fn hops(a: usize, b: usize) -> usize {
    (a / SIDE)
        .abs_diff(b / SIDE)
        .max((a % SIDE).abs_diff(b % SIDE))
}

/// What sits in a perimeter slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SlotKind {
    Injector,
    LiveValue,
    LoadStore,
    Terminator,
    Divide,
}

pub fn slot_kind(slot: usize) -> SlotKind {
    match slot {
        0 | 1 => SlotKind::Injector,
        2 | 3 => SlotKind::LiveValue,
        8 | 9 => SlotKind::Terminator,
        10 | 11 => SlotKind::Divide,
        4..=7 | 12..=15 => SlotKind::LoadStore,
        _ => panic!("slot {slot} >= {SLOTS}"),
    }
}

/// Operands the slot's unit listens to (on outputs o, o + 1 of its tile).
fn slot_operands(slot: usize) -> u8 {
    match slot_kind(slot) {
        SlotKind::Injector => 0,
        SlotKind::Terminator => 1,
        _ => 2,
    }
}

/// The border tile of slot `slot` and its orthogonal direction o.
pub fn slot_site(slot: usize) -> (usize, u8) {
    let j = slot % 4;
    match slot / 4 {
        0 => (j, 0),
        1 => (j * SIDE + SIDE - 1, 2),
        2 => ((SIDE - 1) * SIDE + j, 4),
        3 => (j * SIDE, 6),
        _ => panic!("slot {slot} >= {SLOTS}"),
    }
}

/// Where unit `unit`'s result enters the grid: (tile, switch input).
pub fn unit_source(unit: u8) -> (u8, u8) {
    let unit = usize::from(unit);
    assert!(unit < TILES + SLOTS, "unit id {unit} >= 32");
    if unit < TILES {
        (unit as u8, COMPUTE_INPUT)
    } else {
        let (tile, o) = slot_site(unit - TILES);
        (tile as u8, o)
    }
}

/// Where operand `operand` of unit `unit` leaves the grid: (tile, switch output).
pub fn operand_output(unit: u8, operand: u8) -> (usize, u8) {
    let unit = usize::from(unit);
    if unit < TILES {
        assert!(operand < 3, "compute operand {operand} > 2");
        (unit, 8 + operand)
    } else {
        let (tile, o) = slot_site(unit - TILES);
        assert!(operand < 2, "slot operand {operand} > 1");
        (tile, o + operand)
    }
}

/// A unit's configuration write (fields as the fabric's `cfg_*` ports).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitConfig {
    /// Compute: `Opcode` code; divide: `DivOp` code.
    pub opcode: u8,
    /// Compute: the last operand is `imm`.
    pub imm_en: bool,
    /// Compute: the immediate; memory tile: the base address.
    pub imm: u32,
    /// Memory tile: a store (else a load).
    pub store: bool,
    /// Memory tile: address = base + 4 * tid.
    pub indexed: bool,
}

/// One switch output's route: (route_en, route_sel).
pub type RouteField = (bool, u8);

/// The whole fabric's configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FabricConfig {
    /// (unit id, settings), ascending ids, one per configured unit.
    pub units: Vec<(u8, UnitConfig)>,
    /// `routes[t][k]`: output k of tile t; disabled outputs are `(false, 0)`.
    pub routes: [[RouteField; OUTS]; TILES],
}

impl Default for FabricConfig {
    fn default() -> Self {
        FabricConfig {
            units: vec![],
            routes: [[(false, 0); OUTS]; TILES],
        }
    }
}

impl FabricConfig {
    /// The 44 fields to shift into row `row`'s route chain, first shifted first: for c
    /// in 3, 2, 1, 0, for k in 10..=0, field (row, c, k).
    pub fn route_shift_stream(&self, row: usize) -> Vec<RouteField> {
        assert!(row < SIDE, "row {row} >= {SIDE}");
        (0..SIDE)
            .rev()
            .flat_map(|c| (0..OUTS).rev().map(move |k| self.routes[row * SIDE + c][k]))
            .collect()
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a FabricConfig always serializes")
    }

    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("bad fabric configuration JSON: {e}"))
    }
}

/// Which unit runs each node: `units[replica][node]` = unit id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    pub units: Vec<Vec<u8>>,
}

/// Where a traced token ends up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Port {
    /// Operand `operand` (0 a, 1 b, 2 c) of unit `unit`.
    Operand { unit: u8, operand: u8 },
    /// A link leaving the grid where no unit listens (a route error).
    Dead { tile: u8, output: u8 },
}

/// Everything a token from one source reaches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// Operand ports and dead links reached, sorted.
    pub ports: Vec<Port>,
    /// Switch (tile, input) pairs the token enters, sorted (the source first counts).
    pub entered: Vec<(u8, u8)>,
    /// Switch (tile, output) pairs the token leaves on, sorted.
    pub outputs: Vec<(u8, u8)>,
}

/// Follows the routes from a source (tile, switch input), e.g. `unit_source(unit)`.
pub fn trace_full(config: &FabricConfig, from: (u8, u8)) -> Trace {
    let mut t = Trace::default();
    let mut todo = vec![from];
    while let Some((tile, input)) = todo.pop() {
        if t.entered.contains(&(tile, input)) {
            continue; // a routing loop: count it once
        }
        t.entered.push((tile, input));
        for (k, &(en, sel)) in config.routes[usize::from(tile)].iter().enumerate() {
            if !en || sel != input {
                continue;
            }
            let k = k as u8;
            t.outputs.push((tile, k));
            if k >= 8 {
                t.ports.push(Port::Operand {
                    unit: tile,
                    operand: k - 8,
                });
            } else if let Some(n) = neighbour(usize::from(tile), k) {
                todo.push((n as u8, opposite(k)));
            } else {
                let listener = (0..SLOTS).find_map(|p| {
                    let (st, o) = slot_site(p);
                    let operand = k.wrapping_sub(o);
                    (st == usize::from(tile) && operand < slot_operands(p)).then_some(
                        Port::Operand {
                            unit: (TILES + p) as u8,
                            operand,
                        },
                    )
                });
                t.ports
                    .push(listener.unwrap_or(Port::Dead { tile, output: k }));
            }
        }
    }
    t.ports.sort();
    t.entered.sort();
    t.outputs.sort();
    t
}

/// The operand ports (and dead links) a token from `from` reaches.
pub fn trace(config: &FabricConfig, from: (u8, u8)) -> Vec<Port> {
    trace_full(config, from).ports
}

/// Unit ids a node of this kind may take (`None`: fixed by the replica).
fn candidates(kind: &NodeKind) -> Option<(Vec<u8>, &'static str)> {
    let slots = |ps: &[usize]| ps.iter().map(|p| (TILES + p) as u8).collect();
    match kind {
        NodeKind::Thread | NodeKind::End { .. } => None,
        NodeKind::Compute { .. } => Some(((0..TILES as u8).collect(), "compute unit")),
        NodeKind::Load { .. } | NodeKind::Store { .. } => {
            Some((slots(&[4, 5, 6, 7, 12, 13, 14, 15]), "load/store unit"))
        }
        NodeKind::LiveValueWrite { .. } | NodeKind::LiveValueRead { .. } => {
            Some((slots(&[2, 3]), "live value unit"))
        }
        NodeKind::Divide { .. } => Some((slots(&[10, 11]), "divide unit")),
    }
}

fn unit_config(kind: &NodeKind) -> Option<UnitConfig> {
    let memory = |store: bool, base: Option<u32>| UnitConfig {
        store,
        indexed: base.is_some(),
        imm: base.unwrap_or(0),
        ..UnitConfig::default()
    };
    match *kind {
        NodeKind::Thread | NodeKind::End { .. } => None,
        NodeKind::Compute { opcode, imm, .. } => Some(UnitConfig {
            opcode,
            imm_en: imm.is_some(),
            imm: imm.unwrap_or(0),
            ..UnitConfig::default()
        }),
        NodeKind::Load { indexed_base, .. } => Some(memory(false, indexed_base)),
        NodeKind::Store { indexed_base, .. } => Some(memory(true, indexed_base)),
        NodeKind::LiveValueWrite { id, .. } => Some(memory(true, Some(live_value_base(id)))),
        NodeKind::LiveValueRead { id, .. } => Some(memory(false, Some(live_value_base(id)))),
        NodeKind::Divide { op, .. } => Some(UnitConfig {
            opcode: op,
            ..UnitConfig::default()
        }),
    }
}

fn unit_tile(unit: u8) -> usize {
    usize::from(unit_source(unit).0)
}

/// Placements tried (the first greedy, the others with deterministic noise) before
/// giving up on routing.
const PLACE_ATTEMPTS: u64 = 32;
/// Placement cost of each foreign net a tile must take beyond its incoming links.
const CROWD_COST: usize = 4;

/// Places `replicas` copies of `dfg` and routes every edge (see the file header).
pub fn place_and_route(dfg: &Dfg, replicas: usize) -> Result<(FabricConfig, Placement), String> {
    dfg.validate()?;
    if !(1..=MAX_REPLICAS).contains(&replicas) {
        return Err(format!(
            "{replicas} replicas: the fabric has {MAX_REPLICAS} thread ports (1 or 2 replicas)"
        ));
    }
    let mut error = String::new();
    for attempt in 0..PLACE_ATTEMPTS {
        let units = place(dfg, replicas, attempt)?;
        match route_all(dfg, &units) {
            Ok(routes) => {
                let mut config = FabricConfig {
                    routes,
                    ..FabricConfig::default()
                };
                for placed in &units {
                    for (node, &unit) in dfg.nodes.iter().zip(placed) {
                        config
                            .units
                            .extend(unit_config(&node.kind).map(|c| (unit, c)));
                    }
                }
                config.units.sort_by_key(|&(id, _)| id);
                return Ok((config, Placement { units }));
            }
            Err(e) => error = e,
        }
    }
    Err(format!("{error}, on {PLACE_ATTEMPTS} placements"))
}

/// Greedy placement: `units[replica][node]`. Cost of a free unit: hops from the
/// inputs' units (and to End when it is a consumer), plus `CROWD_COST` per net its
/// tile would have to take beyond its incoming links, plus noise in 0..=2 from
/// `attempt` when `attempt > 0`.
fn place(dfg: &Dfg, replicas: usize, attempt: u64) -> Result<Vec<Vec<u8>>, String> {
    let n = dfg.nodes.len();
    let end = dfg.end();
    let mut used = [false; TILES + SLOTS];
    let mut units = vec![vec![u8::MAX; n]; replicas];
    for (r, placed) in units.iter_mut().enumerate() {
        placed[0] = (TILES + r) as u8; // node 0 is the Thread (validate)
        placed[end] = (TILES + 8 + r) as u8;
    }
    // Nets (replica, producer) that must enter each tile from a neighbour.
    let mut entering: Vec<BTreeSet<(usize, usize)>> = vec![BTreeSet::new(); TILES];
    let links_in = |t: usize| (0..8).filter(|&d| neighbour(t, d).is_some()).count();
    for i in 1..end {
        let kind = &dfg.nodes[i].kind;
        let (cands, what) = candidates(kind).expect("only Thread and End are fixed");
        for (r, placed) in units.iter_mut().enumerate() {
            let inputs: Vec<(usize, usize)> = kind
                .inputs()
                .iter()
                .map(|&j| (j, unit_tile(placed[j])))
                .collect();
            let to_end = dfg.nodes[end].kind.inputs().contains(&i);
            let cost = |u: u8| {
                let t = unit_tile(u);
                let mut nets = entering[t].clone();
                nets.extend(inputs.iter().filter(|x| x.1 != t).map(|x| (r, x.0)));
                let mut cost: usize = inputs.iter().map(|x| hops(x.1, t)).sum();
                if to_end {
                    cost += hops(t, unit_tile(placed[end]));
                }
                cost += CROWD_COST * nets.len().saturating_sub(links_in(t));
                if attempt > 0 {
                    let h = (attempt << 32 | (r as u64) << 24 | (i as u64) << 8 | u64::from(u))
                        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    cost += (h >> 59) as usize % 8;
                }
                cost
            };
            let best = *cands
                .iter()
                .filter(|&&u| !used[usize::from(u)])
                .min_by_key(|&&u| cost(u))
                .ok_or_else(|| format!("no free {what} for node {i} of replica {r} ({kind:?})"))?;
            let t = unit_tile(best);
            entering[t].extend(inputs.iter().filter(|x| x.1 != t).map(|x| (r, x.0)));
            used[usize::from(best)] = true;
            placed[i] = best;
        }
    }
    Ok(units)
}

/// One producer of one replica: (replica, producer, [(consumer, operand)]).
type Net = (usize, usize, Vec<(usize, u8)>);

/// Orderings of the nets tried before giving up.
const ROUTE_ATTEMPTS: usize = 16;

/// Routes every edge, net by net (a net: one producer of one replica, all its
/// consumers). When a net fails it moves to the front of the order and routing starts
/// over, so nets that are hard to route get the free links first.
fn route_all(dfg: &Dfg, units: &[Vec<u8>]) -> Result<[[RouteField; OUTS]; TILES], String> {
    let mut nets: Vec<Net> = vec![];
    for j in 0..dfg.nodes.len() {
        for r in 0..units.len() {
            let sinks: Vec<(usize, u8)> = (j + 1..dfg.nodes.len())
                .flat_map(|i| {
                    let inputs = dfg.nodes[i].kind.inputs();
                    (0..inputs.len())
                        .filter(move |&k| inputs[k] == j)
                        .map(move |k| (i, k as u8))
                })
                .collect();
            if !sinks.is_empty() {
                nets.push((r, j, sinks));
            }
        }
    }
    let mut order: Vec<usize> = (0..nets.len()).collect();
    let mut error = String::new();
    'attempt: for _ in 0..ROUTE_ATTEMPTS {
        let mut config = FabricConfig::default();
        for pos in 0..order.len() {
            let (r, j, sinks) = &nets[order[pos]];
            for &(i, operand) in sinks {
                let placed = &units[*r];
                if let Err(why) =
                    route_edge(&mut config, unit_source(placed[*j]), placed[i], operand)
                {
                    error = format!(
                        "cannot route node {j} -> node {i} operand {operand} of replica {r}: \
                         {why} (tried {ROUTE_ATTEMPTS} net orders)"
                    );
                    let net = order.remove(pos);
                    order.insert(0, net);
                    continue 'attempt;
                }
            }
        }
        return Ok(config.routes);
    }
    Err(error)
}

/// Routes the token entering the grid at `source` (tile, input) to `operand` of `unit`.
fn route_edge(
    config: &mut FabricConfig,
    source: (u8, u8),
    unit: u8,
    operand: u8,
) -> Result<(), String> {
    // The tiles this net's token already reaches, with the input it enters on.
    let tree: BTreeMap<usize, u8> = trace_full(config, source)
        .entered
        .iter()
        .map(|&(t, i)| (usize::from(t), i))
        .collect();
    let (goal, port) = operand_output(unit, operand);
    if config.routes[goal][usize::from(port)].0 {
        return Err(format!("tile {goal} output {port} is already used"));
    }
    // Breadth-first search from every tile of the tree over free direction outputs.
    let mut came_from: BTreeMap<usize, (usize, u8)> = BTreeMap::new();
    let mut queue: VecDeque<usize> = tree.keys().copied().collect();
    while let Some(t) = queue.pop_front() {
        if t == goal {
            break;
        }
        for d in 0..8u8 {
            let Some(nb) = neighbour(t, d) else { continue };
            let free = !config.routes[t][usize::from(d)].0;
            if free && !tree.contains_key(&nb) && !came_from.contains_key(&nb) {
                came_from.insert(nb, (t, d));
                queue.push_back(nb);
            }
        }
    }
    if !tree.contains_key(&goal) && !came_from.contains_key(&goal) {
        return Err(format!("no free path to tile {goal}"));
    }
    // Walk back from the goal, enabling each hop's output from the input it entered on.
    let entry_of = |t: usize| -> u8 {
        tree.get(&t)
            .copied()
            .unwrap_or_else(|| opposite(came_from[&t].1))
    };
    config.routes[goal][usize::from(port)] = (true, entry_of(goal));
    let mut t = goal;
    while let Some(&(prev, d)) = came_from.get(&t) {
        config.routes[prev][usize::from(d)] = (true, entry_of(prev));
        t = prev;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cgrf::compute_unit::Opcode;
    use crate::cgrf::special_compute_unit::DivOp;
    use crate::cgrf::switch::Switch;

    /// Every DFG edge reaches exactly its consumers' operand ports, each net enters a
    /// switch at most once, and no enabled route is left that no source's token takes.
    fn check_routes(dfg: &Dfg, replicas: usize) -> (FabricConfig, Placement) {
        let (config, placement) = place_and_route(dfg, replicas).unwrap();
        assert_eq!(placement.units.len(), replicas);
        let mut taken = BTreeSet::new();
        for (r, placed) in placement.units.iter().enumerate() {
            assert_eq!(
                placed[0],
                16 + r as u8,
                "replica {r} Thread on injector {r}"
            );
            assert_eq!(
                placed[dfg.end()],
                24 + r as u8,
                "replica {r} End on terminator {r}"
            );
            for (i, &unit) in placed.iter().enumerate() {
                assert!(taken.insert(unit), "unit {unit} placed twice");
                let mut expected: Vec<Port> = vec![];
                for (c, node) in dfg.nodes.iter().enumerate() {
                    for (operand, &j) in node.kind.inputs().iter().enumerate() {
                        if j == i {
                            expected.push(Port::Operand {
                                unit: placed[c],
                                operand: operand as u8,
                            });
                        }
                    }
                }
                expected.sort();
                let t = trace_full(&config, unit_source(unit));
                assert_eq!(t.ports, expected, "replica {r} node {i} on unit {unit}");
                let tiles: BTreeSet<u8> = t.entered.iter().map(|e| e.0).collect();
                assert_eq!(
                    tiles.len(),
                    t.entered.len(),
                    "node {i} enters a switch twice"
                );
            }
        }
        // Every enabled output is reached from some source; unused sources reach nothing.
        let mut reached = BTreeSet::new();
        for unit in 0..32u8 {
            let t = trace_full(&config, unit_source(unit));
            if !taken.contains(&unit) {
                assert_eq!(t.ports, vec![], "unused unit {unit} reaches something");
            }
            reached.extend(t.outputs);
        }
        for (tile, outs) in config.routes.iter().enumerate() {
            for (k, &(en, sel)) in outs.iter().enumerate() {
                assert_eq!(
                    en,
                    reached.contains(&(tile as u8, k as u8)),
                    "tile {tile} out {k}"
                );
                assert!(en || sel == 0, "disabled route with a selection");
            }
        }
        (config, placement)
    }

    fn config_of(config: &FabricConfig, unit: u8) -> UnitConfig {
        config
            .units
            .iter()
            .find(|u| u.0 == unit)
            .expect("unit configured")
            .1
    }

    #[test]
    fn geometry_matches_the_spec() {
        assert_eq!(slot_site(0), (0, 0));
        assert_eq!(slot_site(5), (7, 2)); // east side, tile (1, 3)
        assert_eq!(slot_site(11), (15, 4)); // south side, tile (3, 3)
        assert_eq!(slot_site(14), (8, 6)); // west side, tile (2, 0)
        assert_eq!(neighbour(5, 7), Some(0));
        assert_eq!(neighbour(3, 1), None);
        assert_eq!(operand_output(16 + 12, 1), (0, 7));
    }

    #[test]
    fn mul_add_routes_every_edge() {
        let dfg = Dfg::mul_add(5, 0x100, 0x200, 0x300);
        let (config, placement) = check_routes(&dfg, 1);
        let p = &placement.units[0];
        let kind = |u: u8| slot_kind(usize::from(u) - 16);
        assert!([p[1], p[2], p[5]]
            .iter()
            .all(|&u| u >= 16 && kind(u) == SlotKind::LoadStore));
        assert!(p[3] < 16 && p[4] < 16);
        let load_a = config_of(&config, p[1]);
        assert!(!load_a.store && load_a.indexed && load_a.imm == 0x100);
        let store = config_of(&config, p[5]);
        assert!(store.store && store.indexed && store.imm == 0x300);
        let add = config_of(&config, p[4]);
        assert_eq!(
            (add.opcode, add.imm_en, add.imm),
            (Opcode::Add as u8, true, 5)
        );
        assert_eq!(config_of(&config, p[3]).opcode, Opcode::Mul as u8);
        assert_eq!(config.units.len(), 5, "Thread and End are not configured");
    }

    #[test]
    fn divide_live_value_routes_every_edge() {
        let dfg = Dfg::divide_live_value(DivOp::Div, 0x100, 0x200, 0x300);
        let (config, placement) = check_routes(&dfg, 1);
        let p = &placement.units[0];
        assert_eq!(slot_kind(usize::from(p[3]) - 16), SlotKind::Divide);
        assert_eq!(config_of(&config, p[3]).opcode, DivOp::Div as u8);
        assert_eq!(slot_kind(usize::from(p[4]) - 16), SlotKind::LiveValue);
        let lv = config_of(&config, p[4]);
        assert!(lv.store && lv.indexed && lv.imm == 0x8000_0000);
    }

    #[test]
    fn two_replicas_route_and_survive_json() {
        let dfg = Dfg::mul_add(3, 0x100, 0x200, 0x300);
        let (config, placement) = check_routes(&dfg, 2);
        assert_eq!(FabricConfig::from_json(&config.to_json()).unwrap(), config);
        let text = serde_json::to_string(&placement).unwrap();
        assert_eq!(serde_json::from_str::<Placement>(&text).unwrap(), placement);
        assert!(FabricConfig::from_json("{\"units\": []}").is_err());
        // Both replicas of kernel (b) fit too (two live value units, two dividers).
        check_routes(&Dfg::divide_live_value(DivOp::Remu, 0, 0x40, 0x80), 2);
    }

    #[test]
    fn route_shift_stream_loads_the_row_chains() {
        let mut config = FabricConfig::default();
        for (t, outs) in config.routes.iter_mut().enumerate() {
            for (k, f) in outs.iter_mut().enumerate() {
                *f = ((t + k) % 3 != 0, ((t * 11 + k) % 9) as u8);
            }
        }
        for row in 0..SIDE {
            let stream = config.route_shift_stream(row);
            assert_eq!(stream.len(), 44);
            assert_eq!(stream[0], config.routes[row * 4 + 3][10]);
            assert_eq!(stream[43], config.routes[row * 4][0]);
            // Shift it through the switch models' chain: output 10 of (r, c) feeds
            // output 0 of (r, c + 1).
            let mut chain: Vec<Switch> = (0..4).map(|_| Switch::new(9, 11)).collect();
            for &(en, sel) in &stream {
                let outs: Vec<_> = chain
                    .iter()
                    .map(|s| s.outputs(&[true; 11]).cfg_out)
                    .collect();
                for (c, sw) in chain.iter_mut().enumerate() {
                    let cfg_in = if c == 0 {
                        en.then_some(usize::from(sel))
                    } else {
                        outs[c - 1]
                    };
                    sw.clock(false, &[None; 9], &[true; 11], Some(cfg_in));
                }
            }
            for (c, sw) in chain.iter().enumerate() {
                let want: Vec<_> = config.routes[row * 4 + c]
                    .iter()
                    .map(|&(en, sel)| en.then_some(usize::from(sel)))
                    .collect();
                assert_eq!(sw.routes(), want, "row {row} tile column {c}");
            }
        }
    }

    #[test]
    fn errors_are_clear() {
        let dfg = Dfg::mul_add(1, 0, 0x40, 0x80);
        let e = place_and_route(&dfg, 3).unwrap_err();
        assert!(e.contains("3 replicas"), "{e}");
        // 17 chained adds need 17 compute units.
        let mut big = Dfg::default();
        let mut last = big.push(NodeKind::Thread);
        for _ in 0..17 {
            last = big.push(NodeKind::Compute {
                opcode: Opcode::Add as u8,
                imm: Some(1),
                inputs: vec![last],
            });
        }
        big.push(NodeKind::End { input: last });
        big.validate().unwrap();
        let e = place_and_route(&big, 1).unwrap_err();
        assert!(e.contains("no free compute unit for node 17"), "{e}");
        let mut broken = dfg.clone();
        broken.nodes[6].kind = NodeKind::End { input: 9 };
        let e = place_and_route(&broken, 1).unwrap_err();
        assert!(e.contains("inputs must be earlier"), "{e}");
        // Two replicas of a graph with two live value nodes need four live value units.
        let mut lv = Dfg::default();
        let t = lv.push(NodeKind::Thread);
        let w = lv.push(NodeKind::LiveValueWrite { id: 3, input: t });
        let rd = lv.push(NodeKind::LiveValueRead { id: 3, trigger: w });
        lv.push(NodeKind::End { input: rd });
        check_routes(&lv, 1);
        let e = place_and_route(&lv, 2).unwrap_err();
        assert!(
            e.contains("no free live value unit for node 2 of replica 0"),
            "{e}"
        );
    }

    /// A random graph within the fabric's unit counts for `replicas` copies: loads,
    /// stores, divides, live values and computes on random earlier nodes, every sink
    /// joined by `Or`s into End.
    fn random_dfg(seed: u64, replicas: usize) -> Dfg {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let per = |units: usize| units / replicas;
        let (mut computes, mut memories) = (per(TILES), per(8));
        let (mut divides, mut lives) = (per(2), per(2));
        let mut g = Dfg::default();
        g.push(NodeKind::Thread);
        for _ in 0..4 + next(12) {
            let len = g.nodes.len();
            let kind = match next(4) {
                0 if memories > 0 => {
                    memories -= 1;
                    if next(2) == 0 {
                        NodeKind::Load {
                            indexed_base: Some(0x100),
                            input: next(len),
                        }
                    } else {
                        NodeKind::Store {
                            indexed_base: None,
                            inputs: vec![next(len), next(len)],
                        }
                    }
                }
                1 if divides > 0 => {
                    divides -= 1;
                    NodeKind::Divide {
                        op: 0,
                        inputs: vec![next(len), next(len)],
                    }
                }
                2 if lives > 0 => {
                    lives -= 1;
                    NodeKind::LiveValueRead {
                        id: 0,
                        trigger: next(len),
                    }
                }
                _ if computes > 1 => {
                    computes -= 1;
                    NodeKind::Compute {
                        opcode: 13,
                        imm: None,
                        inputs: vec![next(len), next(len), next(len)],
                    }
                }
                _ => break,
            };
            g.push(kind);
        }
        // Join the sinks pairwise while compute units remain, then End on the last one.
        loop {
            let mut sinks: Vec<usize> = (0..g.nodes.len()).collect();
            for node in &g.nodes {
                sinks.retain(|s| !node.kind.inputs().contains(s));
            }
            if sinks.len() == 1 {
                g.push(NodeKind::End { input: sinks[0] });
                return g;
            }
            if computes == 0 {
                // Out of compute units: drop the newest sink and retry.
                let drop = *sinks.last().unwrap();
                g.nodes.truncate(drop);
                continue;
            }
            computes -= 1;
            g.push(NodeKind::Compute {
                opcode: 4,
                imm: None,
                inputs: vec![sinks[0], sinks[1]],
            });
        }
    }

    #[test]
    fn random_graphs_route_exactly_or_name_the_edge() {
        let mut routed = [0; 2];
        for seed in 0..200 {
            for replicas in 1..=2 {
                let dfg = random_dfg(seed, replicas);
                dfg.validate()
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                match place_and_route(&dfg, replicas) {
                    Ok(_) => {
                        check_routes(&dfg, replicas);
                        routed[replicas - 1] += 1;
                    }
                    Err(e) => assert!(e.contains("cannot route node"), "seed {seed}: {e}"),
                }
            }
        }
        println!("random graphs routed: {routed:?} of 200 (one, two replicas)");
        // Measured 200 and 180: two replicas of the densest graphs (about 60 edges of
        // 3-operand selects on 84 directed links) do not all fit.
        assert!(
            routed[0] >= 195 && routed[1] >= 170,
            "routed {routed:?} of 200"
        );
    }

    #[test]
    fn trace_reports_extra_and_dead_outputs() {
        let (mut config, placement) = place_and_route(&Dfg::mul_add(1, 0, 4, 8), 1).unwrap();
        let injector = unit_source(placement.units[0][0]);
        assert_eq!(injector, (0, 0));
        let before = trace(&config, injector);
        // Tile 0 output 5 (south-west) leaves the grid where no slot listens; output 1
        // (north-east) is the injector's own operand b, which it does not take.
        config.routes[0][5] = (true, 0);
        config.routes[0][1] = (true, 0);
        let after = trace(&config, injector);
        assert_eq!(after.len(), before.len() + 2, "{after:?}");
        assert!(after.contains(&Port::Dead { tile: 0, output: 5 }));
        assert!(after.contains(&Port::Dead { tile: 0, output: 1 }));
        // Output 7 (north-west) is operand b of the west load/store slot 12.
        config.routes[0][7] = (true, 0);
        assert!(trace(&config, injector).contains(&Port::Operand {
            unit: 28,
            operand: 1
        }));
    }

    #[test]
    fn a_boxed_in_tile_cannot_be_reached() {
        // Every output pointing into tile 5 carries another unit's result: no path.
        let mut config = FabricConfig::default();
        for d in 0..8u8 {
            let nb = neighbour(5, d).unwrap();
            config.routes[nb][usize::from(opposite(d))] = (true, COMPUTE_INPUT);
        }
        let e = route_edge(&mut config, unit_source(16), 5, 0).unwrap_err();
        assert!(e.contains("no free path to tile 5"), "{e}");
    }
}
