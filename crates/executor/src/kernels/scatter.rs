//! ScatterUpdate-3, ScatterNDUpdate-3/15 and ScatterElementsUpdate-3/12: a
//! copy of the data with slices (or single elements) of the updates written
//! over (or, with a `reduction`, combined into) the places the indices
//! address.
//!
//! Each op turns its indices into a list of writes (an output offset, an
//! updates offset, both in elements, of one slice length), checking every
//! index first: an index out of range, or updates of the wrong shape, is an
//! error, never a write outside the output. The writes apply in the row-major
//! order of the indices, so with a repeated index the last write wins (as
//! OpenVINO's CPU plugin) and reductions accumulate in that order.
//!
//! Reductions: integers wrap, floats compute in their own type (f16/bf16
//! rounded after each step, as OpenVINO's reference); `max`/`min` keep the
//! current value when it compares greater/less (a NaN update replaces it);
//! `mean` divides the sum by the count of writes (plus one with
//! `use_init_val`), integers rounded down as OpenVINO's specification and
//! reference (its 2026.4 CPU plugin truncates toward zero); booleans: sum
//! is or, sub is xor, prod and min are and, max is or, mean is an error.
//! Without `use_init_val` every written element starts from the
//! reduction's neutral value (0, 1, the type's lowest or highest).

use half::{bf16, f16};
use ir::ElementType;

use super::{for_each_index, norm_axis, with_num, Call, KResult, Num};
use crate::tensor::{element_width, Element, Tensor};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Reduction {
    None,
    Sum,
    Sub,
    Prod,
    Min,
    Max,
    Mean,
}

/// The writes of one op: `(output offset, updates offset)` in elements,
/// each of `slice` elements.
struct Plan {
    writes: Vec<(usize, usize)>,
    slice: usize,
}

fn opset(call: &Call<'_>) -> u32 {
    shape_infer::registry::OpsetFamily::parse(&call.node.op_type.version).map_or(1, |(_, n)| n)
}

/// The `reduction` attribute of ScatterNDUpdate-15 (`sub` allowed) and
/// ScatterElementsUpdate-12 (`mean` allowed); older versions have none.
fn reduction(call: &Call<'_>, since: u32, allowed: &[Reduction]) -> KResult<Reduction> {
    if opset(call) < since {
        return Ok(Reduction::None);
    }
    let Some(text) = call.node.attributes.get("reduction") else {
        return Ok(Reduction::None);
    };
    let r = match text.trim().to_ascii_lowercase().as_str() {
        "none" => return Ok(Reduction::None),
        "sum" => Reduction::Sum,
        "sub" => Reduction::Sub,
        "prod" => Reduction::Prod,
        "min" => Reduction::Min,
        "max" => Reduction::Max,
        "mean" => Reduction::Mean,
        _ => Reduction::None,
    };
    if allowed.contains(&r) {
        Ok(r)
    } else {
        Err(format!("`reduction` \"{text}\" is not supported").into())
    }
}

/// The values of an integer (or boolean: 0 and 1) index tensor.
fn index_values(t: &Tensor) -> KResult<Vec<i64>> {
    if t.element_type == ElementType::Boolean {
        return Ok(t.bytes().iter().map(|&b| i64::from(b != 0)).collect());
    }
    Ok(t.to_i64s()?)
}

/// `i` normalized into `0..len` (negative counts from the end when
/// `negative`), or an error.
fn position(i: i64, len: usize, negative: bool) -> KResult<usize> {
    let p = if i < 0 && negative {
        i.checked_add(len as i64)
    } else {
        Some(i)
    };
    match p {
        Some(p) if (0..len as i64).contains(&p) => Ok(p as usize),
        _ => Err(format!("index {i} is out of range for a dim of {len}").into()),
    }
}

/// ScatterUpdate-3.
pub(crate) fn scatter_update(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (data, indices, updates) = (call.input(0)?, call.input(1)?, call.input(2)?);
    let axis_v = call.input(3)?.to_i64s()?;
    let [axis] = axis_v.as_slice() else {
        return Err("the axis (input 3) must hold one value".into());
    };
    let ds = &data.shape;
    let axis = norm_axis(*axis, ds.len())?;
    let expected: Vec<usize> = ds[..axis]
        .iter()
        .chain(&indices.shape)
        .chain(&ds[axis + 1..])
        .copied()
        .collect();
    if updates.shape != expected {
        return Err(format!(
            "updates {:?} must have the shape data[:axis] + indices + data[axis+1:] = {expected:?}",
            updates.shape
        )
        .into());
    }
    let idx = index_values(indices)?;
    let len = ds[axis];
    let outer: usize = ds[..axis].iter().product();
    let inner: usize = ds[axis + 1..].iter().product();
    // OpenVINO refuses negative indices here (the specification says so).
    let picks = idx
        .iter()
        .map(|&i| position(i, len, false))
        .collect::<KResult<Vec<_>>>()?;
    let mut writes = Vec::with_capacity(outer * picks.len());
    for o in 0..outer {
        for (j, &p) in picks.iter().enumerate() {
            writes.push(((o * len + p) * inner, (o * picks.len() + j) * inner));
        }
    }
    let plan = Plan {
        writes,
        slice: inner,
    };
    apply(call, &plan, Reduction::None, true)
}

