//! `memcpy`, `memmove`, `memset`, `memcmp` and `bcmp` for the static musl
//! build of `ir-check` (x86-64), which links these in place of musl's own.
//!
//! Why: musl's x86-64 `memcpy` moves the unaligned head and the tail one
//! `movsb` at a time around a `rep movsq`, and its `memmove`, `memset`'s
//! tail and `memcmp` are byte loops. Reading a model and writing its report
//! copy and compare millions of short pieces (1-64 bytes: names, attribute
//! values, report lines), where each of those costs tens of cycles: in a
//! musl build of `ir-check`, `memcpy` was 29% of a 1,000-layer check
//! (docs/performance.md). Here a piece of up to 128 bytes is moved by at
//! most eight overlapping loads and stores, with no loop; longer ones by
//! `rep movsb`/`rep stosb`, which CPUs with ERMS/FSRM run at full speed.
//! No crate provides these symbols for musl at these sizes
//! (`compiler_builtins`' `mem` feature is for targets without a C library
//! and starts every copy with a `rep` instruction).
//!
//! The functions are exported under their C names only in a musl build
//! (`target_env = "musl"`); elsewhere (the glibc build, this crate's tests)
//! they are ordinary Rust functions, so that the tests can compare them
//! with the C library's without replacing it.

// LLVM would otherwise recognise the loops below as a copy or a fill and
// call `memcpy` or `memset` for them: these very functions.
#![no_builtins]
#![cfg_attr(not(test), no_std)]
#![cfg(target_arch = "x86_64")]

use core::arch::asm;
use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_set1_epi8, _mm_storeu_si128};
use core::ffi::{c_int, c_void};
use core::ptr::{read_unaligned, write_unaligned};

/// Copies up to this many bytes with loads and stores; longer pieces with
/// `rep movsb`/`rep stosb` (whose start costs about as much as eight
/// 16-byte moves).
const SMALL: usize = 128;

/// # Safety
/// `src` valid for `n` bytes of reads, `dst` for `n` bytes of writes (as C's
/// `memcpy`); the two may overlap (every load comes before the first store).
#[inline(always)]
unsafe fn move_small(dst: *mut u8, src: *const u8, n: usize) {
    debug_assert!(n <= SMALL);
    if n <= 16 {
        if n >= 8 {
            let head = read_unaligned(src.cast::<u64>());
            let tail = read_unaligned(src.add(n - 8).cast::<u64>());
            write_unaligned(dst.cast::<u64>(), head);
            write_unaligned(dst.add(n - 8).cast::<u64>(), tail);
        } else if n >= 4 {
            let head = read_unaligned(src.cast::<u32>());
            let tail = read_unaligned(src.add(n - 4).cast::<u32>());
            write_unaligned(dst.cast::<u32>(), head);
            write_unaligned(dst.add(n - 4).cast::<u32>(), tail);
        } else if n >= 2 {
            let head = read_unaligned(src.cast::<u16>());
            let tail = read_unaligned(src.add(n - 2).cast::<u16>());
            write_unaligned(dst.cast::<u16>(), head);
            write_unaligned(dst.add(n - 2).cast::<u16>(), tail);
        } else if n == 1 {
            *dst = *src;
        }
        return;
    }
    let load = |offset: usize| _mm_loadu_si128(src.add(offset).cast::<__m128i>());
    let store = |offset: usize, value| _mm_storeu_si128(dst.add(offset).cast::<__m128i>(), value);
    if n <= 32 {
        let (a, b) = (load(0), load(n - 16));
        store(0, a);
        store(n - 16, b);
    } else if n <= 64 {
        let (a, b, c, d) = (load(0), load(16), load(n - 32), load(n - 16));
        store(0, a);
        store(16, b);
        store(n - 32, c);
        store(n - 16, d);
    } else {
        let (a, b, c, d) = (load(0), load(16), load(32), load(48));
        let (e, f, g, h) = (load(n - 64), load(n - 48), load(n - 32), load(n - 16));
        store(0, a);
        store(16, b);
        store(32, c);
        store(48, d);
        store(n - 64, e);
        store(n - 48, f);
        store(n - 32, g);
        store(n - 16, h);
    }
}

