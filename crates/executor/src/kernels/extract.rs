//! Extract-1 (`ovir1`, `jax.numpy.extract`): the elements of the flattened
//! array whose flattened condition is nonzero, both truncated to the shorter.
//! With `size` the output is `[size]`, right-padded with `fill_value`
//! (default 0) or truncated; without it the count is data-dependent.

use ir::ElementType;

use super::{unsupported, with_num, Call, KResult};
use crate::tensor::{element_width, Element, Tensor};

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (cond, arr) = (call.input(0)?, call.input(1)?);
    let mask = cond.nonzero_mask()?;
    let n = mask.len().min(arr.len());
    let kept: Vec<usize> = (0..n).filter(|&i| mask[i]).collect();
    let size = match call.attr_i64("size")? {
        Some(s) => Some(usize::try_from(s).map_err(|_| format!("`size` {s} is negative"))?),
        None => None,
    };
    let w = element_width(arr.element_type)?;
    let src = arr.bytes();
    let count = size.unwrap_or(kept.len());
    let mut bytes = Vec::with_capacity(count.checked_mul(w).ok_or("`size` is too large")?);
    for &k in kept.iter().take(count) {
        bytes.extend_from_slice(&src[k * w..k * w + w]);
    }
    if bytes.len() < count * w {
        let fill = fill_bytes(call.node.attributes.get("fill_value"), arr.element_type)?;
        while bytes.len() < count * w {
            bytes.extend_from_slice(&fill);
        }
    }
    Ok(vec![crate::tensor::byte_size(arr.element_type, &[count])
        .and_then(|_| {
        Tensor::from_bytes(arr.element_type, vec![count], bytes)
    })?])
}

/// The bytes of `fill_value` (default 0) as a value of `t`.
fn fill_bytes(text: Option<&str>, t: ElementType) -> KResult<Vec<u8>> {
    let text = text.unwrap_or("0").trim();
    let bad = || format!("`fill_value` \"{text}\" is not a value of {t}");
    if t == ElementType::Boolean {
        return match text {
            "true" | "1" => Ok(vec![1]),
            "false" | "0" => Ok(vec![0]),
            _ => Err(bad().into()),
        };
    }
    with_num!(t, T => {
        let mut out = vec![0u8; T::SIZE];
        let value: T = if t.is_real() {
            let v: f64 = text.parse().map_err(|_| bad())?;
            super::convert::from_f64::<T>(v)
        } else {
            let v: i128 = text.parse().map_err(|_| bad())?;
            super::convert::from_int_checked::<T>(v).ok_or_else(bad)?
        };
        value.write(&mut out);
        Ok(out)
    }, else Err(unsupported("Extract", t)))
}
