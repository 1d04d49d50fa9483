//! Reading and writing OpenVINO IR (`.xml` + `.bin`, IR versions 10 and 11)
//! as an [`ir::Graph`].
//!
//! # Reading
//!
//! [`read_model`] (files) and [`read_model_from_str`] (text and bytes) return a
//! [`ReadOutcome`]: the graph and every [`Diagnostic`] found on the way. A
//! [`ReadError`] is only for input that cannot be read at all (I/O, XML that is
//! not well-formed, a root that is not `<net>`); every problem of the model
//! itself is a diagnostic with one of the rule names in [`rules`], and reading
//! goes on. Layers are kept even when their edges are bad; bad edges are
//! reported and dropped. Nothing is allocated from a size written in the file:
//! constants are views ([`ir::TensorBytes`]) of the one memory-mapped `.bin`.
//!
//! # Writing
//!
//! [`write_model`] renders a graph as OpenVINO does and lays out a fresh `.bin`
//! (byte-identical constants share one offset); [`save_model`] writes both
//! files. Reading a file and writing it back gives a model OpenVINO reads as
//! the same model, and writing a re-read model again gives the same bytes.
//!
//! # Symbol names
//!
//! Names of Parameter dims (`N`, `H`…) are kept in a `<symbolic_dims>` section
//! of the model `<rt_info>`; see the `symbols` module source for the format.
//!
//! # Modules
//!
//! - `reader`: the streaming reader (quick-xml) that builds the graph and the
//!   diagnostics;
//! - `xml`: the event stream with byte offsets and small element subtrees;
//! - [`line_index`]: byte offsets to 1-based lines and columns (binary search
//!   over line starts);
//! - `writer`: the serializer;
//! - `symbols`: the symbol-name section of the model rt_info.

mod reader;
mod scan;
mod symbols;
mod text;
mod writer;
mod xml;

pub mod line_index;

use std::io;
use std::path::{Path, PathBuf};

use ir::{Diagnostic, Graph, TensorBytes};

pub use line_index::LineIndex;
pub use text::MappedText;

/// The rule names of the reader's diagnostics.
pub mod rules {
    /// Two layers have the same `id`.
    pub const LAYER_ID_DUPLICATE: &str = "layer-id-duplicate";
    /// A `<layer>` lacks `id`, `name`, `type` or `version`.
    pub const LAYER_ATTRIBUTE_MISSING: &str = "layer-attribute-missing";
    /// An edge names a layer id that no layer has.
    pub const EDGE_DANGLING_LAYER: &str = "edge-dangling-layer";
    /// An edge starts or ends at a port its layer does not declare, starts at
    /// an input port or ends at an output port.
    pub const EDGE_DANGLING_PORT: &str = "edge-dangling-port";
    /// An `<edge>` attribute is missing or not a number where one is needed.
    pub const EDGE_ATTRIBUTE_INVALID: &str = "edge-attribute-invalid";
    /// A `<dim>` that is not an integer ≥ -1.
    pub const PORT_DIM_INVALID: &str = "port-dim-invalid";
    /// A port `precision` that names no element type.
    pub const PORT_PRECISION_UNKNOWN: &str = "port-precision-unknown";
    /// A port without a valid `id`, or an id used twice in one layer.
    pub const PORT_ID_INVALID: &str = "port-id-invalid";
    /// A Parameter `shape` that is missing or cannot be parsed.
    pub const PARAMETER_SHAPE_INVALID: &str = "parameter-shape-invalid";
    /// A Parameter without `element_type`.
    pub const PARAMETER_ELEMENT_TYPE_INVALID: &str = "parameter-element-type-invalid";
    /// A Const `element_type`, `shape`, `offset` or `size` that is missing or
    /// invalid.
    pub const CONST_ATTRIBUTE_INVALID: &str = "const-attribute-invalid";
    /// A Const whose `offset` + `size` lies outside the `.bin`.
    pub const CONST_OUT_OF_BOUNDS: &str = "const-out-of-bounds";
    /// A Const whose `size` is not its element count times the element size.
    pub const CONST_SIZE_MISMATCH: &str = "const-size-mismatch";
    /// Warning: a Const's `size` is larger than its data needs.
    pub const CONST_SIZE_OVERSIZED: &str = "const-size-oversized";
    /// A Const that needs weights when there is no `.bin`.
    pub const CONST_NO_WEIGHTS: &str = "const-no-weights";
    /// An `element_type` that names no element type.
    pub const ELEMENT_TYPE_UNKNOWN: &str = "element-type-unknown";
    /// A `<net>` version other than 10 or 11 (or none).
    pub const NET_VERSION_UNSUPPORTED: &str = "net-version-unsupported";
    /// An element the reader does not understand (warning; it is skipped).
    pub const ELEMENT_IGNORED: &str = "element-ignored";
    /// A symbol-name entry of the model rt_info that does not fit its
    /// Parameter (warning).
    pub const SYMBOL_NAMES_INVALID: &str = "symbol-names-invalid";
    /// A `<port_map>` entry or back edge that cannot be read or names no
    /// port of the layer or no layer of the body.
    pub const PORT_MAP_INVALID: &str = "port-map-invalid";
    /// Bodies nested deeper than the reader accepts.
    pub const BODY_TOO_DEEP: &str = "body-too-deep";
}

