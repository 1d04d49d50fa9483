//! Winograd convolution for f32 3x3 convolutions with stride 1.
//!
//! The minimal filtering algorithm F(m×m, 3×3) of Lavin & Gray ("Fast
//! Algorithms for Convolutional Neural Networks", 2015): each `m × m` tile
//! of an output plane is computed from a `t × t` tile of the input (`t =
//! m+2`) as `Y = Aᵀ [Σ_c (G g_c Gᵀ) ⊙ (Bᵀ d_c B)] A`. Summed over the input
//! channels `c`, the `t²` element-wise products become `t²` independent
//! matrix products `M[ξ] = U[ξ] · V[ξ]` (`U[ξ]`: `C_out × C_in`, the
//! transformed filters; `V[ξ]`: `C_in × tiles`, the transformed input),
//! which run on the GEMM of `crate::gemm` (`gemm`). The
//! multiply-adds per output fall from 9·C_in to (t/m)²·C_in: 2.25·C_in for
//! F(4×4, 3×3) (4 times fewer), 4·C_in for F(2×2, 3×3) (2.25 times
//! fewer), paid for by the transforms (linear in the channels, not
//! quadratic) and by transformed filters t²/9 times the filters' size (4x
//! for F(4), 1.8x for F(2)), which the products read once per block.
//!
//! The filter transform `G g Gᵀ` (in f64, rounded once) of a convolution
//! node whose weights are constant is computed by the node's first call
//! that needs it and kept with the node ([`Prepared`], held by the
//! executor, dropped with it); a weight a run computes is transformed per
//! call. The input is cut into blocks of whole
//! tile rows (and, when there are fewer blocks than threads, the output
//! channels into chunks): each block, on one thread of the current rayon
//! pool (one fork-join per convolution), transforms its input tiles into a
//! buffer of its thread, runs the `t²` products, transforms the sums back
//! into the output planes and runs the fused epilogue
//! ([`Epilogue::apply_at`], a residual shortcut included) on each
//! channel's band of rows while it is in cache. Tiles that reach past the input read zeros, so any explicit pads
//! (and the ragged last tiles of planes that are not a multiple of `m`)
//! need no special case.
//!
//! Error: the transforms' coefficients make the rounding error grow with
//! the tile. F(4×4, 3×3) evaluates at 0, 1, -1, 1/2, -2 and ∞ rather than
//! Lavin & Gray's 0, ±1, ±2, ∞, choosing the points by their measured error
//! as Barabasz, Anderson, Soodhalter & Gregg do ("Error analysis and
//! improving the accuracy of Winograd convolution for deep neural
//! networks", ACM TOMS 46(4), 2020): of the sets tried here (±2, ±1/2,
//! ±2/3, ±3/4, 1/2 and -3/2, 1/3 and -3, 1/4 and -2, ...), a point and the
//! reciprocal of another of the opposite sign gave the smallest error, about 2 to
//! 4 times below ±2's. In the `error_by_channels` measurement (sums in
//! f64 over 64 to 512 channels of mixed-sign values from 1e-2 to 1e2), the
//! worst F(4) output is off by 2.4e-6 to 5.5e-6 of the largest output
//! (±2: 7.8e-6 to 9.9e-6), F(2)'s by 4e-7 to 8e-7, the direct path's by
//! 4e-7 to 5e-7 (the filter transform is computed in f64 and rounded
//! once). Inputs or filters that are not finite make
//! a whole tile's transform NaN, where the direct sum confines them to the
//! windows that meet them: such a convolution falls back to the direct
//! path ([`run`] returns `None`), as does any whose Winograd sums overflow.
//!
//! Which layers take it is [`choose`]'s rule: F(4×4, 3×3) on planes of at
//! least [`MIN_TILES_F4`] of its tiles, F(2×2, 3×3) on smaller ones of at
//! least [`MIN_TILES`] of its tiles, the direct path below
//! (`docs/performance.md`, "Winograd for 3x3 convolutions").
//! `OVIR_NO_WINOGRAD` set turns the path off; `OVIR_WINOGRAD=2` or `=4`
//! forces that tile on every eligible layer (both read once per process,
//! to measure).

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;

use ir::ElementType;
use rayon::prelude::*;

use super::convolution::{elements, Geometry};
use super::KResult;
use crate::error::KernelError;
use crate::fusion::Epilogue;
use crate::gemm::Scalar;
use crate::tensor::{check_scratch, Tensor};

/// The output tile of a Winograd transform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tile {
    /// F(2×2, 3×3): 4×4 input tiles.
    F2,
    /// F(4×4, 3×3): 6×6 input tiles.
    F4,
}

impl Tile {
    /// Outputs per tile side.
    fn m(self) -> usize {
        match self {
            Tile::F2 => 2,
            Tile::F4 => 4,
        }
    }

    /// Inputs per tile side.
    fn t(self) -> usize {
        self.m() + 2
    }

    /// `Bᵀ` (`t × t`, rows `t` apart).
    #[cfg(test)]
    fn input_matrix(self) -> &'static [f32] {
        match self {
            Tile::F2 => &BT2,
            Tile::F4 => &BT4,
        }
    }

    /// `G` (`t × 3`).
    fn filter_matrix(self) -> &'static [f64] {
        match self {
            Tile::F2 => &G2,
            Tile::F4 => &G4,
        }
    }

    /// `Aᵀ` (`m × t`).
    #[cfg(test)]
    fn output_matrix(self) -> &'static [f32] {
        match self {
            Tile::F2 => &AT2,
            Tile::F4 => &AT4,
        }
    }
}

// The matrices of F(2, 3) (points 0, 1, -1, ∞: Lavin & Gray's) and F(4, 3)
// (points 0, 1, -1, 1/2, -2, ∞, where Lavin & Gray took 0, ±1, ±2: see the
// module doc), constructed as Toom-Cook's with the fractions in `G`. `Bᵀ`
// and `Aᵀ` run as the written-out `bt2`, `at2`, `bt4`, `at4` (a test checks
// they are these matrices, and that the three give the 1-D correlation).
#[cfg(test)]
#[rustfmt::skip]
const BT2: [f32; 16] = [
    1.0, 0.0, -1.0, 0.0,
    0.0, 1.0, 1.0, 0.0,
    0.0, -1.0, 1.0, 0.0,
    0.0, 1.0, 0.0, -1.0,
];
#[rustfmt::skip]
const G2: [f64; 12] = [
    1.0, 0.0, 0.0,
    0.5, 0.5, 0.5,
    0.5, -0.5, 0.5,
    0.0, 0.0, 1.0,
];
#[cfg(test)]
#[rustfmt::skip]
const AT2: [f32; 8] = [
    1.0, 1.0, 1.0, 0.0,
    0.0, 1.0, -1.0, -1.0,
];
#[cfg(test)]
#[rustfmt::skip]
const BT4: [f32; 36] = [
    1.0, -1.5, -2.0, 1.5, 1.0, 0.0,
    0.0, -1.0, 0.5, 2.5, 1.0, 0.0,
    0.0, 1.0, -2.5, 0.5, 1.0, 0.0,
    0.0, -2.0, -1.0, 2.0, 1.0, 0.0,
    0.0, 0.5, -1.0, -0.5, 1.0, 0.0,
    0.0, 1.0, -1.5, -2.0, 1.5, 1.0,
];
#[rustfmt::skip]
const G4: [f64; 18] = [
    1.0, 0.0, 0.0,
    1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0,
    -1.0 / 3.0, 1.0 / 3.0, -1.0 / 3.0,
    -16.0 / 15.0, -8.0 / 15.0, -4.0 / 15.0,
    1.0 / 15.0, -2.0 / 15.0, 4.0 / 15.0,
    0.0, 0.0, 1.0,
];
#[cfg(test)]
#[rustfmt::skip]
const AT4: [f32; 24] = [
    1.0, 1.0, 1.0, 1.0, 1.0, 0.0,
    0.0, 1.0, -1.0, 0.5, -2.0, 0.0,
    0.0, 1.0, 1.0, 0.25, 4.0, 0.0,
    0.0, 1.0, -1.0, 0.125, -8.0, 1.0,
];

