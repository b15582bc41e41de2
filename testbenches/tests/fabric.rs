//! The MT-CGRF fabric top end to end (VGIW §3.5; issue: a fabric that runs a basic
//! block): a dataflow graph placed and routed by `weft_sim::cgrf::fabric`, loaded
//! through the unit configuration port and the row route chains, 1 000 threads
//! streamed under random memory latency (answers in any order), every thread's result
//! and every memory word checked against the graph executed sequentially per thread.
use weft_sim::cgrf::dataflow::Dfg;
use weft_sim::cgrf::special_compute_unit::DivOp;
use weft_testbenches::cgrf::fabric::{FabricBench, Kernel};
use weft_testbenches::memory::Timing;
use weft_testbenches::run::on_big_stack;

const THREADS: u16 = 1000;

fn stream<const VCS: usize, const VB: usize>(
    kernel: Kernel,
    seed: u64,
    tune: impl FnOnce(&mut FabricBench<VCS, VB>),
) -> (FabricBench<VCS, VB>, u64) {
    let threads = kernel.tids.len();
    let mut bench = FabricBench::<VCS, VB>::new(kernel);
    tune(&mut bench);
    let cycles = bench
        .stream(threads, 200_000, seed)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(bench.finished, threads);
    assert_eq!(bench.injected, threads);
    (bench, cycles)
}

fn mul_add(replicas: usize) -> Kernel {
    Kernel::new(
        Dfg::mul_add(0x1234_5678, 0x0000, 0x1000, 0x2000),
        replicas,
        THREADS,
        5,
    )
    .expect("c = a * b + k places and routes")
}

/// (a) `c[i] = a[i] * b[i] + k`, one replica, 32 channels; (c) two replicas: the
/// throughput grows with the replica count.
#[test]
fn mul_add_one_and_two_replicas() {
    on_big_stack(|| {
        let (_, one) = stream::<32, 5>(mul_add(1), 1, |_| {});
        let (_, two) = stream::<32, 5>(mul_add(2), 1, |_| {});
        let rate = |cycles: u64| f64::from(THREADS) / cycles as f64;
        println!(
            "c = a*b + k, 1000 threads, random memory latency 1..12: one replica {one} cycles \
             ({:.3} threads/cycle), two replicas {two} cycles ({:.3} threads/cycle)",
            rate(one),
            rate(two)
        );
        assert!(
            rate(two) > 1.6 * rate(one),
            "two replicas should run close to twice as fast: {:.3} vs {:.3} threads/cycle",
            rate(two),
            rate(one)
        );
    });
}

/// With 4 channels per thread port, channels are reused hundreds of times: results
/// stay exact (the exported preset's size).
#[test]
fn mul_add_with_four_channels() {
    on_big_stack(|| {
        let (bench, cycles) = stream::<4, 2>(mul_add(2), 2, |_| {});
        println!(
            "4 channels, two replicas: {cycles} cycles for {} threads",
            bench.finished
        );
    });
}

/// (b) a block with a divide and a live value written for the next block.
#[test]
fn divide_and_live_value() {
    on_big_stack(|| {
        let kernel = Kernel::new(
            Dfg::divide_live_value(DivOp::Div, 0x0000, 0x1000, 0x3000),
            1,
            THREADS,
            9,
        )
        .expect("the divide block places and routes");
        let (_, cycles) = stream::<32, 5>(kernel, 3, |_| {});
        println!("divide + live value, 1000 threads: {cycles} cycles");
    });
}

/// When nothing stalls (memory always ready, latency 1, answers at once), each thread
/// port accepts a new thread every cycle.
#[test]
fn a_new_thread_every_cycle_when_nothing_stalls() {
    on_big_stack(|| {
        for replicas in [1, 2] {
            let (bench, cycles) = stream::<32, 5>(mul_add(replicas), 4, |b| {
                b.thread_percent = 100;
                b.memory_timing = Timing::no_stalls();
            });
            let fill = cycles - (bench.last_injection - bench.first_injection.unwrap() + 1);
            println!(
                "{replicas} replica(s), no stalls: {} threads injected in {} cycles, drained {fill} cycles later",
                THREADS,
                bench.last_injection - bench.first_injection.unwrap() + 1
            );
            assert_eq!(
                bench.last_injection - bench.first_injection.unwrap() + 1,
                (u64::from(THREADS)).div_ceil(replicas as u64),
                "one thread per cycle per thread port"
            );
        }
    });
}

/// The bench must catch a fabric that computes something else: the same routes with
/// one compute unit's opcode changed fail the golden check.
#[test]
fn a_wrong_opcode_is_caught() {
    on_big_stack(|| {
        let mut kernel = mul_add(1);
        let entry = kernel
            .config
            .units
            .iter_mut()
            .find(|(id, c)| *id < 16 && c.opcode == 2)
            .expect("the kernel configures a multiply");
        entry.1.opcode = 0; // add instead of mul
        let threads = kernel.tids.len();
        let mut bench = FabricBench::<4, 2>::new(kernel);
        let err = bench
            .stream(threads, 50_000, 1)
            .expect_err("wrong results must be caught");
        let text = err.to_string();
        assert!(
            text.contains("golden"),
            "the failure names the golden check: {text}"
        );
    });
}
