//! Per-layer timing of runs, for finding where a model's time goes.
//!
//! Off unless the environment variable `OVIR_PROFILE` is set when an
//! executor is made (so `ir-check --run --repeat N` profiles with no flag of
//! its own): every kernel call's wall time is then recorded per layer (its
//! total and its fastest call), and when the executor is dropped the figures
//! go to stderr: per op type the sum of its layers' fastest calls and of
//! their totals, then the `OVIR_PROFILE` layers of the largest fastest call
//! (a number; 20 when the value is not one). On a loaded machine a
//! preemption inflates whichever layer it falls in, so the fastest calls
//! are the cleaner figure. Bodies of If/Loop are timed as their layer.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// What one layer's calls took.
#[derive(Clone, Copy)]
struct Total {
    time: Duration,
    fastest: Duration,
    calls: u64,
}

/// The accumulated times of an executor's runs.
pub(crate) struct Profile {
    layers_shown: usize,
    /// Per layer (its name, op type and output shape): its op type and times.
    layers: Mutex<HashMap<String, (String, Total)>>,
}

impl Profile {
    /// A profile when `OVIR_PROFILE` is set.
    pub fn from_env() -> Option<Profile> {
        let value = std::env::var("OVIR_PROFILE").ok()?;
        Some(Profile {
            layers_shown: value.parse().unwrap_or(20),
            layers: Mutex::default(),
        })
    }

    /// Adds one kernel call of `layer` (an `op`) that took `time`.
    pub fn record(&self, op: &str, layer: impl FnOnce() -> String, time: Duration) {
        let Ok(mut layers) = self.layers.lock() else {
            return;
        };
        let (_, total) = layers.entry(layer()).or_insert_with(|| {
            let first = Total {
                time: Duration::ZERO,
                fastest: time,
                calls: 0,
            };
            (op.to_owned(), first)
        });
        total.time += time;
        total.fastest = total.fastest.min(time);
        total.calls += 1;
    }

    /// The report: op types by the sum of their layers' fastest calls, then
    /// the layers of the slowest fastest calls.
    fn report(&self) -> String {
        let Ok(layers) = self.layers.lock() else {
            return String::new();
        };
        let mut ops: HashMap<&str, (Duration, Duration, usize)> = HashMap::new();
        for (op, t) in layers.values() {
            let entry = ops.entry(op).or_default();
            entry.0 += t.fastest;
            entry.1 += t.time;
            entry.2 += 1;
        }
        let mut ops: Vec<_> = ops.into_iter().collect();
        ops.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then_with(|| a.0.cmp(b.0)));
        let fastest: Duration = ops.iter().map(|(_, t)| t.0).sum();
        let all: Duration = ops.iter().map(|(_, t)| t.1).sum();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let mut out = format!(
            "profile: {:.3} ms a run in kernels (fastest calls), {:.3} ms in all\n",
            ms(fastest),
            ms(all)
        );
        for (op, (fast, total, count)) in ops {
            out += &format!(
                "profile op {op}: {:.3} ms a run, {count} layers, {:.1}%, {:.3} ms in all\n",
                ms(fast),
                100.0 * fast.as_secs_f64() / fastest.as_secs_f64().max(1e-12),
                ms(total),
            );
        }
        let mut sorted: Vec<_> = layers.iter().collect();
        sorted.sort_by(|a, b| {
            b.1 .1
                .fastest
                .cmp(&a.1 .1.fastest)
                .then_with(|| a.0.cmp(b.0))
        });
        for (layer, (_, t)) in sorted.into_iter().take(self.layers_shown) {
            out += &format!(
                "profile layer {layer}: {:.3} ms fastest, {:.3} ms in all, {} calls\n",
                ms(t.fastest),
                ms(t.time),
                t.calls
            );
        }
        out
    }
}

impl Drop for Profile {
    fn drop(&mut self) {
        let ran = self.layers.lock().is_ok_and(|t| !t.is_empty());
        if ran {
            eprint!("{}", self.report());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fastest_calls_are_summed_per_op_and_layers_sorted_by_them() {
        let profile = Profile {
            layers_shown: 2,
            layers: Mutex::default(),
        };
        let ms = Duration::from_millis;
        profile.record("Convolution", || "conv1".into(), ms(5));
        profile.record("Relu", || "relu1".into(), ms(1));
        profile.record("Convolution", || "conv2".into(), ms(2));
        profile.record("Convolution", || "conv1".into(), ms(3));
        let report = profile.report();
        let lines: Vec<&str> = report.lines().collect();
        assert_eq!(
            lines[0],
            "profile: 6.000 ms a run in kernels (fastest calls), 11.000 ms in all"
        );
        assert_eq!(
            lines[1],
            "profile op Convolution: 5.000 ms a run, 2 layers, 83.3%, 10.000 ms in all"
        );
        assert_eq!(
            lines[2],
            "profile op Relu: 1.000 ms a run, 1 layers, 16.7%, 1.000 ms in all"
        );
        assert_eq!(
            lines[3],
            "profile layer conv1: 3.000 ms fastest, 8.000 ms in all, 2 calls"
        );
        assert_eq!(
            lines[4],
            "profile layer conv2: 2.000 ms fastest, 2.000 ms in all, 1 calls"
        );
        assert_eq!(lines.len(), 5);
        // Emptied so the drop prints nothing into the test's output.
        profile.layers.lock().unwrap().clear();
    }
}
