//! Where a command's jobs run. `weft eval`, `weft report` and `weft prove` build their job
//! list once and hand it to [`run`]: on this machine, `jobs` at a time on threads; or on a
//! Slurm cluster as one job array ([`slurm`]), whose elements each run the same `weft`
//! command line, do the one job their index names and write its result into a folder of
//! the working tree (which the nodes share) for this process to read. Either way the
//! command gets the same results in the same order and goes on as it would locally.
use serde::de::DeserializeOwned;
use serde::Serialize;

pub mod slurm;

pub use slurm::Slurm;

/// Where the jobs run.
#[derive(Clone, Debug, Default)]
pub enum On {
    /// On this machine's threads.
    #[default]
    Local,
    /// As one Slurm job array.
    Slurm(Slurm),
}

impl On {
    /// `--on NAME`, with sbatch's arguments for `slurm` (checked now, before any work:
    /// `sbatch` present, the controller answering, the submission accepted).
    pub fn by_name(name: &str, slurm_args: &str) -> Result<On, String> {
        match name {
            "local" => Ok(On::Local),
            "slurm" => Slurm::new(slurm_args).map(On::Slurm),
            _ => Err(format!("--on {name}: `local` or `slurm`")),
        }
    }
}

/// A command's jobs: `work` on each of `items`, `jobs` at a time on this machine or one
/// array element each on Slurm; `done` is called in this process as each result arrives
/// (for the command's progress lines), and the results come back in `items`' order.
/// `name` tells the jobs apart: a Slurm element finds its job by name in the list its
/// own process builds, so names must be unique. An element of an array (a process started
/// by [`slurm`]) runs its one job here, writes its result and exits.
pub fn run<T: Sync, R: Serialize + DeserializeOwned + Send>(
    on: &On,
    jobs: usize,
    items: &[T],
    name: impl Fn(&T) -> String,
    work: impl Fn(&T) -> Result<R, String> + Sync,
    done: impl Fn(&T, &Result<R, String>) + Sync,
) -> Result<Vec<Result<R, String>>, String> {
    if let Some(element) = slurm::Element::of_this_process() {
        element.run(items, &name, &work, &done)
    }
    let names: Vec<String> = items.iter().map(&name).collect();
    if let Some(twice) = names
        .iter()
        .enumerate()
        .find_map(|(i, n)| names[..i].contains(n).then_some(n))
    {
        return Err(format!("two jobs are named `{twice}`"));
    }
    match on {
        On::Local => Ok(crate::jobs::parallel(items, jobs, |item| {
            let r = work(item);
            done(item, &r);
            r
        })),
        On::Slurm(s) => s.run(items, &names, &done),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn a_local_run_gives_every_result_in_order_and_reports_each() {
        let items: Vec<u32> = (0..9).collect();
        let seen = Mutex::new(vec![]);
        let results = run(
            &On::Local,
            3,
            &items,
            |i| format!("job {i}"),
            |&i| {
                if i == 4 {
                    Err("four".into())
                } else {
                    Ok(i * 10)
                }
            },
            |&i, r| seen.lock().unwrap().push((i, r.clone())),
        )
        .unwrap();
        let want: Vec<Result<u32, String>> = items
            .iter()
            .map(|&i| {
                if i == 4 {
                    Err("four".into())
                } else {
                    Ok(i * 10)
                }
            })
            .collect();
        assert_eq!(results, want);
        let mut seen = seen.into_inner().unwrap();
        seen.sort();
        assert_eq!(seen, items.iter().copied().zip(want).collect::<Vec<_>>());
    }

    #[test]
    fn jobs_of_the_same_name_are_refused() {
        let e = run(
            &On::Local,
            1,
            &[1, 2, 1],
            |i| format!("job {i}"),
            |&i| Ok(i),
            |_, _| {},
        )
        .unwrap_err();
        assert_eq!(e, "two jobs are named `job 1`");
    }
}
