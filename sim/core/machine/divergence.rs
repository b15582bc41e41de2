//! The divergence section: the policy the `divergence` key chooses, carrying its own
//! settings, each checked by its own type. The keys of a policy not chosen stay in the
//! machine's [`Keys`] (kept and printed), unread.
use super::core::Core;
use super::keys::{CaptHistory, DomReconverge, Keys, Mechanism};

/// The chosen policy and its settings.
#[derive(Clone, Debug, PartialEq)]
pub enum Divergence {
    Pdom,
    Lwm(Lwm),
    Tbc,
    TbcPlus,
    Capri(Capt),
    Dom(Dom),
}

/// Large warps (`lwm_*` keys).
#[derive(Clone, Debug, PartialEq)]
pub struct Lwm {
    /// A global memory instruction issues one row per sub-warp.
    pub memory_opt: bool,
    /// An unconditional jump issues as one sub-warp.
    pub jump_opt: bool,
}

/// CAPRI's compaction-adequacy prediction table (`capt_*` keys).
#[derive(Clone, Debug, PartialEq)]
pub struct Capt {
    /// Entries per core; 0: one per branch of the kernel.
    pub entries: u32,
    pub history: CaptHistory,
}

/// Diverge on miss (`dom_*` keys).
#[derive(Clone, Debug, PartialEq)]
pub struct Dom {
    /// MDT entries per warp; 0: unlimited.
    pub mdt_entries: u32,
    pub reconverge: DomReconverge,
    pub max_slip: u32,
    pub slip_step: u32,
    pub adaptive: bool,
    pub period: u32,
    pub idle_max: f64,
    pub bw_min: f64,
    pub stall_min: f64,
}

impl Divergence {
    /// The policy `k` chooses with its settings, refused when it cannot run on `core`.
    pub fn of(k: &Keys, core: &Core) -> Result<Divergence, String> {
        let d = match k.divergence {
            Mechanism::Pdom => Divergence::Pdom,
            Mechanism::Lwm => Divergence::Lwm(Lwm {
                memory_opt: k.lwm_memory_opt,
                jump_opt: k.lwm_jump_opt,
            }),
            Mechanism::Tbc => Divergence::Tbc,
            Mechanism::TbcPlus => Divergence::TbcPlus,
            Mechanism::Capri => Divergence::Capri(Capt {
                entries: k.capt_entries,
                history: k.capt_history,
            }),
            Mechanism::Dom => Divergence::Dom(Dom {
                mdt_entries: k.dom_mdt_entries,
                reconverge: k.dom_reconverge,
                max_slip: k.dom_max_slip,
                slip_step: k.dom_slip_step,
                adaptive: k.dom_adaptive,
                period: k.dom_period,
                idle_max: k.dom_idle_max,
                bw_min: k.dom_bw_min,
                stall_min: k.dom_stall_min,
            }),
        };
        match &d {
            Divergence::Pdom => one_row("pdom", core)?,
            Divergence::Lwm(l) => l.check(core)?,
            Divergence::Tbc | Divergence::TbcPlus => compaction(d.name(), core)?,
            Divergence::Capri(c) => {
                compaction(d.name(), core)?;
                c.check()?
            }
            Divergence::Dom(dom) => dom.check(core)?,
        }
        Ok(d)
    }

    /// The `divergence` key's value.
    pub fn mechanism(&self) -> Mechanism {
        match self {
            Divergence::Pdom => Mechanism::Pdom,
            Divergence::Lwm(_) => Mechanism::Lwm,
            Divergence::Tbc => Mechanism::Tbc,
            Divergence::TbcPlus => Mechanism::TbcPlus,
            Divergence::Capri(_) => Mechanism::Capri,
            Divergence::Dom(_) => Mechanism::Dom,
        }
    }

    pub fn name(&self) -> &'static str {
        self.mechanism().name()
    }

    /// Whether warps are formed anew from a CTA's threads (TBC, TBC+, CAPRI).
    pub fn compacts(&self) -> bool {
        matches!(
            self,
            Divergence::Tbc | Divergence::TbcPlus | Divergence::Capri(_)
        )
    }
}

/// A policy whose warp is one row of lanes.
fn one_row(name: &str, core: &Core) -> Result<(), String> {
    if core.warp_size != core.lanes {
        return Err(format!(
            "warp_size = {} with divergence = {name}: a PDOM warp is one row of {} lanes (larger warps need divergence = lwm)",
            core.warp_size, core.lanes
        ));
    }
    Ok(())
}

