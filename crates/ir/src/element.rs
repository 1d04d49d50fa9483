//! Element types, with the spellings OpenVINO uses in IR files.

use std::fmt;

/// The element type of a tensor: every type OpenVINO's IR can name.
///
/// `Dynamic` is OpenVINO's `dynamic` (unknown) type; `Undefined` its `undefined`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(into = "&'static str")]
pub enum ElementType {
    Boolean,
    BF16,
    F16,
    F32,
    F64,
    I4,
    I8,
    I16,
    I32,
    I64,
    U1,
    U2,
    U3,
    U4,
    U6,
    U8,
    U16,
    U32,
    U64,
    NF4,
    F8E4M3,
    F8E5M2,
    F8E8M0,
    F4E2M1,
    String,
    Dynamic,
    Undefined,
}

/// Every element type with its `element_type` spelling and its port `precision` spelling.
const SPELLINGS: &[(ElementType, &str, &str)] = &[
    (ElementType::Boolean, "boolean", "BOOL"),
    (ElementType::BF16, "bf16", "BF16"),
    (ElementType::F16, "f16", "FP16"),
    (ElementType::F32, "f32", "FP32"),
    (ElementType::F64, "f64", "FP64"),
    (ElementType::I4, "i4", "I4"),
    (ElementType::I8, "i8", "I8"),
    (ElementType::I16, "i16", "I16"),
    (ElementType::I32, "i32", "I32"),
    (ElementType::I64, "i64", "I64"),
    (ElementType::U1, "u1", "BIN"),
    (ElementType::U2, "u2", "U2"),
    (ElementType::U3, "u3", "U3"),
    (ElementType::U4, "u4", "U4"),
    (ElementType::U6, "u6", "U6"),
    (ElementType::U8, "u8", "U8"),
    (ElementType::U16, "u16", "U16"),
    (ElementType::U32, "u32", "U32"),
    (ElementType::U64, "u64", "U64"),
    (ElementType::NF4, "nf4", "NF4"),
    (ElementType::F8E4M3, "f8e4m3", "F8E4M3"),
    (ElementType::F8E5M2, "f8e5m2", "F8E5M2"),
    (ElementType::F8E8M0, "f8e8m0", "F8E8M0"),
    (ElementType::F4E2M1, "f4e2m1", "F4E2M1"),
    (ElementType::String, "string", "STRING"),
    (ElementType::Dynamic, "dynamic", "DYNAMIC"),
    (ElementType::Undefined, "undefined", "UNSPECIFIED"),
];

impl ElementType {
    /// Every element type, in declaration order.
    pub fn all() -> impl Iterator<Item = ElementType> {
        SPELLINGS.iter().map(|(t, _, _)| *t)
    }

    /// Parses an `element_type` attribute value (`f32`, `boolean`, `u1`…).
    /// Also accepts the port `precision` spellings (`FP32`, `BOOL`…), case-insensitively.
    pub fn parse(text: &str) -> Option<ElementType> {
        // Every port's precision is parsed: the spellings writers use most
        // are matched as they are, before the trimmed, case-insensitive
        // search of the whole table.
        match text {
            "FP32" | "f32" => return Some(ElementType::F32),
            "FP16" | "f16" => return Some(ElementType::F16),
            "I64" | "i64" => return Some(ElementType::I64),
            "I32" | "i32" => return Some(ElementType::I32),
            _ => {}
        }
        let text = text.trim();
        SPELLINGS
            .iter()
            .find(|(_, name, precision)| {
                name.eq_ignore_ascii_case(text) || precision.eq_ignore_ascii_case(text)
            })
            .map(|(t, _, _)| *t)
            // Lazily: every port's precision is parsed, and the lowercase
            // copy is a string allocated for the rare other spellings only.
            .or_else(|| match text.to_ascii_lowercase().as_str() {
                "bool" => Some(ElementType::Boolean),
                "fp32" => Some(ElementType::F32),
                "fp16" => Some(ElementType::F16),
                "fp64" => Some(ElementType::F64),
                "bin" => Some(ElementType::U1),
                _ => None,
            })
    }

