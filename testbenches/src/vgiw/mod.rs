//! Benches of the VGIW control blocks (SPEC §5).
use crate::presets::{verilog_of, Preset};
use weft_hdl::presets::{Cvt8x256, CvuInitiator64, CvuTerminator64, VgiwControl8x256};

pub mod cvt;
pub mod cvu_initiator;
pub mod cvu_terminator;
pub mod vgiw_control;

/// The paper-size `Cvt32x1024` and `VgiwControl32x1024` are not registered: measured
/// on this machine, `weft area` (Yosys maps the 32 Kbit table to flip-flops) takes
/// 69 s of CPU for the table alone and the control top replays at ~2 500 cycles/s
/// under Icarus, over CI's budget. They are tested in `tests/cvt.rs` and
/// `tests/vgiw_control.rs` (equivalence, contracts, lint).
pub fn presets() -> Vec<Preset> {
    vec![
        Preset {
            name: "cvu_initiator",
            summary: "VGIW CVU thread initiator, 64-thread batches, double-buffered (VGIW §2, §3.5)",
            params: &[("BATCH", 64), ("ID_BITS", 16)],
            verilog: verilog_of::<CvuInitiator64>,
            bench: || Box::new(cvu_initiator::CvuInitiatorBench::default()),
        },
        Preset {
            name: "cvu_terminator",
            summary: "VGIW CVU thread terminator, two batches per target, 320 bits (VGIW §3.5)",
            params: &[("BATCH", 64), ("ID_BITS", 16), ("TARGETS", 2)],
            verilog: verilog_of::<CvuTerminator64>,
            bench: || Box::new(cvu_terminator::CvuTerminatorBench::default()),
        },
        Preset {
            name: "cvt_8x256",
            summary: "VGIW control vector table, 8 blocks x 256 threads, 8 banks (VGIW §3.3)",
            params: &[("BLOCKS", 8), ("THREADS", 256), ("BANKS", 8)],
            verilog: verilog_of::<Cvt8x256>,
            bench: || Box::new(cvt::CvtBench::<8, 4, 8, 3, 2, 5, 3, 2>::default()),
        },
        Preset {
            name: "vgiw_control_8x256",
            summary: "VGIW control: BBS + CVT + CVUs around a fabric port, 8 blocks x 256 threads (VGIW §2, §3.2-3.5)",
            params: &[
                ("BLOCKS", 8),
                ("THREADS", 256),
                ("BANKS", 8),
                ("CFG_BITS", 32),
                ("RECONF", 34),
            ],
            verilog: verilog_of::<VgiwControl8x256>,
            bench: || {
                Box::new(vgiw_control::VgiwControlBench::<8, 4, 8, 3, 2, 5, 3, 2, 32, 34>::default())
            },
        },
    ]
}
