//! The executor (`ir-check --run`) on any model it accepts, with inputs made
//! from the fuzz bytes: any `Ok` or `Err` is fine; a panic, an abort, an
//! allocation past the limits or a hang is a bug.
//!
//! Layout: one byte `n`, then `n` bytes of input values (cycled to fill the
//! inputs; they also pick the dynamic dims), then the model in the layout of
//! `common.rs`.
#![no_main]

use std::collections::HashMap;

use ir::{ElementType, Op};
use libfuzzer_sys::fuzz_target;
use symdim::{Expr, SymbolId};

mod common;

/// Inputs with more elements than this are not worth a run.
const MAX_INPUT_ELEMENTS: usize = 4096;

/// Small limits, so that a size written in the file fails fast instead of
/// allocating (and the fuzzer's RSS limit catches anything that escapes).
const LIMITS: executor::Limits = executor::Limits {
    max_tensor_bytes: 1 << 20,
    max_live_bytes: 8 << 20,
    max_iterations: 1 << 10,
};

/// The value bytes, handed out in a cycle.
struct Bytes<'a> {
    data: &'a [u8],
    next: usize,
}

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        if self.data.is_empty() {
            return 0;
        }
        let b = self.data[self.next % self.data.len()];
        self.next = self.next.wrapping_add(1);
        b
    }

    /// A small dim: 0 to 3 (0 exercises empty tensors), rarely a vast one
    /// (2^40: with a 0 elsewhere, an empty tensor with a vast dim; without,
    /// the case is skipped).
    fn dim(&mut self) -> i64 {
        match self.byte() {
            0xf0.. => 1 << 40,
            b => i64::from(b % 4),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&n, rest)) = data.split_first() else {
        return;
    };
    let (values, model) = rest.split_at(usize::from(n).min(rest.len()));
    let Some((bin, xml)) = common::split(model) else {
        return;
    };
    let weights = ir::TensorBytes::from_vec(bin.to_vec());
    let Ok(read) = ir_xml::read_model_from_str(xml, Some(weights)) else {
        return;
    };
    let graph = read.graph;
    let Ok(exec) = executor::Executor::new(&graph) else {
        return;
    };
    let exec = exec.with_limits(LIMITS);
    let mut bytes = Bytes {
        data: values,
        next: 0,
    };
    // Symbols are bound consistently (one value each, within their range
    // when it allows a small one); other dim expressions are evaluated.
    let mut symbols: HashMap<SymbolId, i64> = HashMap::new();
    let mut inputs = HashMap::new();
    for (_, node) in graph.parameters() {
        let Op::Parameter {
            element_type,
            shape,
        } = &node.op
        else {
            continue;
        };
        if !element_type.is_static() || !element_type.is_computable() {
            return;
        }
        let dims: Vec<i64> = match shape.dims() {
            // An unknown rank: 0 to 3 small dims.
            None => (0..bytes.byte() % 4).map(|_| bytes.dim()).collect(),
            Some(dims) => dims
                .iter()
                .map(|d| dim_value(d, &graph.symbols, &mut symbols, &mut bytes))
                .collect(),
        };
        let Some(shape) = dims
            .iter()
            .map(|&d| usize::try_from(d).ok())
            .collect::<Option<Vec<usize>>>()
        else {
            return;
        };
        match shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d)) {
            Some(count) if count <= MAX_INPUT_ELEMENTS => {}
            _ => return,
        }
        let Ok(size) = executor::byte_size(*element_type, &shape) else {
            return;
        };
        let mut data: Vec<u8> = (0..size).map(|_| bytes.byte()).collect();
        if *element_type == ElementType::Boolean {
            // Booleans are stored as 0 or 1.
            data.iter_mut().for_each(|b| *b &= 1);
        }
        let Ok(tensor) = executor::Tensor::from_bytes(*element_type, shape, data) else {
            return;
        };
        inputs.insert(node.name.clone(), tensor);
    }
    let _ = exec.run(inputs);
});

/// The value of one declared dim.
fn dim_value(
    dim: &Expr,
    table: &symdim::SymbolTable,
    symbols: &mut HashMap<SymbolId, i64>,
    bytes: &mut Bytes<'_>,
) -> i64 {
    if let Some(c) = dim.as_constant() {
        return c;
    }
    if let Some(s) = dim.as_symbol() {
        if let Some(&v) = symbols.get(&s) {
            return v;
        }
        let range = table.range(s);
        let mut v = bytes.dim();
        if let Some(lo) = range.lo {
            v = v.max(lo);
        }
        if let Some(hi) = range.hi {
            v = v.min(hi);
        }
        symbols.insert(s, v);
        return v;
    }
    dim.eval(&|s| symbols.get(&s).copied())
        .unwrap_or_else(|_| bytes.dim())
}