/// A model read from IR, with everything found wrong in it.
#[derive(Debug, Clone)]
pub struct ReadOutcome {
    pub graph: Graph,
    /// Every diagnostic, in the order found (layers, then edges, then rt_info).
    pub diagnostics: Vec<Diagnostic>,
}

/// Input that cannot be read at all.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A file could not be read (or the XML is not UTF-8).
    #[error("cannot read `{}`: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The XML is not well-formed.
    #[error("XML is not well-formed at line {line}, column {column}: {message}")]
    Xml {
        line: u32,
        column: u32,
        message: String,
    },
    /// The root element is not `<net>`.
    #[error("the root element at line {line}, column {column} is `<{found}>`, not `<net>`")]
    NotNet {
        found: String,
        line: u32,
        column: u32,
    },
}

/// A graph that cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// A file could not be written.
    #[error("cannot write `{}`: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// An edge refers to a port index its node does not have.
    #[error("an edge uses {kind} {index} of layer `{layer}`, which does not exist")]
    EdgePort {
        layer: String,
        index: usize,
        kind: &'static str,
    },
    /// A port map or back edge names a body node that does not exist.
    #[error("a port map of layer `{layer}` names body node {index}, which does not exist")]
    BodyNode { layer: String, index: usize },
    /// An attribute name that is not an XML name.
    #[error("`{0}` is not a valid XML attribute name")]
    InvalidName(String),
    /// Text with a control character XML 1.0 cannot carry.
    #[error("{text:?} contains the character U+{code:04X}, which XML cannot carry")]
    InvalidText { text: String, code: u32 },
    /// The weights do not fit in 64-bit offsets.
    #[error("the weights are too large")]
    TooLarge,
}

/// Reads `xml_path` and its weights: `weights_path`, or by default the xml
/// path with the extension `.bin`. The weights are memory-mapped. A missing
/// weights file is not an error: each Const that needs weights then gets a
/// `const-no-weights` diagnostic.
pub fn read_model(xml_path: &Path, weights_path: Option<&Path>) -> Result<ReadOutcome, ReadError> {
    let xml = std::fs::read_to_string(xml_path).map_err(|source| ReadError::Io {
        path: xml_path.to_owned(),
        source,
    })?;
    read_model_with_weights_of(&xml, xml_path, weights_path)
}

/// Reads the IR text `xml`, already read from `xml_path`, with its weights
/// found as [`read_model`] finds them: for callers that keep the text (to
/// quote it in diagnostics) and must not read the file twice.
pub fn read_model_with_weights_of(
    xml: &str,
    xml_path: &Path,
    weights_path: Option<&Path>,
) -> Result<ReadOutcome, ReadError> {
    let bin_path = weights_path.map_or_else(|| xml_path.with_extension("bin"), Path::to_owned);
    let weights = open_weights(xml_path, weights_path)?;
    reader::read(
        xml,
        weights,
        Some(bin_path.display().to_string()),
        None,
        reader::Split::Auto,
    )
}

