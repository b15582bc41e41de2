//! The timing core on hand-assembled programs (no clang): issue and stall accounting,
//! the special function unit, a divergent branch and its reconvergence, a barrier, a
//! load's latency through the L1, the L2 and DRAM, and each divergence policy's hook.
//! Every expected figure is worked out from the machine's parameters, which each test
//! sets itself (`--set` keys over the `lwm` preset).
use super::{run, Options, Stats};
use crate::core::asm::*;
use crate::core::functional::{self, Launch, Program};
use crate::core::machine::Machine;

/// The one place these tests build a machine: the `lwm` preset with `sets` (keys as
/// `--set` takes them).
pub(super) fn machine(sets: &[&str]) -> Machine {
    let mut m = Machine::lwm();
    m.set_all(sets).unwrap();
    m
}

/// Runs `words` on `m` over `threads` in CTAs of `cta`; the memory it leaves must be
/// the functional run's.
pub(super) fn time(words: &[u32], m: &Machine, threads: u32, cta: u32) -> Stats {
    let launch = Launch::new(threads, cta).unwrap();
    let options = Options {
        max_cycles: 100_000,
        max_instructions: 100_000,
        progress: &mut |_, _, _, _| {},
        trace: None,
        two_level_always: false,
    };
    let timed = run(Program::new(image(words)), launch, m, options).unwrap();
    let reference = functional::run(Program::new(image(words)), launch, 100_000).unwrap();
    assert_eq!(timed.image.bytes, reference.image.bytes);
    timed.stats
}

/// Pipeline stages in most of these tests.
const D: u64 = 5;

/// One warp of 32 threads, barrel processing in `D` stages.
fn one_warp(more: &[&str]) -> Machine {
    let mut sets = vec!["pipeline_depth=5", "warps=1", "fetch_group=1"];
    sets.extend(more);
    machine(&sets)
}

/// `tid`, two independent adds, return.
fn straight_line() -> Vec<u32> {
    vec![csrr(A0, TID), addi(A1, A0, 1), addi(A2, A0, 2), ret()]
}

#[test]
fn a_lone_warp_issues_once_per_pipeline_pass() {
    let s = time(&straight_line(), &one_warp(&[]), 32, 32);
    // Four instructions, each fetched `D` cycles after the last; the warp frees its slot
    // when the return completes.
    assert_eq!(s.cycles, 4 * D);
    assert_eq!(s.thread_instructions, 4 * 32);
    assert_eq!(s.warp_instructions, 4);
    assert_eq!(s.active_lanes_histogram[32], 4);
    assert_eq!(s.idle_cycles, 4 * (D - 1));
    // Between issues the warp is in the pipeline; after the return the CTA is still
    // resident until it completes (no live warp: empty).
    assert_eq!(s.stalls.pipeline, 3 * (D - 1));
    assert_eq!(s.stalls.empty, D - 1);
    assert_eq!(s.stalls.memory + s.stalls.barrier + s.stalls.drain, 0);
}

#[test]
fn as_many_warps_as_stages_issue_every_cycle() {
    // Five CTAs of one warp each on five slots: round robin issues one warp per cycle and
    // each is ready again exactly `D` cycles after its last issue.
    let m = machine(&["pipeline_depth=5", "warps=5", "fetch_group=5"]);
    let s = time(&straight_line(), &m, 5 * 32, 32);
    let issues = 5 * 4;
    assert_eq!(s.warp_instructions, issues);
    // The last return issues at `issues - 1` and completes `D` later.
    assert_eq!(s.cycles, issues - 1 + D);
    assert_eq!(s.stalls.pipeline, 0);
    assert_eq!(s.idle_cycles, D - 1);
    assert_eq!(s.stalls.empty, D - 1);
}

#[test]
fn the_scoreboard_issues_what_does_not_wait_for_a_result_the_next_cycle() {
    let m = one_warp(&["scoreboard=true"]);
    let words = [
        csrr(A0, TID),
        addi(A1, A0, 1), // waits for a0
        addi(A2, A0, 2), // a0 is there: the next cycle
        addi(A3, A1, 1), // waits for a1
        ret(),
    ];
    let s = time(&words, &m, 32, 32);
    // A result is written `D` cycles after its instruction issues: csrr at 0, the first
    // add at D, the second at D + 1, the third when a1 is written at 2D, the return the
    // next cycle; the return resolves (and the warp ends) D later.
    assert_eq!(s.cycles, 2 * D + 1 + D);
    assert_eq!(s.warp_instructions, 5);
    // Waiting for results: D - 1 cycles after csrr, D - 2 after the second add; the
    // last D - 1 no warp is live.
    assert_eq!(s.stalls.pipeline, (D - 1) + (D - 2));
    assert_eq!(s.stalls.empty, D - 1);
}