/// ScatterNDUpdate-3/15.
pub(crate) fn scatter_nd_update(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    use Reduction as R;
    let red = reduction(call, 15, &[R::Sum, R::Sub, R::Prod, R::Min, R::Max])?;
    let (data, indices, updates) = (call.input(0)?, call.input(1)?, call.input(2)?);
    let (ds, is) = (&data.shape, &indices.shape);
    let Some(&k) = is.last() else {
        return Err("indices must have a rank of at least 1".into());
    };
    if k > ds.len() {
        return Err(format!("index tuples of length {k} exceed the data {ds:?}").into());
    }
    let expected: Vec<usize> = is[..is.len() - 1].iter().chain(&ds[k..]).copied().collect();
    let fits = if expected.is_empty() {
        updates.len() == 1
    } else {
        updates.shape == expected
    };
    if !fits {
        return Err(format!(
            "updates {:?} must have the shape indices[:-1] + data[indices[-1]:] = {expected:?}",
            updates.shape
        )
        .into());
    }
    let idx = index_values(indices)?;
    let slice: usize = ds[k..].iter().product();
    let tuples: usize = is[..is.len() - 1].iter().product();
    let mut writes = Vec::with_capacity(tuples);
    for t in 0..tuples {
        let mut offset = 0usize;
        for (j, &dim) in ds[..k].iter().enumerate() {
            offset = offset * dim + position(idx[t * k + j], dim, true)?;
        }
        writes.push((offset * slice, t * slice));
    }
    apply(call, &Plan { writes, slice }, red, true)
}

/// ScatterElementsUpdate-3/12.
pub(crate) fn scatter_elements_update(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    use Reduction as R;
    let red = reduction(call, 12, &[R::Sum, R::Prod, R::Min, R::Max, R::Mean])?;
    let use_init = opset(call) < 12 || call.attr_bool("use_init_val", true);
    let (data, indices, updates) = (call.input(0)?, call.input(1)?, call.input(2)?);
    let axis_v = call.input(3)?.to_i64s()?;
    let Some(&axis) = axis_v.first() else {
        return Err("the axis (input 3) is empty".into());
    };
    let (ds, is) = (&data.shape, &indices.shape);
    let axis = norm_axis(axis, ds.len())?;
    if is.len() != ds.len() || updates.shape != *is {
        return Err(format!(
            "indices {is:?} must have the rank of the data {ds:?} and the shape of the updates {:?}",
            updates.shape
        )
        .into());
    }
    if let Some(i) = (0..ds.len()).find(|&i| i != axis && is[i] > ds[i]) {
        return Err(format!("dim {i} of indices {is:?} exceeds the data's {ds:?}").into());
    }
    let idx = index_values(indices)?;
    let mut strides = vec![1usize; ds.len()];
    for i in (1..ds.len()).rev() {
        strides[i - 1] = strides[i] * ds[i];
    }
    let mut writes = Vec::with_capacity(idx.len());
    let mut k = 0usize;
    let mut bad = None;
    for_each_index(is, |coord| {
        if bad.is_some() {
            return;
        }
        match position(idx[k], ds[axis], true) {
            Ok(p) => {
                let dst: usize = coord
                    .iter()
                    .zip(&strides)
                    .enumerate()
                    .map(|(i, (&c, &s))| if i == axis { p * s } else { c * s })
                    .sum();
                writes.push((dst, k));
            }
            Err(e) => bad = Some(e),
        }
        k += 1;
    });
    if let Some(e) = bad {
        return Err(e);
    }
    apply(call, &Plan { writes, slice: 1 }, red, use_init)
}

/// The output: a copy of input 0 with `plan`'s writes of input 2 applied.
fn apply(call: &Call<'_>, plan: &Plan, red: Reduction, use_init: bool) -> KResult<Vec<Tensor>> {
    let (data, updates) = (call.input(0)?, call.input(2)?);
    let out = call.out_shape(0)?;
    if out != data.shape || updates.element_type != data.element_type {
        return Err(format!(
            "internal: output {out:?} for data {} {:?} and updates {}",
            data.element_type, data.shape, updates.element_type
        )
        .into());
    }
    let (n, m, s) = (data.len(), updates.len(), plan.slice);
    if plan.writes.iter().any(|&(d, u)| {
        d.checked_add(s).is_none_or(|e| e > n) || u.checked_add(s).is_none_or(|e| e > m)
    }) {
        return Err("internal: a write falls outside the data or the updates".into());
    }
    let et = data.element_type;
    let bytes = if red == Reduction::None {
        let w = element_width(et)?;
        let mut bytes = data.bytes().to_vec();
        let src = updates.bytes();
        for &(d, u) in &plan.writes {
            bytes[d * w..(d + s) * w].copy_from_slice(&src[u * w..(u + s) * w]);
        }
        bytes
    } else if et == ElementType::Boolean {
        reduce_bools(data, updates, plan, red, use_init)?
    } else {
        with_num!(et, T => reduce_in::<T>(data, updates, plan, red, use_init)?,
            else return Err(super::unsupported("a scatter reduction", et)))
    };
    Ok(vec![Tensor::from_bytes(et, out, bytes)?])
}

