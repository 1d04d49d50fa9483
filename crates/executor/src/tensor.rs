//! Tensors: an element type, a static shape and a shared little-endian,
//! row-major byte buffer.
//!
//! The bytes are an [`ir::TensorBytes`]: a Const's tensor is a view of the
//! memory-mapped `.bin` (no copy), and a Reshape/Squeeze/Unsqueeze output is
//! the same view with another shape. Views need not be aligned, so elements
//! are read and written with `from_le_bytes`/`to_le_bytes`.

use std::cell::Cell;

use half::{bf16, f16};
use ir::{ElementType, TensorBytes};

use crate::error::ExecError;

/// The largest tensor the executor creates or accepts, in bytes (4 GiB).
pub const MAX_TENSOR_BYTES: u64 = 1 << 32;

thread_local! {
    /// The per-tensor limit [`byte_size`] enforces: [`MAX_TENSOR_BYTES`], or
    /// a run's smaller limit while it runs. A thread-local rather than an
    /// argument so that every kernel's existing size check (and the
    /// data-dependent sizes only a kernel knows) honours the run's limit.
    static TENSOR_LIMIT: Cell<u64> = const { Cell::new(MAX_TENSOR_BYTES) };
}

/// The per-tensor byte limit in force on this thread.
pub(crate) fn tensor_limit() -> u64 {
    TENSOR_LIMIT.with(Cell::get)
}

/// Lowers the per-tensor limit on this thread until the guard is dropped.
pub(crate) fn limit_tensors(bytes: u64) -> LimitGuard {
    let previous = TENSOR_LIMIT.with(|l| l.replace(bytes.min(MAX_TENSOR_BYTES)));
    LimitGuard { previous }
}

/// Restores the previous per-tensor limit when dropped.
pub(crate) struct LimitGuard {
    previous: u64,
}

impl Drop for LimitGuard {
    fn drop(&mut self) {
        TENSOR_LIMIT.with(|l| l.set(self.previous));
    }
}

/// Checks that a kernel's scratch space of `count` items of `width` bytes
/// stays within the per-tensor limit, before it is allocated.
pub(crate) fn check_scratch(count: usize, width: usize, what: &str) -> Result<(), ExecError> {
    let limit = tensor_limit();
    match count.checked_mul(width) {
        Some(b) if b as u64 <= limit => Ok(()),
        _ => Err(ExecError::TooLarge(format!(
            "{what}: {count} items of {width} bytes exceed {limit} bytes"
        ))),
    }
}

/// A tensor of static shape.
#[derive(Clone, Debug)]
pub struct Tensor {
    pub element_type: ElementType,
    pub shape: Vec<usize>,
    pub data: TensorBytes,
}

/// The number of elements of `shape`, with checked arithmetic.
pub fn element_count(shape: &[usize]) -> Result<usize, ExecError> {
    shape.iter().try_fold(1usize, |acc, &d| {
        acc.checked_mul(d)
            .ok_or_else(|| ExecError::TooLarge(format!("the element count of {shape:?} overflows")))
    })
}

/// The byte width of one element of a type the executor computes with.
pub fn element_width(element_type: ElementType) -> Result<usize, ExecError> {
    if !element_type.is_computable() {
        return Err(ExecError::InvalidTensor(format!(
            "element type {element_type} is not supported by the executor"
        )));
    }
    // Computable types are whole bytes.
    Ok(element_type.bit_width().map_or(1, |b| b as usize / 8))
}

/// The byte size of a tensor of `element_type` and `shape`, checked against
/// overflow and [`MAX_TENSOR_BYTES`] (or, during a run, the run's smaller
/// per-tensor limit).
pub fn byte_size(element_type: ElementType, shape: &[usize]) -> Result<usize, ExecError> {
    let count = element_count(shape)?;
    let limit = tensor_limit();
    // Compressed weights (u4, nf4, f8…) are held packed, for Convert to decode.
    let bytes = if crate::packed::is_decodable(element_type) {
        element_type
            .byte_size(count as u64)
            .and_then(|b| usize::try_from(b).ok())
    } else {
        count.checked_mul(element_width(element_type)?)
    };
    let bytes = bytes.filter(|&b| b as u64 <= limit).ok_or_else(|| {
        ExecError::TooLarge(format!(
            "{element_type} {shape:?} needs more than {limit} bytes"
        ))
    })?;
    Ok(bytes)
}

