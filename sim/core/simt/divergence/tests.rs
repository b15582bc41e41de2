//! Each divergence policy's hook on hand-assembled programs: what it does to the warp
//! instructions, the cycles and its own counters, worked out from the program and the
//! machine's parameters (machines and runs through the timing core's test helpers).
use super::DivergenceStats;
use crate::core::asm::*;
use crate::core::simt::tests::{machine, time};
use crate::core::simt::Stats;

/// Pipeline stages.
const D: u64 = 5;

/// Threads `16..48` of a CTA of 64 take one path, the others (`0..16`, `48..64`) the
/// other: with 32 lanes each path has 16 threads in each row (warp) of the CTA, in
/// complementary lanes, so each path fits one warp instruction when rows combine.
/// Instruction 1 is a `jal x0` to the next by every thread.
fn halves() -> Vec<u32> {
    vec![
        csrr(A0, TID),
        jal(ZERO, at(1), at(2)),
        addi(A1, A0, -16),
        sltiu(A1, A1, 32),
        branch(1, A1, ZERO, at(4), at(7)), // 16 <= tid < 48: to 7
        addi(A2, ZERO, 1),
        jal(ZERO, at(6), at(8)),
        addi(A2, ZERO, 2),
        addi(A3, A2, 0), // the join
        ret(),
    ]
}

/// `halves` on 64 threads in one CTA, under `divergence` and `sets`, 32 lanes.
fn halves_on(sets: &[&str]) -> Stats {
    let mut all = vec!["pipeline_depth=5"];
    all.extend(sets);
    time(&halves(), &machine(&all), 64, 64)
}

/// Full instructions (every thread): csrr, jal, addi, sltiu, bne, the join's addi, ret.
const FULL: u64 = 7;
/// Instructions on the paths: addi and jal on one, addi on the other.
const PATH: u64 = 3;

#[test]
fn pdom_runs_each_warps_paths_one_after_the_other() {
    let s = halves_on(&["warps=2", "fetch_group=2", "divergence=pdom"]);
    // Each warp runs its 16 threads of each path as warp instructions of their own.
    assert_eq!(s.warp_instructions, 2 * FULL + 2 * PATH);
    assert_eq!(s.thread_instructions, 64 * FULL + 32 * PATH);
    assert_eq!(s.active_lanes_histogram[16], 2 * PATH);
    assert_eq!(s.divergence, DivergenceStats::Pdom);
    // Warp 1 issues the cycle after warp 0 each time: its last instruction (its tenth)
    // at 9D + 1, done D later.
    assert_eq!(s.cycles, (FULL + PATH) * D + 1);
}

#[test]
fn lwm_breaks_a_large_warp_into_sub_warps_that_combine_rows() {
    // One large warp of two rows.
    let lwm = |jump_opt: &str| {
        halves_on(&[
            "warps=1",
            "fetch_group=1",
            "warp_size=64",
            "divergence=lwm",
            jump_opt,
        ])
    };
    let s = lwm("lwm_jump_opt=true");
    // A full instruction is two sub-warps (rows use the same lanes) but the jump, one
    // sub-warp under the jump optimisation; each path's threads sit in complementary
    // lanes of the two rows: one sub-warp.
    assert_eq!(s.warp_instructions, 2 * (FULL - 1) + 1 + PATH);
    assert_eq!(s.thread_instructions, 64 * FULL + 32 * PATH);
    assert_eq!(s.active_lanes_histogram[32], s.warp_instructions);
    // The jump's one sub-warp carries 32 of its 64 threads.
    assert_eq!(
        s.divergence,
        DivergenceStats::Lwm(super::lwm::LwmStats {
            jump_opt_threads: 32
        })
    );
    // The large warp is fetched again `D` cycles after its last sub-warp issues: an
    // instruction of `k` sub-warps takes `D + k - 1` cycles.
    let instructions = FULL + PATH;
    assert_eq!(s.cycles, instructions * D + (FULL - 1));
    // Without the jump optimisation the jump is two sub-warps, one cycle more.
    let s = lwm("lwm_jump_opt=false");
    assert_eq!(s.warp_instructions, 2 * FULL + PATH);
    assert_eq!(s.cycles, instructions * D + FULL);
    assert_eq!(
        s.divergence,
        DivergenceStats::Lwm(super::lwm::LwmStats {
            jump_opt_threads: 0
        })
    );
}

