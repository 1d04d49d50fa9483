//! Reading and writing numpy `.npy` files (format versions 1, 2 and 3).
//!
//! Supported dtypes: `|b1` (boolean), `i1`/`i2`/`i4`/`i8`, `u1`/`u2`/`u4`/`u8`,
//! `f2`/`f4`/`f8`, little-endian (`<`), byte-order-free (`|`) or native (`=`,
//! on little-endian hosts). Big-endian data and Fortran order are clear
//! errors, as is any other dtype. Every size is checked: the header is at
//! most 1 MiB, the element count and byte size are computed with checked
//! arithmetic and capped by [`crate::MAX_TENSOR_BYTES`], and the data must be
//! exactly as long as the header says (truncated or trailing bytes are errors).
//!
//! **Types numpy has no dtype for** (OpenVINO's bf16, f8e4m3, f8e5m2,
//! f8e8m0, f4e2m1, nf4, i4, u4, u2, u1) travel as their raw codes, the
//! convention `ml_dtypes` arrays follow when `np.save` writes them (as `|V1`
//! or `|V2`):
//!
//! - [`read_npy`] reads `|V1` (and `<f1`, `ml_dtypes.float8_e5m2`'s) as u8
//!   and `|V2` as u16 (their bytes), and
//!   [`from_raw_codes`] turns a u8 tensor into any of the 8-bit and sub-byte types
//!   (one element a byte, the code in the low bits: an `ml_dtypes` `int4`
//!   array viewed as `uint8`), and a u16 tensor into bf16 (its bits). The
//!   executor does so for a Parameter of such a type: the `.npy` keeps the
//!   tensor's shape, which two 4-bit codes a byte could not.
//! - [`write_npy`] writes these types as `|u1`, one code a byte, with the
//!   tensor's shape (`np.load(f).view(ml_dtypes.float8_e4m3fn)` gives the
//!   values); in memory, sub-byte types stay packed as OpenVINO packs them.
//!   bf16 is the exception: it is written as `<f4` (every bf16 value is
//!   exactly an f32).

use std::io::Write;
use std::path::Path;

use ir::{ElementType, TensorBytes};

use crate::error::ExecError;
use crate::tensor::{byte_size, Tensor};

const MAGIC: &[u8] = b"\x93NUMPY";
const MAX_HEADER: usize = 1 << 20;

fn err(message: impl Into<String>) -> ExecError {
    ExecError::Npy(message.into())
}

/// Reads a `.npy` file.
pub fn read_npy(path: &Path) -> Result<Tensor, ExecError> {
    let bytes = std::fs::read(path)?;
    parse_npy(TensorBytes::from_vec(bytes)).map_err(|e| {
        err(format!(
            "{}: {}",
            path.display(),
            e.to_string().trim_start_matches("npy: ")
        ))
    })
}

/// Parses the bytes of a `.npy` file. The tensor's data is a view of `bytes`.
pub fn parse_npy(bytes: TensorBytes) -> Result<Tensor, ExecError> {
    let b = bytes.as_slice();
    if b.len() < 10 || &b[..6] != MAGIC {
        return Err(err("not an .npy file (bad magic)"));
    }
    let major = b[6];
    let (header_len, start) = match major {
        1 => (usize::from(u16::from_le_bytes([b[8], b[9]])), 10usize),
        2 | 3 => {
            if b.len() < 12 {
                return Err(err("truncated header"));
            }
            let len = u32::from_le_bytes([b[8], b[9], b[10], b[11]]);
            (usize::try_from(len).unwrap_or(usize::MAX), 12usize)
        }
        v => return Err(err(format!("unsupported format version {v}"))),
    };
    if header_len > MAX_HEADER {
        return Err(err(format!("header of {header_len} bytes is too long")));
    }
    let end = start + header_len;
    let header = b.get(start..end).ok_or_else(|| err("truncated header"))?;
    let header = std::str::from_utf8(header).map_err(|_| err("the header is not text"))?;
    let (descr, fortran, shape) = parse_header(header)?;
    if fortran {
        return Err(err(
            "Fortran-order arrays are not supported (save with C order: np.ascontiguousarray)",
        ));
    }
    if let Some(width) = unicode_width(&descr)? {
        return unicode_strings(&b[end..], shape, width);
    }
    let element_type = dtype(&descr)?;
    let size = byte_size(element_type, &shape)?;
    let available = b.len() - end;
    if available != size {
        return Err(err(format!(
            "{} {shape:?} needs {size} data bytes, the file has {available}",
            descr
        )));
    }
    let data = bytes
        .slice(end as u64, size as u64)
        .ok_or_else(|| err("truncated data"))?;
    Tensor::new(element_type, shape, data)
}

