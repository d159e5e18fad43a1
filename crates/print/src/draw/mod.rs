//! Drawing: one display list ([`scene::Scene`]) per label or page, written out as PDF,
//! SVG or PNG by the writers here.

pub mod fonts;
pub mod pdf;
pub mod png;
pub mod scene;
pub mod svg;
