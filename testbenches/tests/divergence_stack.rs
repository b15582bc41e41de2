//! Divergence stack (SPEC §2.4): model-vs-RTL equivalence over several sizes with the
//! bench's contracts, the paper's nested if/else walk (`lwm-two-level-scheduling.txt`
//! §2.3 Figure 3, `capri-compaction-adequacy.txt` §2.1 Figure 1 style), overflow, and
//! the Verilator lint gate.
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
    let mut before = 0;
    for cycle in 0..20_000 {
        use weft_testbenches::bench::{settle, Bench};
        bench.set_clock(false);
        bench.drive(cycle, &mut rng);
        settle(bench.block_mut()).unwrap();
        bench.check().unwrap();
        let now = bench.rtl_outputs();
        max_depth = max_depth.max(now.depth);
        overflows += usize::from(now.overflow);
        if now.depth + 1 < before {
            pops += 1; // more than one entry popped on one edge
        }
        before = now.depth;
        bench.set_clock(true);
        settle(bench.block_mut()).unwrap();
        bench.tick().unwrap();
    }
    assert_eq!(max_depth, 8, "the stack should fill up");
    assert!(overflows > 0, "overflow should be reached");
    assert!(pops > 0, "multi-level pops should happen");
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
/// not-taken entry already sits at the reconvergence PC: one edge pops both entries.
#[test]
fn if_without_else_pops_two_levels_at_once() {
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
            // if-without-else: the not-taken path is the join point itself.
            (
                branch(0b0100, 0x500, 0x600, 0x600),
                state(0x500, 0b0100, 0x600, 3, false),
            ),
            (advance(0x600), state(0x600, 0b1111, 0, 1, false)),
            // A divergent branch whose taken path is empty (taken_pc == reconv):
            // the taken entry pops on the push edge, the not-taken path runs.
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
    let mut two = DivergenceStackBench::<2, 2, 8, 2>::default();
    walk(
        &mut two,
        &[
            (reset(), state(0, 0, 0, 0, false)),
            (init(0b11, 0x10), state(0x10, 0b11, 0, 1, false)),
            (
                branch(0b10, 0x20, 0x30, 0x40),
                state(0x10, 0b11, 0, 1, true),
            ),
        ],
    );
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
