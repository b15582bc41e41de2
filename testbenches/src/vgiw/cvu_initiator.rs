//! CVU initiator bench: RTL vs model, with the SPEC §5 contracts: every thread of
//! every accepted batch is injected exactly once, in ascending order within a batch
//! and in batch order across batches; the threadIdx coordinates recompose the id.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::VecDeque;
use weft_hdl::vgiw::cvu_initiator::CvuInitiator;
use weft_sim::vgiw::cvu_initiator::{Batch, CvuInitiator as Model};

/// Inputs of one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct InitiatorInputs {
    pub reset: bool,
    pub in_valid: bool,
    pub batch: Batch,
    pub out_ready: bool,
    pub log_dim_x: u32,
    pub log_dim_y: u32,
}

pub struct CvuInitiatorBench {
    pub uut: CvuInitiator,
    pub model: Model,
    pub inputs: InitiatorInputs,
    /// Percent of cycles with a batch offered.
    pub valid_percent: u32,
    /// Percent of cycles the fabric is ready.
    pub ready_percent: u32,
    /// Thread ids accepted and not yet injected, in the order they must come out.
    expected: VecDeque<u16>,
    /// Threads injected (for throughput measurements).
    pub injected: u64,
    shape: (u32, u32),
}

impl crate::presets::Tested for CvuInitiator {
    fn params() -> Vec<(&'static str, usize)> {
        vec![("BATCH", 64), ("ID_BITS", 16)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(CvuInitiatorBench::default())
    }
    fn properties() -> Option<crate::presets::Properties> {
        Some(crate::presets::Properties {
            harness: include_str!("cvu_initiator.props.v"),
            planted: PLANTED,
        })
    }
}

/// Bugs planted in the exported Verilog (of `cvu_initiator`), each caught by the
/// property named.
const PLANTED: &[(&str, &str, &str)] = &[
    // Pending thread 5 is issued as thread 6.
    (
        "p_out_is_lowest_pending",
        "index = ids$5;",
        "index = ids$6;",
    ),
    // The y coordinate is shifted by the width of y instead of x.
    (
        "p_tid_recomposes_id",
        "tid_y = (out_id >> log_dim_x) & ~(ones16 << log_dim_y);",
        "tid_y = (out_id >> log_dim_y) & ~(ones16 << log_dim_y);",
    ),
    // A fire retires the wrong threads.
    (
        "p_fire_retires_lowest",
        "remaining = cur_bits$q & (cur_bits$q - one64);",
        "remaining = cur_bits$q & (cur_bits$q << 1);",
    ),
    // At a batch's end the next batch takes the input's base, not the second buffer's.
    (
        "p_next_batch_follows",
        "cur_base$d = nxt_base$q;",
        "cur_base$d = in_base;",
    ),
    // The second buffer stores thread 0 of every batch it takes.
    (
        "p_second_buffer_holds_next",
        "nxt_bits$d = in_bitmap;",
        "nxt_bits$d = in_bitmap | one64;",
    ),
    // Ready for a batch while the second buffer is full.
    (
        "p_ready_and_busy",
        "in_ready = ~nxt_valid$q;",
        "in_ready = ~nxt_valid$q | out_ready;",
    ),
    // An empty batch is taken.
    (
        "p_second_behind_first",
        "accept = in_valid & ~nxt_valid$q & |in_bitmap;",
        "accept = in_valid & ~nxt_valid$q;",
    ),
    // Reset keeps the current batch.
    (
        "p_reset_drops_both",
        "cur_bits$d = zero64;",
        "cur_bits$d = cur_bits$q;",
    ),
];

impl Default for CvuInitiatorBench {
    fn default() -> Self {
        let mut uut = CvuInitiator::default();
        uut.connect_all();
        CvuInitiatorBench {
            uut,
            model: Model::new(),
            inputs: InitiatorInputs::default(),
            valid_percent: 50,
            ready_percent: 80,
            expected: VecDeque::new(),
            injected: 0,
            shape: (5, 2),
        }
    }
}

impl CvuInitiatorBench {
    /// Applies explicit inputs (directed tests use this instead of `drive`).
    pub fn apply(&mut self, i: InitiatorInputs) {
        self.uut.reset.next = i.reset;
        self.uut.in_valid.next = i.in_valid;
        self.uut.in_base.next = u64::from(i.batch.base).into();
        self.uut.in_bitmap.next = i.batch.bitmap.into();
        self.uut.out_ready.next = i.out_ready;
        self.uut.log_dim_x.next = u64::from(i.log_dim_x).into();
        self.uut.log_dim_y.next = u64::from(i.log_dim_y).into();
        self.inputs = i;
    }

