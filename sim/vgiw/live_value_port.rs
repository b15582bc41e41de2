//! Live value port model (`hdl/vgiw/live_value_port.rs`). Cycle semantics as the other
//! models: `outputs()` is what the port presents this cycle, `clock()` applies a rising
//! edge.
use crate::cgrf::dataflow::LV_BASE;

/// A live value unit's memory request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LvRequest {
    pub addr: u32,
    pub data: u32,
    pub write: bool,
    pub tag: u8,
}

/// The request passed to the LVC: word address `{lv, tid}` and id `{port, tag}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LvcRequest {
    pub write: bool,
    pub addr: u32,
    pub data: u32,
    pub id: u8,
}

/// What the port presents in one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiveValuePortOut {
    pub req_ready: [bool; 2],
    pub lvc_req: Option<LvcRequest>,
    /// Answers per port: (tag, data).
    pub resp: [Option<(u8, u32)>; 2],
    pub addr_error: bool,
}

/// Inputs of one edge (and of `outputs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiveValuePortIn {
    pub reset: bool,
    pub req: [Option<LvRequest>; 2],
    pub lvc_req_ready: bool,
    /// The LVC's read answer: (id, data).
    pub lvc_resp: Option<(u8, u32)>,
}

#[derive(Clone, Debug)]
pub struct LiveValuePort {
    lvw: u32,
    tidw: u32,
    last1: bool,
    pending: [u16; 2],
    error: bool,
    /// Mutation: with both units requesting, the opposite choice (kept over resets).
    flipped: bool,
}

/// The LVC word address of a byte address, and whether it lies in the array of `2^lvw`
/// live values of `2^tidw` threads.
pub fn word_address(addr: u32, lvw: u32, tidw: u32) -> (u32, bool) {
    let tid = (addr >> 2) & 0xffff;
    let lv = (addr >> 18) & 0x1fff;
    let inside = addr >= LV_BASE && addr & 3 == 0 && lv >> lvw == 0 && tid >> tidw == 0;
    let mask = |w: u32| (1u32 << w) - 1;
    (((lv & mask(lvw)) << tidw) | (tid & mask(tidw)), inside)
}

impl LiveValuePort {
    pub fn new(lvw: u32, tidw: u32) -> Self {
        assert!((1..=13).contains(&lvw) && (1..=16).contains(&tidw));
        Self {
            lvw,
            tidw,
            last1: false,
            pending: [0; 2],
            error: false,
            flipped: false,
        }
    }

    /// A wrong round robin (tests show the bench notices).
    pub fn with_flipped_round_robin(lvw: u32, tidw: u32) -> Self {
        Self {
            flipped: true,
            ..Self::new(lvw, tidw)
        }
    }

    fn pick1(&self, i: &LiveValuePortIn) -> Option<bool> {
        match (i.req[0].is_some(), i.req[1].is_some()) {
            (false, false) => None,
            (true, false) => Some(false),
            (false, true) => Some(true),
            (true, true) => Some(!self.last1 ^ self.flipped),
        }
    }

    pub fn outputs(&self, i: &LiveValuePortIn) -> LiveValuePortOut {
        let pick = self.pick1(i);
        let lvc_req = pick.map(|p1| {
            let r = i.req[usize::from(p1)].unwrap_or_default();
            LvcRequest {
                write: r.write,
                addr: word_address(r.addr, self.lvw, self.tidw).0,
                data: r.data,
                id: r.tag | if p1 { 16 } else { 0 },
            }
        });
        let mut resp = [None; 2];
        for (p, answer) in resp.iter_mut().enumerate() {
            *answer = match i.lvc_resp {
                Some((id, data)) if usize::from(id >> 4) == p => Some((id & 15, data)),
                _ => (self.pending[p] != 0).then(|| (self.pending[p].trailing_zeros() as u8, 0)),
            };
        }
        LiveValuePortOut {
            // Port 0 sees the LVC's ready unless port 1 is granted (ready without valid).
            req_ready: [
                i.lvc_req_ready && pick != Some(true),
                i.lvc_req_ready && pick == Some(true),
            ],
            lvc_req,
            resp,
            addr_error: self.error,
        }
    }

    pub fn clock(&mut self, i: &LiveValuePortIn) {
        if i.reset {
            *self = Self {
                flipped: self.flipped,
                ..Self::new(self.lvw, self.tidw)
            };
            return;
        }
        for p in 0..2 {
            let read_here = i.lvc_resp.is_some_and(|(id, _)| usize::from(id >> 4) == p);
            if !read_here && self.pending[p] != 0 {
                self.pending[p] &= self.pending[p] - 1;
            }
        }
        if let (Some(p1), true) = (self.pick1(i), i.lvc_req_ready) {
            let r = i.req[usize::from(p1)].unwrap_or_default();
            self.last1 = p1;
            self.error |= !word_address(r.addr, self.lvw, self.tidw).1;
            if r.write {
                let p = usize::from(p1);
                assert!(
                    self.pending[p] & 1 << r.tag == 0,
                    "port {p}: tag {} written again before its acknowledgement",
                    r.tag
                );
                self.pending[p] |= 1 << r.tag;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cgrf::dataflow::live_value_base;

    #[test]
    fn maps_the_dataflow_address_of_a_live_value() {
        let addr = live_value_base(5) + 4 * 200;
        assert_eq!(word_address(addr, 7, 8), (5 << 8 | 200, true));
        assert!(!word_address(addr + 2, 7, 8).1, "misaligned");
        assert!(
            !word_address(live_value_base(5) + 4 * 256, 7, 8).1,
            "tid >= 2^8"
        );
        assert!(!word_address(live_value_base(128), 7, 8).1, "lv >= 2^7");
        assert!(!word_address(0x100, 7, 8).1, "below LV_BASE");
    }
}
