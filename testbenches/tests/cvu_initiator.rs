//! CVU thread initiator (SPEC §5): model-vs-RTL equivalence with the contracts
//! (order, conservation, threadIdx) under random handshakes, the one-thread-per-cycle
//! throughput of §2/§3.5, and the export gate on the RTL.
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_sim::vgiw::cvu_initiator::Batch;
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::convert::small;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};
use weft_testbenches::vgiw::cvu_initiator::{CvuInitiatorBench, InitiatorInputs};

fn equivalence(cycles: u64, seed: u64, valid: u32, ready: u32) {
    let mut bench = CvuInitiatorBench::default();
    bench.valid_percent = valid;
    bench.ready_percent = ready;
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("valid {valid}% ready {ready}%, seed {seed}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn model_and_rtl_agree(seed in any::<u64>(), valid in 1u32..=100, ready in 1u32..=100) {
        equivalence(3_000, seed, valid, ready);
    }
}

#[test]
fn long_run() {
    equivalence(100_000, 11, 50, 80);
    equivalence(50_000, 12, 100, 100);
}

/// Applies `i`, checks the RTL against the model, clocks; returns the id injected.
fn cycle(b: &mut CvuInitiatorBench, i: InitiatorInputs) -> Option<u16> {
    b.set_clock(false);
    b.apply(i);
    settle(&mut b.uut).unwrap();
    b.check().unwrap();
    let id = (b.uut.out_valid.val() && i.out_ready).then(|| small(b.uut.out_id.val()) as u16);
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    b.tick().unwrap();
    id
}

/// A producer that always has a batch and a fabric that is always ready: one thread
/// per cycle from the first injection on, also across one-thread batches.
#[test]
fn initiator_sustains_one_thread_per_cycle() {
    let batches: Vec<u64> = vec![u64::MAX, 1, 1 << 63, 0x8000_0001, 0x5555, 1, 1, 2, u64::MAX];
    let total: u32 = batches.iter().map(|b| b.count_ones()).sum();
    let mut b = CvuInitiatorBench::default();
    cycle(
        &mut b,
        InitiatorInputs {
            reset: true,
            ..Default::default()
        },
    );
    let mut next = 0;
    let mut first = None;
    let mut ids = vec![];
    for c in 0..400u32 {
        let offered = batches.get(next).copied();
        let i = InitiatorInputs {
            in_valid: offered.is_some(),
            batch: Batch {
                base: (next as u16) * 64,
                bitmap: offered.unwrap_or(0),
            },
            out_ready: true,
            log_dim_x: 3,
            log_dim_y: 2,
            ..Default::default()
        };
        let ready = b.uut.in_ready.val();
        if let Some(id) = cycle(&mut b, i) {
            first.get_or_insert(c);
            ids.push((c, id));
        }
        if offered.is_some() && ready {
            next += 1;
        }
    }
    assert_eq!(ids.len() as u32, total);
    let (first, last) = (first.unwrap(), ids.last().unwrap().0);
    let per_cycle = f64::from(total) / f64::from(last - first + 1);
    println!(
        "initiator: {total} threads in {} cycles = {per_cycle:.3} threads/cycle",
        last - first + 1
    );
    assert_eq!(last - first + 1, total, "no bubble: one thread per cycle");
    assert!(ids.windows(2).all(|w| w[0].1 < w[1].1), "ascending ids");
}

#[test]
fn thread_idx_of_a_16x4x4_block() {
    let mut b = CvuInitiatorBench::default();
    cycle(
        &mut b,
        InitiatorInputs {
            reset: true,
            ..Default::default()
        },
    );
    let shape = |in_valid| InitiatorInputs {
        in_valid,
        batch: Batch {
            base: 128,
            bitmap: 1 << 37,
        },
        out_ready: true,
        log_dim_x: 4,
        log_dim_y: 2,
        ..Default::default()
    };
    cycle(&mut b, shape(true));
    b.set_clock(false);
    b.apply(shape(false));
    settle(&mut b.uut).unwrap();
    // 165 = 5 + 16 * (2 + 4 * 2)
    assert_eq!(small(b.uut.out_id.val()), 165);
    assert_eq!(small(b.uut.tid_x.val()), 5);
    assert_eq!(small(b.uut.tid_y.val()), 2);
    assert_eq!(small(b.uut.tid_z.val()), 2);
}

#[test]
fn lints_clean() {
    assert_lints_clean(
        "cvu_initiator",
        &verilog_of::<weft_hdl::presets::CvuInitiator64>(),
    );
}
