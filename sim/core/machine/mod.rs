//! A machine: the core model's parameters, as a TOML file or a named preset, with
//! `--set KEY=VALUE` overrides (docs/core.md §2, §3), loaded and checked once.
//!
//! [`Keys`] are the machine as written: one flat table of every key (presets, files,
//! `--set`, `--list-keys`, `--json`). [`Machine`] is the machine checked, in sections
//! that show the hardware ([`Core`], the L1 and L2 [`Cache`]s, [`Dram`], the chosen
//! [`Divergence`] policy with its settings, the [`Vgiw`] engine): the engines take only
//! a `Machine`, and a `Machine` exists only checked ([`Machine::load`],
//! [`Keys::check`]). Each section checks its own keys.
pub mod cache;
pub mod core;
pub mod divergence;
pub mod dram;
pub mod keys;
pub mod presets;
pub mod vgiw;

pub use self::core::Core;
pub use cache::{Cache, L1, L2};
pub use divergence::Divergence;
pub use dram::Dram;
pub use keys::{
    reader, CaptHistory, DomReconverge, DramScheduler, Keys, Mechanism, Reader, Timing, VgiwAlias,
    VgiwStoreDone, KEYS,
};
pub use vgiw::Vgiw;

use serde::{Serialize, Serializer};

/// A checked machine, in sections. It serializes as its [`Keys`] (flat).
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    /// What it was built from: every key, those no section reads included.
    keys: Keys,
    timing: Timing,
    core: Core,
    l1: L1,
    l2: L2,
    dram: Dram,
    divergence: Divergence,
    vgiw: Vgiw,
}

impl Keys {
    /// The machine these keys describe, or why it cannot work (one message naming the
    /// key and what it allows).
    pub fn check(self) -> Result<Machine, String> {
        let core = Core::of(&self)?;
        let divergence = Divergence::of(&self, &core)?;
        let (l1, l2) = L1::of(&self)?;
        let dram = Dram::of(&self, l1.cache.line)?;
        positive("clock_mhz", self.clock_mhz)?;
        let vgiw = Vgiw::of(&self)?;
        Ok(Machine {
            timing: self.timing,
            core,
            l1,
            l2,
            dram,
            divergence,
            vgiw,
            keys: self,
        })
    }
}

impl Machine {
    /// The machine `--machine SOURCE` (a preset's name, or a `.toml` file of keys) with
    /// `--set KEY=VALUE` assignments applied in turn, checked once.
    pub fn load<S: AsRef<str>>(source: &str, sets: &[S]) -> Result<Machine, String> {
        let mut keys = if source.ends_with(".toml") {
            let text = std::fs::read_to_string(source)
                .map_err(|e| format!("machine file {source}: {e}"))?;
            Keys::from_toml(&text).map_err(|e| format!("{source}: {e}"))?
        } else {
            Keys::preset(source)?
        };
        keys.set_all(sets).map_err(|e| format!("--set: {e}"))?;
        let named = if sets.is_empty() { source } else { "--set" };
        keys.check().map_err(|e| format!("{named}: {e}"))
    }

    /// A preset by name.
    pub fn preset(name: &str) -> Result<Machine, String> {
        Keys::preset(name)?.check()
    }

    /// This machine with `KEY=VALUE` assignments applied in turn, checked once.
    pub fn with<S: AsRef<str>>(&self, sets: &[S]) -> Result<Machine, String> {
        let mut keys = self.keys.clone();
        keys.set_all(sets)?;
        keys.check()
    }

    /// Applies `KEY=VALUE` assignments in turn, then checks the machine once: all or
    /// nothing (one change may need another: `warps=8 fetch_group=8`).
    pub fn set_all<S: AsRef<str>>(&mut self, sets: &[S]) -> Result<(), String> {
        *self = self.with(sets)?;
        Ok(())
    }

    /// One line per key of `sets` that this machine's timing or divergence policy does
    /// not read (the key is kept, and printed, but changes nothing).
    pub fn ignored<S: AsRef<str>>(&self, sets: &[S]) -> Vec<String> {
        let mut out: Vec<String> = vec![];
        for s in sets {
            let key = s.as_ref().split_once('=').map_or("", |(k, _)| k.trim());
            let why = match reader(key) {
                Reader::Simt if self.timing == Timing::Vgiw => "timing = vgiw (a SIMT core key)",
                Reader::Vgiw if self.timing == Timing::Simt => "timing = simt (a VGIW engine key)",
                Reader::Policy(_) if self.timing == Timing::Vgiw => {
                    "timing = vgiw (a divergence policy's key)"
                }
                Reader::Policy(p) if p != self.divergence.mechanism() => {
                    out.push(format!(
                        "{key} is read only with divergence = {}; this machine has divergence = {}",
                        p.name(),
                        self.divergence.name()
                    ));
                    continue;
                }
                _ => continue,
            };
            out.push(format!("{key} changes nothing with {why}"));
        }
        out.dedup();
        out
    }

