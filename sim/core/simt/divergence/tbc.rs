//! Thread block compaction (TBC, CAPRI §2.2), TBC+ and CAPRI (§3) on the core.
//!
//! A CTA of `R` warps takes `R` consecutive warp slots, its home warps: the CTA's thread
//! `r * lanes + c` is row `r`, lane `c`. The CTA has one stack, the golden
//! [`TbcStack`], whose entries hold the CTA's threads per path. A warp is any set of the
//! CTA's threads with at most one per lane (a lane mask per home row), running in one of
//! the CTA's slots; its instructions issue, coalesce and time like any warp's, so a
//! compacted warp's memory instruction touches the lines of threads from several home
//! warps (the paper's Figure 5 comes from the coalescer).
//!
//! - **Events at completion.** A branch's outcome reaches the stack when the warp's
//!   branch has completed (when barrel processing would fetch the warp again), as does
//!   a warp's arrival at its path's reconvergence point.
//! - **Stall.** The warp dissolves into the stack. When the last warp of the top entry
//!   has executed the branch (`WCnt` 0), the golden warp compaction unit forms the new
//!   top's waiting threads into warps: a load cycle, then one warp per cycle, each
//!   fetchable the cycle it leaves; one unit per core, serving its CTAs in turn.
//! - **Bypass** (TBC+, CAPRI). The warp goes on into its path at once (its taken threads
//!   first; a diverged warp's not-taken threads are kept aside and come back as one warp,
//!   with no compaction, the cycle their path comes up). A warp on a path that is not
//!   yet the top runs until its next branch or its path's reconvergence point and waits
//!   there for its path: at most one basic block ahead (SPEC §3.4).
//! - **Reconvergence.** A warp reaching the top's reconvergence PC sends `Reconverge`
//!   and dissolves; when the entry pops, the entry below comes up and its waiting
//!   threads are compacted. An entry whose PC is its reconvergence PC (an empty path)
//!   reconverges at once. The base entry ends when its threads return.
//! - **Who stalls.** `tbc`: every warp at every conditional branch and `jal x0`;
//!   `tbc+`: at conditional branches the uniformity analysis does not prove uniform (a
//!   proven-uniform branch that splits a warp is an internal error); `capri`: a warp that
//!   diverged, if its branch misses in the CAPT (and is inserted) or hits predicting
//!   adequacy (the golden decision logic).
//! - **Adequacy**, counted for all three: when a branch instance resolves, compaction
//!   pays iff its paths need fewer warps after full compaction (the golden evaluator's
//!   `min_warps`, per path) than the warps that brought threads into them; the branch's
//!   CAPT entry learns it (CAPRI). The oracle labels each warp's decision at that
//!   instance: ideal Stall iff the instance was adequate and the warp diverged (a warp
//!   that did not diverge gains nothing from waiting).
//! - **Per-branch profile** ([`BranchProfile`]), for every conditional branch of the
//!   kernel and, under `tbc`, every `jal x0` a warp stalled at: warp executions and
//!   those that split their warp, resolved instances and those that sent the CTA's
//!   threads both ways, adequate instances (the rule above), and whether the branch is
//!   proven uniform. The totals are its sums (instances, adequate instances; executions
//!   are the warp decisions).
use super::{one_group, Change, DivergenceStats, Policy};
use crate::capri::adequacy_evaluator::evaluate;
use crate::capri::capri_decision::{decide, Policy as Scheme};
use crate::capri::capt::{Capt, History, Op as CaptOp};
use crate::capri::tbc_stack::{Event, TbcStack};
use crate::capri::warp_compaction_unit::WarpCompactionUnit;
use crate::core::cfg::Flow;
use crate::core::machine::divergence::Capt as CaptSettings;
use crate::core::machine::{CaptHistory, Machine};
use crate::core::simt::execute::{bits, Executed};
use crate::core::simt::kernel::{Kernel, Step};
use crate::core::simt::stats::Figures;
use crate::core::thread::EXIT_PC;
use crate::lib::column_compactor::Group;
use crate::lwm::sub_warp_unit::Mode;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};

/// What thread block compaction counted.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct TbcStats {
    /// `tbc`, `tbc+` or `capri`.
    pub scheme: String,
    /// Branch instances resolved (per CTA, each time the top's `WCnt` reached 0 at a
    /// branch), and those where compaction pays (adequate).
    pub branch_instances: u64,
    pub adequate_instances: u64,
    /// Warp decisions at branches by (predicted, ideal): stall or bypass.
    pub stall_ideal_stall: u64,
    pub stall_ideal_bypass: u64,
    pub bypass_ideal_stall: u64,
    pub bypass_ideal_bypass: u64,
    /// Warps that brought threads into resolved branches' paths (one per path a warp
    /// has threads on), and the warps the paths then ran as (bypassing warps and
    /// compacted ones).
    pub warps_before: u64,
    pub warps_after: u64,
    /// Warps the compaction unit formed.
    pub compacted_warps: u64,
    /// Entries popped by reconvergence.
    pub reconvergences: u64,
    /// CAPT (capri): lookups by diverged warps, hits, inserts, inserts that evicted an
    /// entry, and the most entries valid at once.
    pub capt_lookups: u64,
    pub capt_hits: u64,
    pub capt_inserts: u64,
    pub capt_evictions: u64,
    pub capt_most_entries: u64,
    /// Warp-cycles that stalled warps waited for their CTA, by the kind of branch.
    pub waits: SyncWaits,
    /// Per branch (and, under `tbc`, per jump stalled at), by PC.
    pub branches: Vec<BranchProfile>,
}

