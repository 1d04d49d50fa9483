//! The workers a run keeps awake ([`executor::KeepAwake`]): they spin only
//! while a run is on (not after it returns, fails or panics), a run inside
//! bodies, nested pools, a one-thread pool, outside any pool and several
//! runs at once in one pool all finish, and the values do not depend on
//! whether the workers were kept awake.
//!
//! The guard is one per process, so these tests take turns (`SERIAL`).

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use executor::{Executor, KeepAwake, Tensor};
use rayon::prelude::*;

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(PoisonError::into_inner)
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a pool")
}

fn sample(path: &str) -> Executor {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../ir-samples")
        .join(path);
    let model = ir_xml::read_model(&path, None).expect("the sample reads");
    Executor::new(&model.graph).expect("the sample has kernels")
}

/// Deterministic values in [-1, 1).
fn input(shape: Vec<usize>) -> HashMap<String, Tensor> {
    let n: usize = shape.iter().product();
    let values = (0..n)
        .map(|i| ((i * 7919) % 2000) as f32 / 1000.0 - 1.0)
        .collect();
    HashMap::from([("x".to_owned(), Tensor::from_vec(shape, values).unwrap())])
}

/// Waits (up to a second) until `count` workers spin; whether they did.
fn spinning_becomes(count: usize) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(1) {
        if KeepAwake::spinning_workers() == count {
            return true;
        }
        std::thread::sleep(Duration::from_micros(100));
    }
    false
}

/// Waits (up to a second) until `more` spinning jobs have started since
/// `before` (one may also have stopped already: an idle worker stops after
/// [`KeepAwake::MAX_IDLE`], and on a loaded machine this thread may not
/// run for that long).
fn spins_start(before: usize, more: usize) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(1) {
        if KeepAwake::spins_started() >= before + more {
            return true;
        }
        std::thread::sleep(Duration::from_micros(100));
    }
    false
}

/// The outputs' bytes, keyed by Result.
fn bytes(outputs: HashMap<String, Tensor>) -> Vec<(String, Vec<u8>)> {
    let mut list: Vec<_> = outputs
        .into_iter()
        .map(|(name, t)| (name, t.data.as_slice().to_vec()))
        .collect();
    list.sort();
    list
}

#[test]
fn the_other_workers_spin_while_the_guard_lives_and_stop_after() {
    let _serial = serial();
    let pool = pool(2);
    pool.install(|| {
        let before = KeepAwake::spins_started();
        // Patient workers: only the drop can stop them within the test.
        let awake = KeepAwake::with_max_idle(Duration::from_secs(600));
        assert!(awake.is_active());
        // The other worker; none spins for the calling thread.
        assert!(spins_start(before, 1));
        assert!(spinning_becomes(1), "{}", KeepAwake::spinning_workers());
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(KeepAwake::spinning_workers(), 1);
        // A second guard while one lives does nothing.
        assert!(!KeepAwake::new().is_active());
        drop(awake);
        assert!(spinning_becomes(0), "{}", KeepAwake::spinning_workers());
        // Every worker takes a job again.
        assert_eq!(pool.broadcast(|context| context.index()), vec![0, 1]);
        // And the next guard is active again.
        assert!(KeepAwake::new().is_active());
    });
}

#[test]
fn a_worker_that_finds_nothing_to_do_stops_spinning_while_the_guard_lives() {
    let _serial = serial();
    pool(2).install(|| {
        let before = KeepAwake::spins_started();
        let _awake = KeepAwake::with_max_idle(Duration::from_millis(2));
        assert!(spins_start(before, 1));
        assert!(spinning_becomes(0), "{}", KeepAwake::spinning_workers());
    });
}

#[test]
fn one_thread_or_no_pool_keeps_nothing_awake() {
    let _serial = serial();
    assert!(!KeepAwake::new().is_active());
    pool(1).install(|| assert!(!KeepAwake::new().is_active()));
}