/// Thread block compaction's rules (TBC, TBC+, CAPRI).
fn compaction(name: &str, core: &Core) -> Result<(), String> {
    if core.warp_size != core.lanes {
        return Err(format!(
            "warp_size = {} with divergence = {name}: a warp is one row of {} lanes",
            core.warp_size, core.lanes
        ));
    }
    if core.scoreboard {
        return Err(format!(
            "scoreboard = true with divergence = {name}: warps are formed anew from threads whose loads may be in flight; thread block compaction runs with barrel processing"
        ));
    }
    Ok(())
}

impl Lwm {
    fn check(&self, core: &Core) -> Result<(), String> {
        if core.rows() > 64 {
            return Err(format!(
                "warp_size = {}: a large warp has at most 64 rows of {} lanes",
                core.warp_size, core.lanes
            ));
        }
        Ok(())
    }
}

impl Capt {
    fn check(&self) -> Result<(), String> {
        if self.entries > 4096 {
            return Err(format!(
                "capt_entries = {}: at most 4096 (0 = one per branch of the kernel)",
                self.entries
            ));
        }
        Ok(())
    }
}

impl Dom {
    fn check(&self, core: &Core) -> Result<(), String> {
        one_row("dom", core)?;
        if core.scoreboard {
            return Err(
                "divergence = dom with scoreboard = true: diverge on miss runs on barrel processing (its paper's in-order cores); set scoreboard = false"
                    .to_string(),
            );
        }
        if self.max_slip > 255 {
            return Err(format!(
                "dom_max_slip = {}: 0..=255 (the slip counters are 8 bits)",
                self.max_slip
            ));
        }
        if !(1..=255).contains(&self.slip_step) {
            return Err(format!("dom_slip_step = {}: 1..=255", self.slip_step));
        }
        if self.mdt_entries > 64 {
            return Err(format!(
                "dom_mdt_entries = {}: 0..=64 (0 = unlimited)",
                self.mdt_entries
            ));
        }
        if self.period == 0 {
            return Err("dom_period = 0: must be at least 1".to_string());
        }
        for (key, v) in [
            ("dom_idle_max", self.idle_max),
            ("dom_bw_min", self.bw_min),
            ("dom_stall_min", self.stall_min),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return Err(format!("{key} = {v}: a share of the period, 0..=1"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::core::machine::Machine;

    #[test]
    fn a_large_warp_needs_at_most_64_rows() {
        let m = Machine::lwm();
        let e = m.with(&["divergence=lwm", "warp_size=2080"]).unwrap_err();
        assert!(e.contains("at most 64 rows"), "{e}");
        assert!(m.with(&["divergence=lwm", "warp_size=2048"]).is_ok());
        let e = m.with(&["warp_size=2048"]).unwrap_err();
        assert!(e.contains("divergence = lwm"), "{e}");
    }

    /// Each policy's own rules, and its keys checked only when it is chosen.
    #[test]
    fn each_policy_checks_its_own_settings() {
        let m = Machine::lwm();
        for (sets, says) in [
            (
                &["divergence=tbc", "scoreboard=true"][..],
                "thread block compaction runs with barrel",
            ),
            (
                &["divergence=capri", "capt_entries=5000"],
                "capt_entries = 5000: at most 4096",
            ),
            (
                &["divergence=dom", "scoreboard=true"],
                "diverge on miss runs on barrel",
            ),
            (
                &["divergence=dom", "dom_max_slip=256"],
                "dom_max_slip = 256: 0..=255",
            ),
            (
                &["divergence=dom", "dom_mdt_entries=65"],
                "dom_mdt_entries = 65: 0..=64 (0 = unlimited)",
            ),
            (
                &["divergence=dom", "dom_slip_step=0"],
                "dom_slip_step = 0: 1..=255",
            ),
            (
                &["divergence=dom", "dom_bw_min=1.5"],
                "dom_bw_min = 1.5: a share",
            ),
        ] {
            let e = m.with(sets).unwrap_err();
            assert!(e.contains(says), "{sets:?}: {e}");
        }
        // Kept, unread: another policy's values do not stop a machine.
        assert!(m.with(&["capt_entries=5000", "dom_max_slip=256"]).is_ok());
    }
}
