//! A small RV32 assembler for the unit tests: programs written by hand, placed at
//! [`CODE`] with a data area at [`DATA`], as an [`Image`] the model and the lowering
//! read like a linked kernel's.
use crate::core::image::{Image, SharedMemory, Symbol};
use std::collections::BTreeMap;

/// Where the code starts (`weft_kernel`).
pub const CODE: u32 = 0x1000;
/// Where the data area (`data`, [`DATA_BYTES`] bytes) starts.
pub const DATA: u32 = 0x2000;
pub const DATA_BYTES: u32 = 0x400;

pub const ZERO: u32 = 0;
pub const RA: u32 = 1;
pub const SP: u32 = 2;
pub const T0: u32 = 5;
pub const A0: u32 = 10;
pub const A1: u32 = 11;
pub const A2: u32 = 12;
pub const A3: u32 = 13;
pub const A4: u32 = 14;
pub const A5: u32 = 15;

fn i_type(imm: i32, rs1: u32, f3: u32, rd: u32, op: u32) -> u32 {
    ((imm as u32 & 0xfff) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op
}
fn r_type(f7: u32, rs2: u32, rs1: u32, f3: u32, rd: u32) -> u32 {
    (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | 0x33
}
fn s_type(imm: i32, rs2: u32, rs1: u32, f3: u32) -> u32 {
    let imm = imm as u32;
    ((imm >> 5 & 0x7f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((imm & 0x1f) << 7) | 0x23
}
fn b_type(offset: i32, rs2: u32, rs1: u32, f3: u32) -> u32 {
    let o = offset as u32;
    ((o >> 12 & 1) << 31)
        | ((o >> 5 & 0x3f) << 25)
        | (rs2 << 20)
        | (rs1 << 15)
        | (f3 << 12)
        | ((o >> 1 & 0xf) << 8)
        | ((o >> 11 & 1) << 7)
        | 0x63
}

pub fn addi(rd: u32, rs1: u32, imm: i32) -> u32 {
    i_type(imm, rs1, 0, rd, 0x13)
}
pub fn andi(rd: u32, rs1: u32, imm: i32) -> u32 {
    i_type(imm, rs1, 7, rd, 0x13)
}
pub fn slli(rd: u32, rs1: u32, shamt: i32) -> u32 {
    i_type(shamt, rs1, 1, rd, 0x13)
}
pub fn sltiu(rd: u32, rs1: u32, imm: i32) -> u32 {
    i_type(imm, rs1, 3, rd, 0x13)
}
pub fn add(rd: u32, rs1: u32, rs2: u32) -> u32 {
    r_type(0, rs2, rs1, 0, rd)
}
/// `mul` (RV32M): the ALU lanes, or the special function unit with `sfu_multiply`.
pub fn mul(rd: u32, rs1: u32, rs2: u32) -> u32 {
    r_type(1, rs2, rs1, 0, rd)
}
/// `div` (RV32M): the special function unit.
pub fn div(rd: u32, rs1: u32, rs2: u32) -> u32 {
    r_type(1, rs2, rs1, 4, rd)
}
pub fn lui(rd: u32, upper: u32) -> u32 {
    (upper << 12) | (rd << 7) | 0x37
}
pub fn lw(rd: u32, rs1: u32, imm: i32) -> u32 {
    i_type(imm, rs1, 2, rd, 0x03)
}
pub fn lh(rd: u32, rs1: u32, imm: i32) -> u32 {
    i_type(imm, rs1, 1, rd, 0x03)
}
pub fn lbu(rd: u32, rs1: u32, imm: i32) -> u32 {
    i_type(imm, rs1, 4, rd, 0x03)
}
pub fn sw(rs2: u32, rs1: u32, imm: i32) -> u32 {
    s_type(imm, rs2, rs1, 2)
}
pub fn sh(rs2: u32, rs1: u32, imm: i32) -> u32 {
    s_type(imm, rs2, rs1, 1)
}
pub fn sb(rs2: u32, rs1: u32, imm: i32) -> u32 {
    s_type(imm, rs2, rs1, 0)
}
/// The address of the `i`th instruction from [`CODE`].
pub const fn at(i: u32) -> u32 {
    CODE + 4 * i
}
/// A branch at `from` to `to`: `f3` 0 beq, 1 bne, 4 blt, 5 bge.
pub fn branch(f3: u32, rs1: u32, rs2: u32, from: u32, to: u32) -> u32 {
    b_type(to.wrapping_sub(from) as i32, rs2, rs1, f3)
}
/// `jal rd` at `from` to `to`.
pub fn jal(rd: u32, from: u32, to: u32) -> u32 {
    let o = to.wrapping_sub(from);
    ((o >> 20 & 1) << 31)
        | ((o >> 1 & 0x3ff) << 21)
        | ((o >> 11 & 1) << 20)
        | (o & 0xff000)
        | (rd << 7)
        | 0x6f
}
pub fn ret() -> u32 {
    i_type(0, RA, 0, 0, 0x67)
}
/// `csrr rd, csr`.
pub fn csrr(rd: u32, csr: u32) -> u32 {
    i_type(csr as i32, 0, 2, rd, 0x73)
}
/// `csrw 0x8C0, zero`: weft_barrier.
pub fn barrier() -> u32 {
    i_type(0x8c0, 0, 1, 0, 0x73)
}
pub const ECALL: u32 = 0x73;
pub const TID: u32 = 0xcc0;

/// `words` at [`CODE`] (`weft_kernel`), a zeroed data area `data` at [`DATA`].
pub fn image(words: &[u32]) -> Image {
    let mut bytes = vec![0u8; (DATA + DATA_BYTES - CODE) as usize];
    for (i, w) in words.iter().enumerate() {
        bytes[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    let symbols = BTreeMap::from([
        (
            "weft_kernel".to_string(),
            Symbol {
                addr: CODE,
                size: 4 * words.len() as u32,
            },
        ),
        (
            "data".to_string(),
            Symbol {
                addr: DATA,
                size: DATA_BYTES,
            },
        ),
    ]);
    Image {
        base: CODE,
        bytes,
        text: vec![(CODE, CODE + 4 * words.len() as u32)],
        symbols,
        kernel: CODE,
        setup: None,
        launch: None,
        shared: SharedMemory::default(),
    }
}

/// [`image`] with the data area split into objects `a` (its first 0x100 bytes) and `b`
/// (the rest), for the lowering's object rule.
pub fn image_with_two_objects(words: &[u32]) -> Image {
    let mut image = image(words);
    image.symbols.remove("data");
    for (name, addr, size) in [("a", DATA, 0x100), ("b", DATA + 0x100, DATA_BYTES - 0x100)] {
        image.symbols.insert(name.into(), Symbol { addr, size });
    }
    image
}