/// Warp-cycles stalled warps waited, from their branch's completion to the resolution of
/// the CTA's instance (its `WCnt` at 0), by what the instance was: at a jump; at a branch
/// proven uniform; at one whose CTA's threads all went one way (not proven); one whose
/// threads went both ways with no warp split (warp-uniform, CTA-divergent); one where a
/// warp split (divergent).
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq, Eq)]
pub struct SyncWaits {
    pub jump: u64,
    pub uniform: u64,
    pub cta_uniform: u64,
    pub warp_uniform: u64,
    pub divergent: u64,
}

impl SyncWaits {
    fn add(&self, o: &SyncWaits) -> SyncWaits {
        SyncWaits {
            jump: self.jump + o.jump,
            uniform: self.uniform + o.uniform,
            cta_uniform: self.cta_uniform + o.cta_uniform,
            warp_uniform: self.warp_uniform + o.warp_uniform,
            divergent: self.divergent + o.divergent,
        }
    }

    pub fn total(&self) -> u64 {
        self.jump + self.uniform + self.cta_uniform + self.warp_uniform + self.divergent
    }
}

/// One branch's profile: how its executions split warps and CTAs, and where compaction
/// paid.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq, Eq)]
pub struct BranchProfile {
    pub pc: u32,
    /// A `jal x0` (TBC stalls at jumps too), not a conditional branch.
    pub jump: bool,
    /// Proven uniform by the uniformity analysis.
    pub uniform: bool,
    /// Warps that executed it, and those whose threads went both ways.
    pub executions: u64,
    pub warp_divergent: u64,
    /// Its resolved instances (per CTA), those whose CTA's threads went both ways, and
    /// those where compaction pays.
    pub cta_instances: u64,
    pub cta_divergent: u64,
    pub adequate: u64,
}

impl BranchProfile {
    fn add(&mut self, o: &BranchProfile) {
        self.jump |= o.jump;
        self.uniform |= o.uniform;
        self.executions += o.executions;
        self.warp_divergent += o.warp_divergent;
        self.cta_instances += o.cta_instances;
        self.cta_divergent += o.cta_divergent;
        self.adequate += o.adequate;
    }
}