/// # Safety
/// As `memcpy`; the ranges may overlap if `dst` is below `src` (`rep movsb`
/// moves as if one byte at a time, from the first).
#[inline(always)]
unsafe fn move_forward_rep(dst: *mut u8, src: *const u8, n: usize) {
    // The direction flag is clear at every call (the ABI's rule).
    asm!(
        "rep movsb",
        inout("rcx") n => _,
        inout("rdi") dst => _,
        inout("rsi") src => _,
        options(nostack, preserves_flags)
    );
}

/// C's `memcpy`.
///
/// # Safety
/// `src` valid for `n` bytes of reads, `dst` for `n` bytes of writes, the
/// two not overlapping.
#[cfg_attr(all(target_env = "musl", not(test)), no_mangle)]
pub unsafe extern "C" fn memcpy(dst: *mut c_void, src: *const c_void, n: usize) -> *mut c_void {
    if n <= SMALL {
        move_small(dst.cast(), src.cast(), n);
    } else {
        move_forward_rep(dst.cast(), src.cast(), n);
    }
    dst
}

/// C's `memmove`.
///
/// # Safety
/// `src` valid for `n` bytes of reads, `dst` for `n` bytes of writes; they
/// may overlap.
#[cfg_attr(all(target_env = "musl", not(test)), no_mangle)]
pub unsafe extern "C" fn memmove(dst: *mut c_void, src: *const c_void, n: usize) -> *mut c_void {
    let (to, from) = (dst.cast::<u8>(), src.cast::<u8>());
    if n <= SMALL {
        move_small(to, from, n);
    } else if (to as usize).wrapping_sub(from as usize) >= n {
        // `dst` below `src`, or past its end: a forward copy reads every
        // byte before it is overwritten.
        move_forward_rep(to, from, n);
    } else {
        // `dst` inside `src..src + n`: from the end, 16 bytes at a time,
        // each block read before it is written; the blocks written so far
        // lie above the source bytes still to read. The first 16 bytes are
        // read now and written last, covering what the last block leaves.
        let load = |offset: usize| _mm_loadu_si128(from.add(offset).cast::<__m128i>());
        let store =
            |offset: usize, value| _mm_storeu_si128(to.add(offset).cast::<__m128i>(), value);
        let head = load(0);
        let mut offset = n - 16;
        while offset > 16 {
            store(offset, load(offset));
            offset -= 16;
        }
        store(offset, load(offset));
        store(0, head);
    }
    dst
}

/// C's `memset`.
///
/// # Safety
/// `dst` valid for `n` bytes of writes.
#[cfg_attr(all(target_env = "musl", not(test)), no_mangle)]
pub unsafe extern "C" fn memset(dst: *mut c_void, value: c_int, n: usize) -> *mut c_void {
    let to = dst.cast::<u8>();
    let byte = value as u8;
    if n <= 16 {
        let pattern = u64::from(byte) * 0x0101_0101_0101_0101;
        if n >= 8 {
            write_unaligned(to.cast::<u64>(), pattern);
            write_unaligned(to.add(n - 8).cast::<u64>(), pattern);
        } else if n >= 4 {
            write_unaligned(to.cast::<u32>(), pattern as u32);
            write_unaligned(to.add(n - 4).cast::<u32>(), pattern as u32);
        } else if n >= 2 {
            write_unaligned(to.cast::<u16>(), pattern as u16);
            write_unaligned(to.add(n - 2).cast::<u16>(), pattern as u16);
        } else if n == 1 {
            *to = byte;
        }
    } else if n <= SMALL {
        let pattern = _mm_set1_epi8(byte as i8);
        let store = |offset: usize| _mm_storeu_si128(to.add(offset).cast::<__m128i>(), pattern);
        store(0);
        store(n - 16);
        if n > 32 {
            store(16);
            store(n - 32);
            if n > 64 {
                store(32);
                store(48);
                store(n - 64);
                store(n - 48);
            }
        }
    } else {
        asm!(
            "rep stosb",
            inout("rcx") n => _,
            inout("rdi") to => _,
            in("al") byte,
            options(nostack, preserves_flags)
        );
    }
    dst
}

