//! Convolution-1 and GroupConvolution-1.
//!
//! Each (image, group) is one GEMM: the filters `[C_out/G, C_in/G·K]` times
//! the im2col matrix `[C_in/G·K, O]` of the image's input windows, built in
//! tiles of output positions so the scratch stays a few MiB. A 1×1
//! convolution with stride 1 and no pads needs no im2col (the input is the
//! matrix); a depthwise convolution (one input and one output channel per
//! group) runs a direct loop per channel plane, in parallel
//! (`depthwise.rs`). The pads come from `shape_infer::window`, the output
//! shape from inference.
//!
//! f32 and f64 compute in their own type (the GEMM accumulates in it, as
//! OpenVINO's CPU plugin does in f32); f16 and bf16 compute in f32.

use std::borrow::Cow;

use half::{bf16, f16};
use ir::ElementType;
use rayon::prelude::*;
use shape_infer::window::{self, WindowAttrs, WindowKind};

use super::winograd::Prepared;
use super::{unsupported, Call, KResult};
use crate::error::KernelError;
use crate::fusion::Epilogue;
use crate::gemm::{self, Columns, Mat, Scalar};
use crate::tensor::{byte_size, check_scratch, Element, Tensor};

/// Convolution-1: filters `[C_out, C_in, K…]`.
pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    forward(call, false, None, None, None)
}

/// GroupConvolution-1: filters `[G, C_out/G, C_in/G, K…]`.
pub(crate) fn run_group(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    forward(call, true, None, None, None)
}

/// A Convolution or GroupConvolution whose weights are constant, with the
/// node's slot for its Winograd filters (`winograd::Prepared`).
pub(crate) fn run_prepared(call: &Call<'_>, prepared: &Prepared) -> KResult<Vec<Tensor>> {
    let grouped = call.node.op_type.name == "GroupConvolution";
    forward(call, grouped, None, None, Some(prepared))
}

/// An f32 Convolution or GroupConvolution whose bias Add, residual Add and
/// activation are fused into it (`crate::fusion`): `epilogue` runs on each
/// output tile right after its sums, adding `shortcut` (a tensor of the
/// output's shape) when it has a residual Add; `prepared` is the node's
/// slot for its Winograd filters when its weights are constant.
pub(crate) fn run_fused(
    call: &Call<'_>,
    epilogue: &Epilogue<f32>,
    shortcut: Option<&Tensor>,
    prepared: Option<&Prepared>,
) -> KResult<Vec<Tensor>> {
    let grouped = call.node.op_type.name == "GroupConvolution";
    forward(call, grouped, Some(epilogue), shortcut, prepared)
}

/// Up to three spatial axes, leading axes of size 1 added for 1-D and 2-D.
pub(crate) type Axes3 = [usize; 3];

/// The geometry of one convolution (forward or transposed), spatial axes
/// padded to three.
#[derive(Debug, Clone)]
pub(crate) struct Geometry {
    pub batch: usize,
    pub groups: usize,
    /// Channels per group of the data input.
    pub cin: usize,
    /// Channels per group of the output.
    pub cout: usize,
    pub input: Axes3,
    pub kernel: Axes3,
    pub output: Axes3,
    pub stride: Axes3,
    pub dilation: Axes3,
    pub pad_begin: [i64; 3],
}

impl Geometry {
    pub fn input_size(&self) -> usize {
        self.input.iter().product()
    }
    pub fn output_size(&self) -> usize {
        self.output.iter().product()
    }
    pub fn kernel_size(&self) -> usize {
        self.kernel.iter().product()
    }