/// The character count of numpy's fixed-width unicode dtype (`<U5`: five
/// UTF-32 code units an element), `None` for any other dtype.
fn unicode_width(descr: &str) -> Result<Option<usize>, ExecError> {
    let Some((order, digits)) = descr.split_once('U') else {
        return Ok(None);
    };
    if !matches!(order, "<" | "|" | "=")
        || digits.is_empty()
        || !digits.bytes().all(|c| c.is_ascii_digit())
    {
        return Ok(None);
    }
    if order == "=" && !cfg!(target_endian = "little") {
        return Err(err(format!("dtype `{descr}` is not little-endian")));
    }
    digits
        .parse()
        .map(Some)
        .map_err(|_| err(format!("dtype `{descr}` is too wide")))
}

/// A string tensor from numpy's unicode data: `width` UTF-32 code units an
/// element, right-padded with NULs (which numpy strips too).
fn unicode_strings(data: &[u8], shape: Vec<usize>, width: usize) -> Result<Tensor, ExecError> {
    let count = crate::tensor::element_count(&shape)?;
    let element_bytes = width
        .checked_mul(4)
        .ok_or_else(|| err("the dtype is too wide"))?;
    let size = count
        .checked_mul(element_bytes)
        .ok_or_else(|| err("the strings are too large"))?;
    if data.len() != size {
        return Err(err(format!(
            "<U{width} {shape:?} needs {size} data bytes, the file has {}",
            data.len()
        )));
    }
    let mut strings = Vec::with_capacity(count);
    for element in data.chunks_exact(element_bytes.max(1)).take(count) {
        let mut text = String::new();
        for unit in element.chunks_exact(4) {
            let code = u32::from_le_bytes([unit[0], unit[1], unit[2], unit[3]]);
            let c = char::from_u32(code)
                .ok_or_else(|| err(format!("{code:#x} is not a unicode character")))?;
            text.push(c);
        }
        strings.push(text.trim_end_matches('\0').to_owned());
    }
    // `<U0` elements hold no bytes: every string is empty.
    strings.resize(count, String::new());
    Tensor::from_strings(shape, &strings)
}

fn dtype(descr: &str) -> Result<ElementType, ExecError> {
    let native_le = cfg!(target_endian = "little");
    let (order, code) = descr.split_at(descr.len().min(1));
    let ok_order = match order {
        "<" | "|" => true,
        "=" => native_le,
        _ => false,
    };
    let t = match code {
        "b1" => Some(ElementType::Boolean),
        "i1" => Some(ElementType::I8),
        "i2" => Some(ElementType::I16),
        "i4" => Some(ElementType::I32),
        "i8" => Some(ElementType::I64),
        "u1" => Some(ElementType::U8),
        "u2" => Some(ElementType::U16),
        "u4" => Some(ElementType::U32),
        "u8" => Some(ElementType::U64),
        "f2" => Some(ElementType::F16),
        "f4" => Some(ElementType::F32),
        "f8" => Some(ElementType::F64),
        // Raw bytes (what `np.save` writes for an `ml_dtypes` array).
        "V1" => Some(ElementType::U8),
        // `ml_dtypes.float8_e5m2` saves as `<f1`: no numpy float is one byte.
        "f1" => Some(ElementType::U8),
        "V2" => Some(ElementType::U16),
        _ => None,
    };
    match (ok_order, t) {
        (true, Some(t)) => Ok(t),
        (false, Some(_)) => Err(err(format!(
            "dtype `{descr}` is not little-endian (convert with arr.astype(arr.dtype.newbyteorder('<')))"
        ))),
        _ => Err(err(format!("unsupported dtype `{descr}`"))),
    }
}

