//! Kernels whose work is split for the threads (`thr13`): on pools of one
//! to three threads, their outputs against values computed here and
//! against each other, bit for bit. A Concat cuts its output by elements,
//! so a task may start or end inside any input's block; global pooling
//! splits its channels.

mod common;

use common::{f32_out, Net};
use executor::Tensor;

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
}

/// A value that differs at every position (and from input to input).
fn scrambled(shape: &[usize], seed: usize) -> Tensor {
    let n: usize = shape.iter().product();
    let values = (0..n)
        .map(|i| (((i + seed * 7919).wrapping_mul(2_654_435_761) >> 7) % 100_003) as f32 - 50_000.0)
        .collect();
    Tensor::from_vec(shape.to_vec(), values).unwrap()
}

#[test]
fn concat_cut_by_elements_matches_a_join_of_the_blocks() {
    // Batch 1 along the channels (one output row: SqueezeNet's joins, here
    // with blocks of odd sizes), several rows along the channels, and a
    // join along the last axis; from 4 KiB to about 2 MiB of output.
    let cases: [(&[&[usize]], usize); 4] = [
        (&[&[1, 37, 55, 55], &[1, 91, 55, 55], &[1, 5, 55, 55]], 1),
        (&[&[3, 17, 31, 29], &[3, 1, 31, 29], &[3, 40, 31, 29]], 1),
        (&[&[700, 3], &[700, 131]], 1),
        (&[&[4, 64, 3], &[4, 64, 1]], 2),
    ];
    for (shapes, axis) in cases {
        let inputs: Vec<Tensor> = (0..shapes.len()).map(|k| scrambled(shapes[k], k)).collect();
        let mut net = Net::new();
        let ports: Vec<_> = (0..shapes.len())
            .map(|k| {
                net.param(
                    &format!("x{k}"),
                    "f32",
                    &vec!["?"; shapes[k].len()].join(","),
                )
            })
            .collect();
        let o = net.op(
            "cat",
            "Concat",
            "opset1",
            &format!(r#"axis="{axis}""#),
            &ports,
            None,
        );
        net.result("out", o);
        // The expected join: per index of the axes before `axis`, each
        // input's block in turn.
        let outer: usize = shapes[0][..axis].iter().product();
        let mut want = Vec::new();
        for o in 0..outer {
            for t in &inputs {
                let block: usize = t.shape[axis..].iter().product();
                want.extend_from_slice(&t.to_vec::<f32>().unwrap()[o * block..(o + 1) * block]);
            }
        }
        for threads in [1, 2, 3] {
            let named: Vec<(String, Tensor)> = (0..inputs.len())
                .map(|k| (format!("x{k}"), inputs[k].clone()))
                .collect();
            let out = pool(threads)
                .install(|| net.exec(named.iter().map(|(n, t)| (n.as_str(), t.clone())).collect()));
            let (_, got) = f32_out(&out.unwrap(), "out");
            assert!(got == want, "{shapes:?} along {axis}, {threads} threads");
        }
    }
}

#[test]
fn global_pooling_on_threads_is_bit_identical() {
    for (shape, axes) in [
        (vec![1, 1000, 13, 13], vec![2i64, 3]),
        (vec![1, 1280, 7, 7], vec![2, 3]),
        (vec![2, 3, 5, 5], vec![2, 3]),
    ] {
        let x = scrambled(&shape, 3);
        let mut net = Net::new();
        let p = net.param("x", "f32", "?,?,?,?");
        let a = net.i64s("axes", &[axes.len() as u64], &axes);
        let o = net.op(
            "m",
            "ReduceMean",
            "opset1",
            r#"keep_dims="true""#,
            &[p, a],
            None,
        );
        net.result("out", o);
        let values = x.to_vec::<f32>().unwrap();
        let plane = shape[2] * shape[3];
        let runs: Vec<Vec<f32>> = [1, 2, 3]
            .iter()
            .map(|&threads| {
                let out = pool(threads).install(|| net.exec(vec![("x", x.clone())]));
                f32_out(&out.unwrap(), "out").1
            })
            .collect();
        for (c, &got) in runs[0].iter().enumerate() {
            let sum: f64 = values[c * plane..(c + 1) * plane]
                .iter()
                .map(|&v| f64::from(v))
                .sum();
            let want = (sum / plane as f64) as f32;
            assert!(
                (got - want).abs() <= want.abs() * 1e-6,
                "{shape:?} channel {c}"
            );
        }
        assert!(runs[1] == runs[0] && runs[2] == runs[0], "{shape:?}");
    }
}
