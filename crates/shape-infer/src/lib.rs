//! Symbolic shape inference and validation.
//!
//! [`infer`] checks a graph's structure ([`validate`]), walks it in topological
//! order, and asks each node's op rule ([`registry`], one file per op under
//! [`ops`]) for the element types and symbolic shapes of its outputs. Rules that
//! can only proceed by assuming something about symbols record the assumption
//! in the [`InferContext`]; it becomes a [`Constraint`] in the result. Every
//! inferred shape is then compared with the shape the file declares on that port.
//!
//! Nothing here stops at the first problem: every diagnostic is collected, and a
//! node whose rule fails (or whose op is unknown) carries its declared shapes so
//! that inference can go on past it.

pub mod broadcast;
pub mod context;
pub mod declared;
pub mod engine;
pub mod error;
pub mod openvino_opsets;
pub mod ops;
pub mod overrides;
pub mod registry;
pub mod tensor;
pub mod validate;
pub mod window;

pub use context::{Constraint, InferContext};
pub use engine::{
    infer, infer_node, infer_validated, infer_validated_with_feeds, BodyOutcome, Inference,
    NodeOutcome, Options,
};
pub use error::ShapeError;
pub use registry::{OpDef, Registry};
pub use tensor::{ShapeOrigin, TensorInfo};
