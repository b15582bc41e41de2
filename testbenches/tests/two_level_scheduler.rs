//! Two-level scheduler (SPEC §2.3): model-vs-RTL equivalence over several sizes with
//! the bench's contracts, the reset state and group hand-over, the paper's Figure 8
//! scenario (`lwm-two-level-scheduling.txt` §3.2), and the Verilator lint gate.
use proptest::prelude::*;
use rust_hdl::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_hdl::presets::{RoundRobinScheduler32, TwoLevelScheduler32x8, TwoLevelScheduler4x2};
use weft_hdl::sched::two_level_scheduler::TwoLevelScheduler;
use weft_sim::sched::two_level_scheduler::Grant;
use weft_testbenches::bench::{settle, Bench};
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};
use weft_testbenches::sched::two_level_scheduler::{SchedInputs, TwoLevelSchedulerBench};

/// Random-stimulus equivalence of one size; panics with the seed and the mismatch.
fn equivalence<
    const WARPS: usize,
    const GROUP: usize,
    const GROUPS: usize,
    const WW: usize,
    const GW: usize,
    const LW: usize,
>(
    cycles: u64,
    seed: u64,
) -> Result<(), TestCaseError> {
    let mut bench = TwoLevelSchedulerBench::<WARPS, GROUP, GROUPS, WW, GW, LW>::default();
    match run(&mut bench, cycles, seed, Outputs::default()) {
        Ok(_) => Ok(()),
        Err(e) => Err(TestCaseError::fail(format!(
            "{WARPS}x{GROUP} seed {seed}: {e}"
        ))),
    }
}

const CYCLES: u64 = 5_000;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn equivalence_1x1(seed in any::<u64>()) { equivalence::<1, 1, 1, 1, 1, 1>(CYCLES, seed)?; }
    #[test]
    fn equivalence_2x1(seed in any::<u64>()) { equivalence::<2, 1, 2, 1, 1, 1>(CYCLES, seed)?; }
    #[test]
    fn equivalence_2x2(seed in any::<u64>()) { equivalence::<2, 2, 1, 1, 1, 1>(CYCLES, seed)?; }
    #[test]
    fn equivalence_4x2(seed in any::<u64>()) { equivalence::<4, 2, 2, 2, 1, 1>(CYCLES, seed)?; }
    #[test]
    fn equivalence_6x3(seed in any::<u64>()) { equivalence::<6, 3, 2, 3, 1, 2>(CYCLES, seed)?; }
    #[test]
    fn equivalence_6x2(seed in any::<u64>()) { equivalence::<6, 2, 3, 3, 2, 1>(CYCLES, seed)?; }
    #[test]
    fn equivalence_8x4(seed in any::<u64>()) { equivalence::<8, 4, 2, 3, 1, 2>(CYCLES, seed)?; }
    #[test]
    fn equivalence_16x4(seed in any::<u64>()) { equivalence::<16, 4, 4, 4, 2, 2>(CYCLES, seed)?; }
    #[test]
    fn equivalence_32x8(seed in any::<u64>()) { equivalence::<32, 8, 4, 5, 2, 3>(CYCLES, seed)?; }
    #[test]
    fn equivalence_32x32(seed in any::<u64>()) { equivalence::<32, 32, 1, 5, 1, 5>(CYCLES, seed)?; }
}

/// Every registered preset's bench, as `weft sim` runs it.
#[test]
fn presets_run_clean() {
    let presets = weft_testbenches::sched::presets();
    let names: Vec<&str> = presets.iter().map(|p| p.name).collect();
    assert_eq!(
        names,
        [
            "two_level_scheduler",
            "two_level_scheduler_4x2",
            "round_robin_scheduler"
        ]
    );
    for (i, preset) in presets.iter().enumerate() {
        let seed = 0x5eed + i as u64;
        let mut bench = (preset.bench)();
        if let Err(e) = run(bench.as_mut(), 20_000, seed, Outputs::default()) {
            panic!("{} seed {seed}: {e}", preset.name);
        }
    }
}

/// One cycle of a bench with explicit inputs: drive, settle, compare with the model
/// and the contracts, clock. Returns what the RTL showed.
fn step<
    const WARPS: usize,
    const GROUP: usize,
    const GROUPS: usize,
    const WW: usize,
    const GW: usize,
    const LW: usize,
