//! Weights the executor prepares when it is made: a Gather from a
//! compressed embedding table decodes only the rows it picks (the table is
//! never held in f32), and a MatMul's f32 weights stored misaligned in the
//! weights file are copied once into memory the GEMM reads in place.

mod common;
mod peak;

use common::{f32_out, Net};
use executor::{Executor, Tensor};
use half::f16;

#[global_allocator]
static ALLOC: peak::Counting = peak::Counting;

const ROWS: usize = 4096;
const GROUPS: usize = 4;
const GROUP: usize = 32;
const COLS: usize = GROUPS * GROUP;

/// The u4 code of element `i` of the table, its zero point and its scale
/// (per row and group; exact in f16).
fn code(i: usize) -> u8 {
    ((i * 7 + i / 13) % 16) as u8
}
fn zero_point(g: usize) -> f32 {
    (g % 5) as f32 + 6.0
}
fn scale(g: usize) -> f32 {
    0.125 * (1 + g % 3) as f32
}

/// `ids → Gather(table) → Result "out"`, the table `[ROWS, COLS]` decoded
/// from u4 by NNCF's chain: Convert(f16), Subtract(zero point),
/// Multiply(scale), Reshape, Convert(f32). With `also_read`, a second
/// Result reads the decoded table too, so nothing can stay compressed.
fn embedding(also_read: bool) -> Net {
    let mut net = Net::new();
    let ids = net.param("ids", "i64", "?,?");
    let packed: Vec<u8> = (0..ROWS * COLS / 2)
        .map(|b| code(2 * b) | (code(2 * b + 1) << 4))
        .collect();
    let half = |v: f32| f16::from_f32(v).to_le_bytes();
    let groups = ROWS * GROUPS;
    let zp: Vec<u8> = (0..groups).flat_map(|g| half(zero_point(g))).collect();
    let sc: Vec<u8> = (0..groups).flat_map(|g| half(scale(g))).collect();
    let shape = [ROWS as u64, GROUPS as u64, GROUP as u64];
    let w = net.constant("w", "u4", &shape, &packed);
    let zp = net.constant("zp", "f16", &[ROWS as u64, GROUPS as u64, 1], &zp);
    let sc = net.constant("sc", "f16", &[ROWS as u64, GROUPS as u64, 1], &sc);
    let f16s = r#"destination_type="f16""#;
    let w = net.op("w16", "Convert", "opset1", f16s, &[w], None);
    let w = net.op("sub", "Subtract", "opset1", "", &[w, zp], None);
    let w = net.op("mul", "Multiply", "opset1", "", &[w, sc], None);
    let target = net.i64s("target", &[2], &[ROWS as i64, COLS as i64]);
    let zero = r#"special_zero="false""#;
    let w = net.op("flat", "Reshape", "opset1", zero, &[w, target], None);
    let f32s = r#"destination_type="f32""#;
    let table = net.op("w32", "Convert", "opset1", f32s, &[w], None);
    let axis = net.i64s("axis", &[], &[0]);
    let dims = r#"batch_dims="0""#;
    let g = net.op(
        "gather",
        "Gather",
        "opset8",
        dims,
        &[table, ids, axis],
        None,
    );
    net.result("out", g);
    if also_read {
        net.result("table", table);
    }
    net
}

fn expected_row(row: usize) -> Vec<f32> {
    (0..COLS)
        .map(|c| {
            let g = row * GROUPS + c / GROUP;
            (f32::from(code(row * COLS + c)) - zero_point(g)) * scale(g)
        })
        .collect()
}

#[test]
fn a_gather_from_compressed_weights_decodes_only_its_rows() {
    let picked: [i64; 6] = [0, 4095, 17, -1, 17, 2048];
    let ids = Tensor::from_vec(vec![2, 3], picked.to_vec()).unwrap();
    let mut outputs = Vec::new();
    for also_read in [false, true] {
        let graph = embedding(also_read).graph();
        let (exec, made) = peak::peak_during(|| Executor::new(&graph).unwrap());
        let table_f32 = ROWS * COLS * 4;
        if also_read {
            // Folded: the table is held in f32 (so the bound below can fail).
            assert!(made >= table_f32, "{made} bytes");
        } else {
            // Compressed: a u4 table and a zero point and a scale per
            // group in f32 (an eighth and a sixteenth of it each).
            assert!(made < table_f32 / 2, "{made} bytes");
        }
        let inputs = [("ids".to_owned(), ids.clone())].into_iter().collect();
        let out = exec.run(inputs).unwrap();
        let (shape, values) = f32_out(&out, "out");
        assert_eq!(shape, [2, 3, COLS]);
        for (i, &id) in picked.iter().enumerate() {
            let row = if id < 0 { ROWS as i64 + id } else { id } as usize;
            assert_eq!(values[i * COLS..(i + 1) * COLS], expected_row(row), "{id}");
        }
        outputs.push(values);
    }
    assert_eq!(outputs[0], outputs[1]);
    // No index: an empty output. An index out of range: an error.
    let exec = Executor::new(&embedding(false).graph()).unwrap();
    let run = |ids: Tensor| exec.run([("ids".to_owned(), ids)].into_iter().collect());
    let out = run(Tensor::from_vec(vec![1, 0], Vec::<i64>::new()).unwrap()).unwrap();
    assert_eq!(out["out"].shape, [1, 0, COLS]);
    for bad in [4096i64, -4097] {
        let err = run(Tensor::from_vec(vec![1, 1], vec![bad]).unwrap()).unwrap_err();
        assert!(err.to_string().contains("out of range"), "{err}");
    }
}

#[test]
fn misaligned_f32_weights_multiply_as_aligned_ones() {
    // [m, k] · [n, k]ᵀ on odd shapes, one row, and none.
    for (m, k, n) in [(5, 7, 3), (1, 33, 17), (0, 4, 2), (130, 97, 90)] {
        let a: Vec<f32> = (0..m * k).map(|v| ((v * 7) % 11) as f32 - 5.0).collect();
        let w: Vec<f32> = (0..n * k).map(|v| ((v * 3) % 13) as f32 - 6.0).collect();
        let mut net = Net::new();
        let x = net.param("x", "f32", "?,?");
        // One byte first: the weights start at offset 1 of the file.
        net.mask("pad", &[true]);
        let wc = net.f32s("w", &[n as u64, k as u64], &w);
        let attrs = r#"transpose_a="false" transpose_b="true""#;
        let y = net.op("y", "MatMul", "opset1", attrs, &[x, wc], None);
        net.result("out", y);
        let input = Tensor::from_vec(vec![m, k], a.clone()).unwrap();
        let out = net.exec(vec![("x", input)]).unwrap();
        let (shape, got) = f32_out(&out, "out");
        assert_eq!(shape, [m, n]);
        let want: Vec<f32> = (0..m * n)
            .map(|o| (0..k).map(|p| a[o / n * k + p] * w[o % n * k + p]).sum())
            .collect();
        assert_eq!(got, want, "{m}x{k}x{n}");
    }
}
