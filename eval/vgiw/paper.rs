//! The VGIW paper's numbers the study sets weft's beside (Voitsechov and Etsion,
//! "Control flow coalescing on a hybrid dataflow/von Neumann GPGPU", MICRO 2015).
//! Figures 3, 7, 9 and 10 are images: the text gives their averages and ranges only.

/// A kernel of `kernels/vgiw/` and the Rodinia kernel of Table 2 it is.
pub struct Kernel {
    /// weft's file stem.
    pub name: &'static str,
    /// Table 2's application and kernel.
    pub application: &'static str,
    pub kernel: &'static str,
    /// Table 2's basic blocks.
    pub blocks: u32,
}

/// weft's kernels in Table 2's order (all its 21).
pub const KERNELS: [Kernel; 21] = [
    Kernel {
        name: "bfs",
        application: "BFS",
        kernel: "Kernel",
        blocks: 8,
    },
    Kernel {
        name: "bfs2",
        application: "BFS",
        kernel: "Kernel2",
        blocks: 3,
    },
    Kernel {
        name: "kmeans_invert",
        application: "KMEANS",
        kernel: "invert_mapping",
        blocks: 3,
    },
    Kernel {
        name: "cfd_step_factor",
        application: "CFD",
        kernel: "compute_step_factor",
        blocks: 2,
    },
    Kernel {
        name: "cfd_copy",
        application: "CFD",
        kernel: "initialize_variables",
        blocks: 1,
    },
    Kernel {
        name: "cfd_time_step",
        application: "CFD",
        kernel: "time_step",
        blocks: 1,
    },
    Kernel {
        name: "cfd_flux",
        application: "CFD",
        kernel: "compute_flux",
        blocks: 12,
    },
    Kernel {
        name: "lud_internal",
        application: "LUD",
        kernel: "lud_internal",
        blocks: 3,
    },
    Kernel {
        name: "lud_diagonal",
        application: "LUD",
        kernel: "lud_diagonal",
        blocks: 11,
    },
    Kernel {
        name: "lud_perimeter",
        application: "LUD",
        kernel: "lud_perimiter",
        blocks: 22,
    },
    Kernel {
        name: "gaussian_fan1",
        application: "GE",
        kernel: "Fan1",
        blocks: 2,
    },
    Kernel {
        name: "gaussian_fan2",
        application: "GE",
        kernel: "Fan2",
        blocks: 5,
    },
    Kernel {
        name: "hotspot",
        application: "HOTSPOT",
        kernel: "hotspot_kernel",
        blocks: 27,
    },
    Kernel {
        name: "lavamd",
        application: "LAVAMD",
        kernel: "kernel_gpu_cuda",
        blocks: 21,
    },
    Kernel {
        name: "nn",
        application: "NN",
        kernel: "euclid",
        blocks: 2,
    },
    Kernel {
        name: "pf_normalize",
        application: "PF",
        kernel: "normalize_weights_kernel",
        blocks: 5,
    },
    Kernel {
        name: "bpnn_adjust",
        application: "BPNN",
        kernel: "adjust_weights",
        blocks: 3,
    },
    Kernel {
        name: "bpnn_forward",
        application: "BPNN",
        kernel: "layerforward",
        blocks: 20,
    },
    Kernel {
        name: "nw",
        application: "NW",
        kernel: "needle_cuda_shared_1",
        blocks: 13,
    },
    Kernel {
        name: "nw2",
        application: "NW",
        kernel: "needle_cuda_shared_2",
        blocks: 13,
    },
    Kernel {
        name: "sc_compute_cost",
        application: "SM",
        kernel: "streamcluster_kernel_compute_cost",
        blocks: 6,
    },
];

/// Table 2's kernels: the paper's means are over these 21.
pub const TABLE2_KERNELS: usize = 21;

/// The kernels of the page as first published (the first row of "From weft to the
/// paper" is also given over these).
pub const PUBLISHED_KERNELS: [&str; 10] = [
    "bfs",
    "bfs2",
    "cfd_step_factor",
    "cfd_copy",
    "cfd_time_step",
    "lud_internal",
    "lud_diagonal",
    "hotspot",
    "nn",
    "nw",
];

/// Fig. 7 (§5): a VGIW core over a Fermi SM, "an average of over 3x", from 0.9x to 11x.
pub const SPEEDUP_MEAN: f64 = 3.0;
pub const SPEEDUP_RANGE: (f64, f64) = (0.9, 11.0);

/// Fig. 9 (§5): energy efficiency over a Fermi SM, 1.75x on average, 0.7x to 7x (the
/// abstract and §7 say "up to 7x", §1 "up to 4.3x").
pub const EFFICIENCY_MEAN: f64 = 1.75;
pub const EFFICIENCY_RANGE: (f64, f64) = (0.7, 7.0);

/// Fig. 3 (§2): the LVC "is accessed on average almost 10x less frequently than a GPGPU
/// register file" (one register-file access per warp-wide operand).
pub const LVC_OVER_RF: f64 = 0.1;

/// §3.2: reconfiguration "averaged at 0.18% of the runtime with a median lower than
/// 0.1%"; §2: 34 cycles each.
pub const RECONFIGURATION_SHARE: f64 = 0.0018;
pub const RECONFIGURATION_CYCLES: u32 = 34;

/// Table 1's VGIW core: (class, units).
pub const UNITS: [(&str, u32); 6] = [
    ("combined FPU-ALU", 32),
    ("special compute (SCU)", 12),
    ("live value (LVU)", 16),
    ("load/store (LDST)", 16),
    ("split/join (SJU)", 16),
    ("control vector (CVU)", 16),
];

/// VGIW's blocks as presets of the report, and what the paper says of each.
pub const COST: &[crate::cost::Block] = &[
    (
        "VGIW",
        "vgiw_core",
        "the core: 108 units, LVC, CVT, BBS; \"logic about one SM's (32 CUDA cores)\" (§4)",
    ),
    (
        "VGIW",
        "fabric",
        "the MT-CGRF: units, token buffers, switches",
    ),
    ("VGIW", "vgiw_control", "BBS and CVT"),
    ("VGIW", "bbs", "basic block scheduler (§3.1)"),
    ("VGIW", "cvt", "control vector table (§3.2)"),
    (
        "VGIW",
        "lvc",
        "live value cache: 64 KB, \"4x smaller than the register file\" (§3.4)",
    ),
    ("VGIW", "compute_unit", "combined FPU-ALU (§3.5)"),
    ("VGIW", "special_compute_unit", "SCU (§3.5)"),
    (
        "VGIW",
        "load_store_unit",
        "LDST with reservation buffer (§3.5)",
    ),
    ("VGIW", "split_join", "SJU (§3.5)"),
    ("VGIW", "cvu_initiator", "CVU as thread initiator (§3.3)"),
    ("VGIW", "cvu_terminator", "CVU as thread terminator (§3.3)"),
    ("VGIW", "token_buffer", "a unit's token buffer (§3.5)"),
    ("VGIW", "switch", "interconnect switch, 1-cycle hops (§3.5)"),
];
