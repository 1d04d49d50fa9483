//! Every op of the installed OpenVINO's opset tables resolves in the
//! registry at that opset (`crates/shape-infer/tests/openvino_opsets.json`,
//! written by `scripts/gen_openvino_opsets.py` from the tables OpenVINO's
//! wheel ships). The ops with bodies (If, Loop, TensorIterator) are inferred
//! through their bodies, outside the registry.
//!
//! For OpenVINO 2026.4 this is opsets 1 to 17 whole (opset16 has no MOE: its
//! `MOE` is an internal op, in no opset; opset1 has `Xor`, v0::Xor, beside
//! LogicalXor; opset17 holds ErfInv, GroupedMatMul, RGBtoNV12 and BGRtoNV12
//! besides Parameter, Convert and ShapeOf). An op of a newer OpenVINO that
//! the registry lacks goes in [`NOT_YET`] until it is implemented.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;
use shape_infer::ops::BODY_OPS;
use shape_infer::registry::{OpsetFamily, Resolution};
use shape_infer::Registry;

/// `(opset, op)` of the installed OpenVINO that the registry does not know.
const NOT_YET: &[(&str, &str)] = &[];

fn tables() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/openvino_opsets.json");
    let text = std::fs::read_to_string(&path).expect("tests/openvino_opsets.json is readable");
    serde_json::from_str(&text).expect("tests/openvino_opsets.json is JSON")
}

#[test]
fn every_op_of_openvinos_opsets_resolves() {
    let data = tables();
    let opsets = data["opsets"].as_object().expect("an opsets object");
    assert!(opsets.len() >= 16, "only {} opsets", opsets.len());
    let registry = Registry::standard();
    let body_ops: BTreeSet<&str> = BODY_OPS.iter().map(|(name, _, _)| *name).collect();
    let mut missing = BTreeSet::new();
    let mut checked = 0;
    for (opset, ops) in opsets {
        for entry in ops.as_array().expect("a list of ops") {
            let op = entry[0].as_str().expect("an op name");
            checked += 1;
            if body_ops.contains(op) {
                continue;
            }
            // The tables name the class; the IR writes a Constant `Const`
            // (the reader takes both spellings as the constant op).
            let ir_name = if op == "Constant" { "Const" } else { op };
            if !matches!(registry.resolve(ir_name, opset), Resolution::Known(..)) {
                missing.insert((opset.as_str(), op));
            }
        }
    }
    assert!(checked > 2000, "only {checked} table entries");
    let expected: BTreeSet<(&str, &str)> = NOT_YET.iter().copied().collect();
    assert_eq!(
        missing, expected,
        "ops of OpenVINO {} the registry does not resolve (left) against the known list (right)",
        data["openvino_version"]
    );
}

#[test]
fn opset16_of_the_installed_openvino_has_no_moe() {
    let data = tables();
    let opset16 = data["opsets"]["opset16"].as_array().expect("opset16");
    assert!(opset16.iter().all(|e| e[0] != "MOE"));
    assert!(opset16.iter().any(|e| e[0] == "SegmentMax"));
}

/// The converse: an op the registry resolves at an opset is in that opset's
/// table, so a file OpenVINO's reader refuses (`Relu` in `opset17`, `Reverse`
/// in `opset2`) does not pass the check; and every OpenVINO op of the
/// registry is in some table of the installed OpenVINO.
#[test]
fn the_registry_resolves_an_op_only_where_openvinos_opset_has_it() {
    let data = tables();
    let opsets = data["opsets"].as_object().expect("an opsets object");
    let registry = Registry::standard();
    let mut contained = BTreeSet::new();
    for (opset, ops) in opsets {
        for entry in ops.as_array().expect("a list of ops") {
            let op = entry[0].as_str().expect("an op name");
            let ir_name = if op == "Constant" { "Const" } else { op };
            contained.insert((opset.clone(), ir::ir_type_name(ir_name).to_string()));
        }
    }
    let newest = opsets.len() as u32;
    let mut extra = Vec::new();
    let mut in_no_table = Vec::new();
    for def in registry.ops() {
        let openvino = def
            .versions
            .iter()
            .any(|v| v.family == OpsetFamily::OpenVino);
        if !openvino {
            continue;
        }
        if !contained.iter().any(|(_, op)| op == def.type_name) {
            in_no_table.push(def.type_name);
            continue;
        }
        for n in 1..=newest + 1 {
            let opset = format!("opset{n}");
            let resolves = matches!(
                registry.resolve(def.type_name, &opset),
                Resolution::Known(..)
            );
            if resolves && !contained.contains(&(opset.clone(), def.type_name.to_string())) {
                extra.push(format!("{} in {opset}", def.type_name));
            }
        }
    }
    assert_eq!(
        extra,
        Vec::<String>::new(),
        "resolved where OpenVINO's table lacks the op"
    );
    assert_eq!(
        in_no_table,
        Vec::<&str>::new(),
        "OpenVINO ops in no table of the installed OpenVINO"
    );
}
