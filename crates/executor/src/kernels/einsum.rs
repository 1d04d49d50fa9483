//! Einsum-7: a general contraction. The equation is parsed by the shape
//! rule's parser (`shape_infer::ops::einsum`). Each operand first becomes a
//! term with one axis per distinct label: the diagonal of a repeated label
//! is taken, and an axis of size 1 whose label is larger elsewhere (a
//! broadcast label, or broadcast ellipsis dim) is dropped, since the operand
//! is constant along it. Then, left to right as the spec describes, each
//! term is contracted with the next: labels neither operand shares and
//! nothing later needs are summed first, the pair is permuted into a batch
//! of matrices `[batch, M, K] · [batch, K, N]` and multiplied on the
//! project's GEMM. The last term is permuted into the output's order.
//!
//! Each ellipsis dim is a label of its own, numbered from the right (numpy
//! alignment), so ellipsis dims broadcast like labels; an input ellipsis
//! absent from the output is summed, as OpenVINO's runtime does.
//!
//! f32 and f64 compute in their type; f16 and bf16 compute in f32 and are
//! rounded once at the end, as OpenVINO's CPU plugin (which runs the whole
//! decomposed subgraph in f32). Integers are exact and wrap, as OpenVINO's
//! reference implementation; the CPU plugin computes them in f32 and
//! saturates u8/i8 results, which agrees wherever the exact result fits
//! the type and 24 bits.

use ir::ElementType;
use shape_infer::ops::einsum::{equation_of, show, Label};

use super::convolution::{elements, narrow, widen};
use super::{from_i128s, to_i128s, Call, KResult};
use crate::broadcast::{row_major_strides, walk};
use crate::gemm::{self, Mat};
use crate::tensor::{check_scratch, element_count, Tensor};

/// A label: a letter's byte, or `ELLIPSIS + k` for ellipsis dim `k`
/// (counted in the broadcast ellipsis shape, left to right).
type LabelId = usize;
const ELLIPSIS: LabelId = 256;

/// Values in row-major order over `dims`, one distinct label per axis.
struct Term<T> {
    values: Vec<T>,
    dims: Vec<usize>,
    labels: Vec<LabelId>,
}

/// The arithmetic a contraction needs, on the type it computes in.
trait Value: Copy + Send + Sync + 'static {
    const ZERO: Self;
    fn add(self, other: Self) -> Self;
    /// `dst (m × n) = a (m × k) · b (k × n)`, all row-major.
    fn matmul(dst: &mut [Self], mkn: (usize, usize, usize), a: &[Self], b: &[Self]) -> KResult<()>;
}

macro_rules! float_value {
    ($t:ty) => {
        impl Value for $t {
            const ZERO: Self = 0.0;
            fn add(self, other: Self) -> Self {
                self + other
            }
            fn matmul(
                dst: &mut [Self],
                (m, k, n): (usize, usize, usize),
                a: &[Self],
                b: &[Self],
            ) -> KResult<()> {
                gemm::matmul(dst, n, (m, k, n), Mat::rows(a, k), Mat::rows(b, n), false)
            }
        }
    };
}
float_value!(f32);
float_value!(f64);

impl Value for i128 {
    const ZERO: Self = 0;
    fn add(self, other: Self) -> Self {
        self.wrapping_add(other)
    }
    fn matmul(
        dst: &mut [Self],
        (m, k, n): (usize, usize, usize),
        a: &[Self],
        b: &[Self],
    ) -> KResult<()> {
        if dst.len() < m * n || a.len() < m * k || b.len() < k * n {
            return Err("internal: a product operand does not fit its buffer".into());
        }
        for i in 0..m {
            let row = &mut dst[i * n..(i + 1) * n];
            row.fill(0);
            for p in 0..k {
                let x = a[i * k + p];
                for (d, &y) in row.iter_mut().zip(&b[p * n..(p + 1) * n]) {
                    *d = d.wrapping_add(x.wrapping_mul(y));
                }
            }
        }
        Ok(())
    }
}

/// The contraction as label lists: per input its labels (ellipsis dims
/// expanded), the output's labels, and every label's size.
struct Plan {
    inputs: Vec<Vec<LabelId>>,
    output: Vec<LabelId>,
    sizes: Vec<(LabelId, usize)>,
}

impl Plan {
    fn size(&self, label: LabelId) -> usize {
        self.sizes
            .iter()
            .find(|(l, _)| *l == label)
            .map_or(1, |(_, s)| *s)
    }
}

