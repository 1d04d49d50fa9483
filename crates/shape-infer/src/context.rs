//! The inference context: the symbol table and the assumptions rules make.

use std::collections::HashMap;

use ir::{Diagnostic, Dim, LayerRef, Node, Provenance, Shape, SourceLocation, SymbolId};
use symdim::{Expr, Interval, Predicate, SymbolTable};

use crate::error::ShapeError;
use crate::tensor::TensorInfo;

/// A dim (or a shape value) larger than this many nodes ([`Expr::size`]) is
/// replaced by a fresh symbol before it flows on; see
/// [`InferContext::keep_trackable`].
pub const TRACKED_SIZE: usize = 256;
/// A dim nesting atoms deeper than this ([`Expr::nesting`]) is replaced by a
/// fresh symbol before it flows on.
pub const TRACKED_NESTING: usize = 16;

/// How many compound dims measured small enough the context remembers
/// ([`InferContext::keep_trackable`]).
const TRACKABLE_KEPT: usize = 4;

/// The warning of a Select whose `cond` widens the broadcast of `then` and
/// `else` (the specification's step 2 broadcasts `cond` one way; OpenVINO's
/// runtime broadcasts it both ways).
pub const SELECT_COND_BROADCAST: &str = "select-cond-broadcast";
/// The warning of a Squeeze at an axis whose dim is not 1 (the
/// specification forbids it; OpenVINO's runtime keeps the dim).
pub const SQUEEZE_NON_ONE: &str = "squeeze-non-one";

/// The warnings for models that OpenVINO's runtime accepts beyond its own
/// specification. Inference does what the runtime does and warns; under
/// [`Options::strict_spec`](crate::Options::strict_spec) they are errors.
pub const SPEC_LENIENCIES: &[&str] = &[SELECT_COND_BROADCAST, SQUEEZE_NON_ONE];

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
pub struct InferContext<'n> {
    pub symbols: SymbolTable,
    constraints: Vec<Constraint>,
    warnings: Vec<Diagnostic>,
    /// The node the following calls concern. Its [`LayerRef`] (four
    /// strings) is built only when a constraint, warning or symbol names
    /// it, not at every node entered (issue 18).
    current: Option<&'n Node>,
    /// The symbols that stand for dims too large to track, by the dim.
    stand_ins: HashMap<Expr, SymbolId>,
    /// The last compound dims measured small enough to track (copies,
    /// which keep them alive, so that the same shared terms are the same
    /// dim), the oldest replaced first: the next node often hands them on
    /// unchanged (a Reshape or an elementwise op after a Slice, a Clamp
    /// after a convolution's `H` and `W`), and measuring them again walked
    /// each whole expression (issue 18).
    trackable: [Option<Dim>; TRACKABLE_KEPT],
    /// Where the next measured dim goes in `trackable`.
    next_trackable: usize,
    /// The bodies being inferred, outermost first: each owning layer and
    /// which of its bodies.
    scopes: Vec<(LayerRef, &'static str)>,
}

impl<'n> InferContext<'n> {
    /// A context over `symbols` (the graph's table, which inference extends).
    pub fn new(symbols: SymbolTable) -> Self {
        InferContext {
            symbols,
            constraints: Vec::new(),
            warnings: Vec::new(),
            current: None,
            stand_ins: HashMap::new(),
            trackable: Default::default(),
            next_trackable: 0,
            scopes: Vec::new(),
        }
    }

    /// Enters body `body` of layer `parent`: the layers of the following
    /// calls sit inside it.
    pub(crate) fn push_scope(&mut self, parent: LayerRef, body: &'static str) {
        self.scopes.push((parent, body));
    }

    /// Leaves the innermost body.
    pub(crate) fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    /// Sets the node the following calls concern.
    pub(crate) fn enter(&mut self, node: &'n Node) {
        self.current = Some(node);
    }

