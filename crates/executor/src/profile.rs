//! Per-layer timing of runs, for finding where a model's time goes.
//!
//! Off unless asked for ([`Executor::with_profiling`](crate::Executor::with_profiling)):
//! every kernel call's wall time is then recorded per layer and output shape
//! (its total and its fastest call), and
//! [`Executor::profile`](crate::Executor::profile) returns the figures as a
//! [`Profile`]: per op type the sum of its layers' fastest calls and of their
//! totals, and every layer from the slowest fastest call down. Nothing is
//! printed: the caller shows the [`Profile`] (its `Display` is the table
//! `ir-check --profile N` prints). On a loaded machine a preemption inflates
//! whichever layer it falls in, so the fastest calls are the cleaner figure.
//! Bodies of If/Loop are timed as their layer.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// How many layers the `Display` of a [`Profile`] lists.
pub const PROFILE_LAYERS_SHOWN: usize = 20;

/// What one layer's kernel calls at one output shape took over the runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayerTime {
    /// The layer's name.
    pub layer: String,
    /// Its op type (`Convolution`).
    pub op: String,
    /// The shape of its first output in these calls (`None`: no output).
    pub shape: Option<Vec<usize>>,
    /// Its fastest call.
    pub fastest: Duration,
    /// All its calls together.
    pub total: Duration,
    /// How many calls.
    pub calls: u64,
}

/// One op type's layers together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpTime {
    /// The op type.
    pub op: String,
    /// The sum of its layers' fastest calls: the time of one run.
    pub fastest: Duration,
    /// All its layers' calls together.
    pub total: Duration,
    /// How many layers (a layer run at two shapes counts twice).
    pub layers: usize,
}

/// The per-layer timing of a profiled executor's runs
/// ([`Executor::profile`](crate::Executor::profile)).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profile {
    /// Per op type, largest sum of fastest calls first (ties by name).
    pub ops: Vec<OpTime>,
    /// Every layer (and output shape), slowest fastest call first (ties by
    /// name).
    pub layers: Vec<LayerTime>,
}

impl Profile {
    /// The time of one run in kernels: the sum of every layer's fastest call.
    pub fn fastest(&self) -> Duration {
        self.ops.iter().map(|o| o.fastest).sum()
    }

    /// Every kernel call of every run together.
    pub fn total(&self) -> Duration {
        self.ops.iter().map(|o| o.total).sum()
    }

    /// The table of the op types and the `layers` slowest layers, one line
    /// each (the `Display` of the profile lists [`PROFILE_LAYERS_SHOWN`] layers).
    pub fn table(&self, layers: usize) -> impl fmt::Display + '_ {
        Table {
            profile: self,
            layers,
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.table(PROFILE_LAYERS_SHOWN).fmt(f)
    }
}

/// [`Profile::table`].
struct Table<'a> {
    profile: &'a Profile,
    layers: usize,
}

impl fmt::Display for Table<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let fastest = self.profile.fastest();
        writeln!(
            f,
            "profile: {:.3} ms a run in kernels (fastest calls), {:.3} ms in all",
            ms(fastest),
            ms(self.profile.total())
        )?;
        for op in &self.profile.ops {
            writeln!(
                f,
                "profile op {}: {:.3} ms a run, {} layers, {:.1}%, {:.3} ms in all",
                op.op,
                ms(op.fastest),
                op.layers,
                100.0 * op.fastest.as_secs_f64() / fastest.as_secs_f64().max(1e-12),
                ms(op.total),
            )?;
        }
        for layer in self.profile.layers.iter().take(self.layers) {
            let shape = layer
                .shape
                .as_ref()
                .map_or(String::new(), |s| format!(" {s:?}"));
            writeln!(
                f,
                "profile layer {} ({}){shape}: {:.3} ms fastest, {:.3} ms in all, {} calls",
                layer.layer,
                layer.op,
                ms(layer.fastest),
                ms(layer.total),
                layer.calls
            )?;
        }
        Ok(())
    }
}

/// A layer (node index) at one first-output shape.
type LayerKey = (usize, Option<Vec<usize>>);

