//! Occupancy: how many CTAs of a kernel one core holds at once. The warp slots, the
//! `max_ctas` limit, the register file (`core_registers` over `thread_registers` per
//! thread, a CTA's threads rounded up to whole warps) and CTA-shared memory (`shared_kb`
//! over the kernel's `WEFT_SHARED` bytes) each bound it; the least bound holds (CAPRI
//! Table 1's registers and shared memory per core, as GPGPU-Sim limits concurrent CTAs).
use crate::core::machine::{Core, Machine};

/// What bounds a core's CTAs, each bound in CTAs (`None`: that resource sets none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occupancy {
    pub warp_slots: u32,
    pub max_ctas: Option<u32>,
    pub registers: Option<u32>,
    pub shared: Option<u32>,
}

impl Occupancy {
    /// The bounds for CTAs of `cta` threads whose shared variables take `shared_bytes`.
    pub fn new(machine: &Machine, cta: u32, shared_bytes: u32) -> Occupancy {
        let m = machine.core();
        let warps = cta.div_ceil(m.warp_size);
        // CTAs smaller than a warp share one (packed): the slots bound launch groups.
        let per_slot = if cta < m.warp_size && m.warp_size.is_multiple_of(cta) {
            m.warp_size / cta
        } else {
            1
        };
        let threads = warps * m.warp_size;
        Occupancy {
            warp_slots: m.warps / warps * per_slot,
            max_ctas: (m.max_ctas > 0).then_some(m.max_ctas),
            registers: (m.core_registers > 0)
                .then(|| m.core_registers / (m.thread_registers * threads).max(1)),
            shared: (m.shared_kb > 0 && shared_bytes > 0)
                .then(|| m.shared_kb * 1024 / shared_bytes),
        }
    }

    /// CTAs per core: the least bound.
    pub fn ctas(&self) -> u32 {
        [self.max_ctas, self.registers, self.shared]
            .into_iter()
            .flatten()
            .fold(self.warp_slots, u32::min)
    }

    /// Refuses a kernel of which no CTA fits a core, saying which resource is short.
    pub fn check(&self, machine: &Machine, cta: u32, shared_bytes: u32) -> Result<u32, String> {
        let m: &Core = machine.core();
        if self.registers == Some(0) {
            return Err(format!(
                "a CTA of {cta} threads at thread_registers = {} needs more than core_registers = {}",
                m.thread_registers, m.core_registers
            ));
        }
        if self.shared == Some(0) {
            return Err(format!(
                "a CTA's shared variables (WEFT_SHARED) take {shared_bytes} bytes, more than shared_kb = {}",
                m.shared_kb
            ));
        }
        Ok(self.ctas())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn capri(set: &[&str]) -> Machine {
        Machine::capri().with(set).unwrap()
    }

    #[test]
    fn the_least_bound_holds() {
        // 256 threads: 4 CTAs by the 32 warp slots of 32, 8 by max_ctas.
        let m = capri(&[]);
        let o = Occupancy::new(&m, 256, 0);
        assert_eq!((o.warp_slots, o.max_ctas, o.shared), (4, Some(8), None));
        assert_eq!(o.registers, Some(4), "16384 / (16 x 256)");
        assert_eq!(o.ctas(), 4);
        // 64 threads: 16 by slots, 8 by max_ctas; 24 registers: 16384 / 1536 = 10.
        assert_eq!(Occupancy::new(&m, 64, 0).ctas(), 8);
        let m = capri(&["thread_registers=24"]);
        assert_eq!(Occupancy::new(&m, 64, 0).registers, Some(10));
        // 128 threads at 40 registers: 16384 / 5120 = 3 CTAs.
        let m = capri(&["thread_registers=40"]);
        assert_eq!(Occupancy::new(&m, 128, 0).ctas(), 3);
        // A CTA of 100 threads takes 4 warps of registers.
        assert_eq!(Occupancy::new(&m, 100, 0).registers, Some(3));
        // 12 KB of shared variables: 2 CTAs in 32 KB.
        let m = capri(&[]);
        assert_eq!(Occupancy::new(&m, 64, 12 * 1024).ctas(), 2);
        // No limit from keys at 0.
        let m = capri(&["core_registers=0", "shared_kb=0", "max_ctas=0"]);
        assert_eq!(Occupancy::new(&m, 64, 12 * 1024).ctas(), 16);
    }

    #[test]
    fn a_cta_that_cannot_fit_is_refused_with_its_reason() {
        let m = capri(&["thread_registers=128"]);
        let err = Occupancy::new(&m, 256, 0).check(&m, 256, 0).unwrap_err();
        assert!(err.contains("core_registers"), "{err}");
        let m = capri(&[]);
        let err = Occupancy::new(&m, 64, 40_000)
            .check(&m, 64, 40_000)
            .unwrap_err();
        assert!(err.contains("shared_kb"), "{err}");
        assert_eq!(Occupancy::new(&m, 64, 1024).check(&m, 64, 1024), Ok(8));
    }
}
