//! Sub-warp unit: model-vs-RTL equivalence over several sizes, contracts, and the
//! paper's Figure 7 scenario.
use weft_testbenches::lwm::sub_warp_unit::SubWarpUnitBench;
use weft_testbenches::run::{run, Outputs};

fn equivalence<const L: usize, const R: usize, const N: usize, const RW: usize, const GW: usize>(
    cycles: u64,
    seed: u64,
) {
    let mut bench = SubWarpUnitBench::<L, R, N, RW, GW>::default();
    if let Err(e) = run(&mut bench, cycles, seed, Outputs::default()) {
        panic!("{L}x{R} seed {seed}: {e}");
    }
}

#[test]
fn equivalence_smoke() {
    equivalence::<4, 8, 32, 3, 12>(20_000, 1);
    equivalence::<32, 8, 256, 3, 96>(20_000, 2);
}
