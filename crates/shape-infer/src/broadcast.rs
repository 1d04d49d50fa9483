//! Broadcasting, symbolic: the one implementation every op that broadcasts
//! uses (elementwise ops, Select, Broadcast, MatMul's batch dims).
//!
//! Modes (OpenVINO's `auto_broadcast`):
//!
//! * **numpy** (multidirectional; also Broadcast-3's `bidirectional`): shapes
//!   aligned right, the shorter padded with 1s; per dim, equal expressions
//!   merge, a dim provably 1 yields to the other, a static `k` against a
//!   symbolic `N` gives `k` and assumes `N == 1 or N == k`, two different
//!   symbolic dims give `bcast(N, M)` and assume `N == M or N == 1 or M == 1`
//!   (when neither can be 1 by its range: `N` and assume `N == M`);
//! * **one-way** (a target is given: Broadcast's numpy mode, Select's `cond`):
//!   the source's rank may not exceed the target's; each source dim equals the
//!   target's or is 1; the result is the target;
//! * **pdpd** (with an axis; `-1` means `rank(A) - rank(B)`): `B` is one-way
//!   broadcast into the window of `A` that starts at the axis; the result has
//!   `A`'s rank (OpenVINO's `PartialShape::broadcast_merge_into`);
//! * **none**: the shapes must be equal.
//!
//! Unknown rank on either side gives unknown rank (where the result's rank
//! does not follow from the other side alone). A provable mismatch is a
//! `broadcast-incompatible` error naming both dims, their axes and both shapes.

use ir::{Attributes, Dim, Shape};
use symdim::{Atom, Expr, Predicate};

use crate::context::InferContext;
use crate::error::ShapeError;

/// The stable rule name of a broadcast mismatch.
pub const RULE: &str = "broadcast-incompatible";

/// An `auto_broadcast` specification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// No broadcasting: the shapes must be equal.
    None,
    /// Numpy (multidirectional) broadcasting.
    Numpy,
    /// PaddlePaddle broadcasting of the second operand into the first,
    /// starting at `axis` (`-1`: aligned right).
    Pdpd { axis: i64 },
}

impl Mode {
    /// Reads `auto_broadcast` (default `numpy`; `none`/`explicit`, `numpy`,
    /// `pdpd`, case-insensitive as OpenVINO reads it) and, for pdpd, the axis
    /// attribute OpenVINO writes, `auto_broadcast.auto_broadcast_axis`
    /// (0 when absent, as OpenVINO's default).
    pub fn from_attributes(attributes: &Attributes) -> Result<Mode, ShapeError> {
        Mode::parse(
            attributes,
            "auto_broadcast",
            "auto_broadcast.auto_broadcast_axis",
        )
    }

    /// Like [`Mode::from_attributes`] with other attribute names.
    pub fn parse(attributes: &Attributes, key: &str, axis_key: &str) -> Result<Mode, ShapeError> {
        let Some(text) = attributes.get(key) else {
            return Ok(Mode::Numpy);
        };
        match text.trim().to_ascii_lowercase().as_str() {
            "none" | "explicit" => Ok(Mode::None),
            "numpy" => Ok(Mode::Numpy),
            "pdpd" => Ok(Mode::Pdpd {
                axis: attributes.i64(axis_key)?.unwrap_or(0),
            }),
            other => Err(ShapeError::rule(
                "attribute-invalid",
                format!("{key} `{other}` is not one of none, numpy, pdpd"),
            )),
        }
    }
}

/// An operand of a broadcast: a name for messages (`input 0`, `then`) and
/// its shape.
#[derive(Debug, Clone, Copy)]
pub struct Operand<'a> {
    pub name: &'a str,
    pub shape: &'a Shape,
}

impl<'a> Operand<'a> {
    pub fn new(name: &'a str, shape: &'a Shape) -> Self {
        Operand { name, shape }
    }
}

/// Broadcasts `a` and `b` with `mode` (elementwise binary ops: the result of
/// pdpd has `a`'s rank).
pub fn broadcast(
    ctx: &mut InferContext,
    mode: Mode,
    a: Operand<'_>,
    b: Operand<'_>,
) -> Result<Shape, ShapeError> {
    match mode {
        Mode::None => equal(ctx, a, b),
        Mode::Numpy => numpy(ctx, a, b),
        Mode::Pdpd { axis } => pdpd(ctx, a, b, axis),
    }
}

/// What went wrong with one pair of dims.
enum Clash {
    /// Provably incompatible.
    Mismatch,
    /// Source rank exceeds target rank (one-way, pdpd).
    Rank,
}

fn is_one(ctx: &InferContext, d: &Dim) -> bool {
    d.as_constant() == Some(1) || ctx.symbols.bounds(d).ok().and_then(|i| i.as_point()) == Some(1)
}

