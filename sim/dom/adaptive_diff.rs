//! Adaptive diff model (SPEC §4, `diverge-on-miss.txt` §5.2).

#[derive(Clone, Debug)]
pub struct AdaptiveDiff {
    pub period: u64,
    pub idle_max: u64,
    pub bw_min: u64,
    pub stall_min: u64,
    pub elapsed: u64,
    pub idle: u64,
    pub bw: u64,
    pub stall: u64,
    pub raise: bool,
    pub lower: bool,
}

impl AdaptiveDiff {
    pub fn new(period: u64, idle_max: u64, bw_min: u64, stall_min: u64) -> Self {
        AdaptiveDiff {
            period,
            idle_max,
            bw_min,
            stall_min,
            elapsed: 0,
            idle: 0,
            bw: 0,
            stall: 0,
            raise: false,
            lower: false,
        }
    }

    pub fn clock(&mut self, reset: bool, idle: bool, over_share: bool, mem_stall: bool) {
        let (i, b, s) = (
            self.idle + idle as u64,
            self.bw + over_share as u64,
            self.stall + mem_stall as u64,
        );
        self.raise = false;
        self.lower = false;
        if reset {
            *self = AdaptiveDiff::new(self.period, self.idle_max, self.bw_min, self.stall_min);
        } else if self.elapsed == self.period - 1 {
            let alu = i <= self.idle_max;
            let bw = b >= self.bw_min;
            let lat = s >= self.stall_min;
            self.raise = !alu && !bw;
            self.lower = (alu || bw) && !lat;
            self.elapsed = 0;
            self.idle = 0;
            self.bw = 0;
            self.stall = 0;
        } else {
            self.elapsed += 1;
            self.idle = i;
            self.bw = b;
            self.stall = s;
        }
    }
}