impl TbcStats {
    /// The per-branch profile as a table, one line per branch after a header.
    pub fn profile_table(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "{:>10} {:>6} {:>11} {:>9} {:>9} {:>9} {:>9} {:>8}",
            "branch pc",
            "kind",
            "executions",
            "warp-div",
            "CTA inst",
            "CTA-div",
            "adequate",
            "uniform"
        )];
        for b in &self.branches {
            let (kind, uniform) = match (b.jump, b.uniform) {
                (true, _) => ("jump", "-"),
                (false, true) => ("branch", "yes"),
                (false, false) => ("branch", "no"),
            };
            lines.push(format!(
                "{:>#10x} {kind:>6} {:>11} {:>9} {:>9} {:>9} {:>9} {uniform:>8}",
                b.pc, b.executions, b.warp_divergent, b.cta_instances, b.cta_divergent, b.adequate
            ));
        }
        lines
    }

    pub fn figures(&self, f: &mut Figures) {
        let counts = [
            (
                "tbc_branch_instances",
                "TBC branch instances resolved",
                self.branch_instances,
            ),
            (
                "tbc_adequate_instances",
                "TBC instances where compaction pays",
                self.adequate_instances,
            ),
            (
                "tbc_stall_ideal_stall",
                "TBC decisions: stall, ideally stall",
                self.stall_ideal_stall,
            ),
            (
                "tbc_stall_ideal_bypass",
                "TBC decisions: stall, ideally bypass",
                self.stall_ideal_bypass,
            ),
            (
                "tbc_bypass_ideal_stall",
                "TBC decisions: bypass, ideally stall",
                self.bypass_ideal_stall,
            ),
            (
                "tbc_bypass_ideal_bypass",
                "TBC decisions: bypass, ideally bypass",
                self.bypass_ideal_bypass,
            ),
            (
                "tbc_warps_before",
                "TBC warps into resolved branches",
                self.warps_before,
            ),
            (
                "tbc_warps_after",
                "TBC warps out of resolved branches",
                self.warps_after,
            ),
            (
                "tbc_compacted_warps",
                "TBC warps formed by compaction",
                self.compacted_warps,
            ),
            (
                "tbc_reconvergences",
                "TBC entries popped",
                self.reconvergences,
            ),
            ("capt_lookups", "CAPT lookups", self.capt_lookups),
            ("capt_hits", "CAPT hits", self.capt_hits),
            ("capt_inserts", "CAPT inserts", self.capt_inserts),
            ("capt_evictions", "CAPT evictions", self.capt_evictions),
            (
                "capt_most_entries",
                "CAPT entries valid at most",
                self.capt_most_entries,
            ),
        ];
        for (key, label, v) in counts {
            f.add_count(key, label, v);
        }
        let w = &self.waits;
        for (key, label, v) in [
            ("tbc_wait_jump", "TBC warp-cycles waited at jumps", w.jump),
            (
                "tbc_wait_uniform",
                "TBC warp-cycles waited at branches proven uniform",
                w.uniform,
            ),
            (
                "tbc_wait_cta_uniform",
                "TBC warp-cycles waited at instances the CTA took one way",
                w.cta_uniform,
            ),
            (
                "tbc_wait_warp_uniform",
                "TBC warp-cycles waited at warp-uniform, CTA-divergent instances",
                w.warp_uniform,
            ),
            (
                "tbc_wait_divergent",
                "TBC warp-cycles waited at instances a warp split on",
                w.divergent,
            ),
        ] {
            f.add_count(key, label, v);
        }
    }

    /// Two cores' counts (the most entries: the larger).
    pub fn combined(&self, o: &TbcStats) -> TbcStats {
        TbcStats {
            scheme: self.scheme.clone(),
            branch_instances: self.branch_instances + o.branch_instances,
            adequate_instances: self.adequate_instances + o.adequate_instances,
            stall_ideal_stall: self.stall_ideal_stall + o.stall_ideal_stall,
            stall_ideal_bypass: self.stall_ideal_bypass + o.stall_ideal_bypass,
            bypass_ideal_stall: self.bypass_ideal_stall + o.bypass_ideal_stall,
            bypass_ideal_bypass: self.bypass_ideal_bypass + o.bypass_ideal_bypass,
            warps_before: self.warps_before + o.warps_before,
            warps_after: self.warps_after + o.warps_after,
            compacted_warps: self.compacted_warps + o.compacted_warps,
            reconvergences: self.reconvergences + o.reconvergences,
            capt_lookups: self.capt_lookups + o.capt_lookups,
            capt_hits: self.capt_hits + o.capt_hits,
            capt_inserts: self.capt_inserts + o.capt_inserts,
            capt_evictions: self.capt_evictions + o.capt_evictions,
            capt_most_entries: self.capt_most_entries.max(o.capt_most_entries),
            waits: self.waits.add(&o.waits),
            branches: {
                let mut by_pc: BTreeMap<u32, BranchProfile> =
                    self.branches.iter().map(|b| (b.pc, *b)).collect();
                for b in &o.branches {
                    by_pc.entry(b.pc).or_default().add(b);
                }
                by_pc.into_values().collect()
            },
        }
    }
}

pub fn check_launch(m: &Machine, cta: u32) -> Result<(), String> {
    if cta < m.core().warp_size {
        return Err(format!(
            "CTAs of {cta} threads with divergence = {}: a CTA-wide stack needs CTAs of at least one warp ({} threads)",
            m.divergence().name(),
            m.core().warp_size
        ));
    }
    Ok(())
}

/// A branch (or, under TBC, a jump) a warp executed, for the stack once it completes.
#[derive(Clone, Debug)]
struct Outcome {
    pc: u32,
    taken: Vec<u64>,
    not_taken: Vec<u64>,
    taken_pc: u32,
    not_taken_pc: u32,
    rpc: u32,
    jump: bool,
}

/// A warp in a slot.
#[derive(Clone, Debug)]
struct Warp {
    /// Its CTA's first slot.
    cta: usize,
    /// Its threads, one lane mask per home row.
    rows: Vec<u64>,
    pc: u32,
    /// The reconvergence PC of the path it is on.
    rpc: u32,
    /// Its path is the stack's top entry.
    on_top: bool,
    /// Parked at a branch or its reconvergence point until its path comes up.
    waiting: bool,
    /// Its threads returned from the kernel.
    finished: bool,
    outcome: Option<Outcome>,
}

/// A branch instance of a CTA until its `WCnt` reaches 0.
#[derive(Clone, Debug)]
struct Instance {
    pc: u32,
    /// Per warp: (diverged, stalled, the cycle its branch completed).
    decisions: Vec<(bool, bool, u64)>,
    /// The threads into each path, the bypassing ones, and the warps that brought
    /// threads into each path (bypassing ones apart).
    taken: Vec<u64>,
    not_taken: Vec<u64>,
    bypassed: Vec<u64>,
    warps: [u64; 2],
    bypassing: [u64; 2],
}

