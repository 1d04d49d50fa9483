//! NMSRotated-13, as OpenVINO's CPU plugin computes it (in `f32`): per
//! batch and class, the boxes `(x_ctr, y_ctr, w, h, angle)` scoring above
//! `score_threshold` are taken best first (ties: lower box index); the best
//! is selected, and each next one unless its IoU with a selected box is
//! above `iou_threshold` (a box of area at most 0 overlaps nothing, and is
//! dropped only by a negative threshold), at most `max_output_boxes_per_class`
//! per class (0 or negative: none). The IoU is the area of the convex hull
//! of the two rectangles' crossing points and inner corners (detectron2's
//! rotated-box overlap, as the CPU plugin has it), over the union. A
//! positive angle turns clockwise unless `clockwise` is false. The
//! selection is listed batch by batch, class by class, or, with
//! `sort_result_descending`, by score across batches (ties: batch, class,
//! box).

use std::ops::{Add, Mul, Sub};

use super::non_max_suppression::{sort_by_score, write_selected, Selected};
use super::{to_f64s, Call, KResult};
use crate::tensor::{check_scratch, Tensor};

/// A point of the plane, in `f32` as the CPU plugin's.
#[derive(Clone, Copy, Debug, Default)]
struct Point {
    x: f32,
    y: f32,
}

impl Sub for Point {
    type Output = Point;
    fn sub(self, o: Point) -> Point {
        Point {
            x: self.x - o.x,
            y: self.y - o.y,
        }
    }
}

impl Add for Point {
    type Output = Point;
    fn add(self, o: Point) -> Point {
        Point {
            x: self.x + o.x,
            y: self.y + o.y,
        }
    }
}

impl Mul<f32> for Point {
    type Output = Point;
    fn mul(self, k: f32) -> Point {
        Point {
            x: self.x * k,
            y: self.y * k,
        }
    }
}

fn dot(a: Point, b: Point) -> f32 {
    a.x * b.x + a.y * b.y
}

fn cross(a: Point, b: Point) -> f32 {
    a.x * b.y - b.x * a.y
}

pub(crate) fn run(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    let boxes = call.input(0)?;
    let scores = call.input(1)?;
    let (&[batches, count, 5], &[score_batches, classes, score_count]) =
        (boxes.shape.as_slice(), scores.shape.as_slice())
    else {
        return Err(format!(
            "boxes {:?} and scores {:?} must be [B, N, 5] and [B, C, N]",
            boxes.shape, scores.shape
        )
        .into());
    };
    if score_batches != batches || score_count != count {
        return Err(format!(
            "boxes {:?} and scores {:?} do not fit [B, N, 5] and [B, C, N]",
            boxes.shape, scores.shape
        )
        .into());
    }
    // The CPU plugin reads the max as i32; 0 or less selects nothing.
    let max = call.input_f64(2, "max_output_boxes_per_class")? as i64;
    let max_per_class = usize::try_from(max).map_or(0, |m| m.min(count));
    let iou_threshold = call.input_f64(3, "iou_threshold")? as f32;
    let score_threshold = call.input_f64(4, "score_threshold")? as f32;
    let clockwise = call.attr_bool("clockwise", true);
    check_scratch(
        batches.saturating_mul(classes).saturating_mul(count),
        32,
        "NMSRotated",
    )?;
    let all_boxes: Vec<[f32; 5]> = to_f64s(boxes)?
        .chunks_exact(5)
        .map(|b| {
            [
                b[0] as f32,
                b[1] as f32,
                b[2] as f32,
                b[3] as f32,
                b[4] as f32,
            ]
        })
        .collect();
    let all_scores: Vec<f32> = to_f64s(scores)?.iter().map(|&s| s as f32).collect();
    let mut selected = Vec::new();
    for batch in 0..batches {
        let image = &all_boxes[batch * count..(batch + 1) * count];
        for class in 0..classes {
            if max_per_class == 0 {
                break;
            }
            let start = (batch * classes + class) * count;
            let class_scores = &all_scores[start..start + count];
            let mut order: Vec<usize> = (0..count)
                .filter(|&i| class_scores[i] > score_threshold)
                .collect();
            order.sort_by(|&a, &b| class_scores[b].total_cmp(&class_scores[a]).then(a.cmp(&b)));
            let mut picked: Vec<usize> = Vec::new();
            for (rank, &candidate) in order.iter().enumerate() {
                if picked.len() >= max_per_class {
                    break;
                }
                let keep = rank == 0 || {
                    let b = &image[candidate];
                    let area = b[2] * b[3];
                    if area > 0.0 {
                        let corners = vertices(b, clockwise);
                        !picked.iter().rev().any(|&j| {
                            rotated_iou(&corners, area, &image[j], clockwise) > iou_threshold
                        })
                    } else {
                        0.0 <= iou_threshold
                    }
                };
                if keep {
                    picked.push(candidate);
                }
            }
            selected.extend(picked.into_iter().map(|index| Selected {
                score: class_scores[index],
                batch,
                class,
                index,
            }));
        }
    }
    if call.attr_bool("sort_result_descending", true) {
        sort_by_score(&mut selected);
    }
    let rows = selected.len();
    write_selected(call, &selected, rows)
}

