//! The one index helper every broadcasting or strided kernel uses.
//!
//! [`placed_strides`] gives, for each output axis, the element stride of an
//! operand placed in the output's axes (numpy: aligned right; pdpd: from a
//! start axis), 0 where the operand has 1 (broadcast). [`walk`] visits every
//! output position in row-major order with each operand's element offset.

/// Row-major element strides of `shape`.
pub(crate) fn row_major_strides(shape: &[usize]) -> Vec<isize> {
    let mut strides = vec![0isize; shape.len()];
    let mut acc = 1isize;
    for i in (0..shape.len()).rev() {
        strides[i] = acc;
        acc = acc.saturating_mul(shape[i] as isize);
    }
    strides
}

/// The strides, per axis of `out`, of an operand of shape `input` placed
/// at axis `start` (`None`: aligned right, as numpy). Each operand dim must be
/// 1 (broadcast: stride 0) or the output's.
pub(crate) fn placed_strides(
    input: &[usize],
    out: &[usize],
    start: Option<usize>,
) -> Result<Vec<isize>, String> {
    let bad = || format!("an operand of shape {input:?} does not broadcast to {out:?}");
    if input.len() > out.len() {
        return Err(bad());
    }
    let offset = start.unwrap_or(out.len() - input.len());
    if offset + input.len() > out.len() {
        return Err(bad());
    }
    let own = row_major_strides(input);
    let mut strides = vec![0isize; out.len()];
    for (j, &d) in input.iter().enumerate() {
        let o = out[offset + j];
        if d == o && d != 1 {
            strides[offset + j] = own[j];
        } else if d != 1 {
            return Err(bad());
        }
    }
    Ok(strides)
}

/// The strides, per axis of `out`, of an operand whose axis `j` is placed
/// at output axis `axes[j]` (Broadcast's explicit `axes_mapping`: increasing
/// axes, not necessarily adjacent). Each operand dim must be 1 or the
/// output's.
pub(crate) fn mapped_strides(
    input: &[usize],
    out: &[usize],
    axes: &[usize],
) -> Result<Vec<isize>, String> {
    let bad = || format!("an operand of shape {input:?} does not map to {out:?} by axes {axes:?}");
    if axes.len() != input.len() || axes.windows(2).any(|w| w[0] >= w[1]) {
        return Err(bad());
    }
    let own = row_major_strides(input);
    let mut strides = vec![0isize; out.len()];
    for (j, (&d, &a)) in input.iter().zip(axes).enumerate() {
        let o = *out.get(a).ok_or_else(bad)?;
        if d == o && d != 1 {
            strides[a] = own[j];
        } else if d != 1 {
            return Err(bad());
        }
    }
    Ok(strides)
}

/// Calls `f` with each operand's element offset for every position of `out`
/// in row-major order. Operand `k` starts at `bases[k]` and moves by
/// `strides[k][axis]` along each axis (strides may be negative or 0).
pub(crate) fn walk(
    out: &[usize],
    bases: &[isize],
    strides: &[Vec<isize>],
    mut f: impl FnMut(&[usize]),
) {
    if out.contains(&0) {
        return;
    }
    let rank = out.len();
    let mut offs: Vec<isize> = bases.to_vec();
    let mut idx = vec![0usize; rank];
    let mut current: Vec<usize> = vec![0; offs.len()];
    loop {
        for (c, &o) in current.iter_mut().zip(&offs) {
            *c = o as usize;
        }
        f(&current);
        let mut axis = rank;
        loop {
            if axis == 0 {
                return;
            }
            axis -= 1;
            idx[axis] += 1;
            for (o, s) in offs.iter_mut().zip(strides) {
                *o += s[axis];
            }
            if idx[axis] < out[axis] {
                break;
            }
            for (o, s) in offs.iter_mut().zip(strides) {
                *o -= s[axis] * out[axis] as isize;
            }
            idx[axis] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpy_and_placed_broadcasts() {
        let s = placed_strides(&[3, 1], &[2, 3, 4], None).unwrap();
        assert_eq!(s, vec![0, 1, 0]);
        let mut seen = Vec::new();
        walk(&[2, 3, 4], &[0], &[s], |o| seen.push(o[0]));
        assert_eq!(seen.len(), 24);
        assert_eq!(&seen[..8], &[0, 0, 0, 0, 1, 1, 1, 1]);
        assert_eq!(placed_strides(&[3], &[3, 4], Some(0)).unwrap(), vec![1, 0]);
        assert!(placed_strides(&[3, 5], &[2, 3, 4, 5], None).is_err());
        let mut n = 0;
        walk(&[], &[0], &[vec![]], |_| n += 1);
        assert_eq!(n, 1);
        walk(&[2, 0], &[0], &[vec![0, 0]], |_| n += 1);
        assert_eq!(n, 1);
    }
}
