//! The references of kernels against their native build. A kernel with `weft_barrier`
//! cannot run natively, so its `weft_setup` computes serial references (`expected_*`)
//! that its outputs are compared with; but `weft_setup` runs on weft's own interpreter,
//! so an instruction the interpreter gets wrong in setup and kernel alike would go
//! unseen. Here the same file's `weft_setup` also runs natively (the host variant of
//! `weft.h` with `--setup-only`), and every global both builds define, the references
//! and the inputs the setup writes, must hold the same bytes after the model's
//! `weft_setup` as after the native one: floats bit for bit (the setups use +, -, *, /,
//! sqrt, fused multiply-adds and conversions from integers, correctly rounded on both
//! sides, and no libm call: the device build links none).
mod common;
use common::{all_kernels, kernel_source, scratch};
use std::path::{Path, PathBuf};
use weft_flow::native::{self, Part};
use weft_sim::core::functional::{self, Launch, Program};
use weft_sim::core::image::Image;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const LIMIT: u64 = 500_000_000;

fn source(name: &str) -> PathBuf {
    Path::new(ROOT).join(format!("kernels/{name}.c"))
}

/// The device build of `source` after the model's `weft_setup` (the functional
/// interpreter, as `weft run` and every test run it), at the kernel's WEFT_LAUNCH.
fn after_model_setup(source: &Path) -> Result<Image, String> {
    let elf = weft_flow::kernel::load(source)?;
    let image = Image::from_elf(&elf)?;
    let (threads, cta) = image
        .launch
        .ok_or_else(|| format!("{}: no WEFT_LAUNCH", source.display()))?;
    let Program { mut image, code } = Program::new(image);
    functional::run_setup(&code, &mut image, Launch::new(threads, cta)?, LIMIT)?;
    Ok(image)
}

/// The kernel's reference symbols (`expected_<output>`) in the device build.
fn references(image: &Image) -> Vec<String> {
    image
        .symbols
        .keys()
        .filter(|s| s.starts_with("expected_"))
        .cloned()
        .collect()
}

/// What one comparison covered.
#[derive(Debug)]
struct Compared {
    symbols: usize,
    bytes: usize,
    /// The device build's data symbols outside CTA-shared memory that were not compared
    /// (constants, which the host keeps outside its data and bss, or other sizes).
    not_compared: Vec<String>,
}

/// Compares every global the native build dumped with the model's bytes of the same
/// symbol: those whose name and size the device build shares, outside CTA-shared memory
/// (which does not exist in setup). Each `expected_*` symbol of the device build must be
/// among them. The first difference is an error naming the symbol and the byte.
fn compare(model: &Image, native: &[(String, Vec<u8>)]) -> Result<Compared, String> {
    let mut compared = Compared {
        symbols: 0,
        bytes: 0,
        not_compared: vec![],
    };
    let mut seen = vec![];
    for (symbol, theirs) in native {
        let Some(s) = model.symbols.get(symbol) else {
            continue;
        };
        // A pointer or a `long` differs in size between the builds: not comparable.
        if s.size as usize != theirs.len() {
            continue;
        }
        // Refused for CTA-shared variables, which setup cannot reach.
        let Ok(ours) = model.symbol_bytes(symbol) else {
            continue;
        };
        if let Some(at) = ours.iter().zip(theirs).position(|(a, b)| a != b) {
            let end = (at + 8).min(ours.len());
            return Err(format!(
                "`{symbol}` differs from the native weft_setup's first at byte {at} of {} (model {:02x?}, native {:02x?})",
                ours.len(),
                &ours[at..end],
                &theirs[at..end]
            ));
        }
        compared.symbols += 1;
        compared.bytes += ours.len();
        seen.push(symbol.as_str());
    }
    compared.not_compared = model
        .symbols
        .iter()
        .filter(|(name, s)| {
            s.size > 0 && !model.is_text(s.addr) && model.symbol_bytes(name).is_ok()
        })
        .map(|(name, _)| name.clone())
        .filter(|name| !seen.contains(&name.as_str()))
        .collect();
    for reference in references(model) {
        if !seen.contains(&reference.as_str()) {
            return Err(format!(
                "`{reference}` is not in the native build's globals with the device's size: not compared"
            ));
        }
    }
    Ok(compared)
}

/// The native `weft_setup`'s globals of kernel `name` (built from `source`).
fn native_setup(name: &str, source: &Path) -> Vec<(String, Vec<u8>)> {
    let include = Path::new(ROOT).join(weft_flow::kernel::INCLUDE);
    let dir = scratch(name);
    let globals = native::globals(source, &include, Part::Setup, &dir)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    // The dumps are megabytes each (kept on failure, for a look).
    let _ = std::fs::remove_dir_all(&dir);
    globals
}

/// Whether `text` declares `global` as a constant (`const T global[...]` or `= ...`).
fn declared_const(text: &str, global: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start();
        (l.starts_with("const ") || l.starts_with("static const "))
            && (l.contains(&format!(" {global}[")) || l.contains(&format!(" {global} =")))
    })
}

