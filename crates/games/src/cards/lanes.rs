//! The O(n·m) construction of the solver's empty-stack tables.
//!
//! From an empty stack at `(i, j)` with seat `t` to play first, the plays
//! that follow alternate `t, 1-t, t, ...`, so the positions they pass
//! through depend only on the diagonal `i - j` and on `t`: we call that
//! sequence of positions a **lane**. Every start on a lane walks a suffix of
//! the same node sequence; only what a pass would score differs, through the
//! start's deck positions. Writing `SA`, `SB` for prefix sums of the score
//! cards, the value of passing at node `k` (P1 − P2) is
//!
//! ```text
//! SA[x_k] - SA[r0] - (SB[y_k] - SB[r1]) + open(x_k, y_k, other seat)
//! ```
//!
//! where `r0` is the start's `i`, or where P1's cards are counted from after
//! P2's latest jam if P2 jammed since the start (`r1` likewise). So along a
//! chain there are at most three regions: before any jam (both offsets depend
//! on the start), after the first jam but before a jam of the other seat (one
//! offset), and after both (no offset). Within a region the offset is a
//! constant, and a min/max fold commutes with a constant: `max(w + o, z) =
//! o + max(w, z - o)`. A fold of `max(w, ·)` and `min(w, ·)` steps is a clamp
//! `z ↦ min(max(z, lo), hi)`, and clamps compose into clamps, so every node
//! keeps the clamp of its region's fold from it to the region's end, built
//! from its successor's in O(1). A start then costs a few lookups.
//!
//! Nodes are filled lazily, from the lane's end backwards, just before the
//! first start that needs them; positions are processed by decreasing
//! `i + j`, so every `open` value a node reads is already final.

use crate::seam::Seat;

use super::empty_stack::{best, fill_empty_stack};
use super::rules::JAM;

/// "No such node".
const NONE: u16 = u16::MAX;
/// Longest deck [`tables`] handles (node indices are `u16`).
pub(super) const MAX_LANE_DECK: usize = 30_000;
/// `jam_by` value of a node whose card was not a jam.
const NOT_JAM: u8 = 2;

/// The function `z ↦ min(max(z, lo), hi)` with `lo <= hi`.
#[derive(Debug, Clone, Copy)]
struct Clamp {
    lo: i64,
    hi: i64,
}

impl Clamp {
    const ID: Clamp = Clamp {
        lo: i64::MIN,
        hi: i64::MAX,
    };

    /// One fold step: the mover compares passing (`w`) with going on; at the
    /// chain's last node the mover must pass, so the step ignores `z`.
    #[inline]
    fn step(mover: Seat, w: i64, last: bool) -> Clamp {
        if last {
            Clamp { lo: w, hi: w }
        } else if mover == 0 {
            Clamp {
                lo: w,
                hi: i64::MAX,
            }
        } else {
            Clamp {
                lo: i64::MIN,
                hi: w,
            }
        }
    }

    #[inline]
    fn apply(self, z: i64) -> i64 {
        z.max(self.lo).min(self.hi)
    }

    /// `self ∘ inner` (apply `inner` first).
    #[inline]
    fn after(self, inner: Clamp) -> Clamp {
        Clamp {
            lo: self.apply(inner.lo),
            hi: self.apply(inner.hi),
        }
    }
}

/// One position on a lane, right after a play (kept small: the solver
/// touches every node and cache misses dominate its time).
#[derive(Debug, Clone, Copy)]
struct Node {
    x: u16,
    y: u16,
    /// Seat that played a jam here, or [`NOT_JAM`].
    jam_by: u8,
    /// Seat of the latest jam at or before this node on the lane, or [`NOT_JAM`].
    latest_by: u8,
    /// P1's deck position right after P2's latest jam (≤ this node), or [`NONE`].
    j0x: u16,
    /// P2's deck position right after P1's latest jam (≤ this node), or [`NONE`].
    j1y: u16,
    /// First jam node at or after this one (1-based), or [`NONE`].
    next_jam: u16,
    /// For a jam node: the first later jam by the other seat, or [`NONE`].
    next_other: u16,
    /// Fold with only `latest_by` having jammed, up to the other seat's next jam.
    mid: Clamp,
    /// Fold with both seats having jammed, to the lane's end.
    fixed: i64,
}

