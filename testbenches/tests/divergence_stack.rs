//! Divergence stack (SPEC §2.4): model-vs-RTL equivalence over several sizes with the
//! bench's contracts, the paper's nested if/else walk (`lwm-two-level-scheduling.txt`
//! §2.3 Figure 3, `capri-compaction-adequacy.txt` §2.1 Figure 1 style), overflow, a
//! Collatz loop whose threads leave at many iterations in three entries, and the
//! Verilator lint gate.
use proptest::prelude::*;
use proptest::test_runner::Config;
use weft_flow::lint::assert_lints_clean;
use weft_hdl::lib::divergence_stack::{DivergenceStack, DivergenceStack4, DivergenceStack4x3};
use weft_hdl::presets::DivergenceStack32;
use weft_sim::lib::divergence_stack::{Inputs, Outputs};
use weft_testbenches::lib::divergence_stack::DivergenceStackBench;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs as RunOutputs};

/// Random-stimulus equivalence of one size; fails with the seed and the mismatch.
fn equivalence<const LANES: usize, const DEPTH: usize, const PCW: usize, const DW: usize>(
    cycles: u64,
    seed: u64,
) -> Result<(), TestCaseError> {
    let mut bench = DivergenceStackBench::<LANES, DEPTH, PCW, DW>::default();
    match run(&mut bench, cycles, seed, RunOutputs::default()) {
        Ok(_) => Ok(()),
        Err(e) => Err(TestCaseError::fail(format!(
            "lanes {LANES} depth {DEPTH} pc {PCW} seed {seed}: {e}"
        ))),
    }
}

const CYCLES: u64 = 4_000;

