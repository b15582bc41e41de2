//! The one job pool: `f` over a list on a few worker threads, results in order. Workers
//! get a big stack because the bench side builds rust-hdl models on the stack (the
//! fabric's and the VGIW core's take megabytes; test threads get 2 MB).

/// Stack for threads that build rust-hdl models.
pub const BIG_STACK: usize = 512 << 20;

/// `f` over `items` on up to `jobs` threads (each with a [`BIG_STACK`]), results in order.
pub fn parallel<T: Sync, R: Send>(items: &[T], jobs: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<R>>> =
        items.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..jobs.min(items.len()).max(1) {
            std::thread::Builder::new()
                .stack_size(BIG_STACK)
                .spawn_scoped(s, || loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some(item) = items.get(i) else { break };
                    let r = f(item);
                    *results[i].lock().unwrap() = Some(r);
                })
                .expect("spawn a worker thread");
        }
    });
    results
        .into_iter()
        .map(|m| m.into_inner().unwrap().expect("every item ran"))
        .collect()
}

/// Runs `work` on a thread with a [`BIG_STACK`] and gives its result, or passes its
/// panic on.
pub fn on_big_stack<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(BIG_STACK)
        .spawn(work)
        .expect("spawn a big-stack thread")
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_order_whatever_the_worker_count() {
        let items: Vec<u64> = (0..37).collect();
        for jobs in [1, 2, 5, 100] {
            let squares = parallel(&items, jobs, |&i| i * i);
            assert_eq!(squares, items.iter().map(|i| i * i).collect::<Vec<_>>());
        }
        assert!(parallel(&[] as &[u8], 2, |_| 0).is_empty());
    }
}
