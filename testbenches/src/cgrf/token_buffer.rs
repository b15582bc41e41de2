//! Token buffer bench: RTL vs model every cycle, with the SPEC §6 contracts checked
//! against a shadow of every accepted operand: no token lost or duplicated (an entry
//! is presented exactly when the shadow holds all its configured operands, and fires
//! with exactly those values), no slot overwritten (a held slot never accepts), an
//! entry's operands belong to one thread (or `tid_error` is raised), and round robin
//! (a ready entry waits at most `VCS - 1` fires).
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::cgrf::token_buffer::TokenBuffer;
use weft_sim::cgrf::token_buffer::{OperandToken, TokenBuffer as Model, TokenBufferIn};

/// One accepted operand as the shadow remembers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Held {
    pub tid: u16,
    pub data: u32,
}

pub struct TokenBufferBench<const VCS: usize, const VB: usize> {
    pub uut: TokenBuffer<VCS, VB>,
    pub model: Model,
    pub inputs: TokenBufferIn,
    /// Percent of cycles each link offers a token.
    pub valid_percent: u32,
    /// Percent of cycles the consumer is ready.
    pub ready_percent: u32,
    /// Per mille of offered tokens that carry a foreign tid (protocol violations).
    pub foreign_tid_per_mille: u32,
    /// Percent of idle cycles with a configuration write.
    pub cfg_percent: u32,
    /// Every accepted operand not yet fired, per channel and slot.
    pub shadow: Vec<[Option<Held>; 3]>,
    /// The thread each channel currently serves (a new one after each fire).
    cur_tid: Vec<u16>,
    next_tid: u16,
    /// Fires of other entries since each entry became ready.
    waited: Vec<usize>,
    /// A foreign tid was accepted since reset.
    pub foreign_accepted: bool,
    pub accepted: u64,
    pub fired: u64,
}

