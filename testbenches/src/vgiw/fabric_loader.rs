//! Fabric loader bench: RTL vs model every cycle. The host first writes every word
//! (a RAM's content is undefined until written, and Verilog reads it as X), then writes
//! random commands
//! (mostly unit writes and route shifts, some END, rarely an invalid one) at random
//! addresses, a few near the RAM's end; `start` pulses at random addresses, also while
//! a program plays (it must be ignored then). Contracts: strobes only while busy, at
//! most one kind of strobe per cycle, route fields quiet without a shift.
use crate::bench::{contract, expect, Bench, Mismatch};
use crate::convert::small;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use weft_hdl::vgiw::fabric_loader::FabricLoader;
use weft_sim::cgrf::fabric::UnitConfig;
use weft_sim::vgiw::fabric_loader::{
    encode_end, encode_route, encode_unit, FabricLoader as Model, LoaderIn, Strobe,
};

pub struct FabricLoaderBench<const CAW: usize> {
    pub uut: FabricLoader<CAW>,
    pub model: Model,
    pub inputs: LoaderIn,
    /// Percent of cycles with a host write / a start pulse; per mille of invalid commands.
    pub write_percent: u32,
    pub start_percent: u32,
    pub invalid_per_mille: u32,
    pub strobes: u64,
    pub programs_ended: u64,
    /// Words written by the initial fill so far.
    filled: usize,
}

impl<const CAW: usize> crate::presets::Tested for FabricLoader<CAW> {
    fn params() -> Vec<(&'static str, usize)> {
        vec![("COMMANDS", 1 << CAW), ("COMMAND_BITS", 64)]
    }
    fn bench() -> Box<dyn Bench> {
        Box::new(FabricLoaderBench::<CAW>::default())
    }
}

impl<const CAW: usize> Default for FabricLoaderBench<CAW> {
    fn default() -> Self {
        let mut uut = FabricLoader::default();
        uut.connect_all();
        Self {
            uut,
            model: Model::new(CAW as u32),
            inputs: LoaderIn::default(),
            write_percent: 60,
            start_percent: 10,
            invalid_per_mille: 5,
            strobes: 0,
            programs_ended: 0,
            filled: 0,
        }
    }
}

impl<const CAW: usize> FabricLoaderBench<CAW> {
    fn apply(&mut self, i: LoaderIn) {
        let u = &mut self.uut;
        u.reset.next = i.reset;
        let (a, cmd) = i.write.unwrap_or((0, 0));
        u.prog_write.next = i.write.is_some();
        u.prog_addr.next = (a as u64).into();
        u.prog_data.next = cmd.into();
        u.start.next = i.start.is_some();
        u.start_addr.next = (i.start.unwrap_or(0) as u64).into();
        self.inputs = i;
    }

    fn address(rng: &mut ChaCha8Rng) -> usize {
        let words = 1usize << CAW;
        // Mostly a small region (programs run into written words), sometimes the end.
        if rng.gen_ratio(1, 10) {
            words - 1 - rng.gen_range(0..words.min(8))
        } else {
            rng.gen_range(0..words.min(64))
        }
    }

    fn command(&self, rng: &mut ChaCha8Rng) -> u64 {
        if rng.gen_ratio(self.invalid_per_mille, 1000) {
            // Kind 3, or a route shift with a reserved bit (61:44) set.
            return if rng.gen_bool(0.5) {
                3 << 62 | rng.gen_range(0..1u64 << 62)
            } else {
                encode_route([(true, 1); 4]) | 1 << rng.gen_range(44..62)
            };
        }
        match rng.gen_range(0..10) {
            0..=3 => encode_unit(
                rng.gen(),
                &UnitConfig {
                    opcode: rng.gen(),
                    imm_en: rng.gen(),
                    imm: rng.gen(),
                    store: rng.gen(),
                    indexed: rng.gen(),
                },
            ),
            4..=7 => encode_route([0; 4].map(|_: u8| (rng.gen(), rng.gen_range(0..16)))),
            _ => encode_end(rng.gen_range(1..=2)),
        }
    }
}

/// The unit configuration write the loader drives this cycle, if any.
pub fn unit_write<const CAW: usize>(u: &FabricLoader<CAW>) -> Option<(u8, UnitConfig)> {
    u.cfg_unit_valid.val().then(|| {
        (
            small(u.cfg_unit_id.val()) as u8,
            UnitConfig {
                opcode: small(u.cfg_opcode.val()) as u8,
                imm_en: u.cfg_imm_en.val(),
                imm: small(u.cfg_imm.val()) as u32,
                store: u.cfg_store.val(),
                indexed: u.cfg_indexed.val(),
            },
        )
    })
}

impl<const CAW: usize> Bench for FabricLoaderBench<CAW> {
    crate::bench_rtl_access!(clocked);

    fn drive(&mut self, cycle: u64, rng: &mut ChaCha8Rng) {
        let reset = cycle == 0 || rng.gen_ratio(1, 3000);
        let (write, start) = if self.filled < 1 << CAW {
            self.filled += 1;
            (Some((self.filled - 1, self.command(rng))), None)
        } else {
            let write = rng
                .gen_ratio(self.write_percent, 100)
                .then(|| (Self::address(rng), self.command(rng)));
            let start = rng
                .gen_ratio(self.start_percent, 100)
                .then(|| Self::address(rng));
            (write, start)
        };
        self.apply(LoaderIn {
            reset,
            write,
            start,
        });
    }

    fn check(&mut self) -> Result<(), Mismatch> {
        let want = self.model.outputs();
        let u = &self.uut;
        expect("busy", want.busy, u.busy.val())?;
        expect("replicas2", want.replicas2, u.replicas2.val())?;
        expect("prog_error", want.prog_error, u.prog_error.val())?;
        let unit = unit_write(u);
        let rows =
            [0, 1, 2, 3].map(|r| (u.route_in_en[r].val(), small(u.route_in_sel[r].val()) as u8));
        let got = match (unit, u.route_shift.val()) {
            (Some((id, c)), false) => Strobe::Unit(id, c),
            (None, true) => Strobe::Route(rows),
            (None, false) => Strobe::None,
            (Some(_), true) => {
                return contract("one strobe per cycle", false, || {
                    "unit write and route shift together".into()
                })
            }
        };
        expect("strobe", want.strobe, got)?;
        if !u.route_shift.val() {
            contract(
                "route fields are 0 without a shift",
                rows == [(false, 0); 4],
                || format!("{rows:?}"),
            )?;
        }
        contract(
            "strobes only while busy",
            u.busy.val() || got == Strobe::None,
            || format!("{got:?} while idle"),
        )?;
        Ok(())
    }

    fn tick(&mut self) -> Result<(), Mismatch> {
        let i = self.inputs;
        let before = self.model.outputs();
        self.model.clock(&i);
        if before.strobe != Strobe::None {
            self.strobes += 1;
        }
        if before.busy && !self.model.outputs().busy {
            self.programs_ended += 1;
        }
        Ok(())
    }
}