#[test]
fn a_divide_occupies_the_issue_slot_per_sfu_lanes_and_adds_its_latency() {
    let (sfu_lanes, latency) = (8, 3);
    let m = one_warp(&["sfu_lanes=8", "sfu_latency=3"]);
    let words = [csrr(A0, TID), addi(A1, A0, 1), div(A2, A0, A1), ret()];
    let s = time(&words, &m, 32, 32);
    // The divide issues at 2D and takes 32 / 8 = 4 cycles of the slot; it completes
    // `D + 4 - 1 + latency` after it issues; the return then takes `D`.
    let occupancy = 32 / sfu_lanes;
    let divide = 2 * D;
    let completes = divide + D + occupancy - 1 + latency;
    assert_eq!(s.cycles, completes + D);
    assert_eq!(s.warp_instructions, 4);
    // Each cycle of the divide starts 8 threads.
    assert_eq!(s.active_lanes_histogram[8], occupancy);
    assert_eq!(s.active_lanes_histogram[32], 3);
    assert_eq!(s.idle_cycles, s.cycles - occupancy - 3);
    assert_eq!(
        s.stalls.pipeline,
        2 * (D - 1) + (completes - divide - occupancy)
    );
    assert_eq!(s.stalls.empty, D - 1);
}

#[test]
fn an_unpipelined_sfu_takes_multiplies_and_holds_the_issue_slot_between_passes() {
    // The RTL core's shared multiply/divide unit: one lane a pass, 10 cycles a pass.
    let interval = 10;
    let words = [csrr(A0, TID), addi(A1, A0, 1), mul(A2, A0, A1), ret()];
    // By default a multiply is an ALU instruction: four issues, `D` apart.
    assert_eq!(time(&words, &one_warp(&[]), 32, 32).cycles, 4 * D);
    let m = one_warp(&[
        "sfu_lanes=1",
        "sfu_latency=0",
        "sfu_interval=10",
        "sfu_multiply=true",
    ]);
    let s = time(&words, &m, 32, 32);
    // The multiply issues at 2D and holds the slot 32 passes of 10 cycles; it completes
    // `D + 320 - 1` after it issues; the return then takes `D`.
    let occupancy = 32 * interval;
    let multiply = 2 * D;
    let completes = multiply + D + occupancy - 1;
    assert_eq!(s.cycles, completes + D);
    assert_eq!(s.operations.mul, 32);
    // A pass starts one thread; the slot is held, idle, the 9 other cycles of a pass.
    assert_eq!(s.active_lanes_histogram[1], 32);
    assert_eq!(s.stalls.sfu, 32 * (interval - 1));
    assert_eq!(
        s.stalls.pipeline,
        2 * (D - 1) + (completes - multiply - occupancy)
    );
    assert_eq!(s.stalls.empty, D - 1);
    assert_eq!(s.idle_cycles, s.cycles - 32 - 3);
    // A divide takes the same unit the same way.
    let words = [csrr(A0, TID), addi(A1, A0, 1), div(A2, A0, A1), ret()];
    assert_eq!(time(&words, &m, 32, 32).cycles, completes + D);
}

/// Odd threads take one path (two instructions), even threads the other (one); both
/// meet at the add after them (the branch's immediate post-dominator).
fn odd_even() -> Vec<u32> {
    vec![
        csrr(A0, TID),
        andi(A1, A0, 1),
        branch(0, A1, ZERO, at(2), at(5)), // even: to 5
        addi(A2, ZERO, 1),
        jal(ZERO, at(4), at(6)),
        addi(A2, ZERO, 2),
        addi(A3, A2, 0), // the join
        ret(),
    ]
}

#[test]
fn a_divergent_branch_runs_each_path_then_reconverges() {
    let s = time(&odd_even(), &one_warp(&[]), 32, 32);
    // Three full instructions before the branch and two after the join; the odd path's
    // two and the even path's one by 16 threads each.
    assert_eq!(s.warp_instructions, 3 + 2 + 1 + 2);
    assert_eq!(s.thread_instructions, 5 * 32 + 3 * 16);
    assert_eq!(s.active_lanes_histogram[32], 5);
    assert_eq!(s.active_lanes_histogram[16], 3);
    // One warp: every warp instruction a pipeline pass.
    assert_eq!(s.cycles, 8 * D);
    assert_eq!(s.simd_utilisation, (5.0 * 32.0 + 3.0 * 16.0) / (8.0 * 32.0));
}

/// Warp 1 (threads 32..64) goes straight to the barrier; warp 0 runs `WORK` adds first.
const WORK: u64 = 4;
fn late_warp_at_a_barrier() -> Vec<u32> {
    let mut w = vec![
        csrr(A0, TID),
        addi(A1, ZERO, 32),
        branch(5, A0, A1, at(2), at(3 + WORK as u32)), // tid >= 32: to the barrier
    ];
    w.extend((0..WORK).map(|_| addi(A2, A2, 1)));
    w.extend([barrier(), addi(A3, A0, 0), ret()]);
    w
}

