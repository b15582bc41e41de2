//! A kernel's program image, read from its RV32 ELF with the `object` crate: the loadable
//! segments as one flat byte image, the symbol table (name to address and size), the
//! entry points `weft_kernel` and `weft_setup`, the default launch `weft_launch`, and
//! the CTA-shared section `.weft_shared` (`WEFT_SHARED`) with every running CTA's copy.
//!
//! Only what the core model can run is accepted: 32-bit little-endian RISC-V executables
//! without compressed instructions (the C extension flag, `EF_RISCV_RVC`) and with the
//! single-precision float ABI; anything else is refused with a message.
use object::elf;
use object::read::elf::{ElfFile32, FileHeader, ProgramHeader};
use object::{Object, ObjectSection, ObjectSymbol};
use std::collections::BTreeMap;

/// A symbol of the image: where it starts and how many bytes it spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub addr: u32,
    pub size: u32,
}

/// Everything the model needs of a kernel's ELF.
#[derive(Clone, Debug)]
pub struct Image {
    /// Address of `bytes[0]`: the lowest loadable segment.
    pub base: u32,
    /// Every loadable segment at its address (bss zero-filled), gaps zero.
    pub bytes: Vec<u8>,
    /// Address ranges of the executable segments, `[start, end)`.
    pub text: Vec<(u32, u32)>,
    pub symbols: BTreeMap<String, Symbol>,
    /// `weft_kernel`'s address.
    pub kernel: u32,
    /// `weft_setup`'s address, when the kernel has one.
    pub setup: Option<u32>,
    /// `(threads, cta)` from `WEFT_LAUNCH`, when the kernel has one.
    pub launch: Option<(u32, u32)>,
    /// CTA-shared memory: the section's range and each running CTA's copy.
    pub shared: SharedMemory,
}

/// The name of the section `WEFT_SHARED` puts variables in (`kernels/include/weft.h`).
pub const SHARED_SECTION: &str = ".weft_shared";

/// CTA-shared memory (`WEFT_SHARED`, CUDA's `__shared__`): the address range of the
/// section `.weft_shared`, and one copy of its bytes per CTA. A CTA's copy starts as the
/// ELF's bytes of the section (zero for variables without an initialiser, NOBITS or
/// not) when the CTA first touches it, and is dropped when the CTA's last thread
/// returns; the image's own bytes of the range are never read or written by threads.
#[derive(Clone, Debug, Default)]
pub struct SharedMemory {
    /// `[start, end)` of the section; empty when the kernel has none.
    pub range: (u32, u32),
    /// The ELF's bytes of the range: every copy's start.
    initial: Vec<u8>,
    /// Per running CTA that touched it: its copy and how many of its threads returned.
    copies: BTreeMap<u32, SharedCopy>,
}

#[derive(Clone, Debug)]
struct SharedCopy {
    bytes: Vec<u8>,
    exited: u32,
}

/// Where an access falls with respect to the shared range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SharedPlace {
    Outside,
    /// Wholly inside, at this offset into the copy.
    Inside(u32),
    /// Partly inside: refused.
    Straddles,
}

impl SharedMemory {
    /// Whether the kernel has CTA-shared variables.
    pub fn exists(&self) -> bool {
        self.range.0 < self.range.1
    }

    /// Where `[addr, addr + size)` falls.
    pub fn place(&self, addr: u32, size: u32) -> SharedPlace {
        let (lo, hi) = (u64::from(self.range.0), u64::from(self.range.1));
        let (a, b) = (u64::from(addr), u64::from(addr) + u64::from(size));
        if b <= lo || a >= hi {
            SharedPlace::Outside
        } else if a >= lo && b <= hi {
            SharedPlace::Inside(addr - self.range.0)
        } else {
            SharedPlace::Straddles
        }
    }

    /// CTA `cta`'s copy, made from the ELF's bytes on its first use.
    pub fn copy(&mut self, cta: u32) -> &mut Vec<u8> {
        let initial = &self.initial;
        &mut self
            .copies
            .entry(cta)
            .or_insert_with(|| SharedCopy {
                bytes: initial.clone(),
                exited: 0,
            })
            .bytes
    }

    /// A thread of CTA `cta` (of `cta_size` threads) returned: the CTA's copy goes with
    /// its last thread.
    pub fn exited(&mut self, cta: u32, cta_size: u32) {
        if !self.exists() {
            return;
        }
        self.copy(cta);
        let copy = self.copies.get_mut(&cta).expect("made above");
        copy.exited += 1;
        if copy.exited >= cta_size {
            self.copies.remove(&cta);
        }
    }

    /// CTAs whose copy exists (running CTAs that touched shared memory or had a thread
    /// return).
    pub fn live_copies(&self) -> usize {
        self.copies.len()
    }
}

/// The largest image accepted: a kernel's data are fixed-size globals, and a layout
/// spread over gigabytes is a malformed file, not a kernel.
pub const MAX_IMAGE_BYTES: u64 = 256 << 20;

