//! Diplomacy's own part of the host: press between powers. What the
//! generic host needs of Diplomacy it asks through the seam; this folder is
//! for what only Diplomacy has.

pub(crate) mod press;