struct Cta {
    rows: usize,
    stack: TbcStack,
    /// Not-taken threads of diverged warps that bypassed, with their PC: each comes
    /// back as one warp when its path comes up.
    kept: Vec<(Vec<u64>, u32)>,
    instance: Option<Instance>,
}

pub struct Tbc {
    scheme: Scheme,
    lanes: usize,
    depth: usize,
    capt_entries: u32,
    capt_history: History,
    /// Per slot: the warp in it, and its CTA's first slot.
    warps: Vec<Option<Warp>>,
    home: Vec<usize>,
    /// Per first slot of a resident CTA.
    ctas: Vec<Option<Cta>>,
    wcu: WarpCompactionUnit,
    /// The compaction unit is free from this cycle.
    wcu_free: u64,
    capt: Option<Capt>,
    /// Conditional branches of the kernel, and those proven uniform.
    branches: HashSet<u32>,
    uniform: HashSet<u32>,
    /// The per-branch profile, by PC.
    profile: BTreeMap<u32, BranchProfile>,
    due: u64,
    changes: Vec<Change>,
    stats: TbcStats,
}

fn any(rows: &[u64]) -> bool {
    rows.iter().any(|&r| r != 0)
}

fn overlaps(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

impl Tbc {
    /// A TBC, TBC+ or CAPRI (with its `capt`) policy for `m`'s warp slots.
    pub fn new(m: &Machine, scheme: Scheme, capt: Option<&CaptSettings>) -> Tbc {
        // TBC and TBC+ have no CAPT (the scheme never reads it).
        let (capt_entries, capt_history) =
            capt.map_or((0, CaptHistory::Latest), |c| (c.entries, c.history));
        let warps = m.core().warps as usize;
        let lanes = m.core().lanes as usize;
        Tbc {
            scheme,
            lanes,
            depth: m.core().stack_entries as usize,
            capt_entries,
            capt_history: match capt_history {
                CaptHistory::Latest => History::Latest,
                CaptHistory::Sticky => History::Sticky,
                CaptHistory::Counter2 => History::Counter2,
            },
            warps: vec![None; warps],
            home: (0..warps).collect(),
            ctas: (0..warps).map(|_| None).collect(),
            wcu: WarpCompactionUnit::new(warps, lanes),
            wcu_free: 0,
            capt: None,
            branches: HashSet::new(),
            uniform: HashSet::new(),
            profile: BTreeMap::new(),
            due: 0,
            changes: vec![],
            stats: TbcStats {
                scheme: m.divergence().name().into(),
                ..TbcStats::default()
            },
        }
    }

    /// The profile of the branch (or jump) at `pc`.
    fn branch(&mut self, pc: u32, jump: bool) -> &mut BranchProfile {
        let uniform = self.uniform.contains(&pc);
        self.profile.entry(pc).or_insert(BranchProfile {
            pc,
            jump,
            uniform,
            ..BranchProfile::default()
        })
    }

    fn cta(&mut self, base: usize) -> &mut Cta {
        self.ctas[base].as_mut().expect("a resident CTA")
    }

    /// The deepest entry holding any of `rows`' threads: the path they are on.
    fn level(&self, base: usize, rows: &[u64]) -> usize {
        let entries = &self.ctas[base]
            .as_ref()
            .expect("a resident CTA")
            .stack
            .entries;
        (0..entries.len())
            .rev()
            .find(|&i| overlaps(&entries[i].mask, rows))
            .unwrap_or(0)
    }

    /// The CTA's slots holding a warp.
    fn slots(&self, base: usize) -> impl Iterator<Item = usize> + '_ {
        let rows = self.ctas[base].as_ref().map_or(0, |c| c.rows);
        (base..base + rows).filter(move |&w| self.warps[w].is_some())
    }

    /// Slot `w`'s warp is gone: its threads are in the stack.
    fn dissolve(&mut self, w: usize) {
        self.warps[w] = None;
        self.due &= !(1 << w);
        self.changes.push(Change::Parked(w));
    }

    /// A warp of `rows` at `pc` in a free slot of CTA `base`, fetchable at `at`.
    fn form(&mut self, base: usize, rows: Vec<u64>, pc: u32, at: u64) -> Result<(), String> {
        let (n, rpc) = {
            let c = self.cta(base);
            (c.rows, c.stack.tos().map_or(EXIT_PC, |t| t.rpc))
        };
        let Some(w) = (base..base + n).find(|&w| self.warps[w].is_none()) else {
            return Err(format!(
                "internal: CTA at warp slot {base} has no free slot for a warp at {pc:#x}"
            ));
        };
        self.warps[w] = Some(Warp {
            cta: base,
            rows,
            pc,
            rpc,
            on_top: true,
            waiting: false,
            finished: false,
            outcome: None,
        });
        self.changes.push(Change::Runs { w, at });
        Ok(())
    }

    fn stack_error(&mut self, base: usize, what: &str) -> Result<(), String> {
        let depth = self.depth;
        let s = &self.cta(base).stack;
        if s.overflow {
            return Err(format!(
                "the CTA stack of {depth} entries overflowed at {what}; raise stack_entries"
            ));
        }
        if s.error {
            return Err(format!("internal: the CTA stack refused {what}"));
        }
        Ok(())
    }

    /// Whether warp `w` stalls at its branch (or jump) for compaction.
    fn decide(&mut self, pc: u32, jump: bool, diverged: bool) -> Result<bool, String> {
        let uniform = !jump && self.uniform.contains(&pc);
        if uniform && diverged {
            return Err(format!(
                "internal: the branch at {pc:#x}, proven uniform, split a warp"
            ));
        }
        if self.scheme != Scheme::Capri {
            return Ok(decide(self.scheme, true, uniform, diverged, false, false).stall);
        }
        if !diverged {
            return Ok(false);
        }
        let capt = self.capt.as_mut().expect("prepared");
        let (hit, predict) = capt.lookup(pc);
        self.stats.capt_lookups += 1;
        self.stats.capt_hits += u64::from(hit);
        let d = decide(Scheme::Capri, true, uniform, diverged, hit, predict);
        if d.insert {
            let full = capt.entries.iter().all(|e| e.valid);
            capt.clock(false, CaptOp::Insert, pc);
            self.stats.capt_inserts += 1;
            self.stats.capt_evictions += u64::from(full);
            let valid = capt.entries.iter().filter(|e| e.valid).count() as u64;
            self.stats.capt_most_entries = self.stats.capt_most_entries.max(valid);
        }
        Ok(d.stall)
    }

    /// Warp `w`'s branch reaches its CTA's stack.
    fn branch_event(&mut self, w: usize, now: u64) -> Result<(), String> {
        let warp = self.warps[w].as_mut().expect("a warp");
        let o = warp.outcome.take().expect("an outcome");
        let base = warp.cta;
        if !warp.on_top {
            return Err(format!(
                "internal: warp {w} branched at {:#x} off its CTA's top path",
                o.pc
            ));
        }
        let diverged = any(&o.taken) && any(&o.not_taken);
        let stall = self.decide(o.pc, o.jump, diverged)?;
        let profile = self.branch(o.pc, o.jump);
        profile.executions += 1;
        profile.warp_divergent += u64::from(diverged);
        let cta = self.cta(base);
        let n = cta.rows;
        let inst = cta.instance.get_or_insert_with(|| Instance {
            pc: o.pc,
            decisions: vec![],
            taken: vec![0; n],
            not_taken: vec![0; n],
            bypassed: vec![0; n],
            warps: [0; 2],
            bypassing: [0; 2],
        });
        inst.decisions.push((diverged, stall, now));
        for (p, rows) in [&o.taken, &o.not_taken].into_iter().enumerate() {
            let on = u64::from(any(rows));
            inst.warps[p] += on;
            if !stall {
                inst.bypassing[p] += on;
            }
        }
        for r in 0..n {
            inst.taken[r] |= o.taken[r];
            inst.not_taken[r] |= o.not_taken[r];
            if !stall {
                inst.bypassed[r] |= o.taken[r] | o.not_taken[r];
            }
        }
        cta.stack.clock(
            false,
            &Event::Branch {
                stall,
                taken: o.taken.clone(),
                not_taken: o.not_taken.clone(),
                taken_pc: o.taken_pc,
                not_taken_pc: o.not_taken_pc,
                rpc: o.rpc,
            },
        );
        let changed = cta.stack.changed;
        self.stack_error(base, &format!("the branch at {:#x}", o.pc))?;
        if stall {
            self.dissolve(w);
        } else {
            let warp = self.warps[w].as_mut().expect("a warp");
            (warp.rows, warp.pc) = if any(&o.taken) {
                (o.taken.clone(), o.taken_pc)
            } else {
                (o.not_taken.clone(), o.not_taken_pc)
            };
            warp.rpc = o.rpc;
            warp.on_top = false;
            if diverged {
                self.cta(base).kept.push((o.not_taken, o.not_taken_pc));
            }
        }
        if changed {
            let inst = self.cta(base).instance.take();
            self.top_changed(base, now, inst)?;
        }
        if !stall && self.warps[w].is_some() {
            self.wait_if_ahead(w);
        }
        Ok(())
    }

    /// A warp off the top path that stands at a branch, its reconvergence point or the
    /// kernel's end waits for its path.
    fn wait_if_ahead(&mut self, w: usize) {
        let warp = self.warps[w].as_ref().expect("a warp");
        let stops = self.branches.contains(&warp.pc) || warp.pc == warp.rpc || warp.pc == EXIT_PC;
        if !warp.on_top && stops {
            self.warps[w].as_mut().expect("a warp").waiting = true;
            self.changes.push(Change::Parked(w));
        }
    }

    /// Warp `w` completed an instruction that left it at its path's reconvergence
    /// point, or ahead of its CTA at a branch.
    fn arrive(&mut self, w: usize, now: u64) -> Result<(), String> {
        let warp = self.warps[w].as_ref().expect("a warp");
        let base = warp.cta;
        if !warp.on_top {
            self.wait_if_ahead(w);
            return Ok(());
        }
        if warp.pc != warp.rpc {
            return Ok(()); // at a branch, on the top path after all
        }
        let pc = warp.pc;
        self.dissolve(w);
        self.reconverge(base, pc)?;
        if self.cta(base).stack.changed {
            self.top_changed(base, now, None)?;
        }
        Ok(())
    }

    fn reconverge(&mut self, base: usize, pc: u32) -> Result<(), String> {
        let stack = &mut self.cta(base).stack;
        stack.clock(false, &Event::Reconverge);
        if stack.changed {
            self.stats.reconvergences += 1;
        }
        self.stack_error(base, &format!("a reconvergence at {pc:#x}"))
    }

    /// The stack's top entry of CTA `base` changed at `now` (after branch instance
    /// `inst`, when a branch resolved): the warps of the new top run.
    fn top_changed(&mut self, base: usize, now: u64, inst: Option<Instance>) -> Result<(), String> {
        if let Some(inst) = inst {
            self.resolved(inst, now);
        }
        loop {
            let (top_index, top) = {
                let s = &self.cta(base).stack;
                (s.entries.len() - 1, s.tos().expect("an entry").clone())
            };
            let waiting_threads: Vec<u64> = top
                .mask
                .iter()
                .zip(&top.umask)
                .map(|(m, u)| m & u)
                .collect();
            let slots: Vec<usize> = self.slots(base).collect();
            for &w in &slots {
                let warp = self.warps[w].as_ref().expect("a warp");
                if warp.finished {
                    continue;
                }
                let level = self.level(base, &warp.rows);
                if level == top_index && overlaps(&warp.rows, &waiting_threads) {
                    // A bypassing warp whose path was not pushed (it went straight to the
                    // reconvergence point): its threads are compacted with the rest.
                    self.dissolve(w);
                    continue;
                }
                // A warp at the PC of a reconvergence entry below the top went straight
                // to the join (its path was not pushed): its threads wait in that entry,
                // which compacts every thread when it comes up, so the warp dissolves.
                let pc = self.warps[w].as_ref().expect("a warp").pc;
                let entries = &self.ctas[base]
                    .as_ref()
                    .expect("a resident CTA")
                    .stack
                    .entries;
                let at_join = level < top_index
                    && entries[level + 1].rpc == entries[level].pc
                    && pc == entries[level].pc;
                let rpc = entries[level].rpc;
                if at_join {
                    self.dissolve(w);
                    continue;
                }
                let warp = self.warps[w].as_mut().expect("a warp");
                warp.on_top = level == top_index;
                warp.rpc = rpc;
            }
            let kept = std::mem::take(&mut self.cta(base).kept);
            let kept = kept
                .into_iter()
                .filter(|(rows, _)| !overlaps(rows, &waiting_threads))
                .collect();
            self.cta(base).kept = kept;
            let slots: Vec<usize> = self.slots(base).collect();
            if top.pc == top.rpc {
                if top_index == 0 {
                    // Every thread of the CTA has returned.
                    for w in base..base + self.cta(base).rows {
                        if self.warps[w].as_ref().is_none_or(|x| !x.finished) {
                            self.changes.push(Change::Done(w));
                        }
                    }
                    return Ok(());
                }
                // An empty path: its warps are at its end already.
                for &w in &slots {
                    if self.warps[w]
                        .as_ref()
                        .is_some_and(|x| x.on_top && !x.finished)
                    {
                        self.dissolve(w);
                    }
                }
                let kept = std::mem::take(&mut self.cta(base).kept);
                let others = kept
                    .into_iter()
                    .filter(|(rows, _)| self.level(base, rows) != top_index)
                    .collect();
                self.cta(base).kept = others;
                for _ in 0..top.wcnt {
                    self.reconverge(base, top.pc)?;
                }
                if !self.cta(base).stack.changed {
                    return Err(format!(
                        "internal: the empty path at {:#x} did not reconverge",
                        top.pc
                    ));
                }
                continue;
            }
            // Warps that waited for this path: at its end they reconverge, else they run.
            let mut popped = false;
            for &w in &slots {
                let Some(warp) = self.warps[w].as_mut() else {
                    continue;
                };
                if !(warp.on_top && warp.waiting) {
                    continue;
                }
                warp.waiting = false;
                if warp.pc == top.rpc {
                    self.dissolve(w);
                    self.reconverge(base, top.rpc)?;
                    if self.cta(base).stack.changed {
                        popped = true;
                        break;
                    }
                } else {
                    self.changes.push(Change::Runs { w, at: now });
                }
            }
            if popped {
                continue;
            }
            // Kept parts of diverged warps that bypassed come back whole.
            let kept = std::mem::take(&mut self.cta(base).kept);
            let mut others = vec![];
            for (rows, pc) in kept {
                if self.level(base, &rows) == top_index {
                    self.form(base, rows, pc, now)?;
                } else {
                    others.push((rows, pc));
                }
            }
            self.cta(base).kept = others;
            // The waiting threads go through the compaction unit.
            let start = now.max(self.wcu_free);
            self.wcu.clock(false, true, &top.mask, &top.umask);
            let mut k = 0u64;
            loop {
                let out = self.wcu.outputs();
                if !out.valid {
                    break;
                }
                let mut rows = vec![0; top.mask.len()];
                for lane in bits(out.group.lanes) {
                    rows[out.group.rows[lane]] |= 1 << lane;
                }
                self.form(base, rows, top.pc, start + 1 + k)?;
                k += 1;
                self.wcu.clock(false, false, &top.mask, &top.umask);
            }
            if k > 0 {
                self.wcu_free = start + 1 + k;
                self.stats.compacted_warps += k;
            }
            return Ok(());
        }
    }

    /// Branch instance `inst` resolved at `now`: adequacy, the CAPT's lesson, the
    /// oracle's labels, the stalled warps' waits.
    fn resolved(&mut self, inst: Instance, now: u64) {
        let lanes = self.lanes;
        let need = |rows: &[u64]| evaluate(rows, lanes).min_warps as u64;
        let brought = inst.warps[0] + inst.warps[1];
        let adequate = need(&inst.taken) + need(&inst.not_taken) < brought;
        let waiting = |path: &[u64]| -> Vec<u64> {
            path.iter()
                .zip(&inst.bypassed)
                .map(|(p, b)| p & !b)
                .collect()
        };
        let after = inst.bypassing[0]
            + inst.bypassing[1]
            + need(&waiting(&inst.taken))
            + need(&waiting(&inst.not_taken));
        let cta_divergent = any(&inst.taken) && any(&inst.not_taken);
        let waited: u64 = inst
            .decisions
            .iter()
            .filter(|d| d.1)
            .map(|d| now - d.2)
            .sum();
        let profile = self.branch(inst.pc, false);
        profile.cta_instances += 1;
        profile.cta_divergent += u64::from(cta_divergent);
        profile.adequate += u64::from(adequate);
        let (jump, uniform) = (profile.jump, profile.uniform);
        let s = &mut self.stats;
        let kind = if jump {
            &mut s.waits.jump
        } else if uniform {
            &mut s.waits.uniform
        } else if !cta_divergent {
            &mut s.waits.cta_uniform
        } else if inst.decisions.iter().any(|d| d.0) {
            &mut s.waits.divergent
        } else {
            &mut s.waits.warp_uniform
        };
        *kind += waited;
        s.branch_instances += 1;
        s.adequate_instances += u64::from(adequate);
        s.warps_before += brought;
        s.warps_after += after;
        for (diverged, stalled, _) in inst.decisions {
            let ideal = adequate && diverged;
            match (stalled, ideal) {
                (true, true) => s.stall_ideal_stall += 1,
                (true, false) => s.stall_ideal_bypass += 1,
                (false, true) => s.bypass_ideal_stall += 1,
                (false, false) => s.bypass_ideal_bypass += 1,
            }
        }
        if let Some(capt) = &mut self.capt {
            capt.clock(false, CaptOp::Update(adequate), inst.pc);
        }
    }
}