/// The sign of the first differing byte of two words read little-endian
/// (memory order is the big-endian order of the swapped words).
#[inline(always)]
fn order_u64(left: u64, right: u64) -> c_int {
    if left.swap_bytes() < right.swap_bytes() {
        -1
    } else {
        1
    }
}

#[inline(always)]
fn order_u32(left: u32, right: u32) -> c_int {
    if left.swap_bytes() < right.swap_bytes() {
        -1
    } else {
        1
    }
}

/// C's `memcmp`: negative, zero or positive as the first differing byte
/// (unsigned) of `left` is below, equal to or above that of `right`.
///
/// # Safety
/// Both valid for `n` bytes of reads.
#[cfg_attr(all(target_env = "musl", not(test)), no_mangle)]
pub unsafe extern "C" fn memcmp(left: *const c_void, right: *const c_void, n: usize) -> c_int {
    let (a, b) = (left.cast::<u8>(), right.cast::<u8>());
    if n >= 8 {
        let word = |p: *const u8, offset: usize| read_unaligned(p.add(offset).cast::<u64>());
        let mut offset = 0;
        while offset + 8 <= n {
            let (x, y) = (word(a, offset), word(b, offset));
            if x != y {
                return order_u64(x, y);
            }
            offset += 8;
        }
        if offset < n {
            // The last 8 bytes, overlapping ones already found equal.
            let (x, y) = (word(a, n - 8), word(b, n - 8));
            if x != y {
                return order_u64(x, y);
            }
        }
        return 0;
    }
    if n >= 4 {
        let word = |p: *const u8, offset: usize| read_unaligned(p.add(offset).cast::<u32>());
        for offset in [0, n - 4] {
            let (x, y) = (word(a, offset), word(b, offset));
            if x != y {
                return order_u32(x, y);
            }
        }
        return 0;
    }
    for offset in 0..n {
        let (x, y) = (*a.add(offset), *b.add(offset));
        if x != y {
            return c_int::from(x) - c_int::from(y);
        }
    }
    0
}