/// Every kernel under `kernels/` with `expected_*` references (the barrier workloads of
/// both studies, decrypt's FIPS-197 answer, micro/shared_exchange): after the model's
/// `weft_setup` every reference and every input the setup writes equals, byte for byte,
/// what the native `weft_setup` of the same file leaves; and one byte changed in any
/// reference is caught.
#[test]
fn references_equal_the_native_setups() {
    let names = all_kernels();
    let checked = weft_flow::jobs::parallel(&names, 2, |name| {
        let src = source(name);
        let model = after_model_setup(&src).unwrap_or_else(|e| panic!("{name}: {e}"));
        let refs = references(&model);
        if refs.is_empty() {
            return None;
        }
        let native = native_setup(name, &src);
        let compared = compare(&model, &native).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Every other global of the device build was compared, but for constants the
        // setup cannot write (the host keeps them outside its data and bss).
        let text = kernel_source(name);
        for global in &compared.not_compared {
            assert!(
                global == "weft_launch" || declared_const(&text, global),
                "{name}: `{global}` was not compared with the native setup's"
            );
        }
        // The check can fail: one byte of each reference changed on one side is caught.
        for reference in &refs {
            let mut planted = native.clone();
            let (_, bytes) = planted.iter_mut().find(|(s, _)| s == reference).unwrap();
            let at = bytes.len() / 2;
            bytes[at] ^= 0x01;
            let err = compare(&model, &planted).expect_err(&format!(
                "{name}: a changed byte of `{reference}` is missed"
            ));
            assert!(
                err.contains(&format!("`{reference}`")) && err.contains(&format!("byte {at} ")),
                "{name}: {err}"
            );
        }
        println!(
            "{name}: {} globals ({} bytes) equal after weft_setup, references {}; not compared: {}",
            compared.symbols,
            compared.bytes,
            refs.join(", "),
            compared.not_compared.join(", ")
        );
        Some(name.clone())
    });
    let checked: Vec<String> = checked.into_iter().flatten().collect();
    // The kernels found by their symbols are those whose text names a reference
    // (a variant that includes a workload inherits its references).
    let by_text: Vec<String> = names
        .iter()
        .filter(|name| kernel_source(name).contains("expected_"))
        .cloned()
        .collect();
    assert_eq!(checked, by_text);
    for barrier_workload in [
        "lwm/bfs",
        "lwm/hotspot",
        "lwm/needleman",
        "lwm/reduction",
        "capri/lps",
        "capri/backp",
        "capri/fft",
        "capri/tpacf",
    ] {
        assert!(
            checked.iter().any(|c| c == barrier_workload),
            "{barrier_workload} not checked: {checked:?}"
        );
    }
}

/// The blind spot this file closes: a fault shared by the model's setup and kernel
/// (here planted in the device build only, as an interpreter bug would be: reduction's
/// input generator multiplies by another constant) leaves the kernel's output equal to
/// its reference on the model, so comparing the two cannot see it; the native setup
/// does.
#[test]
fn a_fault_shared_by_setup_and_kernel_is_caught_by_the_native_setup() {
    let original = std::fs::read_to_string(source("lwm/reduction")).unwrap();
    let step = "s = s * 1664525u + 1013904223u;";
    assert!(original.contains(step), "reduction.c's generator changed");
    let planted = format!(
        "#ifdef __riscv\n#define MULTIPLIER 1664527u\n#else\n#define MULTIPLIER 1664525u\n#endif\n{}",
        original.replace(step, "s = s * MULTIPLIER + 1013904223u;")
    );
    let dir = scratch("planted-reduction");
    let src = dir.join("reduction.c");
    std::fs::write(&src, planted).unwrap();
    // On the model, the output still equals the reference.
    let elf = weft_flow::kernel::load(&src).unwrap();
    let image = Image::from_elf(&elf).unwrap();
    let (threads, cta) = image.launch.unwrap();
    let run = functional::run(
        Program::new(image),
        Launch::new(threads, cta).unwrap(),
        LIMIT,
    )
    .unwrap();
    assert_eq!(
        run.image.symbol_bytes("total").unwrap(),
        run.image.symbol_bytes("expected_total").unwrap()
    );
    let model = after_model_setup(&src).unwrap();
    let native = native_setup("planted-reduction", &src);
    let err = compare(&model, &native).expect_err("the planted fault is missed");
    assert!(
        err.contains("`vec`") || err.contains("`expected_total`"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The host harness refuses an argument it does not know, rather than running the
/// whole launch when `--setup-only` is misspelt.
#[test]
fn the_native_harness_refuses_unknown_arguments() {
    let dir = scratch("harness");
    let include = Path::new(ROOT).join(weft_flow::kernel::INCLUDE);
    let exe = native::build(&source("micro/saxpy"), &include, &dir).unwrap();
    let out = std::process::Command::new(exe)
        .args([dir.join("x.bin").to_str().unwrap(), "--setup-onyl"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("unknown or incomplete argument `--setup-onyl`"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
