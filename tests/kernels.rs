//! Kernels on the core model against their native oracle: each barrier-free kernel of
//! `kernels/` is built twice, for RV32IMF (run by the model) and for the host (run
//! natively, threads one after another, by the host variant of `weft.h`), and every
//! byte of every global it defines must agree. Barrier kernels are checked against
//! their known answers; bad input gets a message and a non-zero exit, never a panic.
use object::{Object, ObjectSymbol};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use weft_sim::core::functional::{self, Launch, Program};
use weft_sim::core::image::Image;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const LIMIT: u64 = 500_000_000;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("weft-kernels-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn weft(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_weft"))
        .args(args)
        .current_dir(ROOT)
        .output()
        .expect("weft runs")
}

/// The RV32IMF build of `kernels/<name>.c`.
fn device_image(name: &str) -> Image {
    // Tests run from the package root, where `load` finds `weft.h`.
    let elf = weft_flow::kernel::load(&Path::new(ROOT).join(format!("kernels/{name}.c"))).unwrap();
    Image::from_elf(&elf).unwrap()
}

/// Every data symbol of the native build with its bytes after the native run. The host
/// build uses clang as the device build does (the same contraction of `a * b + c` into a
/// fused multiply-add) with `-mfma` so that the host fuses it too.
fn native_symbols(name: &str) -> Vec<(String, Vec<u8>)> {
    let dir = scratch(&format!("host-{}", name.replace('/', "-")));
    let exe = dir.join("k.host");
    let build = Command::new("clang")
        .args(["-O2", "-std=c11", "-mfma", "-fno-math-errno", "-no-pie"])
        .arg(format!("-I{ROOT}/kernels/include"))
        .arg(format!("{ROOT}/kernels/{name}.c"))
        .args(["-o", exe.to_str().unwrap(), "-lm"])
        .output()
        .expect("clang runs (apt-get install -y clang lld)");
    assert!(build.status.success(), "{}", text(&build));
    let image_file = dir.join("image.bin");
    let run = Command::new(&exe).arg(&image_file).output().unwrap();
    assert!(run.status.success(), "native run of {name}: {}", text(&run));
    let memory = std::fs::read(&image_file).unwrap();
    let elf_bytes = std::fs::read(&exe).unwrap();
    let elf = object::File::parse(&*elf_bytes).unwrap();
    let start = elf
        .symbols()
        .find(|s| s.name() == Ok("__data_start"))
        .expect("__data_start")
        .address();
    // The kernel's own globals: the names the device build defines too.
    let device = device_image(name);
    elf.symbols()
        .filter(|s| s.is_definition() && s.size() > 0)
        .filter_map(|s| {
            let name = s.name().ok()?;
            let d = device.symbols.get(name)?;
            let at = s.address().checked_sub(start)? as usize;
            let bytes = memory.get(at..at + s.size() as usize)?;
            (u64::from(d.size) == s.size() && !name.starts_with("weft_"))
                .then(|| (name.to_string(), bytes.to_vec()))
        })
        .collect()
}

