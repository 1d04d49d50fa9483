//! The inference context: the symbol table and the assumptions rules make.

use ir::{Diagnostic, LayerRef, Node, Provenance, SourceLocation, SymbolId};
use symdim::{Interval, Predicate, SymbolTable};

use crate::error::ShapeError;

/// An assumption a rule had to make to go on, with the layer that forced it.
#[derive(Debug, Clone)]
pub struct Constraint {
    pub predicate: Predicate,
    pub layer: LayerRef,
    pub location: SourceLocation,
}

/// What a rule may use and record while it infers one node.
///
/// Rules see the symbol table (to create data-dependent symbols and to compare
/// dims under their ranges) and record assumptions with [`InferContext::assume`],
/// never silently.
#[derive(Debug)]
pub struct InferContext {
    pub symbols: SymbolTable,
    constraints: Vec<Constraint>,
    warnings: Vec<Diagnostic>,
    current: Option<(LayerRef, SourceLocation)>,
}

impl InferContext {
    /// A context over `symbols` (the graph's table, which inference extends).
    pub fn new(symbols: SymbolTable) -> Self {
        InferContext {
            symbols,
            constraints: Vec::new(),
            warnings: Vec::new(),
            current: None,
        }
    }

    /// Sets the node the following calls concern.
    pub(crate) fn enter(&mut self, node: &Node) {
        self.current = Some((node.layer_ref(), node.location));
    }

    fn current(&self) -> (LayerRef, SourceLocation) {
        self.current.clone().unwrap_or_else(|| {
            (
                LayerRef {
                    id: String::new(),
                    name: String::new(),
                    type_name: String::new(),
                    version: String::new(),
                },
                SourceLocation::default(),
            )
        })
    }

    /// Records that inference of the current node assumes `predicate`.
    ///
    /// An assumption that is provably true is dropped; one that is provably
    /// false is an error; anything else is recorded as a constraint.
    pub fn assume(&mut self, predicate: Predicate) -> Result<(), ShapeError> {
        match self.symbols.decide(&predicate) {
            Some(true) => Ok(()),
            Some(false) => Err(ShapeError::FalseAssumption {
                assumption: self.symbols.display_predicate(&predicate).to_string(),
            }),
            None => {
                let (layer, location) = self.current();
                self.constraints.push(Constraint {
                    predicate,
                    layer,
                    location,
                });
                Ok(())
            }
        }
    }

    /// A new symbol for a size only known at run time (NonZero's count…),
    /// with the current node as its provenance.
    pub fn fresh_symbol(&mut self, range: Interval, reason: impl Into<String>) -> SymbolId {
        let (layer, location) = self.current();
        self.symbols.fresh(
            range,
            Some(Provenance {
                layer: layer.name,
                line: location.line,
                reason: reason.into(),
            }),
        )
    }

    /// Reports a warning about the current node (an attribute OpenVINO would
    /// silently misread, for example).
    pub fn warn(&mut self, rule: &'static str, message: impl Into<String>) {
        let (layer, location) = self.current();
        self.warnings
            .push(Diagnostic::warning(rule, message).at_layer(layer, location));
    }

    /// The constraints recorded so far.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    pub(crate) fn into_parts(self) -> (SymbolTable, Vec<Constraint>, Vec<Diagnostic>) {
        (self.symbols, self.constraints, self.warnings)
    }
}