/// The environment's say: `None` (the rule decides), off, or one tile.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Override {
    Rule,
    Off,
    Force(Tile),
}

fn env_override() -> Override {
    static READ: OnceLock<Override> = OnceLock::new();
    *READ.get_or_init(|| {
        if std::env::var_os("OVIR_NO_WINOGRAD").is_some() {
            return Override::Off;
        }
        match std::env::var("OVIR_WINOGRAD").as_deref() {
            Ok("2") => Override::Force(Tile::F2),
            Ok("4") => Override::Force(Tile::F4),
            _ => Override::Rule,
        }
    })
}

/// Whether the convolution `g` can run by Winograd at all: a 2-D 3x3
/// kernel, stride 1, dilation 1, not depthwise (that has its own kernel),
/// a non-empty output.
fn eligible(g: &Geometry) -> bool {
    g.kernel == [1, 3, 3]
        && g.input[0] == 1
        && g.output[0] == 1
        && g.stride == [1; 3]
        && g.dilation == [1; 3]
        && !(g.cin == 1 && g.cout == 1)
        && g.output_size() > 0
        && g.batch * g.groups * g.cin * g.cout > 0
}

/// The rule: which tile an eligible convolution takes, or `None` for the
/// direct (im2col + GEMM) path.
pub(crate) fn choose(g: &Geometry) -> Option<Tile> {
    if !eligible(g) {
        return None;
    }
    match env_override() {
        Override::Off => return None,
        Override::Force(tile) => return Some(tile),
        Override::Rule => {}
    }
    // Few channels: products too thin for the transforms to pay (a guard,
    // not measured: no benchmark model has such a 3x3 layer).
    if g.cin < 16 || g.cout < 16 {
        return None;
    }
    // The larger tile on planes large enough: each product packs its
    // filters (t²/9 times the direct path's) for as many columns as there
    // are tiles, and in a whole model they come from memory, not cache, so
    // a tile pays only with enough tiles to share the packing. F(4) does
    // 1.8 times fewer multiply-adds than F(2) and packs 2.25 times more
    // filters, for a quarter of the tiles (`docs/performance.md`).
    let [_, oh, ow] = g.output;
    let tiles = |m: usize| g.batch * oh.div_ceil(m) * ow.div_ceil(m);
    if tiles(4) >= MIN_TILES_F4 {
        Some(Tile::F4)
    } else if tiles(2) >= MIN_TILES {
        Some(Tile::F2)
    } else {
        None
    }
}

/// The fewest F(2) tiles (output positions over 4) a convolution needs for
/// Winograd: in ResNet-50, 56x56 and 28x28 planes at batch 1 (784 and 196
/// tiles) were faster by it, 14x14 ones (49) and 7x7 ones (16) slower.
const MIN_TILES: usize = 100;

/// The fewest F(4) tiles (output positions over 16) a convolution needs
/// for F(4) rather than F(2): in ResNet-50 and ResNet-18, 56x56 planes at
/// batch 1 (196 tiles) were faster by F(4), 28x28 ones (49) by F(2); the
/// threshold lies between.
const MIN_TILES_F4: usize = 100;

/// The convolution `x ⊛ w` (f32, `out_shape`) by Winograd when [`choose`]
/// picks a tile for it, with `fused`'s epilogue run on its outputs (adding
/// its shortcut, a tensor of the output's shape, when it has one); `None` when
/// the direct path is to compute it (not chosen, not f32, or values that
/// are not finite: see the module doc). `prepared` is the node's slot for
/// its transformed filters when its weights are constant (kept there from
/// the first call that needs them); without one, the filters are transformed
/// for this call only.
pub(crate) fn run(
    x: &Tensor,
    w: &Tensor,
    out_shape: &[usize],
    g: &Geometry,
    fused: Option<Fused<'_>>,
    prepared: Option<&Prepared>,
) -> KResult<Option<Tensor>> {
    let Some(tile) = choose(g) else {
        return Ok(None);
    };
    if x.element_type != ElementType::F32 || w.element_type != ElementType::F32 {
        return Ok(None);
    }
    if fused.is_some_and(|(e, _)| !e.fits(g.groups * g.cout)) {
        return Err("internal: the fused bias does not hold one value per channel".into());
    }
    let out_len: usize = out_shape.iter().product();
    if fused.is_some_and(|(e, s)| e.shortcut.is_some() != s.is_some_and(|s| s.len() == out_len)) {
        return Err("internal: the fused shortcut does not hold the output's values".into());
    }
    let u = match prepared {
        Some(slot) => slot.filters(w, g, tile)?.map(Cow::Borrowed),
        None => transform_if_finite(&checked_filters(w, g, tile)?, g, tile).map(Cow::Owned),
    };
    let Some(u) = u else {
        return Ok(None);
    };
    let x = elements::<f32>(x)?;
    if x.len() != g.batch * g.groups * g.cin * g.input_size() {
        return Err("internal: the data does not hold the convolution's geometry".into());
    }
    let mut finite = true;
    let out = Tensor::computed(out_shape.to_vec(), |out: &mut [f32]| {
        finite = convolve(&x, &u, g, tile, out, fused)?;
        Ok::<(), KernelError>(())
    })?;
    Ok(finite.then_some(out))
}

/// A fused epilogue and, when it adds a residual shortcut, the shortcut's
/// values (laid out as the output).
pub(crate) type Fused<'a> = (&'a Epilogue<f32>, Option<&'a [f32]>);

