//! Benches of the VGIW control blocks (SPEC §5).
use crate::presets::{verilog_of, Preset};
use weft_hdl::presets::{
    Bbs32x1024, Cvt32x1024, Cvt8x256, CvuInitiator64, CvuTerminator64, Lvc4k, Lvc64k,
    VgiwControl32x1024, VgiwControl8x256,
};

pub mod bbs;
pub mod cvt;
pub mod cvu_initiator;
pub mod cvu_terminator;
pub mod fabric_loader;
pub mod live_value_port;
pub mod lvc;
pub mod vgiw_control;
pub mod vgiw_core;

/// Every VGIW preset, paper sizes included.
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
            name: "cvt",
            summary: "VGIW control vector table, 32 blocks x 1024 threads, 8 banks (VGIW §3.3)",
            params: &[("BLOCKS", 32), ("THREADS", 1024), ("BANKS", 8)],
            verilog: verilog_of::<Cvt32x1024>,
            bench: || Box::new(cvt::CvtBench::<32, 16, 8, 5, 4, 9, 3, 6>::default()),
        },
        Preset {
            name: "bbs",
            summary: "VGIW basic block scheduler, 32 blocks x 1024 threads, 34-cycle reconfiguration (VGIW §3.2-3.4)",
            params: &[("BLOCKS", 32), ("THREADS", 1024), ("CFG_BITS", 32), ("RECONF", 34)],
            verilog: verilog_of::<Bbs32x1024>,
            bench: || Box::new(bbs::BbsBench::<32, 16, 5, 4, 32, 34>::default()),
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
        Preset {
            name: "vgiw_control",
            summary: "VGIW control: BBS + CVT + CVUs around a fabric port, 32 blocks x 1024 threads (VGIW §2, §3.2-3.5)",
            params: &[
                ("BLOCKS", 32),
                ("THREADS", 1024),
                ("BANKS", 8),
                ("CFG_BITS", 32),
                ("RECONF", 34),
            ],
            verilog: verilog_of::<VgiwControl32x1024>,
            bench: || {
                Box::new(vgiw_control::VgiwControlBench::<32, 16, 8, 5, 4, 9, 3, 6, 32, 34>::default())
            },
        },
        Preset {
            name: "lvc_4k",
            summary: "VGIW live value cache, 4 KB: 4 banks x 64 lines x 4 words, write-back (VGIW §3.4)",
            params: &[("ADDR_BITS", 15), ("BANKS", 4), ("SETS", 64), ("WORDS_PER_LINE", 4)],
            verilog: verilog_of::<Lvc4k>,
            bench: || Box::new(lvc::LvcBench::<15, 5, 10, 4, 2, 2, 4, 6, 8, 4>::default()),
        },
        Preset {
            name: "lvc",
            summary: "VGIW live value cache, the paper's 64 KB: 8 banks x 512 lines x 4 words (VGIW §3.4)",
            params: &[("ADDR_BITS", 16), ("BANKS", 8), ("SETS", 512), ("WORDS_PER_LINE", 4)],
            verilog: verilog_of::<Lvc64k>,
            bench: || Box::new(lvc::LvcBench::<16, 2, 14, 8, 3, 2, 4, 9, 11, 4>::default()),
        },
        live_value_port::preset(),
        fabric_loader::preset(),
        vgiw_core::preset(),
    ]
}
