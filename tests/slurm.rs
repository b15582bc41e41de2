//! `--on slurm` on a real cluster: `weft eval`, `weft report` and `weft prove` write what
//! their local runs write; a failed job is named with its Slurm job id and log, the command
//! exits non-zero and its rerun submits only that job; Ctrl-C cancels the array; a
//! missing `sbatch`, a controller that does not answer and a refused submission are one
//! message each.
//!
//! Every test but the first needs a Slurm cluster (`SLURM_CONF` set, the controller
//! answering): `.ci/run` starts a one-node cluster from `ci/slurm/` and runs them with
//! `cargo test --release --test slurm -- --ignored`; so can anyone, after
//! `sudo ci/slurm/cluster start` (see the README). Without a cluster they fail saying so.
mod common;
use common::{scratch, text, ROOT};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `weft ARGS...` from the root, with `env` added.
fn weft_with(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_weft"));
    c.args(args).current_dir(ROOT);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("weft runs")
}

fn weft(args: &[&str]) -> Output {
    weft_with(args, &[])
}

/// Panics with a clear message unless a Slurm controller answers.
fn cluster() {
    let ping = Command::new("scontrol").arg("ping").output();
    let up = ping
        .as_ref()
        .is_ok_and(|o| o.status.success() && !String::from_utf8_lossy(&o.stdout).contains("DOWN"));
    assert!(
        up,
        "no Slurm cluster answers (scontrol ping: {:?}): start one with \
         `sudo ci/slurm/cluster start` and export the SLURM_CONF it prints",
        ping.map(|o| text(&o))
    );
}

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "{}", text(out));
    text(out)
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `v` without the host's timings (`seconds`, `host_seconds`): what differs between two
/// runs of the same work.
fn without_timings(mut v: Value) -> Value {
    match &mut v {
        Value::Object(map) => {
            map.remove("seconds");
            map.remove("host_seconds");
            for x in map.values_mut() {
                *x = without_timings(x.take());
            }
        }
        Value::Array(xs) => {
            for x in xs.iter_mut() {
                *x = without_timings(x.take());
            }
        }
        _ => {}
    }
    v
}

fn json(p: &Path) -> Value {
    without_timings(serde_json::from_str(&read(p)).unwrap())
}

