//! The open tools weft drives (Yosys, Verilator, Icarus, nextpnr), found on `PATH` with a clear
//! message naming the Debian package when one is missing.
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

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

/// The waveform viewer, and the virtual display its tests run it in.
pub const GTKWAVE: Tool = Tool {
    program: "gtkwave",
    package: "gtkwave",
};
pub const XVFB_RUN: Tool = Tool {
    program: "xvfb-run",
    package: "xvfb",
};

/// The kernels' compiler (Debian's clang, with every LLVM target, RISC-V included).
pub const CLANG: Tool = Tool {
    program: "clang",
    package: "clang lld",
};
/// The kernels' linker, called by clang (`-fuse-ld=lld`).
pub const LLD: Tool = Tool {
    program: "ld.lld",
    package: "lld",
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

    /// As [`Tool::run`], but stops the tool after `limit`: `Ok(None)` when it was stopped.
    pub fn run_limited(
        &self,
        args: &[&str],
        dir: &std::path::Path,
        limit: Option<Duration>,
    ) -> Result<Option<Output>, String> {
        let Some(limit) = limit else {
            return self.run(args, dir).map(Some);
        };
        let exe = self.find()?;
        let cannot = |e: std::io::Error| format!("cannot run {}: {e}", exe.display());
        let mut command = Command::new(&exe);
        command
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        own_group(&mut command);
        let mut child = command.spawn().map_err(cannot)?;
        // Drain both pipes while waiting, so a chatty tool never blocks on a full pipe.
        let drain = |pipe: Option<Box<dyn Read + Send>>| {
            std::thread::spawn(move || {
                let mut bytes = vec![];
                if let Some(mut p) = pipe {
                    let _ = p.read_to_end(&mut bytes);
                }
                bytes
            })
        };
        let stdout = drain(
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        );
        let stderr = drain(
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        );
        let start = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().map_err(cannot)? {
                break Some(status);
            }
            if start.elapsed() >= limit {
                stop_group(&mut child);
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        let stdout = stdout.join().unwrap_or_default();
        let stderr = stderr.join().unwrap_or_default();
        Ok(status.map(|status| Output {
            status,
            stdout,
            stderr,
        }))
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

/// Starts `command` in its own process group, so stopping it reaches the children it starts
/// (Yosys runs `yosys-abc`), which share its pipes and would otherwise keep them open. Out
/// of the terminal's group, Ctrl-C no longer reaches it: on Linux it is killed when weft
/// dies instead.
fn own_group(command: &mut Command) {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    #[cfg(target_os = "linux")]
    // SAFETY: `prctl` is async-signal-safe and touches only the forked child.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(command, || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
}

/// Kills `child` and every process in its group (see [`own_group`]).
fn stop_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    if let Ok(group) = libc::pid_t::try_from(child.id()) {
        // SAFETY: a plain signal to the group this run created; no memory is shared.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
    let _ = child.kill();
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

#[cfg(test)]
mod tests {
    use super::*;

    const SLEEP: Tool = Tool {
        program: "sleep",
        package: "coreutils",
    };

    #[test]
    fn a_limited_run_is_stopped_at_its_limit() {
        let dir = std::env::temp_dir();
        let start = Instant::now();
        let out = SLEEP
            .run_limited(&["30"], &dir, Some(Duration::from_millis(300)))
            .unwrap();
        assert!(out.is_none(), "stopped runs return None");
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "stopped near its limit"
        );
        let out = SLEEP
            .run_limited(&["0"], &dir, Some(Duration::from_secs(20)))
            .unwrap()
            .expect("a quick run finishes");
        assert!(out.status.success());
    }

    /// Yosys runs `yosys-abc` as a child that inherits its output pipes: stopping Yosys
    /// alone would leave the child running and the pipes open, holding the run past its
    /// limit.
    #[test]
    fn a_stopped_run_takes_its_children_with_it() {
        const SHELL: Tool = Tool {
            program: "sh",
            package: "dash",
        };
        let dir = std::env::temp_dir();
        let start = Instant::now();
        let out = SHELL
            .run_limited(
                &["-c", "sleep 30 & sleep 30; wait"],
                &dir,
                Some(Duration::from_millis(300)),
            )
            .unwrap();
        assert!(out.is_none(), "stopped runs return None");
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "stopped near its limit, children included (took {:?})",
            start.elapsed()
        );
    }
}
