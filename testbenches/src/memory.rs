//! The memory behind the benches' tagged request ports (load/store unit, fabric, VGIW
//! core): a word store shared by every port, and per port the requests it still owes,
//! answered after a random latency in any order. An access is performed when its
//! request is taken, so the answer of a load is the word at that edge.
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::{Bit, Bits, In, Signal};
use std::collections::HashMap;

/// Byte address -> word; a word never written reads `default(address)`.
#[derive(Clone, Debug)]
pub struct Words {
    map: HashMap<u32, u32>,
    default: fn(u32) -> u32,
}

impl Default for Words {
    /// Unwritten words read a pattern of their address, so a load of the wrong address
    /// shows.
    fn default() -> Self {
        Words::new(HashMap::new(), |addr| {
            addr.wrapping_mul(0x9e37_79b1) ^ 0x5a5a_0000
        })
    }
}

impl Words {
    pub fn new(map: HashMap<u32, u32>, default: fn(u32) -> u32) -> Self {
        Words { map, default }
    }

    /// Words given, every other word reads 0.
    pub fn zero_default(map: HashMap<u32, u32>) -> Self {
        Words::new(map, |_| 0)
    }

    pub fn read(&self, addr: u32) -> u32 {
        self.map
            .get(&addr)
            .copied()
            .unwrap_or_else(|| (self.default)(addr))
    }

    pub fn write(&mut self, addr: u32, data: u32) {
        self.map.insert(addr, data);
    }

    /// Performs a taken request: a write stores `data` and answers 0, a read answers the
    /// word.
    pub fn access(&mut self, addr: u32, data: u32, write: bool) -> u32 {
        if write {
            self.write(addr, data);
            0
        } else {
            self.read(addr)
        }
    }
}

/// One port's owed answers: tag -> (answer, first cycle it may be given).
#[derive(Clone, Debug, Default)]
pub struct Outstanding {
    pending: HashMap<u64, (u32, u64)>,
}

impl Outstanding {
    /// Records a request taken on `cycle`, answered no sooner than `latency` cycles later.
    pub fn take(&mut self, tag: u64, answer: u32, cycle: u64, latency: u64) {
        self.pending.insert(tag, (answer, cycle + latency));
    }

    pub fn owes(&self, tag: u64) -> bool {
        self.pending.contains_key(&tag)
    }

    pub fn len(&self) -> usize {
        self.pending.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// With probability `percent`, one of the answers due by `cycle`, chosen at random
    /// (so answers come in any order): (tag, answer). It stays owed until `answered`.
    pub fn pick_due(&self, cycle: u64, percent: u32, rng: &mut ChaCha8Rng) -> Option<(u64, u32)> {
        let mut due: Vec<u64> = self
            .pending
            .iter()
            .filter(|(_, &(_, at))| at <= cycle)
            .map(|(&tag, _)| tag)
            .collect();
        if due.is_empty() || !rng.gen_ratio(percent, 100) {
            return None;
        }
        due.sort_unstable();
        let tag = due[rng.gen_range(0..due.len())];
        Some((tag, self.pending[&tag].0))
    }

    pub fn answered(&mut self, tag: u64) {
        self.pending.remove(&tag);
    }

    pub fn clear(&mut self) {
        self.pending.clear();
    }

    /// This cycle's readiness, latency and (random, due) answer.
    pub fn decide(&self, cycle: u64, timing: &Timing, rng: &mut ChaCha8Rng) -> PortCycle {
        PortCycle {
            ready: rng.gen_ratio(timing.ready_percent, 100),
            latency: rng.gen_range(timing.latency.0..=timing.latency.1),
            answer: self.pick_due(cycle, timing.answer_percent, rng),
        }
    }

    /// The edge of `cycle`: the answer given is no longer owed; a request the port took
    /// is performed on `memory` and its answer owed (a write's too, unless
    /// `answer_writes` is false).
    pub fn settle(
        &mut self,
        port: &PortCycle,
        request: Option<Request>,
        memory: &mut Words,
        cycle: u64,
        answer_writes: bool,
    ) {
        if let Some((tag, _)) = port.answer {
            self.answered(tag);
        }
        if let (Some((addr, data, write, tag)), true) = (request, port.ready) {
            let answer = memory.access(addr, data, write);
            if answer_writes || !write {
                self.take(tag, answer, cycle, port.latency);
            }
        }
    }

    /// [`Outstanding::settle`] over a bank of ports on one memory, writes answered too.
    pub fn settle_ports(
        owed: &mut [Outstanding],
        ports: &[PortCycle],
        requests: &[Option<Request>],
        memory: &mut Words,
        cycle: u64,
    ) {
        assert!(
            owed.len() == ports.len() && ports.len() == requests.len(),
            "one owed set, one cycle and one request per port"
        );
        for ((owed, port), &request) in owed.iter_mut().zip(ports).zip(requests) {
            owed.settle(port, request, memory, cycle, true);
        }
    }
}

/// Timing of a random memory port: percent of cycles it takes a request, percent of
/// cycles it gives a due answer, and the latency range (request edge to earliest answer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    pub ready_percent: u32,
    pub answer_percent: u32,
    pub latency: (u64, u64),
}