    /// Every key, as written.
    pub fn keys(&self) -> &Keys {
        &self.keys
    }

    /// Each key's value as TOML text, in `KEYS` order.
    pub fn values(&self) -> Vec<(&'static str, String)> {
        self.keys.values()
    }

    pub fn timing(&self) -> Timing {
        self.timing
    }

    pub fn core(&self) -> &Core {
        &self.core
    }

    pub fn l1(&self) -> &L1 {
        &self.l1
    }

    pub fn l2(&self) -> &L2 {
        &self.l2
    }

    pub fn dram(&self) -> &Dram {
        &self.dram
    }

    pub fn divergence(&self) -> &Divergence {
        &self.divergence
    }

    /// The VGIW engine's section.
    pub fn vgiw_engine(&self) -> &Vgiw {
        &self.vgiw
    }

    /// The core clock in MHz.
    pub fn clock_mhz(&self) -> f64 {
        self.keys.clock_mhz
    }

    /// DRAM bytes per core cycle.
    pub fn dram_bytes_per_cycle(&self) -> f64 {
        self.dram.gbps * 1e3 / self.clock_mhz()
    }

    /// The presets, checked.
    pub fn lwm() -> Machine {
        Keys::lwm().check().expect("the lwm preset works")
    }

    pub fn capri() -> Machine {
        Keys::capri().check().expect("the capri preset works")
    }

    pub fn gt200() -> Machine {
        Keys::gt200().check().expect("the gt200 preset works")
    }

    pub fn dom() -> Machine {
        Keys::dom().check().expect("the dom preset works")
    }

    pub fn fermi() -> Machine {
        Keys::fermi().check().expect("the fermi preset works")
    }

    pub fn vgiw() -> Machine {
        Keys::vgiw().check().expect("the vgiw preset works")
    }
}

impl Default for Machine {
    fn default() -> Machine {
        Machine::lwm()
    }
}

impl Serialize for Machine {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.keys.serialize(s)
    }
}

/// Refuses the first of `values` that is 0.
fn at_least_1(values: &[(&str, u32)]) -> Result<(), String> {
    match values.iter().find(|(_, v)| *v == 0) {
        Some((key, _)) => Err(format!("{key} = 0: must be at least 1")),
        None => Ok(()),
    }
}

/// Refuses a size that is not a power of two of at least 4 bytes.
fn power_of_two(key: &str, v: u32) -> Result<(), String> {
    if !v.is_power_of_two() || v < 4 {
        return Err(format!("{key} = {v}: a power of two, at least 4"));
    }
    Ok(())
}

