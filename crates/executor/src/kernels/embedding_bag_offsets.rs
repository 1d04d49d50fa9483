//! EmbeddingBagOffsetsSum-3 and EmbeddingBagOffsets-15, after OpenVINO's
//! reference: bag `b` adds the table rows `indices[offsets[b]..offsets[b+1]]`
//! (the last bag runs to the end), each scaled by its per-sample weight when
//! given; an empty bag takes the row `default_index` (when given and not
//! negative, unweighted) or stays zero; `reduction="mean"` divides a filled
//! bag by its count. Computed in f64 and rounded once to the table's type.
//!
//! Where the reference reads out of bounds (an index or default index not a
//! row of the table, an offset not inside the indices or going backwards),
//! this is an error.

use super::{from_f64s, to_f64s, Call, KResult};
use crate::tensor::Tensor;

/// Output rows (bags or segments) accumulated from the rows of an embedding
/// table `[rows, ...]` flattened to `depth` values per row.
pub(crate) struct Bags {
    table: Vec<f64>,
    rows: usize,
    depth: usize,
    pub out: Vec<f64>,
}

impl Bags {
    /// `bags` output rows of zeros for the table `table`.
    pub fn new(table: &Tensor, bags: usize) -> KResult<Bags> {
        let Some((&rows, rest)) = table.shape.split_first() else {
            return Err("the embedding table must not be a scalar".into());
        };
        let depth: usize = rest.iter().product();
        let len = bags.checked_mul(depth).ok_or("the output is too large")?;
        Ok(Bags {
            table: to_f64s(table)?,
            rows,
            depth,
            out: vec![0.0; len],
        })
    }

    fn row(&self, index: i64) -> KResult<usize> {
        usize::try_from(index)
            .ok()
            .filter(|&r| r < self.rows)
            .ok_or_else(|| {
                format!(
                    "index {index} is not a row of the embedding table ({} rows)",
                    self.rows
                )
                .into()
            })
    }

    /// Adds `weight` times table row `index` to output row `bag`.
    pub fn add(&mut self, bag: usize, index: i64, weight: f64) -> KResult<()> {
        let src = self.row(index)? * self.depth;
        let dst = bag * self.depth;
        for k in 0..self.depth {
            self.out[dst + k] += self.table[src + k] * weight;
        }
        Ok(())
    }

    /// Sets output row `bag` to table row `index`.
    pub fn set(&mut self, bag: usize, index: i64) -> KResult<()> {
        let src = self.row(index)? * self.depth;
        let dst = bag * self.depth;
        self.out[dst..dst + self.depth].copy_from_slice(&self.table[src..src + self.depth]);
        Ok(())
    }

    /// Divides output row `bag` by `count`.
    pub fn divide(&mut self, bag: usize, count: f64) {
        let dst = bag * self.depth;
        self.out[dst..dst + self.depth]
            .iter_mut()
            .for_each(|v| *v /= count);
    }

    /// The output tensor, of the table's type and shape `shape`.
    pub fn finish(self, table: &Tensor, shape: Vec<usize>) -> KResult<Tensor> {
        from_f64s(table.element_type, shape, &self.out)
    }
}

/// Whether a v15 op averages its bags (`reduction="mean"`).
pub(crate) fn averages(call: &Call<'_>) -> bool {
    call.node.attributes.get("reduction").map(str::trim) == Some("mean")
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let (table, indices, offsets) = (call.input(0)?, call.input(1)?, call.input(2)?);
    let out = call.out_shape(0)?;
    let indices = indices.to_i64s()?;
    let offsets = offsets.to_i64s()?;
    let default = match call.inputs.get(3) {
        Some(t) => t.to_i64s()?.first().copied(),
        None => None,
    };
    let weights = call.inputs.get(4).map(to_f64s).transpose()?;
    let mean = averages(call);
    if out.first() != Some(&offsets.len()) {
        return Err("internal: the output does not have one row per offset".into());
    }
    let mut bags = Bags::new(table, offsets.len())?;
    let count = indices.len();
    for (b, &start) in offsets.iter().enumerate() {
        let end = offsets.get(b + 1).copied().unwrap_or(count as i64);
        let (Ok(s), Ok(e)) = (usize::try_from(start), usize::try_from(end)) else {
            return Err(format!("offset {start} of bag {b} is negative").into());
        };
        if s >= count || e < s || e > count {
            return Err(format!(
                "bag {b} runs from offset {start} to {end}, outside the {count} indices"
            )
            .into());
        }
        if s == e {
            if let Some(d) = default.filter(|&d| d >= 0) {
                bags.add(b, d, 1.0)?;
            }
            continue;
        }
        for (i, &index) in indices.iter().enumerate().take(e).skip(s) {
            let w = weights.as_ref().map_or(Ok(1.0), |w| {
                w.get(i)
                    .copied()
                    .ok_or("per_sample_weights is shorter than the indices")
            })?;
            bags.add(b, index, w)?;
        }
        if mean {
            bags.divide(b, (e - s) as f64);
        }
    }
    Ok(vec![bags.finish(table, out)?])
}
