//! What the vector kernels share: whether the CPU runs their AVX-512
//! code, and the cut of a run of pairs into its two stride phases.

/// Whether the CPU runs the AVX-512 instructions the hand-vectorized
/// kernels use (`avx512f`, `bw`, `cd`, `dq`, `vl`: every CPU with AVX-512
/// since Skylake-X, and the set the `multiversion` clones target).
/// Detected once by std.
pub(crate) fn has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512cd")
            && std::arch::is_x86_feature_detected!("avx512dq")
            && std::arch::is_x86_feature_detected!("avx512vl")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The 16 even and the 16 odd elements of 16 pairs (a stride-2 row's two
/// phases), cut in registers. Callers store each half whole: written into
/// its destination element by element, the compiler kept every load and
/// store apart (the destination might overlap the source, for all it
/// knew), 32 scalar moves whose stores then stalled the vector loads that
/// read them. Indexed, not zipped: this form becomes two permutes.
#[inline(always)]
pub(crate) fn cut_pairs<T: Copy>(pairs: &[T; 32]) -> ([T; 16], [T; 16]) {
    let (mut evens, mut odds) = ([pairs[0]; 16], [pairs[1]; 16]);
    for i in 0..16 {
        evens[i] = pairs[2 * i];
        odds[i] = pairs[2 * i + 1];
    }
    (evens, odds)
}
