//! The binary's global allocator: mimalloc, asked the way its fast paths
//! expect.
//!
//! The `mimalloc` crate's `MiMalloc` passes every request to
//! `mi_malloc_aligned`, even at the 1-16 byte alignment every mimalloc block
//! already has. mimalloc 3 serves such a request from its fast path only
//! when a free block of the size class is at hand and the size is under
//! 1 KiB; otherwise it falls to a generic path that over-allocates whenever
//! the block size is not a power of two. relu_1000 made 9,127 allocations at
//! about 70 instructions each, 7% of the whole run (docs/performance.md).
//! Here a request whose alignment mimalloc guarantees anyway goes to plain
//! `mi_malloc`, as Rust's own `System` allocator does with `malloc`.

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

use libmimalloc_sys as mi;

/// The largest alignment plain `mi_malloc` gives a block whose size is a
/// multiple of it (`MI_MAX_ALIGN_SIZE`). mimalloc's size classes are whole
/// words up to 8 words and even numbers of words above, and its pages start
/// their blocks aligned to at least this: a 48-byte block is 16-aligned,
/// though a 24-byte one is only 8-aligned (the `alignment_is_guaranteed`
/// test checks every size class).
const GUARANTEED_ALIGN: usize = 16;

/// mimalloc as the global allocator (see the module's doc).
pub struct Mimalloc;

/// Whether plain `mi_malloc(size)` returns memory aligned to `align` (a
/// power of two): every type's size is a multiple of its alignment, so this
/// holds for all but over-aligned types.
#[inline]
fn plain_fits(align: usize, size: usize) -> bool {
    align <= GUARANTEED_ALIGN && size & (align - 1) == 0
}

// SAFETY: every method forwards to mimalloc, which returns blocks of at least
// the requested size aligned as requested (plain calls only where
// `plain_fits` holds), null on failure, and frees any block with `mi_free`.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: plain FFI calls; mimalloc accepts any size.
        unsafe {
            if plain_fits(layout.align(), layout.size()) {
                mi::mi_malloc(layout.size()).cast()
            } else {
                mi::mi_malloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        unsafe {
            if plain_fits(layout.align(), layout.size()) {
                mi::mi_zalloc(layout.size()).cast()
            } else {
                mi::mi_zalloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from this allocator, so from mimalloc.
        unsafe { mi::mi_free(ptr.cast::<c_void>()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from this allocator with `layout`'s alignment;
        // mimalloc keeps the contents up to the smaller size.
        unsafe {
            if plain_fits(layout.align(), new_size) {
                mi::mi_realloc(ptr.cast(), new_size).cast()
            } else {
                mi::mi_realloc_aligned(ptr.cast(), new_size, layout.align()).cast()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every size up to 64 KiB (every small and medium size class) and a few
    /// large ones, at every alignment `plain_fits` sends to plain calls:
    /// the blocks come back aligned, through alloc, alloc_zeroed and realloc.
    #[test]
    fn alignment_is_guaranteed() {
        let sizes = (1..=64 << 10).chain([1 << 20, (1 << 20) + 8, 5 << 20]);
        for size in sizes {
            for align in [1, 2, 4, 8, 16] {
                if !plain_fits(align, size) {
                    continue;
                }
                let layout = Layout::from_size_align(size, align).expect("a valid layout");
                // SAFETY: a non-zero size; each block is freed with its layout.
                unsafe {
                    let block = Mimalloc.alloc(layout);
                    assert!(!block.is_null());
                    assert_eq!(block as usize % align, 0, "size {size} align {align}");
                    let grown = Mimalloc.realloc(block, layout, size + align);
                    assert_eq!(grown as usize % align, 0, "realloc {size} align {align}");
                    Mimalloc.dealloc(
                        grown,
                        Layout::from_size_align_unchecked(size + align, align),
                    );
                    let zeroed = Mimalloc.alloc_zeroed(layout);
                    assert_eq!(zeroed as usize % align, 0, "zeroed {size} align {align}");
                    assert!(std::slice::from_raw_parts(zeroed, size)
                        .iter()
                        .all(|&b| b == 0));
                    Mimalloc.dealloc(zeroed, layout);
                }
            }
        }
    }

    /// Larger alignments take the aligned calls and get what they ask for.
    #[test]
    fn large_alignments_are_honoured() {
        for align in [32, 64, 4096, 1 << 16] {
            for size in [align, 3 * align, 100 * align] {
                let layout = Layout::from_size_align(size, align).expect("a valid layout");
                // SAFETY: as above.
                unsafe {
                    let block = Mimalloc.alloc(layout);
                    assert_eq!(block as usize % align, 0);
                    let grown = Mimalloc.realloc(block, layout, 2 * size);
                    assert_eq!(grown as usize % align, 0);
                    Mimalloc.dealloc(grown, Layout::from_size_align_unchecked(2 * size, align));
                }
            }
        }
        // Sizes that are not a multiple of their alignment: a 24-byte class
        // is only 8-aligned, so these take the aligned calls too.
        for (size, align) in [(8, 16), (24, 16), (40, 16), (1000, 16)] {
            assert!(!plain_fits(align, size));
            let layout = Layout::from_size_align(size, align).expect("a valid layout");
            // SAFETY: as above.
            unsafe {
                let block = Mimalloc.alloc(layout);
                assert_eq!(block as usize % align, 0);
                Mimalloc.dealloc(block, layout);
            }
        }
    }
}