/// The transformed filters of one convolution node whose weights are
/// constant (a Const, or a value folded when the executor was made): held
/// by the executor with the node, as it holds compressed weights, and
/// dropped with it. One slot per tile, filled by the first call that runs
/// the node by that tile (which tile, if any, depends on the run's plane
/// size, so nothing is transformed before a run needs it); `None` in a slot
/// records filters that are not finite, which the direct path computes.
/// Each slot is `[group][ξ][C_out][C_in]`, `ξ` over the `t × t` tile
/// (row-major).
#[derive(Debug, Default)]
pub(crate) struct Prepared {
    /// F(2×2, 3×3)'s and F(4×4, 3×3)'s transforms.
    slots: [OnceLock<Option<Vec<f32>>>; 2],
    /// How many transforms were computed (one per slot filled).
    transforms: AtomicUsize,
}

impl Prepared {
    /// The transformed filters of `w` for `tile`: the kept ones, or computed
    /// and kept now. The node's weights are constant, so the first call's
    /// `w` stands for every later one's.
    fn filters(&self, w: &Tensor, g: &Geometry, tile: Tile) -> KResult<Option<&[f32]>> {
        let slot = &self.slots[match tile {
            Tile::F2 => 0,
            Tile::F4 => 1,
        }];
        if let Some(kept) = slot.get() {
            return Ok(kept.as_deref());
        }
        // What can fail is checked before the slot is filled (racing first
        // runs then compute it once: `get_or_init` blocks the others).
        let filters = checked_filters(w, g, tile)?;
        let kept = slot.get_or_init(|| {
            self.transforms.fetch_add(1, Ordering::Relaxed);
            transform_if_finite(&filters, g, tile)
        });
        Ok(kept.as_deref())
    }

    /// How many filter transforms this node has computed.
    pub(crate) fn transforms(&self) -> usize {
        self.transforms.load(Ordering::Relaxed)
    }

    /// The bytes of transformed filters held.
    pub(crate) fn bytes(&self) -> usize {
        self.slots
            .iter()
            .filter_map(|slot| slot.get()?.as_ref())
            .map(|u| u.len() * 4)
            .sum()
    }
}

/// `w`'s f32 filters, checked against the geometry, and the transform's
/// size against the tensor limit.
fn checked_filters<'w>(w: &'w Tensor, g: &Geometry, tile: Tile) -> KResult<Cow<'w, [f32]>> {
    let filters = elements::<f32>(w)?;
    if filters.len() != g.groups * g.cout * g.cin * 9 {
        return Err("internal: the filters do not hold the convolution's geometry".into());
    }
    let t = tile.t();
    check_scratch(g.groups * t * t * g.cout * g.cin, 4, "Winograd filters")?;
    Ok(filters)
}

/// [`transform_filters`] when every filter value is finite (else `None`: a
/// NaN or infinity would spread over whole tiles).
fn transform_if_finite(filters: &[f32], g: &Geometry, tile: Tile) -> Option<Vec<f32>> {
    filters
        .iter()
        .all(|v| v.is_finite())
        .then(|| transform_filters(filters, g, tile))
}

/// `G g Gᵀ` of every 3x3 filter (`[G][C_out][C_in][3][3]`), in f64, as
/// `[G][ξ][C_out][C_in]` f32.
fn transform_filters(w: &[f32], g: &Geometry, tile: Tile) -> Vec<f32> {
    let (t, gm) = (tile.t(), tile.filter_matrix());
    let per_xi = g.cout * g.cin;
    let mut u = vec![0f32; g.groups * t * t * per_xi];
    for group in 0..g.groups {
        let u_g = &mut u[group * t * t * per_xi..][..t * t * per_xi];
        for (oc_ic, filter) in w[group * per_xi * 9..][..per_xi * 9]
            .chunks_exact(9)
            .enumerate()
        {
            // tmp = G g (t × 3), then U = tmp Gᵀ (t × t).
            let mut tmp = [0f64; 18];
            for r in 0..t {
                for c in 0..3 {
                    tmp[r * 3 + c] = (0..3)
                        .map(|k| gm[r * 3 + k] * f64::from(filter[k * 3 + c]))
                        .sum();
                }
            }
            for r in 0..t {
                for c in 0..t {
                    let v: f64 = (0..3).map(|k| tmp[r * 3 + k] * gm[c * 3 + k]).sum();
                    u_g[(r * t + c) * per_xi + oc_ic] = v as f32;
                }
            }
        }
    }
    u
}

/// Bytes of transformed input and products a block aims at: the more
/// tiles a block holds, the wider its products and the fewer times its
/// filters are packed (blocks of 1 MiB, which fit L2, were up to twice as
/// slow on ResNet-50's 56x56 and 28x28 layers; 8 and 64 MiB measured the
/// same).
const BLOCK_BYTES: usize = 8 << 20;

/// The fewest tiles a block of tile rows keeps when the threads split the
/// tiles (fewer: they split the output channels).
const SPLIT_TILES: usize = 64;

/// How the work is cut: tile rows per block, and output channels per chunk.
struct Plan {
    tile: Tile,
    /// Tile rows and columns of one image's output plane.
    tile_rows: usize,
    tile_cols: usize,
    /// Tile rows (of all images, one after the other) per block.
    rows_per_block: usize,
    blocks: usize,
    /// Output channels per chunk, and chunks.
    chunk: usize,
    chunks: usize,
}

impl Plan {
    fn new(g: &Geometry, tile: Tile, threads: usize) -> Plan {
        let (m, t) = (tile.m(), tile.t());
        let [_, oh, ow] = g.output;
        let (tile_rows, tile_cols) = (oh.div_ceil(m), ow.div_ceil(m));
        let all_rows = g.batch * tile_rows;
        let per_tile = t * t * (g.cin + g.cout) * 4;
        let fits = (BLOCK_BYTES / (per_tile * tile_cols).max(1)).max(1);
        let blocks = all_rows.div_ceil(fits);
        // Threads take blocks of tile rows when each keeps enough tiles
        // (every block packs all of its filters again), else chunks of
        // the output channels (each transforms all of the input again).
        let blocks = if all_rows * tile_cols >= threads * SPLIT_TILES {
            // A multiple of the threads, so none waits on a lone last block.
            blocks.next_multiple_of(threads).min(all_rows)
        } else {
            blocks
        };
        let rows_per_block = all_rows.div_ceil(blocks.max(1));
        let blocks = all_rows.div_ceil(rows_per_block);
        let items = blocks * g.groups;
        let chunks = if items >= threads {
            1
        } else {
            threads.div_ceil(items).min(g.cout.div_ceil(16)).max(1)
        };
        let chunk = g.cout.div_ceil(chunks).next_multiple_of(16).min(g.cout);
        let chunks = g.cout.div_ceil(chunk);
        Plan {
            tile,
            tile_rows,
            tile_cols,
            rows_per_block,
            blocks,
            chunk,
            chunks,
        }
    }
}