    fn random_bitmap(rng: &mut ChaCha8Rng) -> u64 {
        match rng.gen_range(0..6) {
            0 => rng.gen(),
            1 => rng.gen::<u64>() & rng.gen::<u64>() & rng.gen::<u64>(),
            2 => 1u64 << rng.gen_range(0..64),
            3 => u64::MAX,
            4 => 0,
            _ => rng.gen::<u64>() | rng.gen::<u64>(),
        }
    }
}

impl Bench for CvuInitiatorBench {
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        let reset = cycle == 0 || rng.gen_ratio(1, 2000);
        if reset {
            // A new kernel: a new CUDA block shape (at most 2^16 threads).
            let lx = rng.gen_range(0..=10);
            self.shape = (lx, rng.gen_range(0..=(16 - lx).min(10)));
        }
        self.apply(InitiatorInputs {
            reset,
            in_valid: rng.gen_ratio(self.valid_percent, 100),
            batch: Batch {
                base: if rng.gen_bool(0.8) {
                    rng.gen::<u16>() & !63
                } else {
                    rng.gen()
                },
                bitmap: Self::random_bitmap(rng),
            },
            out_ready: rng.gen_ratio(self.ready_percent, 100),
            log_dim_x: self.shape.0,
            log_dim_y: self.shape.1,
        });
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let want = self.model.outputs(i.log_dim_x, i.log_dim_y);
        let got_id = small(self.uut.out_id.val()) as u16;
        expect("in_ready", want.in_ready, self.uut.in_ready.val())?;
        expect("out_valid", want.out_valid, self.uut.out_valid.val())?;
        expect("out_id", want.out_id, got_id)?;
        let got_tid = (
            small(self.uut.tid_x.val()) as u16,
            small(self.uut.tid_y.val()) as u16,
            small(self.uut.tid_z.val()) as u16,
        );
        expect("tid", want.tid, got_tid)?;
        expect("busy", want.busy, self.uut.busy.val())?;
        if self.uut.out_valid.val() {
            let (x, y, z) = got_tid;
            let (lx, ly) = (i.log_dim_x, i.log_dim_y);
            let recomposed = u64::from(x) + (u64::from(y) << lx) + (u64::from(z) << (lx + ly));
            contract(
                "threadIdx recomposes the id",
                recomposed == u64::from(got_id),
                || format!("id {got_id} -> ({x}, {y}, {z}) with 2^{lx} x 2^{ly}"),
            )?;
            contract(
                "ids come out once each, ascending within a batch, batches in order",
                self.expected.front() == Some(&got_id),
                || format!("injected {got_id}, expected {:?}", self.expected.front()),
            )?;
        } else {
            contract(
                "nothing pending when idle",
                self.expected.is_empty() || self.uut.busy.val(),
                || format!("{} ids pending", self.expected.len()),
            )?;
        }
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let out = self.model.outputs(i.log_dim_x, i.log_dim_y);
        if i.reset {
            self.expected.clear();
        } else {
            if out.out_valid && i.out_ready {
                self.expected.pop_front();
                self.injected += 1;
            }
            if i.in_valid && out.in_ready {
                let b = i.batch;
                self.expected.extend(
                    (0..64)
                        .filter(|k| b.bitmap >> k & 1 == 1)
                        .map(|k| b.base.wrapping_add(k)),
                );
            }
        }
        self.model
            .clock(i.reset, i.in_valid.then_some(i.batch), i.out_ready);
        Ok(())
    }
}
