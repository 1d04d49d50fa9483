//! A port's names, other attributes and `<rt_info>` live behind one box
//! (issue 18): what a port declares, not where it is kept, decides
//! equality, and the setters leave no empty box.

use ir::{Attributes, PortDecl, PortExtras};

#[test]
fn ports_compare_by_what_they_declare() {
    let plain = PortDecl::default();
    assert!(plain.names().is_empty() && plain.attributes().is_empty());
    assert_eq!(plain.rt_info(), None);

    // An empty box, as a caller may build one, equals no box.
    let boxed = PortDecl {
        extras: Some(Box::default()),
        ..PortDecl::default()
    };
    assert_eq!(boxed, plain);

    let mut named = PortDecl::default();
    named.set_names(vec!["x".to_owned()]);
    named.set_rt_info(Some("<rt_info/>".to_owned()));
    let mut attributes = Attributes::new();
    attributes.set("precision", "FP33");
    named.set_attributes(attributes.clone());
    assert_eq!(named.names(), ["x"]);
    assert_eq!(named.rt_info(), Some("<rt_info/>"));
    assert_eq!(named.attributes().get("precision"), Some("FP33"));
    assert_ne!(named, plain);
    let built = PortDecl {
        extras: Some(Box::new(PortExtras {
            names: vec!["x".to_owned()],
            attributes,
            rt_info: Some("<rt_info/>".to_owned()),
        })),
        ..PortDecl::default()
    };
    assert_eq!(named, built);

    // Emptied again: no box left.
    named.set_names(Vec::new());
    named.set_rt_info(None);
    named.set_attributes(Attributes::new());
    assert!(named.extras.is_none());
    assert_eq!(named, plain);

    // Given nothing, a port without extras gets no box.
    let mut given_none = PortDecl::default();
    given_none.set_names(Vec::new());
    given_none.set_attributes(Attributes::new());
    given_none.set_rt_info(None);
    assert!(given_none.extras.is_none());
}
