//! `weft eval` and `weft workloads`: their arguments; the work is weft-eval's.
use crate::run;
use crate::Failure;
use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::Args;
use std::path::PathBuf;
use weft_eval::workloads::WorkloadsOptions;

fn studies() -> PossibleValuesParser {
    PossibleValuesParser::new(
        weft_eval::STUDIES
            .iter()
            .map(|s| PossibleValue::new(s.name).help(s.about)),
    )
}

#[derive(Args)]
pub struct EvalArgs {
    /// The study.
    #[arg(value_parser = studies())]
    study: String,
    /// Where the page, its data and charts are written.
    #[arg(long, default_value = "docs/eval")]
    out: PathBuf,
    /// The folder of the workloads (default: the study's, kernels/STUDY).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Only these workloads (comma-separated names, default: every kernel in --dir).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Runs at a time.
    #[arg(long, default_value_t = 2)]
    jobs: usize,
    /// Run nothing: render the page and charts again from `--out`'s recorded data
    /// (STUDY.json), after a change to the page's code.
    #[arg(long, conflicts_with_all = ["dir", "only"])]
    render: bool,
    #[command(flatten)]
    on: crate::OnArgs,
}

pub fn eval(args: EvalArgs) -> Result<(), String> {
    if args.render {
        let files = weft_eval::render_recorded(&args.study, &args.out)?;
        for (file, text) in &files {
            let path = args.out.join(file);
            std::fs::write(&path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        eprintln!(
            "rendered {} files in {} from {}.json",
            files.len(),
            args.out.display(),
            args.study
        );
        return Ok(());
    }
    let on = args.on.on()?;
    weft_flow::commands::output_folder("--out", &args.out)?;
    let options = weft_eval::Options {
        out: args.out,
        dir: args.dir,
        only: args.only,
        jobs: args.jobs,
        on,
    };
    weft_eval::run_named(&args.study, &options, &|line| eprintln!("{line}"))
}

#[derive(Args)]
pub struct WorkloadsArgs {
    /// A machine preset (lwm) or a TOML file of machine keys.
    #[arg(long, default_value = "lwm")]
    machine: String,
    /// Override one machine key: KEY=VALUE (repeatable).
    #[arg(long = "set")]
    sets: Vec<String>,
    /// The folder of the workloads.
    #[arg(long, default_value = "kernels/lwm")]
    dir: PathBuf,
}

pub fn workloads(args: WorkloadsArgs) -> Result<(), Failure> {
    let machine = run::load_machine(&args.machine, &args.sets)?;
    Ok(weft_eval::workloads::workloads(&WorkloadsOptions {
        machine,
        machine_name: args.machine,
        dir: args.dir,
    })?)
}