/// A raw pointer to the output, shared by blocks that write disjoint parts.
struct SharedOut(*mut f32);
// SAFETY: the blocks write disjoint elements (see `convolve`).
unsafe impl Sync for SharedOut {}

/// The convolution of `x` by the transformed filters `u` into `out`
/// (`[N, G·C_out, OH, OW]`, every element written), `epilogue` run on it.
/// Returns whether every sum was finite (before the epilogue); when not,
/// the caller computes the convolution again by the direct path.
fn convolve(
    x: &[f32],
    u: &[f32],
    g: &Geometry,
    tile: Tile,
    out: &mut [f32],
    fused: Option<Fused<'_>>,
) -> KResult<bool> {
    let t = tile.t();
    let channels = g.groups * g.cout;
    if u.len() != g.groups * t * t * g.cout * g.cin
        || out.len() != g.batch * channels * g.output_size()
    {
        return Err("internal: Winograd operands do not hold the geometry".into());
    }
    let plan = Plan::new(g, tile, rayon::current_num_threads());
    let scratch = scratch_len(g, &plan);
    check_scratch(scratch, 4, "a Winograd block")?;
    let finite = AtomicBool::new(true);
    let job = Job {
        x,
        u,
        g,
        plan: &plan,
        out: SharedOut(out.as_mut_ptr()),
        fused,
    };
    let item = |index: usize| {
        let chunk = index % plan.chunks;
        let block = (index / plan.chunks) % plan.blocks;
        let group = index / (plan.chunks * plan.blocks);
        f32::with_block(scratch, |buffer| {
            if !job.run_block((group, block, chunk), buffer) {
                finite.store(false, Ordering::Relaxed);
            }
        });
    };
    let items = g.groups * plan.blocks * plan.chunks;
    if items > 1 && rayon::current_num_threads() > 1 {
        (0..items).into_par_iter().for_each(item);
    } else {
        (0..items).for_each(item);
    }
    Ok(finite.into_inner())
}

/// Scratch floats one block needs: transformed input (`t²·C_in` per tile),
/// products (`t²·chunk` per tile), two `t²` staging rows per tile (the
/// gathered patches and the half-transformed ones) and one padded input
/// row and its `m` phases.
fn scratch_len(g: &Geometry, plan: &Plan) -> usize {
    let (m, t) = (plan.tile.m(), plan.tile.t());
    let tiles = plan.rows_per_block * plan.tile_cols;
    t * t * tiles * (g.cin + plan.chunk + 2) + 2 * (plan.tile_cols + 1) * m
}

/// What every block of one convolution reads, and the output it writes.
struct Job<'a> {
    x: &'a [f32],
    u: &'a [f32],
    g: &'a Geometry,
    plan: &'a Plan,
    out: SharedOut,
    fused: Option<Fused<'a>>,
}

impl Job<'_> {
    /// One block: tile rows `block` of group `group`, output channels of
    /// `chunk`. Transforms the input tiles, runs the `t²` products, transforms
    /// them back into the output and runs the epilogue on each channel's band
    /// of rows. Returns whether every sum was finite.
    fn run_block(&self, (group, block, chunk): (usize, usize, usize), buffer: &mut [f32]) -> bool {
        let Job {
            x,
            u,
            g,
            plan,
            ref out,
            fused,
        } = *self;
        let (m, t) = (plan.tile.m(), plan.tile.t());
        let tt = t * t;
        let all_rows = g.batch * plan.tile_rows;
        let first_row = block * plan.rows_per_block;
        let rows = plan.rows_per_block.min(all_rows - first_row);
        let tiles = rows * plan.tile_cols;
        let co0 = chunk * plan.chunk;
        let cos = plan.chunk.min(g.cout - co0);
        let (v, rest) = buffer.split_at_mut(tt * g.cin * tiles);
        let (products, rest) = rest.split_at_mut(tt * cos * tiles);
        let (stage_a, rest) = rest.split_at_mut(tt * tiles);
        let (stage_b, line) = rest.split_at_mut(tt * tiles);

        // V[ξ][c][tile] = Bᵀ d B of each input tile.
        for c in 0..g.cin {
            gather_patches(x, g, plan, (group, c, first_row, rows), stage_a, line);
            let into = (&mut *v, (c * tiles, g.cin * tiles));
            transform(
                Transform::Input,
                plan.tile,
                (&*stage_a, (0, tiles)),
                stage_b,
                into,
                tiles,
            );
        }

        // M[ξ] = U[ξ] (its chunk of rows) · V[ξ].
        for xi in 0..tt {
            let a = &u[((group * tt + xi) * g.cout + co0) * g.cin..][..cos * g.cin];
            let b = &v[xi * g.cin * tiles..][..g.cin * tiles];
            let c = &mut products[xi * cos * tiles..][..cos * tiles];
            product(a, b, c, (cos, g.cin, tiles));
        }

        // Y = Aᵀ M A per channel, into the output planes.
        let [_, oh, ow] = g.output;
        let plane = oh * ow;
        let channels = g.groups * g.cout;
        let mut finite = true;
        for co in 0..cos {
            let from = (&*products, (co * tiles, cos * tiles));
            transform(
                Transform::Output,
                plan.tile,
                from,
                stage_b,
                (&mut *stage_a, (0, tiles)),
                tiles,
            );
            let channel = group * g.cout + co0 + co;
            // The block's tile rows, image by image: each a band of rows of the
            // channel's plane.
            let mut row = first_row;
            while row < first_row + rows {
                let image = row / plan.tile_rows;
                let band_end = ((image + 1) * plan.tile_rows).min(first_row + rows);
                let (y0, y1) = (
                    (row % plan.tile_rows) * m,
                    ((band_end - 1) % plan.tile_rows * m + m).min(oh),
                );
                // SAFETY: rows y0..y1 of plane `channel` of image `image` lie
                // inside `out` (checked length: batch × channels × plane), and
                // only this block writes them: blocks own disjoint tile rows,
                // chunks disjoint channels, groups disjoint channels. No other
                // reference to these elements is live.
                let band_start = (image * channels + channel) * plane + y0 * ow;
                let band = unsafe {
                    std::slice::from_raw_parts_mut(out.0.add(band_start), (y1 - y0) * ow)
                };
                let first_tile = (row - first_row) * plan.tile_cols;
                scatter_tiles(stage_a, tiles, first_tile, m, (y1 - y0, ow), band);
                if !band.iter().fold(true, |all, v| all & v.is_finite()) {
                    finite = false;
                }
                if let Some((e, shortcut)) = fused {
                    let shortcut = shortcut.map(|s| &s[band_start..][..band.len()]);
                    e.apply_at(channel, band, shortcut);
                }
                row = band_end;
            }
        }
        finite
    }
}