    /// The current node, within the bodies being inferred. The scopes are
    /// those of when the node was entered: a body's walk enters its parent
    /// again once its scope is left.
    fn current(&self) -> (LayerRef, SourceLocation) {
        match self.current {
            Some(node) => {
                let mut layer = node.layer_ref();
                for (parent, body) in self.scopes.iter().rev() {
                    layer = layer.within(parent, body);
                }
                (layer, node.location)
            }
            None => (
                LayerRef {
                    id: String::new(),
                    name: String::new(),
                    type_name: String::new(),
                    version: String::new(),
                    parents: Vec::new(),
                },
                SourceLocation::default(),
            ),
        }
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
            // The same assumption made again (every layer of a chain that
            // needs it) is reported once, at the first layer.
            None if self.constraints.iter().any(|c| c.predicate == predicate) => Ok(()),
            None => {
                self.narrow_ranges(&predicate);
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

    /// Narrows a symbol's range by a recorded bound on it alone (`H >= 3`,
    /// `N == 1`), so that inference goes on under what it assumed: the same
    /// assumption is not recorded again by every later layer (a CNN's
    /// `H >= 1` at each convolution) and bounds stay as tight as the
    /// assumptions make them. Sound because the assumption is reported: a
    /// binding that breaks it is invalid at the layer that recorded it.
    fn narrow_ranges(&mut self, predicate: &Predicate) {
        let (difference, lower, upper) = match predicate {
            Predicate::Ge(a, b) | Predicate::Le(b, a) => (a.sub(b), true, false),
            Predicate::Gt(a, b) | Predicate::Lt(b, a) => {
                (a.sub(b).and_then(|d| d.add_const(-1)), true, false)
            }
            Predicate::Eq(a, b) => (a.sub(b), true, true),
            Predicate::And(all) => {
                for p in all {
                    self.narrow_ranges(p);
                }
                return;
            }
            _ => return,
        };
        // `difference >= 0` (and `<= 0` for an equality), with `difference`
        // of the form `k*S + c`.
        let Ok(difference) = difference else { return };
        let mut symbol = None;
        let mut constant = 0;
        for (coefficient, monomial) in difference.terms() {
            match monomial.factors() {
                [] => constant = coefficient,
                [(symdim::Atom::Sym(s), 1)] if symbol.is_none() => symbol = Some((*s, coefficient)),
                _ => return,
            }
        }
        let Some((s, k)) = symbol else { return };
        // `k*S + c >= 0` (or `<= 0`): S against `-c/k`, the direction
        // flipping for a negative k.
        let (num, den) = if k > 0 {
            (-constant, k)
        } else {
            (constant, -k)
        };
        let range = |ge_zero: bool| {
            if ge_zero == (k > 0) {
                let ceil = num.div_euclid(den) + i64::from(num.rem_euclid(den) != 0);
                Interval::new(Some(ceil), None)
            } else {
                Interval::new(None, Some(num.div_euclid(den)))
            }
        };
        if lower {
            let _ = self.symbols.restrict(s, range(true));
        }
        if upper {
            let _ = self.symbols.restrict(s, range(false));
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

    /// Replaces every dim of `outputs` (in shapes and in known values) that
    /// is larger than [`TRACKED_SIZE`] nodes or nests deeper than
    /// [`TRACKED_NESTING`] by a fresh symbol with the dim's bounds; equal
    /// dims get the same symbol.
    ///
    /// Some chains grow a dim at every layer (`ceil((D - 1)/2)` nests one
    /// level per Slice with start 1 and step 2): kept exact, the time and the
    /// report would grow with the square of the chain, and the algebra's
    /// limits ([`symdim::MAX_SIZE`], [`symdim::MAX_NESTING`]) would turn a
    /// valid model into an error. OpenVINO answers `?` for such dims; the
    /// stand-in keeps the bounds and says where it came from.
    pub(crate) fn keep_trackable(&mut self, outputs: &mut [TensorInfo]) {
        for tensor in outputs {
            if let Shape::Ranked(dims) = &mut tensor.shape {
                for dim in dims.iter_mut() {
                    self.track(dim);
                }
            }
            for dim in tensor.value.iter_mut().flatten() {
                self.track(dim);
            }
        }
    }

    #[inline]
    fn track(&mut self, dim: &mut Dim) {
        // Most dims: nothing to measure.
        if dim.is_constant() || dim.as_symbol().is_some() {
            return;
        }
        self.track_compound(dim);
    }

    /// [`Self::track`] of a dim that is neither a constant nor a symbol.
    #[inline(never)]
    fn track_compound(&mut self, dim: &mut Dim) {
        if self
            .trackable
            .iter()
            .flatten()
            .any(|kept| kept.is_same(dim))
        {
            return;
        }
        let (size, nesting) = dim.size_and_nesting();
        if size <= TRACKED_SIZE && nesting <= TRACKED_NESTING {
            self.trackable[self.next_trackable % TRACKABLE_KEPT] = Some(dim.clone());
            self.next_trackable = self.next_trackable.wrapping_add(1);
            return;
        }
        let symbol = match self.stand_ins.get(dim) {
            Some(&symbol) => symbol,
            None => {
                let range = self
                    .symbols
                    .bounds(dim)
                    .unwrap_or_else(|_| Interval::unbounded());
                let layer = self.current().0.name;
                let symbol = self.fresh_symbol(
                    range,
                    format!(
                        "stands for a dim of `{layer}` too large to track \
                         ({size} nodes, nesting {nesting})"
                    ),
                );
                self.stand_ins.insert(dim.clone(), symbol);
                symbol
            }
        };
        *dim = Expr::symbol(symbol);
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