impl Tensor {
    /// A tensor over `data`, which must hold exactly the bytes of
    /// `element_type` × `shape`.
    ///
    /// A string tensor's bytes are OpenVINO's packed layout, as its weights
    /// file stores a string Const ([`Tensor::from_strings`]).
    pub fn new(
        element_type: ElementType,
        shape: Vec<usize>,
        data: TensorBytes,
    ) -> Result<Tensor, ExecError> {
        if element_type == ElementType::String {
            let count = element_count(&shape)?;
            string_offsets(data.as_slice(), count)?;
            return Ok(Tensor {
                element_type,
                shape,
                data,
            });
        }
        let size = byte_size(element_type, &shape)?;
        if data.len() != size {
            return Err(ExecError::InvalidTensor(format!(
                "{element_type} {shape:?} needs {size} bytes, got {}",
                data.len()
            )));
        }
        Ok(Tensor {
            element_type,
            shape,
            data,
        })
    }

    /// A tensor owning `bytes` (a `Vec<u8>`, or within the crate a pooled
    /// buffer's first bytes).
    pub fn from_bytes(
        element_type: ElementType,
        shape: Vec<usize>,
        bytes: impl Into<TensorBytes>,
    ) -> Result<Tensor, ExecError> {
        Tensor::new(element_type, shape, bytes.into())
    }

    /// A tensor of `T`'s element type holding `values` in row-major order.
    pub fn from_vec<T: Element>(shape: Vec<usize>, values: Vec<T>) -> Result<Tensor, ExecError> {
        let count = element_count(&shape)?;
        if values.len() != count {
            return Err(ExecError::InvalidTensor(format!(
                "shape {shape:?} has {count} elements, got {} values",
                values.len()
            )));
        }
        let size = byte_size(T::TYPE, &shape)?;
        let mut bytes = vec![0u8; size];
        for (chunk, v) in bytes.chunks_exact_mut(T::SIZE).zip(values) {
            v.write(chunk);
        }
        Tensor::from_bytes(T::TYPE, shape, bytes)
    }

    /// A tensor of `T`'s element type and `shape` whose elements `fill`
    /// computes in place, in the output's own buffer: no second buffer and
    /// no copy. The buffer may be a freed intermediate's ([`crate::pool`]),
    /// so `fill` must write every element. (The allocator aligns every
    /// buffer for `T`; an unaligned one would be filled through a copy.)
    pub(crate) fn computed<T, E>(
        shape: Vec<usize>,
        fill: impl FnOnce(&mut [T]) -> Result<(), E>,
    ) -> Result<Tensor, E>
    where
        T: Element + bytemuck::Pod,
        E: From<ExecError>,
    {
        let size = byte_size(T::TYPE, &shape)?;
        let mut bytes = crate::pool::take(size);
        match bytemuck::try_cast_slice_mut::<u8, T>(&mut bytes[..]) {
            Ok(values) if cfg!(target_endian = "little") => fill(values)?,
            _ => {
                let mut values = vec![T::zeroed(); size / T::SIZE];
                fill(&mut values)?;
                for (chunk, v) in bytes.chunks_exact_mut(T::SIZE).zip(values) {
                    v.write(chunk);
                }
            }
        }
        Ok(Tensor::from_bytes(T::TYPE, shape, bytes)?)
    }

    /// A scalar.
    pub fn scalar<T: Element>(value: T) -> Tensor {
        let mut bytes = vec![0u8; T::SIZE];
        value.write(&mut bytes);
        Tensor {
            element_type: T::TYPE,
            shape: Vec::new(),
            data: TensorBytes::from_vec(bytes),
        }
    }

    /// The elements as `T`, which must be the tensor's element type.
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>, ExecError> {
        if T::TYPE != self.element_type {
            return Err(ExecError::InvalidTensor(format!(
                "the tensor is {}, not {}",
                self.element_type,
                T::TYPE
            )));
        }
        Ok(self
            .data
            .as_slice()
            .chunks_exact(T::SIZE)
            .map(T::read)
            .collect())
    }

