//! symdim