/// `bcmp`: zero if the two ranges are equal, not zero otherwise (what
/// Rust's slice equality calls).
///
/// # Safety
/// Both valid for `n` bytes of reads.
#[cfg_attr(all(target_env = "musl", not(test)), no_mangle)]
pub unsafe extern "C" fn bcmp(left: *const c_void, right: *const c_void, n: usize) -> c_int {
    let (a, b) = (left.cast::<u8>(), right.cast::<u8>());
    let differs = if n >= 8 {
        let word = |p: *const u8, offset: usize| read_unaligned(p.add(offset).cast::<u64>());
        let mut offset = 0;
        while offset + 8 < n {
            if word(a, offset) != word(b, offset) {
                return 1;
            }
            offset += 8;
        }
        word(a, n - 8) != word(b, n - 8)
    } else if n >= 4 {
        let word = |p: *const u8, offset: usize| read_unaligned(p.add(offset).cast::<u32>());
        (word(a, 0) ^ word(b, 0)) | (word(a, n - 4) ^ word(b, n - 4)) != 0
    } else {
        (0..n).any(|offset| *a.add(offset) != *b.add(offset))
    };
    c_int::from(differs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Ordering;

    /// Every size up to past `SMALL` and then some large ones.
    fn sizes() -> impl Iterator<Item = usize> {
        (0..=300).chain([511, 512, 513, 4095, 4096, 65_537])
    }

    /// Distinct, non-repeating bytes, so that a byte copied from the wrong
    /// place shows.
    fn pattern(len: usize, seed: u8) -> Vec<u8> {
        (0..len)
            .map(|i| {
                (i as u32)
                    .wrapping_mul(31)
                    .wrapping_add(u32::from(seed) * 7) as u8
            })
            .collect()
    }

    #[test]
    fn memcpy_copies_every_size_at_every_alignment() {
        for n in sizes() {
            for (src_offset, dst_offset) in [(0, 0), (1, 0), (0, 3), (7, 5), (15, 1)] {
                let src = pattern(n + src_offset, 1);
                let mut dst = vec![0xee_u8; n + dst_offset + 16];
                let returned = unsafe {
                    memcpy(
                        dst.as_mut_ptr().add(dst_offset).cast(),
                        src.as_ptr().add(src_offset).cast(),
                        n,
                    )
                };
                assert_eq!(returned, unsafe { dst.as_mut_ptr().add(dst_offset) }.cast());
                assert!(dst[..dst_offset].iter().all(|&b| b == 0xee), "n={n}");
                assert_eq!(
                    &dst[dst_offset..dst_offset + n],
                    &src[src_offset..],
                    "n={n}"
                );
                assert!(dst[dst_offset + n..].iter().all(|&b| b == 0xee), "n={n}");
            }
        }
    }

    #[test]
    fn memmove_handles_overlap_in_both_directions() {
        for n in sizes().filter(|&n| n <= 4096) {
            for shift in [-33_isize, -17, -16, -9, -1, 0, 1, 2, 8, 15, 16, 31, 64, 100] {
                let margin = 128;
                let buffer = pattern(n + 2 * margin, 3);
                let src_start = margin;
                let dst_start = (margin as isize + shift) as usize;
                let mut expected = buffer.clone();
                expected.copy_within(src_start..src_start + n, dst_start);
                let mut actual = buffer.clone();
                let base = actual.as_mut_ptr();
                unsafe { memmove(base.add(dst_start).cast(), base.add(src_start).cast(), n) };
                assert_eq!(actual, expected, "n={n} shift={shift}");
            }
        }
    }

    #[test]
    fn memset_fills_exactly_the_range() {
        for n in sizes() {
            for offset in [0, 1, 6] {
                for value in [0, 0x5a, 0xff, 0x1_23] {
                    let mut dst = vec![0x11_u8; n + offset + 16];
                    unsafe { memset(dst.as_mut_ptr().add(offset).cast(), value, n) };
                    assert!(dst[..offset].iter().all(|&b| b == 0x11));
                    assert!(
                        dst[offset..offset + n].iter().all(|&b| b == value as u8),
                        "n={n}"
                    );
                    assert!(dst[offset + n..].iter().all(|&b| b == 0x11), "n={n}");
                }
            }
        }
    }

    #[test]
    fn memcmp_and_bcmp_agree_with_slice_comparison() {
        for n in sizes().filter(|&n| n <= 4096) {
            let left = pattern(n, 5);
            // Equal, then one byte changed up and down at every place (at a
            // few places for the longer ones).
            let places: Vec<usize> = if n <= 300 {
                (0..n).collect()
            } else {
                vec![0, n / 2, n - 1]
            };
            let mut cases = vec![left.clone()];
            for &place in &places {
                for delta in [1_u8, 0x80, 0xff] {
                    let mut right = left.clone();
                    right[place] = right[place].wrapping_add(delta);
                    cases.push(right);
                }
            }
            for right in &cases {
                let expected = left.as_slice().cmp(right.as_slice());
                let order = unsafe { memcmp(left.as_ptr().cast(), right.as_ptr().cast(), n) };
                assert_eq!(order.cmp(&0), expected, "n={n}");
                let differs = unsafe { bcmp(left.as_ptr().cast(), right.as_ptr().cast(), n) };
                assert_eq!(differs != 0, expected != Ordering::Equal, "n={n}");
            }
        }
    }
}
