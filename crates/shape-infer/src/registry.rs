//! The op registry: which ops exist, in which versions, and their rules.
//!
//! A layer's `version` attribute names an *opset* (`opset13`), and OpenVINO
//! writes any opset that contains the op, so `Reshape` in `opset13` is
//! Reshape-1. Each [`OpDef`] lists the op's versions with the first opset that
//! carries each; the op version of a layer is the newest one whose opset is not
//! newer than the layer's.
//!
//! Opsets come in two families ([`OpsetFamily`]): OpenVINO's own (`opsetN`)
//! and this project's (`ovirN`, ops OpenVINO does not have, such as
//! `Compress` and `Extract`; see `docs/project-opset.md`). A version only
//! matches versions of the same family.

use std::collections::HashMap;

use ir::Node;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::tensor::TensorInfo;

/// What a rule is given: the node (attributes, op payload), the op version the
/// layer resolved to, and the input tensors in port order.
pub struct OpCall<'a> {
    pub node: &'a Node,
    pub version: u32,
    pub inputs: &'a [TensorInfo],
}

impl OpCall<'_> {
    /// Checks the number of inputs is within `min..=max`.
    pub fn expect_inputs(&self, min: usize, max: usize) -> Result<(), ShapeError> {
        let actual = self.inputs.len();
        if (min..=max).contains(&actual) {
            return Ok(());
        }
        let expected = if min == max {
            min.to_string()
        } else {
            format!("{min} to {max}")
        };
        Err(ShapeError::InputCount { expected, actual })
    }
}

/// An op's shape rule: the output tensors of one node.
pub type InferFn = fn(&mut InferContext, &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError>;

/// Which opsets a layer's `version` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OpsetFamily {
    /// OpenVINO's opsets, written `opset1`, `opset13`…
    OpenVino,
    /// This project's own opsets, written `ovir1`…, for ops OpenVINO lacks.
    Project,
}

impl OpsetFamily {
    /// The prefix of the family's opset names (`opset`, `ovir`).
    pub const fn prefix(self) -> &'static str {
        match self {
            OpsetFamily::OpenVino => "opset",
            OpsetFamily::Project => "ovir",
        }
    }

    /// Splits an opset name (`opset13`, `ovir1`) into its family and number.
    pub fn parse(version: &str) -> Option<(OpsetFamily, u32)> {
        [OpsetFamily::OpenVino, OpsetFamily::Project]
            .into_iter()
            .find_map(|family| {
                let digits = version.strip_prefix(family.prefix())?;
                // Digits only: `u32::from_str` would also take `+1`.
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                Some((family, digits.parse().ok()?))
            })
    }
}

/// One version of an op and the first opset (of `family`) that contains it.
#[derive(Debug, Clone, Copy)]
pub struct OpVersion {
    pub version: u32,
    pub since_opset: u32,
    pub family: OpsetFamily,
}

impl OpVersion {
    /// A version of an OpenVINO op, first in `opset<since_opset>`.
    pub const fn openvino(version: u32, since_opset: u32) -> Self {
        OpVersion {
            version,
            since_opset,
            family: OpsetFamily::OpenVino,
        }
    }

    /// A version of one of this project's ops, first in `ovir<since_opset>`.
    pub const fn project(version: u32, since_opset: u32) -> Self {
        OpVersion {
            version,
            since_opset,
            family: OpsetFamily::Project,
        }
    }

    /// The name of the first opset carrying this version (`opset3`, `ovir1`).
    pub fn opset_name(&self) -> String {
        format!("{}{}", self.family.prefix(), self.since_opset)
    }
}

/// What `docs/ops.md` says of an op. It lives beside the rule so the two
/// change together; a test regenerates the page and compares.
#[derive(Debug, Clone, Copy)]
pub struct OpDoc {
    /// One sentence: what the op computes.
    pub summary: &'static str,
    /// The attributes the rule reads, with their meaning (`-` if none).
    pub attributes: &'static str,
    /// What stays symbolic, and how.
    pub symbolic: &'static str,
    /// What the rule reports as an error.
    pub errors: &'static str,
}

/// An op the registry knows.
pub struct OpDef {
    /// The type name as the XML writes it (`Const`, `ReLU`).
    pub type_name: &'static str,
    /// The versions, oldest first.
    pub versions: &'static [OpVersion],
    pub infer: InferFn,
    pub doc: OpDoc,
}