    fn spelling(self) -> &'static (ElementType, &'static str, &'static str) {
        SPELLINGS
            .iter()
            .find(|(t, _, _)| *t == self)
            .expect("every variant has a spelling")
    }

    /// The spelling of the `element_type` attribute (`f32`).
    pub fn name(self) -> &'static str {
        self.spelling().1
    }

    /// The spelling of a port's `precision` attribute (`FP32`).
    pub fn precision(self) -> &'static str {
        self.spelling().2
    }

    /// Size of one element in bits, or `None` for types without a fixed size
    /// (`string`, `dynamic`, `undefined`).
    pub fn bit_width(self) -> Option<u32> {
        use ElementType::*;
        Some(match self {
            U1 => 1,
            U2 => 2,
            U3 => 3,
            I4 | U4 | NF4 | F4E2M1 => 4,
            U6 => 6,
            Boolean | I8 | U8 | F8E4M3 | F8E5M2 | F8E8M0 => 8,
            BF16 | F16 | I16 | U16 => 16,
            F32 | I32 | U32 => 32,
            F64 | I64 | U64 => 64,
            String | Dynamic | Undefined => return None,
        })
    }

    /// Bytes needed to store `count` elements (packed sub-byte types round up),
    /// or `None` when the type has no fixed size or the count overflows.
    pub fn byte_size(self, count: u64) -> Option<u64> {
        let bits = u64::from(self.bit_width()?);
        count.checked_mul(bits).map(|b| b.div_ceil(8))
    }

    /// Whether the executor and constant folding can compute with this type.
    /// Packed sub-byte types, nf4, the f8/f4 types and strings are read and
    /// written, and shapes are inferred for them, but they cannot be computed on.
    pub fn is_computable(self) -> bool {
        use ElementType::*;
        matches!(
            self,
            Boolean | BF16 | F16 | F32 | F64 | I8 | I16 | I32 | I64 | U8 | U16 | U32 | U64
        )
    }

    /// Integer types (signed or unsigned).
    pub fn is_integral(self) -> bool {
        use ElementType::*;
        matches!(
            self,
            I4 | I8 | I16 | I32 | I64 | U1 | U2 | U3 | U4 | U6 | U8 | U16 | U32 | U64
        )
    }

    /// Floating-point types.
    pub fn is_real(self) -> bool {
        use ElementType::*;
        matches!(
            self,
            BF16 | F16 | F32 | F64 | NF4 | F8E4M3 | F8E5M2 | F8E8M0 | F4E2M1
        )
    }

    /// Whether the type is known (neither `dynamic` nor `undefined`).
    pub fn is_static(self) -> bool {
        !matches!(self, ElementType::Dynamic | ElementType::Undefined)
    }
}

impl From<ElementType> for &'static str {
    fn from(t: ElementType) -> &'static str {
        t.name()
    }
}

impl fmt::Display for ElementType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_precisions_round_trip() {
        for t in ElementType::all() {
            assert_eq!(ElementType::parse(t.name()), Some(t));
            assert_eq!(ElementType::parse(t.precision()), Some(t));
        }
        assert_eq!(ElementType::parse("FP32"), Some(ElementType::F32));
        assert_eq!(ElementType::parse("complex64"), None);
    }

    #[test]
    fn byte_sizes_pack_sub_byte_types() {
        assert_eq!(ElementType::U1.byte_size(9), Some(2));
        assert_eq!(ElementType::I4.byte_size(3), Some(2));
        assert_eq!(ElementType::F32.byte_size(3), Some(12));
        assert_eq!(ElementType::String.byte_size(3), None);
        assert_eq!(ElementType::I64.byte_size(u64::MAX), None);
    }
}
