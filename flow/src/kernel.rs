//! Building a kernel: one C file compiled by clang for RV32IMF (ABI ilp32f) with the
//! flags of the core model's contract, against `kernels/include/weft.h`, linked by lld
//! with `weft_kernel` as the entry.
use crate::tools::{transcript, CLANG, LLD};
use std::path::{Path, PathBuf};

/// The compile flags fixed by the core model's contract (docs/core.md §1). Every
/// function is convergent (`-fconvergent-functions`, CUDA's rule): clang may not move
/// `weft_barrier` into divergent code, as jump threading would otherwise do (a CTA-wide
/// stack cannot run one path's barrier while the other path waits).
pub const FLAGS: [&str; 11] = [
    "--target=riscv32-unknown-elf",
    "-march=rv32imf",
    "-mabi=ilp32f",
    "-O2",
    "-ffreestanding",
    "-fno-math-errno",
    "-fno-jump-tables",
    "-nostdlib",
    "-std=c11",
    "-Xclang",
    "-fconvergent-functions",
];

/// The folder of `weft.h`, relative to the project root.
pub const INCLUDE: &str = "kernels/include";

/// Compiles `source` into the ELF `out`; `include` is the folder holding `weft.h`.
pub fn compile(source: &Path, include: &Path, out: &Path) -> Result<PathBuf, String> {
    compile_defined(source, include, out, &[])
}

/// [`compile`] with macros defined (`NAME=VALUE`, passed as `-DNAME=VALUE`).
pub fn compile_defined(
    source: &Path,
    include: &Path,
    out: &Path,
    defines: &[String],
) -> Result<PathBuf, String> {
    if !source.is_file() {
        return Err(format!("kernel source {} not found", source.display()));
    }
    if !include.join("weft.h").is_file() {
        return Err(format!(
            "{} not found; run weft from the project root",
            include.join("weft.h").display()
        ));
    }
    CLANG.find()?;
    LLD.find()?;
    let (src, inc, elf) = (
        source.display().to_string(),
        format!("-I{}", include.display()),
        out.display().to_string(),
    );
    let defines: Vec<String> = defines.iter().map(|d| format!("-D{d}")).collect();
    let mut args: Vec<&str> = FLAGS.to_vec();
    args.extend(defines.iter().map(String::as_str));
    args.extend([
        "-fuse-ld=lld",
        "-Wl,-e,weft_kernel",
        "-Wall",
        &inc,
        "-o",
        &elf,
        &src,
    ]);
    let dir = std::env::current_dir().map_err(|e| e.to_string())?;
    let result = CLANG.run(&args, &dir)?;
    if !result.status.success() {
        return Err(format!(
            "clang could not build {}:\n{}",
            source.display(),
            transcript(&result)
        ));
    }
    Ok(out.to_path_buf())
}

/// The ELF bytes of a kernel given as C (built here, in a scratch folder) or as a
/// prebuilt ELF.
pub fn load(kernel: &Path) -> Result<Vec<u8>, String> {
    load_defined(kernel, &[])
}

/// [`load`] with macros defined (`NAME=VALUE`) for a kernel given as C; a prebuilt ELF
/// with macros is refused.
pub fn load_defined(kernel: &Path, defines: &[String]) -> Result<Vec<u8>, String> {
    if kernel.extension().is_none_or(|e| e != "c") {
        if !defines.is_empty() {
            return Err(format!(
                "{}: macros ({}) need a C kernel",
                kernel.display(),
                defines.join(", ")
            ));
        }
        return std::fs::read(kernel).map_err(|e| format!("cannot read {}: {e}", kernel.display()));
    }
    let work = std::env::temp_dir().join(format!(
        "weft-kernel-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let bytes = compile_defined(
        kernel,
        Path::new(INCLUDE),
        &work.join("kernel.elf"),
        defines,
    )
    .and_then(|elf| std::fs::read(&elf).map_err(|e| format!("cannot read {}: {e}", elf.display())));
    let _ = std::fs::remove_dir_all(&work);
    bytes
}
