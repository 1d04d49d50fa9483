//! The graph IR of the toolkit: plain data, no file format and no inference logic.
//!
//! A [`Graph`] is a directed graph (petgraph) of [`Node`]s joined by [`Edge`]s that
//! run from an output port of one node to an input port of another. Every node
//! carries its op ([`Op`]: the typed payload of the ops the IR itself needs,
//! Parameter, Constant and Result, or the type name and version of any other op),
//! its raw attributes (kept in file order so that writing a model back is exact),
//! its declared ports, and where it came from in the source file.
//!
//! Shapes are symbolic: a [`Dim`] is a [`symdim::Expr`] over the symbols of the
//! graph's [`SymbolTable`], so `[N, 3, H, W]` keeps `N`, `H` and `W`.
//!
//! Reading and writing OpenVINO IR lives in the `ir-xml` crate; shape inference in
//! `shape-infer`.

pub mod attributes;
pub mod body;
pub mod diagnostic;
pub mod element;
pub mod graph;
pub mod shape;
pub mod tensor;

pub use attributes::{AttributeError, Attributes};
pub use body::{BackEdge, Body, BodyRole, InputMap, OutputMap, SliceSpec, SubGraph};
pub use diagnostic::{Diagnostic, LayerRef, ScopeRef, Severity, SourceLocation};
pub use element::ElementType;
pub use graph::{
    ir_type_name, Edge, Graph, InputFeeds, InputRef, Node, NodeId, Op, OpType, OutputRef, PortDecl,
    PortExtras,
};
pub use shape::{DeclaredDim, Dim, Shape};
pub use symdim::{self as dim, Interval, Provenance, SymbolId, SymbolTable};
pub use tensor::TensorBytes;
