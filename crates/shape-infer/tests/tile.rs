//! Tile-1.

mod support;
use support::Ir;

fn tile(shape: &str, repeats: &[i64]) -> String {
    let mut b = Ir::new();
    let x = b.param("x", shape, "f32");
    let r = b.vec("r", repeats);
    let t = b.op("t", "Tile", "opset1", &[], &[x, r]);
    b.result(t);
    let run = b.run();
    run.clean();
    run.shape("t")
}

#[test]
fn tile_shapes() {
    // OpenVINO on [2,3,4]: [2] -> [2,3,8]; [2,1,1,3] -> [2,2,3,12]; [-2,1,1] -> [0,3,4].
    assert_eq!(tile("2,3,4", &[2]), "[2, 3, 8]");
    assert_eq!(tile("2,3,4", &[2, 1, 1, 3]), "[2, 2, 3, 12]");
    assert_eq!(tile("2,3,4", &[-2, 1, 1]), "[0, 3, 4]");
    assert_eq!(tile("2,3,4", &[]), "[2, 3, 4]");
    assert_eq!(tile("N,H", &[3, 2]), "[3*N, 2*H]");
    assert_eq!(tile("...", &[3, 2]), "[...]");
}

#[test]
fn tile_by_shape_values_and_errors() {
    let mut b = Ir::new();
    let x = b.param("x", "1,C", "f32");
    let y = b.param("y", "N,1", "f32");
    let reps = b.op("reps", "ShapeOf", "opset3", &[], &[y]);
    let t = b.op("t", "Tile", "opset1", &[], &[x, reps]);
    let r = b.run_to(t);
    r.clean();
    assert_eq!(r.shape("t"), "[N, C]");

    let mut b = Ir::new();
    let x = b.param("x", "2", "f32");
    let reps = b.param("reps", "2", "f32");
    let t = b.op("t", "Tile", "opset1", &[], &[x, reps]);
    b.run_to(t).error("t", "element-type", "integer");
}