fn descr_of(element_type: ElementType) -> Result<&'static str, ExecError> {
    Ok(match element_type {
        ElementType::Boolean => "|b1",
        ElementType::I8 => "|i1",
        ElementType::I16 => "<i2",
        ElementType::I32 => "<i4",
        ElementType::I64 => "<i8",
        ElementType::U8 => "|u1",
        ElementType::U16 => "<u2",
        ElementType::U32 => "<u4",
        ElementType::U64 => "<u8",
        ElementType::F16 => "<f2",
        ElementType::F32 | ElementType::BF16 => "<f4",
        ElementType::F64 => "<f8",
        // Their codes, one a byte (see the module's doc).
        t if crate::packed::is_decodable(t) => "|u1",
        t => return Err(err(format!("element type {t} has no numpy dtype"))),
    })
}

/// The bytes of a `.npy` file holding `tensor` (bf16 is written as `<f4`).
pub fn to_npy_bytes(tensor: &Tensor) -> Result<Vec<u8>, ExecError> {
    // Strings are written as numpy's fixed-width unicode.
    let unicode = if tensor.element_type == ElementType::String {
        let texts = tensor
            .strings()?
            .into_iter()
            .map(|s| {
                std::str::from_utf8(s)
                    .map(|t| t.chars().collect::<Vec<char>>())
                    .map_err(|_| err("a string is not UTF-8, which numpy cannot hold"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let width = texts.iter().map(Vec::len).max().unwrap_or(0).max(1);
        let mut data = Vec::with_capacity(texts.len() * width * 4);
        for text in &texts {
            for k in 0..width {
                let code = text.get(k).map_or(0, |&c| u32::from(c));
                data.extend_from_slice(&code.to_le_bytes());
            }
        }
        Some((format!("<U{width}"), data))
    } else {
        None
    };
    let descr = match &unicode {
        Some((descr, _)) => descr.as_str(),
        None => descr_of(tensor.element_type)?,
    };
    let shape = match tensor.shape.as_slice() {
        [] => "()".to_owned(),
        [d] => format!("({d},)"),
        dims => format!(
            "({})",
            dims.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    // Pad so that the data starts at a multiple of 64 bytes.
    let (version, prefix) = if header.len() + 11 < 65536 {
        (1u8, 10)
    } else {
        (2u8, 12)
    };
    let total = (prefix + header.len() + 1).div_ceil(64) * 64;
    while prefix + header.len() + 1 < total {
        header.push(' ');
    }
    header.push('\n');
    // Storage types: one code a byte.
    let codes = if crate::packed::is_decodable(tensor.element_type) {
        Some(crate::packed::codes(tensor)?)
    } else {
        None
    };
    let data_len = if let Some(codes) = &codes {
        codes.len()
    } else if let Some((_, data)) = &unicode {
        data.len()
    } else if tensor.element_type == ElementType::BF16 {
        tensor
            .len()
            .checked_mul(4)
            .ok_or_else(|| err("too large"))?
    } else {
        tensor.bytes().len()
    };
    let mut out = Vec::with_capacity(prefix + header.len() + data_len);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[version, 0]);
    if version == 1 {
        out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    } else {
        let len = u32::try_from(header.len()).map_err(|_| err("header too long"))?;
        out.extend_from_slice(&len.to_le_bytes());
    }
    out.extend_from_slice(header.as_bytes());
    if let Some(codes) = &codes {
        out.extend_from_slice(codes);
    } else if let Some((_, data)) = &unicode {
        out.extend_from_slice(data);
    } else if tensor.element_type == ElementType::BF16 {
        for c in tensor.bytes().chunks_exact(2) {
            // bf16 is the high half of an f32.
            out.extend_from_slice(&[0, 0, c[0], c[1]]);
        }
    } else {
        out.extend_from_slice(tensor.bytes());
    }
    Ok(out)
}

/// Writes `tensor` to `path` as `.npy` (bf16 is written as `<f4`).
pub fn write_npy(path: &Path, tensor: &Tensor) -> Result<(), ExecError> {
    let bytes = to_npy_bytes(tensor)?;
    let mut file = std::fs::File::create(path)?;
    file.write_all(&bytes)?;
    Ok(())
}

/// `tensor` read as the raw codes of element type `to`, when it is their
/// container (see the module's doc): u8 for the 8-bit and sub-byte types
/// (one code a byte, which must fit the type's bits), u16 for bf16. `None`
/// when `to` is not such a type or `tensor` not its container.
pub fn from_raw_codes(tensor: &Tensor, to: ElementType) -> Option<Result<Tensor, ExecError>> {
    match (tensor.element_type, to) {
        (ElementType::U8, t) if crate::packed::is_decodable(t) => Some(
            crate::packed::from_codes(t, tensor.shape.clone(), tensor.bytes())
                .map_err(|e| err(format!("{t} codes, one a byte: {e}"))),
        ),
        (ElementType::U16, ElementType::BF16) => Some(Tensor::new(
            ElementType::BF16,
            tensor.shape.clone(),
            tensor.data.clone(),
        )),
        _ => None,
    }
}

/// The header dict: `{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }`.
fn parse_header(text: &str) -> Result<(String, bool, Vec<usize>), ExecError> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    let (mut descr, mut fortran, mut shape) = (None, None, None);
    p.expect(b'{')?;
    loop {
        p.ws();
        if p.eat(b'}') {
            break;
        }
        let key = p.string()?;
        p.ws();
        p.expect(b':')?;
        p.ws();
        match key.as_str() {
            "descr" => descr = Some(p.string()?),
            "fortran_order" => fortran = Some(p.boolean()?),
            "shape" => shape = Some(p.tuple()?),
            other => return Err(err(format!("unexpected header key `{other}`"))),
        }
        p.ws();
        if !p.eat(b',') {
            p.ws();
            p.expect(b'}')?;
            break;
        }
    }
    p.ws();
    if p.i != p.s.len() {
        return Err(err("text after the header dict"));
    }
    Ok((
        descr.ok_or_else(|| err("the header has no `descr`"))?,
        fortran.ok_or_else(|| err("the header has no `fortran_order`"))?,
        shape.ok_or_else(|| err("the header has no `shape`"))?,
    ))
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.s.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8) -> Result<(), ExecError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(err(format!(
                "malformed header: expected `{}` at byte {}",
                c as char, self.i
            )))
        }
    }
    fn string(&mut self) -> Result<String, ExecError> {
        let quote = match self.s.get(self.i) {
            Some(&q @ (b'\'' | b'"')) => q,
            _ => {
                return Err(err(format!(
                    "malformed header: expected a string at byte {}",
                    self.i
                )))
            }
        };
        self.i += 1;
        let start = self.i;
        while self.s.get(self.i).is_some_and(|&c| c != quote) {
            self.i += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).map_err(|_| err("bad string"))?;
        self.expect(quote)?;
        Ok(text.to_owned())
    }
    fn boolean(&mut self) -> Result<bool, ExecError> {
        let rest = &self.s[self.i..];
        if rest.starts_with(b"True") {
            self.i += 4;
            Ok(true)
        } else if rest.starts_with(b"False") {
            self.i += 5;
            Ok(false)
        } else {
            Err(err(
                "malformed header: `fortran_order` is not True or False",
            ))
        }
    }
    fn tuple(&mut self) -> Result<Vec<usize>, ExecError> {
        self.expect(b'(')?;
        let mut dims = Vec::new();
        loop {
            self.ws();
            if self.eat(b')') {
                break;
            }
            let start = self.i;
            while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
                self.i += 1;
            }
            // Python 2 longs (`3L`).
            let digits = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
            self.eat(b'L');
            let d: usize = digits
                .parse()
                .map_err(|_| err(format!("malformed header: bad dim at byte {start}")))?;
            if dims.len() >= 64 {
                return Err(err("more than 64 dims"));
            }
            dims.push(d);
            self.ws();
            if !self.eat(b',') {
                self.ws();
                self.expect(b')')?;
                break;
            }
        }
        Ok(dims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(header: &str, data: &[u8]) -> TensorBytes {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&[1, 0]);
        out.extend_from_slice(&(header.len() as u16).to_le_bytes());
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(data);
        TensorBytes::from_vec(out)
    }

    #[test]
    fn round_trips_every_type() {
        let tensors = vec![
            Tensor::from_vec(
                vec![2, 3],
                vec![1.0f32, -2.5, f32::NAN, f32::INFINITY, 0.0, 7.0],
            )
            .unwrap(),
            Tensor::from_vec(vec![3], vec![1i64, -2, i64::MAX]).unwrap(),
            Tensor::from_vec(vec![], vec![true]).unwrap(),
            Tensor::from_vec(vec![0, 4], Vec::<u16>::new()).unwrap(),
            Tensor::from_vec(vec![2], vec![half::f16::from_f32(1.5), half::f16::MAX]).unwrap(),
            Tensor::from_vec(vec![1], vec![-3i8]).unwrap(),
            Tensor::from_vec(vec![2], vec![u64::MAX, 0]).unwrap(),
            Tensor::from_vec(vec![1, 1, 1], vec![2.0f64]).unwrap(),
        ];
        for t in tensors {
            let bytes = to_npy_bytes(&t).unwrap();
            let header_end = 10 + usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
            assert_eq!(header_end % 64, 0);
            let back = parse_npy(TensorBytes::from_vec(bytes)).unwrap();
            assert_eq!(back.element_type, t.element_type);
            assert_eq!(back.shape, t.shape);
            assert_eq!(back.bytes(), t.bytes());
        }
    }

    #[test]
    fn strings_are_numpy_unicode() {
        let t = Tensor::from_strings(vec![2, 2], &["ab", "", "héllo", "z"]).unwrap();
        let bytes = to_npy_bytes(&t).unwrap();
        let header = String::from_utf8_lossy(&bytes[10..74]).into_owned();
        assert!(header.contains("'descr': '<U5'"), "{header}");
        let back = parse_npy(TensorBytes::from_vec(bytes)).unwrap();
        assert_eq!(back.shape, [2, 2]);
        assert_eq!(back.strings().unwrap(), t.strings().unwrap());
        // Not UTF-8: numpy cannot hold it.
        let raw = Tensor::from_strings(vec![1], &[&[0xffu8][..]]).unwrap();
        assert!(to_npy_bytes(&raw).is_err());
    }

    #[test]
    fn bf16_is_written_as_f32() {
        let t = Tensor::from_vec(
            vec![2],
            vec![half::bf16::from_f32(1.5), half::bf16::from_f32(-2.0)],
        )
        .unwrap();
        let back = parse_npy(TensorBytes::from_vec(to_npy_bytes(&t).unwrap())).unwrap();
        assert_eq!(back.to_vec::<f32>().unwrap(), vec![1.5, -2.0]);
    }

    #[test]
    fn storage_types_travel_as_codes() {
        // f8e4m3 1.0, -2.0, NaN; written one code a byte with the shape.
        let f8 = Tensor::from_bytes(ElementType::F8E4M3, vec![3], vec![0x38, 0xC0, 0x7F]).unwrap();
        let bytes = to_npy_bytes(&f8).unwrap();
        assert!(String::from_utf8_lossy(&bytes[10..74]).contains("'descr': '|u1'"));
        let back = parse_npy(TensorBytes::from_vec(bytes)).unwrap();
        assert_eq!(
            (back.element_type, back.bytes()),
            (ElementType::U8, f8.bytes())
        );
        let again = from_raw_codes(&back, ElementType::F8E4M3).unwrap().unwrap();
        assert_eq!(again.bytes(), f8.bytes());
        // i4 [2, 3]: packed two a byte in memory, low nibble first; one a
        // byte in the file.
        let codes = vec![1u8, 15, 8, 7, 0, 2];
        let raw = Tensor::from_bytes(ElementType::U8, vec![2, 3], codes.clone()).unwrap();
        let i4 = from_raw_codes(&raw, ElementType::I4).unwrap().unwrap();
        assert_eq!(i4.bytes(), &[0xF1, 0x78, 0x20]);
        let written = parse_npy(TensorBytes::from_vec(to_npy_bytes(&i4).unwrap())).unwrap();
        assert_eq!(
            (written.shape.as_slice(), written.bytes()),
            (&[2, 3][..], &codes[..])
        );
        // u1: eight a byte, from the most significant bit.
        let bits =
            Tensor::from_bytes(ElementType::U8, vec![9], vec![1, 0, 0, 0, 0, 0, 0, 1, 1]).unwrap();
        assert_eq!(
            from_raw_codes(&bits, ElementType::U1)
                .unwrap()
                .unwrap()
                .bytes(),
            &[0x81, 0x80]
        );
        // A code past the type's bits is an error; other pairs are not raw.
        let wide = Tensor::from_bytes(ElementType::U8, vec![1], vec![16]).unwrap();
        let e = from_raw_codes(&wide, ElementType::U4)
            .unwrap()
            .unwrap_err()
            .to_string();
        assert!(e.contains("0x10 is not a 4-bit u4 code"), "{e}");
        assert!(from_raw_codes(&wide, ElementType::F32).is_none());
        assert!(from_raw_codes(&wide, ElementType::BF16).is_none());
        // bf16 from its bits (`|V2`, as np.save writes ml_dtypes.bfloat16).
        let v2 = parse_npy(file(
            "{'descr': '<V2', 'fortran_order': False, 'shape': (2,), }",
            &[0x80, 0x3F, 0x00, 0xC0],
        ))
        .unwrap();
        let b = from_raw_codes(&v2, ElementType::BF16).unwrap().unwrap();
        assert_eq!(
            b.to_vec::<half::bf16>().unwrap(),
            [half::bf16::from_f32(1.0), half::bf16::from_f32(-2.0)]
        );
    }

    #[test]
    fn reads_numpy_headers() {
        let t = parse_npy(file(
            "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }          \n",
            &[1, 0, 0, 0, 2, 0, 0, 0],
        ))
        .unwrap();
        assert_eq!(t.to_vec::<i32>().unwrap(), vec![1, 2]);
        let s = parse_npy(file(
            "{\"descr\":\"<f8\",\"fortran_order\":False,\"shape\":()}\n",
            &2.0f64.to_le_bytes(),
        ))
        .unwrap();
        assert_eq!(s.shape, Vec::<usize>::new());
    }

    #[test]
    fn hostile_headers_are_errors() {
        let cases: Vec<(TensorBytes, &str)> = vec![
            (
                file("{'descr': '<f4', 'fortran_order': False, 'shape': (18446744073709551615, 18446744073709551615), }", &[]),
                "too large",
            ),
            (
                file("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,), }", &[]),
                "bad dim",
            ),
            (
                file("{'descr': '<f4', 'fortran_order': False, 'shape': (2000000000,), }", &[0; 8]),
                "too large",
            ),
            (
                file("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", &[0; 8]),
                "needs 12 data bytes",
            ),
            (
                file("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", &[0; 8]),
                "needs 4 data bytes",
            ),
            (
                file("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }", &[0; 4]),
                "Fortran",
            ),
            (
                file("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", &[0; 4]),
                "little-endian",
            ),
            (
                file("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", &[0; 8]),
                "unsupported dtype",
            ),
            (file("{'descr': '<f4', 'shape': (1,)}", &[0; 4]), "fortran_order"),
            (file("{'descr': '<f4', 'fortran_order': False, 'shape': (1,", &[]), "malformed"),
            (TensorBytes::from_vec(b"\x93NUMPY\x01\x00\xff\xff{".to_vec()), "truncated"),
            (TensorBytes::from_vec(b"\x93NUMPY\x02\x00\xff\xff\xff\xff".to_vec()), "too long"),
            (TensorBytes::from_vec(b"PK\x03\x04".to_vec()), "magic"),
            (TensorBytes::from_vec(Vec::new()), "magic"),
        ];
        for (bytes, expected) in cases {
            let e = parse_npy(bytes).unwrap_err().to_string();
            assert!(e.contains(expected), "{e} does not mention {expected}");
        }
    }
}
