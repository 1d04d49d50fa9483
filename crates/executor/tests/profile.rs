//! The per-layer profile of a profiled executor: returned through
//! [`Executor::profile`], never printed by the library (not even with the
//! `OVIR_PROFILE` variable set, which only `ir-check` reads).

mod common;

use std::collections::HashMap;
use std::process::Command;

use common::{arange, Net};
use executor::{Executor, Tensor};

/// `x [2, 3] -> Relu -> Add x -> Relu`: with the Parameter and the Result,
/// five layers of four op types.
fn net() -> Net {
    let mut net = Net::new();
    let x = net.param("x", "f32", "2,3");
    let r1 = net.op("relu1", "ReLU", "opset1", "", &[x], Some(vec![2, 3]));
    let add = net.op("add", "Add", "opset1", "", &[r1, x], Some(vec![2, 3]));
    let r2 = net.op("relu2", "ReLU", "opset1", "", &[add], Some(vec![2, 3]));
    net.result("out", r2);
    net
}

fn inputs() -> HashMap<String, Tensor> {
    HashMap::from([("x".to_owned(), arange(&[2, 3]))])
}

/// Runs the net three times profiled and checks the figures.
fn profile_three_runs() {
    let exec = Executor::new(&net().graph())
        .expect("prepares")
        .with_profiling();
    for _ in 0..3 {
        exec.run(inputs()).expect("runs");
    }
    let profile = exec.profile().expect("profiled");
    let mut layers: Vec<(&str, &str, u64)> = profile
        .layers
        .iter()
        .map(|l| (l.layer.as_str(), l.op.as_str(), l.calls))
        .collect();
    layers.sort();
    assert_eq!(
        layers,
        [
            ("add", "Add", 3),
            ("out", "Result", 3),
            ("relu1", "ReLU", 3),
            ("relu2", "ReLU", 3),
            ("x", "Parameter", 3)
        ]
    );
    assert!(profile.layers.iter().all(|l| l.fastest <= l.total));
    let shape = |name: &str| {
        let layer = profile.layers.iter().find(|l| l.layer == name);
        layer.and_then(|l| l.shape.clone())
    };
    assert_eq!(shape("add"), Some(vec![2, 3]));
    assert_eq!(shape("relu2"), Some(vec![2, 3]));
    let relu = profile.ops.iter().find(|o| o.op == "ReLU").expect("ReLU");
    assert_eq!(relu.layers, 2);
    assert_eq!(profile.ops.len(), 4);
    assert_eq!(
        profile.fastest(),
        profile.layers.iter().map(|l| l.fastest).sum()
    );
    let table = profile.table(1).to_string();
    assert_eq!(table.lines().count(), 1 + 4 + 1, "{table}");
    assert!(table.starts_with("profile: "), "{table}");
    drop(exec);
}

#[test]
fn an_executor_made_without_profiling_has_no_profile() {
    let exec = Executor::new(&net().graph()).expect("prepares");
    exec.run(inputs()).expect("runs");
    assert!(exec.profile().is_none());
}

/// Set in the child process of the test below.
const CHILD: &str = "OVIR_PROFILE_TEST_CHILD";

#[test]
fn a_profiled_executor_returns_the_figures_and_prints_nothing() {
    if std::env::var_os(CHILD).is_some() {
        profile_three_runs();
        return;
    }
    // Run this test alone in a child with the old variable set and nothing
    // captured, so any print from any thread shows in its output.
    let output = Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            "--exact",
            "a_profiled_executor_returns_the_figures_and_prints_nothing",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(CHILD, "1")
        .env("OVIR_PROFILE", "5")
        .output()
        .expect("the child runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("1 passed"), "{stdout}");
    assert!(!stderr.contains("profile"), "{stderr}");
    assert!(
        !stdout.lines().any(|l| l.starts_with("profile")),
        "{stdout}"
    );
}
