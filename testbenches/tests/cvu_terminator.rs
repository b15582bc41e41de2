//! CVU thread terminator (SPEC §5): model-vs-RTL equivalence with the conservation
//! contracts under random out-of-order completion, directed eviction and flush
//! scenarios of §3.5, and the export gate on the RTL.
use proptest::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::convert::small;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};
use weft_testbenches::vgiw::cvu_terminator::{CvuTerminatorBench, TerminatorInputs};

fn equivalence(cycles: u64, seed: u64, valid: u32, ready: u32) {
    let mut bench = CvuTerminatorBench::default();
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
    equivalence(100_000, 21, 70, 80);
    equivalence(50_000, 22, 100, 100);
}

#[derive(Debug, PartialEq)]
struct Sent {
    taken: bool,
    base: u16,
    bitmap: u64,
}

/// Applies `i`, checks the RTL against the model, clocks; returns the batch sent.
fn cycle(b: &mut CvuTerminatorBench, i: TerminatorInputs) -> (bool, Option<Sent>) {
    b.set_clock(false);
    b.apply(i);
    settle(&mut b.uut).unwrap();
    b.check().unwrap();
    let accepted = i.in_valid && b.uut.in_ready.val();
    let sent = (b.uut.out_valid.val() && i.out_ready).then(|| Sent {
        taken: b.uut.out_taken.val(),
        base: small(b.uut.out_base.val()) as u16,
        bitmap: small(b.uut.out_bitmap.val()),
    });
    b.set_clock(true);
    settle(&mut b.uut).unwrap();
    b.tick().unwrap();
    (accepted, sent)
}

fn thread(id: u16, taken: bool) -> TerminatorInputs {
    TerminatorInputs {
        in_valid: true,
        id,
        taken,
        out_ready: true,
        ..Default::default()
    }
}

fn flush() -> TerminatorInputs {
    TerminatorInputs {
        flush: true,
        out_ready: true,
        ..Default::default()
    }
}

fn fresh() -> CvuTerminatorBench {
    let mut b = CvuTerminatorBench::default();
    cycle(
        &mut b,
        TerminatorInputs {
            reset: true,
            ..Default::default()
        },
    );
    b
}

/// Threads of two windows interleave freely (a pair of batches per target); a third
/// window sends the older batch, partial; flush sends the rest.
#[test]
fn pair_of_batches_per_target_and_eviction() {
    let mut b = fresh();
    for (id, taken) in [
        (3, false),
        (70, false),
        (1, false),
        (65, true),
        (64, false),
        (2, true),
    ] {
        assert_eq!(
            cycle(&mut b, thread(id, taken)),
            (true, None),
            "thread {id}"
        );
    }
    // Window 128 for target 0: windows 0 and 64 are open; 0 (opened first) leaves.
    assert_eq!(
        cycle(&mut b, thread(130, false)),
        (
            true,
            Some(Sent {
                taken: false,
                base: 0,
                bitmap: 0b1010
            })
        )
    );
    let mut drained = vec![];
    while let (_, Some(s)) = cycle(&mut b, flush()) {
        drained.push(s);
    }
    assert_eq!(
        drained,
        vec![
            Sent {
                taken: false,
                base: 128,
                bitmap: 1 << 2
            },
            Sent {
                taken: false,
                base: 64,
                bitmap: 0b100_0001
            },
            Sent {
                taken: true,
                base: 64,
                bitmap: 0b10
            },
            Sent {
                taken: true,
                base: 0,
                bitmap: 0b100
            },
        ]
    );
    assert!(b.uut.empty.val());
}

/// An eviction waits for the scheduler: the thread is not taken until it is ready.
#[test]
fn eviction_back_pressure() {
    let mut b = fresh();
    cycle(&mut b, thread(0, true));
    cycle(&mut b, thread(64, true));
    let mut blocked = thread(128, true);
    blocked.out_ready = false;
    assert_eq!(cycle(&mut b, blocked), (false, None));
    assert_eq!(
        cycle(&mut b, thread(128, true)),
        (
            true,
            Some(Sent {
                taken: true,
                base: 0,
                bitmap: 1
            })
        )
    );
}

#[test]
fn lints_clean() {
    assert_lints_clean(
        "cvu_terminator",
        &verilog_of::<weft_hdl::presets::CvuTerminator64>(),
    );
}
