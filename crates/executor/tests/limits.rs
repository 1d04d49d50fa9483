//! Memory limits: sizes written in a file are refused before anything is
//! allocated, the live intermediates are bounded, views are not counted
//! twice, and a run's limit does not outlive it.

mod common;

use common::{arange, Net};
use executor::{ExecError, Executor, Limits, Tensor};

const SMALL: Limits = Limits {
    max_tensor_bytes: 1 << 20,
    max_live_bytes: 1 << 20,
    max_iterations: executor::MAX_ITERATIONS,
};

fn run(net: &Net, limits: Limits, inputs: Vec<(&str, Tensor)>) -> Result<(), ExecError> {
    let exec = Executor::new(&net.graph())?.with_limits(limits);
    exec.run(inputs.into_iter().map(|(n, t)| (n.to_owned(), t)).collect())
        .map(|_| ())
}

/// A Const-fed Broadcast to `target` (f32 data of one element).
fn broadcast_to(target: &[i64]) -> Net {
    let mut net = Net::new();
    let x = net.f32s("x", &[1], &[1.0]);
    let t = net.i64s("t", &[target.len() as u64], target);
    let b = net.op("b", "Broadcast", "opset3", "", &[x, t], None);
    net.result("out", b);
    net
}

#[test]
fn a_huge_const_fed_target_is_refused_before_allocating() {
    // 4e9 bytes: below MAX_TENSOR_BYTES, far above the run's limit.
    let err = run(&broadcast_to(&[1000, 1000, 1000]), SMALL, vec![]).unwrap_err();
    match err {
        ExecError::MemoryLimit {
            layer,
            what,
            needed,
            limit,
            ..
        } => {
            assert_eq!((layer.as_str(), what.as_str()), ("b", "output 0"));
            assert_eq!((needed, limit), (4_000_000_000, 1 << 20));
        }
        other => panic!("{other}"),
    }
    // 4e10 bytes: past the default limits too; dims whose product overflows
    // are refused as well.
    let err = run(
        &broadcast_to(&[100_000, 100_000]),
        Limits::default(),
        vec![],
    )
    .unwrap_err();
    assert!(matches!(err, ExecError::MemoryLimit { .. }), "{err}");
    let huge = 1i64 << 40;
    let err = run(&broadcast_to(&[huge, huge, huge]), SMALL, vec![]).unwrap_err();
    assert!(matches!(err, ExecError::MemoryLimit { .. }), "{err}");
    // Empty, but with dims whose product overflows: refused (kernels count
    // elements with checked arithmetic) rather than walked.
    let err = run(&broadcast_to(&[huge, huge, 0, huge]), SMALL, vec![]).unwrap_err();
    assert!(matches!(err, ExecError::TooLarge(_)), "{err}");
    // Empty with one huge dim: nothing to compute, done at once.
    let start = std::time::Instant::now();
    let out = run(&broadcast_to(&[huge, 0]), SMALL, vec![]);
    assert!(out.is_ok(), "{out:?}");
    assert!(start.elapsed().as_secs() < 5);
}

#[test]
fn a_storage_type_output_is_refused_before_allocating() {
    // Converted to u4 and f8 (kernels that make one-byte codes), then
    // broadcast: 1e9 elements, far above the run's limit.
    for target_type in ["u4", "f8e4m3"] {
        let mut net = Net::new();
        let x = net.f32s("x", &[1], &[1.0]);
        let c = net.op(
            "c",
            "Convert",
            "opset1",
            &format!(r#"destination_type="{target_type}""#),
            &[x],
            None,
        );
        let t = net.i64s("t", &[3], &[1000, 1000, 1000]);
        let b = net.op("b", "Broadcast", "opset3", "", &[c, t], None);
        net.result("out", b);
        match run(&net, SMALL, vec![]).unwrap_err() {
            ExecError::MemoryLimit { layer, needed, .. } => {
                assert_eq!(
                    (layer.as_str(), needed),
                    ("b", 1_000_000_000),
                    "{target_type}"
                );
            }
            other => panic!("{target_type}: {other}"),
        }
    }
}

#[test]
fn a_run_time_size_is_refused_before_the_kernel_allocates() {
    // A Range whose length only the run knows: the rule, rerun on the
    // run's values, sizes it, and the size is checked against the run's
    // per-tensor limit before the kernel runs.
    let mut net = Net::new();
    let a = net.param("a", "i64", "");
    let b = net.param("b", "i64", "");
    let c = net.param("c", "i64", "");
    let r = net.op(
        "r",
        "Range",
        "opset4",
        r#"output_type="i64""#,
        &[a, b, c],
        None,
    );
    net.result("out", r);
    let s = |v: i64| Tensor::scalar(v);
    let inputs = || vec![("a", s(0)), ("b", s(1_000_000_000)), ("c", s(1))];
    let err = run(&net, SMALL, inputs()).unwrap_err();
    assert!(
        matches!(&err, ExecError::MemoryLimit { layer, .. } if layer == "r"),
        "{err}"
    );
    // The limit was the run's only: outside it the default holds again.
    assert!(executor::byte_size(ir::ElementType::F32, &[1 << 20]).is_ok());
    let ok = vec![("a", s(0)), ("b", s(10)), ("c", s(1))];
    assert!(run(&net, SMALL, ok).is_ok());
}

/// `x → a = ReLU(x), b = Exp(x) → Add(a, b)`: three live tensors of `n`
/// f32 each at the Add.
fn diamond() -> Net {
    let mut net = Net::new();
    let x = net.param("x", "f32", "-1");
    let a = net.op("a", "ReLU", "opset1", "", &[x], None);
    let b = net.op("b", "Exp", "opset1", "", &[x], None);
    let c = net.op("c", "Add", "opset1", "", &[a, b], None);
    net.result("out", c);
    net
}

#[test]
fn live_tensors_are_bounded_and_freed_ones_are_not_counted() {
    let n = 1 << 16; // 256 KiB of f32
    let limits = |live: u64| Limits {
        max_tensor_bytes: 1 << 20,
        max_live_bytes: live,
        max_iterations: executor::MAX_ITERATIONS,
    };
    let err = run(&diamond(), limits((3 << 18) - 1), vec![("x", arange(&[n]))]).unwrap_err();
    match err {
        ExecError::MemoryLimit { layer, what, .. } => {
            assert_eq!((layer.as_str(), what.as_str()), ("c", "the live tensors"))
        }
        other => panic!("{other}"),
    }
    assert!(run(&diamond(), limits(3 << 18), vec![("x", arange(&[n]))]).is_ok());
    // A chain of 20 ReLUs holds two tensors at a time (the input is the
    // caller's), and a Reshape is a view of its input, not a second buffer.
    let mut net = Net::new();
    let mut t = net.param("x", "f32", "-1");
    for k in 0..20 {
        t = net.op(&format!("r{k}"), "ReLU", "opset1", "", &[t], None);
    }
    let shape = net.i64s("shape", &[2], &[-1, 2]);
    let t = net.op(
        "reshape",
        "Reshape",
        "opset1",
        r#"special_zero="false""#,
        &[t, shape],
        None,
    );
    net.result("out", t);
    assert!(run(&net, limits(2 << 18), vec![("x", arange(&[n]))]).is_ok());
    assert!(run(&net, limits((2 << 18) - 1), vec![("x", arange(&[n]))]).is_err());
}
