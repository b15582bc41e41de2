//! Helpers every test file of the `weft` crate shares: the `weft` command, its output as
//! text, scratch folders and the kernels under `kernels/`. Each test file uses some.
#![allow(dead_code)]
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The repository's root: commands run there, kernels and `verilog_out/` are found there.
pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// `weft ARGS...` run from the root.
pub fn weft(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .current_dir(ROOT)
        .output()
        .expect("weft runs")
}

/// A command's standard output then its standard error.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// An empty folder of its own for each call (tests run in parallel); `/` in `name`
/// becomes `-`.
pub fn scratch(name: &str) -> PathBuf {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::SeqCst);
    let name = name.replace('/', "-");
    let dir = std::env::temp_dir().join(format!("weft-test-{name}-{}-{call}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The folders of `kernels/` (besides `include/`): the per-folder tests of
/// tests/lowering.rs and tests/vgiw_engine.rs name each, and
/// `every_kernel_folder_is_checked` fails when a folder is added without them.
pub const KERNEL_FOLDERS: [&str; 5] = ["micro", "lwm", "capri", "dom", "vgiw"];

/// Whether `name` is a scaled input with a `NAME_small` twin: the same code (the twin
/// `#include`s it) at the study's first input. Tests that check code on every variant
/// run the twin there and the scaled input once (tests/kernels.rs: in an ignored test,
/// minutes of CPU), so its cost is paid once.
pub fn has_small_twin(name: &str) -> bool {
    Path::new(ROOT)
        .join(format!("kernels/{name}_small.c"))
        .exists()
}

/// Every kernel of every folder under `kernels/` (`include/` is the header), as
/// `folder/stem`, sorted (the capri variants that `#include` another kernel are kernels of
/// their own).
pub fn all_kernels() -> Vec<String> {
    let mut names = vec![];
    for dir in std::fs::read_dir(Path::new(ROOT).join("kernels")).unwrap() {
        let dir = dir.unwrap().path();
        let folder = dir.file_name().unwrap().to_str().unwrap().to_string();
        if !dir.is_dir() || folder == "include" {
            continue;
        }
        for f in std::fs::read_dir(&dir).unwrap() {
            let p = f.unwrap().path();
            if p.extension().is_some_and(|e| e == "c") {
                names.push(format!(
                    "{folder}/{}",
                    p.file_stem().unwrap().to_str().unwrap()
                ));
            }
        }
    }
    names.sort();
    names
}

/// A kernel's source (`folder/stem`) with the kernels it includes (`#include "other.c"`:
/// a variant of a study's workload that changes one `#define`), so that what it calls and
/// declares is seen.
pub fn kernel_source(name: &str) -> String {
    let path = Path::new(ROOT).join(format!("kernels/{name}.c"));
    let source = std::fs::read_to_string(&path).unwrap();
    let mut all = source.clone();
    for other in source.lines().filter_map(|l| {
        l.strip_prefix("#include \"")
            .and_then(|l| l.strip_suffix(".c\""))
    }) {
        all.push_str(&std::fs::read_to_string(path.with_file_name(format!("{other}.c"))).unwrap());
    }
    all
}

/// The first byte where image `a` differs from `b` (same layout), as its address and the
/// data symbol holding it (`?` outside every symbol).
pub fn first_difference(
    a: &weft_sim::core::image::Image,
    b: &weft_sim::core::image::Image,
) -> Option<(u32, String)> {
    let at = (0..a.bytes.len()).find(|&i| a.bytes.get(i) != b.bytes.get(i))?;
    let addr = a.base + at as u32;
    let symbol = a
        .symbols
        .iter()
        .find(|(_, s)| s.addr <= addr && addr < s.addr + s.size.max(1))
        .map_or("?", |(n, _)| n.as_str());
    Some((addr, symbol.to_string()))
}