#[test]
fn a_barrier_holds_the_early_warp_until_the_last_arrives() {
    let m = machine(&["pipeline_depth=5", "warps=2", "fetch_group=2"]);
    let s = time(&late_warp_at_a_barrier(), &m, 64, 64);
    // Warp 0 issues at 0, D, 2D, ... (10 instructions: its barrier at (WORK + 3)D);
    // warp 1 one cycle after it, its barrier at 3D + 1. Released at (WORK + 3)D, warp 1
    // issues the next cycle, warp 0 when its barrier completes; warp 0's return issues
    // at (WORK + 5)D and completes D later.
    assert_eq!(s.cycles, (WORK + 6) * D);
    assert_eq!(s.warp_instructions, (WORK + 6) + 6);
    // Waiting at the barrier: the cycles from 3D + 2 to (WORK + 3)D - 1 but warp 0's
    // issues of its adds after the first.
    assert_eq!(s.stalls.barrier, WORK * D - 2 - (WORK - 1));
    // Both warps in the pipeline: 3 x (D - 2) cycles before, 2 x (D - 2) after.
    assert_eq!(s.stalls.pipeline, 5 * (D - 2));
    assert_eq!(s.stalls.empty, D - 1);
    assert_eq!(
        s.idle_cycles,
        s.stalls.barrier + s.stalls.pipeline + s.stalls.empty
    );
}

/// Each thread's word of `data`: loaded (a miss), loaded again (a hit), then the next
/// line's word (a miss in the same DRAM row).
fn three_loads() -> Vec<u32> {
    vec![
        csrr(A0, TID),
        slli(A1, A0, 2),
        lui(A2, DATA >> 12),
        add(A1, A1, A2),
        lw(A3, A1, 0),
        lw(A4, A1, 0),
        lw(A5, A1, 128),
        ret(),
    ]
}

/// DRAM timings of the load tests: row hit, row conflict (cycles).
const ROW_HIT: u64 = 100;
const ROW_CONFLICT: u64 = 300;
const L1_LATENCY: u64 = 3;

#[test]
fn a_load_waits_for_the_l1_and_dram() {
    // 32 threads' words are one 128-byte line; 128 GB/s at 1.5 GHz moves it in 1.5
    // cycles, under every latency.
    let m = one_warp(&["l1_latency=3", "dram_row_hit=100", "dram_row_conflict=300"]);
    let s = time(&three_loads(), &m, 32, 32);
    let expected = three_loads_cycles(0);
    assert_eq!(s.cycles, expected.cycles);
    assert_eq!((s.l1.loads, s.l1.hits, s.l1.misses), (3, 1, 2));
    // The first miss opens the row (a conflict: no row open); the second finds it open.
    assert_eq!(
        (s.dram.reads, s.dram.row_conflicts, s.dram.row_hits),
        (2, 1, 1)
    );
    assert_eq!(s.dram.latency_cycles, ROW_CONFLICT + ROW_HIT);
    assert_eq!(s.stalls.memory, expected.memory_stalls);
    assert_eq!(s.l2.loads, 0);
}

#[test]
fn a_miss_through_the_l2_adds_its_latency() {
    let m = one_warp(&[
        "l1_latency=3",
        "dram_row_hit=100",
        "dram_row_conflict=300",
        "l2_kb=64",
        "l2_latency=20",
    ]);
    let s = time(&three_loads(), &m, 32, 32);
    let expected = three_loads_cycles(20);
    assert_eq!(s.cycles, expected.cycles);
    assert_eq!(s.stalls.memory, expected.memory_stalls);
    // Both lines miss in the L2 too (neither was there).
    assert_eq!((s.l2.loads, s.l2.misses), (2, 2));
    assert_eq!(s.dram.reads, 2);
}

struct LoadTimes {
    cycles: u64,
    memory_stalls: u64,
}

/// [`three_loads`] on one warp, by hand, with an L2 of `l2` cycles in front of DRAM (0:
/// none). A line is looked up `D - 2` cycles after issue; a hit's data is there
/// `L1_LATENCY` later, a miss reaches the L2 then, DRAM `l2` later, and arrives a row
/// hit or conflict after that; the warp issues again the cycle after its data.
fn three_loads_cycles(l2: u64) -> LoadTimes {
    let miss = |issue: u64, row: u64| issue + D - 2 + L1_LATENCY + l2 + row;
    let first = 4 * D;
    let first_in = miss(first, ROW_CONFLICT);
    let second = first_in + 1;
    // The hit completes with its data: D - 2 + L1_LATENCY + 1 after issue.
    let third = second + D - 2 + L1_LATENCY + 1;
    let third_in = miss(third, ROW_HIT);
    let ret = third_in + 1;
    LoadTimes {
        cycles: ret + D,
        // The warp waits for memory from the cycle after each miss's issue to the cycle
        // before its line arrives (on arrival it is awake, not yet ready: pipeline).
        memory_stalls: (first_in - first - 1) + (third_in - third - 1),
    }
}