>(
    bench: &mut TwoLevelSchedulerBench<WARPS, GROUP, GROUPS, WW, GW, LW>,
    cycle: u64,
    inputs: SchedInputs,
) -> Grant {
    bench.set_clock(false);
    bench.apply(inputs);
    settle(bench.block_mut()).unwrap();
    if let Err(e) = bench.check() {
        panic!("cycle {cycle}: {e}");
    }
    let shown = bench.rtl_grant();
    bench.set_clock(true);
    settle(bench.block_mut()).unwrap();
    bench.tick().unwrap();
    shown
}

fn grant(warp: usize, group: usize) -> Grant {
    Grant {
        valid: true,
        warp,
        group,
    }
}

/// SPEC §2.3 reset state (`cur = 0`, `last[g] = g*GROUP + GROUP-1`) and hand-over:
/// a group keeps priority until none of its warps is ready; the next group in
/// round-robin order takes over, each group resuming after its own last grant.
#[test]
fn reset_state_and_group_hand_over() {
    let mut b = TwoLevelSchedulerBench::<12, 4, 3, 4, 2, 2>::default();
    let mut cycle = 0;
    let mut go = |b: &mut TwoLevelSchedulerBench<12, 4, 3, 4, 2, 2>, reset, ready, accept| {
        cycle += 1;
        step(
            b,
            cycle,
            SchedInputs {
                reset,
                ready,
                accept,
            },
        )
    };
    let all = 0xfff;
    // Power-on equals the reset state: group 0 from warp 0.
    assert_eq!(go(&mut b, false, all, false), grant(0, 0));
    go(&mut b, true, all, true);
    assert_eq!(b.model.cur(), 0);
    assert_eq!(b.model.last(), [3, 7, 11]);
    assert_eq!(go(&mut b, false, all, true), grant(0, 0));
    assert_eq!(go(&mut b, false, all, true), grant(1, 0));
    // Not accepted: the state holds, the same grant shows again.
    assert_eq!(go(&mut b, false, all, false), grant(2, 0));
    assert_eq!(go(&mut b, false, all, true), grant(2, 0));
    // Group 0 stalls: group 1 takes over from its first warp (last[1] = 7 after reset).
    assert_eq!(go(&mut b, false, 0xff0, true), grant(4, 1));
    // Group 0 is ready again but group 1 keeps priority while it has ready warps.
    assert_eq!(go(&mut b, false, all, true), grant(5, 1));
    assert_eq!(go(&mut b, false, 0x08f, true), grant(7, 1));
    // Nothing ready: no grant, `group` shows the current group, the state holds.
    assert_eq!(
        go(&mut b, false, 0, true),
        Grant {
            valid: false,
            warp: 0,
            group: 1
        }
    );
    // Group 1 stalls; round robin over groups goes to group 2 (after cur = 1), not 0.
    assert_eq!(go(&mut b, false, 0xf0f, true), grant(8, 2));
    // Group 2 stalls: wrap around to group 0, which resumes after its last grant (2).
    assert_eq!(go(&mut b, false, 0x00f, true), grant(3, 0));
    assert_eq!(go(&mut b, false, 0x00f, true), grant(0, 0));
    // Group 0 stalls: group 1 resumes after its last grant (7), wrapping to 4.
    assert_eq!(go(&mut b, false, 0x0f0, true), grant(4, 1));
    // A reset in the middle restores the reset state.
    go(&mut b, true, all, true);
    assert_eq!(go(&mut b, false, 0xff0, true), grant(4, 1));
    assert_eq!(b.model.last(), [3, 4, 11]);
}

/// Figure 8: 16 warps on a barrel pipeline; each warp runs `ITERS` times a compute
/// phase of `COMPUTE` instructions then a load that stalls it for `LOAD` cycles.
/// Returns (idle fetch cycles, total cycles, spread of the cycles at which the warps
/// issue their first load), all measured on the RTL scheduler.
fn figure8<
    const WARPS: usize,
    const GROUP: usize,
    const GROUPS: usize,
    const WW: usize,
    const GW: usize,
    const LW: usize,
