//! A kernel on the RTL SIMT core's exported Verilog under Verilator: the same loader,
//! launch and memory port as the rust-hdl bench (`simt_core.rs`), driven from C++ in
//! the same cycle order (inputs, settle, read outputs, clock edge, memory update), so
//! both count the same cycles. The harness is built once per design and kept under
//! `target/rtl-verilator/`; a run writes the loaded kernel to a file the harness reads
//! and reads back the counts and the memory.

use super::simt_core::{image_words, private_end, with_words, Counts, Loaded};
use super::RtlRun;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;
use weft_flow::cosim::verilator_build;
use weft_hdl::simt::simt_core::PRIVATE_BASE;
use weft_sim::core::image::Image;

/// Where built harnesses are kept (relative to the working directory, like the
/// report's cache).
pub const CACHE: &str = "target/rtl-verilator";

/// The harness: reads the kernel (`argv[1]`), runs it, writes the counts and the
/// memory (`argv[2]`). The memory port is `Timing::no_stalls()`: always ready, each
/// load answered the cycle after it was taken.
const HARNESS: &str = r#"// weft: a kernel on the RTL SIMT core under Verilator (generated; see verilator.rs).
#include "Vdut.h"
#include "verilated.h"
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <unordered_map>
#include <vector>

template <class T> static uint32_t word_of(const T& p, int i) {
    return (uint32_t)((uint64_t)p >> (32 * i));
}
template <std::size_t W> static uint32_t word_of(const VlWide<W>& p, int i) { return p[i]; }
template <class T> static void set_words(T& p, const std::vector<uint32_t>& w) {
    uint64_t v = 0;
    for (size_t i = w.size(); i-- > 0;) v = (v << 32) | w[i];
    p = (T)v;
}
template <std::size_t W> static void set_words(VlWide<W>& p, const std::vector<uint32_t>& w) {
    for (size_t i = 0; i < W; i++) p[i] = i < w.size() ? w[i] : 0;
}
template <class T> static void set_zero(T& p) { p = 0; }
template <std::size_t W> static void set_zero(VlWide<W>& p) {
    for (size_t i = 0; i < W; i++) p[i] = 0;
}

static int fail(FILE* out, const char* why, unsigned long cycle, uint32_t a) {
    fprintf(out, "error %s at cycle %lu (%#x)\n", why, cycle, a);
    fclose(out);
    return 0;
}

enum Phase { RESET, PROGRAM, START, RUN };
struct Owed { unsigned long due; std::vector<uint32_t> line; };