fn can_be_one(ctx: &InferContext, d: &Dim) -> bool {
    ctx.symbols.bounds(d).map_or(true, |i| i.contains(1))
}

fn eq(a: &Dim, b: &Dim) -> Predicate {
    Predicate::equal(a, b)
}

fn one(a: &Dim) -> Predicate {
    Predicate::Eq(a.clone(), Expr::one())
}

/// Whether `a == 1` forces `b == 1`, so that `a == 1` adds nothing to the
/// alternative `a == b`: `a == 1` holds only at one value of one symbol, at
/// which `b` is 1. So for `a = S` and `b = min(S, 64)` (a position table
/// sliced to the sequence) both ways.
fn one_forces_one(a: &Dim, b: &Dim) -> bool {
    let Some((s, v)) = solve_one(a) else {
        return false;
    };
    b.substitute(&|t| (t == s).then(|| Expr::constant(v)))
        .is_ok_and(|e| e.as_constant() == Some(1))
}

/// The one symbol value at which `a == 1`, where `a == 1` holds at one value
/// of one symbol only: `S` (at 1), `min(x, k)` with `k > 1` and
/// `max(x, k)` with `k < 1` (where `x` is 1).
fn solve_one(a: &Dim) -> Option<(symdim::SymbolId, i64)> {
    if let Some(s) = a.as_symbol() {
        return Some((s, 1));
    }
    match a.as_atom()? {
        Atom::Min(x, k) if k.as_constant().is_some_and(|k| k > 1) => solve_one(x),
        Atom::Max(x, k) if k.as_constant().is_some_and(|k| k < 1) => solve_one(x),
        _ => None,
    }
}

/// Records `p` unless it is provably false (then the dims clash).
fn assume_or_clash(ctx: &mut InferContext, p: Predicate) -> Result<Result<(), Clash>, ShapeError> {
    if ctx.symbols.decide(&p) == Some(false) {
        return Ok(Err(Clash::Mismatch));
    }
    ctx.assume(p)?;
    Ok(Ok(()))
}

/// The numpy rule for one pair of (aligned) dims.
pub fn numpy_dim(ctx: &mut InferContext, a: &Dim, b: &Dim) -> Result<Option<Dim>, ShapeError> {
    Ok(numpy_dim_inner(ctx, a, b)?.ok())
}

fn numpy_dim_inner(
    ctx: &mut InferContext,
    a: &Dim,
    b: &Dim,
) -> Result<Result<Dim, Clash>, ShapeError> {
    if a == b || is_one(ctx, b) {
        return Ok(Ok(a.clone()));
    }
    if is_one(ctx, a) {
        return Ok(Ok(b.clone()));
    }
    if ctx.symbols.compare(a, b) == Some(std::cmp::Ordering::Equal) {
        return Ok(Ok(ctx.symbols.bcast(a, b)?));
    }
    match (a.as_constant(), b.as_constant()) {
        (Some(_), Some(_)) => Ok(Err(Clash::Mismatch)),
        (Some(_), None) | (None, Some(_)) => {
            let (k, n) = if a.is_constant() { (a, b) } else { (b, a) };
            let p = Predicate::Or(vec![one(n), eq(n, k)]);
            Ok(assume_or_clash(ctx, p)?.map(|()| k.clone()))
        }
        (None, None) => {
            // Whether each side may yield by being 1 without being equal to
            // the other: it cannot if its range excludes 1, or if its being
            // 1 makes the other 1 too.
            let a1 = can_be_one(ctx, a) && !one_forces_one(a, b);
            let b1 = can_be_one(ctx, b) && !one_forces_one(b, a);
            let (mut alternatives, result) = match (a1, b1) {
                // Neither can yield: they must be equal.
                (false, false) => (vec![eq(a, b)], if a <= b { a } else { b }.clone()),
                // Only `b` may yield, to `a`; equal or not, the result is `a`.
                (false, true) => (vec![eq(a, b), one(b)], a.clone()),
                (true, false) => (vec![eq(a, b), one(a)], b.clone()),
                (true, true) => (vec![eq(a, b), one(a), one(b)], ctx.symbols.bcast(a, b)?),
            };
            let p = if alternatives.len() == 1 {
                alternatives.swap_remove(0)
            } else {
                Predicate::Or(alternatives)
            };
            Ok(assume_or_clash(ctx, p)?.map(|()| result))
        }
    }
}

