//! The IR text mapped from its file, its pages given back as they are read.
//!
//! A model's XML is as large as the model (300 MB for a million layers).
//! Read into a `String`, all of it stays resident (and its pages are zeroed
//! and copied first); mapped, a page is resident only while it is being
//! read: [`MappedText::open`] checks the UTF-8 and the reader parses the
//! text each in one pass, telling the kernel after each stretch that the
//! pages behind it are not needed. A diagnostic that quotes a line later
//! faults its page back in from the file.

use std::fs::File;
use std::io;
use std::path::Path;

use memmap2::{Mmap, UncheckedAdvice};

/// How much text is read between two calls giving pages back.
pub(crate) const RELEASE_STRETCH: usize = 4 << 20;

/// UTF-8 text mapped read-only from a file (read into memory when it is
/// not a regular file: a pipe cannot be mapped).
#[derive(Debug)]
pub struct MappedText {
    text: Backing,
}

#[derive(Debug)]
enum Backing {
    /// A regular file that is not empty (an empty mapping is not portable).
    Mapped(Mmap),
    Read(String),
}

impl MappedText {
    /// Maps `path` and checks that it is UTF-8 (an
    /// [`io::ErrorKind::InvalidData`] error otherwise, as
    /// [`std::fs::read_to_string`] gives), giving each stretch back after
    /// checking it.
    pub fn open(path: &Path) -> io::Result<MappedText> {
        let file = File::open(path)?;
        let metadata = file.metadata()?;
        if !metadata.is_file() || metadata.len() == 0 {
            let text = std::fs::read_to_string(path)?;
            return Ok(MappedText {
                text: Backing::Read(text),
            });
        }
        // SAFETY: the mapping is read-only. Like every tool that maps its
        // inputs (the weights are mapped too), we rely on the file not being
        // changed or truncated while it is mapped.
        let map = unsafe { Mmap::map(&file)? };
        let text = MappedText {
            text: Backing::Mapped(map),
        };
        let bytes = text.bytes();
        let mut checked = 0;
        while checked < bytes.len() {
            let end = stretch_end(bytes, checked, RELEASE_STRETCH);
            // ASCII (most IR files are) is UTF-8, and checked faster.
            let stretch = &bytes[checked..end];
            if !stretch.is_ascii() && std::str::from_utf8(stretch).is_err() {
                // `read_to_string`'s error, word for word.
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "stream did not contain valid UTF-8",
                ));
            }
            // A text of one stretch is not given back: the reader comes to
            // all of it next, and would fault its pages in again.
            if bytes.len() > RELEASE_STRETCH {
                text.release(checked, end);
            }
            checked = end;
        }
        Ok(text)
    }

    fn bytes(&self) -> &[u8] {
        match &self.text {
            Backing::Mapped(map) => map,
            Backing::Read(text) => text.as_bytes(),
        }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        match &self.text {
            // SAFETY: `open` checked that the bytes are UTF-8, and the
            // mapping is read-only (a page given back is read again from the
            // same file).
            Backing::Mapped(map) => unsafe { std::str::from_utf8_unchecked(map) },
            Backing::Read(text) => text,
        }
    }

    /// Tells the kernel that the whole pages within `from..to` are not
    /// needed soon: they leave the process's resident memory, and are read
    /// again from the file if they are used again.
    pub(crate) fn release(&self, from: usize, to: usize) {
        let Backing::Mapped(map) = &self.text else {
            return;
        };
        const PAGE: usize = 4096;
        let start = from.div_ceil(PAGE) * PAGE;
        let end = to.min(map.len()) / PAGE * PAGE;
        if start < end {
            // SAFETY: the mapping is a shared read-only mapping of a file:
            // after MADV_DONTNEED its pages are repopulated from the file on
            // the next access, so every reference into it still reads the
            // same bytes. Failure only means the pages stay resident.
            let _ = unsafe {
                map.unchecked_advise_range(UncheckedAdvice::DontNeed, start, end - start)
            };
        }
    }
}

