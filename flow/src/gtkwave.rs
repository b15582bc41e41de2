//! GTKWave save files: a waveform opens with its signals already grouped and shown in
//! the right radix, enumerations by name (`weft run --vcd`, `weft sim --vcd`).
use std::path::{Path, PathBuf};

/// How GTKWave shows a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Show {
    Binary,
    Decimal,
    Hex,
    /// Each value by name (`names[v]`), through a translate filter file named after `tag`.
    Names {
        tag: &'static str,
        names: &'static [&'static str],
    },
}

/// One trace: its full path in the VCD (scopes and name, dot-separated) and width.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub path: String,
    pub width: u32,
    pub show: Show,
}

// GTKWave's trace flags (gtkwave's `analyzer.h`).
const HEX: u32 = 0x02;
const DECIMAL: u32 = 0x04;
const BINARY: u32 = 0x08;
const RIGHT_JUSTIFY: u32 = 0x20;
const BLANK: u32 = 0x200;
const FILE_FILTER: u32 = 0x2000;
const GROUP_BEGIN: u32 = 0x80_0000;
const GROUP_END: u32 = 0x100_0000;

/// `FILE.gtkw` beside the waveform `vcd`: the groups (name, traces) in order, each a
/// GTKWave group; every named enumeration's filter is written beside it as
/// `FILE.TAG.txt`. Paths in the save file are absolute, so it opens from any folder.
pub fn write_save_file(vcd: &Path, groups: &[(String, Vec<Trace>)]) -> Result<PathBuf, String> {
    let absolute = std::path::absolute(vcd).map_err(|e| format!("{}: {e}", vcd.display()))?;
    let beside = |suffix: &str| {
        let mut name = absolute.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    };
    let write = |path: &Path, text: &str| {
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    let mut text = format!("[dumpfile] \"{}\"\n", absolute.display());
    let mut filters: Vec<&str> = vec![];
    for (group, traces) in groups {
        text.push_str(&format!("@{:x}\n-{group}\n", GROUP_BEGIN | BLANK));
        for t in traces {
            let name = if t.width > 1 {
                format!("{}[{}:0]", t.path, t.width - 1)
            } else {
                t.path.clone()
            };
            match t.show {
                Show::Names { tag, names } => {
                    let file = beside(&format!(".{tag}.txt"));
                    if !filters.contains(&tag) {
                        let lines: String = names
                            .iter()
                            .enumerate()
                            .map(|(v, n)| format!("{v:x} {n}\n"))
                            .collect();
                        write(&file, &lines)?;
                        filters.push(tag);
                    }
                    let index = filters.iter().position(|f| *f == tag).expect("pushed") + 1;
                    text.push_str(&format!(
                        "@{:x}\n^{index} {}\n{name}\n",
                        FILE_FILTER | HEX | RIGHT_JUSTIFY,
                        file.display()
                    ));
                }
                show => {
                    let radix = match show {
                        Show::Binary => BINARY,
                        Show::Decimal => DECIMAL,
                        _ => HEX,
                    };
                    text.push_str(&format!("@{:x}\n{name}\n", radix | RIGHT_JUSTIFY));
                }
            }
        }
        text.push_str(&format!("@{:x}\n-{group}\n", GROUP_END | BLANK));
    }
    let save = beside(".gtkw");
    write(&save, &text)?;
    Ok(save)
}