/// The one-way rule: source dim `s` into target dim `t`.
fn one_way_dim(ctx: &mut InferContext, s: &Dim, t: &Dim) -> Result<Result<Dim, Clash>, ShapeError> {
    if s == t || is_one(ctx, s) {
        return Ok(Ok(t.clone()));
    }
    if ctx.symbols.compare(s, t) == Some(std::cmp::Ordering::Equal) {
        return Ok(Ok(t.clone()));
    }
    if s.is_constant() && t.is_constant() {
        return Ok(Err(Clash::Mismatch));
    }
    let p = if can_be_one(ctx, s) && !one_forces_one(s, t) {
        Predicate::Or(vec![eq(s, t), one(s)])
    } else {
        eq(s, t)
    };
    let r = assume_or_clash(ctx, p)?;
    // A static source dim that is not 1 fixes the target dim.
    Ok(r.map(|()| {
        if s.is_constant() {
            s.clone()
        } else {
            t.clone()
        }
    }))
}

/// The none rule: equal dims.
fn equal_dim(ctx: &mut InferContext, a: &Dim, b: &Dim) -> Result<Result<Dim, Clash>, ShapeError> {
    if a == b {
        return Ok(Ok(a.clone()));
    }
    if a.is_constant() && b.is_constant() {
        return Ok(Err(Clash::Mismatch));
    }
    let r = assume_or_clash(ctx, eq(a, b))?;
    Ok(r.map(|()| {
        if b.is_constant() {
            b.clone()
        } else {
            a.clone()
        }
    }))
}

fn clash_error(
    ctx: &InferContext,
    clash: Clash,
    how: &str,
    a: Operand<'_>,
    b: Operand<'_>,
    at: Option<(usize, usize)>,
) -> ShapeError {
    let sa = a.shape.display(&ctx.symbols).to_string();
    let sb = b.shape.display(&ctx.symbols).to_string();
    let message = match (clash, at) {
        (Clash::Mismatch, Some((ia, ib))) => {
            let (da, db) = (
                &a.shape.dims().unwrap_or(&[])[ia],
                &b.shape.dims().unwrap_or(&[])[ib],
            );
            format!(
                "{how}: dim {} (axis {ia}) of {} {sa} and dim {} (axis {ib}) of {} {sb} are incompatible",
                ctx.symbols.display(da),
                a.name,
                ctx.symbols.display(db),
                b.name,
            )
        }
        _ => format!(
            "{how}: {} {sb} has a higher rank than {} {sa}",
            b.name, a.name
        ),
    };
    ShapeError::rule(RULE, message)
}

/// Numpy (multidirectional, also bidirectional) broadcast of `a` and `b`.
pub fn numpy(ctx: &mut InferContext, a: Operand<'_>, b: Operand<'_>) -> Result<Shape, ShapeError> {
    let (Some(da), Some(db)) = (a.shape.dims(), b.shape.dims()) else {
        return Ok(Shape::DynamicRank);
    };
    let rank = da.len().max(db.len());
    let (pa, pb) = (rank - da.len(), rank - db.len());
    let one = Expr::one();
    let mut out: Vec<Dim> = Vec::new();
    for i in 0..rank {
        let x = if i < pa { &one } else { &da[i - pa] };
        let y = if i < pb { &one } else { &db[i - pb] };
        match numpy_dim_inner(ctx, x, y)? {
            Ok(d) => out.push(d),
            Err(c) => {
                return Err(clash_error(
                    ctx,
                    c,
                    "numpy broadcast",
                    a,
                    b,
                    Some((i - pa, i - pb)),
                ))
            }
        }
    }
    Ok(Shape::ranked(out))
}

/// One-way broadcast of `source` to `target`: the result is the target
/// (with static source dims filled in where the target is symbolic).
pub fn one_way(
    ctx: &mut InferContext,
    source: Operand<'_>,
    target: Operand<'_>,
) -> Result<Shape, ShapeError> {
    let Some(dt) = target.shape.dims() else {
        return Ok(Shape::DynamicRank);
    };
    let Some(ds) = source.shape.dims() else {
        return Ok(target.shape.clone());
    };
    if ds.len() > dt.len() {
        return Err(clash_error(
            ctx,
            Clash::Rank,
            "one-way broadcast",
            target,
            source,
            None,
        ));
    }
    let pad = dt.len() - ds.len();
    let mut out: Vec<Dim> = dt.to_vec();
    for (j, s) in ds.iter().enumerate() {
        match one_way_dim(ctx, s, &dt[pad + j])? {
            Ok(d) => out[pad + j] = d,
            Err(c) => {
                return Err(clash_error(
                    ctx,
                    c,
                    "one-way broadcast",
                    target,
                    source,
                    Some((pad + j, j)),
                ))
            }
        }
    }
    Ok(Shape::ranked(out))
}

