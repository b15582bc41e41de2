//! A command's jobs as one Slurm job array. This process (the front) writes the job list
//! into `target/slurm/<command>-<key>/attempt-<n>/` with a batch script that runs the
//! same `weft` command line, submits the jobs not yet done as one array (`sbatch
//! --array`), follows it (`squeue`, and the result files), and gathers the results. Each
//! element is that command with `WEFT_SLURM_ELEMENT` set: it builds the same job list,
//! runs the job its array index names, writes the result into `results/` and exits.
//!
//! The folder's key is the command line (less `--on`, `--slurm-args`, `--jobs`), the
//! working directory, the `weft` binary and the set of job names: a rerun of the same
//! command finds the results of the earlier attempts there and submits only the jobs
//! without one.
use crate::report::cache_key;
use crate::tools::{transcript, Tool};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub const SBATCH: Tool = Tool {
    program: "sbatch",
    package: "slurm-client",
};
pub const SQUEUE: Tool = Tool {
    program: "squeue",
    package: "slurm-client",
};
pub const SCANCEL: Tool = Tool {
    program: "scancel",
    package: "slurm-client",
};
pub const SCONTROL: Tool = Tool {
    program: "scontrol",
    package: "slurm-client",
};

/// Set in an element's environment: its attempt folder.
pub const ELEMENT: &str = "WEFT_SLURM_ELEMENT";
/// Where the job folders are, in the working directory.
pub const FOLDERS: &str = "target/slurm";
/// How long a finished element's result may take to show on a shared filesystem.
const RESULT_GRACE: Duration = Duration::from_secs(60);
/// How often the front looks at the queue and the results.
const POLL: Duration = Duration::from_secs(1);

/// A checked way to submit: `sbatch` found, the controller answering, the arguments
/// accepted.
#[derive(Clone, Debug)]
pub struct Slurm {
    /// Passed to `sbatch` (partition, account, time...).
    pub args: Vec<String>,
}

/// The first line of a tool's output, for one-line messages.
fn first_line(out: &std::process::Output) -> String {
    transcript(out)
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("no output")
        .trim()
        .to_string()
}

impl Slurm {
    /// Checks that Slurm takes a submission with `args` (words separated by spaces):
    /// each of a missing `sbatch`, a controller that does not answer and arguments it
    /// refuses is one message. An element of an array checks nothing (it submits none).
    pub fn new(args: &str) -> Result<Slurm, String> {
        let slurm = Slurm {
            args: args.split_whitespace().map(String::from).collect(),
        };
        if std::env::var_os(ELEMENT).is_some() {
            return Ok(slurm);
        }
        for tool in [SBATCH, SQUEUE, SCANCEL, SCONTROL] {
            tool.find().map_err(|e| format!("--on slurm: {e}"))?;
        }
        let here = Path::new(".");
        let limit = Some(Duration::from_secs(30));
        match SCONTROL.run_limited(&["ping"], here, limit)? {
            Some(out) if out.status.success() && !transcript(&out).contains("DOWN") => {}
            Some(out) => {
                return Err(format!(
                    "--on slurm: the Slurm controller does not answer (scontrol ping: {})",
                    first_line(&out)
                ))
            }
            None => {
                return Err(
                    "--on slurm: the Slurm controller does not answer (scontrol ping: no answer in 30 s)"
                        .into(),
                )
            }
        }
        let mut test: Vec<&str> = vec!["--test-only"];
        test.extend(slurm.args.iter().map(String::as_str));
        test.extend(["--wrap", "true"]);
        match SBATCH.run_limited(&test, here, limit)? {
            Some(out) if out.status.success() => Ok(slurm),
            Some(out) => Err(format!(
                "--on slurm: sbatch refuses the submission (--slurm-args \"{}\"): {}",
                args.trim(),
                transcript(&out)
                    .lines()
                    .rfind(|l| l.contains("error"))
                    .map_or_else(|| first_line(&out), |l| l.trim().to_string())
            )),
            None => Err("--on slurm: sbatch --test-only had no answer in 30 s".into()),
        }
    }

