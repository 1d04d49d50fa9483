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
//!
//! OpenVINO's opsets are not quite cumulative: opset2 dropped opset1's
//! Reverse, RNNCell, ShuffleChannels and Xor (opset3 brought two back), and
//! OpenVINO 2026.4's opset17 holds only its 7 ops. Its IR reader refuses a
//! layer whose opset does not contain the op, so the registry checks the
//! membership too ([`crate::openvino_opsets`], generated from OpenVINO's own
//! tables) and answers [`Resolution::NotInOpset`].

use ir::Node;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::openvino_opsets::OPSET_MASKS;
use crate::tensor::TensorInfo;

/// What a rule is given: the node (attributes, op payload), the op version the
/// layer resolved to, and the input tensors in port order.
pub struct OpCall<'a> {
    pub node: &'a Node,
    pub version: u32,
    pub inputs: &'a [&'a TensorInfo],
}

impl OpCall<'_> {
    /// Checks the number of inputs is within `min..=max`.
    #[inline]
    pub fn expect_inputs(&self, min: usize, max: usize) -> Result<(), ShapeError> {
        let actual = self.inputs.len();
        if (min..=max).contains(&actual) {
            return Ok(());
        }
        Err(input_count_error(min, max, actual))
    }
}

/// The error of [`OpCall::expect_inputs`], out of line: every layer asks, few fail.
#[cold]
#[inline(never)]
fn input_count_error(min: usize, max: usize, actual: usize) -> ShapeError {
    let expected = if min == max {
        min.to_string()
    } else {
        format!("{min} to {max}")
    };
    ShapeError::InputCount { expected, actual }
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
    /// The op exists, but OpenVINO's opset `opset` does not contain it;
    /// `in_opsets` has bit `n` set for each `opset<n>` that does.
    NotInOpset {
        opset: u32,
        in_opsets: u32,
    },
}

/// The opsets of a mask (bit `n` for `opset<n>`) as runs: `opset1`,
/// `opset3 to opset16`, joined by commas.
pub fn opset_runs(mask: u32) -> String {
    let mut runs = Vec::new();
    let mut n = 0;
    while n < u32::BITS {
        if mask & (1 << n) == 0 {
            n += 1;
            continue;
        }
        let first = n;
        while n + 1 < u32::BITS && mask & (1 << (n + 1)) != 0 {
            n += 1;
        }
        runs.push(if first == n {
            format!("opset{n}")
        } else {
            format!("opset{first} to opset{n}")
        });
        n += 1;
    }
    runs.join(", ")
}

/// The ops known to shape inference ([`crate::ops::ALL`]), each with the
/// OpenVINO opsets that contain it ([`OPSET_MASKS`]; the project's ops have
/// none).
///
/// Nothing is built at run time: a name is looked up by binary search in a
/// table of the names' first eight bytes made at compile time ([`PREFIXES`])
/// and each op's mask is found at compile time too ([`MASKS`]). A hash map
/// of both tables took 0.07 ms to build in a fresh process (a quarter of a
/// small model's whole check), and a search of the tables themselves, by
/// string comparisons through a pointer per op, 0.3 µs a layer (issue 18).
pub struct Registry {
    /// The tables are [`crate::ops::ALL`] and its compile-time indexes: a
    /// registry holds nothing of its own (only [`Registry::standard`]
    /// makes one).
    _tables: (),
}

/// How many ops the registry knows.
const OPS: usize = crate::ops::ALL.len();

/// The first eight bytes of `name` as a big-endian number, zero-padded:
/// two names' keys compare as the names' first eight bytes do (a name has
/// no NUL byte, so a shorter name that is a prefix of a longer sorts first,
/// as in byte order).
const fn prefix_key(name: &str) -> u64 {
    let bytes = name.as_bytes();
    let mut key = 0u64;
    let mut i = 0;
    while i < 8 {
        key <<= 8;
        if i < bytes.len() {
            key |= bytes[i] as u64;
        }
        i += 1;
    }
    key
}

/// `a` against `b` in byte order, as `-1`, `0` or `1` (usable in constants).
const fn compare(a: &str, b: &str) -> i8 {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return if a[i] < b[i] { -1 } else { 1 };
        }
        i += 1;
    }
    if a.len() == b.len() {
        0
    } else if a.len() < b.len() {
        -1
    } else {
        1
    }
}

/// [`prefix_key`] of each op's type name, in [`crate::ops::ALL`]'s order.
/// That table is in byte order (checked here, when the crate is compiled),
/// so these keys are sorted too.
static PREFIXES: [u64; OPS] = {
    let all = crate::ops::ALL;
    let mut keys = [0u64; OPS];
    let mut i = 0;
    while i < OPS {
        assert!(
            i == 0 || compare(all[i - 1].type_name, all[i].type_name) < 0,
            "ops::ALL must be sorted by type name in byte order, without duplicates"
        );
        keys[i] = prefix_key(all[i].type_name);
        i += 1;
    }
    keys
};