int main(int argc, char** argv) {
    Verilated::commandArgs(argc, argv);
    if (argc != 3) { fprintf(stderr, "usage: %s KERNEL OUT\n", argv[0]); return 2; }
    FILE* in = fopen(argv[1], "r");
    FILE* out = fopen(argv[2], "w");
    if (!in || !out) { fprintf(stderr, "cannot open %s or %s\n", argv[1], argv[2]); return 2; }
    unsigned code_base, entry, gp, ntid, cta, ctas, cta_warps, lanes;
    unsigned image_lo, image_hi, private_lo, private_hi;
    unsigned long max_cycles, words, mem;
    if (fscanf(in, "%x %x %x %u %u %u %u %u %x %x %x %x %lu %lu %lu", &code_base, &entry, &gp,
               &ntid, &cta, &ctas, &cta_warps, &lanes, &image_lo, &image_hi, &private_lo,
               &private_hi, &max_cycles, &words, &mem) != 15) {
        fprintf(stderr, "malformed kernel file %s\n", argv[1]);
        return 2;
    }
    std::vector<uint32_t> inst(words), rpc(words);
    for (unsigned long i = 0; i < words; i++)
        if (fscanf(in, "%x %x", &inst[i], &rpc[i]) != 2) { fprintf(stderr, "malformed code\n"); return 2; }
    std::unordered_map<uint32_t, uint32_t> memory;
    for (unsigned long i = 0; i < mem; i++) {
        unsigned a, w;
        if (fscanf(in, "%x %x", &a, &w) != 2) { fprintf(stderr, "malformed memory\n"); return 2; }
        memory[a] = w;
    }
    fclose(in);

    Vdut* top = new Vdut;
    Phase phase = RESET;
    unsigned long program = 0, cycle = 0, started = 0;
    unsigned long warp_instructions = 0, thread_instructions = 0, line_requests = 0;
    unsigned long states[16] = {0};
    std::deque<Owed> owed;
    auto wall = std::chrono::steady_clock::now();
    auto last = wall;
    top->clock = 0;
    top->eval();
    for (;;) {
        // drive
        top->clock = 0;
        top->reset = cycle == 0;
        top->prog_write = 0;
        top->start = 0;
        top->mem_req_ready = 0;
        top->mem_resp_valid = 0;
        set_zero(top->mem_resp_data);
        top->code_base = code_base;
        top->entry_pc = entry;
        top->gp = gp;
        top->ntid = ntid;
        top->cta_size = cta;
        top->ctas = ctas;
        top->cta_warps = cta_warps;
        bool answer = false;
        if (phase == PROGRAM) {
            top->prog_write = 1;
            top->prog_addr = program;
            top->prog_inst = inst[program];
            top->prog_rpc = rpc[program];
        } else if (phase == START) {
            top->start = 1;
        } else if (phase == RUN) {
            if (!owed.empty() && owed.front().due <= cycle) {
                answer = true;
                top->mem_resp_valid = 1;
                set_words(top->mem_resp_data, owed.front().line);
            }
            top->mem_req_ready = 1;
        }
        top->eval();
        // check
        bool request = false, write = false, finished = false;
        uint32_t addr = 0;
        std::vector<uint32_t> data, strobe;
        if (phase == RUN) {
            if (top->error) return fail(out, "the core raised `error`", cycle - started, 0);
            if (top->issue) {
                uint64_t mask = top->issue_mask;
                if (mask == 0) return fail(out, "an issued warp has no active thread", cycle - started, 0);
                warp_instructions++;
                thread_instructions += __builtin_popcountll(mask);
            }
            if (top->mem_req_valid) {
                addr = top->mem_req_addr;
                uint64_t a = addr;
                bool in_image = a + 4 * lanes > image_lo && a < image_hi;
                bool in_private = a >= private_lo && a < private_hi;
                if (!in_image && !in_private) return fail(out, "memory outside the image", cycle - started, addr);
                if (addr % (4 * lanes)) return fail(out, "a line not aligned", cycle - started, addr);
                request = true;
                write = top->mem_req_write;
                for (unsigned i = 0; i < lanes; i++) data.push_back(word_of(top->mem_req_data, i));
                for (unsigned i = 0; i < (lanes + 7) / 8; i++) strobe.push_back(word_of(top->mem_req_strobe, i));
            }
            if (top->done) finished = true;
            else states[top->phase & 15]++;
        }
        // edge
        top->clock = 1;
        top->eval();
        // memory and phase after the edge
        if (phase == RESET) {
            phase = words ? PROGRAM : START;
        } else if (phase == PROGRAM) {
            if (++program == words) phase = START;
        } else if (phase == START) {
            phase = RUN;
            started = cycle + 1;
        } else {
            if (answer) owed.pop_front();
            if (request) {
                line_requests++;
                if (write) {
                    for (unsigned i = 0; i < lanes; i++) {
                        unsigned s = (strobe[i / 8] >> (4 * (i % 8))) & 0xf;
                        if (!s) continue;
                        uint32_t a = addr + 4 * i, w = memory.count(a) ? memory[a] : 0;
                        for (int b = 0; b < 4; b++)
                            if (s >> b & 1) w = (w & ~(0xffu << (8 * b))) | (data[i] & (0xffu << (8 * b)));
                        memory[a] = w;
                    }
                } else {
                    Owed o{cycle + 1, {}};
                    for (unsigned i = 0; i < lanes; i++) {
                        uint32_t a = addr + 4 * i;
                        o.line.push_back(memory.count(a) ? memory[a] : 0);
                    }
                    owed.push_back(o);
                }
            }
        }
        if (finished) break;
        cycle++;
        if (phase == RUN && cycle - started > max_cycles)
            return fail(out, "--max-cycles reached before the core finished", cycle - started, 0);
        if ((cycle & 0xfffff) == 0) {
            auto now = std::chrono::steady_clock::now();
            if (std::chrono::duration<double>(now - last).count() >= 2) {
                last = now;
                fprintf(stderr, "  cycle %lu on the RTL core under Verilator, %.0f s\n", cycle,
                        std::chrono::duration<double>(now - wall).count());
            }
        }
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
    fprintf(out, "counts %lu %lu %lu %lu %lu %.6f", cycle - started, warp_instructions,
            thread_instructions, line_requests, cycle + 1, seconds);
    for (int i = 0; i < 16; i++) fprintf(out, " %lu", states[i]);
    fprintf(out, "\n");
    for (uint64_t a = image_lo & ~3u; a < image_hi; a += 4)
        if (memory.count((uint32_t)a)) fprintf(out, "%x %x\n", (unsigned)a, memory[(uint32_t)a]);
    fclose(out);
    top->final();
    delete top;
    return 0;
}
"#;

/// A stable 64-bit FNV-1a hash (the cache's key: the design and the harness).
fn fnv(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The harness built for `preset`'s exported Verilog (built now if it is not cached).
fn harness(preset: &str, verilog: &str) -> Result<PathBuf, String> {
    let dir = Path::new(CACHE).join(format!("{preset}-{:016x}", fnv(&[verilog, HARNESS])));
    let exe = dir.join("obj").join("run");
    if exe.exists() {
        return Ok(exe);
    }
    // Built aside and moved in whole, so two runs building at once never see half a build.
    let building = Path::new(CACHE).join(format!(
        "{preset}-building-{}-{:x}",
        std::process::id(),
        fnv(&[&format!("{:?}", Instant::now())])
    ));
    let io = |e: std::io::Error| format!("{}: {e}", building.display());
    std::fs::create_dir_all(&building).map_err(io)?;
    std::fs::write(building.join("dut.v"), verilog).map_err(io)?;
    std::fs::write(building.join("harness.cpp"), HARNESS).map_err(io)?;
    eprintln!(
        "  building {preset} under Verilator (once; kept in {})",
        dir.display()
    );
    verilator_build(
        &building,
        preset,
        "obj",
        "run",
        &format!("{preset}'s run harness"),
    )?;
    match std::fs::rename(&building, &dir) {
        Ok(()) => {}
        // Another run finished the same build first: use it, drop this one.
        Err(_) if exe.exists() => {
            let _ = std::fs::remove_dir_all(&building);
        }
        Err(e) => return Err(format!("{} -> {}: {e}", building.display(), dir.display())),
    }
    Ok(exe)
}

/// The kernel as the harness reads it.
fn kernel_file(kernel: &Loaded, lanes: usize, warps: usize, max_cycles: u64) -> String {
    let image = &kernel.image;
    let memory = image_words(image);
    let mut words: Vec<(&u32, &u32)> = memory.iter().collect();
    words.sort_unstable();
    let private_end = private_end(warps, lanes);
    let l = kernel.launch;
    let mut f = String::new();
    let _ = writeln!(
        f,
        "{:x} {:x} {:x} {} {} {} {} {lanes} {:x} {:x} {PRIVATE_BASE:x} {private_end:x} {max_cycles} {} {}",
        kernel.code_base,
        kernel.entry,
        kernel.gp,
        l.threads,
        l.cta,
        l.threads / l.cta,
        kernel.cta_warps,
        image.base,
        image.end(),
        kernel.words.len(),
        words.len()
    );
    for (inst, rpc) in &kernel.words {
        let _ = writeln!(f, "{inst:x} {rpc:x}");
    }
    for (a, w) in words {
        let _ = writeln!(f, "{a:x} {w:x}");
    }
    f
}

/// Runs the loaded kernel on `preset`'s exported Verilog (a core of `warps` x `lanes`)
/// under Verilator.
pub fn run(
    preset: &str,
    verilog: &str,
    kernel: Loaded,
    warps: usize,
    lanes: usize,
    max_cycles: u64,
) -> Result<RtlRun, String> {
    let started = Instant::now();
    let exe = harness(preset, verilog)?;
    let dir = exe.parent().expect("obj/run").to_path_buf();
    let tag = format!(
        "{}-{:x}",
        std::process::id(),
        fnv(&[&format!("{:?}", started)])
    );
    let input = dir.join(format!("kernel-{tag}.txt"));
    let output = dir.join(format!("result-{tag}.txt"));
    let io = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    std::fs::write(&input, kernel_file(&kernel, lanes, warps, max_cycles))
        .map_err(|e| io(&input, e))?;
    let status = Command::new(&exe)
        .arg(&input)
        .arg(&output)
        .stderr(Stdio::inherit())
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()));
    let _ = std::fs::remove_file(&input);
    let status = status?;
    let text = std::fs::read_to_string(&output).map_err(|e| io(&output, e));
    let _ = std::fs::remove_file(&output);
    if !status.success() {
        return Err(format!("{} ended with {status}", exe.display()));
    }
    parse(&text?, kernel.image, started)
}