#[test]
fn lwm_issues_a_load_as_one_sub_warp_per_row_under_the_memory_optimisation() {
    // The threads of `halves`' outer path (row 0's lanes 0-15, row 1's lanes 16-31)
    // load their words; the others skip the load.
    let words = [
        csrr(A0, TID),
        slli(A4, A0, 2),
        lui(A5, DATA >> 12),
        add(A4, A4, A5),
        addi(A1, A0, -16),
        sltiu(A1, A1, 32),
        branch(1, A1, ZERO, at(6), at(8)),
        lw(A2, A4, 0),
        ret(), // the join
    ];
    let lwm = |memory_opt: &str| {
        let m = machine(&[
            "pipeline_depth=5",
            "warps=1",
            "fetch_group=1",
            "warp_size=64",
            "divergence=lwm",
            memory_opt,
        ]);
        time(&words, &m, 64, 64)
    };
    // Eight full instructions of two sub-warps each; the load's rows combine into one
    // sub-warp of 32 lanes, or issue as one sub-warp of 16 per row.
    let s = lwm("lwm_memory_opt=false");
    assert_eq!(s.warp_instructions, 8 * 2 + 1);
    assert_eq!(s.active_lanes_histogram[16], 0);
    let s = lwm("lwm_memory_opt=true");
    assert_eq!(s.warp_instructions, 8 * 2 + 2);
    assert_eq!(s.active_lanes_histogram[16], 2);
    assert_eq!(s.thread_instructions, 8 * 64 + 32);
    // Row 0's threads read line 64, row 1's (threads 48-63) line 65.
    assert_eq!((s.l1.loads, s.l1.misses), (2, 2));
}

fn tbc_stats(s: &Stats) -> &super::tbc::TbcStats {
    match &s.divergence {
        DivergenceStats::Tbc(t) => t,
        d => panic!("not thread block compaction: {d:?}"),
    }
}

#[test]
fn thread_block_compaction_forms_each_path_into_one_warp() {
    for scheme in ["tbc", "tbc+"] {
        let divergence = format!("divergence={scheme}");
        let s = halves_on(&["warps=2", "fetch_group=2", &divergence]);
        // The CTA's two warps bring 16 threads each to each path; compacted, each path
        // is one warp of 32.
        assert_eq!(s.warp_instructions, 2 * FULL + PATH, "{scheme}");
        assert_eq!(s.thread_instructions, 64 * FULL + 32 * PATH);
        assert_eq!(s.active_lanes_histogram[16], 0, "{scheme}");
        let t = tbc_stats(&s);
        // The branch: adequate (one warp per path after, four brought), both warps
        // diverged and stalled as they should. Under tbc each jump is an instance too:
        // the first brings both warps (two after: 64 threads), the one on a path its one
        // compacted warp; not adequate, so their three warps stalled without gain.
        let (jumps, jump_warps) = if scheme == "tbc" { (2, 3) } else { (0, 0) };
        assert_eq!(t.branch_instances, 1 + jumps, "{scheme}");
        assert_eq!(t.adequate_instances, 1, "{scheme}");
        assert_eq!(t.stall_ideal_stall, 2, "{scheme}");
        assert_eq!(t.stall_ideal_bypass, jump_warps, "{scheme}");
        assert_eq!(t.bypass_ideal_stall + t.bypass_ideal_bypass, 0, "{scheme}");
        assert_eq!(t.warps_before, 4 + jump_warps, "{scheme}");
        assert_eq!(t.warps_after, 2 + jump_warps, "{scheme}");
    }
}

