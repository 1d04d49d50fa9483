//! The in-memory size of the per-node structs, pinned: a model of a million
//! layers holds a million of each, so a field that grows them (an enum
//! variant with a large inline payload makes every variant that large) costs
//! its bytes a million times over. Issue 18 measured 400-byte nodes, 160 bytes
//! of which were a Parameter's inline shape. A change that makes one of these
//! larger must say why here.

use std::mem::size_of;

#[test]
fn an_op_is_no_larger_than_a_constant_payload() {
    // Constant: element type, shape (`Vec<u64>`) and a view of the weights.
    // Parameter's shape is boxed so it does not set the size.
    assert_eq!(size_of::<ir::Op>(), 56);
    assert!(size_of::<ir::Op>() < size_of::<ir::Shape>());
}

#[test]
fn a_node_and_its_graph_slot_stay_small() {
    assert_eq!(size_of::<ir::Node>(), 248);
    // petgraph's slot adds the two first-edge indices.
    assert_eq!(size_of::<petgraph::graph::Node<ir::Node, u32>>(), 256);
}

#[test]
fn a_port_declaration_stays_small() {
    // Two per layer on most models; names, other attributes and
    // `<rt_info>`, which few ports have, behind one pointer.
    assert_eq!(size_of::<ir::PortDecl>(), 48);
}

#[test]
fn an_empty_attribute_list_is_one_pointer() {
    // Three lists a node (data, extra layer attributes, each port's), most
    // of them empty.
    assert_eq!(size_of::<ir::Attributes>(), 8);
}

#[test]
fn a_dim_is_a_shared_pointer_and_a_shape_keeps_six_inline() {
    // `Expr` shares its terms: copying a shape (every elementwise op's
    // output) allocates nothing.
    assert_eq!(size_of::<ir::Dim>(), 16);
    assert_eq!(size_of::<ir::Shape>(), 112);
}