/// What the reductions need beyond [`Num`].
pub(super) trait Extra: Num {
    fn one() -> Self;
    fn lowest() -> Self;
    fn highest() -> Self;
    /// `self / n` (integers rounded down).
    fn mean(self, n: u32) -> Self;
}

macro_rules! extra_int {
    ($($t:ty),*) => {$(
        impl Extra for $t {
            fn one() -> Self { 1 }
            fn lowest() -> Self { <$t>::MIN }
            fn highest() -> Self { <$t>::MAX }
            fn mean(self, n: u32) -> Self { (self as i128).div_euclid(i128::from(n)) as $t }
        }
    )*};
}
extra_int!(i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! extra_float {
    ($t:ty, $to:expr, $from:expr) => {
        impl Extra for $t {
            fn one() -> Self {
                $from(1.0)
            }
            fn lowest() -> Self {
                <$t>::MIN
            }
            fn highest() -> Self {
                <$t>::MAX
            }
            fn mean(self, n: u32) -> Self {
                $from($to(self) / f64::from(n))
            }
        }
    };
}
extra_float!(f32, f64::from, |x: f64| x as f32);
extra_float!(f64, |x: f64| x, |x: f64| x);
extra_float!(f16, |x: f16| f64::from(x), f16::from_f64);
extra_float!(bf16, |x: bf16| f64::from(x), bf16::from_f64);

fn neutral<T: Extra>(red: Reduction) -> T {
    match red {
        Reduction::Prod => T::one(),
        Reduction::Max => T::lowest(),
        Reduction::Min => T::highest(),
        _ => T::zero(),
    }
}

fn reduce_in<T: Extra + Element>(
    data: &Tensor,
    updates: &Tensor,
    plan: &Plan,
    red: Reduction,
    use_init: bool,
) -> KResult<Vec<u8>> {
    let mut out: Vec<T> = data.to_vec()?;
    let upd: Vec<T> = updates.to_vec()?;
    let s = plan.slice;
    if !use_init {
        for &(d, _) in &plan.writes {
            out[d..d + s].fill(neutral(red));
        }
    }
    let mut counts = vec![0u32; if red == Reduction::Mean { out.len() } else { 0 }];
    for &(d, u) in &plan.writes {
        for (o, &v) in out[d..d + s].iter_mut().zip(&upd[u..u + s]) {
            *o = match red {
                Reduction::Sum | Reduction::Mean => o.add(v),
                Reduction::Sub => o.sub(v),
                Reduction::Prod => o.mul(v),
                Reduction::Max => {
                    if *o > v {
                        *o
                    } else {
                        v
                    }
                }
                Reduction::Min => {
                    if *o < v {
                        *o
                    } else {
                        v
                    }
                }
                Reduction::None => v,
            };
        }
        if let Some(c) = counts.get_mut(d..d + s) {
            c.iter_mut().for_each(|c| *c += 1);
        }
    }
    for (o, &c) in out.iter_mut().zip(&counts) {
        if c > 0 {
            *o = o.mean(c + u32::from(use_init));
        }
    }
    let mut bytes = vec![0u8; out.len() * T::SIZE];
    for (b, v) in bytes.chunks_exact_mut(T::SIZE).zip(out) {
        v.write(b);
    }
    Ok(bytes)
}

fn reduce_bools(
    data: &Tensor,
    updates: &Tensor,
    plan: &Plan,
    red: Reduction,
    use_init: bool,
) -> KResult<Vec<u8>> {
    if red == Reduction::Mean {
        return Err("reduction `mean` is not defined for booleans".into());
    }
    let mut out: Vec<bool> = data.to_vec()?;
    let upd: Vec<bool> = updates.to_vec()?;
    let s = plan.slice;
    if !use_init {
        let start = matches!(red, Reduction::Prod | Reduction::Min);
        for &(d, _) in &plan.writes {
            out[d..d + s].fill(start);
        }
    }
    for &(d, u) in &plan.writes {
        for (o, &v) in out[d..d + s].iter_mut().zip(&upd[u..u + s]) {
            *o = match red {
                Reduction::Sum | Reduction::Max => *o || v,
                Reduction::Sub => *o != v,
                Reduction::Prod | Reduction::Min => *o && v,
                _ => v,
            };
        }
    }
    Ok(out.into_iter().map(u8::from).collect())
}
