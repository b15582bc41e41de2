//! Memory Divergence Table model (SPEC §4). `decide` is what the table answers this
//! cycle; `clock` applies the edge.

/// The combinational answer to one access.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MdtDecision {
    pub match_entry: Option<usize>,
    pub match_mask: u64,
    pub accept: bool,
    pub refuse: bool,
    pub target: Option<usize>,
}

#[derive(Clone, Debug)]
pub struct Mdt {
    pub pcs: Vec<u64>,
    pub masks: Vec<u64>,
}

impl Mdt {
    pub fn new(entries: usize) -> Self {
        Mdt {
            pcs: vec![0; entries],
            masks: vec![0; entries],
        }
    }

    pub fn decide(&self, access: bool, pc: u64, miss: u64, forbid: bool) -> MdtDecision {
        let match_entry = (0..self.masks.len()).find(|&k| self.masks[k] != 0 && self.pcs[k] == pc);
        let free = (0..self.masks.len()).find(|&k| self.masks[k] == 0);
        let want = access && miss != 0;
        let accept = want && !forbid && (match_entry.is_some() || free.is_some());
        MdtDecision {
            match_entry,
            match_mask: match_entry.map_or(0, |k| self.masks[k]),
            accept,
            refuse: want && !accept,
            target: if accept { match_entry.or(free) } else { None },
        }
    }

    pub fn waiting(&self) -> u64 {
        self.masks.iter().fold(0, |a, m| a | m)
    }

    pub fn valid(&self) -> u64 {
        (0..self.masks.len())
            .filter(|&k| self.masks[k] != 0)
            .fold(0, |a, k| a | 1 << k)
    }

    pub fn full(&self) -> bool {
        self.masks.iter().all(|&m| m != 0)
    }

    #[allow(clippy::too_many_arguments)]
    pub fn clock(
        &mut self,
        reset: bool,
        access: bool,
        pc: u64,
        miss: u64,
        forbid: bool,
        release: u64,
    ) {
        let d = self.decide(access, pc, miss, forbid);
        for k in 0..self.masks.len() {
            self.masks[k] &= !release;
            if d.target == Some(k) {
                self.masks[k] |= miss;
                self.pcs[k] = pc;
            }
            if reset {
                self.masks[k] = 0;
            }
        }
    }
}
