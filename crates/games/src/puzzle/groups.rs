//! Finding groups: 4-connected components of one colour (garbage never joins).

use super::field::{CELLS, Cell, Field, neighbours, xy};

/// The smallest group that may be removed.
pub const MIN_GROUP: usize = 5;

/// A whole connected component of coloured balls of one colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The colour of every ball of the group.
    pub color: u8,
    /// The cell indices, ascending (so `cells[0]` is the topmost, then leftmost).
    pub cells: Vec<u8>,
}

impl Group {
    /// Number of balls.
    pub fn size(&self) -> usize {
        self.cells.len()
    }

    /// The cell that names the group in choices: the topmost, then leftmost.
    pub fn anchor(&self) -> usize {
        usize::from(self.cells[0])
    }

    /// 1-based `(x, y)` of the anchor.
    pub fn anchor_xy1(&self) -> (usize, usize) {
        let (x, y) = xy(self.anchor());
        (x + 1, y + 1)
    }
}

/// The component containing cell `start` (empty for garbage or empty cells).
pub fn component_of(field: &Field, start: usize) -> Vec<u8> {
    let Cell::Color(col) = field.cells[start] else {
        return Vec::new();
    };
    let mut seen = [false; CELLS];
    let mut stack = vec![start];
    let mut out = Vec::new();
    seen[start] = true;
    while let Some(i) = stack.pop() {
        out.push(i as u8);
        for n in neighbours(i) {
            if !seen[n] && field.cells[n] == Cell::Color(col) {
                seen[n] = true;
                stack.push(n);
            }
        }
    }
    out.sort_unstable();
    out
}

/// Every group of at least [`MIN_GROUP`] balls, ordered by anchor cell.
pub fn find_groups(field: &Field) -> Vec<Group> {
    find_components(field, MIN_GROUP)
}

/// Every component of at least `min` coloured balls, ordered by anchor cell.
pub fn find_components(field: &Field, min: usize) -> Vec<Group> {
    let mut seen = [false; CELLS];
    let mut out = Vec::new();
    let mut stack: Vec<usize> = Vec::with_capacity(CELLS);
    for start in 0..CELLS {
        if seen[start] {
            continue;
        }
        let Cell::Color(col) = field.cells[start] else {
            continue;
        };
        seen[start] = true;
        stack.clear();
        stack.push(start);
        let mut cells = Vec::new();
        while let Some(i) = stack.pop() {
            cells.push(i as u8);
            for n in neighbours(i) {
                if !seen[n] && field.cells[n] == Cell::Color(col) {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        if cells.len() >= min {
            cells.sort_unstable();
            out.push(Group { color: col, cells });
        }
    }
    out
}

/// True when the field has at least one removable group (cheaper than listing them).
pub fn has_group(field: &Field) -> bool {
    let mut seen = [false; CELLS];
    let mut stack: Vec<usize> = Vec::with_capacity(CELLS);
    for start in 0..CELLS {
        if seen[start] {
            continue;
        }
        let Cell::Color(col) = field.cells[start] else {
            continue;
        };
        seen[start] = true;
        stack.clear();
        stack.push(start);
        let mut n_cells = 0;
        while let Some(i) = stack.pop() {
            n_cells += 1;
            for n in neighbours(i) {
                if !seen[n] && field.cells[n] == Cell::Color(col) {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        if n_cells >= MIN_GROUP {
            return true;
        }
    }
    false
}
