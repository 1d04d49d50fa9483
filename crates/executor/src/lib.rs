//! The CPU executor.
//!
//! [`Executor::new`] checks a graph's structure and that every op has a
//! kernel; [`Executor::run`] binds the input arrays to the Parameters
//! (checking element type, rank and declared dims first), re-infers every
//! shape with `shape-infer` from the bound shapes (any error diagnostic stops
//! the run), then runs one kernel per op in topological order. Kernels take
//! their output shapes from the shape rules, never from a second
//! computation; data-dependent sizes (Compress, Extract) are decided by the
//! kernel and checked against the inferred symbol's range. Each intermediate
//! tensor is freed after its last consumer has run. Tensors share byte
//! buffers: Consts view the weights file, Reshape/Squeeze/Unsqueeze are views.
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::collections::HashMap;
//! let model = ir_xml::read_model("model.xml".as_ref(), None)?;
//! let exec = executor::Executor::new(&model.graph)?;
//! let x = executor::read_npy("x.npy".as_ref())?;
//! let outputs = exec.run(HashMap::from([("x".to_owned(), x)]))?;
//! for (name, tensor) in &outputs {
//!     executor::write_npy(format!("{}.npy", name.replace('/', "_")).as_ref(), tensor)?;
//! }
//! # Ok(()) }
//! ```

mod broadcast;
mod compare;
mod compressed;
mod error;
mod executor;
mod fusion;
mod gemm;
mod kernels;
mod npy;
mod packed;
mod parallel;
mod pool;
mod precision;
mod profile;
mod simd;
mod state;
mod tensor;

pub use compare::first_difference;
pub use error::ExecError;
pub use executor::{Executor, Limits, MAX_ITERATIONS};
pub use kernels::convert::convert;
pub use kernels::OPS;
pub use npy::{from_raw_codes, parse_npy, read_npy, to_npy_bytes, write_npy};
pub use parallel::KeepAwake;
pub use precision::Precision;
pub use profile::{LayerTime, OpTime, Profile, PROFILE_LAYERS_SHOWN};
pub use state::State;
pub use tensor::{byte_size, element_count, Element, Tensor, MAX_TENSOR_BYTES};
