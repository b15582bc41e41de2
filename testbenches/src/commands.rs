//! The work of `weft list`, `weft sim`, `weft prove` and `weft cosim` on the presets:
//! the command-line tool parses the arguments and calls these.
use crate::cosim::{self, Simulator};
use crate::formal;
use crate::presets::{self, Preset};
use crate::run::{run, Outputs};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;
use weft_flow::commands::{exported_file, work_dir};
use weft_flow::prove::{self, Outcome, Proof};
use weft_flow::runner::On;

/// The named presets, or all of them when none is named.
pub fn select(names: &[String]) -> Result<Vec<Preset>, String> {
    if names.is_empty() {
        return Ok(presets::all());
    }
    names.iter().map(|n| presets::find(n)).collect()
}

/// Every preset with its parameters and summary, one per line.
pub fn list() {
    for p in presets::all() {
        let params: Vec<String> = (p.params)()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        println!("{:<28} {:<36} {}", p.name, params.join(" "), p.summary);
    }
}

/// Random stimulus on `preset` for `cycles` cycles, checked every cycle against the
/// golden model and the contracts; streams a VCD to `vcd`.
pub fn simulate(preset: &str, cycles: u64, seed: u64, vcd: Option<&Path>) -> Result<(), String> {
    let p = presets::find(preset)?;
    if cycles == 0 {
        return Err("--cycles must be at least 1".into());
    }
    let mut bench = (p.bench)();
    let writer: Option<Box<dyn std::io::Write>> = match vcd {
        Some(path) => Some(Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
        ))),
        None => None,
    };
    let outputs = Outputs {
        vcd: writer,
        vectors: None,
        progress_every: cosim::progress_step(cycles),
    };
    let report = run(bench.as_mut(), cycles, seed, outputs)
        .map_err(|e| format!("{preset} (seed {seed}): {e}"))?;
    println!(
        "{preset}: {} cycles, seed {seed}, model and RTL agree every cycle; {:.0} simulated cycles/s",
        report.cycles,
        report.cycles_per_second()
    );
    if let Some(path) = vcd {
        // `weft sim` writes the save file `FILE.gtkw` beside it.
        println!(
            "waveform: {} (open with `gtkwave {}.gtkw`)",
            path.display(),
            path.display()
        );
    }
    Ok(())
}

/// What `weft prove` is asked.
pub struct ProveOptions {
    /// Where the exported Verilog is read.
    pub dir: PathBuf,
    /// Cycles from reset checked, and the longest induction tried.
    pub depth: u32,
    /// Stop each property's proof after this many minutes.
    pub minutes: Option<u64>,
    /// Where the harnesses and counterexamples are written.
    pub out: PathBuf,
    /// Exit 0 when properties are left open (induction did not close, or the time limit
    /// stopped the proof), as long as none fails.
    pub accept_open: bool,
    /// Where the proofs run (two at a time here, or a Slurm array).
    pub on: On,
}

/// Proves each preset's properties; an error when any fails or, unless `accept_open`,
/// when any is left open.
pub fn prove(names: &[String], o: &ProveOptions) -> Result<(), String> {
    if o.depth < 2 {
        return Err("--depth must be at least 2 (cycle 1 is the reset)".into());
    }
    if o.minutes == Some(0) {
        return Err("--minutes must be at least 1".into());
    }
    let limit = o.minutes.map(|m| Duration::from_secs(60 * m));
    let presets = select(names)?;
    let files: Vec<PathBuf> = presets
        .iter()
        .map(|p| exported_file(&o.dir, p.name))
        .collect::<Result<_, _>>()?;
    weft_flow::commands::output_folder("--out", &o.out)?;
    // One job per property of every preset; each preset's lines print once its last
    // property is done, in the presets' order.
    let mut jobs: Vec<(usize, String)> = vec![];
    let mut harnesses = vec![];
    for (k, p) in presets.iter().enumerate() {
        let harness = formal::harness_of(p)?;
        jobs.extend(
            prove::labelled(p.name, &harness)?
                .into_iter()
                .map(|n| (k, n)),
        );
        harnesses.push(harness);
    }
    let count = |k: usize| jobs.iter().filter(|(j, _)| *j == k).count();
    let printed = Mutex::new((
        0,
        (0..presets.len())
            .map(|k| vec![None; count(k)])
            .collect::<Vec<_>>(),
    ));
    let results = weft_flow::runner::run(
        &o.on,
        2,
        &jobs,
        |(k, property)| format!("{} {property}", presets[*k].name),
        |(k, property)| {
            let p = &presets[*k];
            let dir = o.out.join(p.name);
            prove::prove_property(
                p.name,
                &files[*k],
                &harnesses[*k],
                property,
                o.depth,
                &dir,
                limit,
            )
        },
        |(k, property), r| {
            let mut printed = printed.lock().expect("no printer panicked");
            let (next, lines) = &mut *printed;
            let at = jobs
                .iter()
                .filter(|(j, _)| j == k)
                .position(|(_, n)| n == property)
                .expect("a listed property");
            lines[*k][at] = Some(match r {
                Ok(proof) => proof.line(),
                Err(e) => format!("{property} FAILED to run: {e}"),
            });
            while *next < presets.len() && lines[*next].iter().all(Option::is_some) {
                println!("{}:", presets[*next].name);
                for line in lines[*next].iter().flatten() {
                    println!("  {line}");
                }
                *next += 1;
            }
        },
    )?;
    let mut all = vec![];
    let mut errors = vec![];
    for ((k, property), r) in jobs.iter().zip(results) {
        match r {
            Ok(proof) => all.push((presets[*k].name, proof)),
            Err(e) => errors.push(format!("{} {property}: {e}", presets[*k].name)),
        }
    }
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    if let Some(note) = verdict(&all, o.accept_open)? {
        println!("{note}");
    }
    Ok(())
}

