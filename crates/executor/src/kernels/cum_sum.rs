//! CumSum-3 along `axis` (input 1, scalar or one element; absent: 0),
//! `exclusive` and `reverse`. Floats accumulate in f64 and each sum is
//! rounded once to the type (OpenVINO's CPU plugin accumulates f16 in f32:
//! the same for all but very long sums); integers wrap; booleans give
//! whether any element so far is true. Scalar data is summed as `[1]`.

use ir::ElementType;

use super::{from_f64s, from_i128s, norm_axis, to_f64s, to_i128s, Call, KResult};
use crate::tensor::Tensor;

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let x = call.input(0)?;
    let out = call.out_shape(0)?;
    if out != x.shape {
        return Err(format!("internal: the inferred shape {out:?} is not the data's").into());
    }
    let axis = match call.inputs.get(1) {
        None => 0,
        Some(a) => match a.to_i64s()?.as_slice() {
            [v] => *v,
            other => {
                return Err(
                    format!("the axis must be one value, got {} values", other.len()).into(),
                )
            }
        },
    };
    let dims: Vec<usize> = if x.shape.is_empty() {
        vec![1]
    } else {
        x.shape.clone()
    };
    let axis = norm_axis(axis, dims.len())?;
    let len = dims[axis];
    let inner: usize = dims[axis + 1..].iter().product();
    let outer: usize = dims[..axis].iter().product();
    let exclusive = call.attr_bool("exclusive", false);
    let reverse = call.attr_bool("reverse", false);
    // Positions along the axis in summation order, for line (o, i).
    let scan = |f: &mut dyn FnMut(usize, bool)| {
        for o in 0..outer {
            for i in 0..inner {
                for step in 0..len {
                    let j = if reverse { len - 1 - step } else { step };
                    f((o * len + j) * inner + i, step == 0);
                }
            }
        }
    };
    let et = x.element_type;
    let t = if et == ElementType::Boolean {
        let v: Vec<bool> = x.to_vec()?;
        let mut r = vec![false; v.len()];
        let mut acc = false;
        scan(&mut |k, first| {
            if first {
                acc = false;
            }
            if exclusive {
                r[k] = acc;
                acc |= v[k];
            } else {
                acc |= v[k];
                r[k] = acc;
            }
        });
        Tensor::from_vec(out, r)?
    } else if et.is_real() {
        let v = to_f64s(x)?;
        let mut r = vec![0.0; v.len()];
        let mut acc = 0.0;
        scan(&mut |k, first| {
            if first {
                acc = 0.0;
            }
            if exclusive {
                r[k] = acc;
                acc += v[k];
            } else {
                acc += v[k];
                r[k] = acc;
            }
        });
        from_f64s(et, out, &r)?
    } else {
        let v = to_i128s(x)?;
        let mut r = vec![0i128; v.len()];
        let mut acc = 0i128;
        scan(&mut |k, first| {
            if first {
                acc = 0;
            }
            if exclusive {
                r[k] = acc;
                acc = acc.wrapping_add(v[k]);
            } else {
                acc = acc.wrapping_add(v[k]);
                r[k] = acc;
            }
        });
        from_i128s(et, out, &r)?
    };
    Ok(vec![t])
}