/// One lane: the positions after plays alternating from `(i0, j0)`, `t` first.
#[derive(Debug, Clone, Copy)]
struct Lane {
    t: Seat,
    i0: usize,
    base: usize,
    len: usize,
    /// Lowest node (1-based) whose folds are filled; `len + 1` before any.
    low: usize,
    /// The no-jam fold from node `low` to the next jam node (running, as
    /// only the lowest node's is ever asked for).
    free: Clamp,
}

/// Builds the `open` and `closing` tables of [`super::solver::Solver`].
pub(super) fn tables(a: &[i64], b: &[i64]) -> (Vec<i64>, Vec<i64>) {
    let (n, m) = (a.len(), b.len());
    let stride = m + 1;
    let size = (n + 1) * stride * 2;
    let mut open = vec![0i64; size];
    let mut closing = vec![0i64; size];
    let prefix = |d: &[i64]| -> Vec<i64> {
        let mut s = Vec::with_capacity(d.len() + 1);
        let mut acc = 0;
        s.push(0);
        for &c in d {
            if c != JAM {
                acc += c;
            }
            s.push(acc);
        }
        s
    };
    let sa = prefix(a);
    let sb = prefix(b);
    let (mut lanes, mut nodes) = build_lanes(a, b);

    for sum in (0..=n + m).rev() {
        for i in sum.saturating_sub(m)..=sum.min(n) {
            let j = sum - i;
            let mut play = [None, None];
            for (t, slot) in play.iter_mut().enumerate() {
                if (t == 0 && i == n) || (t == 1 && j == m) {
                    continue;
                }
                let lane_id = (i + m - j) * 2 + t;
                let mut lane = lanes[lane_id];
                let first = 2 * (i - lane.i0) + 1;
                while lane.low > first {
                    fill_node(&mut lane, &mut nodes, &open, &sa, &sb, stride);
                }
                lanes[lane_id] = lane;
                let nd = |p: u16| &nodes[lane.base + p as usize - 1];
                let f = nd(first as u16);
                let o_ff = sb[j] - sa[i];
                let v = if f.next_jam == NONE {
                    o_ff + lane.free.apply(0)
                } else {
                    let k1 = nd(f.next_jam);
                    // P2's jam anchors P1's counting (offset stays on P2's side), and vice versa.
                    let o_mid = if k1.jam_by == 1 { sb[j] } else { -sa[i] };
                    let tail = if k1.next_other == NONE {
                        0
                    } else {
                        nd(k1.next_other).fixed - o_mid
                    };
                    let mid = o_mid + k1.mid.apply(tail);
                    if f.next_jam as usize == first {
                        mid
                    } else {
                        o_ff + lane.free.apply(mid - o_ff)
                    }
                };
                *slot = Some(v);
            }
            fill_empty_stack(&mut open, &mut closing, (i * stride + j) * 2, play);
        }
    }
    (open, closing)
}