>() -> (u64, u64, u64) {
    const PIPELINE: u64 = 4; // a fetched warp is back in `ready` this many cycles later
    const COMPUTE: usize = 6;
    const LOAD: u64 = 60;
    const ITERS: usize = 3;
    let program = ITERS * (COMPUTE + 1) + COMPUTE; // compute, load, ..., compute
    let is_load = |pc: usize| pc % (COMPUTE + 1) == COMPUTE;
    let mut bench = TwoLevelSchedulerBench::<WARPS, GROUP, GROUPS, WW, GW, LW>::default();
    let mut pc = vec![0usize; WARPS];
    let mut ready_at = vec![0u64; WARPS];
    let mut first_load = vec![None; WARPS];
    step(
        &mut bench,
        0,
        SchedInputs {
            reset: true,
            ready: 0,
            accept: false,
        },
    );
    let mut idle = 0;
    let mut cycle = 1;
    while pc.iter().any(|&p| p < program) {
        assert!(cycle < 100_000, "the scenario does not finish");
        let ready = (0..WARPS)
            .filter(|&w| pc[w] < program && ready_at[w] <= cycle)
            .fold(0u64, |acc, w| acc | 1 << w);
        let g = step(
            &mut bench,
            cycle,
            SchedInputs {
                reset: false,
                ready,
                accept: true,
            },
        );
        if g.valid {
            let w = g.warp;
            if is_load(pc[w]) {
                first_load[w].get_or_insert(cycle);
                ready_at[w] = cycle + PIPELINE + LOAD;
            } else {
                ready_at[w] = cycle + PIPELINE;
            }
            pc[w] += 1;
        } else {
            idle += 1;
        }
        cycle += 1;
    }
    let loads: Vec<u64> = first_load.into_iter().map(Option::unwrap).collect();
    let spread = loads.iter().max().unwrap() - loads.iter().min().unwrap();
    (idle, cycle - 1, spread)
}

#[test]
fn figure8_two_level_hides_load_latency() {
    let (rr_idle, rr_cycles, rr_spread) = figure8::<16, 16, 1, 4, 1, 4>();
    let (tl_idle, tl_cycles, tl_spread) = figure8::<16, 8, 2, 4, 1, 3>();
    eprintln!(
        "Figure 8 (16 warps): round robin {rr_idle} idle / {rr_cycles} cycles, first loads within {rr_spread} cycles; \
         two-level (groups of 8) {tl_idle} idle / {tl_cycles} cycles, first loads within {tl_spread} cycles"
    );
    // Round robin: every warp reaches its load at about the same time ...
    assert!(
        rr_spread < tl_spread,
        "round robin should bunch the loads: spread {rr_spread} vs two-level {tl_spread}"
    );
    // ... so the core idles while all loads are out; two-level overlaps group 1's
    // compute with group 0's loads.
    assert!(
        tl_idle < rr_idle,
        "two-level should idle less: {tl_idle} vs round robin {rr_idle}"
    );
    assert!(tl_cycles < rr_cycles, "two-level should finish first");
}

#[test]
fn verilator_lint_clean() {
    assert_lints_clean(
        "two_level_scheduler",
        &verilog_of::<TwoLevelScheduler32x8>(),
    );
    assert_lints_clean(
        "two_level_scheduler_4x2",
        &verilog_of::<TwoLevelScheduler4x2>(),
    );
    assert_lints_clean(
        "round_robin_scheduler",
        &verilog_of::<RoundRobinScheduler32>(),
    );
    assert_lints_clean(
        "sched_1x1",
        &verilog_of::<TwoLevelScheduler<1, 1, 1, 1, 1, 1>>(),
    );
    assert_lints_clean(
        "sched_2x1",
        &verilog_of::<TwoLevelScheduler<2, 1, 2, 1, 1, 1>>(),
    );
    assert_lints_clean(
        "sched_6x3",
        &verilog_of::<TwoLevelScheduler<6, 3, 2, 3, 1, 2>>(),
    );
    assert_lints_clean(
        "sched_6x2",
        &verilog_of::<TwoLevelScheduler<6, 2, 3, 3, 2, 1>>(),
    );
}

#[test]
fn yosys_validates_odd_sizes() {
    yosys_validate(
        "sched_1x1",
        &verilog_of::<TwoLevelScheduler<1, 1, 1, 1, 1, 1>>(),
    )
    .unwrap();
    yosys_validate(
        "sched_6x2",
        &verilog_of::<TwoLevelScheduler<6, 2, 3, 3, 2, 1>>(),
    )
    .unwrap();
}