/// Refuses a rate that is not a positive number.
fn positive(key: &str, v: f64) -> Result<(), String> {
    if !(v.is_finite() && v > 0.0) {
        return Err(format!("{key} = {v}: must be a positive number"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_listed_once_and_has_a_value() {
        let values = Machine::lwm().values();
        assert_eq!(values.len(), KEYS.len());
        let table = toml::Table::try_from(Keys::lwm()).unwrap();
        assert_eq!(table.len(), KEYS.len(), "a field without a KEYS line");
    }

    #[test]
    fn set_parses_each_type_and_refuses_what_cannot_work() {
        let mut m = Machine::lwm();
        m.set_all(&["fetch_group=8"]).unwrap();
        assert_eq!(m.core().fetch_group, 8);
        m.set_all(&[
            "dram_scheduler=fr-fcfs",
            "lwm_jump_opt = false",
            "dram_gbps=64",
        ])
        .unwrap();
        assert_eq!(m.dram().scheduler, DramScheduler::FrFcfs);
        assert!(!m.keys().lwm_jump_opt);
        assert_eq!(m.dram().gbps, 64.0);
        for (bad, says) in [
            ("frobs=3", "unknown machine key `frobs`"),
            ("fetch_group=5", "does not divide"),
            ("warps=65", "1..=64"),
            ("lanes=x", "lanes = x"),
            ("divergence=sideways", "divergence = sideways"),
            ("l1_line=96", "power of two"),
            ("fetch_group", "expected KEY=VALUE"),
            ("dram_row_conflict=50", "shorter than"),
            ("dram_channels=3", "not a multiple of dram_channels = 3"),
            ("dram_channels=0", "dram_channels = 0: must be at least 1"),
            ("sticky_cta=true", "fetch_group = 8 < warps = 32"),
        ] {
            let err = m.clone().set_all(&[bad]).unwrap_err();
            assert!(err.contains(says), "{bad}: {err}");
        }
        let unchanged = m.clone();
        assert!(m.set_all(&["warps=8", "fetch_group=3"]).is_err());
        assert_eq!(m, unchanged, "all or nothing");
    }

    #[test]
    fn a_machine_file_overrides_some_keys_and_refuses_unknown_ones() {
        let k = Keys::from_toml("warps = 16\nfetch_group = 4\n").unwrap();
        assert_eq!((k.warps, k.fetch_group, k.lanes), (16, 4, 32));
        let err = Keys::from_toml("wraps = 16\n").unwrap_err();
        assert!(err.starts_with("unknown machine key `wraps`"), "{err}");
        let err = Keys::from_toml("lanes = \"x\"\n").unwrap_err();
        assert!(err.starts_with("lanes = x: invalid type"), "{err}");
        let err = Keys::from_toml("lanes = \n").unwrap_err();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(Keys::preset("kepler").unwrap_err().contains("lwm"));
        let mut m = Machine::lwm();
        m.set_all(&["warps=8", "fetch_group=2"]).unwrap();
        assert_eq!(
            (m.core().warps, m.core().fetch_group),
            (8, 2),
            "checked after every change"
        );
    }

    #[test]
    fn load_reads_a_preset_or_a_file_then_the_sets_and_checks_once() {
        let m = Machine::load("capri", &["divergence=capri", "capt_entries=8"]).unwrap();
        assert_eq!(
            m.divergence(),
            &Divergence::Capri(divergence::Capt {
                entries: 8,
                history: CaptHistory::Latest
            })
        );
        // A file may be unworkable alone; the sets complete it.
        let dir = std::env::temp_dir().join(format!("weft-machine-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("m.toml");
        std::fs::write(&file, "warps = 8\n").unwrap();
        let file = file.to_str().unwrap();
        let err = Machine::load(file, &[] as &[&str]).unwrap_err();
        assert_eq!(
            err,
            format!("{file}: fetch_group = 32 does not divide warps = 8")
        );
        let m = Machine::load(file, &["fetch_group=8"]).unwrap();
        assert_eq!((m.core().warps, m.core().fetch_group), (8, 8));
        let missing = dir.join("none.toml");
        let err = Machine::load(missing.to_str().unwrap(), &[] as &[&str]).unwrap_err();
        assert!(
            err.starts_with("machine file ") && err.contains("none.toml"),
            "{err}"
        );
        let err = Machine::load("lwm", &["warps=0"]).unwrap_err();
        assert_eq!(err, "--set: warps = 0: must be at least 1");
    }

    /// A policy's keys are kept and printed when another policy runs; `ignored` names them.
    #[test]
    fn a_key_the_machine_does_not_read_is_kept_and_named() {
        let sets = ["capt_entries=7", "vgiw_tile=64", "warps=8", "fetch_group=8"];
        let m = Machine::lwm().with(&sets).unwrap();
        assert_eq!(m.divergence(), &Divergence::Pdom);
        assert_eq!((m.keys().capt_entries, m.keys().vgiw_tile), (7, 64));
        assert!(m.values().contains(&("capt_entries", "7".into())));
        let ignored = m.ignored(&sets);
        assert_eq!(ignored.len(), 2, "{ignored:?}");
        assert!(ignored[0].contains("divergence = capri"), "{ignored:?}");
        assert!(ignored[1].contains("timing = simt"), "{ignored:?}");
        let v = Machine::vgiw();
        assert_eq!(v.ignored(&["warps=8", "l1_kb=32", "dom_period=5"]).len(), 2);
        assert!(Machine::capri()
            .with(&["divergence=capri"])
            .unwrap()
            .ignored(&["capt_entries=8"])
            .is_empty());
    }

    /// A machine serializes as its flat keys, every one of them.
    #[test]
    fn a_machine_serializes_as_its_keys() {
        let m = Machine::dom();
        let json = serde_json::to_value(&m).unwrap();
        assert_eq!(json, serde_json::to_value(m.keys()).unwrap());
        assert_eq!(json.as_object().unwrap().len(), KEYS.len());
        // §7.1: the MDT does not limit (0 = unlimited), and slipped threads stay in
        // their loop.
        assert_eq!(json["dom_mdt_entries"], 0);
        assert_eq!(json["dom_reconverge"], "loop");
    }
}