fn letter(c: u8) -> String {
    (c as char).to_string()
}

fn plan(call: &Call<'_>) -> KResult<Plan> {
    let eq = equation_of(&call.node.attributes).map_err(|e| e.to_string())?;
    if eq.inputs.len() != call.inputs.len() {
        return Err(format!(
            "the equation has {} input subscripts for {} inputs",
            eq.inputs.len(),
            call.inputs.len()
        )
        .into());
    }
    // How many dims each ellipsis covers, and the broadcast ellipsis rank.
    let mut covered = Vec::with_capacity(eq.inputs.len());
    for (i, labels) in eq.inputs.iter().enumerate() {
        let rank = call.input(i)?.shape.len();
        let has = labels.contains(&Label::Ellipsis);
        let named = labels.len() - usize::from(has);
        let fits = if has { rank >= named } else { rank == named };
        if !fits {
            return Err(format!(
                "input {i} has rank {rank}, which does not fit its subscript `{}`",
                show(labels)
            )
            .into());
        }
        covered.push(rank - named);
    }
    let ellipsis_rank = covered.iter().copied().max().unwrap_or(0);
    let mut inputs = Vec::with_capacity(eq.inputs.len());
    let mut sizes: Vec<(LabelId, usize)> = Vec::new();
    for (i, labels) in eq.inputs.iter().enumerate() {
        let mut ids = Vec::new();
        for &l in labels {
            match l {
                Label::Letter(c) => ids.push(LabelId::from(c)),
                Label::Ellipsis => {
                    let first = ellipsis_rank - covered[i];
                    ids.extend((first..ellipsis_rank).map(|k| ELLIPSIS + k));
                }
            }
        }
        let dims = &call.input(i)?.shape;
        let mut own: Vec<(LabelId, usize)> = Vec::new();
        for (&id, &d) in ids.iter().zip(dims) {
            match own.iter().find(|(l, _)| *l == id) {
                Some(&(_, s)) if s != d => {
                    return Err(format!(
                        "label `{}` repeated in input {i} has dims {s} and {d}",
                        letter(id as u8)
                    )
                    .into())
                }
                Some(_) => {}
                None => own.push((id, d)),
            }
        }
        for (id, d) in own {
            match sizes.iter_mut().find(|(l, _)| *l == id) {
                None => sizes.push((id, d)),
                Some((_, s)) if *s == d || d == 1 => {}
                Some((_, s)) if *s == 1 => *s = d,
                Some((_, s)) => {
                    return Err(
                        format!("a label's dims {s} and {d} (input {i}) do not broadcast").into(),
                    )
                }
            }
        }
        inputs.push(ids);
    }
    let mut output = Vec::new();
    for &l in &eq.output {
        match l {
            Label::Letter(c) => output.push(LabelId::from(c)),
            Label::Ellipsis => output.extend((0..ellipsis_rank).map(|k| ELLIPSIS + k)),
        }
    }
    Ok(Plan {
        inputs,
        output,
        sizes,
    })
}

/// `values` (over `dims`) read with `strides` (per output axis) into a new
/// row-major buffer of `out` dims.
fn gather<T: Copy>(values: &[T], out: &[usize], strides: Vec<isize>) -> KResult<Vec<T>> {
    let count = element_count(out)?;
    check_scratch(count, std::mem::size_of::<T>(), "Einsum")?;
    let mut res = Vec::with_capacity(count);
    let mut outside = false;
    walk(out, &[0], &[strides], |o| match values.get(o[0]) {
        Some(&v) => res.push(v),
        None => outside = true,
    });
    if outside || res.len() != count {
        return Err("internal: an Einsum read falls outside its operand".into());
    }
    Ok(res)
}

impl<T: Value> Term<T> {
    /// Input `values` over `dims` with `labels` (repeats allowed) as a term:
    /// the diagonal of each repeated label, and axes of size 1 dropped where
    /// the label is larger elsewhere.
    fn new(values: Vec<T>, dims: &[usize], labels: &[LabelId], plan: &Plan) -> KResult<Self> {
        let own = row_major_strides(dims);
        let mut unique: Vec<LabelId> = Vec::new();
        let mut udims = Vec::new();
        let mut strides: Vec<isize> = Vec::new();
        for ((&l, &d), &s) in labels.iter().zip(dims).zip(&own) {
            match unique.iter().position(|&u| u == l) {
                // The diagonal: one step along every copy of the label.
                Some(k) => strides[k] += s,
                None => {
                    unique.push(l);
                    udims.push(d);
                    strides.push(s);
                }
            }
        }
        let values = if unique.len() == labels.len() {
            values
        } else {
            gather(&values, &udims, strides)?
        };
        let keep: Vec<bool> = unique
            .iter()
            .zip(&udims)
            .map(|(&l, &d)| d != 1 || plan.size(l) == 1)
            .collect();
        let pick = |v: &[usize]| -> Vec<usize> {
            v.iter()
                .zip(&keep)
                .filter(|(_, &k)| k)
                .map(|(&x, _)| x)
                .collect()
        };
        Ok(Term {
            values,
            dims: pick(&udims),
            labels: pick(&unique),
        })
    }