/// `c = a · b` for row-major `a` (`rows × inner`), `b` (`inner × cols`)
/// and `c` (`rows × cols`), on the GEMM (the one call of this module).
fn product(a: &[f32], b: &[f32], c: &mut [f32], (rows, inner, cols): (usize, usize, usize)) {
    if a.len() != rows * inner || b.len() != inner * cols || c.len() != rows * cols {
        // Unreachable (the callers slice the operands to these sizes); NaN
        // sums would send the convolution to the direct path.
        c.fill(f32::NAN);
        return;
    }
    // SAFETY: `a` holds rows × inner, `b` inner × cols and `c` rows × cols
    // values (checked above), each row-major; `c` is borrowed mutably, apart
    // from the other two.
    unsafe {
        f32::gemm(
            (rows, inner, cols),
            (a.as_ptr(), inner as isize, 1),
            (b.as_ptr(), cols as isize, 1),
            0.0,
            (c.as_mut_ptr(), cols as isize),
        );
    }
}

/// Copies the `t × t` input patch of each tile of tile rows `first_row..
/// first_row + rows` (of all images) of channel `c` of group `group` into
/// `patches` (`[ξ][tile]`), zeros outside the input. `line` holds one
/// zero-padded input row (`(tile_cols + 1)·m`), then its `m` phases.
fn gather_patches(
    x: &[f32],
    g: &Geometry,
    plan: &Plan,
    (group, c, first_row, rows): (usize, usize, usize, usize),
    patches: &mut [f32],
    line: &mut [f32],
) {
    let (m, t) = (plan.tile.m(), plan.tile.t());
    let tiles = rows * plan.tile_cols;
    let cols = plan.tile_cols;
    let (line, phases) = line.split_at_mut((cols + 1) * m);
    let [_, ih, iw] = g.input;
    let (pt, pl) = (g.pad_begin[1], g.pad_begin[2]);
    let p_in = g.input_size();
    for r in 0..rows {
        let tile_row = first_row + r;
        let (image, ti) = (tile_row / plan.tile_rows, tile_row % plan.tile_rows);
        let src = &x[((image * g.groups + group) * g.cin + c) * p_in..][..p_in];
        for a in 0..t {
            let iy = (ti * m + a) as i64 - pt;
            // line[k] is input column k - pl (zero outside).
            line.fill(0.0);
            if (0..ih as i64).contains(&iy) {
                let input = &src[iy as usize * iw..][..iw];
                // Line positions lo..hi hold input columns lo - pl..hi - pl.
                let lo = pl.clamp(0, line.len() as i64) as usize;
                let hi = (pl + iw as i64).clamp(0, line.len() as i64) as usize;
                if lo < hi {
                    let from = (lo as i64 - pl) as usize;
                    line[lo..hi].copy_from_slice(&input[from..from + (hi - lo)]);
                }
            }
            // Phase q holds line[k·m + q]: tile tj's column b is phase b % m
            // at tj + b / m, so each patch row is one copy.
            for (k, chunk) in line.chunks_exact(m).enumerate() {
                for (q, &v) in chunk.iter().enumerate() {
                    phases[q * (cols + 1) + k] = v;
                }
            }
            for b in 0..t {
                let dst = &mut patches[(a * t + b) * tiles + r * cols..][..cols];
                dst.copy_from_slice(&phases[(b % m) * (cols + 1) + b / m..][..cols]);
            }
        }
    }
}

/// Applies the 1-D transform `f` (a column or row of a tile: `I` values
/// in, `O` out) along the columns, then the rows, of every tile: tile value
/// `(k, c)` of tile `p` is `src[src_at.0 + (k·I + c)·src_at.1 + p]`, result
/// `(i, j)` goes to `dst[dst_at.0 + (i·O + j)·dst_at.1 + p]`; `stage` holds
/// `I·O` rows of `n` in between. Blocks of 16 tiles, a lane each, so the
/// compiler vectorizes across tiles.
#[inline(always)]
fn two_passes<const I: usize, const O: usize>(
    (src, src_at): (&[f32], (usize, usize)),
    stage: &mut [f32],
    (dst, dst_at): (&mut [f32], (usize, usize)),
    n: usize,
    f: impl Fn([f32; I]) -> [f32; O] + Copy,
) {
    for c in 0..I {
        let rows: [&[f32]; I] =
            std::array::from_fn(|k| &src[src_at.0 + (k * I + c) * src_at.1..][..n]);
        pass(rows, stage, (c * O * n, n), n, f);
    }
    for i in 0..O {
        let rows: [&[f32]; I] = std::array::from_fn(|c| &stage[(c * O + i) * n..][..n]);
        pass(rows, dst, (dst_at.0 + i * O * dst_at.1, dst_at.1), n, f);
    }
}

/// `dst` rows `first + j·stride` (`j < O`, `n` long) = `f` of the `I` rows
/// `src`, element by element.
#[inline(always)]
fn pass<const I: usize, const O: usize>(
    src: [&[f32]; I],
    dst: &mut [f32],
    (first, stride): (usize, usize),
    n: usize,
    f: impl Fn([f32; I]) -> [f32; O],
) {
    const LANES: usize = 16;
    let whole = n - n % LANES;
    for p0 in (0..whole).step_by(LANES) {
        let d: [&[f32; LANES]; I] = std::array::from_fn(|k| {
            <&[f32; LANES]>::try_from(&src[k][p0..p0 + LANES]).unwrap_or(&[0.0; LANES])
        });
        let mut o = [[0f32; LANES]; O];
        for l in 0..LANES {
            let r = f(std::array::from_fn(|k| d[k][l]));
            for j in 0..O {
                o[j][l] = r[j];
            }
        }
        for (j, values) in o.iter().enumerate() {
            dst[first + j * stride + p0..][..LANES].copy_from_slice(values);
        }
    }
    for p in whole..n {
        let r = f(std::array::from_fn(|k| src[k][p]));
        for (j, &v) in r.iter().enumerate() {
            dst[first + j * stride + p] = v;
        }
    }
}

/// `Bᵀ d` for F(2, 3).
#[inline(always)]
fn bt2([d0, d1, d2, d3]: [f32; 4]) -> [f32; 4] {
    [d0 - d2, d1 + d2, d2 - d1, d1 - d3]
}

/// `Aᵀ m` for F(2, 3).
#[inline(always)]
fn at2([m0, m1, m2, m3]: [f32; 4]) -> [f32; 2] {
    [m0 + m1 + m2, m1 - m2 - m3]
}

/// `Bᵀ d` for F(4, 3).
#[inline(always)]
fn bt4([d0, d1, d2, d3, d4, d5]: [f32; 6]) -> [f32; 6] {
    [
        d0 - 1.5 * d1 - 2.0 * d2 + 1.5 * d3 + d4,
        -d1 + 0.5 * d2 + 2.5 * d3 + d4,
        d1 - 2.5 * d2 + 0.5 * d3 + d4,
        -2.0 * d1 - d2 + 2.0 * d3 + d4,
        0.5 * d1 - d2 - 0.5 * d3 + d4,
        d1 - 1.5 * d2 - 2.0 * d3 + 1.5 * d4 + d5,
    ]
}