impl<const VCS: usize, const VB: usize> crate::presets::Tested for TokenBuffer<VCS, VB> {
    fn params() -> Vec<(&'static str, usize)> {
        vec![("VCS", VCS), ("OPERANDS", 3), ("DATA", 32)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(TokenBufferBench::<VCS, VB>::default())
    }
    /// The harness reads the registers of up to four channels (`token_buffer_4`).
    fn properties() -> Option<crate::presets::Properties> {
        (VCS <= 4).then_some(crate::presets::Properties {
            harness: include_str!("token_buffer.props.v"),
            planted: PLANTED,
        })
    }
}

/// Bugs planted in the exported Verilog (of `token_buffer_4`), each caught by the
/// property named.
const PLANTED: &[(&str, &str, &str)] = &[
    // A configuration write of 0 is not ignored (the count register wraps to four operands).
    (
        "p_inv_cnt_ok",
        "if (cfg_valid & (cfg_operands != count0)) begin",
        "if (cfg_valid) begin",
    ),
    // Channel 2 presents channel 1's first operand.
    (
        "p_present_ready_entry",
        "out_a = data_a$2$q;",
        "out_a = data_a$1$q;",
    ),
    // A fire clears channel 0 whichever channel fired.
    (
        "p_fire_clears_entry",
        "fire_bit = one << arbiter$grant;",
        "fire_bit = one;",
    ),
    // Channel 1's second operand stores the first operand's data.
    (
        "p_token_stored",
        "data_b$1$d = b_data;",
        "data_b$1$d = a_data;",
    ),
    // A first operand whose own slot is empty counts as the entry's first token even when
    // the other slots hold operands: it overwrites the entry's tid.
    (
        "p_tid_first_operand",
        "a_new = ~|(held & a_bit);",
        "a_new = ~|(full_a$q & a_bit);",
    ),
    // The third operand's link accepts beyond the configured count.
    (
        "p_link_ready",
        "c_ready = ~|(full_c$q & c_bit) & need_c;",
        "c_ready = ~|(full_c$q & c_bit);",
    ),
    // The arbiter ignores its last grant: lowest ready channel first (starvation).
    (
        "p_round_robin",
        "grant = upper$index;",
        "grant = all$index;",
    ),
    // Busy sees only first operands.
    ("p_busy", "busy = |held;", "busy = |full_a$q;"),
    // A third operand's tid is never compared.
    (
        "p_tid_error",
        "(c_take & ~c_new & (c_tid != c_ref))",
        "(c_take & ~c_new & 1'b0)",
    ),
    // Reset sets the count to two operands.
    (
        "p_reset_and_config",
        "count_minus_one$d = count0;",
        "count_minus_one$d = count1;",
    ),
];

impl<const VCS: usize, const VB: usize> Default for TokenBufferBench<VCS, VB> {
    fn default() -> Self {
        let mut uut = TokenBuffer::default();
        uut.connect_all();
        Self {
            uut,
            model: Model::new(VCS),
            inputs: TokenBufferIn::default(),
            valid_percent: 40,
            ready_percent: 70,
            foreign_tid_per_mille: 0,
            cfg_percent: 5,
            shadow: vec![[None; 3]; VCS],
            cur_tid: (0..VCS as u16).collect(),
            next_tid: VCS as u16,
            waited: vec![0; VCS],
            foreign_accepted: false,
            accepted: 0,
            fired: 0,
        }
    }
}

impl<const VCS: usize, const VB: usize> TokenBufferBench<VCS, VB> {
    /// Applies explicit inputs (directed tests use this instead of `drive`).
    pub fn apply(&mut self, i: TokenBufferIn) {
        self.uut.reset.next = i.reset;
        self.uut.cfg_valid.next = i.cfg.is_some();
        self.uut.cfg_operands.next = u64::from(i.cfg.unwrap_or(0)).into();
        let links = [
            (
                &mut self.uut.a_valid,
                &mut self.uut.a_vc,
                &mut self.uut.a_tid,
                &mut self.uut.a_data,
            ),
            (
                &mut self.uut.b_valid,
                &mut self.uut.b_vc,
                &mut self.uut.b_tid,
                &mut self.uut.b_data,
            ),
            (
                &mut self.uut.c_valid,
                &mut self.uut.c_vc,
                &mut self.uut.c_tid,
                &mut self.uut.c_data,
            ),
        ];
        for ((valid, vc, tid, data), link) in links.into_iter().zip(i.links) {
            let t = link.unwrap_or_default();
            valid.next = link.is_some();
            vc.next = (t.vc as u64).into();
            tid.next = u64::from(t.tid).into();
            data.next = u64::from(t.data).into();
        }
        self.uut.out_ready.next = i.out_ready;
        self.inputs = i;
    }

    /// The thread channel `vc` serves now (directed tests send its operands).
    pub fn thread_of(&self, vc: usize) -> u16 {
        self.cur_tid[vc]
    }

    fn complete(&self, vc: usize) -> bool {
        let n = self.model.operand_count() as usize;
        self.shadow[vc][..n].iter().all(Option::is_some)
    }

    fn random_data(rng: &mut ChaCha8Rng) -> u32 {
        match rng.gen_range(0..4) {
            0 => 0,
            1 => u32::MAX,
            _ => rng.gen(),
        }
    }
}

impl<const VCS: usize, const VB: usize> Bench for TokenBufferBench<VCS, VB> {
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        let reset = cycle == 0 || rng.gen_ratio(1, 3000);
        let idle = !self.model.outputs([0; 3]).busy;
        // A new kernel is configured on the cycle after reset, otherwise rarely and
        // only while the buffer is empty (as the fabric loads a kernel).
        let cfg = (!reset && idle && (cycle == 1 || rng.gen_ratio(self.cfg_percent, 100)))
            .then(|| rng.gen_range(0..=3));
        let mut links = [None; 3];
        if cfg.is_none() {
            for link in links.iter_mut() {
                if rng.gen_ratio(self.valid_percent, 100) {
                    let vc = rng.gen_range(0..VCS);
                    let tid = if rng.gen_ratio(self.foreign_tid_per_mille, 1000) {
                        rng.gen()
                    } else {
                        self.cur_tid[vc]
                    };
                    *link = Some(OperandToken {
                        vc,
                        tid,
                        data: Self::random_data(rng),
                    });
                }
            }
        }
        self.apply(TokenBufferIn {
            reset,
            cfg,
            links,
            out_ready: rng.gen_ratio(self.ready_percent, 100),
        });
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let vcs = [0, 1, 2].map(|k| i.links[k].map_or(0, |t| t.vc));
        let want = self.model.outputs(vcs);
        let u = &self.uut;
        let ready = [u.a_ready.val(), u.b_ready.val(), u.c_ready.val()];
        expect("a_ready, b_ready, c_ready", want.link_ready, ready)?;
        expect("out_valid", want.out.is_some(), u.out_valid.val())?;
        let w = want.out.unwrap_or_default();
        expect("out_vc", w.vc as u64, small(u.out_vc.val()))?;
        expect("out_tid", u64::from(w.tid), small(u.out_tid.val()))?;
        let got = [u.out_a.val(), u.out_b.val(), u.out_c.val()].map(|x| small(x) as u32);
        expect("out_a, out_b, out_c", w.operands, got)?;
        expect("busy", want.busy, u.busy.val())?;
        expect("tid_error", want.tid_error, u.tid_error.val())?;