/// Each op's [`OPSET_MASKS`] entry, in [`crate::ops::ALL`]'s order (`None`
/// for an op OpenVINO does not have), by one merge of the two sorted
/// tables when the crate is compiled.
static MASKS: [Option<u32>; OPS] = {
    let all = crate::ops::ALL;
    let mut masks = [None; OPS];
    let (mut i, mut j) = (0, 0);
    while j < OPENVINO_OPS {
        assert!(
            j == 0 || compare(OPSET_MASKS[j - 1].0, OPSET_MASKS[j].0) < 0,
            "OPSET_MASKS must be sorted by name in byte order, without duplicates"
        );
        j += 1;
    }
    j = 0;
    while i < OPS && j < OPENVINO_OPS {
        match compare(all[i].type_name, OPSET_MASKS[j].0) {
            0 => {
                masks[i] = Some(OPSET_MASKS[j].1);
                i += 1;
                j += 1;
            }
            -1 => i += 1,
            _ => j += 1,
        }
    }
    masks
};

/// How many ops [`OPSET_MASKS`] lists.
const OPENVINO_OPS: usize = OPSET_MASKS.len();

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
        Registry { _tables: () }
    }

    /// The standard registry, for callers that want a `&'static` one.
    pub fn shared() -> &'static Registry {
        static SHARED: Registry = Registry { _tables: () };
        &SHARED
    }

    /// Every op, sorted by type name.
    pub fn ops(&self) -> Vec<&'static OpDef> {
        crate::ops::ALL.to_vec()
    }

    /// The position in [`crate::ops::ALL`] of the op named `type_name`.
    fn position(type_name: &str) -> Option<usize> {
        let key = prefix_key(type_name);
        let first = PREFIXES.partition_point(|&k| k < key);
        // The few ops whose names share their first eight bytes
        // (`Convolution`, `ConvolutionBackpropData`) are side by side.
        (first..OPS)
            .take_while(|&i| PREFIXES[i] == key)
            .find(|&i| crate::ops::ALL[i].type_name == type_name)
    }

    /// Resolves a layer's `type` and `version` attributes.
    pub fn resolve(&self, type_name: &str, version: &str) -> Resolution<'_> {
        let Some(at) = Registry::position(ir::ir_type_name(type_name)) else {
            return Resolution::UnknownType;
        };
        let def = crate::ops::ALL[at];
        let Some((family, opset)) = OpsetFamily::parse(version) else {
            return Resolution::UnknownVersion;
        };
        if let (OpsetFamily::OpenVino, Some(in_opsets)) = (family, MASKS[at]) {
            let contained = opset < u32::BITS && in_opsets & (1 << opset) != 0;
            if !contained {
                return Resolution::NotInOpset { opset, in_opsets };
            }
        }
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
        assert!(matches!(
            registry.resolve("Parameter", "opset0"),
            Resolution::NotInOpset { opset: 0, .. }
        ));
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
    fn an_opset_that_lacks_the_op_does_not_resolve() {
        let registry = Registry::standard();
        // opset2 dropped Reverse, opset3 brought ShuffleChannels back.
        assert!(matches!(
            registry.resolve("Reverse", "opset1"),
            Resolution::Known(_, 1)
        ));
        assert!(matches!(
            registry.resolve("Reverse", "opset2"),
            Resolution::NotInOpset {
                opset: 2,
                in_opsets: 0b10
            }
        ));
        assert!(matches!(
            registry.resolve("ShuffleChannels", "opset2"),
            Resolution::NotInOpset { opset: 2, .. }
        ));
        assert!(matches!(
            registry.resolve("ShuffleChannels", "opset3"),
            Resolution::Known(_, 1)
        ));
        // Past the newest opset, and opset17 of OpenVINO 2026.4 without Relu.
        assert!(matches!(
            registry.resolve("Relu", "opset17"),
            Resolution::NotInOpset { opset: 17, .. }
        ));
        assert!(matches!(
            registry.resolve("Relu", "opset40"),
            Resolution::NotInOpset { opset: 40, .. }
        ));
        assert!(matches!(
            registry.resolve("ErfInv", "opset17"),
            Resolution::Known(_, 17)
        ));
    }

    #[test]
    fn every_op_and_its_mask_are_found_by_name() {
        for (at, def) in crate::ops::ALL.iter().enumerate() {
            assert_eq!(
                Registry::position(def.type_name),
                Some(at),
                "{}",
                def.type_name
            );
            let listed = OPSET_MASKS.iter().find(|(name, _)| *name == def.type_name);
            assert_eq!(
                MASKS[at],
                listed.map(|(_, mask)| *mask),
                "{}",
                def.type_name
            );
        }
        // Absent names, including prefixes and extensions of present ones
        // and names that share a present one's first eight bytes.
        for name in [
            "",
            "A",
            "Ad",
            "Add2",
            "Abs ",
            "abs",
            "Convolutio",
            "ConvolutionX",
            "Zzz",
        ] {
            assert_eq!(Registry::position(name), None, "{name}");
        }
        assert_eq!(prefix_key("Add"), u64::from_be_bytes(*b"Add\0\0\0\0\0"));
        assert!(compare("Add", "Addx") < 0 && compare("B", "Ab") > 0 && compare("Ab", "Ab") == 0);
    }

    #[test]
    fn opset_masks_read_as_runs() {
        assert_eq!(opset_runs(0b10), "opset1");
        assert_eq!(opset_runs(0x1fff0), "opset4 to opset16");
        assert_eq!(opset_runs(0b1_1111_1010), "opset1, opset3 to opset8");
        assert_eq!(opset_runs(1 << 31), "opset31");
        assert_eq!(opset_runs(0), "");
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