/// `Aᵀ m` for F(4, 3).
#[inline(always)]
fn at4([m0, m1, m2, m3, m4, m5]: [f32; 6]) -> [f32; 4] {
    [
        m0 + m1 + m2 + m3 + m4,
        m1 - m2 + 0.5 * m3 - 2.0 * m4,
        m1 + m2 + 0.25 * m3 + 4.0 * m4,
        m1 - m2 + 0.125 * m3 - 8.0 * m4 + m5,
    ]
}

/// Where a transform reads or writes: a buffer, the offset of row 0 and
/// the distance between rows.
type Rows<'a, S> = (S, (usize, usize));

/// Which of a tile's two transforms [`transform`] runs.
#[derive(Clone, Copy)]
enum Transform {
    /// `Bᵀ d B` of an input patch: `t × t` values from `t × t`.
    Input,
    /// `Aᵀ M A` of the products: `m × m` outputs from `t × t`.
    Output,
}

/// `transform` of `n` tiles (`[ξ]` rows of `src`), into the rows of `dst`.
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512cd+avx512dq+avx512vl",
    "x86_64+avx2+fma",
))]
fn transform(
    transform: Transform,
    tile: Tile,
    src: Rows<'_, &[f32]>,
    stage: &mut [f32],
    dst: Rows<'_, &mut [f32]>,
    n: usize,
) {
    match (transform, tile) {
        (Transform::Input, Tile::F2) => two_passes(src, stage, dst, n, bt2),
        (Transform::Input, Tile::F4) => two_passes(src, stage, dst, n, bt4),
        (Transform::Output, Tile::F2) => two_passes(src, stage, dst, n, at2),
        (Transform::Output, Tile::F4) => two_passes(src, stage, dst, n, at4),
    }
}

/// Writes the `m × m` outputs of tiles `first_tile..` of `values`
/// (`[i·m + j][tile]`, `tiles` apart) into `band` (`rows × width`, one
/// image's rows of one channel), cutting the tiles at the band's bottom and
/// right edges.
fn scatter_tiles(
    values: &[f32],
    tiles: usize,
    first_tile: usize,
    m: usize,
    rows_width: (usize, usize),
    band: &mut [f32],
) {
    if m == 2 {
        scatter::<2>(values, tiles, first_tile, rows_width, band);
    } else {
        scatter::<4>(values, tiles, first_tile, rows_width, band);
    }
}