    /// Submits the jobs of `items` (named `names`) that have no result yet and gathers
    /// every result; `done` sees each as it arrives. An error: the submission failed, or
    /// the front was interrupted (the array is then cancelled).
    pub fn run<T, R: Serialize + DeserializeOwned>(
        &self,
        items: &[T],
        names: &[String],
        done: &impl Fn(&T, &Result<R, String>),
    ) -> Result<Vec<Result<R, String>>, String> {
        if items.is_empty() {
            return Ok(vec![]);
        }
        let folder = JobFolder::of(names)?;
        let mut results: Vec<Option<Result<R, String>>> = names
            .iter()
            .map(|n| folder.result::<R>(n).filter(|r| r.is_ok()))
            .collect();
        for (item, r) in items.iter().zip(&results) {
            if let Some(r) = r {
                done(item, r);
            }
        }
        let missing: Vec<usize> = (0..names.len()).filter(|&i| results[i].is_none()).collect();
        if missing.is_empty() {
            eprintln!(
                "all {} jobs done in an earlier attempt ({})",
                names.len(),
                folder.dir.display()
            );
            return Ok(results.into_iter().map(Option::unwrap).collect());
        }
        for &i in &missing {
            // An earlier attempt's failure: the new element writes the job's result.
            let _ = std::fs::remove_file(JobFolder::result_path(&folder.dir, &names[i]));
        }
        let attempt = folder.attempt(names)?;
        let id = self.submit(&attempt, &missing)?;
        eprintln!(
            "slurm job {id}: {} jobs submitted{}; logs in {}",
            missing.len(),
            match names.len() - missing.len() {
                0 => String::new(),
                n => format!(" ({n} done in an earlier attempt)"),
            },
            attempt.join("logs").display()
        );
        let log = |i: usize| attempt.join("logs").join(format!("{id}_{i}.log"));
        let interrupted = Interrupts::catch();
        let mut ended: BTreeMap<usize, (String, Instant)> = BTreeMap::new();
        let mut started = std::collections::BTreeSet::new();
        let mut last_status = String::new();
        let mut unanswered = false;
        loop {
            let queue = match queue(&id) {
                Ok(q) => {
                    unanswered = false;
                    Some(q)
                }
                Err(e) => {
                    if !unanswered {
                        eprintln!("slurm job {id}: squeue does not answer ({e}); still waiting");
                    }
                    unanswered = true;
                    None
                }
            };
            for &i in &missing {
                if results[i].is_some() {
                    continue;
                }
                let r = folder.result::<R>(&names[i]).map(|r| {
                    r.map_err(|e| format!("{e} (slurm job {id}_{i}, log {})", log(i).display()))
                });
                if let Some(r) = r {
                    done(&items[i], &r);
                    results[i] = Some(r);
                    continue;
                }
                let Some(queue) = &queue else { continue };
                let state = queue.get(&i).cloned();
                match state.as_deref() {
                    Some("PENDING") => continue,
                    Some(s) if LIVE.contains(&s) => {
                        started.insert(i);
                        continue;
                    }
                    Some(_) => {
                        started.insert(i);
                    }
                    None => {}
                }
                // A queued element cancelled before it started leaves no record.
                let what = match (&state, started.contains(&i)) {
                    (Some(s), _) => format!("ended {s} without a result"),
                    (None, true) => "left the queue without a result".into(),
                    (None, false) => "was cancelled before it started".into(),
                };
                // Ended without a result file: give a shared filesystem time to show one
                // when the element may have written it.
                let since = ended.entry(i).or_insert((what.clone(), Instant::now())).1;
                let may_have_written = match state.as_deref() {
                    Some(s) => ["COMPLETED", "FAILED"].contains(&s),
                    None => started.contains(&i),
                };
                if !may_have_written || since.elapsed() > RESULT_GRACE {
                    let r = Err(format!(
                        "slurm job {id}_{i} {what}; log {}",
                        log(i).display()
                    ));
                    done(&items[i], &r);
                    results[i] = Some(r);
                }
            }
            let left = missing.iter().filter(|&&i| results[i].is_none()).count();
            if left == 0 {
                break;
            }
            if let Some(queue) = &queue {
                let count = |states: &[&str]| {
                    missing
                        .iter()
                        .filter(|&&i| results[i].is_none())
                        .filter(|i| queue.get(i).is_some_and(|s| states.contains(&s.as_str())))
                        .count()
                };
                let failed = missing
                    .iter()
                    .filter(|&&i| results[i].as_ref().is_some_and(|r| r.is_err()))
                    .count();
                let status = format!(
                    "slurm job {id}: {} queued, {} running, {} done, {failed} failed, of {}",
                    count(&["PENDING", "REQUEUED", "RESV_DEL_HOLD", "SUSPENDED"]),
                    count(&["RUNNING", "CONFIGURING", "COMPLETING"]),
                    missing.len() - left - failed,
                    missing.len()
                );
                if status != last_status {
                    eprintln!("{status}");
                    last_status = status;
                }
            }
            if interrupted.wait(POLL) {
                return Err(self.cancel(&id, &folder, names, &missing));
            }
        }
        Ok(results.into_iter().map(Option::unwrap).collect())
    }