    /// The element at row-major position `index` as `T`.
    pub fn get<T: Element>(&self, index: usize) -> Option<T> {
        if T::TYPE != self.element_type {
            return None;
        }
        let start = index.checked_mul(T::SIZE)?;
        self.data
            .as_slice()
            .get(start..start + T::SIZE)
            .map(T::read)
    }

    /// A string tensor of `shape` holding `strings` (bytes, UTF-8 as
    /// OpenVINO's strings) in row-major order, in OpenVINO's packed layout:
    /// the element count (i32), the `count + 1` offsets of the strings'
    /// starts and the end of the last (i32), then the bytes back to back.
    pub fn from_strings<S: AsRef<[u8]>>(
        shape: Vec<usize>,
        strings: &[S],
    ) -> Result<Tensor, ExecError> {
        let count = element_count(&shape)?;
        if strings.len() != count {
            return Err(ExecError::InvalidTensor(format!(
                "shape {shape:?} has {count} elements, got {} strings",
                strings.len()
            )));
        }
        let too_large = || ExecError::TooLarge("the strings exceed 2 GiB".into());
        let total = strings.iter().map(|s| s.as_ref().len()).sum::<usize>();
        let header = count.checked_add(2).and_then(|n| n.checked_mul(4));
        let size = header
            .and_then(|h| h.checked_add(total))
            .ok_or_else(too_large)?;
        if size as u64 > tensor_limit() || i32::try_from(total).is_err() {
            return Err(too_large());
        }
        let mut bytes = Vec::with_capacity(size);
        let count_i32 = i32::try_from(count).map_err(|_| too_large())?;
        bytes.extend_from_slice(&count_i32.to_le_bytes());
        let mut offset = 0i32;
        bytes.extend_from_slice(&offset.to_le_bytes());
        for s in strings {
            // Fits: the total fits in an i32.
            offset += s.as_ref().len() as i32;
            bytes.extend_from_slice(&offset.to_le_bytes());
        }
        for s in strings {
            bytes.extend_from_slice(s.as_ref());
        }
        Tensor::new(ElementType::String, shape, TensorBytes::from_vec(bytes))
    }

    /// The bytes of each string of a string tensor, in row-major order.
    pub fn strings(&self) -> Result<Vec<&[u8]>, ExecError> {
        if self.element_type != ElementType::String {
            return Err(ExecError::InvalidTensor(format!(
                "the tensor is {}, not string",
                self.element_type
            )));
        }
        let bytes = self.data.as_slice();
        let (offsets, chars) = string_offsets(bytes, self.len())?;
        Ok(offsets.windows(2).map(|w| &chars[w[0]..w[1]]).collect())
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        // Checked when the tensor was made.
        self.shape.iter().product()
    }

    /// Whether the tensor has no element.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes of the elements.
    pub fn bytes(&self) -> &[u8] {
        self.data.as_slice()
    }

    /// The same bytes with another shape of the same element count (no copy).
    pub fn reshaped(&self, shape: Vec<usize>) -> Result<Tensor, ExecError> {
        Tensor::new(self.element_type, shape, self.data.clone())
    }

    /// The elements of an integer tensor as `i64` (u64 values above
    /// `i64::MAX` are an error).
    pub fn to_i64s(&self) -> Result<Vec<i64>, ExecError> {
        let bad = || {
            ExecError::InvalidTensor(format!(
                "expected an integer tensor, got {}",
                self.element_type
            ))
        };
        macro_rules! conv {
            ($t:ty) => {
                self.to_vec::<$t>()?
                    .into_iter()
                    .map(|v| i64::try_from(v).map_err(|_| bad()))
                    .collect()
            };
        }
        match self.element_type {
            ElementType::I8 => conv!(i8),
            ElementType::I16 => conv!(i16),
            ElementType::I32 => conv!(i32),
            ElementType::I64 => conv!(i64),
            ElementType::U8 => conv!(u8),
            ElementType::U16 => conv!(u16),
            ElementType::U32 => conv!(u32),
            ElementType::U64 => conv!(u64),
            _ => Err(bad()),
        }
    }

