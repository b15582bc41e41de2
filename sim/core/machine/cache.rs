//! The caches' section: one configuration type for the L1 and the L2, and what only the
//! L1 has (its lookup ports, miss status holding registers and banks).
use super::keys::Keys;

/// A set-associative cache of `line`-byte lines.
#[derive(Clone, Debug, PartialEq)]
pub struct Cache {
    /// Size in KiB; 0: no such cache (an L2 only).
    pub kb: u32,
    pub ways: u32,
    /// Line size in bytes (the L2's is the L1's).
    pub line: u32,
    /// Hit latency in cycles.
    pub latency: u32,
}

impl Cache {
    /// Whether the machine has this cache.
    pub fn present(&self) -> bool {
        self.kb > 0
    }

    /// Refuses a cache (called `name`: `l1`, `l2`) whose lines do not make whole sets.
    fn check(&self, name: &str) -> Result<(), String> {
        let lines = u64::from(self.kb) * 1024 / u64::from(self.line);
        if self.present() && (lines == 0 || !lines.is_multiple_of(u64::from(self.ways))) {
            return Err(format!(
                "{name}_kb = {} with {name}_ways = {} and lines of {} bytes: the lines do not make whole sets",
                self.kb, self.ways, self.line
            ));
        }
        Ok(())
    }
}

/// The L2 shared by the cores.
#[derive(Clone, Debug, PartialEq)]
pub struct L2 {
    pub cache: Cache,
    /// Write-back with write allocation (GPGPU-Sim 3.x's); false: writes pass through
    /// to DRAM.
    pub write_allocate: bool,
}

/// The L1 data cache of a core.
#[derive(Clone, Debug, PartialEq)]
pub struct L1 {
    pub cache: Cache,
    /// Distinct lines looked up per cycle (the SIMT core's coalescer).
    pub ports: u32,
    /// Miss status holding registers (distinct lines in flight), and requests merged
    /// into one at most.
    pub mshrs: u32,
    pub mshr_merge: u32,
    /// Stores that hit (or meet a line being fetched) stay in the L1 as dirty lines; a
    /// store miss writes through without allocating (the SIMT core's stores).
    pub write_back: bool,
    /// Banks of 4-byte words (the VGIW engine's L1).
    pub banks: u32,
}

impl L1 {
    /// The L1 and the L2 of `k`, refused when they cannot work.
    pub fn of(k: &Keys) -> Result<(L1, L2), String> {
        let l1 = L1 {
            cache: Cache {
                kb: k.l1_kb,
                ways: k.l1_ways,
                line: k.l1_line,
                latency: k.l1_latency,
            },
            ports: k.l1_ports,
            mshrs: k.l1_mshrs,
            mshr_merge: k.l1_mshr_merge,
            write_back: k.l1_write_back,
            banks: k.l1_banks,
        };
        let l2 = Cache {
            kb: k.l2_kb,
            ways: k.l2_ways,
            line: k.l1_line,
            latency: k.l2_latency,
        };
        super::at_least_1(&[
            ("l1_kb", l1.cache.kb),
            ("l1_ways", l1.cache.ways),
            ("l1_line", l1.cache.line),
            ("l1_latency", l1.cache.latency),
            ("l1_ports", l1.ports),
            ("l1_mshrs", l1.mshrs),
            ("l1_mshr_merge", l1.mshr_merge),
            ("l1_banks", l1.banks),
            ("l2_ways", l2.ways),
            ("l2_latency", l2.latency),
        ])?;
        super::power_of_two("l1_line", l1.cache.line)?;
        l1.cache.check("l1")?;
        l2.check("l2")?;
        let l2 = L2 {
            cache: l2,
            write_allocate: k.l2_write_allocate,
        };
        Ok((l1, l2))
    }
}
