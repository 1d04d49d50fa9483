//! ir-xml
