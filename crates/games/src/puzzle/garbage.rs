//! The garbage formula (exact integer arithmetic) and sending garbage.

// The kind of a garbage ball is part of what a field holds, so it is defined
// with the field; re-exported here, where the garbage rules are.
pub use super::field::Kind;
use super::field::{Queues, WIDTH};
use rand::Rng;

/// The colour count from which the garbage sent is hard.
pub const HARD_THRESHOLD: u32 = 35;

/// The garbage a removal sends: its kind and count (the count may be 0).
///
/// `c` coloured balls removed, `o` garbage balls removed, `w` hard balls
/// weakened or removed. The spec's `floor(0.015*c^2 + 0.15*(o+w)^2)` is
/// computed as `(15*c^2 + 150*s^2) / 1000` and the hard case
/// `floor(0.6 * (...))` as `(90*c^2 + 900*s^2) / 10000`, in integers, so no
/// floating-point rounding can move a result across an integer (e.g. `c = 10`
/// gives exactly 1, where `0.015 * 100.0` is `1.4999999999999998`-prone).
pub fn garbage_sent(c: u32, o: u32, w: u32) -> (Kind, u32) {
    let c2 = u64::from(c) * u64::from(c);
    let s = u64::from(o) + u64::from(w);
    let s2 = s * s;
    if c >= HARD_THRESHOLD {
        (Kind::Hard, ((90 * c2 + 900 * s2) / 10_000) as u32)
    } else {
        (Kind::Soft, ((15 * c2 + 150 * s2) / 1_000) as u32)
    }
}

/// Pushes `count` balls of `kind` onto the queues, one ball at a time, each
/// onto a column drawn uniformly at random.
pub fn push_garbage<R: Rng>(queues: &mut Queues, kind: Kind, count: u32, rng: &mut R) {
    for _ in 0..count {
        let x = rng.gen_range(0..WIDTH);
        queues.0[x].push_back(kind);
    }
}
