//! The DRAM's section: channels, banks, rows and the bandwidth the cores share.
use super::keys::{DramScheduler, Keys};

/// The DRAM behind the caches.
#[derive(Clone, Debug, PartialEq)]
pub struct Dram {
    pub channels: u32,
    /// Banks over all channels.
    pub banks: u32,
    /// Requests waiting per channel at most; 0: unbounded.
    pub queue: u32,
    pub row_bytes: u32,
    /// Cycles of a request that finds its row open, and of one that must switch rows.
    pub row_hit: u32,
    pub row_conflict: u32,
    pub scheduler: DramScheduler,
    /// Bandwidth in GB/s (10^9 bytes per second).
    pub gbps: f64,
}

impl Dram {
    /// The section of `k` (lines of `line` bytes), refused when it cannot work.
    pub fn of(k: &Keys, line: u32) -> Result<Dram, String> {
        let d = Dram {
            channels: k.dram_channels,
            banks: k.dram_banks,
            queue: k.dram_queue,
            row_bytes: k.dram_row_bytes,
            row_hit: k.dram_row_hit,
            row_conflict: k.dram_row_conflict,
            scheduler: k.dram_scheduler,
            gbps: k.dram_gbps,
        };
        super::at_least_1(&[
            ("dram_channels", d.channels),
            ("dram_banks", d.banks),
            ("dram_row_bytes", d.row_bytes),
            ("dram_row_hit", d.row_hit),
            ("dram_row_conflict", d.row_conflict),
        ])?;
        super::power_of_two("dram_row_bytes", d.row_bytes)?;
        if d.row_bytes < line {
            return Err(format!(
                "dram_row_bytes = {} is smaller than a line (l1_line = {line})",
                d.row_bytes
            ));
        }
        if !d.banks.is_multiple_of(d.channels) {
            return Err(format!(
                "dram_banks = {} is not a multiple of dram_channels = {}: every channel has as many banks",
                d.banks, d.channels
            ));
        }
        if d.row_conflict < d.row_hit {
            return Err(format!(
                "dram_row_conflict = {} is shorter than dram_row_hit = {}",
                d.row_conflict, d.row_hit
            ));
        }
        super::positive("dram_gbps", d.gbps)?;
        Ok(d)
    }
}