/// The harness's answer: the counts line (cycles, warp and thread instructions, line
/// requests, cycles simulated, seconds, cycles in each core state), then `address word` for each word of the
/// image's range the run wrote or was given.
fn parse(text: &str, image: Image, started: Instant) -> Result<RtlRun, String> {
    let mut lines = text.lines();
    let first = lines.next().ok_or("the Verilator run wrote nothing")?;
    if let Some(why) = first.strip_prefix("error ") {
        return Err(format!("the RTL core under Verilator: {why}"));
    }
    let f: Vec<&str> = first
        .strip_prefix("counts ")
        .ok_or_else(|| format!("malformed Verilator result `{first}`"))?
        .split(' ')
        .collect();
    let n = |i: usize| -> Result<u64, String> {
        f.get(i)
            .and_then(|x| x.parse().ok())
            .ok_or_else(|| format!("malformed Verilator result `{first}`"))
    };
    let mut states = [0; 16];
    for (i, s) in states.iter_mut().enumerate() {
        *s = n(6 + i)?;
    }
    let counts = Counts {
        cycles: n(0)?,
        warp_instructions: n(1)?,
        thread_instructions: n(2)?,
        line_requests: n(3)?,
        states,
        // The harness reports counts only; the issue order is the rust-hdl bench's.
        issue_order: vec![],
    };
    let simulated = n(4)?;
    let run_seconds: f64 = f
        .get(5)
        .and_then(|x| x.parse().ok())
        .ok_or_else(|| format!("malformed Verilator result `{first}`"))?;
    let mut memory = HashMap::new();
    for l in lines {
        let (a, w) = l
            .split_once(' ')
            .and_then(|(a, w)| {
                Some((
                    u32::from_str_radix(a, 16).ok()?,
                    u32::from_str_radix(w, 16).ok()?,
                ))
            })
            .ok_or_else(|| format!("malformed Verilator memory line `{l}`"))?;
        memory.insert(a, w);
    }
    Ok(RtlRun {
        image: with_words(image, &memory),
        counts,
        seconds: started.elapsed().as_secs_f64(),
        cycles_per_second: simulated as f64 / run_seconds.max(1e-9),
    })
}
