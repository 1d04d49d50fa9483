//! The ops that only move elements (Concat, Gather, Transpose, Slice…), on
//! the storage types (f8e4m3, f8e5m2, f8e8m0, f4e2m1, nf4, i4, u4, u2, u1):
//! their kernels run on the elements' codes, one a byte (8-bit types are
//! viewed as u8 without a copy, packed ones unpacked), and the outputs are
//! packed back. OpenVINO's CPU plugin runs these ops on these types too.

use ir::ElementType;

use super::{Call, KResult, KernelFn, OutSpec};
use crate::packed;
use crate::tensor::Tensor;

/// The kernel of an op that moves elements, taking storage types through
/// [`as_codes`]; `None` for the other ops.
pub(crate) fn kernel(type_name: &str) -> Option<KernelFn> {
    Some(match type_name {
        "Concat" => |c| as_codes(c, super::concat::run),
        "Transpose" => |c| as_codes(c, super::transpose::run),
        "Roll" => |c| as_codes(c, super::roll::run),
        "Gather" => |c| as_codes(c, super::gather::run),
        "GatherElements" => |c| as_codes(c, super::gather_elements::run),
        "GatherND" => |c| as_codes(c, super::gather_nd::run),
        "ScatterUpdate" => |c| as_codes(c, super::scatter::scatter_update),
        "Slice" => |c| as_codes(c, super::slice::run),
        "StridedSlice" => |c| as_codes(c, super::strided_slice::run),
        "Split" | "VariadicSplit" => |c| as_codes(c, super::split::run),
        "Tile" => |c| as_codes(c, super::tile::run),
        "Pad" => |c| as_codes(c, super::pad::run),
        "Reverse" => |c| as_codes(c, super::reverse::run),
        "ReverseSequence" => |c| as_codes(c, super::reverse_sequence::run),
        "BatchToSpace" => |c| as_codes(c, super::batch_to_space::run),
        "SpaceToBatch" => |c| as_codes(c, super::space_to_batch::run),
        "Broadcast" => |c| as_codes(c, super::broadcast_op::run),
        "DepthToSpace" => |c| as_codes(c, super::depth_to_space::depth_to_space),
        "SpaceToDepth" => |c| as_codes(c, super::depth_to_space::space_to_depth),
        "Select" => |c| as_codes(c, super::select::run),
        _ => return None,
    })
}

/// Runs `kernel` with every storage-type input as its codes (u8, one a
/// byte) and every storage-type output made from u8 codes; without any
/// storage type, `kernel` as it is.
fn as_codes(call: &Call<'_>, kernel: KernelFn) -> KResult<Vec<Tensor>> {
    let storage = |t: ElementType| packed::is_decodable(t);
    if !call.inputs.iter().any(|t| storage(t.element_type))
        && !call.outputs.iter().any(|o| storage(o.element_type))
    {
        return kernel(call);
    }
    let inputs = call
        .inputs
        .iter()
        .map(|t| match t.element_type {
            e if !storage(e) => Ok(t.clone()),
            // One byte an element already: the same bytes, as u8.
            e if e.bit_width() == Some(8) => {
                Tensor::new(ElementType::U8, t.shape.clone(), t.data.clone())
            }
            _ => Tensor::from_bytes(ElementType::U8, t.shape.clone(), packed::codes(t)?),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let outputs: Vec<OutSpec> = call
        .outputs
        .iter()
        .map(|o| OutSpec {
            element_type: if storage(o.element_type) {
                ElementType::U8
            } else {
                o.element_type
            },
            ..o.clone()
        })
        .collect();
    let results = kernel(&Call {
        node: call.node,
        inputs: &inputs,
        outputs: &outputs,
    })?;
    results
        .into_iter()
        .zip(call.outputs)
        .map(|(t, spec)| {
            let to = spec.element_type;
            Ok(match (t.element_type, to) {
                (ElementType::U8, to) if storage(to) && to.bit_width() == Some(8) => {
                    Tensor::new(to, t.shape, t.data)?
                }
                (ElementType::U8, to) if storage(to) => {
                    packed::from_codes(to, t.shape.clone(), t.bytes())?
                }
                _ => t,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Concat of two u4 tensors [3] and a Gather of i4 run on their codes
    /// and give packed tensors (an odd count: the last byte half used).
    #[test]
    fn packed_types_move_as_codes() {
        let node = |op: &str, attrs: &[(&str, &str)]| {
            let mut attributes = ir::Attributes::new();
            for (k, v) in attrs {
                attributes.set(k, *v);
            }
            ir::Node {
                id: "0".into(),
                name: "n".into(),
                op_type: ir::OpType {
                    name: op.into(),
                    version: "opset1".into(),
                },
                op: ir::Op::Other,
                attributes,
                layer_attributes: ir::Attributes::new(),
                inputs: Vec::new(),
                outputs: Vec::new(),
                rt_info: None,
                location: ir::SourceLocation::default(),
            }
        };
        let u4 =
            |codes: &[u8]| packed::from_codes(ElementType::U4, vec![codes.len()], codes).unwrap();
        let spec = |t, shape: Vec<usize>| OutSpec {
            element_type: t,
            shape: Some(shape),
            used: true,
        };
        let concat = node("Concat", &[("axis", "0")]);
        let inputs = [u4(&[1, 2, 3]), u4(&[15, 0, 7])];
        let outputs = [spec(ElementType::U4, vec![6])];
        let call = Call {
            node: &concat,
            inputs: &inputs,
            outputs: &outputs,
        };
        let out = kernel("Concat").unwrap()(&call).unwrap();
        assert_eq!(out[0].element_type, ElementType::U4);
        assert_eq!(out[0].bytes(), &[0x21, 0xF3, 0x70]);
        assert_eq!(packed::codes(&out[0]).unwrap(), [1, 2, 3, 15, 0, 7]);
    }
}
