//! Why an op's rule rejected its inputs.

use ir::AttributeError;
use symdim::DimError;

/// A rule's failure. Each variant maps to a stable rule name ([`ShapeError::rule`])
/// used in diagnostics; the layer and location are added by the engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    #[error("expects {expected} input(s), got {actual}")]
    InputCount { expected: String, actual: usize },
    #[error("{what}: {message}")]
    ElementType { what: String, message: String },
    #[error(transparent)]
    Attribute(#[from] AttributeError),
    #[error("dim arithmetic failed: {0}")]
    Dim(#[from] DimError),
    #[error("{message}")]
    Rule {
        /// The stable rule name (`reshape-element-count`).
        rule: &'static str,
        message: String,
    },
    #[error("assumption `{assumption}` is false for these shapes")]
    FalseAssumption { assumption: String },
    /// The layer could not be read (the reader reported why), so there is
    /// nothing to infer; the engine reports nothing more.
    #[error("the layer could not be read")]
    Unreadable,
}

impl ShapeError {
    /// A failure of the named rule.
    pub fn rule(rule: &'static str, message: impl Into<String>) -> Self {
        ShapeError::Rule {
            rule,
            message: message.into(),
        }
    }

    /// The stable name of the rule that failed.
    pub fn rule_name(&self) -> &'static str {
        match self {
            ShapeError::InputCount { .. } => "input-count",
            ShapeError::ElementType { .. } => "element-type",
            ShapeError::Attribute(_) => "attribute-invalid",
            ShapeError::Dim(DimError::Overflow) => "dim-overflow",
            ShapeError::Dim(_) => "dim-arithmetic",
            ShapeError::Rule { rule, .. } => rule,
            ShapeError::FalseAssumption { .. } => "constraint-false",
            ShapeError::Unreadable => "layer-unreadable",
        }
    }
}