    /// Submits the array of `indices` of the attempt's job list; the array's job id.
    fn submit(&self, attempt: &Path, indices: &[usize]) -> Result<String, String> {
        let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
        let logs = attempt.join("logs");
        let mut args = vec!["--parsable".to_string(), "--job-name=weft".into()];
        args.extend(self.args.iter().cloned());
        args.extend([
            format!("--array={}", ranges(indices)),
            format!("--output={}/%A_%a.log", logs.display()),
            format!("--chdir={}", cwd.display()),
            attempt.join("element.sh").display().to_string(),
        ]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = SBATCH.run(&args, &cwd)?;
        let text = String::from_utf8_lossy(&out.stdout);
        let id = text
            .trim()
            .split(';')
            .next()
            .unwrap_or_default()
            .to_string();
        if !out.status.success() || id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
            return Err(format!(
                "sbatch refused the array: {}",
                transcript(&out).trim().replace('\n', "; ")
            ));
        }
        Ok(id)
    }

    /// Cancels the array after an interrupt; the message the command ends with.
    fn cancel(&self, id: &str, folder: &JobFolder, names: &[String], missing: &[usize]) -> String {
        let cancelled = match SCANCEL.run(&[id], Path::new(".")) {
            Ok(out) if out.status.success() => "cancelled (scancel)".to_string(),
            Ok(out) => format!("NOT cancelled: scancel {id}: {}", first_line(&out)),
            Err(e) => format!("NOT cancelled: {e}"),
        };
        // Wait for the elements to stop, so that those that finished are counted.
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(30) {
            match queue(id) {
                Ok(q) if q.values().any(|s| LIVE.contains(&s.as_str())) => {}
                _ => break,
            }
            std::thread::sleep(POLL);
        }
        let finished = missing
            .iter()
            .filter(|&&i| folder.result::<serde_json::Value>(&names[i]).is_some())
            .count();
        format!(
            "interrupted: slurm job {id} {cancelled}; {finished} of its {} jobs finished, kept in {} \
             (rerun the command to submit the others)",
            missing.len(),
            folder.dir.display()
        )
    }
}

/// The states of an element still queued or running.
const LIVE: &[&str] = &[
    "PENDING",
    "RUNNING",
    "CONFIGURING",
    "COMPLETING",
    "SUSPENDED",
    "REQUEUED",
    "REQUEUE_FED",
    "REQUEUE_HOLD",
    "RESIZING",
    "RESV_DEL_HOLD",
    "SIGNALING",
    "STAGE_OUT",
    "STOPPED",
];

/// The state of each element of array `id` the controller still knows (finished ones
/// for a few minutes), by array index.
fn queue(id: &str) -> Result<BTreeMap<usize, String>, String> {
    let out = SQUEUE.run(
        &["-h", "-r", "-t", "all", "-j", id, "-o", "%K %T"],
        Path::new("."),
    )?;
    let text = transcript(&out);
    if !out.status.success() {
        // The controller forgot the whole array: every element ended long ago.
        if text.contains("Invalid job id") {
            return Ok(BTreeMap::new());
        }
        return Err(first_line(&out));
    }
    Ok(text
        .lines()
        .filter_map(|l| {
            let (index, state) = l.trim().split_once(' ')?;
            Some((index.parse().ok()?, state.trim().to_string()))
        })
        .collect())
}

/// `0-3,7,9-10`: sbatch's `--array` list of `indices` (ascending).
pub fn ranges(indices: &[usize]) -> String {
    let mut parts: Vec<String> = vec![];
    let mut i = 0;
    while i < indices.len() {
        let mut j = i;
        while j + 1 < indices.len() && indices[j + 1] == indices[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            indices[i].to_string()
        } else {
            format!("{}-{}", indices[i], indices[j])
        });
        i = j + 1;
    }
    parts.join(",")
}