    /// Whether each element is nonzero (true), for any computable type.
    /// NaN is nonzero, as in numpy.
    pub fn nonzero_mask(&self) -> Result<Vec<bool>, ExecError> {
        let b = self.bytes();
        let w = element_width(self.element_type)?;
        Ok(match self.element_type {
            ElementType::F32 => b.chunks_exact(4).map(|c| f32::read(c) != 0.0).collect(),
            ElementType::F64 => b.chunks_exact(8).map(|c| f64::read(c) != 0.0).collect(),
            ElementType::F16 => b
                .chunks_exact(2)
                .map(|c| f16::read(c).to_f32() != 0.0)
                .collect(),
            ElementType::BF16 => b
                .chunks_exact(2)
                .map(|c| bf16::read(c).to_f32() != 0.0)
                .collect(),
            // Integers and booleans: any nonzero byte.
            _ => b
                .chunks_exact(w)
                .map(|c| c.iter().any(|&x| x != 0))
                .collect(),
        })
    }
}

/// The offsets (`count + 1`, into the returned bytes) and the bytes of a
/// string tensor of `count` elements in OpenVINO's packed layout (see
/// [`Tensor::from_strings`]); an error names what is inconsistent.
fn string_offsets(bytes: &[u8], count: usize) -> Result<(Vec<usize>, &[u8]), ExecError> {
    let bad = |what: String| ExecError::InvalidTensor(format!("a string tensor: {what}"));
    let word = |k: usize| -> Option<i32> {
        let start = k.checked_mul(4)?;
        Some(i32::from_le_bytes(
            bytes.get(start..start + 4)?.try_into().ok()?,
        ))
    };
    let stored = word(0).ok_or_else(|| bad("no element count".into()))?;
    if usize::try_from(stored).ok() != Some(count) {
        return Err(bad(format!(
            "{stored} elements stored, the shape has {count}"
        )));
    }
    let header = count
        .checked_add(2)
        .and_then(|n| n.checked_mul(4))
        .filter(|&h| h <= bytes.len())
        .ok_or_else(|| bad(format!("{} bytes cannot hold {count} offsets", bytes.len())))?;
    let chars = &bytes[header..];
    let mut offsets = Vec::with_capacity(count + 1);
    for k in 0..=count {
        let offset = word(k + 1).and_then(|o| usize::try_from(o).ok());
        match offset {
            Some(o) if o <= chars.len() && offsets.last().is_none_or(|&p| p <= o) => {
                offsets.push(o)
            }
            _ => {
                return Err(bad(format!(
                    "offset {k} is negative, decreasing or past the {} bytes of characters",
                    chars.len()
                )))
            }
        }
    }
    Ok((offsets, chars))
}

/// A Rust type holding one element of an [`ElementType`].
pub trait Element: Copy + Send + Sync + PartialEq + std::fmt::Debug + 'static {
    const TYPE: ElementType;
    const SIZE: usize;
    /// Reads one element from exactly `SIZE` little-endian bytes.
    fn read(bytes: &[u8]) -> Self;
    /// Writes one element into exactly `SIZE` bytes.
    fn write(self, out: &mut [u8]);
    /// The elements of `bytes` in place, when this type can be viewed so
    /// (aligned, little-endian, every bit pattern valid); `None` otherwise,
    /// and the caller reads element by element.
    fn view(bytes: &[u8]) -> Option<&[Self]>;
    /// The same as [`Element::view`], mutable.
    fn view_mut(bytes: &mut [u8]) -> Option<&mut [Self]>;
}

macro_rules! element {
    ($t:ty, $et:ident, $view:ident, $view_mut:ident) => {
        impl Element for $t {
            const TYPE: ElementType = ElementType::$et;
            const SIZE: usize = std::mem::size_of::<$t>();
            fn read(bytes: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(bytes);
                <$t>::from_le_bytes(a)
            }
            fn write(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_le_bytes());
            }
            fn view(bytes: &[u8]) -> Option<&[Self]> {
                $view(bytes)
            }
            fn view_mut(bytes: &mut [u8]) -> Option<&mut [Self]> {
                $view_mut(bytes)
            }
        }
    };
    ($t:ty, $et:ident) => {
        element!($t, $et, view_pod, view_pod_mut);
    };
}

fn view_pod<T: bytemuck::Pod>(bytes: &[u8]) -> Option<&[T]> {
    if cfg!(target_endian = "little") {
        bytemuck::try_cast_slice(bytes).ok()
    } else {
        None
    }
}

