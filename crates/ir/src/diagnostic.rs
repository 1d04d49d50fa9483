//! Diagnostics: what every stage (reading, validation, inference) reports.
//!
//! Stages keep their own typed errors; each converts them into a [`Diagnostic`],
//! which says how bad it is, which layer it concerns and where that layer sits in
//! the source file, which rule failed, and the message. The CLI renders them.

use std::fmt;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The model is invalid.
    Error,
    /// Suspicious but accepted (for example a boolean attribute OpenVINO reads as false).
    Warning,
    /// Extra information.
    Note,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        })
    }
}

/// A 1-based line and column in the source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize)]
pub struct SourceLocation {
    pub line: u32,
    pub column: u32,
}

/// The identity of a layer as the file names it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
pub struct LayerRef {
    /// The `id` attribute.
    pub id: String,
    /// The `name` attribute.
    pub name: String,
    /// The `type` attribute (`Reshape`).
    pub type_name: String,
    /// The `version` attribute (`opset1`).
    pub version: String,
    /// For a layer inside a body: the layers that own the bodies around it,
    /// outermost first (ids repeat across bodies, so the path identifies it).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parents: Vec<ScopeRef>,
}

impl LayerRef {
    /// This layer seen from outside the body `body` of layer `parent`.
    pub fn within(mut self, parent: &LayerRef, body: &str) -> Self {
        let mut parents = parent.parents.clone();
        parents.push(ScopeRef {
            id: parent.id.clone(),
            name: parent.name.clone(),
            type_name: parent.type_name.clone(),
            body: body.to_owned(),
        });
        parents.append(&mut self.parents);
        self.parents = parents;
        self
    }
}

/// A layer that owns a body, and which body, on the path to a body layer.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
pub struct ScopeRef {
    /// The owning layer's `id` attribute.
    pub id: String,
    /// Its `name` attribute.
    pub name: String,
    /// Its `type` attribute (`Loop`).
    pub type_name: String,
    /// Which body (`body`, `then_body`, `else_body`).
    pub body: String,
}

impl fmt::Display for LayerRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for scope in &self.parents {
            write!(
                f,
                "layer {} `{}` ({}) > {} > ",
                scope.id, scope.name, scope.type_name, scope.body
            )?;
        }
        write!(
            f,
            "layer {} `{}` ({}-{})",
            self.id, self.name, self.type_name, self.version
        )
    }
}

/// One finding about a model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A short stable name of the rule that failed (`edge-dangling`, `reshape-element-count`).
    pub rule: &'static str,
    pub message: String,
    /// The layer concerned, when there is one.
    pub layer: Option<LayerRef>,
    /// Where in the source file (the layer's element, or the exact element at fault).
    pub location: Option<SourceLocation>,
    /// Further lines of explanation (declared vs inferred shapes, the assumption made…).
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic with no layer, location or notes.
    pub fn new(severity: Severity, rule: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            rule,
            message: message.into(),
            layer: None,
            location: None,
            notes: Vec::new(),
        }
    }

    /// An error.
    pub fn error(rule: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, rule, message)
    }

    /// A warning.
    pub fn warning(rule: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, rule, message)
    }

    /// Attaches the layer and its location.
    pub fn at_layer(mut self, layer: LayerRef, location: SourceLocation) -> Self {
        self.layer = Some(layer);
        self.location = Some(location);
        self
    }

    /// The diagnostic as seen from outside the body `body` of layer
    /// `parent`: its layer's path gains the parent; a diagnostic about no
    /// layer in particular is about the parent.
    pub fn within(mut self, parent: &LayerRef, body: &str) -> Self {
        self.layer = Some(match self.layer.take() {
            Some(layer) => layer.within(parent, body),
            None => parent.clone(),
        });
        self
    }

    /// Attaches a location.
    pub fn at(mut self, location: SourceLocation) -> Self {
        self.location = Some(location);
        self
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}