/// The times an executor's runs record, per layer and first output shape.
#[derive(Default)]
pub(crate) struct Recorder {
    layers: Mutex<HashMap<LayerKey, LayerTime>>,
}

impl Recorder {
    /// Adds one kernel call of layer `index` (named `layer`, an `op`) whose
    /// first output is `shape`, which took `time`.
    pub fn record(
        &self,
        (index, layer, op): (usize, &str, &str),
        shape: Option<&[usize]>,
        time: Duration,
    ) {
        let mut layers = self.layers.lock().unwrap_or_else(PoisonError::into_inner);
        let entry = layers
            .entry((index, shape.map(<[usize]>::to_vec)))
            .or_insert_with(|| LayerTime {
                layer: layer.to_owned(),
                op: op.to_owned(),
                shape: shape.map(<[usize]>::to_vec),
                fastest: time,
                total: Duration::ZERO,
                calls: 0,
            });
        entry.total += time;
        entry.fastest = entry.fastest.min(time);
        entry.calls += 1;
    }

    /// The figures so far.
    pub fn profile(&self) -> Profile {
        let layers = self.layers.lock().unwrap_or_else(PoisonError::into_inner);
        let mut layers: Vec<LayerTime> = layers.values().cloned().collect();
        let mut ops: HashMap<&str, OpTime> = HashMap::new();
        for t in &layers {
            let op = ops.entry(&t.op).or_insert_with(|| OpTime {
                op: t.op.clone(),
                fastest: Duration::ZERO,
                total: Duration::ZERO,
                layers: 0,
            });
            op.fastest += t.fastest;
            op.total += t.total;
            op.layers += 1;
        }
        let mut ops: Vec<OpTime> = ops.into_values().collect();
        ops.sort_by(|a, b| b.fastest.cmp(&a.fastest).then_with(|| a.op.cmp(&b.op)));
        layers.sort_by(|a, b| {
            b.fastest
                .cmp(&a.fastest)
                .then_with(|| a.layer.cmp(&b.layer))
                .then_with(|| a.shape.cmp(&b.shape))
        });
        Profile { ops, layers }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fastest_calls_are_summed_per_op_and_layers_sorted_by_them() {
        let recorder = Recorder::default();
        let ms = Duration::from_millis;
        let (conv1, relu1, conv2) = (
            (0, "conv1", "Convolution"),
            (1, "relu1", "Relu"),
            (2, "conv2", "Convolution"),
        );
        recorder.record(conv1, Some(&[1, 8]), ms(5));
        recorder.record(relu1, Some(&[1, 8]), ms(1));
        recorder.record(conv2, None, ms(2));
        recorder.record(conv1, Some(&[1, 8]), ms(3));
        let profile = recorder.profile();
        assert_eq!(profile.fastest(), ms(6));
        assert_eq!(profile.total(), ms(11));
        let text = profile.table(2).to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "profile: 6.000 ms a run in kernels (fastest calls), 11.000 ms in all",
                "profile op Convolution: 5.000 ms a run, 2 layers, 83.3%, 10.000 ms in all",
                "profile op Relu: 1.000 ms a run, 1 layers, 16.7%, 1.000 ms in all",
                "profile layer conv1 (Convolution) [1, 8]: 3.000 ms fastest, 8.000 ms in all, 2 calls",
                "profile layer conv2 (Convolution): 2.000 ms fastest, 2.000 ms in all, 1 calls",
            ]
        );
        assert_eq!(profile.layers.len(), 3);
        assert_eq!(profile.to_string().lines().count(), 6);
    }

    #[test]
    fn a_layer_at_two_shapes_is_two_entries() {
        let recorder = Recorder::default();
        let add = (4, "add", "Add");
        let ms = Duration::from_millis;
        recorder.record(add, Some(&[2]), ms(1));
        recorder.record(add, Some(&[3]), ms(2));
        let profile = recorder.profile();
        assert_eq!(profile.layers.len(), 2);
        assert_eq!(profile.layers[0].shape, Some(vec![3]));
        assert_eq!(profile.ops[0].layers, 2);
    }
}