impl Default for Timing {
    /// The fabric's and the core's benches: mostly ready, answers after 1..12 cycles.
    fn default() -> Self {
        Timing {
            ready_percent: 85,
            answer_percent: 70,
            latency: (1, 12),
        }
    }
}

impl Timing {
    /// Always ready, every answer after one cycle.
    pub fn no_stalls() -> Self {
        Timing {
            ready_percent: 100,
            answer_percent: 100,
            latency: (1, 1),
        }
    }
}

/// What a memory port does in one cycle (decided in a bench's `drive`, applied at the
/// edge): whether it takes a request, the latency of one it takes, the answer it gives.
#[derive(Clone, Copy, Debug, Default)]
pub struct PortCycle {
    pub ready: bool,
    pub latency: u64,
    pub answer: Option<(u64, u32)>,
}

/// A request offered on a port: (address, data, write, tag).
pub type Request = (u32, u32, bool, u64);

impl PortCycle {
    /// Drives the port's inputs of the design: request ready, answer valid, tag, data.
    pub fn drive<const TAG: usize>(
        &self,
        req_ready: &mut Signal<In, Bit>,
        resp_valid: &mut Signal<In, Bit>,
        resp_tag: &mut Signal<In, Bits<TAG>>,
        resp_data: &mut Signal<In, Bits<32>>,
    ) {
        let (tag, data) = self.answer.unwrap_or((0, 0));
        req_ready.next = self.ready;
        resp_valid.next = self.answer.is_some();
        resp_tag.next = tag.into();
        resp_data.next = u64::from(data).into();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn answers_only_due_requests_in_any_order() {
        let mut words = Words::zero_default(HashMap::from([(8, 5)]));
        assert_eq!(words.access(8, 0, false), 5);
        assert_eq!(words.access(8, 9, true), 0);
        assert_eq!(words.read(8), 9);
        assert_eq!(words.read(12), 0);
        let mut owed = Outstanding::default();
        owed.take(1, 10, 0, 3);
        owed.take(2, 20, 0, 1);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(owed.pick_due(0, 100, &mut rng), None);
        assert_eq!(owed.pick_due(1, 100, &mut rng), Some((2, 20)));
        assert_eq!(owed.pick_due(1, 0, &mut rng), None);
        let mut firsts = std::collections::HashSet::new();
        for _ in 0..64 {
            firsts.insert(owed.pick_due(3, 100, &mut rng).unwrap().0);
        }
        assert_eq!(firsts.len(), 2, "both due tags are picked at some point");
        owed.answered(2);
        assert!(owed.owes(1) && !owed.owes(2) && owed.len() == 1);
    }
}
