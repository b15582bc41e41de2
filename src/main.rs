//! `weft`: export, lint, measure, simulate and co-simulate weft's hardware presets; run
//! kernels on the core model and the studies. Argument types and dispatch only: the work
//! is in weft-flow, weft-testbenches and weft-eval.
mod hardware;
mod run;
mod study;

use clap::{Args, Parser, Subcommand};
use hardware::{
    AreaArgs, CosimArgs, ExportArgs, FpgaArgs, LintArgs, ProveArgs, ReportArgs, SimArgs,
};
use std::process::ExitCode;
use weft_flow::jobs::on_big_stack;
use weft_flow::runner::On;

#[derive(Parser)]
#[command(
    name = "weft",
    version,
    about = "Synthesizable RTL for GPU divergence mechanisms"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Every exportable preset with its parameters.
    List,
    /// Write DIR/<preset>.v for each preset (all when none named), then the area table:
    /// published or cached figures where the Verilog is unchanged, small changed presets
    /// measured now, large ones named with the command that measures them.
    Export(ExportArgs),
    /// Yosys and Verilator lint of the exported files; non-zero exit on any finding.
    Lint(LintArgs),
    /// Yosys synthesis per preset: cells, flip-flops, RAM bits, 2-input gates, logic
    /// depth, transistor estimate, Xilinx LUTs and flip-flops; and on a standard-cell
    /// library: area in µm², cells, flip-flops, critical path and maximum clock
    /// (OpenSTA with constraints/weft.sdc).
    Area(AreaArgs),
    /// iCE40 synthesis, place and route of a preset inside an I/O harness: logic cells,
    /// flip-flops, RAM blocks, Fmax (median over seeds), and the harness's own share.
    Fpga(FpgaArgs),
    /// `area` and `fpga` over every preset: DIR/report.md, report.json, report.svg.
    Report(ReportArgs),
    /// Random stimulus checked every cycle against the golden model.
    Sim(SimArgs),
    /// Run a C kernel (or its RV32IMF ELF) on the core model: cycles, IPC, SIMD
    /// utilisation, stalls, caches and DRAM, and the symbols asked for with --dump.
    Run(run::RunArgs),
    /// The LWM paper's 12 workloads (kernels/lwm) on one machine: a Markdown table of
    /// IPC, SIMD utilisation, idle FUs, active threads per warp, L1 and DRAM, and each
    /// workload's class beside the paper's Table 2.
    Workloads(study::WorkloadsArgs),
    /// A study on the core model: `lwm` (the LWM paper's §6: large warps, two-level
    /// scheduling), `capri` (the CAPRI paper's §4-5: thread block compaction), `dom`
    /// (the DoM paper's §8: diverge on miss) or `vgiw` (the VGIW paper's §5: a VGIW core
    /// against a Fermi SM) runs over its workloads and writes docs/eval/NAME.{md,json}
    /// and charts.
    Eval(study::EvalArgs),
    /// Prove each preset's properties (its block's contract) on its exported Verilog:
    /// bounded model checking from reset and k-induction with Yosys's `sat`. Prints per
    /// property: proved (induction), holds to --depth, or failed with the cycle, the
    /// signals and a VCD of the counterexample; non-zero exit on any failure, and on any
    /// property left open (named) unless --accept-open.
    Prove(ProveArgs),
    /// Replay the Rust simulation's ports on the exported Verilog and compare every cycle.
    Cosim(CosimArgs),
}

/// Where the jobs of `eval`, `report` and `prove` run.
#[derive(Args)]
pub struct OnArgs {
    /// Where the jobs run: `local` (this machine's cores) or `slurm` (one Slurm job
    /// array, each element running this command on one job; the working tree must be on
    /// a filesystem the nodes share, and a rerun submits only the jobs not yet done).
    #[arg(long, env = "WEFT_ON", default_value = "local",
          value_parser = ["local", "slurm"])]
    on: String,
    /// With `--on slurm`: arguments for sbatch, separated by spaces (partition, account,
    /// time limit: "-p batch -A lab -t 30").
    #[arg(
        long,
        env = "WEFT_SLURM_ARGS",
        default_value = "",
        allow_hyphen_values = true
    )]
    slurm_args: String,
}

impl OnArgs {
    /// The runner, checked before any work (Slurm: `sbatch` found, the controller
    /// answering, the arguments accepted).
    pub fn on(&self) -> Result<On, String> {
        On::by_name(&self.on, &self.slurm_args)
    }
}

fn main() -> ExitCode {
    // A closed pipe (`weft list | head`) ends the command quietly, as for any Unix tool,
    // instead of a panic in `println!`.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let command = Cli::parse().command;
    // rust-hdl builds a block's model on the stack: the VGIW core's takes megabytes.
    match on_big_stack(move || dispatch(command)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Failed(msg)) => {
            eprintln!("weft: {msg}");
            ExitCode::FAILURE
        }
        Err(Failure::BadInput(msg)) => {
            eprintln!("weft: {msg}");
            ExitCode::from(2)
        }
    }
}

/// Why a command failed: its input (exit 2, as for arguments clap refuses), or the work.
pub enum Failure {
    BadInput(String),
    Failed(String),
}

impl From<String> for Failure {
    fn from(msg: String) -> Failure {
        Failure::Failed(msg)
    }
}

fn dispatch(command: Command) -> Result<(), Failure> {
    let done = match command {
        Command::Run(args) => return run::run(args),
        Command::Workloads(args) => return study::workloads(args),
        Command::List => hardware::list(),
        Command::Export(args) => hardware::export(args),
        Command::Lint(args) => hardware::lint(args),
        Command::Area(args) => hardware::area(args),
        Command::Fpga(args) => hardware::fpga(args),
        Command::Report(args) => hardware::report(args),
        Command::Sim(args) => hardware::sim(args),
        Command::Eval(args) => study::eval(args),
        Command::Prove(args) => hardware::prove(args),
        Command::Cosim(args) => hardware::cosim(args),
    };
    Ok(done?)
}