/// The corners of a rotated box, in the CPU plugin's order and arithmetic.
fn vertices(b: &[f32; 5], clockwise: bool) -> [Point; 4] {
    let theta = if clockwise { b[4] } else { -b[4] };
    let cos = theta.cos() * 0.5;
    let sin = theta.sin() * 0.5;
    let p0 = Point {
        x: b[0] - sin * b[3] - cos * b[2],
        y: b[1] + cos * b[3] - sin * b[2],
    };
    let p1 = Point {
        x: b[0] + sin * b[3] - cos * b[2],
        y: b[1] - cos * b[3] - sin * b[2],
    };
    let p2 = Point {
        x: 2.0 * b[0] - p0.x,
        y: 2.0 * b[1] - p0.y,
    };
    let p3 = Point {
        x: 2.0 * b[0] - p1.x,
        y: 2.0 * b[1] - p1.y,
    };
    [p0, p1, p2, p3]
}

/// IoU of a candidate (its corners and area) with a selected box.
fn rotated_iou(corners: &[Point; 4], area: f32, other: &[f32; 5], clockwise: bool) -> f32 {
    let other_area = other[2] * other[3];
    if other_area <= 0.0 {
        return 0.0;
    }
    let intersection = intersection_area(corners, &vertices(other, clockwise));
    intersection / (area + other_area - intersection)
}

/// The area of the intersection of two rectangles.
fn intersection_area(a: &[Point; 4], b: &[Point; 4]) -> f32 {
    let points = crossing_points(a, b);
    if points.len() <= 2 {
        return 0.0;
    }
    polygon_area(&convex_hull(&points))
}

/// The crossings of the two outlines, the corners of `a` inside `b` and of
/// `b` inside `a` (up to 24, duplicates included).
fn crossing_points(a: &[Point; 4], b: &[Point; 4]) -> Vec<Point> {
    let edges = |p: &[Point; 4]| -> [Point; 4] { std::array::from_fn(|i| p[(i + 1) % 4] - p[i]) };
    let (edges_a, edges_b) = (edges(a), edges(b));
    let mut out = Vec::with_capacity(24);
    for i in 0..4 {
        for j in 0..4 {
            let det = cross(edges_b[j], edges_a[i]);
            // Parallel edges.
            if det.abs() <= 1e-14 {
                continue;
            }
            let between = b[j] - a[i];
            let t1 = cross(edges_b[j], between) / det;
            let t2 = cross(edges_a[i], between) / det;
            if (0.0..=1.0).contains(&t1) && (0.0..=1.0).contains(&t2) {
                out.push(a[i] + edges_a[i] * t1);
            }
        }
    }
    for (corners, rect, rect_edges) in [(a, b, &edges_b), (b, a, &edges_a)] {
        let (ab, da) = (rect_edges[0], rect_edges[3]);
        let (ab_ab, ad_ad) = (dot(ab, ab), dot(da, da));
        for &p in corners {
            let ap = p - rect[0];
            let (ap_ab, ap_ad) = (dot(ap, ab), -dot(ap, da));
            if ap_ab >= 0.0 && ap_ad >= 0.0 && ap_ab <= ab_ab && ap_ad <= ad_ad {
                out.push(p);
            }
        }
    }
    out
}

/// Graham's scan from the lowest (then leftmost) point, as the CPU plugin
/// (points within 1e-6 of one direction ordered by distance); the hull's
/// points relative to the start.
fn convex_hull(p: &[Point]) -> Vec<Point> {
    let n = p.len();
    let mut start = 0;
    for i in 1..n {
        if p[i].y < p[start].y || (p[i].y == p[start].y && p[i].x < p[start].x) {
            start = i;
        }
    }
    let origin = p[start];
    let mut q: Vec<Point> = p.iter().map(|&v| v - origin).collect();
    q.swap(start, 0);
    let before = |a: Point, b: Point| {
        let turn = cross(a, b);
        if turn.abs() < 1e-6 {
            dot(a, a) < dot(b, b)
        } else {
            turn > 0.0
        }
    };
    // Insertion sort as std::sort's on so few points: the comparison is not
    // a total order, so its steps matter.
    for i in 2..n {
        let value = q[i];
        if before(value, q[1]) {
            q.copy_within(1..i, 2);
            q[1] = value;
            continue;
        }
        let mut j = i;
        while before(value, q[j - 1]) {
            q[j] = q[j - 1];
            j -= 1;
        }
        q[j] = value;
    }
    let Some(k) = (1..n).find(|&k| dot(q[k], q[k]) > 1e-8) else {
        return vec![origin];
    };
    q[1] = q[k];
    let mut m = 2;
    for i in k + 1..n {
        while m > 1 && cross(q[i] - q[m - 2], q[m - 1] - q[m - 2]) >= 0.0 {
            m -= 1;
        }
        q[m] = q[i];
        m += 1;
    }
    q.truncate(m);
    q
}

/// The area of a convex polygon (a fan from its first point).
fn polygon_area(q: &[Point]) -> f32 {
    if q.len() <= 2 {
        return 0.0;
    }
    let mut area = 0f32;
    for i in 1..q.len() - 1 {
        area += cross(q[i] - q[0], q[i + 1] - q[0]).abs();
    }
    area / 2.0
}
