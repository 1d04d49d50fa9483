//! Range-1/4: `start, start + step, …` up to `stop` (exclusive). The length
//! is the inferred one (when the bounds are only known at run time, the
//! executor reruns Range's shape rule on them first). Integer inputs
//! compute exactly; others in f64 (truncated first when the output type is
//! an integer), rounded to the type.

use super::{from_f64s, from_i128s, to_f64s, to_i128s, Call, KResult};
use crate::tensor::{byte_size, check_scratch, Tensor};

fn scalar_f64(t: &Tensor, what: &str) -> KResult<f64> {
    match to_f64s(t)?.as_slice() {
        [v] => Ok(*v),
        _ => Err(format!("{what} must be a scalar").into()),
    }
}

fn scalar_i128(t: &Tensor, what: &str) -> KResult<i128> {
    match to_i128s(t)?.as_slice() {
        [v] => Ok(*v),
        _ => Err(format!("{what} must be a scalar").into()),
    }
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let et = call.out_type(0)?;
    let len = match call.out_shape(0)?.as_slice() {
        [len] => *len,
        _ => return Err("internal: Range output is not 1-D".into()),
    };
    let ins = [call.input(0)?, call.input(1)?, call.input(2)?];
    let names = ["start", "stop", "step"];
    let integers = ins.iter().all(|t| !t.element_type.is_real());
    if integers {
        let [start, stop, step] = [0, 1, 2].map(|i| scalar_i128(ins[i], names[i]));
        // The length is the rule's; `stop` must still be a scalar.
        let (start, _, step) = (start?, stop?, step?);
        if step == 0 {
            return Err("step is 0".into());
        }
        byte_size(et, &[len])?;
        // The values are computed in i128 first: check that much as well.
        check_scratch(len, 16, "Range")?;
        let values: Vec<i128> = (0..len as i128).map(|k| start + k * step).collect();
        return Ok(vec![if et.is_real() {
            let f: Vec<f64> = values.iter().map(|&v| v as f64).collect();
            from_f64s(et, vec![len], &f)?
        } else {
            from_i128s(et, vec![len], &values)?
        }]);
    }
    let [start, stop, step] = [0, 1, 2].map(|i| scalar_f64(ins[i], names[i]));
    let (mut start, _, mut step) = (start?, stop?, step?);
    if !et.is_real() {
        (start, step) = (start.trunc(), step.trunc());
    }
    byte_size(et, &[len])?;
    check_scratch(len, 8, "Range")?;
    let values: Vec<f64> = (0..len).map(|k| start + k as f64 * step).collect();
    Ok(vec![from_f64s(et, vec![len], &values)?])
}