/// The exit of `weft prove` on its proofs, (preset, proof): an error when any failed or,
/// unless `accept_open`, when any is left open (a bounded result is no proof: the bug
/// may lie deeper than `--depth`), naming the open ones; with `accept_open`, the note
/// that names those accepted.
pub fn verdict(proofs: &[(&str, Proof)], accept_open: bool) -> Result<Option<String>, String> {
    let failures = proofs.iter().filter(|(_, p)| formal::failed(p)).count();
    let open: Vec<String> = proofs
        .iter()
        .filter_map(|(preset, p)| {
            let why = match p.outcome {
                Outcome::HoldsTo { depth } => format!("holds to depth {depth}, induction open"),
                Outcome::Stopped { minutes } => format!("stopped after {minutes} min"),
                _ => return None,
            };
            Some(format!("{preset} {} ({why})", p.property))
        })
        .collect();
    let open_text = |what: &str| format!("{} properties {what}: {}", open.len(), open.join(", "));
    match (failures, open.is_empty(), accept_open) {
        (0, true, _) => Ok(None),
        (0, false, true) => Ok(Some(open_text("left open, accepted by --accept-open"))),
        (0, false, false) => Err(format!(
            "{}; a larger --depth (or --minutes) may settle them, --accept-open accepts them",
            open_text("left open")
        )),
        (_, true, _) => Err(format!("{failures} properties failed")),
        (_, false, _) => Err(format!(
            "{failures} properties failed; {}",
            open_text("left open")
        )),
    }
}

/// Records `preset`'s ports from the Rust simulation and replays them on its exported
/// Verilog under `simulators`; an error names every mismatch. `keep`: the folder that
/// keeps the replay's files (otherwise a scratch folder, removed).
pub fn cosimulate(
    preset: &str,
    cycles: u64,
    seed: u64,
    simulators: &[Simulator],
    keep: &Option<PathBuf>,
) -> Result<(), String> {
    let p = presets::find(preset)?;
    if let Some(keep) = keep {
        weft_flow::commands::output_folder("--keep", keep)?;
    }
    let dir = work_dir(keep, &format!("cosim-{}", p.name));
    let result = cosim::cosimulate(&p, cycles, seed, simulators, &dir);
    if keep.is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    let c = result?;
    print!("{}", c.summary());
    let failures = c.failures();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "co-simulation of {} failed: {}",
            c.preset,
            failures.join("; ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proof(property: &str, outcome: Outcome) -> Proof {
        Proof {
            property: property.into(),
            outcome,
            seconds: 1.0,
        }
    }

    /// Proved properties pass; an open one fails the command (named, with why) unless
    /// accepted; a failure fails it whatever is accepted.
    #[test]
    fn open_properties_fail_the_command_unless_accepted() {
        let proved = (
            "a",
            proof(
                "p_x",
                Outcome::Proved {
                    induction_length: 1,
                },
            ),
        );
        let open = ("a", proof("p_open", Outcome::HoldsTo { depth: 2 }));
        let stopped = ("b", proof("p_slow", Outcome::Stopped { minutes: 3 }));
        let failed = (
            "b",
            proof(
                "p_bad",
                Outcome::Failed {
                    cycle: 2,
                    signals: vec![],
                    vcd: "t.vcd".into(),
                },
            ),
        );
        for accept in [false, true] {
            assert_eq!(verdict(std::slice::from_ref(&proved), accept), Ok(None));
        }
        let both = [proved.clone(), open.clone(), stopped.clone()];
        let refused = verdict(&both, false).unwrap_err();
        assert!(
            refused.starts_with(
                "2 properties left open: a p_open (holds to depth 2, induction open), \
                 b p_slow (stopped after 3 min)"
            ) && refused.contains("--accept-open"),
            "{refused}"
        );
        assert!(!refused.contains("p_x"), "{refused}");
        let accepted = verdict(&both, true).unwrap().unwrap();
        assert!(
            accepted.contains("accepted by --accept-open") && accepted.contains("a p_open"),
            "{accepted}"
        );
        for accept in [false, true] {
            let e = verdict(&[proved.clone(), failed.clone(), open.clone()], accept).unwrap_err();
            assert!(
                e.starts_with("1 properties failed; 1 properties left open: a p_open"),
                "{e}"
            );
            assert_eq!(
                verdict(std::slice::from_ref(&failed), accept).unwrap_err(),
                "1 properties failed"
            );
        }
    }
}
