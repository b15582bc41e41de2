//! The workloads: C kernels of one folder, found once and compiled once.
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use weft_sim::core::functional::{self, Launch, Program};
use weft_sim::core::image::Image;
use weft_sim::core::machine::Machine;
use weft_sim::core::simt::{self, Options, TimedRun};

/// One kernel, compiled once: its name (the file's stem), image and launch.
pub struct Workload {
    pub name: String,
    pub image: Image,
    pub launch: Launch,
    /// The memory its functional run leaves, run once when first asked
    /// ([`Workload::check_memory`]).
    functional: OnceLock<Result<Vec<u8>, String>>,
}

impl Workload {
    pub fn new(name: String, image: Image, launch: Launch) -> Workload {
        Workload {
            name,
            image,
            launch,
            functional: OnceLock::new(),
        }
    }

    /// The memory the functional run leaves (every thread run to its end, no timing),
    /// after checking each `expected_X` reference the kernel computes against its `X`.
    fn functional(&self) -> Result<&[u8], String> {
        let run = || -> Result<Vec<u8>, String> {
            let run = functional::run(
                Program::new(self.image.clone()),
                self.launch,
                unlimited().max_instructions,
            )?;
            let image = &run.image;
            for reference in image.symbols.keys() {
                if let Some(output) = reference.strip_prefix("expected_") {
                    if image.symbol_bytes(output)? != image.symbol_bytes(reference)? {
                        return Err(format!(
                            "the functional run's `{output}` differs from its reference"
                        ));
                    }
                }
            }
            Ok(run.image.bytes)
        };
        self.functional
            .get_or_init(run)
            .as_deref()
            .map_err(|e| format!("{}: {e}", self.name))
    }

    /// Whether the functional run's outputs match the `expected_X` references it computes
    /// (run once, as [`Workload::check_memory`] runs it).
    pub fn check_references(&self) -> Result<(), String> {
        self.functional().map(|_| ())
    }

    /// Whether a timed run left `timed`, the functional run's memory byte for byte: an
    /// error naming the first address that differs (a timing model that changed what the
    /// kernel computes).
    pub fn check_memory(&self, timed: &Image) -> Result<(), String> {
        let oracle = self.functional()?;
        match (0..oracle.len().max(timed.bytes.len()))
            .find(|&i| oracle.get(i) != timed.bytes.get(i))
        {
            None => Ok(()),
            Some(at) => Err(format!(
                "{}: the timed run's memory differs from the functional run's at {:#x}",
                self.name,
                timed.base as usize + at
            )),
        }
    }
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
    compile_defined(path, name, &[])
}

/// Builds the C kernel `path` with macros defined (`NAME=VALUE`) as the workload `name`
/// (a variant of the kernel, e.g. another input seed), and reads its launch.
pub fn compile_defined(path: &Path, name: String, defines: &[String]) -> Result<Workload, String> {
    let in_kernel = |e: String| format!("{}: {e}", path.display());
    let elf = weft_flow::kernel::load_defined(path, defines)?;
    let image = Image::from_elf(&elf).map_err(in_kernel)?;
    let (threads, cta) = image
        .launch
        .ok_or_else(|| in_kernel("no WEFT_LAUNCH".into()))?;
    Ok(Workload::new(
        name,
        image,
        Launch::new(threads, cta).map_err(in_kernel)?,
    ))
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
    fn a_timed_run_is_checked_against_the_functional_runs_memory() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let dir = folder("memory", &[]);
        let elf = weft_flow::kernel::compile(
            &root.join("kernels/micro/saxpy.c"),
            &root.join(weft_flow::kernel::INCLUDE),
            &dir.join("saxpy.elf"),
        )
        .unwrap();
        let image = Image::from_elf(&std::fs::read(elf).unwrap()).unwrap();
        let (threads, cta) = image.launch.unwrap();
        let w = Workload::new("saxpy".into(), image, Launch::new(threads, cta).unwrap());
        let mut run = run_to_end(&w, &Machine::lwm()).unwrap();
        assert_eq!(w.check_memory(&run.image), Ok(()));
        // One byte of the output changed: the run fails, naming where.
        let y = run.image.symbols["y"].addr;
        run.image.bytes[(y - run.image.base) as usize + 5] ^= 1;
        assert_eq!(
            w.check_memory(&run.image),
            Err(format!(
                "saxpy: the timed run's memory differs from the functional run's at {:#x}",
                y + 5
            ))
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