/// Reads the IR text `xml`, mapped from `xml_path` (see [`MappedText`]),
/// with its weights found as [`read_model`] finds them; the text's pages are
/// given back to the system as the reading passes them, so a large model's
/// text is never resident whole.
pub fn read_model_mapped(
    xml: &MappedText,
    xml_path: &Path,
    weights_path: Option<&Path>,
) -> Result<ReadOutcome, ReadError> {
    let bin_path = weights_path.map_or_else(|| xml_path.with_extension("bin"), Path::to_owned);
    let weights = open_weights(xml_path, weights_path)?;
    reader::read(
        xml.as_str(),
        weights,
        Some(bin_path.display().to_string()),
        Some(xml),
        reader::Split::Auto,
    )
}

/// Maps the weights: `weights_path`, or by default the xml path with the
/// extension `.bin`; `None` when that file does not exist.
fn open_weights(
    xml_path: &Path,
    weights_path: Option<&Path>,
) -> Result<Option<TensorBytes>, ReadError> {
    let bin_path = weights_path.map_or_else(|| xml_path.with_extension("bin"), Path::to_owned);
    match std::fs::File::open(&bin_path) {
        Ok(file) => TensorBytes::map_file(&file)
            .map(Some)
            .map_err(|source| ReadError::Io {
                path: bin_path,
                source,
            }),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(ReadError::Io {
            path: bin_path,
            source,
        }),
    }
}

/// Reads IR text with `weights` as the content of its `.bin` (`None`: there is
/// no weights file).
pub fn read_model_from_str(
    xml: &str,
    weights: Option<TensorBytes>,
) -> Result<ReadOutcome, ReadError> {
    reader::read(xml, weights, None, None, reader::Split::Auto)
}

/// The outcome of reading `xml` with our scanner (`None` when it gave up)
/// and with quick-xml's tokenizer, each as `{:#?}` text, and that of
/// [`read_model_from_str`]: for the differential fuzz target, which checks
/// that the scanner gives quick-xml's outcome whenever it does not give up,
/// and that a read always gives quick-xml's. Not part of the API.
#[doc(hidden)]
pub fn read_both_ways(xml: &str, weights: Option<TensorBytes>) -> (Option<String>, String, String) {
    let read_with = |tokenizer| {
        reader::read_with(
            xml,
            weights.clone(),
            None,
            None,
            reader::Split::Never,
            tokenizer,
        )
    };
    let own = match read_with(xml::Tokenizer::Own) {
        Err(error) if xml::is_gave_up(&error) => None,
        outcome => Some(format!("{outcome:#?}")),
    };
    let quick = format!("{:#?}", read_with(xml::Tokenizer::QuickXml));
    let read = format!("{:#?}", read_model_from_str(xml, weights.clone()));
    (own, quick, read)
}

/// Renders `graph` as IR: the XML text and the `.bin` bytes it refers to.
pub fn write_model(graph: &Graph) -> Result<(String, Vec<u8>), WriteError> {
    writer::write(graph)
}

/// Writes `graph` to `xml_path` and its weights to `bin_path`.
pub fn save_model(graph: &Graph, xml_path: &Path, bin_path: &Path) -> Result<(), WriteError> {
    let (xml, bin) = write_model(graph)?;
    std::fs::write(xml_path, xml).map_err(|source| WriteError::Io {
        path: xml_path.to_owned(),
        source,
    })?;
    std::fs::write(bin_path, bin).map_err(|source| WriteError::Io {
        path: bin_path.to_owned(),
        source,
    })
}

/// A small deterministic random number generator (xorshift) for the
/// crate's randomized tests.
#[cfg(test)]
pub(crate) struct Random(pub(crate) u64);

#[cfg(test)]
impl Random {
    /// The next number below `bound` (0 for a bound of 0).
    pub(crate) fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound.max(1) as u64) as usize
    }
}