    fn dim(&self, label: LabelId) -> usize {
        self.labels
            .iter()
            .position(|&l| l == label)
            .map_or(1, |k| self.dims[k])
    }

    /// The values permuted so that the axes come in `order` (labels of this
    /// term; any absent label reads with stride 0, so must be of size 1 or
    /// be a broadcast).
    fn permuted(&self, order: &[LabelId], dims: &[usize]) -> KResult<Vec<T>> {
        let own = row_major_strides(&self.dims);
        let strides: Vec<isize> = order
            .iter()
            .map(|l| {
                self.labels
                    .iter()
                    .position(|m| m == l)
                    .map_or(0, |k| own[k])
            })
            .collect();
        if order == self.labels.as_slice() {
            return Ok(self.values.clone());
        }
        gather(&self.values, dims, strides)
    }

    /// Sums the labels not in `keep` away.
    fn sum_except(self, keep: &dyn Fn(LabelId) -> bool) -> KResult<Self> {
        let (kept, summed): (Vec<LabelId>, Vec<LabelId>) =
            self.labels.iter().partition(|&&l| keep(l));
        if summed.is_empty() {
            return Ok(self);
        }
        let kept_dims: Vec<usize> = kept.iter().map(|&l| self.dim(l)).collect();
        let run: usize = summed.iter().map(|&l| self.dim(l)).product();
        let order: Vec<LabelId> = kept.iter().chain(&summed).copied().collect();
        let dims: Vec<usize> = kept_dims
            .iter()
            .copied()
            .chain(summed.iter().map(|&l| self.dim(l)))
            .collect();
        let values = self.permuted(&order, &dims)?;
        let count = element_count(&kept_dims)?;
        let values = if run == 0 {
            vec![T::ZERO; count]
        } else {
            values
                .chunks_exact(run)
                .map(|c| c.iter().fold(T::ZERO, |acc, &v| acc.add(v)))
                .collect()
        };
        Ok(Term {
            values,
            dims: kept_dims,
            labels: kept,
        })
    }

    /// The product of `self` and `other` over their shared labels: those in
    /// `keep` stay (as batch), the others are summed; labels of one operand
    /// only that are not in `keep` are summed first.
    fn contract(self, other: Self, keep: &dyn Fn(LabelId) -> bool) -> KResult<Self> {
        let a = self.sum_except(&|l| keep(l) || other.labels.contains(&l))?;
        let b = other.sum_except(&|l| keep(l) || a.labels.contains(&l))?;
        let shared = |l: &&LabelId| b.labels.contains(l);
        let batch: Vec<LabelId> = a
            .labels
            .iter()
            .filter(shared)
            .filter(|l| keep(**l))
            .copied()
            .collect();
        let inner: Vec<LabelId> = a
            .labels
            .iter()
            .filter(shared)
            .filter(|l| !keep(**l))
            .copied()
            .collect();
        let rows: Vec<LabelId> = a
            .labels
            .iter()
            .filter(|l| !b.labels.contains(l))
            .copied()
            .collect();
        let cols: Vec<LabelId> = b
            .labels
            .iter()
            .filter(|l| !a.labels.contains(l))
            .copied()
            .collect();
        // A shared label's size: equal in both, as broadcast axes were dropped.
        let size = |l: LabelId| a.dim(l).max(b.dim(l));
        let sizes = |ls: &[LabelId]| -> Vec<usize> { ls.iter().map(|&l| size(l)).collect() };
        let (bd, md, kd, nd) = (sizes(&batch), sizes(&rows), sizes(&inner), sizes(&cols));
        let (nb, m, k, n) = (
            element_count(&bd)?,
            element_count(&md)?,
            element_count(&kd)?,
            element_count(&nd)?,
        );
        let cat = |x: &[LabelId], y: &[LabelId], z: &[LabelId]| -> Vec<LabelId> {
            x.iter().chain(y).chain(z).copied().collect()
        };
        let catd = |x: &[usize], y: &[usize], z: &[usize]| -> Vec<usize> {
            x.iter().chain(y).chain(z).copied().collect()
        };
        let labels = cat(&batch, &rows, &cols);
        let dims = catd(&bd, &md, &nd);
        let count = element_count(&dims)?;
        check_scratch(count, std::mem::size_of::<T>(), "Einsum")?;
        let mut values = vec![T::ZERO; count];
        if count > 0 {
            let va = a.permuted(&cat(&batch, &rows, &inner), &catd(&bd, &md, &kd))?;
            let vb = b.permuted(&cat(&batch, &inner, &cols), &catd(&bd, &kd, &nd))?;
            for (i, dst) in values.chunks_mut(m * n).enumerate().take(nb) {
                let lhs = va.get(i * m * k..(i + 1) * m * k).unwrap_or(&[]);
                let rhs = vb.get(i * k * n..(i + 1) * k * n).unwrap_or(&[]);
                T::matmul(dst, (m, k, n), lhs, rhs)?;
            }
        }
        Ok(Term {
            values,
            dims,
            labels,
        })
    }
}

