//! The open tools weft drives (Yosys, Verilator, Icarus, nextpnr), found on `PATH` with a clear
//! message naming the Debian package when one is missing.
use std::path::PathBuf;
use std::process::{Command, Output};

/// An external tool weft needs.
#[derive(Clone, Copy, Debug)]
pub struct Tool {
    pub program: &'static str,
    pub package: &'static str,
}

pub const YOSYS: Tool = Tool {
    program: "yosys",
    package: "yosys",
};
pub const VERILATOR: Tool = Tool {
    program: "verilator",
    package: "verilator",
};
pub const IVERILOG: Tool = Tool {
    program: "iverilog",
    package: "iverilog",
};
pub const VVP: Tool = Tool {
    program: "vvp",
    package: "iverilog",
};
/// Place and route for Lattice iCE40 (Debian's build carries the chip databases).
pub const NEXTPNR_ICE40: Tool = Tool {
    program: "nextpnr-ice40",
    package: "nextpnr-ice40",
};

impl Tool {
    /// The tool's path, or a message saying how to install it.
    pub fn find(&self) -> Result<PathBuf, String> {
        let path = std::env::var_os("PATH").unwrap_or_default();
        std::env::split_paths(&path)
            .map(|dir| dir.join(self.program))
            .find(|p| p.is_file())
            .ok_or_else(|| {
                format!(
                    "`{}` not found on PATH; install it with: apt-get update && apt-get install -y {}",
                    self.program, self.package
                )
            })
    }

    /// Runs the tool with `args` in `dir`, returning its output (whatever its exit code).
    pub fn run(&self, args: &[&str], dir: &std::path::Path) -> Result<Output, String> {
        let exe = self.find()?;
        Command::new(&exe)
            .args(args)
            .current_dir(dir)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", exe.display()))
    }
}

impl Tool {
    /// The first line the tool prints for `--version` (`-V` for Yosys), for cache keys
    /// and report headers.
    pub fn version(&self) -> Result<String, String> {
        let flag = if self.program == "yosys" {
            "-V"
        } else {
            "--version"
        };
        let out = self.run(&[flag], std::path::Path::new("."))?;
        let text = transcript(&out);
        Ok(text.lines().next().unwrap_or_default().trim().to_string())
    }
}

/// stdout and stderr of a finished tool, for error messages.
pub fn transcript(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}
