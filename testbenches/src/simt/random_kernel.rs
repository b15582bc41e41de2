//! Random RV32IM kernels for the SIMT core's equivalence tests (docs/core.md §8): from a
//! seed, a straight run of random ALU, multiply/divide, CSR, load and store instructions
//! over 12 working registers, with divergent forward branches (a branch on thread data
//! skipping up to 4 instructions, nested at most 2 deep), divergent counted loops (1 to
//! 4 trips chosen by thread data), private-stack stores and loads, and barriers between
//! them. Each thread loads from a shared table of random words, stores into its own 64
//! bytes of `out`, and at the end stores its working registers there, so the final
//! image holds every thread's state. Divisors are random too: zero and `i32::MIN / -1`
//! happen (RISC-V defines both).
use crate::simt::asm::{self, b, i, lui, r, s};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use weft_sim::core::functional::Program;

const CODE: u32 = 0x1000;
/// The shared table of 16 random words.
const TABLE: u32 = 0x3000;
/// 64 bytes per thread: the working registers at 0..48, the body's stores at 48..64.
const OUT: u32 = 0x4000;
/// The most threads a kernel's `out` holds.
pub const MAX_THREADS: u32 = 64;

const TID: u32 = 10; // a0
const OUT_PTR: u32 = 11; // a1: this thread's 64 bytes
const TABLE_PTR: u32 = 12; // a2
const ADDR: u32 = 8; // s0: a load's address
const TRIPS: u32 = 9; // s1: a loop's counter
const SP: u32 = 2;
const RA: u32 = 1;
/// The working registers.
const WORK: [u32; 12] = [5, 6, 7, 13, 14, 15, 16, 17, 28, 29, 30, 31];

/// The kernel of `seed`: about `items` random items between the prologue and the
/// epilogue.
pub fn program(seed: u64, items: usize) -> Program {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut code = vec![
        i(0xcc0, 0, 2, TID, 0x73),             // csrr a0, 0xcc0 (tid)
        lui(OUT >> 12, OUT_PTR),               // a1 = OUT
        i(6, TID, 1, ADDR, 0x13),              // s0 = tid << 6
        r(0, ADDR, OUT_PTR, 0, OUT_PTR, 0x33), // a1 += s0
        lui(TABLE >> 12, TABLE_PTR),           // a2 = TABLE
    ];
    // Working registers start from the thread id.
    for &w in &WORK {
        code.push(i(rng.gen_range(-2048..2048), TID, 0, w, 0x13)); // addi w, a0, imm
    }
    for _ in 0..items {
        match rng.gen_range(0..100) {
            0..=69 => code.extend(simple(&mut rng)),
            70..=79 => branch(&mut rng, &mut code, 2),
            80..=87 => counted_loop(&mut rng, &mut code),
            88..=94 => {
                // A private-stack round trip.
                let off = -4 * rng.gen_range(1..9);
                code.push(s(off, *WORK.choose(&mut rng).unwrap(), SP, 2));
                code.push(i(off, SP, 2, *WORK.choose(&mut rng).unwrap(), 0x03));
            }
            _ => code.push(i(0x8c0, 0, 1, 0, 0x73)), // barrier
        }
    }
    for (k, &w) in WORK.iter().enumerate() {
        code.push(s(4 * k as i32, w, OUT_PTR, 2));
    }
    code.push(i(0, RA, 0, 0, 0x67)); // ret
    image(&code, &mut rng)
}

