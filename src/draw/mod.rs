//! Drawing: the display list and the label drawn from a box.

pub mod scene;