impl Policy for Tbc {
    fn prepare(&mut self, kernel: &Kernel) -> Result<(), String> {
        for (pc, step) in kernel.steps() {
            if step.inst.is_branch() {
                self.branches.insert(pc);
                if step.uniform {
                    self.uniform.insert(pc);
                }
                // Every branch of the kernel has a row, executed or not.
                self.branch(pc, false);
            }
        }
        if self.scheme == Scheme::Capri {
            let entries = match self.capt_entries {
                0 => self.branches.len().max(1),
                n => n as usize,
            };
            self.capt = Some(Capt::new(entries, self.capt_history));
        }
        Ok(())
    }

    fn consecutive(&self) -> bool {
        true
    }

    fn rows(&self) -> usize {
        self.warps.len()
    }

    fn launch(&mut self, slots: &[usize], masks: Vec<Vec<u64>>, pc: u32) {
        let base = slots[0];
        let rows: Vec<u64> = masks.iter().map(|m| m[0]).collect();
        let mut stack = TbcStack::new(slots.len(), self.lanes, self.depth);
        stack.clock(
            false,
            &Event::Launch {
                mask: rows.clone(),
                pc,
                rpc: EXIT_PC,
            },
        );
        for (r, &w) in slots.iter().enumerate() {
            self.home[w] = base;
            let mut own = vec![0; slots.len()];
            own[r] = rows[r];
            self.warps[w] = Some(Warp {
                cta: base,
                rows: own,
                pc,
                rpc: EXIT_PC,
                on_top: true,
                waiting: false,
                finished: false,
                outcome: None,
            });
            self.due &= !(1 << w);
        }
        self.ctas[base] = Some(Cta {
            rows: slots.len(),
            stack,
            kept: vec![],
            instance: None,
        });
    }