/// Why a layer's type and version do not resolve to a known op.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution<'r> {
    Known(&'r OpDef, u32),
    UnknownType,
    UnknownVersion,
}

/// The ops known to shape inference.
pub struct Registry {
    ops: HashMap<&'static str, &'static OpDef>,
}

impl std::fmt::Debug for OpDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "OpDef({})", self.type_name)
    }
}

impl PartialEq for OpDef {
    fn eq(&self, other: &Self) -> bool {
        self.type_name == other.type_name
    }
}

impl Eq for OpDef {}

impl Registry {
    /// The registry of every op this crate implements.
    pub fn standard() -> Self {
        Registry {
            ops: crate::ops::ALL
                .iter()
                .map(|def| (def.type_name, *def))
                .collect(),
        }
    }

    /// Every op, sorted by type name.
    pub fn ops(&self) -> Vec<&'static OpDef> {
        let mut ops: Vec<_> = self.ops.values().copied().collect();
        ops.sort_by_key(|def| def.type_name);
        ops
    }

    /// Resolves a layer's `type` and `version` attributes.
    pub fn resolve(&self, type_name: &str, version: &str) -> Resolution<'_> {
        let Some(def) = self.ops.get(ir::ir_type_name(type_name)) else {
            return Resolution::UnknownType;
        };
        let Some((family, opset)) = OpsetFamily::parse(version) else {
            return Resolution::UnknownVersion;
        };
        def.versions
            .iter()
            .rev()
            .find(|v| v.family == family && v.since_opset <= opset)
            .map_or(Resolution::UnknownVersion, |v| {
                Resolution::Known(def, v.version)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opset_names_resolve_to_op_versions() {
        let registry = Registry::standard();
        assert!(matches!(
            registry.resolve("Parameter", "opset13"),
            Resolution::Known(def, 1) if def.type_name == "Parameter"
        ));
        assert_eq!(
            registry.resolve("Parameter", "opset0"),
            Resolution::UnknownVersion
        );
        assert_eq!(
            registry.resolve("Parameter", "custom"),
            Resolution::UnknownVersion
        );
        assert_eq!(
            registry.resolve("FancyOp", "opset1"),
            Resolution::UnknownType
        );
        // An OpenVINO op is not in the project's opsets.
        assert_eq!(
            registry.resolve("Parameter", "ovir1"),
            Resolution::UnknownVersion
        );
    }

    #[test]
    fn class_names_openvino_reads_resolve_to_the_ir_names() {
        let registry = Registry::standard();
        for (class, ir_name) in [("Softmax", "SoftMax"), ("Relu", "ReLU"), ("PRelu", "PReLU")] {
            assert!(
                matches!(registry.resolve(class, "opset8"), Resolution::Known(def, _) if def.type_name == ir_name),
                "{class}"
            );
        }
        assert_eq!(
            registry.resolve("softmax", "opset8"),
            Resolution::UnknownType
        );
    }

    #[test]
    fn project_ops_resolve_only_in_project_opsets() {
        let registry = Registry::standard();
        for op in ["Compress", "Extract"] {
            assert!(matches!(
                registry.resolve(op, "ovir1"),
                Resolution::Known(def, 1) if def.type_name == op
            ));
            assert!(matches!(
                registry.resolve(op, "ovir7"),
                Resolution::Known(_, 1)
            ));
            for version in [
                "opset1", "opset13", "ovir0", "ovir", "ovir+1", "OVIR1", "ovir1x",
            ] {
                assert_eq!(
                    registry.resolve(op, version),
                    Resolution::UnknownVersion,
                    "{op} {version}"
                );
            }
        }
    }

    #[test]
    fn opset_names_parse_by_family() {
        assert_eq!(
            OpsetFamily::parse("opset13"),
            Some((OpsetFamily::OpenVino, 13))
        );
        assert_eq!(OpsetFamily::parse("ovir2"), Some((OpsetFamily::Project, 2)));
        assert_eq!(OpsetFamily::parse("opset"), None);
        assert_eq!(OpsetFamily::parse("opset-1"), None);
        assert_eq!(OpsetFamily::parse("opset99999999999"), None);
        assert_eq!(OpVersion::project(1, 1).opset_name(), "ovir1");
        assert_eq!(OpVersion::openvino(3, 3).opset_name(), "opset3");
    }
}
