//! Constant payloads: shared views of bytes, never a copy per use.

use std::fmt;
use std::fs::File;
use std::io;
use std::sync::Arc;

enum Backing {
    Mapped(memmap2::Mmap),
    Owned(Box<[u8]>),
}

impl Backing {
    fn bytes(&self) -> &[u8] {
        match self {
            Backing::Mapped(map) => map,
            Backing::Owned(bytes) => bytes,
        }
    }
}

/// A cheaply clonable view of immutable bytes: a range of a memory-mapped
/// weights file, or of an owned buffer. Every Const of a model shares the one
/// mapping of its `.bin`.
#[derive(Clone)]
pub struct TensorBytes {
    backing: Arc<Backing>,
    start: usize,
    len: usize,
}

impl TensorBytes {
    /// Owns `bytes`.
    pub fn from_vec(bytes: Vec<u8>) -> Self {
        let len = bytes.len();
        TensorBytes {
            backing: Arc::new(Backing::Owned(bytes.into_boxed_slice())),
            start: 0,
            len,
        }
    }

    /// Maps `file` into memory (read-only). An empty file gives an empty view,
    /// since an empty mapping is not portable.
    pub fn map_file(file: &File) -> io::Result<Self> {
        if file.metadata()?.len() == 0 {
            return Ok(Self::from_vec(Vec::new()));
        }
        // SAFETY: the mapping is read-only. Like every tool that maps its inputs,
        // we rely on the weights file not being truncated while it is mapped.
        let map = unsafe { memmap2::Mmap::map(file)? };
        let len = map.len();
        Ok(TensorBytes {
            backing: Arc::new(Backing::Mapped(map)),
            start: 0,
            len,
        })
    }

    /// A view of `len` bytes from `offset` within this view, or `None` when the
    /// range does not lie inside it.
    pub fn slice(&self, offset: u64, len: u64) -> Option<TensorBytes> {
        let offset = usize::try_from(offset).ok()?;
        let len = usize::try_from(len).ok()?;
        let end = offset.checked_add(len)?;
        (end <= self.len).then(|| TensorBytes {
            backing: Arc::clone(&self.backing),
            start: self.start + offset,
            len,
        })
    }

    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        &self.backing.bytes()[self.start..self.start + self.len]
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the view is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether both views are the same range of the same buffer (not merely equal bytes).
    pub fn same_view(&self, other: &TensorBytes) -> bool {
        Arc::ptr_eq(&self.backing, &other.backing)
            && self.start == other.start
            && self.len == other.len
    }

    /// The offset of this view within its backing buffer.
    pub fn offset_in_backing(&self) -> usize {
        self.start
    }

    /// The length of the buffer this view is a range of (a mapped file's, or
    /// an owned buffer's, which may be larger than the view: a reused buffer
    /// serving a smaller tensor).
    pub fn backing_len(&self) -> usize {
        self.backing.bytes().len()
    }

    /// The whole owned buffer this view is a range of, when no other view
    /// of it is left (for reuse: nothing else can read it any more);
    /// otherwise the view unchanged. A mapped file is never given back.
    pub fn into_backing(self) -> Result<Vec<u8>, TensorBytes> {
        if matches!(*self.backing, Backing::Mapped(_)) {
            return Err(self);
        }
        let TensorBytes {
            backing,
            start,
            len,
        } = self;
        match Arc::try_unwrap(backing) {
            Ok(Backing::Owned(bytes)) => Ok(bytes.into_vec()),
            Ok(mapped) => Err(TensorBytes {
                backing: Arc::new(mapped),
                start,
                len,
            }),
            Err(backing) => Err(TensorBytes {
                backing,
                start,
                len,
            }),
        }
    }

    /// The owned buffer back, when this is the only view of all of it (for
    /// reuse); otherwise the view unchanged.
    pub fn into_vec(self) -> Result<Vec<u8>, TensorBytes> {
        if self.start != 0 || self.len != self.backing.bytes().len() {
            return Err(self);
        }
        self.into_backing()
    }
}

impl From<Vec<u8>> for TensorBytes {
    fn from(bytes: Vec<u8>) -> Self {
        TensorBytes::from_vec(bytes)
    }
}

impl fmt::Debug for TensorBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TensorBytes({} bytes at {})", self.len, self.start)
    }
}

impl PartialEq for TensorBytes {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for TensorBytes {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_sole_whole_owned_view_gives_its_buffer_back() {
        let bytes = TensorBytes::from_vec(vec![1, 2, 3, 4]);
        let part = bytes.slice(1, 2).unwrap();
        let bytes = bytes.into_vec().unwrap_err();
        drop(part.into_vec().unwrap_err());
        assert_eq!(bytes.into_vec().unwrap(), vec![1, 2, 3, 4]);
    }

    #[test]
    fn the_sole_view_of_a_range_gives_the_whole_buffer_back() {
        let bytes = TensorBytes::from_vec(vec![1, 2, 3, 4]);
        let head = bytes.slice(0, 2).unwrap();
        assert_eq!((head.len(), head.backing_len()), (2, 4));
        // Another view still reads it: not given back.
        let head = head.into_backing().unwrap_err();
        drop(bytes);
        assert_eq!(head.into_backing().unwrap(), vec![1, 2, 3, 4]);
        let path = std::env::temp_dir().join(format!("ir-backing-{}.bin", std::process::id()));
        std::fs::write(&path, [5; 8]).unwrap();
        let mapped = TensorBytes::map_file(&File::open(&path).unwrap()).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(mapped.into_backing().unwrap_err().as_slice(), [5; 8]);
    }

    #[test]
    fn slices_share_and_check_bounds() {
        let all = TensorBytes::from_vec((0u8..10).collect());
        let part = all.slice(2, 3).unwrap();
        assert_eq!(part.as_slice(), &[2, 3, 4]);
        assert_eq!(part.slice(1, 2).unwrap().as_slice(), &[3, 4]);
        assert!(all.slice(8, 3).is_none());
        assert!(all.slice(u64::MAX, 1).is_none());
        assert!(part.same_view(&all.slice(2, 3).unwrap()));
    }
}