/// [`scatter_tiles`] for `M × M` tiles: each output row interleaves `M`
/// rows of `values`.
fn scatter<const M: usize>(
    values: &[f32],
    tiles: usize,
    first_tile: usize,
    (rows, width): (usize, usize),
    band: &mut [f32],
) {
    let cols = width.div_ceil(M);
    let whole = width / M;
    for y in 0..rows {
        let (tile_row, i) = (y / M, y % M);
        let first = first_tile + tile_row * cols;
        let srcs: [&[f32]; M] =
            std::array::from_fn(|j| &values[(i * M + j) * tiles + first..][..cols]);
        let out_row = &mut band[y * width..][..width];
        for (tj, out) in out_row.chunks_exact_mut(M).enumerate() {
            for (j, o) in out.iter_mut().enumerate() {
                *o = srcs[j][tj];
            }
        }
        // The last tile, cut by the plane's right edge.
        for (x, o) in out_row.iter_mut().enumerate().skip(whole * M) {
            *o = srcs[x % M][whole];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fusion::{Activation, Side};

    /// Deterministic values of mixed sign and magnitude (1e-2 to 1e2).
    fn values(count: usize, seed: u64) -> Vec<f32> {
        let mut state = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (0..count)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let unit = (state >> 40) as f64 / (1u64 << 24) as f64;
                let sign = if state & 1 == 0 { 1.0 } else { -1.0 };
                let scale = 10f64.powf(((state >> 8) % 5) as f64 - 2.0);
                (sign * unit * scale) as f32
            })
            .collect()
    }

    /// The geometry of a 3x3 stride-1 convolution of `h × w` planes padded
    /// by `(top, left, bottom, right)`.
    fn geometry(
        (batch, groups, cin, cout): (usize, usize, usize, usize),
        (h, w): (usize, usize),
        (top, left, bottom, right): (i64, i64, i64, i64),
    ) -> Geometry {
        let oh = (h as i64 + top + bottom - 2) as usize;
        let ow = (w as i64 + left + right - 2) as usize;
        Geometry {
            batch,
            groups,
            cin,
            cout,
            input: [1, h, w],
            kernel: [1, 3, 3],
            output: [1, oh, ow],
            stride: [1; 3],
            dilation: [1; 3],
            pad_begin: [0, top, left],
        }
    }

    /// The convolution summed directly in f64.
    fn direct(x: &[f32], w: &[f32], g: &Geometry) -> Vec<f64> {
        let ([_, ih, iw], [_, oh, ow]) = (g.input, g.output);
        let (pt, pl) = (g.pad_begin[1], g.pad_begin[2]);
        let mut out = vec![0f64; g.batch * g.groups * g.cout * oh * ow];
        for n in 0..g.batch {
            for group in 0..g.groups {
                for co in 0..g.cout {
                    for oy in 0..oh {
                        for ox in 0..ow {
                            let mut sum = 0f64;
                            for c in 0..g.cin {
                                let plane = ((n * g.groups + group) * g.cin + c) * ih * iw;
                                let filter = ((group * g.cout + co) * g.cin + c) * 9;
                                for ky in 0..3 {
                                    for kx in 0..3 {
                                        let iy = (oy + ky) as i64 - pt;
                                        let ix = (ox + kx) as i64 - pl;
                                        if (0..ih as i64).contains(&iy)
                                            && (0..iw as i64).contains(&ix)
                                        {
                                            let v = x[plane + iy as usize * iw + ix as usize];
                                            sum +=
                                                f64::from(v) * f64::from(w[filter + ky * 3 + kx]);
                                        }
                                    }
                                }
                            }
                            out[((n * g.groups + group) * g.cout + co) * oh * ow + oy * ow + ox] =
                                sum;
                        }
                    }
                }
            }
        }
        out
    }

    /// The largest difference of `ours` from `exact`, relative to the
    /// largest exact value.
    fn worst(ours: &[f32], exact: &[f64]) -> f64 {
        let scale = exact
            .iter()
            .fold(0f64, |a, &v| a.max(v.abs()))
            .max(f64::MIN_POSITIVE);
        ours.iter()
            .zip(exact)
            .map(|(&a, &b)| (f64::from(a) - b).abs() / scale)
            .fold(0.0, f64::max)
    }

    /// Winograd by `tile` on `threads` threads against the f64 sum.
    fn error_of(g: &Geometry, tile: Tile, threads: usize, seed: u64) -> f64 {
        let x = values(g.batch * g.groups * g.cin * g.input_size(), seed);
        let w = values(g.groups * g.cout * g.cin * 9, seed + 1);
        let u = transform_filters(&w, g, tile);
        let mut out = vec![f32::NAN; g.batch * g.groups * g.cout * g.output_size()];
        let finite = crate::gemm::test_pool(threads)
            .install(|| convolve(&x, &u, g, tile, &mut out, None))
            .expect("the geometry holds");
        assert!(finite);
        worst(&out, &direct(&x, &w, g))
    }

    /// Odd planes (not multiples of the tile, 1x1 and 2x2 outputs), pads 0
    /// to 2 and uneven, groups, batch 2, up to 600 input channels.
    /// (batch, groups, C_in, C_out), input plane, pads (top, left, bottom, right).
    type Case = (
        (usize, usize, usize, usize),
        (usize, usize),
        (i64, i64, i64, i64),
    );

    const SHAPES: &[Case] = &[
        ((1, 1, 16, 16), (7, 9), (1, 1, 1, 1)),
        ((2, 1, 5, 3), (11, 6), (0, 2, 1, 0)),
        ((1, 1, 4, 24), (1, 1), (1, 1, 1, 1)),
        ((1, 1, 8, 8), (2, 2), (1, 1, 1, 1)),
        ((2, 1, 3, 40), (4, 4), (0, 0, 0, 0)),
        ((1, 2, 6, 10), (9, 13), (2, 1, 0, 2)),
        ((1, 1, 600, 24), (5, 7), (1, 1, 1, 1)),
        ((2, 1, 64, 72), (13, 10), (1, 0, 2, 1)),
    ];

    #[test]
    fn the_written_out_transforms_are_the_matrices() {
        fn check<const I: usize, const O: usize>(f: fn([f32; I]) -> [f32; O], matrix: &[f32]) {
            for k in 0..I {
                let column = f(std::array::from_fn(|i| if i == k { 1.0 } else { 0.0 }));
                for (i, &v) in column.iter().enumerate() {
                    assert_eq!(v, matrix[i * I + k], "row {i}, column {k}");
                }
            }
        }
        check(bt2, Tile::F2.input_matrix());
        check(at2, Tile::F2.output_matrix());
        check(bt4, Tile::F4.input_matrix());
        check(at4, Tile::F4.output_matrix());
    }

    #[test]
    fn the_matrices_compute_the_correlation() {
        // Aᵀ [(G g) ⊙ (Bᵀ d)] = (Σ_k g_k d_{i+k})_i for unit g and d, in f64.
        for tile in [Tile::F2, Tile::F4] {
            let (m, t) = (tile.m(), tile.t());
            let (at, gm, bt) = (
                tile.output_matrix(),
                tile.filter_matrix(),
                tile.input_matrix(),
            );
            for k in 0..3 {
                for j in 0..t {
                    for i in 0..m {
                        let sum: f64 = (0..t)
                            .map(|x| {
                                f64::from(at[i * t + x]) * gm[x * 3 + k] * f64::from(bt[x * t + j])
                            })
                            .sum();
                        let exact = if j == i + k { 1.0 } else { 0.0 };
                        assert!(
                            (sum - exact).abs() < 1e-12,
                            "{tile:?} i {i} k {k} j {j}: {sum}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn both_tiles_match_the_direct_sum_on_odd_shapes() {
        for (i, &(channels, plane, pads)) in SHAPES.iter().enumerate() {
            let g = geometry(channels, plane, pads);
            for tile in [Tile::F2, Tile::F4] {
                for threads in [1, 2] {
                    let error = error_of(&g, tile, threads, i as u64);
                    // F(4)'s coefficients (8 and 1/24) cost about an order of
                    // magnitude of rounding over F(2)'s.
                    let bound = if tile == Tile::F2 { 1e-6 } else { 1e-5 };
                    assert!(
                        error < bound,
                        "{tile:?}, {channels:?} {plane:?} pads {pads:?}, {threads} threads: {error:e}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_rule_takes_the_larger_tile_on_the_larger_planes() {
        let plane = |(batch, cin, cout): (usize, usize, usize), hw: usize| {
            choose(&geometry((batch, 1, cin, cout), (hw, hw), (1, 1, 1, 1)))
        };
        // ResNet's stages at batch 1: 56x56, 28x28, 14x14, 7x7.
        assert_eq!(plane((1, 64, 64), 56), Some(Tile::F4));
        assert_eq!(plane((1, 128, 128), 28), Some(Tile::F2));
        assert_eq!(plane((1, 256, 256), 14), None);
        assert_eq!(plane((1, 512, 512), 7), None);
        // The tiles of a batch count together; few channels stay direct.
        assert_eq!(plane((4, 128, 128), 28), Some(Tile::F4));
        assert_eq!(plane((4, 256, 256), 14), Some(Tile::F2));
        assert_eq!(plane((1, 8, 64), 56), None);
        // Thresholds: 40x40 has 100 F(4) tiles, 19x19 100 F(2) tiles.
        assert_eq!(plane((1, 32, 32), 40), Some(Tile::F4));
        assert_eq!(plane((1, 32, 32), 36), Some(Tile::F2));
        assert_eq!(plane((1, 32, 32), 19), Some(Tile::F2));
        assert_eq!(plane((1, 32, 32), 18), None);
    }

    #[test]
    fn the_epilogue_runs_on_every_output() {
        let g = geometry((2, 1, 20, 36), (10, 11), (1, 1, 1, 1));
        let x = values(g.batch * g.cin * g.input_size(), 7);
        let w = values(g.cout * g.cin * 9, 8);
        let bias = values(g.cout, 9);
        let shortcut = values(g.batch * g.cout * g.output_size(), 10);
        for residual in [None, Some(Side::Left), Some(Side::Right)] {
            let epilogue = Epilogue {
                bias: Some(bias.clone()),
                shortcut: residual,
                activation: Activation::Relu,
            };
            let added = residual.map(|_| shortcut.as_slice());
            for tile in [Tile::F2, Tile::F4] {
                let u = transform_filters(&w, &g, tile);
                let mut plain = vec![0f32; g.batch * g.cout * g.output_size()];
                let mut fused = vec![0f32; plain.len()];
                crate::gemm::test_pool(2).install(|| {
                    convolve(&x, &u, &g, tile, &mut plain, None).expect("plain");
                    convolve(&x, &u, &g, tile, &mut fused, Some((&epilogue, added)))
                        .expect("fused");
                });
                let plane = g.output_size();
                for (i, (&p, &f)) in plain.iter().zip(&fused).enumerate() {
                    let biased = p + bias[(i / plane) % g.cout];
                    let summed = match residual {
                        None => biased,
                        Some(Side::Left) => shortcut[i] + biased,
                        Some(Side::Right) => biased + shortcut[i],
                    };
                    let expected = summed.max(0.0);
                    assert_eq!(
                        f.to_bits(),
                        expected.to_bits(),
                        "{tile:?} {residual:?} output {i}"
                    );
                }
            }
        }
    }

    fn tensor(shape: Vec<usize>, values: Vec<f32>) -> Tensor {
        Tensor::from_vec(shape, values).expect("a tensor")
    }

    #[test]
    fn values_that_are_not_finite_fall_back_to_the_direct_path() {
        let g = geometry((1, 1, 16, 16), (24, 24), (1, 1, 1, 1));
        assert_eq!(choose(&g), Some(Tile::F2), "the rule takes this layer");
        let shape = vec![1, 16, 24, 24];
        let out_shape = vec![1, 16, 24, 24];
        let weights = tensor(vec![16, 16, 3, 3], values(16 * 16 * 9, 3));
        for bad in [f32::INFINITY, f32::NEG_INFINITY, f32::NAN] {
            let mut x = values(16 * 576, 4);
            x[5 * 576 + 37] = bad;
            let x = tensor(shape.clone(), x);
            let out = run(&x, &weights, &out_shape, &g, None, None).expect("runs");
            assert!(out.is_none(), "{bad} in the data");
            let mut w = values(16 * 16 * 9, 5);
            w[100] = bad;
            let w = tensor(vec![16, 16, 3, 3], w);
            let x = tensor(shape.clone(), values(16 * 576, 4));
            let out = run(&x, &w, &out_shape, &g, None, None).expect("runs");
            assert!(out.is_none(), "{bad} in the filters");
        }
        // Sums that overflow f32 in the transform's intermediates.
        let huge = tensor(shape.clone(), vec![3e37; 16 * 576]);
        let out = run(&huge, &weights, &out_shape, &g, None, None).expect("runs");
        assert!(out.is_none(), "overflowing sums");
        // And finite ones run.
        let x = tensor(shape, values(16 * 576, 4));
        let out = run(&x, &weights, &out_shape, &g, None, None).expect("runs");
        assert!(out.is_some());
    }

    #[test]
    fn a_prepared_slot_transforms_once_per_tile() {
        let g = geometry((1, 1, 24, 16), (6, 6), (1, 1, 1, 1));
        let w = tensor(vec![16, 24, 3, 3], values(16 * 24 * 9, 11));
        let slot = Prepared::default();
        assert_eq!((slot.transforms(), slot.bytes()), (0, 0));
        let first = slot.filters(&w, &g, Tile::F4).expect("transforms");
        let first = first.expect("finite").as_ptr();
        let second = slot.filters(&w, &g, Tile::F4).expect("transforms");
        assert_eq!(second.expect("finite").as_ptr(), first, "kept");
        assert_eq!(slot.transforms(), 1);
        let filters = elements::<f32>(&w).expect("f32");
        let expected = transform_filters(&filters, &g, Tile::F4);
        assert_eq!(
            slot.filters(&w, &g, Tile::F4).expect("kept"),
            Some(&expected[..])
        );
        // The other tile has its own slot.
        let f2 = slot.filters(&w, &g, Tile::F2).expect("transforms");
        assert_eq!(f2.expect("finite").len(), 16 * 16 * 24);
        assert_eq!(slot.transforms(), 2);
        assert_eq!(slot.bytes(), (36 + 16) * 16 * 24 * 4);
        // Filters that are not finite: kept as "none", never transformed again.
        let mut bad = values(16 * 24 * 9, 12);
        bad[7] = f32::NAN;
        let bad = tensor(vec![16, 24, 3, 3], bad);
        let slot = Prepared::default();
        for _ in 0..2 {
            assert_eq!(slot.filters(&bad, &g, Tile::F2).expect("checked"), None);
        }
        assert_eq!((slot.transforms(), slot.bytes()), (1, 0));
    }

    /// The worst error of each path against the f64 sum, by input channels
    /// (`docs/performance.md`, "Winograd for 3x3 convolutions"): on
    /// [`values`] relative to the largest output, and on normal inputs with
    /// filters 0.05·N(0,1) relative to `max(1, |exact|)` per output (as the
    /// conformance tests measure). Run with `cargo test -p executor --lib --
    /// --ignored --nocapture error_by_channels`.
    #[test]
    #[ignore = "a measurement: prints a table"]
    fn error_by_channels() {
        // Box-Muller on `values`' magnitudes' uniform parts.
        let normals = |count: usize, seed: u64, scale: f64| -> Vec<f32> {
            let u: Vec<f64> = values(2 * count, seed)
                .iter()
                .map(|&v| {
                    let v = f64::from(v.abs());
                    (v / 10f64.powf(v.log10().floor())).fract().max(1e-9)
                })
                .collect();
            u.chunks_exact(2)
                .map(|p| {
                    let r = (-2.0 * p[0].ln()).sqrt();
                    (scale * r * (std::f64::consts::TAU * p[1]).cos()) as f32
                })
                .collect()
        };
        let per_output = |ours: &[f32], exact: &[f64]| {
            ours.iter()
                .zip(exact)
                .map(|(&a, &b)| (f64::from(a) - b).abs() / b.abs().max(1.0))
                .fold(0.0, f64::max)
        };
        println!("C_in | direct | F(2x2) | F(4x4)");
        for cin in [64, 128, 256, 512] {
            let mut worst_of = [(0f64, 0f64); 3];
            let g = geometry((1, 1, cin, 32), (12, 12), (1, 1, 1, 1));
            for seed in 0..4 {
                for normal in [false, true] {
                    let (x, w) = if normal {
                        (
                            normals(cin * g.input_size(), 100 + 2 * seed, 1.0),
                            normals(32 * cin * 9, 101 + 2 * seed, 0.05),
                        )
                    } else {
                        (
                            values(cin * g.input_size(), 100 + 2 * seed),
                            values(32 * cin * 9, 101 + 2 * seed),
                        )
                    };
                    let exact = direct(&x, &w, &g);
                    let mut out = vec![0f32; 32 * g.output_size()];
                    let mut record = |k: usize, out: &[f32]| {
                        let (a, b) = &mut worst_of[k];
                        if normal {
                            *b = b.max(per_output(out, &exact));
                        } else {
                            *a = a.max(worst(out, &exact));
                        }
                    };
                    crate::kernels::convolution::compute_fused(&x, &w, &g, &mut out, None, None)
                        .expect("direct");
                    record(0, &out);
                    for (k, tile) in [(1, Tile::F2), (2, Tile::F4)] {
                        let u = transform_filters(&w, &g, tile);
                        assert!(convolve(&x, &u, &g, tile, &mut out, None).expect("runs"));
                        record(k, &out);
                    }
                }
            }
            let cells: Vec<String> = worst_of
                .iter()
                .map(|(a, b)| format!("{a:.1e} ({b:.1e})"))
                .collect();
            println!("{cin} | {}", cells.join(" | "));
        }
    }
}