/// PDPD broadcast of `b` into `a` starting at `axis` (`-1`: `rank(a) -
/// rank(b)`); the result has `a`'s rank.
pub fn pdpd(
    ctx: &mut InferContext,
    a: Operand<'_>,
    b: Operand<'_>,
    axis: i64,
) -> Result<Shape, ShapeError> {
    let Some(da) = a.shape.dims() else {
        return Ok(Shape::DynamicRank);
    };
    let Some(db) = b.shape.dims() else {
        return Ok(a.shape.clone());
    };
    if db.len() > da.len() {
        return Err(clash_error(ctx, Clash::Rank, "pdpd broadcast", a, b, None));
    }
    let start = match axis {
        -1 => da.len() - db.len(),
        x if x >= 0 && usize::try_from(x).is_ok_and(|x| x <= da.len() - db.len()) => x as usize,
        _ => {
            return Err(ShapeError::rule(
                RULE,
                format!(
                    "pdpd broadcast: axis {axis} does not place {} {} inside {} {} (valid: -1 or 0 to {})",
                    b.name,
                    b.shape.display(&ctx.symbols),
                    a.name,
                    a.shape.display(&ctx.symbols),
                    da.len() - db.len()
                ),
            ))
        }
    };
    let mut out: Vec<Dim> = da.to_vec();
    for (j, s) in db.iter().enumerate() {
        match one_way_dim(ctx, s, &da[start + j])? {
            Ok(d) => out[start + j] = d,
            Err(c) => {
                return Err(clash_error(
                    ctx,
                    c,
                    "pdpd broadcast",
                    a,
                    b,
                    Some((start + j, j)),
                ))
            }
        }
    }
    Ok(Shape::ranked(out))
}

/// No broadcasting: `a` and `b` must be equal (symbolic dims are assumed
/// equal).
pub fn equal(ctx: &mut InferContext, a: Operand<'_>, b: Operand<'_>) -> Result<Shape, ShapeError> {
    let (Some(da), Some(db)) = (a.shape.dims(), b.shape.dims()) else {
        return Ok(match a.shape {
            Shape::DynamicRank => b.shape.clone(),
            _ => a.shape.clone(),
        });
    };
    if da.len() != db.len() {
        return Err(ShapeError::rule(
            RULE,
            format!(
                "no broadcasting (auto_broadcast none): {} {} and {} {} have different ranks",
                a.name,
                a.shape.display(&ctx.symbols),
                b.name,
                b.shape.display(&ctx.symbols)
            ),
        ));
    }
    let mut out: Vec<Dim> = Vec::new();
    for (i, (x, y)) in da.iter().zip(db).enumerate() {
        match equal_dim(ctx, x, y)? {
            Ok(d) => out.push(d),
            Err(c) => {
                return Err(clash_error(
                    ctx,
                    c,
                    "no broadcasting (auto_broadcast none)",
                    a,
                    b,
                    Some((i, i)),
                ))
            }
        }
    }
    Ok(Shape::ranked(out))
}

/// For each element of a broadcast result of static shape `out`, the index
/// of the element of an operand of static shape `input` it reads (numpy
/// alignment, or pdpd-style alignment at `start` when given). `None` when the
/// shapes do not broadcast or the result has more than `limit` elements.
pub fn element_map(
    input: &[i64],
    out: &[i64],
    start: Option<usize>,
    limit: u64,
) -> Option<Vec<usize>> {
    let total = out
        .iter()
        .try_fold(1u64, |acc, &d| acc.checked_mul(u64::try_from(d).ok()?))?;
    if total > limit || input.len() > out.len() {
        return None;
    }
    let offset = start.unwrap_or(out.len() - input.len());
    if offset + input.len() > out.len() {
        return None;
    }
    // The input's dims placed in the output's axes (1 elsewhere).
    let mut placed = vec![1i64; out.len()];
    for (j, &d) in input.iter().enumerate() {
        if d != 1 && d != out[offset + j] {
            return None;
        }
        placed[offset + j] = d;
    }
    let mut strides = vec![0usize; out.len()];
    let mut acc = 1usize;
    for i in (0..out.len()).rev() {
        strides[i] = if placed[i] == 1 { 0 } else { acc };
        acc = acc.checked_mul(usize::try_from(placed[i]).ok()?)?;
    }
    let total = usize::try_from(total).ok()?;
    let mut map = Vec::with_capacity(total);
    let mut index = vec![0i64; out.len()];
    for _ in 0..total {
        map.push(
            index
                .iter()
                .zip(&strides)
                .map(|(&i, &s)| i as usize * s)
                .sum(),
        );
        for k in (0..out.len()).rev() {
            index[k] += 1;
            if index[k] < out[k] {
                break;
            }
            index[k] = 0;
        }
    }
    Some(map)
}
