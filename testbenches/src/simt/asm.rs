//! RV32IM instruction words, for the kernels the SIMT core's benches assemble without a
//! compiler (the preset's kernel, random kernels): the base formats, fields in order,
//! and the image around them.
use std::collections::BTreeMap;
use weft_sim::core::functional::Program;
use weft_sim::core::image::{Image, Symbol};

/// R-type: `funct7 rs2 rs1 funct3 rd opcode`.
pub fn r(f7: u32, rs2: u32, rs1: u32, f3: u32, rd: u32, op: u32) -> u32 {
    f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op
}

/// I-type (`imm` in 12 bits).
pub fn i(imm: i32, rs1: u32, f3: u32, rd: u32, op: u32) -> u32 {
    ((imm as u32) & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op
}

/// S-type store (`sb` 0, `sh` 1, `sw` 2).
pub fn s(imm: i32, rs2: u32, rs1: u32, f3: u32) -> u32 {
    let imm = imm as u32;
    (imm >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (imm & 0x1f) << 7 | 0x23
}

/// B-type branch by `imm` bytes from its own address.
pub fn b(imm: i32, rs2: u32, rs1: u32, f3: u32) -> u32 {
    let imm = imm as u32;
    (imm >> 12 & 1) << 31
        | (imm >> 5 & 0x3f) << 25
        | rs2 << 20
        | rs1 << 15
        | f3 << 12
        | (imm >> 1 & 0xf) << 8
        | (imm >> 11 & 1) << 7
        | 0x63
}

/// J-type `jal` by `imm` bytes from its own address.
pub fn j(imm: i32, rd: u32) -> u32 {
    let imm = imm as u32;
    (imm >> 20 & 1) << 31
        | (imm >> 1 & 0x3ff) << 21
        | (imm >> 11 & 1) << 20
        | (imm >> 12 & 0xff) << 12
        | rd << 7
        | 0x6f
}

/// U-type `lui rd, upper` (`upper` the 20 high bits).
pub fn lui(upper: u32, rd: u32) -> u32 {
    (upper & 0xfffff) << 12 | rd << 7 | 0x37
}

/// An assembled kernel's program: `code` from `base` as `weft_kernel`, then each of
/// `data`'s words at its address, and `out_bytes` of zeros at `out` as the symbol `out`
/// (zeros fill the gaps; `out` ends the image).
pub fn program(
    base: u32,
    code: &[u32],
    data: &[(u32, &[u32])],
    out: u32,
    out_bytes: u32,
    launch: Option<(u32, u32)>,
) -> Program {
    let end = base + 4 * code.len() as u32;
    assert!(
        end <= out,
        "{} words of code run into `out` at {out:#x}",
        code.len()
    );
    let mut bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
    bytes.resize((out + out_bytes - base) as usize, 0);
    for &(addr, words) in data {
        for (k, w) in words.iter().enumerate() {
            let at = (addr - base) as usize + 4 * k;
            bytes[at..at + 4].copy_from_slice(&w.to_le_bytes());
        }
    }
    let mut symbols = BTreeMap::new();
    symbols.insert(
        "weft_kernel".to_string(),
        Symbol {
            addr: base,
            size: end - base,
        },
    );
    symbols.insert(
        "out".to_string(),
        Symbol {
            addr: out,
            size: out_bytes,
        },
    );
    Program::new(Image {
        base,
        bytes,
        text: vec![(base, end)],
        symbols,
        kernel: base,
        setup: None,
        launch,
        shared: Default::default(),
    })
}
