//! MaxPool-8's indices through the executor: batch and channels more than
//! one, every `axis` and both index types, against a direct loop.

mod common;

use common::Net;
use executor::Tensor;

/// Per output: the first maximum of its 3x3 window (stride 2, pads 1,
/// padding never wins) and its flat index in the whole input.
fn reference(x: &[f32], [n, c, h, w]: [usize; 4]) -> (Vec<f32>, Vec<i64>) {
    let (oh, ow) = ((h + 2 - 3) / 2 + 1, (w + 2 - 3) / 2 + 1);
    let (mut values, mut indices) = (Vec::new(), Vec::new());
    for plane in 0..n * c {
        for y in 0..oh {
            for o in 0..ow {
                let mut best: Option<(f32, usize)> = None;
                for ty in 0..3 {
                    for tx in 0..3 {
                        let (iy, ix) = ((2 * y + ty) as i64 - 1, (2 * o + tx) as i64 - 1);
                        if (0..h as i64).contains(&iy) && (0..w as i64).contains(&ix) {
                            let i = (plane * h + iy as usize) * w + ix as usize;
                            if best.is_none_or(|(b, _)| x[i] > b) {
                                best = Some((x[i], i));
                            }
                        }
                    }
                }
                let (v, i) = best.unwrap_or((f32::MIN, 0));
                values.push(v);
                indices.push(i as i64);
            }
        }
    }
    (values, indices)
}

#[test]
fn indices_count_from_the_axis_for_every_plane() {
    let shape = [2usize, 3, 5, 7];
    let n: usize = shape.iter().product();
    // Many ties (the first in window order wins), no NaN.
    let x: Vec<f32> = (0..n).map(|i| ((i * 7 + 3) % 5) as f32).collect();
    let (want_values, flat) = reference(&x, shape);
    for axis in 0..4 {
        for index_type in ["i64", "i32"] {
            let mut net = Net::new();
            let p = net.param("x", "f32", "?,?,?,?");
            let attrs = format!(
                r#"strides="2,2" dilations="1,1" pads_begin="1,1" pads_end="1,1" kernel="3,3" rounding_type="floor" auto_pad="explicit" index_element_type="{index_type}" axis="{axis}""#
            );
            let outs = net.op_multi("mp", "MaxPool", "opset8", &attrs, &[p], vec![None, None]);
            net.result("values", outs[0]);
            net.result("indices", outs[1]);
            let input = Tensor::from_vec(shape.to_vec(), x.clone()).unwrap();
            let out = net.exec(vec![("x", input)]).unwrap();
            assert_eq!(out["values"].to_vec::<f32>().unwrap(), want_values);
            let span: i64 = shape[axis..].iter().product::<usize>() as i64;
            let want: Vec<i64> = flat.iter().map(|&i| i % span).collect();
            let got: Vec<i64> = match index_type {
                "i64" => out["indices"].to_vec::<i64>().unwrap(),
                _ => (out["indices"].to_vec::<i32>().unwrap())
                    .into_iter()
                    .map(i64::from)
                    .collect(),
            };
            assert_eq!(got, want, "axis {axis}, {index_type}");
        }
    }
}