        let complete: Vec<usize> = (0..VCS).filter(|&v| self.complete(v)).collect();
        contract(
            "an entry is presented exactly when one holds all its operands",
            u.out_valid.val() != complete.is_empty(),
            || format!("out_valid {}, complete {complete:?}", u.out_valid.val()),
        )?;
        for (slot, link) in i.links.iter().enumerate() {
            if let Some(t) = link {
                contract(
                    "a held slot never accepts (no overwrite)",
                    !(ready[slot] && self.shadow[t.vc][slot].is_some()),
                    || format!("link {slot} ready for channel {} holding an operand", t.vc),
                )?;
            }
        }
        for &v in &complete {
            contract(
                "round robin: a ready entry waits at most VCS - 1 fires",
                self.waited[v] < VCS,
                || format!("channel {v} waited {} fires", self.waited[v]),
            )?;
        }
        if u.out_valid.val() {
            let vc = small(u.out_vc.val()) as usize;
            let n = self.model.operand_count() as usize;
            let held = self.shadow[vc];
            contract("fires only complete entries", self.complete(vc), || {
                format!("channel {vc} holds {held:?}")
            })?;
            let mut operands = [0u32; 3];
            for (k, h) in held[..n].iter().enumerate() {
                operands[k] = h.map_or(0, |h| h.data);
            }
            contract(
                "fires exactly the accepted operands",
                operands == got,
                || format!("channel {vc}: accepted {held:?}, presented {got:?}"),
            )?;
            let tid = small(u.out_tid.val()) as u16;
            let one_thread = held[..n].iter().flatten().all(|h| h.tid == tid);
            contract(
                "an entry's operands belong to its thread (or tid_error is raised)",
                one_thread || u.tid_error.val(),
                || format!("channel {vc}: thread {tid}, operands {held:?}"),
            )?;
        }
        if !self.foreign_accepted {
            contract(
                "no tid_error without a foreign operand",
                !u.tid_error.val(),
                String::new,
            )?;
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let vcs = [0, 1, 2].map(|k| i.links[k].map_or(0, |t| t.vc));
        let now = self.model.outputs(vcs);
        let fired = self.model.clock(&i);
        if i.reset {
            self.shadow.iter_mut().for_each(|e| *e = [None; 3]);
            self.waited.iter_mut().for_each(|w| *w = 0);
            self.foreign_accepted = false;
            return Ok(());
        }
        // Links never write the entry that fires on the same edge (its slots are full).
        for (slot, link) in i.links.iter().enumerate() {
            if let Some(t) = link.filter(|_| now.link_ready[slot]) {
                self.accepted += 1;
                self.foreign_accepted |= t.tid != self.cur_tid[t.vc];
                self.shadow[t.vc][slot] = Some(Held {
                    tid: t.tid,
                    data: t.data,
                });
            }
        }
        if let Some(f) = fired {
            self.fired += 1;
            for v in 0..VCS {
                if v != f.vc && self.complete(v) {
                    self.waited[v] += 1;
                }
            }
            self.waited[f.vc] = 0;
            self.shadow[f.vc] = [None; 3];
            self.cur_tid[f.vc] = self.next_tid;
            self.next_tid = self.next_tid.wrapping_add(1);
        }
        Ok(())
    }
}