impl Image {
    /// Reads an RV32 ELF executable; `Err` says what is wrong with it.
    pub fn from_elf(data: &[u8]) -> Result<Image, String> {
        // The identification bytes name a 64-bit file for what it is (the 32-bit parser
        // alone would only call it an unsupported header); byte 4 is EI_CLASS.
        if data.starts_with(&elf::ELFMAG) && data.get(4) == Some(&elf::ELFCLASS64) {
            return Err(
                "a 64-bit ELF file (ELFCLASS64); weft runs RV32IMF: build with -march=rv32imf -mabi=ilp32f"
                    .into(),
            );
        }
        let file = ElfFile32::<object::LittleEndian>::parse(data)
            .map_err(|e| format!("not a 32-bit little-endian ELF file: {e}"))?;
        let header = file.elf_header();
        let endian = file.endian();
        if header.e_machine(endian) != elf::EM_RISCV {
            return Err(format!(
                "ELF machine {} is not RISC-V (243)",
                header.e_machine(endian)
            ));
        }
        if header.e_type(endian) != elf::ET_EXEC {
            return Err(
                "not an executable (link the kernel; relocatable and shared objects are not run)"
                    .into(),
            );
        }
        let flags = header.e_flags(endian);
        if flags & elf::EF_RISCV_RVC != 0 {
            return Err("built with compressed instructions (C extension); weft runs RV32IMF: build with -march=rv32imf".into());
        }
        if flags & elf::EF_RISCV_FLOAT_ABI != elf::EF_RISCV_FLOAT_ABI_SINGLE {
            return Err("not built for the ilp32f ABI: build with -mabi=ilp32f".into());
        }

        let mut segments = vec![];
        let mut text = vec![];
        let segment_headers = header
            .program_headers(endian, data)
            .map_err(|e| format!("unreadable program headers: {e}"))?;
        for ph in segment_headers {
            if ph.p_type(endian) != elf::PT_LOAD || ph.p_memsz(endian) == 0 {
                continue;
            }
            let addr = ph.p_vaddr(endian);
            let memsz = ph.p_memsz(endian);
            let bytes = ph
                .data(endian, data)
                .map_err(|_| format!("segment at {addr:#x} runs past the end of the file"))?;
            if bytes.len() as u64 > u64::from(memsz) {
                return Err(format!(
                    "segment at {addr:#x} has more file bytes than memory"
                ));
            }
            let end = u64::from(addr) + u64::from(memsz);
            if end > 1 << 32 {
                return Err(format!("segment at {addr:#x} runs past 4 GiB"));
            }
            if ph.p_flags(endian) & elf::PF_X != 0 {
                text.push((addr, end as u32));
            }
            segments.push((addr, memsz, bytes));
        }
        let base = segments
            .iter()
            .map(|s| s.0)
            .min()
            .ok_or("no loadable segment")?;
        let top = segments
            .iter()
            .map(|s| u64::from(s.0) + u64::from(s.1))
            .max()
            .unwrap_or(u64::from(base));
        if top - u64::from(base) > MAX_IMAGE_BYTES {
            return Err(format!(
                "loadable segments span {} MiB ({base:#x}..{top:#x}); at most {} MiB",
                (top - u64::from(base)) >> 20,
                MAX_IMAGE_BYTES >> 20
            ));
        }
        let mut image = vec![0u8; (top - u64::from(base)) as usize];
        for (addr, _, bytes) in &segments {
            let at = (addr - base) as usize;
            image[at..at + bytes.len()].copy_from_slice(bytes);
        }

        let mut symbols = BTreeMap::new();
        for s in file.symbols() {
            let Ok(name) = s.name() else { continue };
            if name.is_empty() || s.is_undefined() {
                continue;
            }
            let (Ok(addr), Ok(size)) = (u32::try_from(s.address()), u32::try_from(s.size())) else {
                continue;
            };
            symbols.insert(name.to_string(), Symbol { addr, size });
        }
        let kernel = symbols
            .get("weft_kernel")
            .ok_or("no `weft_kernel` symbol: the kernel's entry is `void weft_kernel(void)`")?
            .addr;
        let setup = symbols.get("weft_setup").map(|s| s.addr);
        let shared = match file.section_by_name(SHARED_SECTION) {
            Some(section) if section.size() > 0 => {
                let (lo, size) = (section.address(), section.size());
                let inside = u64::from(base) <= lo && lo + size <= top;
                if !inside {
                    return Err(format!(
                        "section `{SHARED_SECTION}` ({lo:#x}, {size} bytes) is not in a loadable segment"
                    ));
                }
                let at = (lo - u64::from(base)) as usize;
                SharedMemory {
                    range: (lo as u32, (lo + size) as u32),
                    initial: image[at..at + size as usize].to_vec(),
                    copies: BTreeMap::new(),
                }
            }
            _ => SharedMemory::default(),
        };
        let mut result = Image {
            base,
            bytes: image,
            text,
            symbols,
            kernel,
            setup,
            launch: None,
            shared,
        };
        if let Some(&launch) = result.symbols.get("weft_launch") {
            if launch.size != 8 {
                return Err(format!(
                    "`weft_launch` is {} bytes; WEFT_LAUNCH(threads, cta) makes two 32-bit words",
                    launch.size
                ));
            }
            let word = |at: u32| {
                result
                    .read_u32(at)
                    .ok_or("`weft_launch` is outside the image")
            };
            result.launch = Some((word(launch.addr)?, word(launch.addr + 4)?));
        }
        for (name, entry) in [("weft_kernel", Some(kernel)), ("weft_setup", setup)] {
            if let Some(pc) = entry {
                if !result.is_text(pc) {
                    return Err(format!(
                        "`{name}` at {pc:#x} is not in an executable segment"
                    ));
                }
            }
        }
        Ok(result)
    }