/// Lays out every lane's nodes with their static facts (positions, jams).
fn build_lanes(a: &[i64], b: &[i64]) -> (Vec<Lane>, Vec<Node>) {
    let (n, m) = (a.len(), b.len());
    let mut lanes = Vec::with_capacity((n + m + 1) * 2);
    // About 2·n·m nodes in all; reserve once.
    let mut nodes: Vec<Node> = Vec::with_capacity(2 * (n + 1) * (m + 1) + 2);
    for d in 0..=(n + m) {
        // d = i - j + m.
        let (i0, j0) = if d >= m { (d - m, 0) } else { (0, m - d) };
        for t in 0..2 {
            let base = nodes.len();
            let has = |seat: Seat, x: usize, y: usize| if seat == 0 { x < n } else { y < m };
            if has(t, i0, j0) {
                let (mut x, mut y, mut mover) = (i0, j0, t);
                let (mut j0x, mut j1y, mut latest_by) = (NONE, NONE, NOT_JAM);
                loop {
                    let card = if mover == 0 { a[x] } else { b[y] };
                    if mover == 0 {
                        x += 1;
                    } else {
                        y += 1;
                    }
                    let jam_by = if card == JAM {
                        latest_by = mover as u8;
                        if mover == 1 {
                            j0x = x as u16;
                        } else {
                            j1y = y as u16;
                        }
                        mover as u8
                    } else {
                        NOT_JAM
                    };
                    mover = 1 - mover;
                    nodes.push(Node {
                        x: x as u16,
                        y: y as u16,
                        jam_by,
                        latest_by,
                        j0x,
                        j1y,
                        next_jam: NONE,
                        next_other: NONE,
                        mid: Clamp::ID,
                        fixed: 0,
                    });
                    if !has(mover, x, y) {
                        break;
                    }
                }
            }
            let len = nodes.len() - base;
            let (mut next_any, mut next_by) = (NONE, [NONE, NONE]);
            for p in (1..=len).rev() {
                let nd = &mut nodes[base + p - 1];
                if nd.jam_by != NOT_JAM {
                    let by = nd.jam_by as usize;
                    nd.next_other = next_by[1 - by];
                    next_by[by] = p as u16;
                    next_any = p as u16;
                }
                nd.next_jam = next_any;
            }
            lanes.push(Lane {
                t,
                i0,
                base,
                len,
                low: len + 1,
                free: Clamp::ID,
            });
        }
    }
    (lanes, nodes)
}

/// Fills the folds of the node just below `lane.low` from its successor's
/// and moves `low` down to it; `open` must be final at the node's position.
fn fill_node(
    lane: &mut Lane,
    nodes: &mut [Node],
    open: &[i64],
    sa: &[i64],
    sb: &[i64],
    stride: usize,
) {
    lane.low -= 1;
    let p = lane.low;
    let last = p == lane.len;
    // Node p follows p plays: an odd count means seat t played last.
    let mover = if p % 2 == 1 { 1 - lane.t } else { lane.t };
    let (next_jam_by, next_mid, next_fixed) = if last {
        (NOT_JAM, Clamp::ID, 0)
    } else {
        let nx = &nodes[lane.base + p];
        (nx.jam_by, nx.mid, nx.fixed)
    };
    let nd = &mut nodes[lane.base + p - 1];
    let (x, y) = (nd.x as usize, nd.y as usize);
    // Passing here leaves an empty stack with the other seat to move.
    let pass = sa[x] - sb[y] + open[(x * stride + y) * 2 + (1 - mover)];
    if nd.jam_by == NOT_JAM {
        let own = Clamp::step(mover, pass, last);
        lane.free = if !last && next_jam_by == NOT_JAM {
            own.after(lane.free)
        } else {
            own
        };
    }
    if nd.latest_by != NOT_JAM {
        let w = if nd.latest_by == 1 {
            pass - sa[nd.j0x as usize]
        } else {
            pass + sb[nd.j1y as usize]
        };
        let own = Clamp::step(mover, w, last);
        // The region ends where the other seat jams.
        nd.mid = if !last && (next_jam_by == NOT_JAM || next_jam_by == nd.latest_by) {
            own.after(next_mid)
        } else {
            own
        };
    }
    if nd.j0x != NONE && nd.j1y != NONE {
        let w = pass - sa[nd.j0x as usize] + sb[nd.j1y as usize];
        nd.fixed = if last { w } else { best(mover, w, next_fixed) };
    }
}