/// A word for `sh`, single-quoted.
fn quoted(word: &str) -> String {
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// What an attempt's elements read: the command they run and the job each index names.
#[derive(Serialize, Deserialize)]
struct JobList {
    command: Vec<String>,
    /// The `weft` binary the array was submitted with (its path, size and time).
    weft: String,
    names: Vec<String>,
}

/// What an element writes.
#[derive(Serialize, Deserialize)]
struct Written<R> {
    name: String,
    result: Result<R, String>,
}

/// The path, size and modification time of the running `weft`: an element run by
/// another build is refused.
fn this_binary() -> Result<(PathBuf, String), String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find weft itself: {e}"))?;
    let meta = std::fs::metadata(&exe).map_err(|e| format!("{}: {e}", exe.display()))?;
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    let identity = format!("{} {} bytes {modified}", exe.display(), meta.len());
    Ok((exe, identity))
}

/// The command line of this process, less the options that choose where jobs run.
fn command_without_runner() -> Vec<String> {
    let mut kept = vec![];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if ["--on", "--slurm-args", "--jobs"].contains(&a.as_str()) {
            args.next();
        } else if !["--on=", "--slurm-args=", "--jobs="]
            .iter()
            .any(|p| a.starts_with(p))
        {
            kept.push(a);
        }
    }
    kept
}

/// The folder of one command's jobs: `results/`, and an `attempt-<n>/` per submission.
struct JobFolder {
    dir: PathBuf,
}

impl JobFolder {
    fn of(names: &[String]) -> Result<JobFolder, String> {
        let command = command_without_runner();
        let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
        let (_, weft) = this_binary()?;
        let mut sorted: Vec<&str> = names.iter().map(String::as_str).collect();
        sorted.sort();
        let mut parts: Vec<&str> = command.iter().map(String::as_str).collect();
        let cwd_text = cwd.display().to_string();
        parts.extend([cwd_text.as_str(), weft.as_str()]);
        parts.extend(sorted);
        let words: Vec<&str> = command
            .iter()
            .take_while(|a| !a.starts_with('-'))
            .map(String::as_str)
            .collect();
        let dir = cwd
            .join(FOLDERS)
            .join(format!("{}-{}", words.join("-"), cache_key(&parts)));
        let results = dir.join("results");
        std::fs::create_dir_all(&results)
            .map_err(|e| format!("cannot create {}: {e}", results.display()))?;
        Ok(JobFolder { dir })
    }

    fn result_path(dir: &Path, name: &str) -> PathBuf {
        dir.join("results")
            .join(format!("{}.json", cache_key(&[name])))
    }

    /// The result an element wrote for the job `name`, if any.
    fn result<R: DeserializeOwned>(&self, name: &str) -> Option<Result<R, String>> {
        let text = std::fs::read_to_string(Self::result_path(&self.dir, name)).ok()?;
        let written: Written<R> = serde_json::from_str(&text).ok()?;
        (written.name == name).then_some(written.result)
    }

    /// A new attempt's folder: the job list, the batch script, the logs' folder.
    fn attempt(&self, names: &[String]) -> Result<PathBuf, String> {
        let n = (1..)
            .find(|n| !self.dir.join(format!("attempt-{n}")).exists())
            .expect("a free number");
        let dir = self.dir.join(format!("attempt-{n}"));
        let logs = dir.join("logs");
        std::fs::create_dir_all(&logs)
            .map_err(|e| format!("cannot create {}: {e}", logs.display()))?;
        let (exe, weft) = this_binary()?;
        let command = std::env::args().skip(1).collect::<Vec<_>>();
        let list = JobList {
            command: command.clone(),
            weft,
            names: names.to_vec(),
        };
        let write = |file: &str, text: &str| {
            let path = dir.join(file);
            std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
        };
        write(
            "jobs.json",
            &serde_json::to_string_pretty(&list).map_err(|e| e.to_string())?,
        )?;
        let line: Vec<String> = std::iter::once(exe.display().to_string())
            .chain(command)
            .map(|w| quoted(&w))
            .collect();
        write(
            "element.sh",
            &format!(
                "#!/bin/sh\n# One element of a weft job array: the job its index names in jobs.json.\n\
                 export {ELEMENT}={}\nexec {}\n",
                quoted(&dir.display().to_string()),
                line.join(" ")
            ),
        )?;
        Ok(dir)
    }
}

/// This process as an element of an array: its attempt folder and index.
pub struct Element {
    attempt: PathBuf,
    index: Option<usize>,
}