/// Two passes of a loop over an odd/even branch (`beq` at 3, its join at 5) and the
/// loop's branch back (`bne` at 6, on a counter every thread holds alike).
fn loop_over_odd_even() -> Vec<u32> {
    vec![
        csrr(A0, TID),
        andi(A1, A0, 1),
        addi(A4, ZERO, 2),
        branch(0, A1, ZERO, at(3), at(5)), // even: to the join
        addi(A2, A2, 1),
        addi(A4, A4, -1), // the join
        branch(1, A4, ZERO, at(6), at(3)),
        ret(),
    ]
}

#[test]
fn tbc_tbc_plus_and_capri_stall_where_their_rules_say() {
    // Odd/even splits each warp of the CTA in the same lanes: compaction cannot pay (two
    // warps per path after, as before), so no instance is adequate and every stall
    // should have been a bypass.
    let decisions = |scheme: &str| {
        let divergence = format!("divergence={scheme}");
        let m = machine(&["pipeline_depth=5", "warps=2", "fetch_group=2", &divergence]);
        let s = time(&loop_over_odd_even(), &m, 64, 64);
        let t = tbc_stats(&s).clone();
        assert_eq!(t.adequate_instances, 0, "{scheme}");
        assert_eq!(t.stall_ideal_stall + t.bypass_ideal_stall, 0, "{scheme}");
        // Two warps decide at each of the four instances (two passes, two branches).
        assert_eq!(t.branch_instances, 4, "{scheme}");
        (t.stall_ideal_bypass, t.bypass_ideal_bypass, t)
    };
    // tbc: every warp stalls at every branch.
    assert_eq!(decisions("tbc").0, 8);
    // tbc+: not at the loop's branch, which the uniformity analysis proves uniform.
    let (stalls, bypasses, t) = decisions("tbc+");
    assert_eq!((stalls, bypasses), (4, 4));
    let back = t.branches.iter().find(|b| b.pc == at(6)).unwrap();
    assert!(back.uniform);
    // capri: a diverged warp whose branch misses in the CAPT stalls and inserts it (with
    // a history predicting adequacy, so the second warp stalls on its hit); the instance
    // teaches the entry "not adequate" and both warps bypass on the second pass. Warps
    // that did not diverge never look up.
    let (stalls, bypasses, t) = decisions("capri");
    assert_eq!((stalls, bypasses), (2, 6));
    assert_eq!((t.capt_lookups, t.capt_hits, t.capt_inserts), (4, 3, 1));
}

/// Each thread's word of `data`, then the word 64 bytes on: threads 0-15 find it in the
/// line the first load brought, threads 16-31 in the next line.
fn half_missing_load() -> Vec<u32> {
    vec![
        csrr(A0, TID),
        slli(A1, A0, 2),
        lui(A2, DATA >> 12),
        add(A1, A1, A2),
        lw(A3, A1, 0),
        lw(A4, A1, 64),
        addi(A5, A0, 1),
        ret(),
    ]
}

