//! The `gemm` crate (the executor's GEMM) against `matrixmultiply`
//! (ndarray's), on f32 products `C (m × n) = A (m × k) · B (k × n)`, all
//! row-major: square ones and the shapes of convolutions (filters times an
//! im2col matrix). Throughput is in floating-point operations (2·m·n·k per
//! product): criterion's `elem/s` are FLOP/s.
//!
//! `matrixmultiply` takes its thread count once per process, from
//! `MATMUL_NUM_THREADS`, so the bench runs both crates with that many
//! threads (1 when unset; `gemm` through a rayon pool of that size, with
//! its own `Parallelism::Rayon`; the executor instead calls it on one
//! thread per block of the product, `src/gemm.rs`):
//!
//! ```sh
//! MATMUL_NUM_THREADS=1 cargo bench -p executor --bench gemm_compare
//! MATMUL_NUM_THREADS=2 cargo bench -p executor --bench gemm_compare
//! ```
//! `docs/performance.md` ("Why `gemm` (and no longer `matrixmultiply`)")
//! holds the figures.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};

/// `(name, m, k, n)`.
const SHAPES: &[(&str, usize, usize, usize)] = &[
    ("square-256", 256, 256, 256),
    ("square-512", 512, 512, 512),
    ("square-1024", 1024, 1024, 1024),
    // A 3x3 convolution, 64 to 64 channels at 56x56 (ResNet's first stage).
    ("conv3x3-64-56x56", 64, 576, 3136),
    // A 3x3 convolution, 256 to 256 channels at 14x14 (ResNet's third).
    ("conv3x3-256-14x14", 256, 2304, 196),
    // A 1x1 convolution, 16 to 96 channels at 112x112 (MobileNetV2's).
    ("conv1x1-16to96-112x112", 96, 16, 12544),
    // ResNet-50's other layer classes (docs/performance.md's per-layer
    // table): the 7x7 stride-2 stem, a 3x3 stride-2 layer, 1x1 layers at
    // 56x56, 14x14 and 7x7, and the 3x3 layers at 7x7 (49 columns).
    ("r50-stem-7x7s2", 64, 147, 12544),
    ("r50-3x3s2-128-28x28", 128, 1152, 784),
    ("r50-1x1-64to256-56x56", 256, 64, 3136),
    ("r50-1x1-1024to256-14x14", 256, 1024, 196),
    ("r50-1x1-512to2048-7x7", 2048, 512, 49),
    ("r50-3x3-512-7x7", 512, 4608, 49),
    // MobileNetV2's 1x1 layers: few output channels on a large plane, and
    // the last one on 7x7.
    ("mnv2-1x1-144to24-56x56", 24, 144, 3136),
    ("mnv2-1x1-320to1280-7x7", 1280, 320, 49),
];

fn values(len: usize, seed: usize) -> Vec<f32> {
    (0..len)
        .map(|i| ((i * 7919 + seed) % 1000) as f32 / 500.0 - 1.0)
        .collect()
}

fn with_gemm(
    a: &[f32],
    b: &[f32],
    c: &mut [f32],
    (m, k, n): (usize, usize, usize),
    threads: usize,
) {
    assert!(a.len() >= m * k && b.len() >= k * n && c.len() >= m * n);
    let parallelism = if threads > 1 {
        gemm::Parallelism::Rayon(threads)
    } else {
        gemm::Parallelism::None
    };
    // SAFETY: the three buffers hold the row-major matrices the strides
    // describe (checked above); `c` is distinct from `a` and `b`.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            c.as_mut_ptr(),
            1,
            n as isize,
            false,
            a.as_ptr(),
            1,
            k as isize,
            b.as_ptr(),
            1,
            n as isize,
            0.0,
            1.0,
            false,
            false,
            false,
            parallelism,
        );
    }
}

fn with_matrixmultiply(a: &[f32], b: &[f32], c: &mut [f32], (m, k, n): (usize, usize, usize)) {
    assert!(a.len() >= m * k && b.len() >= k * n && c.len() >= m * n);
    // SAFETY: as for `with_gemm`.
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            k as isize,
            1,
            b.as_ptr(),
            n as isize,
            1,
            0.0,
            c.as_mut_ptr(),
            n as isize,
            1,
        );
    }
}

fn bench(c: &mut Criterion, threads: usize) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a rayon pool");
    let mut group = c.benchmark_group(format!("gemm-compare/{threads}t"));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for &(name, m, k, n) in SHAPES {
        let (a, b) = (values(m * k, 1), values(k * n, 2));
        let mut out = vec![0.0f32; m * n];
        let mut check = vec![0.0f32; m * n];
        // Both compute the same product (up to rounding).
        pool.install(|| with_gemm(&a, &b, &mut out, (m, k, n), threads));
        with_matrixmultiply(&a, &b, &mut check, (m, k, n));
        let worst = out
            .iter()
            .zip(&check)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0f32, f32::max);
        assert!(worst < 1e-2, "{name}: the two products differ by {worst}");
        group.throughput(Throughput::Elements((2 * m * n * k) as u64));
        group.bench_function(BenchmarkId::new("gemm", name), |bench| {
            bench.iter(|| pool.install(|| with_gemm(&a, &b, &mut out, (m, k, n), threads)));
            black_box(&out);
        });
        group.bench_function(BenchmarkId::new("matrixmultiply", name), |bench| {
            bench.iter(|| with_matrixmultiply(&a, &b, &mut check, (m, k, n)));
            black_box(&check);
        });
    }
    group.finish();
}

fn main() {
    let threads = match std::env::var("MATMUL_NUM_THREADS") {
        Ok(v) => v.parse().expect("MATMUL_NUM_THREADS: a thread count"),
        Err(_) => {
            // Read by matrixmultiply at its first product, after this.
            std::env::set_var("MATMUL_NUM_THREADS", "1");
            1
        }
    };
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c, threads);
    c.final_summary();
}