impl Element {
    /// `Some` when this process was started by an array.
    pub fn of_this_process() -> Option<Element> {
        let attempt = PathBuf::from(std::env::var_os(ELEMENT)?);
        let index = std::env::var("SLURM_ARRAY_TASK_ID")
            .ok()
            .and_then(|i| i.parse().ok());
        Some(Element { attempt, index })
    }

    /// Runs the job this element's index names among `items`, writes its result and
    /// exits (0 when the job succeeded).
    pub fn run<T, R: Serialize>(
        &self,
        items: &[T],
        name: &impl Fn(&T) -> String,
        work: &impl Fn(&T) -> Result<R, String>,
        done: &impl Fn(&T, &Result<R, String>),
    ) -> ! {
        let list_path = self.attempt.join("jobs.json");
        let list: JobList = match std::fs::read_to_string(&list_path)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
        {
            Ok(list) => list,
            Err(e) => {
                eprintln!("weft: {}: {e}", list_path.display());
                std::process::exit(2)
            }
        };
        let Some(wanted) = self.index.and_then(|i| list.names.get(i)) else {
            eprintln!(
                "weft: SLURM_ARRAY_TASK_ID {:?} names no job of {}",
                self.index,
                list_path.display()
            );
            std::process::exit(2)
        };
        let binary = this_binary().map(|(_, b)| b);
        let result = match items.iter().find(|t| name(t) == *wanted) {
            _ if binary.as_ref() != Ok(&list.weft) => Err(format!(
                "weft was rebuilt since the array was submitted ({}, was {})",
                binary.unwrap_or_else(|e| e),
                list.weft
            )),
            None => Err(format!(
                "no job `{wanted}` in this run's list: the working tree changed since the array was submitted"
            )),
            Some(item) => {
                let r = work(item);
                done(item, &r);
                r
            }
        };
        if let Err(e) = &result {
            eprintln!("weft: {wanted}: {e}");
        }
        let ok = result.is_ok();
        let written = Written {
            name: wanted.clone(),
            result,
        };
        let folder = self.attempt.parent().unwrap_or(Path::new("."));
        let path = JobFolder::result_path(folder, wanted);
        let own = path.with_extension(format!("{}.part", std::process::id()));
        let text = serde_json::to_string(&written).map_err(|e| e.to_string());
        if let Err(e) = text.and_then(|t| {
            std::fs::write(&own, t)
                .and_then(|()| std::fs::rename(&own, &path))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        }) {
            eprintln!("weft: {e}");
            std::process::exit(1)
        }
        std::process::exit(if ok { 0 } else { 1 })
    }
}

/// Ctrl-C (and the hangup or termination of the front) while an array runs: caught, so
/// that the array is cancelled instead of running on without anyone gathering it.
struct Interrupts {
    #[cfg(unix)]
    previous: Vec<(libc::c_int, libc::sighandler_t)>,
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_signal(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

impl Interrupts {
    fn catch() -> Interrupts {
        INTERRUPTED.store(false, Ordering::SeqCst);
        #[cfg(unix)]
        {
            let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            let previous = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP]
                .into_iter()
                // SAFETY: the handler only stores to an atomic.
                .map(|s| (s, unsafe { libc::signal(s, handler) }))
                .collect();
            Interrupts { previous }
        }
        #[cfg(not(unix))]
        Interrupts {}
    }

    /// Waits `time`; whether an interrupt came.
    fn wait(&self, time: Duration) -> bool {
        let start = Instant::now();
        while start.elapsed() < time {
            if INTERRUPTED.load(Ordering::SeqCst) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        INTERRUPTED.load(Ordering::SeqCst)
    }
}

impl Drop for Interrupts {
    fn drop(&mut self) {
        #[cfg(unix)]
        for &(s, h) in &self.previous {
            // SAFETY: puts back the handler that was there.
            unsafe {
                libc::signal(s, h);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_lists_run_consecutive_indices_together() {
        assert_eq!(ranges(&[0, 1, 2, 3, 7, 9, 10]), "0-3,7,9-10");
        assert_eq!(ranges(&[5]), "5");
        assert_eq!(ranges(&[1, 3]), "1,3");
    }

    #[test]
    fn words_are_quoted_for_the_shell() {
        assert_eq!(quoted("plain"), "'plain'");
        assert_eq!(quoted("it's a b"), "'it'\\''s a b'");
    }
}