#[test]
fn diverge_on_miss_runs_the_threads_that_hit_ahead() {
    const ROW_HIT: u64 = 100;
    const ROW_CONFLICT: u64 = 300;
    const L1_LATENCY: u64 = 1;
    let on = |divergence: &str| {
        let m = machine(&[
            "pipeline_depth=5",
            "warps=1",
            "fetch_group=1",
            "l1_latency=1",
            "dram_row_hit=100",
            "dram_row_conflict=300",
            "dom_adaptive=false",
            divergence,
        ]);
        time(&half_missing_load(), &m, 32, 32)
    };
    // The first load misses for every thread (it blocks); the second, issued the cycle
    // after the line is in, looks its two lines up `D - 2` and `D - 1` cycles after
    // issue: the first hits, the second misses and arrives a row hit later (same row).
    let first = 4 * D;
    let second = first + D - 2 + L1_LATENCY + ROW_CONFLICT + 1;
    let arrives = second + D - 1 + L1_LATENCY + ROW_HIT;

    // pdom: the warp waits for the line, then runs the add and the return.
    let s = on("divergence=pdom");
    assert_eq!(s.cycles, arrives + 1 + 2 * D);
    assert_eq!(s.warp_instructions, 8);

    // dom: threads 0-15 run on (the add); at the return, a forced reconvergence point,
    // the warp waits for the line; then they return first and threads 16-31 run the add
    // and the return.
    let s = on("divergence=dom");
    assert_eq!(s.cycles, arrives + 1 + 3 * D);
    assert_eq!(s.warp_instructions, 8 + 2);
    assert_eq!(s.thread_instructions, 8 * 32);
    let DivergenceStats::Dom(d) = &s.divergence else {
        panic!("not diverge on miss: {:?}", s.divergence);
    };
    assert_eq!((d.loads, d.all_missed, d.divergent_loads), (2, 1, 1));
    assert_eq!((d.divergent_threads, d.divergent_hits), (32, 16));
    assert_eq!((d.forced, d.forced_threads, d.forced_waits), (1, 16, 1));
    assert_eq!(d.rejoins, 0);
}

/// [`half_missing_load`]'s second load in a loop of two passes.
fn half_missing_load_twice() -> Vec<u32> {
    vec![
        csrr(A0, TID),
        slli(A1, A0, 2),
        lui(A2, DATA >> 12),
        add(A1, A1, A2),
        lw(A3, A1, 0),
        addi(A4, ZERO, 2),
        lw(A5, A1, 64), // the loop
        addi(A4, A4, -1),
        branch(1, A4, ZERO, at(8), at(6)),
        ret(),
    ]
}

#[test]
fn diverge_on_miss_rejoins_the_waiting_threads_at_the_loads_next_execution() {
    const ROW_HIT: u64 = 5;
    const ROW_CONFLICT: u64 = 300;
    const L1_LATENCY: u64 = 1;
    let m = machine(&[
        "pipeline_depth=5",
        "warps=1",
        "fetch_group=1",
        "l1_latency=1",
        "dram_row_hit=5",
        "dram_row_conflict=300",
        "dom_adaptive=false",
        "divergence=dom",
    ]);
    let s = time(&half_missing_load_twice(), &m, 32, 32);
    // The first pass's load splits the warp: threads 16-31 wait for the next line,
    // which arrives D + ROW_HIT after the load issues; threads 0-15 run the pass and
    // execute the load again 3D + 1 after it (two lines, then two instructions): the
    // line is in, threads 16-31 rejoin after the load, one pass behind. At the loop's
    // branch the warp splits by pass: threads 16-31 run their second pass (the load,
    // a hit now, the add, the branch), then all return.
    const { assert!(D + ROW_HIT <= 3 * D + 1) };
    let loop_load = 4 * D + D - 2 + L1_LATENCY + ROW_CONFLICT + 1 + D;
    assert_eq!(s.cycles, loop_load + 10 * D + 1);
    // Six instructions and the first pass's load by 32 threads; the first pass's add and
    // branch and the second pass's load by 16; the add and branch by 32; the late
    // threads' second pass by 16; the return by 32.
    assert_eq!(s.warp_instructions, 6 + 1 + 2 + 1 + 2 + 3 + 1);
    assert_eq!(s.thread_instructions, (6 + 2 * 3 + 1) * 32);
    let DivergenceStats::Dom(d) = &s.divergence else {
        panic!("not diverge on miss: {:?}", s.divergence);
    };
    assert_eq!((d.loads, d.all_missed, d.divergent_loads), (4, 1, 1));
    assert_eq!((d.divergent_threads, d.divergent_hits), (32, 16));
    assert_eq!((d.rejoins, d.rejoined_threads), (1, 16));
    assert_eq!(d.forced, 0);
}