fn assert_matches_native(name: &str) {
    let image = device_image(name);
    let (threads, cta) = image.launch.expect("WEFT_LAUNCH");
    let run = functional::run(
        Program::new(image),
        Launch::new(threads, cta).unwrap(),
        LIMIT,
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    let native = native_symbols(name);
    assert!(!native.is_empty(), "{name}: no globals compared");
    for (symbol, bytes) in &native {
        let ours = run.image.symbol_bytes(symbol).unwrap();
        if ours != bytes.as_slice() {
            let first = ours.iter().zip(bytes).position(|(a, b)| a != b).unwrap();
            panic!(
                "{name}: `{symbol}` differs from the native run first at byte {first} (model {:02x?}, native {:02x?})",
                &ours[first..(first + 8).min(ours.len())],
                &bytes[first..(first + 8).min(bytes.len())]
            );
        }
    }
    assert!(run.thread_instructions >= u64::from(threads));
}

#[test]
fn saxpy_matches_the_native_run() {
    assert_matches_native("micro/saxpy");
}

#[test]
fn integer_and_m_operations_match_the_native_run() {
    assert_matches_native("micro/intops");
}

#[test]
fn float_operations_match_the_native_run() {
    assert_matches_native("micro/floatops");
}

#[test]
fn branches_calls_and_copies_match_the_native_run() {
    assert_matches_native("micro/control");
}

/// A CTA tree reduction through `weft_barrier`: CTA c of 64 threads sums the values
/// i + 1 of its threads i = 64c..64c+63, that is 4096c + 2080.
#[test]
fn barriers_order_a_cta_reduction() {
    let image = device_image("micro/cta_sum");
    let run = functional::run(Program::new(image), Launch::new(256, 64).unwrap(), LIMIT).unwrap();
    let sums: Vec<u32> = run
        .image
        .symbol_bytes("sums")
        .unwrap()
        .chunks(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    assert_eq!(sums, (0..4).map(|c| 4096 * c + 2080).collect::<Vec<u32>>());
}

/// Every kernel's control-flow graph builds: its calls are followed, every branch has a
/// reconvergence point inside the code.
#[test]
fn every_kernel_has_a_control_flow_graph() {
    for name in [
        "micro/saxpy",
        "micro/intops",
        "micro/floatops",
        "micro/control",
        "micro/cta_sum",
    ] {
        let program = Program::new(device_image(name));
        let cfg = program.cfg().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(cfg.functions[0], program.image.kernel);
        for (pc, point) in &cfg.reconvergence {
            if let weft_sim::core::cfg::Reconvergence::At(r) = point {
                assert!(
                    program.image.is_text(*r),
                    "{name}: branch {pc:#x} reconverges outside the code"
                );
            }
        }
        if name == "micro/control" {
            assert!(
                cfg.functions.len() >= 2,
                "collatz_steps is a called function: {:x?}",
                cfg.functions
            );
            assert!(!cfg.reconvergence.is_empty());
        }
    }
}

/// `weft run --dump` prints the symbol's bytes in address order, lower-case hex, and
/// `--json` the same under `dumps`.
#[test]
fn run_dumps_symbols_as_text_and_json() {
    let out = weft(&["run", "kernels/micro/cta_sum.c", "--dump", "sums"]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    let expected: String = (0..4u32)
        .flat_map(|c| (4096 * c + 2080).to_le_bytes())
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(t.lines().any(|l| l == format!("sums {expected}")), "{t}");
    let out = weft(&["run", "kernels/micro/cta_sum.c", "--dump", "sums", "--json"]);
    assert!(out.status.success(), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["dumps"]["sums"], expected.as_str());
    // Every one of the 256 threads runs at least its own return.
    assert!(v["thread_instructions"].as_u64().unwrap() >= 256, "{v}");
}

#[test]
fn bad_input_gets_a_message_not_a_panic() {
    let dir = scratch("bad");
    let junk = dir.join("junk.elf");
    std::fs::write(&junk, b"\x7fELF but not really").unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["run".into(), junk.display().to_string()], "ELF"),
        (
            vec!["run".into(), "kernels/micro/no_such.c".into()],
            "not found",
        ),
        (
            vec![
                "run".into(),
                "kernels/micro/saxpy.c".into(),
                "--dump".into(),
                "nope".into(),
            ],
            "no symbol `nope`",
        ),
        (
            vec![
                "run".into(),
                "kernels/micro/saxpy.c".into(),
                "--threads".into(),
                "100".into(),
                "--cta".into(),
                "64".into(),
            ],
            "whole CTAs",
        ),
        (
            vec![
                "run".into(),
                "kernels/micro/control.c".into(),
                "--max-instructions".into(),
                "1000".into(),
            ],
            "stopped after 1000 thread instructions",
        ),
    ];
    // A kernel built with the D extension runs until its first double instruction,
    // which is refused with its address.
    let double = dir.join("double.c");
    std::fs::write(
        &double,
        "#include \"weft.h\"\nWEFT_LAUNCH(32, 32);\nvolatile double d[32];\nvoid weft_kernel(void) { d[weft_tid()] = d[weft_tid()] * 3.0 + 1.0; }\n",
    )
    .unwrap();
    let elf = dir.join("double.elf");
    let build = Command::new("clang")
        .args([
            "--target=riscv32-unknown-elf",
            "-march=rv32imfd",
            "-mabi=ilp32f",
            "-O2",
        ])
        .args([
            "-ffreestanding",
            "-nostdlib",
            "-fuse-ld=lld",
            "-Wl,-e,weft_kernel",
        ])
        .arg(format!("-I{ROOT}/kernels/include"))
        .arg(&double)
        .arg("-o")
        .arg(&elf)
        .output()
        .unwrap();
    assert!(build.status.success(), "{}", text(&build));
    let out = weft(&["run", elf.to_str().unwrap()]);
    let t = text(&out);
    assert!(!out.status.success() && !t.contains("panicked"), "{t}");
    assert!(t.contains("outside RV32IMF") && t.contains("at 0x"), "{t}");
    for (args, want) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = weft(&args);
        let t = text(&out);
        assert!(!out.status.success(), "{args:?}: {t}");
        assert!(t.contains(want), "{args:?} should say `{want}`: {t}");
        assert!(!t.contains("panicked"), "{t}");
    }
}