    /// For every output row of a plane and every kernel tap (in window
    /// order), calls `f(tap, out, input, stride, run)`: outputs `out..out +
    /// run` of the plane read the plane's inputs `input, input + stride, …`
    /// under tap `tap` (row-major over the kernel). Only reads inside the
    /// input are given, so padding is skipped. Pooling and the depthwise
    /// fallback walk a window with it.
    pub fn for_each_run(&self, mut f: impl FnMut(usize, usize, usize, usize, usize)) {
        let [od, oh, ow] = self.output;
        let [_, ih, iw] = self.input;
        let [kd, kh, kw] = self.kernel;
        for z in 0..od {
            for y in 0..oh {
                let row_out = (z * oh + y) * ow;
                for tz in 0..kd {
                    let Some(iz) = Axis::new(self, 0, tz).at(z) else {
                        continue;
                    };
                    for ty in 0..kh {
                        let Some(iy) = Axis::new(self, 1, ty).at(y) else {
                            continue;
                        };
                        let row_in = (iz * ih + iy) * iw;
                        for tx in 0..kw {
                            let ax = Axis::new(self, 2, tx);
                            let (lo, hi) = ax.inside(0, ow);
                            if lo < hi {
                                let start = ((lo * ax.stride) as i64 + ax.offset) as usize;
                                let tap = (tz * kh + ty) * kw + tx;
                                f(tap, row_out + lo, row_in + start, ax.stride, hi - lo);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// `values` (one per spatial axis) padded at the front with `fill` to three.
pub(crate) fn pad3<T: Copy>(values: &[T], fill: T) -> KResult<[T; 3]> {
    if values.is_empty() || values.len() > 3 {
        return Err(format!("{} spatial dims (1 to 3 are supported)", values.len()).into());
    }
    let mut out = [fill; 3];
    out[3 - values.len()..].copy_from_slice(values);
    Ok(out)
}

/// Positive attribute values as sizes.
pub(crate) fn sizes(values: &[i64]) -> KResult<Vec<usize>> {
    values
        .iter()
        .map(|&v| usize::try_from(v).map_err(|_| KernelError::from(format!("{v} is not a size"))))
        .collect()
}

fn forward(
    call: &Call<'_>,
    grouped: bool,
    epilogue: Option<&Epilogue<f32>>,
    shortcut: Option<&Tensor>,
    prepared: Option<&Prepared>,
) -> KResult<Vec<Tensor>> {
    let Operands {
        x,
        w,
        out_shape,
        spatial,
        lead,
        groups,
        first: cout,
        second: cin,
    } = Operands::read(call, grouped, false)?;
    let attrs = WindowAttrs::read(call.node, spatial, WindowKind::Convolution)
        .map_err(|e| e.to_string())?;
    let kernel = &w.shape[lead..];
    let pads =
        window::concrete_forward_pads(&attrs, &x.shape[2..], kernel).map_err(|e| e.to_string())?;
    let pad_begin: Vec<i64> = pads.iter().map(|p| p.0).collect();
    let geometry = Geometry::new(
        &x.shape,
        &out_shape,
        kernel,
        (groups, cin, cout),
        &attrs,
        &pad_begin,
    )?;
    let shortcut = match shortcut {
        Some(s) if s.element_type != ElementType::F32 || s.shape != out_shape => {
            return Err(format!(
                "internal: the fused shortcut is {} {:?}, the output f32 {out_shape:?}",
                s.element_type, s.shape
            )
            .into())
        }
        Some(s) => Some(elements::<f32>(s)?),
        None => None,
    };
    let fused = epilogue.map(|e| (e, shortcut.as_deref()));
    if let Some(out) = super::winograd::run(x, w, &out_shape, &geometry, fused, prepared)? {
        return Ok(vec![out]);
    }
    if let Some(epilogue) = epilogue {
        if x.element_type != ElementType::F32 {
            return Err("internal: a fused convolution computes in f32 only".into());
        }
        let (x, w) = (elements(x)?, elements(w)?);
        let out = Tensor::computed(out_shape, |out| {
            compute_fused(&x, &w, &geometry, out, Some(epilogue), shortcut.as_deref())
        })?;
        return Ok(vec![out]);
    }
    if x.element_type.is_integral() {
        return Ok(vec![in_integers(x, w, out_shape, &geometry)?]);
    }
    let out = in_float_type(
        "Convolution",
        x,
        w,
        out_shape,
        &geometry,
        compute::<f32>,
        compute::<f64>,
    )?;
    Ok(vec![out])
}

/// An integer convolution as OpenVINO's CPU plugin computes one: the
/// operands as f32 (rounded to nearest), multiplied and summed in f32, the
/// sums saturated to i32 (above at the largest f32 below 2³¹, 2147483520),
/// then converted to the output type: i8 and u8 saturating, i16, u16 and
/// u32 wrapping, i64 and u64 sign-extending. (Observed on OpenVINO 2026.4's
/// plugin: goldens `convolution_integer_*`.)
fn in_integers(x: &Tensor, w: &Tensor, out_shape: Vec<usize>, g: &Geometry) -> KResult<Tensor> {
    let count = byte_size(ElementType::F32, &out_shape)? / 4;
    let mut sums = vec![0f32; count];
    compute::<f32>(&integers_as_f32(x)?, &integers_as_f32(w)?, g, &mut sums)?;
    // Saturation to i32 in f32: 2147483520 is the largest f32 below 2^31.
    let ints = sums
        .iter()
        .map(|&v| v.clamp(-2147483648.0, 2147483520.0) as i32);
    Ok(match x.element_type {
        ElementType::I8 => {
            Tensor::from_vec(out_shape, ints.map(|v| v.clamp(-128, 127) as i8).collect())?
        }
        ElementType::U8 => {
            Tensor::from_vec(out_shape, ints.map(|v| v.clamp(0, 255) as u8).collect())?
        }
        ElementType::I16 => Tensor::from_vec(out_shape, ints.map(|v| v as i16).collect())?,
        ElementType::U16 => Tensor::from_vec(out_shape, ints.map(|v| v as u16).collect())?,
        ElementType::I32 => Tensor::from_vec(out_shape, ints.collect::<Vec<i32>>())?,
        ElementType::U32 => Tensor::from_vec(out_shape, ints.map(|v| v as u32).collect())?,
        ElementType::I64 => Tensor::from_vec(out_shape, ints.map(i64::from).collect())?,
        ElementType::U64 => {
            Tensor::from_vec(out_shape, ints.map(|v| i64::from(v) as u64).collect())?
        }
        other => return Err(unsupported("Convolution", other)),
    })
}

/// An integer tensor's values as f32 (rounded to nearest).
fn integers_as_f32(t: &Tensor) -> KResult<Vec<f32>> {
    fn rounded<T: Element>(t: &Tensor, to_f32: impl Fn(T) -> f32) -> KResult<Vec<f32>> {
        Ok(t.to_vec::<T>()?.into_iter().map(to_f32).collect())
    }
    match t.element_type {
        ElementType::I8 => rounded(t, |v: i8| f32::from(v)),
        ElementType::U8 => rounded(t, |v: u8| f32::from(v)),
        ElementType::I16 => rounded(t, |v: i16| f32::from(v)),
        ElementType::U16 => rounded(t, |v: u16| f32::from(v)),
        ElementType::I32 => rounded(t, |v: i32| v as f32),
        ElementType::U32 => rounded(t, |v: u32| v as f32),
        ElementType::I64 => rounded(t, |v: i64| v as f32),
        ElementType::U64 => rounded(t, |v: u64| v as f32),
        other => Err(unsupported("Convolution", other)),
    }
}

/// The tensors and channel counts of a convolution (forward or transposed),
/// checked against each other and the inferred output.
pub(crate) struct Operands<'a> {
    pub x: &'a Tensor,
    pub w: &'a Tensor,
    pub out_shape: Vec<usize>,
    pub spatial: usize,
    /// The number of filter dims before the kernel's (2, or 3 grouped).
    pub lead: usize,
    pub groups: usize,
    /// The filter's first channel count per group (forward: `C_out/G`;
    /// transposed: `C_in/G`), then the second.
    pub first: usize,
    pub second: usize,
}

impl<'a> Operands<'a> {
    /// Reads data, filters and the output shape; `transposed` filters have
    /// their input channels first.
    pub fn read(call: &'a Call<'_>, grouped: bool, transposed: bool) -> KResult<Operands<'a>> {
        let (x, w) = (call.input(0)?, call.input(1)?);
        let out_shape = call.out_shape(0)?;
        if x.element_type != w.element_type {
            return Err(format!("data is {}, filters {}", x.element_type, w.element_type).into());
        }
        let lead = if grouped { 3 } else { 2 };
        let spatial = x.shape.len().saturating_sub(2);
        if w.shape.len() != spatial + lead || out_shape.len() != spatial + 2 {
            return Err(format!(
                "internal: data {:?}, filters {:?} and output {out_shape:?} do not agree",
                x.shape, w.shape
            )
            .into());
        }
        let (groups, first, second) = if grouped {
            (w.shape[0], w.shape[1], w.shape[2])
        } else {
            (1, w.shape[0], w.shape[1])
        };
        let (cin, cout) = if transposed {
            (first, second)
        } else {
            (second, first)
        };
        if x.shape[1] != groups * cin || out_shape[1] != groups * cout {
            return Err(format!(
                "internal: channels of {:?} and filters {:?} differ",
                x.shape, w.shape
            )
            .into());
        }
        Ok(Operands {
            x,
            w,
            out_shape,
            spatial,
            lead,
            groups,
            first,
            second,
        })
    }
}

impl Geometry {
    /// The geometry of data of `input` dims, output of `output` dims, a
    /// window of `kernel`, `(groups, cin, cout)` and the window attributes.
    pub fn new(
        input: &[usize],
        output: &[usize],
        kernel: &[usize],
        (groups, cin, cout): (usize, usize, usize),
        attrs: &WindowAttrs,
        pad_begin: &[i64],
    ) -> KResult<Geometry> {
        Ok(Geometry {
            batch: input[0],
            groups,
            cin,
            cout,
            input: pad3(&input[2..], 1)?,
            kernel: pad3(kernel, 1)?,
            output: pad3(&output[2..], 1)?,
            stride: pad3(&sizes(&attrs.strides)?, 1)?,
            dilation: pad3(&sizes(&attrs.dilations)?, 1)?,
            pad_begin: pad3(pad_begin, 0)?,
        })
    }
}

/// A convolution's computation in one float type: data, filters, geometry,
/// and the output, every element of which it writes (the buffer may hold a
/// freed intermediate's values).
pub(crate) type ConvFn<T> = fn(&[T], &[T], &Geometry, &mut [T]) -> KResult<()>;

/// A convolution's output, computed by `f32` or `f64` in the float type of
/// `x` and `w` (f16 and bf16 in f32).
pub(crate) fn in_float_type(
    what: &str,
    x: &Tensor,
    w: &Tensor,
    out_shape: Vec<usize>,
    geometry: &Geometry,
    f32: ConvFn<f32>,
    f64: ConvFn<f64>,
) -> KResult<Tensor> {
    byte_size(x.element_type, &out_shape)?;
    let et = x.element_type;
    Ok(match et {
        ElementType::F32 => {
            let (x, w) = (elements(x)?, elements(w)?);
            Tensor::computed(out_shape, |out| f32(&x, &w, geometry, out))?
        }
        ElementType::F64 => {
            let (x, w) = (elements(x)?, elements(w)?);
            Tensor::computed(out_shape, |out| f64(&x, &w, geometry, out))?
        }
        ElementType::F16 | ElementType::BF16 => {
            let mut out = vec![0f32; byte_size(ElementType::F32, &out_shape)? / 4];
            f32(&widen(x)?, &widen(w)?, geometry, &mut out)?;
            narrow(et, out_shape, &out)?
        }
        other => return Err(unsupported(what, other)),
    })
}

/// The elements of an f32 or f64 tensor: its own bytes when they are
/// aligned (Const views of the weights usually are), else a copy.
pub(crate) fn elements<T: Element + bytemuck::Pod>(t: &Tensor) -> KResult<Cow<'_, [T]>> {
    if T::TYPE != t.element_type {
        return Err(format!(
            "internal: the tensor is {}, not {}",
            t.element_type,
            T::TYPE
        )
        .into());
    }
    if cfg!(target_endian = "little") {
        if let Ok(view) = bytemuck::try_cast_slice::<u8, T>(t.bytes()) {
            return Ok(Cow::Borrowed(view));
        }
    }
    Ok(Cow::Owned(t.to_vec::<T>()?))
}

/// The elements of a numeric tensor as f32.
pub(crate) fn widen(t: &Tensor) -> KResult<Vec<f32>> {
    Ok(match t.element_type {
        ElementType::F16 => t.to_vec::<f16>()?.into_iter().map(f32::from).collect(),
        ElementType::BF16 => t.to_vec::<bf16>()?.into_iter().map(f32::from).collect(),
        ElementType::F32 => t.to_vec::<f32>()?,
        // Other numeric types (f64, integers) as f32, as OpenVINO's CPU
        // plugin computes them.
        _ => super::to_f64s(t)?.into_iter().map(|v| v as f32).collect(),
    })
}

/// f32 results as a tensor of `et` (f16 or bf16 rounded to nearest; other
/// types converted as Convert does).
pub(crate) fn narrow(et: ElementType, shape: Vec<usize>, values: &[f32]) -> KResult<Tensor> {
    if !matches!(et, ElementType::F32 | ElementType::F16 | ElementType::BF16) {
        let wide: Vec<f64> = values.iter().map(|&v| f64::from(v)).collect();
        return super::from_f64s(et, shape, &wide);
    }
    Ok(match et {
        ElementType::F16 => {
            Tensor::from_vec(shape, values.iter().map(|&v| f16::from_f32(v)).collect())?
        }
        ElementType::BF16 => {
            Tensor::from_vec(shape, values.iter().map(|&v| bf16::from_f32(v)).collect())?
        }
        _ => Tensor::from_vec(shape, values.to_vec())?,
    })
}

/// The convolution of `x` (`[N, G·cin, input…]`) with `w` (`[G, cout, cin,
/// kernel…]` in memory, grouped or not) as `[N, G·cout, output…]`.
fn compute<T: Scalar + Element + bytemuck::Pod>(
    x: &[T],
    w: &[T],
    g: &Geometry,
    out: &mut [T],
) -> KResult<()> {
    compute_fused(x, w, g, out, None, None)
}

/// [`compute`], then `epilogue` (a fused bias, residual Add and
/// activation, see `crate::fusion`) on every output value, each tile while
/// it is in cache; `shortcut` (laid out as `out`) is the residual Add's
/// other operand, given exactly when the epilogue adds one.
pub(crate) fn compute_fused<T: Scalar + Element + bytemuck::Pod>(
    x: &[T],
    w: &[T],
    g: &Geometry,
    out: &mut [T],
    epilogue: Option<&Epilogue<T>>,
    shortcut: Option<&[T]>,
) -> KResult<()> {
    let (p_in, p_out, k_size) = (g.input_size(), g.output_size(), g.kernel_size());
    let depth = g.cin * k_size;
    let planes = g.batch * g.groups * g.cout;
    if x.len() != g.batch * g.groups * g.cin * p_in
        || w.len() != g.groups * g.cout * depth
        || out.len() != planes * p_out
    {
        return Err("internal: the tensors do not hold the convolution's geometry".into());
    }
    if epilogue.is_some_and(|e| !e.fits(g.groups * g.cout)) {
        return Err("internal: the fused bias does not hold one value per channel".into());
    }
    let adds_shortcut = epilogue.is_some_and(|e| e.shortcut.is_some());
    if adds_shortcut != shortcut.is_some() || shortcut.is_some_and(|s| s.len() != out.len()) {
        return Err("internal: the fused shortcut does not match the epilogue or output".into());
    }
    if p_out == 0 || planes == 0 {
        return Ok(());
    }
    if g.cin == 1 && g.cout == 1 {
        super::depthwise::depthwise(x, w, g, out, epilogue, shortcut);
        return Ok(());
    }
    if super::conv_few_channels::run(x, w, g, out, epilogue, shortcut) {
        return Ok(());
    }
    by_gemm(x, w, g, out, epilogue, shortcut)
}

/// The convolution as one GEMM per (image, group), by blocks of output
/// positions on the threads (`gemm::matmul_by_column_blocks`): each block
/// builds its im2col columns in a buffer of its thread and runs the
/// epilogue on its tile (with the shortcut's values at the tile's
/// positions). A 1×1 convolution with stride 1 and no pads reads the input
/// in place (it is the matrix).
fn by_gemm<T: Scalar + Element + bytemuck::Pod>(
    x: &[T],
    w: &[T],
    g: &Geometry,
    out: &mut [T],
    epilogue: Option<&Epilogue<T>>,
    shortcut: Option<&[T]>,
) -> KResult<()> {
    let (p_in, p_out, k_size) = (g.input_size(), g.output_size(), g.kernel_size());
    let depth = g.cin * k_size;
    let pointwise =
        k_size == 1 && g.stride == [1; 3] && g.pad_begin == [0; 3] && g.input == g.output;
    for image in 0..g.batch {
        for group in 0..g.groups {
            let x_g = &x[(image * g.groups + group) * g.cin * p_in..][..g.cin * p_in];
            let w_g = &w[group * g.cout * depth..][..g.cout * depth];
            let plane_g = (image * g.groups + group) * g.cout * p_out;
            let out_g = &mut out[plane_g..][..g.cout * p_out];
            let shortcut_g = shortcut.map(|s| &s[plane_g..][..g.cout * p_out]);
            let fill = |first: usize, col: &mut [T]| im2col(x_g, g, first, col);
            let finish = epilogue.map(|e| {
                move |row: usize, first: usize, values: &mut [T]| {
                    let at = shortcut_g.map(|s| &s[row * p_out + first..][..values.len()]);
                    e.apply_at(group * g.cout + row, values, at)
                }
            });
            let finish = finish.as_ref().map(|f| f as gemm::Finish<'_, T>);
            let dims = (g.cout, depth, p_out);
            let weights = Mat::rows(w_g, depth);
            if pointwise {
                let columns = Columns::Matrix(Mat::rows(x_g, p_in));
                gemm::matmul_by_column_blocks(out_g, p_out, dims, weights, columns, finish)?;
            } else if gemm::cuts_rows(dims) {
                // Every block of rows needs all the columns: built once, by
                // the threads, into the run's kept scratch buffer.
                let len = depth * p_out;
                check_scratch(len, T::SIZE, "the im2col matrix of a Convolution")?;
                crate::pool::with_scratch(len, |col: &mut [T]| {
                    im2col_by_threads(x_g, g, col);
                    let columns = Columns::Matrix(Mat::rows(col, p_out));
                    gemm::matmul_by_column_blocks(out_g, p_out, dims, weights, columns, finish)
                })?;
            } else {
                let columns = Columns::Built(&fill);
                gemm::matmul_by_column_blocks(out_g, p_out, dims, weights, columns, finish)?;
            }
        }
    }
    Ok(())
}

/// Fills `col` (`cin·K` rows of `col.len() / (cin·K)`) with the input
/// values under each window position `first..` (zero in the padding): row
/// `(c, kd, kh, kw)`, column `p` is the input element that kernel tap meets
/// at output position `first + p`. Each row is written by runs of one
/// output row (`z`, `y`): zeros where the tap falls in the padding, a copy
/// (stride 1) or a strided gather of the input row in between.
fn im2col<T: Scalar>(x: &[T], g: &Geometry, first: usize, col: &mut [T]) {
    let k_size = g.kernel_size();
    let p_in = g.input_size();
    let rows = g.cin * k_size;
    if rows == 0 || col.is_empty() {
        return;
    }
    let len = col.len() / rows;
    let [_, kh, kw] = g.kernel;
    for (row, dst) in col.chunks_exact_mut(len).enumerate() {
        let (c, tap) = (row / k_size, row % k_size);
        let taps = [tap / (kh * kw), (tap / kw) % kh, tap % kw];
        fill_window_row(&x[c * p_in..(c + 1) * p_in], g, taps, first, dst);
    }
}

/// The whole im2col matrix (`cin·K` rows of every output position) in
/// blocks of rows on the threads.
fn im2col_by_threads<T: Scalar>(x: &[T], g: &Geometry, col: &mut [T]) {
    let p_out = g.output_size();
    let rows = g.cin * g.kernel_size();
    let per_task = rows.div_ceil(4 * rayon::current_num_threads()).max(1);
    col.par_chunks_mut(per_task * p_out)
        .enumerate()
        .for_each(|(i, chunk)| {
            let first_row = i * per_task;
            let count = chunk.len() / p_out;
            im2col_rows(x, g, first_row, count, chunk);
        });
}

/// Rows `first_row..first_row + count` of the im2col matrix, every
/// output position, into `col`.
fn im2col_rows<T: Scalar>(x: &[T], g: &Geometry, first_row: usize, count: usize, col: &mut [T]) {
    let (k_size, p_in, p_out) = (g.kernel_size(), g.input_size(), g.output_size());
    let [_, kh, kw] = g.kernel;
    for (row, dst) in (first_row..first_row + count).zip(col.chunks_exact_mut(p_out)) {
        let (c, tap) = (row / k_size, row % k_size);
        let taps = [tap / (kh * kw), (tap / kw) % kh, tap % kw];
        fill_window_row(&x[c * p_in..(c + 1) * p_in], g, taps, 0, dst);
    }
}

/// The input positions along one axis a kernel tap meets: output `o` reads
/// `o*s + t*d - pb`.
#[derive(Clone, Copy)]
pub(crate) struct Axis {
    pub stride: usize,
    pub offset: i64,
    pub size: usize,
}

impl Axis {
    pub fn new(g: &Geometry, axis: usize, tap: usize) -> Axis {
        Axis {
            stride: g.stride[axis],
            offset: (tap * g.dilation[axis]) as i64 - g.pad_begin[axis],
            size: g.input[axis],
        }
    }

    /// The input index output `o` reads, if inside the input.
    pub fn at(self, o: usize) -> Option<usize> {
        let i = (o * self.stride) as i64 + self.offset;
        (0..self.size as i64).contains(&i).then_some(i as usize)
    }

    /// The outputs `lo..hi` (within `from..to`) whose reads are inside.
    pub fn inside(self, from: usize, to: usize) -> (usize, usize) {
        let s = self.stride as i64;
        // o*s + offset >= 0  and  o*s + offset <= size - 1.
        let lo = (-self.offset).max(0);
        let lo = ((lo + s - 1) / s) as usize;
        let hi_read = self.size as i64 - 1 - self.offset;
        let hi = if hi_read < 0 {
            0
        } else {
            (hi_read / s + 1) as usize
        };
        (
            lo.clamp(from, to),
            hi.clamp(from, to).max(lo.clamp(from, to)),
        )
    }
}

/// `dst[q]` = the input under kernel tap `taps` at output position
/// `first + q`, for one input channel `plane`. Walks the output rows with
/// counters and takes the inside span of a whole row once: on the small
/// planes of deep layers (7 or 14 outputs a row) the divisions per row
/// cost as much as the copy.
fn fill_window_row<T: Scalar>(
    plane: &[T],
    g: &Geometry,
    taps: [usize; 3],
    first: usize,
    dst: &mut [T],
) {
    let [_, oh, ow] = g.output;
    let [_, ih, iw] = g.input;
    let (az, ay, ax) = (
        Axis::new(g, 0, taps[0]),
        Axis::new(g, 1, taps[1]),
        Axis::new(g, 2, taps[2]),
    );
    if ow == 0 || oh == 0 {
        return;
    }
    // The inside span of a whole output row, the same for every row.
    let whole = ax.inside(0, ow);
    let (zy, mut x0) = (first / ow, first % ow);
    let (mut z, mut y) = (zy / oh, zy % oh);
    let mut iz = az.at(z);
    let mut q = 0;
    while q < dst.len() {
        let run = (ow - x0).min(dst.len() - q);
        let out = &mut dst[q..q + run];
        match (iz, ay.at(y)) {
            (Some(iz), Some(iy)) => {
                let row = &plane[(iz * ih + iy) * iw..][..iw];
                let (lo, hi) = if x0 == 0 && run == ow {
                    whole
                } else {
                    ax.inside(x0, x0 + run)
                };
                out[..lo - x0].fill(T::ZERO);
                out[hi - x0..].fill(T::ZERO);
                if lo < hi {
                    let start = ((lo * ax.stride) as i64 + ax.offset) as usize;
                    let inside = &mut out[lo - x0..hi - x0];
                    if ax.stride == 1 {
                        inside.copy_from_slice(&row[start..start + (hi - lo)]);
                    } else {
                        let read = row[start..].iter().step_by(ax.stride);
                        inside.iter_mut().zip(read).for_each(|(v, &r)| *v = r);
                    }
                }
            }
            _ => out.fill(T::ZERO),
        }
        q += run;
        x0 += run;
        if x0 == ow {
            x0 = 0;
            y += 1;
            if y == oh {
                y = 0;
                z += 1;
                iz = az.at(z);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Any 2-D convolution by direct enumeration of every tap.
    fn naive(x: &[f64], w: &[f64], g: &Geometry) -> Vec<f64> {
        let [_, ih, iw] = g.input;
        let [_, kh, kw] = g.kernel;
        let [_, oh, ow] = g.output;
        let mut out = Vec::new();
        for image in 0..g.batch {
            for group in 0..g.groups {
                for o in 0..g.cout {
                    let filter = &w[(group * g.cout + o) * g.cin * kh * kw..];
                    for y in 0..oh {
                        for xo in 0..ow {
                            let mut sum = 0.0;
                            for c in 0..g.cin {
                                let plane =
                                    &x[((image * g.groups + group) * g.cin + c) * ih * iw..];
                                for t in 0..kh * kw {
                                    let iy = (y * g.stride[1] + (t / kw) * g.dilation[1]) as i64
                                        - g.pad_begin[1];
                                    let ix = (xo * g.stride[2] + (t % kw) * g.dilation[2]) as i64
                                        - g.pad_begin[2];
                                    if (0..ih as i64).contains(&iy) && (0..iw as i64).contains(&ix)
                                    {
                                        sum += filter[c * kh * kw + t]
                                            * plane[iy as usize * iw + ix as usize];
                                    }
                                }
                            }
                            out.push(sum);
                        }
                    }
                }
            }
        }
        out
    }

    #[test]
    fn blocked_gemm_convolutions_match_a_direct_loop_on_threads() {
        // (batch, groups, cin, cout, input, kernel, stride, dilation, pad
        // begin, pad end): pointwise (read in place), padded 3x3, strided
        // and dilated with uneven pads, grouped, a 7x7 stride-2 stem, a
        // narrow output with many channels (rows cut for the threads),
        // batches, and column blocks that start mid-row; odd channel counts
        // throughout.
        type Case = (
            usize,
            usize,
            usize,
            usize,
            [usize; 2],
            [usize; 2],
            [usize; 2],
            [usize; 2],
            [i64; 2],
            [i64; 2],
        );
        let cases: &[Case] = &[
            (
                1,
                1,
                19,
                33,
                [41, 43],
                [1, 1],
                [1, 1],
                [1, 1],
                [0, 0],
                [0, 0],
            ),
            (2, 1, 5, 7, [9, 13], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            (
                1,
                1,
                13,
                21,
                [37, 35],
                [3, 3],
                [2, 3],
                [2, 1],
                [2, 0],
                [1, 2],
            ),
            (1, 3, 6, 5, [23, 19], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            (
                1,
                1,
                3,
                17,
                [45, 47],
                [7, 7],
                [2, 2],
                [1, 1],
                [3, 3],
                [3, 3],
            ),
            (
                1,
                1,
                67,
                131,
                [7, 7],
                [3, 3],
                [1, 1],
                [1, 1],
                [1, 1],
                [1, 1],
            ),
            (3, 2, 4, 3, [6, 5], [2, 2], [1, 1], [1, 1], [0, 1], [1, 0]),
            (1, 1, 1, 1, [5, 5], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
            // Large enough to be cut into column blocks on two threads,
            // which start inside an output row (435 positions, 29 a row):
            // the im2col's walk from a block's first position.
            (
                1,
                1,
                16,
                40,
                [30, 29],
                [3, 3],
                [2, 1],
                [1, 1],
                [1, 1],
                [1, 1],
            ),
        ];
        let pools: Vec<rayon::ThreadPool> =
            [1, 2].iter().map(|&t| crate::gemm::test_pool(t)).collect();
        for &(batch, groups, cin, cout, input, kernel, stride, dilation, pb, pe) in cases {
            let output: [usize; 2] = std::array::from_fn(|a| {
                let span =
                    input[a] as i64 + pb[a] + pe[a] - ((kernel[a] - 1) * dilation[a]) as i64 - 1;
                (span / stride[a] as i64 + 1) as usize
            });
            let g = Geometry {
                batch,
                groups,
                cin,
                cout,
                input: [1, input[0], input[1]],
                kernel: [1, kernel[0], kernel[1]],
                output: [1, output[0], output[1]],
                stride: [1, stride[0], stride[1]],
                dilation: [1, dilation[0], dilation[1]],
                pad_begin: [0, pb[0], pb[1]],
            };
            let x: Vec<f64> = (0..batch * groups * cin * g.input_size())
                .map(|i| ((i * 37 + 11) % 23) as f64 - 11.0)
                .collect();
            let w: Vec<f64> = (0..groups * cout * cin * g.kernel_size())
                .map(|i| ((i * 7 + 3) % 5) as f64 - 2.0)
                .collect();
            let want = naive(&x, &w, &g);
            for pool in &pools {
                let mut got = vec![f64::NAN; want.len()];
                pool.install(|| compute(&x, &w, &g, &mut got)).unwrap();
                assert_eq!(got, want, "{g:?}, {} threads", pool.current_num_threads());
            }
        }
    }

    /// A 1-D convolution of one channel, `[1, 1, len]` by a kernel of
    /// `taps`, no pads: the geometry of the integer cases below.
    fn line_geometry(len: usize, taps: usize) -> Geometry {
        Geometry {
            batch: 1,
            groups: 1,
            cin: 1,
            cout: 1,
            input: [1, 1, len],
            kernel: [1, 1, taps],
            output: [1, 1, len + 1 - taps],
            stride: [1; 3],
            dilation: [1; 3],
            pad_begin: [0; 3],
        }
    }

    #[test]
    fn integer_convolutions_round_saturate_and_wrap_as_openvino_does() {
        // Values OpenVINO 2026.4's CPU plugin gave for these (a 1x2 kernel
        // of ones unless said otherwise).
        let g = line_geometry(2, 2);
        let ones = |t: ElementType| crate::kernels::from_f64s(t, vec![1, 1, 1, 2], &[1.0, 1.0]);
        let run = |x: Tensor, w: Tensor| in_integers(&x, &w, vec![1, 1, 1, 1], &g).unwrap();
        let i32s = |v: [i32; 2]| Tensor::from_vec(vec![1, 1, 1, 2], v.to_vec()).unwrap();
        // 16777217 rounds to 16777216 in f32, and 16777216 + 1 back to it.
        let out = run(i32s([16777217, 1]), ones(ElementType::I32).unwrap());
        assert_eq!(out.to_vec::<i32>().unwrap(), [16777216]);
        // Past 2^31: the largest f32 below it; below -2^31: -2^31.
        let out = run(i32s([2_000_000_000; 2]), ones(ElementType::I32).unwrap());
        assert_eq!(out.to_vec::<i32>().unwrap(), [2147483520]);
        let out = run(i32s([-2_000_000_000; 2]), ones(ElementType::I32).unwrap());
        assert_eq!(out.to_vec::<i32>().unwrap(), [i32::MIN]);
        // i8 and u8 saturate; i16 and u16 wrap.
        let i8s = Tensor::from_vec(vec![1, 1, 1, 2], vec![100i8, 100]).unwrap();
        let out = run(i8s, ones(ElementType::I8).unwrap());
        assert_eq!(out.to_vec::<i8>().unwrap(), [127]);
        let u8s = Tensor::from_vec(vec![1, 1, 1, 2], vec![200u8, 1]).unwrap();
        let w = Tensor::from_vec(vec![1, 1, 1, 2], vec![255u8, 0]).unwrap();
        assert_eq!(run(u8s, w).to_vec::<u8>().unwrap(), [255]);
        let i16s = Tensor::from_vec(vec![1, 1, 1, 2], vec![30000i16, 30000]).unwrap();
        let out = run(i16s, ones(ElementType::I16).unwrap());
        assert_eq!(out.to_vec::<i16>().unwrap(), [-5536]);
        let u16s = Tensor::from_vec(vec![1, 1, 1, 2], vec![0u16, 5]).unwrap();
        let w = Tensor::from_vec(vec![1, 1, 1, 2], vec![0u16, 65535]).unwrap();
        assert_eq!(run(u16s, w).to_vec::<u16>().unwrap(), [65531]);
        // Unsigned operands give no negative sum: u32 and u64 saturate too.
        let u32s = Tensor::from_vec(vec![1, 1, 1, 2], vec![2_000_000_000u32; 2]).unwrap();
        let out = run(u32s, ones(ElementType::U32).unwrap());
        assert_eq!(out.to_vec::<u32>().unwrap(), [2147483520]);
        let u64s = Tensor::from_vec(vec![1, 1, 1, 2], vec![3u64, 1]).unwrap();
        let w = Tensor::from_vec(vec![1, 1, 1, 2], vec![0u64, 1 << 31]).unwrap();
        assert_eq!(run(u64s, w).to_vec::<u64>().unwrap(), [2147483520]);
        let i64s = Tensor::from_vec(vec![1, 1, 1, 2], vec![-7i64, 3]).unwrap();
        let w = Tensor::from_vec(vec![1, 1, 1, 2], vec![2i64, -5]).unwrap();
        assert_eq!(run(i64s, w).to_vec::<i64>().unwrap(), [-29]);
        // Booleans are refused.
        let b = Tensor::from_vec(vec![1, 1, 1, 2], vec![true, false]).unwrap();
        assert!(in_integers(&b, &b, vec![1, 1, 1, 1], &g).is_err());
    }
}
