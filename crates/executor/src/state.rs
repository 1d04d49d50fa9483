//! The variables of a stateful model: what its Assign layers wrote, for its
//! ReadValue layers to read on the next run.

use std::collections::BTreeMap;

use crate::tensor::Tensor;

/// The value of each variable (by `variable_id`) as the last run's Assign
/// wrote it. A variable without a value reads its initial value (or zeros),
/// as on a model's first run; [`State::reset`] forgets every value, as
/// OpenVINO's `reset_state`.
#[derive(Debug, Clone, Default)]
pub struct State {
    values: BTreeMap<String, Tensor>,
}

impl State {
    /// No variable has a value yet.
    pub fn new() -> State {
        State::default()
    }

    /// The value of variable `id`, if a run has written one.
    pub fn get(&self, id: &str) -> Option<&Tensor> {
        self.values.get(id)
    }

    /// Every variable with a value, by id.
    pub fn values(&self) -> impl Iterator<Item = (&str, &Tensor)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Whether no variable has a value.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Forgets every value: the next run starts from the initial values.
    pub fn reset(&mut self) {
        self.values.clear();
    }

    /// Keeps the values a successful run wrote.
    pub(crate) fn commit(&mut self, written: BTreeMap<String, Tensor>) {
        self.values.extend(written);
    }
}