fn view_pod_mut<T: bytemuck::Pod>(bytes: &mut [u8]) -> Option<&mut [T]> {
    if cfg!(target_endian = "little") {
        bytemuck::try_cast_slice_mut(bytes).ok()
    } else {
        None
    }
}

/// No view: read and written element by element.
fn no_view<T>(_: &[u8]) -> Option<&[T]> {
    None
}

fn no_view_mut<T>(_: &mut [u8]) -> Option<&mut [T]> {
    None
}

element!(f32, F32);
element!(f64, F64);
element!(f16, F16, no_view, no_view_mut);
element!(bf16, BF16, no_view, no_view_mut);
element!(i8, I8);
element!(i16, I16);
element!(i32, I32);
element!(i64, I64);
element!(u8, U8);
element!(u16, U16);
element!(u32, U32);
element!(u64, U64);

impl Element for bool {
    const TYPE: ElementType = ElementType::Boolean;
    const SIZE: usize = 1;
    fn read(bytes: &[u8]) -> Self {
        bytes[0] != 0
    }
    fn write(self, out: &mut [u8]) {
        out[0] = u8::from(self);
    }
    fn view(_: &[u8]) -> Option<&[Self]> {
        // Not every byte is a valid bool.
        None
    }
    fn view_mut(_: &mut [u8]) -> Option<&mut [Self]> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_checked() {
        assert!(byte_size(ElementType::F32, &[usize::MAX, 2]).is_err());
        assert!(byte_size(ElementType::F32, &[1 << 31, 4]).is_err());
        assert_eq!(byte_size(ElementType::F16, &[2, 3]).unwrap(), 12);
        assert_eq!(byte_size(ElementType::F32, &[2, 0]).unwrap(), 0);
        // Compressed weights are held packed; types nothing decodes are refused.
        assert_eq!(byte_size(ElementType::I4, &[3]).unwrap(), 2);
        assert_eq!(byte_size(ElementType::U1, &[9]).unwrap(), 2);
        assert!(byte_size(ElementType::U3, &[2]).is_err());
        assert!(byte_size(ElementType::String, &[2]).is_err());
        // OpenVINO's layout: count, offsets, characters.
        let t = Tensor::from_strings(vec![3], &["ab", "", "xyz"]).unwrap();
        assert_eq!(&t.bytes()[..8], &[3, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(t.bytes().len(), 4 * 5 + 5);
        assert_eq!(t.strings().unwrap(), vec![&b"ab"[..], b"", b"xyz"]);
        assert!(Tensor::new(ElementType::String, vec![2], t.data.clone()).is_err());
        let mut broken = t.bytes().to_vec();
        broken[8] = 9; // the second string would start past its end
        assert!(Tensor::from_bytes(ElementType::String, vec![3], broken).is_err());
        assert!(Tensor::from_bytes(ElementType::F32, vec![2], vec![0; 7]).is_err());
    }

    #[test]
    fn typed_round_trip_and_views() {
        let t = Tensor::from_vec(vec![2, 2], vec![1.5f32, -2.0, 3.0, f32::NAN]).unwrap();
        let v = t.to_vec::<f32>().unwrap();
        assert_eq!(&v[..3], &[1.5, -2.0, 3.0]);
        assert!(v[3].is_nan());
        let r = t.reshaped(vec![4]).unwrap();
        assert!(r.data.same_view(&t.data));
        assert!(t.reshaped(vec![3]).is_err());
        assert!(t.to_vec::<i32>().is_err());
        let c = Tensor::computed(vec![2, 2], |v: &mut [f32]| {
            v.copy_from_slice(&[1.5, -2.0, 3.0, f32::NAN]);
            Ok::<(), ExecError>(())
        })
        .unwrap();
        assert_eq!(c.bytes(), t.bytes());
        assert!(
            Tensor::computed(vec![1], |_: &mut [f64]| Err(ExecError::TooLarge(
                "refused".into()
            )))
            .is_err()
        );
        let b = Tensor::from_vec(vec![3], vec![true, false, true]).unwrap();
        assert_eq!(b.nonzero_mask().unwrap(), vec![true, false, true]);
    }
}