fn config() -> Config {
    Config {
        cases: 10,
        // A seed has no smaller neighbour worth trying; report the failing one as is.
        max_shrink_iters: 0,
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn equivalence_1x1(seed in any::<u64>()) { equivalence::<1, 1, 8, 1>(CYCLES, seed)?; }
    #[test]
    fn equivalence_2x2(seed in any::<u64>()) { equivalence::<2, 2, 8, 2>(CYCLES, seed)?; }
    #[test]
    fn equivalence_4x3(seed in any::<u64>()) { equivalence::<4, 3, 8, 2>(CYCLES, seed)?; }
    #[test]
    fn equivalence_2x8_pc4(seed in any::<u64>()) { equivalence::<2, 8, 4, 4>(CYCLES, seed)?; }
    #[test]
    fn equivalence_4x8(seed in any::<u64>()) { equivalence::<4, 8, 32, 4>(CYCLES, seed)?; }
    #[test]
    fn equivalence_5x8(seed in any::<u64>()) { equivalence::<5, 8, 32, 4>(CYCLES, seed)?; }
    #[test]
    fn equivalence_32x3(seed in any::<u64>()) { equivalence::<32, 3, 32, 2>(CYCLES, seed)?; }
    #[test]
    fn equivalence_32x8(seed in any::<u64>()) { equivalence::<32, 8, 32, 4>(CYCLES, seed)?; }
}

/// The random stimulus must actually reach the interesting states.
#[test]
fn random_stimulus_covers_deep_stacks_and_overflow() {
    // 32 lanes: four threads cannot nest deep enough to fill eight entries.
    let mut bench = DivergenceStackBench::<32, 8, 32, 4>::default();
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(7);
    let (mut max_depth, mut overflows, mut pops) = (0, 0, 0);
    // Divergent branches that replaced the top (by two, one and no paths) and that left
    // a path off the stack because it was at the reconvergence PC.
    let (mut replaced, mut not_pushed) = ([0; 3], 0);
    let mut before: Option<(Outputs, Inputs)> = None;
    for cycle in 0..20_000 {
        use weft_testbenches::bench::{settle, Bench};
        bench.set_clock(false);
        bench.drive(cycle, &mut rng);
        settle(bench.block_mut()).unwrap();
        bench.check().unwrap();
        let now = bench.rtl_outputs();
        max_depth = max_depth.max(now.depth);
        overflows += usize::from(now.overflow);
        if let Some((was, i)) = &before {
            let divergent = i.branch
                && !i.reset
                && !i.init
                && was.depth != 0
                && was.mask & i.taken_mask != 0
                && was.mask & !i.taken_mask != 0;
            let pushed =
                usize::from(i.taken_pc != i.reconv_pc) + usize::from(i.not_taken_pc != i.reconv_pc);
            let replacing = was.depth > 1 && was.rpc == i.reconv_pc;
            // Only branches that took effect (the overflow flag did not rise).
            if divergent && (now.overflow == was.overflow) && !was.overflow {
                if replacing {
                    replaced[pushed] += 1;
                }
                not_pushed += usize::from(pushed < 2);
            }
            if now.depth + 1 == was.depth && !i.reset && !i.init && !i.branch {
                pops += 1;
            }
        }
        before = Some((now, bench.inputs.clone()));
        bench.set_clock(true);
        settle(bench.block_mut()).unwrap();
        bench.tick().unwrap();
    }
    assert_eq!(max_depth, 8, "the stack should fill up");
    assert!(overflows > 0, "overflow should be reached");
    assert!(pops > 0, "advances should pop reconverged entries");
    assert!(
        replaced.iter().all(|&n| n > 0),
        "tops replaced by 0, 1 and 2 paths: {replaced:?}"
    );
    assert!(
        not_pushed > 0,
        "paths at the reconvergence PC should be left off"
    );
}

fn init(mask: u64, pc: u64) -> Inputs {
    Inputs {
        init: true,
        init_mask: mask,
        init_pc: pc,
        ..Default::default()
    }
}

fn branch(taken_mask: u64, taken_pc: u64, not_taken_pc: u64, reconv_pc: u64) -> Inputs {
    Inputs {
        branch: true,
        taken_mask,
        taken_pc,
        not_taken_pc,
        reconv_pc,
        ..Default::default()
    }
}

fn advance(next_pc: u64) -> Inputs {
    Inputs {
        advance: true,
        next_pc,
        ..Default::default()
    }
}

fn reset() -> Inputs {
    Inputs {
        reset: true,
        ..Default::default()
    }
}

fn state(pc: u64, mask: u64, rpc: u64, depth: usize, overflow: bool) -> Outputs {
    Outputs {
        pc,
        mask,
        rpc,
        depth,
        overflow,
    }
}

/// Drives one cycle (the bench compares RTL and model) and checks the RTL's state
/// after the edge against the hand-written expectation.
fn walk<const L: usize, const D: usize, const P: usize, const W: usize>(
    bench: &mut DivergenceStackBench<L, D, P, W>,
    steps: &[(Inputs, Outputs)],
) {
    for (n, (inputs, want)) in steps.iter().enumerate() {
        bench
            .step(inputs.clone())
            .unwrap_or_else(|e| panic!("step {n}: {e}"));
        assert_eq!(bench.rtl_outputs(), *want, "after step {n}: {inputs:?}");
    }
}

/// Nested if/else on a 4-thread warp:
/// ```text
///          A (0x00, 1111)
///         /            \
///   B (0x10, 0011)    F (0x50, 1100)
///    /       \            |
/// C 0x20   D 0x30        |        C: thread 0, D: thread 1
///  (0001)  (0010)        |
///    \       /            |
///   E (0x40, 0011)       |
///         \            /
///          G (0x60, 1111)
/// ```
#[test]
fn nested_if_else_walk() {
    const A: u64 = 0x00;
    const B: u64 = 0x10;
    const C: u64 = 0x20;
    const D: u64 = 0x30;
    const E: u64 = 0x40;
    const F: u64 = 0x50;
    const G: u64 = 0x60;
    let mut bench = DivergenceStackBench::<4, 8, 32, 4>::default();
    walk(
        &mut bench,
        &[
            (reset(), state(0, 0, 0, 0, false)),
            (init(0b1111, A), state(A, 0b1111, 0, 1, false)),
            (advance(A + 4), state(A + 4, 0b1111, 0, 1, false)),
            // Threads 0,1 take the branch to B; 2,3 fall through to F; both meet at G.
            (branch(0b0011, B, F, G), state(B, 0b0011, G, 3, false)),
            // Inside B: thread 0 to C, thread 1 to D, reconverging at E.
            (branch(0b0001, C, D, E), state(C, 0b0001, E, 5, false)),
            (advance(C + 4), state(C + 4, 0b0001, E, 5, false)),
            // C reaches E: pop to D.
            (advance(E), state(D, 0b0010, E, 4, false)),
            // D reaches E: pop to the join entry of the inner branch, at E.
            (advance(E), state(E, 0b0011, G, 3, false)),
            // E reaches G: pop to the not-taken path of the outer branch, F.
            (advance(G), state(F, 0b1100, G, 2, false)),
            // A uniform branch in F (both threads taken): only the PC changes.
            (
                branch(0b1100, F + 8, F + 4, G),
                state(F + 8, 0b1100, G, 2, false),
            ),
            // F reaches G: all four threads reconverge.
            (advance(G), state(G, 0b1111, 0, 1, false)),
        ],
    );
}

/// The LWM paper's Figure 3 shape (if/else, §2.3) and an if-without-else whose
/// not-taken path is the reconvergence PC itself: only the then-path is pushed.
#[test]
fn if_without_else_pushes_only_the_then_path() {
    let mut bench = DivergenceStackBench::<4, 8, 32, 4>::default();
    walk(
        &mut bench,
        &[
            (reset(), state(0, 0, 0, 0, false)),
            (init(0b1111, 0x100), state(0x100, 0b1111, 0, 1, false)),
            // Figure 3: threads 0 and 3 go to B, 1 and 2 to C, all meet at D.
            (
                branch(0b1001, 0x200, 0x300, 0x400),
                state(0x200, 0b1001, 0x400, 3, false),
            ),
            (advance(0x400), state(0x300, 0b0110, 0x400, 2, false)),
            (advance(0x400), state(0x400, 0b1111, 0, 1, false)),
            // if-without-else: the not-taken path is the join point itself; its
            // threads wait in the join entry.
            (
                branch(0b0100, 0x500, 0x600, 0x600),
                state(0x500, 0b0100, 0x600, 2, false),
            ),
            (advance(0x600), state(0x600, 0b1111, 0, 1, false)),
            // A divergent branch whose taken path is empty (taken_pc == reconv):
            // only the not-taken path is pushed and runs.
            (
                branch(0b0011, 0x700, 0x680, 0x700),
                state(0x680, 0b1100, 0x700, 2, false),
            ),
            // Branch and advance together: the branch wins (uniform, not taken).
            (
                Inputs {
                    advance: true,
                    next_pc: 0x700,
                    ..branch(0b0011, 0x6a0, 0x690, 0x700)
                },
                state(0x690, 0b1100, 0x700, 2, false),
            ),
            (advance(0x700), state(0x700, 0b1111, 0, 1, false)),
        ],
    );
}

#[test]
fn overflow_is_sticky_and_changes_nothing() {
    let mut bench = DivergenceStackBench::<4, 3, 8, 2>::default();
    walk(
        &mut bench,
        &[
            (reset(), state(0, 0, 0, 0, false)),
            (init(0b1111, 0x10), state(0x10, 0b1111, 0, 1, false)),
            (
                branch(0b0011, 0x20, 0x30, 0x40),
                state(0x20, 0b0011, 0x40, 3, false),
            ),
            // A nested divergent branch needs two more entries: overflow, nothing else.
            (
                branch(0b0001, 0x24, 0x28, 0x2c),
                state(0x20, 0b0011, 0x40, 3, true),
            ),
            // Uniform branches and pops still work; the flag stays.
            (
                branch(0b0011, 0x24, 0x28, 0x2c),
                state(0x24, 0b0011, 0x40, 3, true),
            ),
            (advance(0x40), state(0x30, 0b1100, 0x40, 2, true)),
            // Depth 2 of 3: still no room for two entries.
            (
                branch(0b0100, 0x34, 0x38, 0x3c),
                state(0x30, 0b1100, 0x40, 2, true),
            ),
            (advance(0x40), state(0x40, 0b1111, 0, 1, true)),
            // A new warp does not clear the flag; only reset does.
            (init(0b0101, 0x80), state(0x80, 0b0101, 0, 1, true)),
            (
                branch(0b0001, 0x84, 0x88, 0x8c),
                state(0x84, 0b0001, 0x8c, 3, true),
            ),
            (reset(), state(0, 0, 0, 0, false)),
            // Before init, branches and advances are ignored.
            (branch(0b1111, 1, 2, 3), state(0, 0, 0, 0, false)),
            (advance(5), state(0, 0, 0, 0, false)),
        ],
    );
    // Depth 1 and 2 hold no pair of entries: every divergent branch overflows.
    let mut one = DivergenceStackBench::<2, 1, 8, 1>::default();
    walk(
        &mut one,
        &[
            (reset(), state(0, 0, 0, 0, false)),
            (init(0b11, 0x10), state(0x10, 0b11, 0, 1, false)),
            (
                branch(0b01, 0x20, 0x30, 0x40),
                state(0x10, 0b11, 0, 1, true),
            ),
            (
                branch(0b11, 0x20, 0x30, 0x40),
                state(0x20, 0b11, 0, 1, true),
            ),
        ],
    );
    // Depth 2: an if-without-else needs one entry and fits; an if/else does not.
    let mut two = DivergenceStackBench::<2, 2, 8, 2>::default();
    walk(
        &mut two,
        &[
            (reset(), state(0, 0, 0, 0, false)),
            (init(0b11, 0x10), state(0x10, 0b11, 0, 1, false)),
            (
                branch(0b10, 0x20, 0x40, 0x40),
                state(0x20, 0b10, 0x40, 2, false),
            ),
            (advance(0x40), state(0x40, 0b11, 0, 1, false)),
            (
                branch(0b10, 0x20, 0x30, 0x40),
                state(0x40, 0b11, 0, 1, true),
            ),
        ],
    );
    // Full (3 of 3): a branch reconverging where the top does replaces it; two paths
    // then need one more entry and overflow, one path fits.
    let mut full = DivergenceStackBench::<4, 3, 8, 2>::default();
    walk(
        &mut full,
        &[
            (reset(), state(0, 0, 0, 0, false)),
            (init(0b1111, 0x10), state(0x10, 0b1111, 0, 1, false)),
            (
                branch(0b0111, 0x20, 0x30, 0x40),
                state(0x20, 0b0111, 0x40, 3, false),
            ),
            (
                branch(0b0011, 0x24, 0x28, 0x40),
                state(0x20, 0b0111, 0x40, 3, true),
            ),
            (
                branch(0b0011, 0x24, 0x40, 0x40),
                state(0x24, 0b0011, 0x40, 3, true),
            ),
            (advance(0x40), state(0x30, 0b1000, 0x40, 2, true)),
            (advance(0x40), state(0x40, 0b1111, 0, 1, true)),
        ],
    );
}

/// A loop with data-dependent trip counts on a 32-thread warp: the shortcut Collatz
/// step of thread `t` starting from `n = t + 1`, counted until `n == 1`.
/// ```text
/// 0x100  if (n == 1) goto EXIT          rpc EXIT
/// 0x104  if (n even) goto 0x10c         rpc 0x10c (if-without-else)
/// 0x108  n = 3n + 1
/// 0x10c  n = n / 2; steps++
/// 0x110  if (n != 1) goto 0x104         rpc EXIT (the back branch)
/// 0x114  EXIT
/// ```
/// Model and RTL agree every cycle; the stack never holds more than the base, the loop
/// and the odd threads' path, though threads leave the loop at many iterations (one
/// entry each without SPEC §2.4's refinements); every thread reconverges at the exit
/// with its own trip count.
#[test]
fn a_collatz_loop_stays_within_three_entries() {
    const CHECK: u64 = 0x100;
    const ODD_EVEN: u64 = 0x104;
    const ODD: u64 = 0x108;
    const HALVE: u64 = 0x10c;
    const BACK: u64 = 0x110;
    const EXIT: u64 = 0x114;
    const ALL: u64 = 0xffff_ffff;
    let mut n: Vec<u64> = (1..=32).collect();
    let mut steps = [0u32; 32];
    let select = |mask: u64, f: &dyn Fn(usize) -> bool| -> u64 {
        (0..32)
            .filter(|&t| mask >> t & 1 == 1 && f(t))
            .map(|t| 1 << t)
            .sum()
    };
    let mut bench = DivergenceStackBench::<32, 8, 32, 4>::default();
    bench.step(reset()).unwrap();
    bench.step(init(ALL, CHECK)).unwrap();
    let mut max_depth = 0;
    let mut cycles = 0;
    loop {
        let now = bench.rtl_outputs();
        assert_eq!(now, bench.model.outputs(), "cycle {cycles}");
        max_depth = max_depth.max(now.depth);
        assert!(now.depth <= 3, "cycle {cycles}: {now:?}");
        let m = now.mask;
        let inputs = match now.pc {
            CHECK => branch(select(m, &|t| n[t] == 1), EXIT, ODD_EVEN, EXIT),
            ODD_EVEN => branch(select(m, &|t| n[t].is_multiple_of(2)), HALVE, ODD, HALVE),
            ODD => {
                (0..32)
                    .filter(|t| m >> t & 1 == 1)
                    .for_each(|t| n[t] = 3 * n[t] + 1);
                advance(HALVE)
            }
            HALVE => {
                for t in (0..32).filter(|t| m >> t & 1 == 1) {
                    n[t] /= 2;
                    steps[t] += 1;
                }
                advance(BACK)
            }
            BACK => branch(select(m, &|t| n[t] != 1), ODD_EVEN, EXIT, EXIT),
            EXIT => break,
            pc => panic!("cycle {cycles}: the warp is at {pc:#x}"),
        };
        bench
            .step(inputs)
            .unwrap_or_else(|e| panic!("cycle {cycles}: {e}"));
        cycles += 1;
        assert!(cycles < 10_000, "the loop does not end");
    }
    assert_eq!(
        bench.rtl_outputs(),
        state(EXIT, ALL, 0, 1, false),
        "every thread reconverges at the exit"
    );
    assert_eq!(max_depth, 3, "the odd path nests inside the loop");
    // The trip counts the loop ran (27 takes 70 steps), and how many distinct ones.
    for (t, &s) in steps.iter().enumerate() {
        let (mut k, mut m) = (0, t as u64 + 1);
        while m != 1 {
            m = if m % 2 == 1 { 3 * m + 1 } else { m } / 2;
            k += 1;
        }
        assert_eq!(s, k, "thread {t}");
        assert_eq!(n[t], 1, "thread {t}");
    }
    let mut distinct = steps.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(distinct.len() > 8, "trip counts {distinct:?}");
}

#[test]
fn verilator_lint_clean() {
    assert_lints_clean("divergence_stack", &verilog_of::<DivergenceStack32>());
    assert_lints_clean("divergence_stack_4", &verilog_of::<DivergenceStack4>());
    assert_lints_clean("divergence_stack_4x3", &verilog_of::<DivergenceStack4x3>());
    assert_lints_clean(
        "divergence_stack_1x1",
        &verilog_of::<DivergenceStack<1, 1, 8, 1>>(),
    );
    assert_lints_clean(
        "divergence_stack_2x2",
        &verilog_of::<DivergenceStack<2, 2, 8, 2>>(),
    );
    assert_lints_clean(
        "divergence_stack_5x8",
        &verilog_of::<DivergenceStack<5, 8, 32, 4>>(),
    );
}
