//! The CPU executor (planned; issue "The CPU executor").
//!
//! It will run a validated graph on the CPU: bind input arrays, re-infer
//! shapes from them with `shape-infer` (kernels take their output shapes from
//! the shape rules, never from a second computation), run one kernel per op
//! (one file per op, like the shape rules), free each intermediate tensor
//! after its last consumer, and return the Result tensors. This crate is
//! empty until that issue lands.
