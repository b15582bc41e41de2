//! Fabric loader (`hdl/vgiw/fabric_loader.rs`): RTL vs model every cycle over random
//! programs, starts and resets (proptest); a real block's program (the placed and routed
//! `c = a*b + k`, two replicas) played by the RTL gives exactly the fabric bench's
//! configuration sequence (its unit writes in order, then the 44 route shifts of the four
//! row chains) and `replicas2`; a program without END stops at the RAM's end with
//! `prog_error`; a model with a smaller RAM is caught; the export gate.
use proptest::prelude::*;
use rust_hdl::prelude::*;
use weft_flow::lint::assert_lints_clean;
use weft_hdl::vgiw::fabric_loader::FabricLoader;
use weft_sim::cgrf::dataflow::Dfg;
use weft_sim::cgrf::fabric::{place_and_route, UnitConfig};
use weft_sim::vgiw::fabric_loader::{encode_route, program, ROUTE_SHIFTS};
use weft_testbenches::bench::settle;
use weft_testbenches::convert::small;
use weft_testbenches::presets::verilog_of;
use weft_testbenches::run::{run, Outputs};
use weft_testbenches::vgiw::fabric_loader::{unit_write, FabricLoaderBench};

fn equivalence<const CAW: usize>(seed: u64, write: u32, start: u32, invalid: u32) {
    let mut b = FabricLoaderBench::<CAW>::default();
    b.write_percent = write;
    b.start_percent = start;
    b.invalid_per_mille = invalid;
    if let Err(e) = run(&mut b, 4_000, seed, Outputs::default()) {
        panic!("CAW {CAW}, write {write}%, start {start}%, invalid {invalid}‰, seed {seed}: {e}");
    }
    assert!(b.strobes > 0 && b.programs_ended > 0, "nothing played");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn model_and_rtl_agree(
        seed in any::<u64>(),
        small_ram in any::<bool>(),
        write in 20u32..=100,
        start in 2u32..=50,
        invalid in prop_oneof![Just(0u32), 1u32..=30],
    ) {
        if small_ram {
            equivalence::<3>(seed, write, start, invalid);
        } else {
            equivalence::<10>(seed, write, start, invalid);
        }
    }
}

/// What the loader drove in one cycle: a unit write, a route shift, or nothing.
#[derive(Debug, PartialEq)]
enum Seen {
    Unit(u8, UnitConfig),
    Route([(bool, u8); 4]),
}

/// Writes `prog` at `base`, starts it, and collects the strobes until busy falls.
fn play<const CAW: usize>(prog: &[u64], base: usize) -> (Vec<Seen>, bool, bool, usize) {
    let mut u = FabricLoader::<CAW>::default();
    u.connect_all();
    let step = |u: &mut FabricLoader<CAW>, f: &dyn Fn(&mut FabricLoader<CAW>)| {
        u.clock.next = Clock::from(false);
        u.reset.next = false;
        u.prog_write.next = false;
        u.start.next = false;
        f(u);
        settle(u).unwrap();
        let seen = if let Some((id, c)) = unit_write(u) {
            Some(Seen::Unit(id, c))
        } else if u.route_shift.val() {
            Some(Seen::Route([0, 1, 2, 3].map(|r| {
                (u.route_in_en[r].val(), small(u.route_in_sel[r].val()) as u8)
            })))
        } else {
            None
        };
        let busy = u.busy.val();
        u.clock.next = Clock::from(true);
        settle(u).unwrap();
        (seen, busy)
    };
    step(&mut u, &|u| u.reset.next = true);
    for (k, &cmd) in prog.iter().enumerate() {
        step(&mut u, &|u| {
            u.prog_write.next = true;
            u.prog_addr.next = (((base + k) % (1 << CAW)) as u64).into();
            u.prog_data.next = cmd.into();
        });
    }
    step(&mut u, &|u| {
        u.start.next = true;
        u.start_addr.next = (base as u64).into();
    });
    let mut seen = vec![];
    let mut busy_cycles = 0;
    loop {
        let (s, busy) = step(&mut u, &|_| {});
        if !busy {
            break;
        }
        busy_cycles += 1;
        seen.extend(s);
        assert!(busy_cycles <= 1 << CAW, "the loader never stops");
    }
    (seen, u.replicas2.val(), u.prog_error.val(), busy_cycles)
}

#[test]
fn a_real_block_loads_exactly_the_fabric_configuration() {
    let (config, _) = place_and_route(&Dfg::mul_add(7, 0x0000, 0x1000, 0x2000), 2).unwrap();
    let prog = program(&config, 2);
    let (seen, replicas2, error, busy) = play::<10>(&prog, 100);
    let mut want: Vec<Seen> = config
        .units
        .iter()
        .map(|(id, c)| Seen::Unit(*id, *c))
        .collect();
    let streams: Vec<_> = (0..4).map(|r| config.route_shift_stream(r)).collect();
    want.extend((0..ROUTE_SHIFTS).map(|k| Seen::Route([0, 1, 2, 3].map(|r| streams[r][k]))));
    assert_eq!(seen, want);
    assert!(replicas2 && !error);
    assert_eq!(
        busy,
        config.units.len() + ROUTE_SHIFTS + 1,
        "U + 44 + 1 busy cycles"
    );
}

#[test]
fn a_program_without_end_stops_at_the_ram_end() {
    let prog = vec![encode_route([(true, 1); 4]); 8];
    let (seen, _, error, busy) = play::<3>(&prog, 2);
    assert!(error, "prog_error after the last word");
    assert_eq!(busy, 6, "words 2..=7 played");
    assert_eq!(seen.len(), 6);
}

#[test]
fn an_invalid_command_stops_with_prog_error() {
    let prog = vec![
        encode_route([(true, 2); 4]),
        3 << 62,
        encode_route([(true, 2); 4]),
    ];
    let (seen, _, error, busy) = play::<4>(&prog, 0);
    assert!(error);
    assert_eq!((seen.len(), busy), (1, 2));
}

#[test]
fn a_model_with_a_smaller_ram_is_caught() {
    let mut b = FabricLoaderBench::<10>::default();
    b.model = weft_sim::vgiw::fabric_loader::FabricLoader::new(9);
    assert!(run(&mut b, 4_000, 3, Outputs::default()).is_err());
}

#[test]
fn other_sizes_pass_the_export_gate() {
    assert_lints_clean("fabric_loader_2", &verilog_of::<FabricLoader<2>>());
    assert_lints_clean("fabric_loader_16", &verilog_of::<FabricLoader<16>>());
}