    fn home(&self, w: usize) -> usize {
        self.home[w]
    }

    /// Nothing while the warp waits for its path or owes its CTA an event (so the core
    /// does not take a warp at its path's end, the kernel's return, for a finished one).
    fn fetch(&self, w: usize) -> Option<(u32, &[u64])> {
        if self.due >> w & 1 == 1 {
            return None;
        }
        self.warps[w]
            .as_ref()
            .filter(|x| !x.waiting)
            .map(|x| (x.pc, x.rows.as_slice()))
    }

    fn groups(&mut self, _: &Step, ex: &Executed, out: &mut Vec<Group>) -> Mode {
        let group = one_group(out, self.lanes);
        for (r, &row) in ex.mask.iter().enumerate() {
            group.lanes |= row;
            for lane in bits(row) {
                group.rows[lane] = r;
            }
        }
        Mode::Normal
    }

    fn resolve(&mut self, w: usize, step: &Step, ex: &Executed, _: &[Group]) -> Result<(), String> {
        let jump = matches!(step.flow, Flow::Jump { .. });
        let tbc_jump = jump && self.scheme == Scheme::Tbc;
        let warp = self.warps[w].as_mut().expect("a warp that issued");
        if step.inst.is_branch() || tbc_jump {
            let n = warp.rows.len();
            let taken: Vec<u64> = if tbc_jump {
                warp.rows.clone()
            } else {
                ex.taken[..n].to_vec()
            };
            let not_taken = warp.rows.iter().zip(&taken).map(|(r, t)| r & !t).collect();
            warp.outcome = Some(Outcome {
                pc: ex.pc,
                taken,
                not_taken,
                taken_pc: if tbc_jump {
                    ex.next_pc
                } else {
                    ex.pc.wrapping_add(step.inst.imm as u32)
                },
                not_taken_pc: ex.pc.wrapping_add(4),
                rpc: ex.reconvergence_pc,
                jump: tbc_jump,
            });
            self.due |= 1 << w;
            return Ok(());
        }
        warp.pc = ex.next_pc;
        let base = warp.cta;
        let bottom = self.cta(base).stack.entries.len() == 1;
        let warp = self.warps[w].as_mut().expect("a warp");
        if warp.pc == EXIT_PC && warp.on_top && bottom {
            // Its threads are done (the core retires the warp); the CTA is when all are.
            warp.finished = true;
            let slots: Vec<usize> = (base..base + self.cta(base).rows).collect();
            let all = slots
                .iter()
                .all(|&v| self.warps[v].as_ref().is_none_or(|x| x.finished));
            if all {
                for v in slots {
                    if self.warps[v].is_none() {
                        self.changes.push(Change::Done(v));
                    }
                }
            }
            return Ok(());
        }
        let stops = warp.pc == warp.rpc
            || warp.pc == EXIT_PC
            || (!warp.on_top && self.branches.contains(&warp.pc));
        if stops {
            self.due |= 1 << w;
        }
        Ok(())
    }

    fn due(&self) -> u64 {
        self.due
    }

    fn settle(&mut self, w: usize, now: u64) -> Result<(), String> {
        self.due &= !(1 << w);
        let Some(warp) = self.warps[w].as_ref() else {
            return Ok(());
        };
        if warp.outcome.is_some() {
            self.branch_event(w, now)
        } else {
            self.arrive(w, now)
        }
    }

    fn changes(&mut self, out: &mut Vec<Change>) {
        out.append(&mut self.changes);
    }

    fn settled(&self, w: usize) -> bool {
        let base = self.home[w];
        self.ctas[base].as_ref().is_some_and(|c| {
            c.stack.entries.len() == 1 && c.stack.pend.is_none() && c.kept.is_empty()
        }) && self
            .slots(base)
            .all(|v| self.warps[v].as_ref().is_some_and(|x| !x.waiting))
    }

    fn stats(&self) -> DivergenceStats {
        DivergenceStats::Tbc(TbcStats {
            branches: self.profile.values().copied().collect(),
            ..self.stats.clone()
        })
    }
}
