//! The VGIW engine's section: the fabric's units by class, their latencies, the threads
//! in flight, the tiles and the live value cache (docs/core.md §6).
use super::keys::{Keys, VgiwAlias, VgiwStoreDone};

/// The VGIW engine (read only with `timing = vgiw`).
#[derive(Clone, Debug, PartialEq)]
pub struct Vgiw {
    pub alu_units: u32,
    pub special_units: u32,
    pub lv_units: u32,
    pub ldst_units: u32,
    pub split_join_units: u32,
    pub cvus: u32,
    /// Cycles to configure the fabric for a block.
    pub reconfig: u32,
    pub alu_latency: u32,
    pub special_latency: u32,
    pub replica_threads: u32,
    /// Threads in a tile; 0: the control vector table's bits over the blocks.
    pub tile: u32,
    pub cvt_bits: u32,
    pub lvc_kb: u32,
    pub lvc_latency: u32,
    /// The lowering's rule for which memory accesses of a block wait for which.
    pub alias: VgiwAlias,
    /// When a store is done for its thread.
    pub store_done: VgiwStoreDone,
    /// Loads of launch values (never stored by the kernel) as configuration constants.
    pub launch_constants: bool,
}

impl Vgiw {
    /// The section of `k`, refused when it cannot work.
    pub fn of(k: &Keys) -> Result<Vgiw, String> {
        let v = Vgiw {
            alu_units: k.vgiw_alu_units,
            special_units: k.vgiw_special_units,
            lv_units: k.vgiw_lv_units,
            ldst_units: k.vgiw_ldst_units,
            split_join_units: k.vgiw_split_join_units,
            cvus: k.vgiw_cvus,
            reconfig: k.vgiw_reconfig,
            alu_latency: k.vgiw_alu_latency,
            special_latency: k.vgiw_special_latency,
            replica_threads: k.vgiw_replica_threads,
            tile: k.vgiw_tile,
            cvt_bits: k.vgiw_cvt_bits,
            lvc_kb: k.lvc_kb,
            lvc_latency: k.lvc_latency,
            alias: k.vgiw_alias,
            store_done: k.vgiw_store_done,
            launch_constants: k.vgiw_launch_constants,
        };
        super::at_least_1(&[
            ("vgiw_alu_units", v.alu_units),
            ("vgiw_special_units", v.special_units),
            ("vgiw_lv_units", v.lv_units),
            ("vgiw_ldst_units", v.ldst_units),
            ("vgiw_split_join_units", v.split_join_units),
            ("vgiw_alu_latency", v.alu_latency),
            ("vgiw_special_latency", v.special_latency),
            ("vgiw_replica_threads", v.replica_threads),
            ("vgiw_cvt_bits", v.cvt_bits),
            ("lvc_kb", v.lvc_kb),
            ("lvc_latency", v.lvc_latency),
        ])?;
        if v.cvus < 2 {
            return Err(format!(
                "vgiw_cvus = {}: a replica needs two control vector units (initiator and terminator)",
                v.cvus
            ));
        }
        Ok(v)
    }
}