#[test]
fn a_panic_while_the_guard_lives_ends_the_spinning() {
    let _serial = serial();
    let pool = pool(2);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        pool.install(|| {
            let before = KeepAwake::spins_started();
            let _awake = KeepAwake::new();
            assert!(spins_start(before, 1));
            panic!("a kernel panicked");
        })
    }));
    assert!(caught.is_err());
    assert!(spinning_becomes(0), "{}", KeepAwake::spinning_workers());
    pool.install(|| assert!(KeepAwake::new().is_active()));
}

#[test]
fn runs_end_their_spinning_whether_they_succeed_or_fail() {
    let _serial = serial();
    let exec = sample("models/squeezenet_narrow.xml");
    let pool = pool(2);
    pool.install(|| {
        let before = KeepAwake::spins_started();
        let out = exec.run(input(vec![1, 3, 64, 64])).expect("the run");
        assert_eq!(out.len(), 1);
        // The run handed the other worker a spinning job.
        assert!(spins_start(before, 1));
        assert!(spinning_becomes(0), "{}", KeepAwake::spinning_workers());
        assert!(KeepAwake::new().is_active(), "the run kept the guard");
        // A wrong input shape fails the run after the guard started.
        let error = exec.run(input(vec![1, 4, 64, 64])).unwrap_err();
        assert!(!error.to_string().is_empty());
        assert!(spinning_becomes(0), "{}", KeepAwake::spinning_workers());
        assert!(
            KeepAwake::new().is_active(),
            "the failed run kept the guard"
        );
    });
}

#[test]
fn values_do_not_depend_on_kept_awake_workers() {
    let _serial = serial();
    let pool = pool(2);
    for (model, shape) in [
        ("models/mobilenet_v2_narrow.xml", vec![1, 3, 96, 96]),
        ("models/squeezenet_narrow.xml", vec![2, 3, 64, 64]),
        ("bodies/torch_lstm_loop.xml", vec![2, 5, 3]),
    ] {
        let exec = sample(model);
        let awake = pool.install(|| bytes(exec.run(input(shape.clone())).unwrap()));
        // Holding a guard of our own makes the run's do nothing: the same
        // pool, the workers left to rayon's idling.
        let idling = pool.install(|| {
            let held = KeepAwake::new();
            assert!(held.is_active());
            bytes(exec.run(input(shape.clone())).unwrap())
        });
        assert_eq!(awake, idling, "{model}");
        let one_thread = self::pool(1).install(|| bytes(exec.run(input(shape.clone())).unwrap()));
        assert_eq!(awake, one_thread, "{model}");
        let outside = bytes(exec.run(input(shape)).unwrap());
        assert_eq!(awake, outside, "{model}");
    }
}

#[test]
fn runs_in_nested_pools_and_at_once_in_one_pool_finish() {
    let _serial = serial();
    let exec = sample("bodies/torch_lstm_loop.xml");
    let net = sample("models/squeezenet_narrow.xml");
    let expected = bytes(net.run(input(vec![1, 3, 64, 64])).unwrap());
    let outer = pool(2);
    let inner = pool(2);
    // A run in a pool entered from another pool's worker (whose own run is
    // on), with a Loop's body inside.
    outer.install(|| {
        let _outer_run = KeepAwake::new();
        let loop_out = inner.install(|| exec.run(input(vec![1, 4, 3])).unwrap());
        assert_eq!(loop_out.len(), 2);
    });
    // Eight runs at once on a pool of two: each worker's runs wait for
    // halves of the others' layers, and at most one keeps workers awake.
    let all: Vec<_> = outer.install(|| {
        (0..8)
            .into_par_iter()
            .map(|_| bytes(net.run(input(vec![1, 3, 64, 64])).unwrap()))
            .collect()
    });
    assert!(all.iter().all(|out| *out == expected));
    assert!(spinning_becomes(0), "{}", KeepAwake::spinning_workers());
}
