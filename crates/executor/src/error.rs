//! Everything that can stop a run.

use ir::{Diagnostic, ElementType};

/// Why the executor could not run a graph (or read or write an array).
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// The graph is not structurally valid (dangling inputs, a cycle, no Result…).
    #[error("the graph is invalid: {}", first_message(.0))]
    InvalidGraph(Vec<Diagnostic>),
    /// An op that has no CPU kernel.
    #[error("layer `{layer}`: no CPU kernel for op `{op}`")]
    NoKernel { op: String, layer: String },
    /// A Parameter was not given an input.
    #[error("no input given for Parameter `{name}` (the inputs are: {available})")]
    MissingInput { name: String, available: String },
    /// An input names no Parameter.
    #[error("input `{name}` names no Parameter (the inputs are: {available})")]
    UnknownInput { name: String, available: String },
    /// Two inputs name the same Parameter (by layer and by tensor name).
    #[error("Parameter `{name}` is given twice (as `{first}` and `{second}`)")]
    DuplicateInput {
        name: String,
        first: String,
        second: String,
    },
    /// An input's element type differs from its Parameter's.
    #[error("input `{name}`: element type {actual} but the Parameter is {expected}")]
    InputType {
        name: String,
        expected: ElementType,
        actual: ElementType,
    },
    /// An input's rank differs from its Parameter's.
    #[error("input `{name}`: rank {actual} but the Parameter has rank {expected}")]
    InputRank {
        name: String,
        expected: usize,
        actual: usize,
    },
    /// An input's dim contradicts its Parameter's declared dim.
    #[error("input `{name}`: dim {axis} is {actual} but the Parameter declares {expected}")]
    InputDim {
        name: String,
        axis: usize,
        expected: String,
        actual: usize,
    },
    /// Shape inference over the bound shapes reported an error.
    #[error("shape inference over the input shapes failed: {}", first_message(.0))]
    Inference(Vec<Diagnostic>),
    /// A kernel could not compute its outputs.
    #[error("layer `{layer}` ({op}): {message}")]
    Kernel {
        layer: String,
        op: String,
        message: String,
    },
    /// A data-dependent size left the range inference gave its symbol.
    #[error("layer `{layer}`: output dim {axis} is {value}, outside the inferred range {range} of `{symbol}`")]
    DataDependentRange {
        layer: String,
        axis: usize,
        value: usize,
        symbol: String,
        range: String,
    },
    /// A kernel produced a shape other than the one inferred (a bug).
    #[error("layer `{layer}`: output {output} has shape {actual:?} but inference gave {expected}")]
    ShapeMismatch {
        layer: String,
        output: usize,
        expected: String,
        actual: Vec<usize>,
    },
    /// A tensor's size overflows or exceeds [`crate::MAX_TENSOR_BYTES`] (or
    /// the run's per-tensor limit, checked inside a kernel).
    #[error("tensor too large: {0}")]
    TooLarge(String),
    /// A layer's outputs would take the run past one of its [`crate::Limits`]
    /// (checked before the kernel allocates them).
    #[error(
        "layer `{layer}` ({op}): {what} would need {needed} bytes, over the limit of {limit} bytes"
    )]
    MemoryLimit {
        layer: String,
        op: String,
        /// `"output N"` (the per-tensor limit) or `"the live tensors"`.
        what: String,
        needed: u64,
        limit: u64,
    },
    /// A body of a layer (If, Loop, TensorIterator) failed: the layer, the
    /// body, the iteration (Loop, TensorIterator) and what failed inside.
    #[error("layer `{layer}` ({op}), {body}{}: {source}", .iteration.map(|i| format!(", iteration {i}")).unwrap_or_default())]
    InBody {
        layer: String,
        op: String,
        /// `body`, `then_body` or `else_body`.
        body: String,
        iteration: Option<u64>,
        source: Box<ExecError>,
    },
    /// A Loop or TensorIterator would run more iterations than
    /// [`crate::Limits::max_iterations`].
    #[error("layer `{layer}` ({op}): more than {limit} iterations, the limit of a run")]
    IterationLimit {
        layer: String,
        op: String,
        limit: u64,
    },
    /// A tensor whose bytes do not match its type and shape, or whose type
    /// the executor cannot compute with.
    #[error("invalid tensor: {0}")]
    InvalidTensor(String),
    /// A malformed or unsupported `.npy` file.
    #[error("npy: {0}")]
    Npy(String),
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
}

fn first_message(diagnostics: &[Diagnostic]) -> String {
    let errors: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.is_error()).collect();
    match errors.first() {
        Some(d) => {
            let layer = d
                .layer
                .as_ref()
                .map(|l| format!("layer `{}`: ", l.name))
                .unwrap_or_default();
            let more = if errors.len() > 1 {
                format!(" (and {} more)", errors.len() - 1)
            } else {
                String::new()
            };
            format!("error[{}]: {layer}{}{more}", d.rule, d.message)
        }
        None => "no error diagnostic".to_owned(),
    }
}

/// What a kernel reports; the executor adds the layer.
#[derive(Debug)]
pub(crate) enum KernelError {
    Message(String),
    Exec(ExecError),
}

impl From<ExecError> for KernelError {
    fn from(e: ExecError) -> Self {
        KernelError::Exec(e)
    }
}

impl From<String> for KernelError {
    fn from(s: String) -> Self {
        KernelError::Message(s)
    }
}

impl From<&str> for KernelError {
    fn from(s: &str) -> Self {
        KernelError::Message(s.to_owned())
    }
}