/// Every file of folder `a` equals its namesake in `b`: JSON without timings, a
/// Markdown page without the duration of its run ("(50 runs, 8 s on two cores)"), the
/// rest byte for byte.
fn same_files(a: &Path, b: &Path) {
    let names = |d: &Path| {
        let mut n: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        n.sort();
        n
    };
    assert_eq!(names(a), names(b));
    let undated = |t: String| -> String {
        t.lines()
            .map(|l| match (l.find(" runs, "), l.find(" on two cores")) {
                (Some(i), Some(j)) if i < j => format!("{}{}", &l[..i], &l[j..]),
                _ => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    for n in names(a) {
        let (x, y) = (a.join(&n), b.join(&n));
        if n.ends_with(".json") {
            assert_eq!(json(&x), json(&y), "{n}");
        } else if n.ends_with(".md") {
            assert_eq!(undated(read(&x)), undated(read(&y)), "{n}");
        } else {
            assert_eq!(read(&x), read(&y), "{n}");
        }
    }
}

/// Proof lines without their times ("(0.1 s)").
fn proofs(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| match l.rfind(" (") {
            Some(i) if l.ends_with(" s)") => l[..i].to_string(),
            _ => l.to_string(),
        })
        .collect()
}

#[test]
fn without_sbatch_on_path_slurm_is_refused_before_any_work() {
    let out = scratch("slurm-no-sbatch");
    let r = weft_with(
        &[
            "eval",
            "lwm",
            "--only",
            "reduction",
            "--out",
            out.to_str().unwrap(),
            "--on",
            "slurm",
        ],
        &[("PATH", "/nonexistent")],
    );
    assert!(!r.status.success());
    let t = text(&r);
    assert!(
        t.contains("--on slurm: `sbatch` not found on PATH") && t.contains("slurm-client"),
        "{t}"
    );
    assert!(!t.contains("compiling"), "no work before the check: {t}");
}

#[test]
#[ignore = "needs a Slurm cluster: `.ci/run` starts one (ci/slurm/cluster)"]
fn a_controller_that_does_not_answer_and_a_refused_submission_are_one_message_each() {
    cluster();
    let dir = scratch("slurm-refused");
    let out = dir.to_str().unwrap();
    let eval = [
        "eval",
        "lwm",
        "--only",
        "reduction",
        "--out",
        out,
        "--on",
        "slurm",
    ];
    // A configuration whose controller listens nowhere.
    let conf = dir.join("nowhere.conf");
    std::fs::write(
        &conf,
        "ClusterName=nowhere\nSlurmctldHost=localhost\nSlurmctldPort=1\nAuthType=auth/none\n\
         NodeName=localhost CPUs=1\nPartitionName=p Nodes=ALL Default=YES\n",
    )
    .unwrap();
    let r = weft_with(&eval, &[("SLURM_CONF", conf.to_str().unwrap())]);
    let t = text(&r);
    assert!(!r.status.success(), "{t}");
    assert!(
        t.contains("--on slurm: the Slurm controller does not answer (scontrol ping:"),
        "{t}"
    );
    assert!(!t.contains("compiling"), "{t}");
    let mut refused = eval.to_vec();
    refused.extend(["--slurm-args", "-p no_such_partition"]);
    let r = weft(&refused);
    let t = text(&r);
    assert!(!r.status.success(), "{t}");
    assert!(
        t.contains(
            "--on slurm: sbatch refuses the submission (--slurm-args \"-p no_such_partition\"):"
        ) && t.contains("nvalid partition"),
        "{t}"
    );
    assert!(!t.contains("compiling"), "{t}");
}

#[test]
#[ignore = "needs a Slurm cluster: `.ci/run` starts one (ci/slurm/cluster)"]
fn eval_on_slurm_writes_what_the_local_run_writes_and_a_rerun_reuses_it() {
    cluster();
    let (here, there) = (scratch("slurm-eval-local"), scratch("slurm-eval-slurm"));
    let args = |out: &Path| {
        ["eval", "lwm", "--only", "reduction,hotspot", "--out"]
            .map(String::from)
            .into_iter()
            .chain([out.to_str().unwrap().to_string()])
            .collect::<Vec<_>>()
    };
    let local: Vec<String> = args(&here);
    let local: Vec<&str> = local.iter().map(String::as_str).collect();
    ok(&weft(&local));
    let mut slurm: Vec<String> = args(&there);
    slurm.extend(["--on", "slurm"].map(String::from));
    let slurm: Vec<&str> = slurm.iter().map(String::as_str).collect();
    let t = ok(&weft(&slurm));
    assert!(t.contains(": 50 jobs submitted; logs in "), "{t}");
    assert_eq!(t.matches("  [").count(), 50, "a progress line per run: {t}");
    same_files(&here, &there);
    // The same command again: every run is known, nothing is submitted.
    let t = ok(&weft(&slurm));
    assert!(t.contains("all 50 jobs done in an earlier attempt"), "{t}");
    assert!(!t.contains("submitted"), "{t}");
    same_files(&here, &there);
}

#[test]
#[ignore = "needs a Slurm cluster: `.ci/run` starts one (ci/slurm/cluster)"]
fn report_on_slurm_gives_the_local_figures_and_cache_entries() {
    cluster();
    let (here, there) = (scratch("slurm-report-local"), scratch("slurm-report-slurm"));
    // One seed: not the published report's key, so both runs measure.
    let args = |dir: &Path| -> Vec<String> {
        let (out, cache) = (dir.join("out"), dir.join("cache"));
        [
            "report",
            "capri_decision",
            "adaptive_diff",
            "--seeds",
            "1",
            "--asic",
            "none",
            "--out",
            out.to_str().unwrap(),
            "--cache",
            cache.to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec()
    };
    let local = args(&here);
    ok(&weft(&local.iter().map(String::as_str).collect::<Vec<_>>()));
    let mut slurm = args(&there);
    slurm.extend(["--on", "slurm"].map(String::from));
    let t = ok(&weft(&slurm.iter().map(String::as_str).collect::<Vec<_>>()));
    assert!(t.contains(": 2 jobs submitted; logs in "), "{t}");
    same_files(&here.join("out"), &there.join("out"));
    same_files(&here.join("cache"), &there.join("cache"));
    let rows = json(&there.join("out/report.json"));
    assert_eq!(rows.as_array().map(Vec::len), Some(2), "{rows}");
}

#[test]
#[ignore = "needs a Slurm cluster: `.ci/run` starts one (ci/slurm/cluster)"]
fn prove_on_slurm_proves_as_locally_and_a_failed_job_alone_is_resubmitted() {
    cluster();
    let (here, there) = (scratch("slurm-prove-local"), scratch("slurm-prove-slurm"));
    let local = weft(&["prove", "capri_decision", "--out", here.to_str().unwrap()]);
    ok(&local);
    let local = proofs(&local);
    assert_eq!(local.len(), 7, "{local:?}");
    // A Yosys that fails on one property, first on the nodes' PATH.
    let bin = scratch("slurm-prove-bin");
    let yosys = weft_flow::tools::YOSYS.find().unwrap();
    let failing = "p_tbc_stalls_at_every_branch";
    let fake = bin.join("yosys");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\ncase \"$*\" in *{failing}*) echo 'ERROR: planted failure'; exit 1;; esac\nexec {} \"$@\"\n",
            yosys.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let args = [
        "prove",
        "capri_decision",
        "--out",
        there.to_str().unwrap(),
        "--on",
        "slurm",
    ];
    let failed = weft_with(&args, &[("PATH", &path)]);
    let t = text(&failed);
    assert!(!failed.status.success(), "{t}");
    // Named: the property, the error, its Slurm job id and log.
    let line = t
        .lines()
        .find(|l| l.contains(failing) && l.contains("FAILED to run"))
        .unwrap_or_else(|| panic!("no failure line: {t}"));
    assert!(line.contains("planted failure"), "{line}");
    let log = line
        .split("log ")
        .nth(1)
        .and_then(|l| l.strip_suffix(')'))
        .unwrap_or_else(|| panic!("no log path: {line}"));
    assert!(
        line.contains("(slurm job ") && Path::new(log).is_file(),
        "{line}"
    );
    // The rerun submits the failed job alone and proves as the local run did.
    let rerun = weft(&args);
    let t = text(&rerun);
    assert!(rerun.status.success(), "{t}");
    assert!(
        t.contains(": 1 jobs submitted (5 done in an earlier attempt)"),
        "{t}"
    );
    assert_eq!(proofs(&rerun), local);
}

#[test]
#[ignore = "needs a Slurm cluster: `.ci/run` starts one (ci/slurm/cluster)"]
fn ctrl_c_cancels_the_array_and_a_cancelled_job_is_named() {
    cluster();
    // Held elements stay queued until released or cancelled.
    let out = scratch("slurm-cancel");
    let args = [
        "prove",
        "capri_decision",
        "--out",
        out.to_str().unwrap(),
        "--on",
        "slurm",
        "--slurm-args",
        "--hold",
    ];
    // The array's id, and the front's other lines once it ends.
    type Lines = std::thread::JoinHandle<Vec<String>>;
    let submitted = |child: &mut std::process::Child| -> (String, Lines) {
        let stderr = child.stderr.take().unwrap();
        let mut lines = BufReader::new(stderr).lines();
        let line = lines
            .by_ref()
            .map(|l| l.unwrap())
            .find(|l| l.contains("jobs submitted"))
            .expect("the front says it submitted");
        let id = line
            .strip_prefix("slurm job ")
            .and_then(|l| l.split(':').next())
            .unwrap()
            .to_string();
        // Keep reading, so the front never blocks on a full pipe.
        (
            id,
            std::thread::spawn(move || lines.map(|l| l.unwrap()).collect()),
        )
    };
    let spawn = || {
        Command::new(env!("CARGO_BIN_EXE_weft"))
            .args(args)
            .current_dir(ROOT)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let live = |id: &str| {
        let q = Command::new("squeue")
            .args(["-h", "-r", "-j", id, "-t", "pending,running", "-o", "%K"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&q.stdout).lines().count()
    };
    // One element cancelled from outside: named with its id and state, the others run.
    let mut front = spawn();
    let (id, lines) = submitted(&mut front);
    assert_eq!(live(&id), 6);
    let scancel = Command::new("scancel")
        .arg(format!("{id}_2"))
        .status()
        .unwrap();
    assert!(scancel.success());
    assert!(Command::new("scontrol")
        .args(["release", &id])
        .status()
        .unwrap()
        .success());
    let status = front.wait().unwrap();
    let lines = lines.join().unwrap().join("\n");
    assert!(
        !status.success(),
        "a cancelled job fails the command: {lines}"
    );
    let named = format!("slurm job {id}_2 was cancelled before it started; log ");
    assert!(
        lines.contains(&named) && lines.contains("capri_decision"),
        "{lines}"
    );
    // Ctrl-C in the front cancels its whole array.
    let mut front = spawn();
    let (id, lines) = submitted(&mut front);
    assert_eq!(live(&id), 1, "the rerun submits the cancelled job alone");
    let start = Instant::now();
    unsafe {
        libc::kill(front.id() as i32, libc::SIGINT);
    }
    let status = front.wait().unwrap();
    let lines = lines.join().unwrap().join("\n");
    assert!(!status.success(), "{lines}");
    assert!(
        lines.contains(&format!("interrupted: slurm job {id} cancelled (scancel)")),
        "{lines}"
    );
    assert!(start.elapsed() < Duration::from_secs(30));
    assert_eq!(live(&id), 0, "scancel took the array");
}