/// Runs the plan on values of type `T`; the output in row-major order.
fn compute<T: Value>(
    plan: &Plan,
    inputs: Vec<(Vec<T>, Vec<usize>)>,
    out: &[usize],
) -> KResult<Vec<T>> {
    let mut terms = Vec::with_capacity(inputs.len());
    for ((values, dims), labels) in inputs.into_iter().zip(&plan.inputs) {
        terms.push(Term::new(values, &dims, labels, plan)?);
    }
    let later: Vec<Vec<LabelId>> = (0..terms.len())
        .map(|i| {
            terms[i + 1..]
                .iter()
                .flat_map(|t| t.labels.iter().copied())
                .chain(plan.output.iter().copied())
                .collect()
        })
        .collect();
    let mut terms = terms.into_iter();
    let first = terms.next().ok_or("Einsum needs at least one input")?;
    let mut acc = first.sum_except(&|l| later[0].contains(&l))?;
    for (i, term) in terms.enumerate() {
        acc = acc.contract(term, &|l| later[i + 1].contains(&l))?;
    }
    // Output labels the last term lacks have size 1 (read with stride 0).
    acc.permuted(&plan.output, out)
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let plan = plan(call)?;
    let out = call.out_shape(0)?;
    let expected: Vec<usize> = plan.output.iter().map(|&l| plan.size(l)).collect();
    if expected != out {
        return Err(format!(
            "internal: the inferred output shape {out:?} is not the equation's {expected:?}"
        )
        .into());
    }
    let et = call.input(0)?.element_type;
    if call.inputs.iter().any(|t| t.element_type != et) {
        return Err("the inputs have different element types".into());
    }
    let shapes = || call.inputs.iter().map(|t| t.shape.clone());
    let t = match et {
        ElementType::F32 => {
            let inputs = call
                .inputs
                .iter()
                .map(|t| elements::<f32>(t).map(|v| v.into_owned()))
                .collect::<KResult<Vec<_>>>()?;
            Tensor::from_vec(
                out.clone(),
                compute(&plan, inputs.into_iter().zip(shapes()).collect(), &out)?,
            )?
        }
        ElementType::F64 => {
            let inputs = call
                .inputs
                .iter()
                .map(|t| t.to_vec::<f64>().map_err(Into::into))
                .collect::<KResult<Vec<_>>>()?;
            Tensor::from_vec(
                out.clone(),
                compute(&plan, inputs.into_iter().zip(shapes()).collect(), &out)?,
            )?
        }
        ElementType::F16 | ElementType::BF16 => {
            let inputs = call.inputs.iter().map(widen).collect::<KResult<Vec<_>>>()?;
            let r = compute(&plan, inputs.into_iter().zip(shapes()).collect(), &out)?;
            narrow(et, out, &r)?
        }
        _ if et.is_integral() => {
            let inputs = call
                .inputs
                .iter()
                .map(to_i128s)
                .collect::<KResult<Vec<_>>>()?;
            let r = compute(&plan, inputs.into_iter().zip(shapes()).collect(), &out)?;
            from_i128s(et, out, &r)?
        }
        _ => return Err(format!("Einsum does not compute on {et}").into()),
    };
    Ok(vec![t])
}