/// Where a stretch of about `stretch` bytes from `from` ends: on a character
/// boundary, backing off over continuation bytes, or going on over them when
/// the stretch is shorter than its first character (then it is never empty).
fn stretch_end(bytes: &[u8], from: usize, stretch: usize) -> usize {
    let continues = |at: usize| at < bytes.len() && (bytes[at] & 0xC0) == 0x80;
    let far = from.saturating_add(stretch).min(bytes.len());
    let mut end = far;
    while end > from && continues(end) {
        end -= 1;
    }
    if end > from {
        return end;
    }
    end = far;
    while continues(end) {
        end += 1;
    }
    end
}

/// Gives back the pages of a [`MappedText`] behind the reader, a stretch at
/// a time.
pub(crate) struct Releaser<'t> {
    text: Option<&'t MappedText>,
    /// Where the reader's offsets start in the text (after a byte-order mark).
    base: usize,
    released: usize,
}

impl<'t> Releaser<'t> {
    /// For `text`, whose reader counts offsets from byte `base`; `None`
    /// releases nothing (text in memory).
    pub fn new(text: Option<&'t MappedText>, base: usize) -> Self {
        Self::starting_at(text, base, 0)
    }

    /// For a reader of `text` that starts at its byte `from` (counted
    /// from `base`).
    pub fn starting_at(text: Option<&'t MappedText>, base: usize, from: usize) -> Self {
        Releaser {
            text,
            base,
            released: from.saturating_add(base),
        }
    }

    /// The reader has reached its byte `at`: give back what lies behind it
    /// once a stretch has been read.
    pub fn reached(&mut self, at: usize) {
        let at = at.saturating_add(self.base);
        if let Some(text) = self.text {
            if at >= self.released + RELEASE_STRETCH {
                text.release(self.released, at);
                self.released = at;
            }
        }
    }

    /// Gives back every page (the reading is done; what is still used, the
    /// edges' layer ids, is read again from the file), unless the text is
    /// one stretch, which [`MappedText::open`] keeps too: at most 4 MiB of
    /// clean file pages stay, and the `madvise` that unmapped a 1,000-layer
    /// model's 300 KB cost 15-25 µs of its 1.3 ms process.
    pub fn all(&mut self) {
        if let Some(text) = self.text {
            if text.bytes().len() > RELEASE_STRETCH {
                text.release(0, usize::MAX);
                self.released = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mapped_text_reads_the_same_after_its_pages_are_given_back() {
        let dir = std::env::temp_dir().join(format!("ir-xml-mapped-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.xml");
        // Two stretches and a bit; the first ends inside a three-byte `…`.
        let text = "…".repeat(RELEASE_STRETCH * 2 / 3 + 5) + "\nend";
        std::fs::write(&path, &text).unwrap();
        let mapped = MappedText::open(&path).unwrap();
        assert_eq!(mapped.as_str(), text);
        mapped.release(0, usize::MAX);
        assert_eq!(mapped.as_str(), text);

        std::fs::write(&path, b"").unwrap();
        assert_eq!(MappedText::open(&path).unwrap().as_str(), "");
        std::fs::write(&path, b"ab\xffcd").unwrap();
        let error = MappedText::open(&path).unwrap_err();
        let expected = std::fs::read_to_string(&path).unwrap_err();
        assert_eq!(error.kind(), expected.kind());
        assert_eq!(error.to_string(), expected.to_string());
        // Not a regular file: read, not mapped, with `read_to_string`'s error.
        let error = MappedText::open(&dir).unwrap_err();
        assert_eq!(
            error.kind(),
            std::fs::read_to_string(&dir).unwrap_err().kind()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_stretch_ends_on_a_character_boundary() {
        let text = "a…é".as_bytes();
        assert_eq!(stretch_end(text, 0, 2), 1);
        // Shorter than `…`: the whole character.
        assert_eq!(stretch_end(text, 1, 2), 4);
        assert_eq!(stretch_end(text, 1, 4), 4);
        assert_eq!(stretch_end(text, 1, 5), 6);
        assert_eq!(stretch_end(text, 4, 9), 6);
        // Only continuation bytes: all of them (their check fails).
        assert_eq!(stretch_end(&[0x80, 0x80, 0x80], 0, 2), 3);
    }
}
