//! The workloads: C kernels of one folder, found once and compiled once.
use std::path::{Path, PathBuf};
use weft_sim::core::functional::{Launch, Program};
use weft_sim::core::image::Image;
use weft_sim::core::machine::Machine;
use weft_sim::core::simt::{self, Options, TimedRun};

/// One kernel, compiled once: its name (the file's stem), image and launch.
pub struct Workload {
    pub name: String,
    pub image: Image,
    pub launch: Launch,
}

fn stem(path: &Path) -> &str {
    path.file_stem().and_then(|s| s.to_str()).unwrap_or("")
}

/// The kernels (`*.c`) of `dir`: those named in `only` (all when empty), in `order`
/// first, then any other by name. A name of `only` without its file is refused.
pub fn discover(dir: &Path, only: &[String], order: &[&str]) -> Result<Vec<PathBuf>, String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .filter(|p| only.is_empty() || only.iter().any(|o| o == stem(p)))
        .collect();
    paths.sort_by_key(|p| {
        let name = stem(p).to_string();
        let at = order.iter().position(|n| *n == name);
        (at.unwrap_or(order.len()), name)
    });
    for o in only {
        if !paths.iter().any(|p| stem(p) == o) {
            return Err(format!("--only {o}: no {o}.c in {}", dir.display()));
        }
    }
    if paths.is_empty() {
        return Err(format!("no kernels (*.c) in {}", dir.display()));
    }
    Ok(paths)
}

/// Builds `path` (C or ELF) and reads its launch.
pub fn compile(path: &Path) -> Result<Workload, String> {
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("?")
        .to_string();
    let in_kernel = |e: String| format!("{}: {e}", path.display());
    let elf = weft_flow::kernel::load(path)?;
    let image = Image::from_elf(&elf).map_err(in_kernel)?;
    let (threads, cta) = image
        .launch
        .ok_or_else(|| in_kernel("no WEFT_LAUNCH".into()))?;
    Ok(Workload {
        name,
        image,
        launch: Launch::new(threads, cta).map_err(in_kernel)?,
    })
}

/// A run without limits, progress output or trace.
pub fn unlimited() -> Options<'static> {
    Options {
        max_cycles: u64::MAX,
        max_instructions: u64::MAX,
        // A closure without captures: leaking its box allocates nothing.
        progress: Box::leak(Box::new(|_, _, _, _| {})),
        trace: None,
        two_level_always: false,
    }
}

/// Runs `w` on `machine`'s SIMT core to its end, without limits or progress output
/// (errors as the model gives them: callers say which kernel).
pub fn run_to_end(w: &Workload, machine: &Machine) -> Result<TimedRun, String> {
    simt::run(
        Program::new(w.image.clone()),
        w.launch,
        machine,
        unlimited(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str, files: &[&str]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("weft-discover-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for f in files {
            std::fs::write(dir.join(f), "").unwrap();
        }
        dir
    }

    fn names(paths: &[PathBuf]) -> Vec<&str> {
        paths.iter().map(|p| stem(p)).collect()
    }

    #[test]
    fn discover_orders_listed_names_first_then_the_others_by_name() {
        let dir = folder(
            "sorted",
            &["zeta.c", "bfs.c", "alpha.c", "sort.c", "notes.txt"],
        );
        let all = discover(&dir, &[], &["sort", "bfs"]).unwrap();
        assert_eq!(names(&all), ["sort", "bfs", "alpha", "zeta"]);
        let by_name = discover(&dir, &[], &[]).unwrap();
        assert_eq!(names(&by_name), ["alpha", "bfs", "sort", "zeta"]);
        let some = discover(&dir, &["zeta".into(), "sort".into()], &["sort"]).unwrap();
        assert_eq!(names(&some), ["sort", "zeta"]);
        let missing = discover(&dir, &["nosuch".into()], &[]).unwrap_err();
        assert!(
            missing.contains("--only nosuch: no nosuch.c in"),
            "{missing}"
        );
    }

    #[test]
    fn discover_names_an_empty_or_missing_folder() {
        let empty = folder("empty", &["readme.md"]);
        let e = discover(&empty, &[], &[]).unwrap_err();
        assert!(e.starts_with("no kernels (*.c) in"), "{e}");
        let e = discover(&empty.join("nosuch"), &[], &[]).unwrap_err();
        assert!(e.contains("nosuch"), "{e}");
    }
}
