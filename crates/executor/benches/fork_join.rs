//! What a fork-join costs on the current machine: `rayon::join` of two
//! busy spins on a pool of two threads, right after the previous join and
//! after the calling thread worked alone for a gap (as between two split
//! layers), with the other worker left to rayon's idling and with it kept
//! awake by [`executor::KeepAwake`]. Prints the fastest and the median of
//! each case against the time of the two spins one after the other.
//!
//! ```sh
//! cargo bench -p executor --bench fork_join            # 2 threads, 200 calls
//! cargo bench -p executor --bench fork_join -- 2 1000  # threads, calls
//! ```

use std::time::{Duration, Instant};

use executor::KeepAwake;

/// Keeps the calling thread busy for `time`.
fn busy(time: Duration) {
    let start = Instant::now();
    while start.elapsed() < time {
        std::hint::spin_loop();
    }
}

/// Fastest and median of `times`, in µs.
fn fastest_and_median(times: &mut [f64]) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    (times[0], times[times.len() / 2])
}

fn main() {
    // `cargo bench` passes `--bench`; the numbers are ours.
    let numbers: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let threads = numbers.first().copied().unwrap_or(2);
    let calls = numbers.get(1).copied().unwrap_or(200).max(1);
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("cannot build a pool of {threads}: {e}");
            return;
        }
    };
    println!("threads={threads} calls={calls}; µs, fastest / median (sequential = 2 x spin)");
    println!("| workers | spin | gap 0 | gap 10 | gap 50 | gap 200 | gap 1000 |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    pool.install(|| {
        for awake in [false, true] {
            let _awake = awake.then(KeepAwake::new);
            for spin_us in [10u64, 20, 40] {
                let spin = Duration::from_micros(spin_us);
                let mut row = format!(
                    "| {} | {spin_us} |",
                    if awake { "kept awake" } else { "rayon idling" }
                );
                for gap_us in [0u64, 10, 50, 200, 1000] {
                    let mut times = Vec::with_capacity(calls);
                    for _ in 0..calls {
                        busy(Duration::from_micros(gap_us));
                        let start = Instant::now();
                        rayon::join(|| busy(spin), || busy(spin));
                        times.push(start.elapsed().as_secs_f64() * 1e6);
                    }
                    let (fastest, median) = fastest_and_median(&mut times);
                    row.push_str(&format!(" {fastest:.1} / {median:.1} |"));
                }
                println!("{row}");
            }
        }
        // What starting and ending a guard costs the calling thread.
        let mut times = Vec::with_capacity(calls);
        for _ in 0..calls {
            let start = Instant::now();
            drop(KeepAwake::new());
            times.push(start.elapsed().as_secs_f64() * 1e6);
            busy(Duration::from_micros(200));
        }
        let (fastest, median) = fastest_and_median(&mut times);
        println!("KeepAwake::new + drop: {fastest:.1} / {median:.1} µs");
    });
}