    /// The bytes of symbol `name` (its size from the symbol table), or why not.
    pub fn symbol_bytes(&self, name: &str) -> Result<&[u8], String> {
        let s = self
            .symbols
            .get(name)
            .ok_or_else(|| format!("no symbol `{name}` in the kernel"))?;
        if self.shared.place(s.addr, s.size.max(1)) != SharedPlace::Outside {
            return Err(format!(
                "symbol `{name}` is in CTA-shared memory (WEFT_SHARED): each CTA has its own copy, dropped when the CTA ends, so there is nothing to dump; copy it to a global variable in the kernel and dump that"
            ));
        }
        let at = s.addr.checked_sub(self.base).map(|a| a as usize);
        at.and_then(|a| self.bytes.get(a..a + s.size as usize))
            .ok_or_else(|| {
                format!(
                    "symbol `{name}` ({:#x}, {} bytes) is outside the image",
                    s.addr, s.size
                )
            })
    }

    /// The little-endian word at `addr`, if the image holds it.
    pub fn read_u32(&self, addr: u32) -> Option<u32> {
        let at = addr.checked_sub(self.base)? as usize;
        let b = self.bytes.get(at..at + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Whether `pc` lies in an executable segment.
    pub fn is_text(&self, pc: u32) -> bool {
        self.text.iter().any(|&(lo, hi)| pc >= lo && pc < hi)
    }

    /// The end of the image (one past its last byte).
    pub fn end(&self) -> u64 {
        u64::from(self.base) + self.bytes.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_is_not_an_rv32_elf() {
        let not_elf = Image::from_elf(b"not an elf").unwrap_err();
        assert!(
            not_elf.starts_with("not a 32-bit little-endian ELF file"),
            "{not_elf}"
        );
        let empty = Image::from_elf(&[]).unwrap_err();
        assert!(
            empty.starts_with("not a 32-bit little-endian ELF file"),
            "{empty}"
        );
        // An RV64 executable's header (ELF64, little-endian, RISC-V, ET_EXEC): refused
        // for being 64-bit, not as an unreadable file nor read as garbage.
        let mut elf64 = vec![0x7f, b'E', b'L', b'F', 2, 1, 1, 0];
        elf64.resize(64, 0);
        elf64[16..18].copy_from_slice(&elf::ET_EXEC.to_le_bytes());
        elf64[18..20].copy_from_slice(&elf::EM_RISCV.to_le_bytes());
        elf64[20..24].copy_from_slice(&1u32.to_le_bytes()); // e_version
        elf64[52..54].copy_from_slice(&64u16.to_le_bytes()); // e_ehsize
        assert_eq!(
            Image::from_elf(&elf64).unwrap_err(),
            "a 64-bit ELF file (ELFCLASS64); weft runs RV32IMF: build with -march=rv32imf -mabi=ilp32f"
        );
    }

    #[test]
    fn each_cta_gets_a_fresh_copy_that_goes_with_its_last_thread() {
        let mut shared = SharedMemory {
            range: (0x100, 0x106),
            initial: vec![1, 2, 3, 4, 5, 6],
            copies: BTreeMap::new(),
        };
        assert_eq!(shared.place(0xfc, 4), SharedPlace::Outside);
        assert_eq!(shared.place(0x104, 2), SharedPlace::Inside(4));
        assert_eq!(shared.place(0x104, 4), SharedPlace::Straddles);
        assert_eq!(shared.place(0xfe, 4), SharedPlace::Straddles);
        assert_eq!(shared.place(0x106, 1), SharedPlace::Outside);
        shared.copy(7)[0] = 9;
        assert_eq!(shared.copy(8)[..2], [1, 2], "another CTA's copy is its own");
        assert_eq!(shared.copy(7)[..2], [9, 2]);
        shared.exited(7, 2);
        assert_eq!(shared.live_copies(), 2);
        shared.exited(7, 2);
        assert_eq!(shared.live_copies(), 1, "CTA 7 ended");
        assert_eq!(shared.copy(7)[0], 1, "a CTA starting again starts fresh");
        // No shared section: nothing is kept.
        let mut none = SharedMemory::default();
        none.exited(0, 1);
        assert_eq!(none.live_copies(), 0);
        assert_eq!(none.place(0, 4), SharedPlace::Outside);
    }
}
