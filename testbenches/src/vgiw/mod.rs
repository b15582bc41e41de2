//! Benches of the VGIW control blocks (SPEC §5).
use crate::presets::Preset;
use weft_hdl::presets::{
    Bbs32x1024, Cvt32x1024, Cvt8x256, CvuInitiator64, CvuTerminator64, FabricLoader1k,
    LiveValuePort7x8, Lvc4k, Lvc64k, VgiwControl32x1024, VgiwControl8x256, VgiwCore4,
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
        Preset::of::<CvuInitiator64>(
"cvu_initiator",
"VGIW CVU thread initiator, 64-thread batches, double-buffered (VGIW §2, §3.5)",
),
        Preset::of::<CvuTerminator64>(
"cvu_terminator",
"VGIW CVU thread terminator, two batches per target, 320 bits (VGIW §3.5)",
),
        Preset::of::<Cvt8x256>(
"cvt_8x256",
"VGIW control vector table, 8 blocks x 256 threads, 8 banks (VGIW §3.3)",
),
        Preset::of::<Cvt32x1024>(
"cvt",
"VGIW control vector table, 32 blocks x 1024 threads, 8 banks (VGIW §3.3)",
),
        Preset::of::<Bbs32x1024>(
"bbs",
"VGIW basic block scheduler, 32 blocks x 1024 threads, 34-cycle reconfiguration (VGIW §3.2-3.4)",
),
        Preset::of::<VgiwControl8x256>(
"vgiw_control_8x256",
"VGIW control: BBS + CVT + CVUs around a fabric port, 8 blocks x 256 threads (VGIW §2, §3.2-3.5)",
),
        Preset::of::<VgiwControl32x1024>(
"vgiw_control",
"VGIW control: BBS + CVT + CVUs around a fabric port, 32 blocks x 1024 threads (VGIW §2, §3.2-3.5)",
),
        Preset::of::<Lvc4k>(
"lvc_4k",
"VGIW live value cache, 4 KB: 4 banks x 64 lines x 4 words, write-back (VGIW §3.4)",
),
        Preset::of::<Lvc64k>(
"lvc",
"VGIW live value cache, the paper's 64 KB: 8 banks x 512 lines x 4 words (VGIW §3.4)",
),
        Preset::of::<LiveValuePort7x8>(
"live_value_port",
"VGIW live value port: the fabric's two live value units onto one LVC port, 128 live values x 256 threads (VGIW §3.4, §3.5)",
),
        Preset::of::<FabricLoader1k>(
"fabric_loader",
"VGIW fabric loader: per-block fabric configuration programs (1 024 x 64-bit commands) played into the fabric's unit and route ports (VGIW §2, §3.5)",
),
        Preset::of::<VgiwCore4>(
"vgiw_core",
"VGIW core: control (8 blocks x 256 threads) + fabric loader + 4 x 4 MT-CGRF fabric + live value cache, runs whole kernels (VGIW §2, §3)",
),
    ]
}
