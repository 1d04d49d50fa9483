//! shape-infer
