//! The native build of a kernel: the same C file compiled for the host against the host
//! variant of `weft.h` (its threads run one after another), run, and its globals read
//! back by symbol. The whole launch is the oracle of every kernel without `weft_barrier`;
//! `weft_setup` alone ([`Part::Setup`]) is the oracle of what the model's `weft_setup`
//! leaves, among it the serial references (`expected_*`) of the kernels with barriers.
use crate::tools::{transcript, CLANG};
use object::{Object, ObjectSymbol};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The host compile flags. clang contracts `a * b + c` into a fused multiply-add as the
/// device build does (`-ffp-contract=on`); x86-64 needs `-mfma` to fuse it too, so that
/// float results agree bit for bit.
pub fn host_flags() -> Vec<&'static str> {
    let mut flags = vec!["-O2", "-std=c11", "-fno-math-errno", "-no-pie"];
    if cfg!(target_arch = "x86_64") {
        flags.push("-mfma");
    }
    flags
}

/// What the native run executes before it writes the globals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// `weft_setup`, then `weft_kernel` for every thread of the launch.
    Launch,
    /// `weft_setup` alone (`--setup-only`).
    Setup,
}

/// Every global the native build of `source` defines in its data and bss (name, bytes),
/// as the run of `part` left it. `include` holds `weft.h`; the build and the dump go to
/// `work`. Kernels compare the globals whose names and sizes the device build shares.
pub fn globals(
    source: &Path,
    include: &Path,
    part: Part,
    work: &Path,
) -> Result<Vec<(String, Vec<u8>)>, String> {
    let exe = build(source, include, work)?;
    run(&exe, part, work)
}

/// Builds `source` for the host into `work`; returns the executable's path.
pub fn build(source: &Path, include: &Path, work: &Path) -> Result<PathBuf, String> {
    if !source.is_file() {
        return Err(format!("kernel source {} not found", source.display()));
    }
    let clang = CLANG.find()?;
    std::fs::create_dir_all(work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let exe = work.join("kernel.host");
    let build = Command::new(clang)
        .args(host_flags())
        .arg(format!("-I{}", include.display()))
        .arg(source)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .map_err(|e| format!("cannot run clang: {e}"))?;
    if !build.status.success() {
        return Err(format!(
            "clang could not build {} for the host:\n{}",
            source.display(),
            transcript(&build)
        ));
    }
    Ok(exe)
}

/// Runs the host executable `exe` (from [`build`]) for `part`, dumping into `work`, and
/// reads every global back by its symbol.
pub fn run(exe: &Path, part: Part, work: &Path) -> Result<Vec<(String, Vec<u8>)>, String> {
    let dump = work.join("globals.bin");
    let mut run = Command::new(exe);
    run.arg(&dump);
    if part == Part::Setup {
        run.arg("--setup-only");
    }
    let out = run
        .output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if !out.status.success() {
        return Err(format!(
            "the native run ({part:?}) of {} failed: {}",
            exe.display(),
            transcript(&out)
        ));
    }
    let memory =
        std::fs::read(&dump).map_err(|e| format!("cannot read {}: {e}", dump.display()))?;
    let elf_bytes =
        std::fs::read(exe).map_err(|e| format!("cannot read {}: {e}", exe.display()))?;
    let elf = object::File::parse(&*elf_bytes)
        .map_err(|e| format!("cannot parse {}: {e}", exe.display()))?;
    // The dump is the bytes from `__data_start` to `_end` (weft.h's host main).
    let start = elf
        .symbols()
        .find(|s| s.name() == Ok("__data_start"))
        .ok_or_else(|| format!("{} has no `__data_start`", exe.display()))?
        .address();
    Ok(elf
        .symbols()
        .filter(|s| s.is_definition() && s.size() > 0)
        .filter_map(|s| {
            let at = usize::try_from(s.address().checked_sub(start)?).ok()?;
            let bytes = memory.get(at..at + usize::try_from(s.size()).ok()?)?;
            Some((s.name().ok()?.to_string(), bytes.to_vec()))
        })
        .collect())
}