/// One item that does not change the flow: an ALU or multiply/divide operation
/// (register or immediate), `lui`, a CSR read, a load of any width from the table at a
/// thread's register's low bits (three instructions: the address, then the load) or a
/// store into bytes 48..64 of the thread's own area.
fn simple(rng: &mut ChaCha8Rng) -> Vec<u32> {
    let rd = *WORK.choose(rng).unwrap();
    let rs1 = *WORK.choose(rng).unwrap();
    let rs2 = *WORK.choose(rng).unwrap();
    let word = match rng.gen_range(0..100) {
        0..=29 => {
            // add sub sll slt sltu xor srl sra or and
            let (f7, f3) = *[
                (0, 0),
                (0x20, 0),
                (0, 1),
                (0, 2),
                (0, 3),
                (0, 4),
                (0, 5),
                (0x20, 5),
                (0, 6),
                (0, 7),
            ]
            .choose(rng)
            .unwrap();
            r(f7, rs2, rs1, f3, rd, 0x33)
        }
        30..=44 => r(1, rs2, rs1, rng.gen_range(0..8), rd, 0x33), // mul .. remu
        45..=64 => match rng.gen_range(0..8) {
            1 => i(rng.gen_range(0..32), rs1, 1, rd, 0x13), // slli
            5 => {
                // srli, srai
                let f7 = if rng.gen_bool(0.5) { 0x400 } else { 0 };
                i(f7 | rng.gen_range(0..32), rs1, 5, rd, 0x13)
            }
            f3 => i(rng.gen_range(-2048..2048), rs1, f3, rd, 0x13),
        },
        65..=69 => lui(rng.gen(), rd),
        70..=74 => i(0xcc1 + rng.gen_range(0..3), 0, 2, rd, 0x73), // ntid, ctaid, cta size
        75..=89 => {
            let (f3, align) = *[(0, 1), (1, 2), (2, 4), (4, 1), (5, 2)]
                .choose(rng)
                .unwrap();
            let off = align * rng.gen_range(0..4 / align);
            return vec![
                i(60, rs1, 7, ADDR, 0x13),            // andi s0, rs1, 60
                r(0, TABLE_PTR, ADDR, 0, ADDR, 0x33), // add s0, s0, a2
                i(off, ADDR, f3 as u32, rd, 0x03),    // l* rd, off(s0)
            ];
        }
        _ => {
            // sb, sh, sw
            let (f3, align) = *[(0, 1), (1, 2), (2, 4)].choose(rng).unwrap();
            let off = 48 + align * rng.gen_range(0..16 / align);
            s(off, rs2, OUT_PTR, f3)
        }
    };
    vec![word]
}

/// A forward branch on thread data over 1 to 4 instructions (nested while `depth` > 0).
fn branch(rng: &mut ChaCha8Rng, code: &mut Vec<u32>, depth: u32) {
    let at = code.len();
    code.push(0);
    let mut body = rng.gen_range(1..5);
    while body > 0 {
        if depth > 1 && rng.gen_bool(0.2) {
            branch(rng, code, depth - 1);
        } else {
            code.extend(simple(rng));
        }
        body -= 1;
    }
    let f3 = *[0, 1, 4, 5, 6, 7].choose(rng).unwrap();
    let offset = 4 * (code.len() - at) as i32;
    code[at] = b(
        offset,
        *WORK.choose(rng).unwrap(),
        *WORK.choose(rng).unwrap(),
        f3,
    );
}

/// A loop of 1 to 4 trips (a register's low bits plus one) around 1 or 2 instructions.
fn counted_loop(rng: &mut ChaCha8Rng, code: &mut Vec<u32>) {
    code.push(i(3, *WORK.choose(rng).unwrap(), 7, TRIPS, 0x13)); // andi s1, w, 3
    code.push(i(1, TRIPS, 0, TRIPS, 0x13)); // addi s1, s1, 1
    let top = code.len();
    for _ in 0..rng.gen_range(1..3) {
        code.extend(simple(rng));
    }
    code.push(i(-1, TRIPS, 0, TRIPS, 0x13)); // addi s1, s1, -1
    let offset = -4 * (code.len() - top) as i32;
    code.push(b(offset, 0, TRIPS, 1)); // bne s1, x0, top
}

/// The program: the code at `CODE`, the table of random words (zero, `i32::MIN`, -1 or
/// any), `out`.
fn image(code: &[u32], rng: &mut ChaCha8Rng) -> Program {
    let table: Vec<u32> = (0..16)
        .map(|_| match rng.gen_range(0..4) {
            0 => 0,
            1 => 0x8000_0000,
            2 => u32::MAX,
            _ => rng.gen(),
        })
        .collect();
    assert!(
        CODE + 4 * code.len() as u32 <= TABLE,
        "a random kernel of {} words outgrows its code space",
        code.len()
    );
    asm::program(CODE, code, &[(TABLE, &table)], OUT, 64 * MAX_THREADS, None)
}
