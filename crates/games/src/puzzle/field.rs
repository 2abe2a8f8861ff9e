//! One player's 9x15 field and its per-column garbage queues.
//!
//! Cells are stored row-major with index `y * WIDTH + x` where `x` and `y`
//! are 0-based and `y = 0` is the top row; the 1-based spec coordinates are
//! only used at the edges (notation, records, rendering).

use rand::Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::VecDeque;

/// Number of columns of a field.
pub const WIDTH: usize = 9;
/// Number of rows of a field.
pub const HEIGHT: usize = 15;
/// Number of cells of a field.
pub const CELLS: usize = WIDTH * HEIGHT;
/// Number of ball colours.
pub const COLORS: u8 = 3;

/// The colour names, indexed by colour number.
pub const COLOR_NAMES: [&str; COLORS as usize] = ["red", "green", "blue"];

/// The two kinds of garbage ball.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Removed by one neighbouring removed ball.
    Soft,
    /// Needs two neighbouring removed balls; one weakens it to soft.
    Hard,
}

impl Kind {
    /// `"soft"` or `"hard"`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Soft => "soft",
            Kind::Hard => "hard",
        }
    }
}

/// What a cell holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Nothing (only transiently during a removal, or in test fields).
    Empty,
    /// A coloured ball, colour `0..COLORS`.
    Color(u8),
    /// A soft garbage ball.
    Soft,
    /// A hard garbage ball.
    Hard,
}

impl Cell {
    /// The one-character text form: `R G B` colours, `o` soft, `#` hard, `.` empty.
    pub fn to_char(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Color(0) => 'R',
            Cell::Color(1) => 'G',
            Cell::Color(_) => 'B',
            Cell::Soft => 'o',
            Cell::Hard => '#',
        }
    }

    /// Parses the one-character text form (case-insensitive colours).
    pub fn from_char(c: char) -> Option<Cell> {
        Some(match c {
            '.' => Cell::Empty,
            'R' | 'r' => Cell::Color(0),
            'G' | 'g' => Cell::Color(1),
            'B' | 'b' => Cell::Color(2),
            'o' | 'O' => Cell::Soft,
            '#' => Cell::Hard,
            _ => return None,
        })
    }

    /// True for soft and hard garbage.
    pub fn is_garbage(self) -> bool {
        matches!(self, Cell::Soft | Cell::Hard)
    }

    /// The garbage kind of a garbage cell.
    pub fn garbage_kind(self) -> Option<Kind> {
        match self {
            Cell::Soft => Some(Kind::Soft),
            Cell::Hard => Some(Kind::Hard),
            _ => None,
        }
    }
}

impl From<Kind> for Cell {
    fn from(k: Kind) -> Cell {
        match k {
            Kind::Soft => Cell::Soft,
            Kind::Hard => Cell::Hard,
        }
    }
}

/// Index of the 0-based cell `(x, y)`.
#[inline]
pub fn idx(x: usize, y: usize) -> usize {
    y * WIDTH + x
}

/// The 0-based `(x, y)` of a cell index.
#[inline]
pub fn xy(i: usize) -> (usize, usize) {
    (i % WIDTH, i / WIDTH)
}

/// The orthogonal neighbours of a cell index.
pub fn neighbours(i: usize) -> impl Iterator<Item = usize> {
    let (x, y) = xy(i);
    let mut out = [usize::MAX; 4];
    if x > 0 {
        out[0] = i - 1;
    }
    if x + 1 < WIDTH {
        out[1] = i + 1;
    }
    if y > 0 {
        out[2] = i - WIDTH;
    }
    if y + 1 < HEIGHT {
        out[3] = i + WIDTH;
    }
    out.into_iter().filter(|&n| n != usize::MAX)
}

/// The cells of one field.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Field {
    /// Row-major cells, top row first.
    pub cells: [Cell; CELLS],
}

impl Field {
    /// A field of random coloured balls.
    pub fn random<R: Rng>(rng: &mut R) -> Field {
        let mut cells = [Cell::Empty; CELLS];
        for c in cells.iter_mut() {
            *c = Cell::Color(rng.gen_range(0..COLORS));
        }
        Field { cells }
    }

    /// The cell at 0-based `(x, y)`.
    pub fn get(&self, x: usize, y: usize) -> Cell {
        self.cells[idx(x, y)]
    }

    /// Parses a field drawn as text rows, top row first, one character per
    /// cell (see [`Cell::to_char`]); spaces are ignored. Fewer than 15 rows
    /// are the bottom rows, the rows above left empty (for small test
    /// fields); every row must have 9 cells.
    pub fn parse(text: &str) -> Result<Field, String> {
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        if rows.len() > HEIGHT {
            return Err(format!("{} rows, at most {HEIGHT} allowed", rows.len()));
        }
        let mut cells = [Cell::Empty; CELLS];
        let top = HEIGHT - rows.len();
        for (r, row) in rows.iter().enumerate() {
            if row.len() != WIDTH {
                return Err(format!(
                    "row {} has {} cells, not {WIDTH}",
                    r + 1,
                    row.len()
                ));
            }
            for (x, &ch) in row.iter().enumerate() {
                cells[idx(x, top + r)] =
                    Cell::from_char(ch).ok_or_else(|| format!("unknown cell `{ch}`"))?;
            }
        }
        Ok(Field { cells })
    }

    /// The text rows, top row first, one character per cell.
    pub fn rows(&self) -> Vec<String> {
        (0..HEIGHT)
            .map(|y| (0..WIDTH).map(|x| self.get(x, y).to_char()).collect())
            .collect()
    }

    /// Counts `(hard, soft)` garbage balls on the field.
    pub fn garbage_counts(&self) -> (u32, u32) {
        let mut h = 0;
        let mut s = 0;
        for c in &self.cells {
            match c {
                Cell::Hard => h += 1,
                Cell::Soft => s += 1,
                _ => {}
            }
        }
        (h, s)
    }

    /// Lets every ball fall in its column, keeping the order, so the empty
    /// cells end up at the top. Returns how many cells are empty per column.
    pub fn apply_gravity(&mut self) -> [usize; WIDTH] {
        let mut empty = [0; WIDTH];
        for (x, e) in empty.iter_mut().enumerate() {
            // Walk upward, writing balls at the lowest free slot.
            let mut write = HEIGHT;
            for y in (0..HEIGHT).rev() {
                let c = self.cells[idx(x, y)];
                if c != Cell::Empty {
                    write -= 1;
                    if write != y {
                        self.cells[idx(x, write)] = c;
                        self.cells[idx(x, y)] = Cell::Empty;
                    }
                }
            }
            *e = write;
        }
        empty
    }

    /// True when no ball sits above an empty cell in any column.
    pub fn is_settled(&self) -> bool {
        (0..WIDTH).all(|x| {
            let mut seen_ball = false;
            for y in 0..HEIGHT {
                let c = self.get(x, y);
                if c != Cell::Empty {
                    seen_ball = true;
                } else if seen_ball {
                    return false;
                }
            }
            true
        })
    }
}

impl Serialize for Field {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Rows joined by '/' keep the stored state small and readable.
        s.serialize_str(&self.rows().join("/"))
    }
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Field, D::Error> {
        let s = String::deserialize(d)?;
        let text = s.replace('/', "\n");
        let f = Field::parse(&text).map_err(serde::de::Error::custom)?;
        if text.lines().count() != HEIGHT {
            return Err(serde::de::Error::custom("a stored field must have 15 rows"));
        }
        Ok(f)
    }
}

/// The garbage queues of one field, one per column; the front is popped first.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Queues(pub [VecDeque<Kind>; WIDTH]);

impl Queues {
    /// Queue length per column.
    pub fn lens(&self) -> [usize; WIDTH] {
        std::array::from_fn(|x| self.0[x].len())
    }

    /// Counts `(hard, soft)` garbage waiting in the queues.
    pub fn garbage_counts(&self) -> (u32, u32) {
        let mut h = 0;
        let mut s = 0;
        for q in &self.0 {
            for k in q {
                match k {
                    Kind::Hard => h += 1,
                    Kind::Soft => s += 1,
                }
            }
        }
        (h, s)
    }

    /// Total number of queued balls.
    pub fn total(&self) -> usize {
        self.0.iter().map(|q| q.len()).sum()
    }
}

impl Serialize for Queues {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Each queue as a string, front first: `h` hard, `s` soft.
        let v: Vec<String> = self
            .0
            .iter()
            .map(|q| {
                q.iter()
                    .map(|k| match k {
                        Kind::Hard => 'h',
                        Kind::Soft => 's',
                    })
                    .collect()
            })
            .collect();
        v.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Queues {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Queues, D::Error> {
        let v: Vec<String> = Vec::deserialize(d)?;
        if v.len() != WIDTH {
            return Err(serde::de::Error::custom("expected 9 garbage queues"));
        }
        let mut q = Queues::default();
        for (x, s) in v.iter().enumerate() {
            for ch in s.chars() {
                q.0[x].push_back(match ch {
                    'h' => Kind::Hard,
                    's' => Kind::Soft,
                    _ => return Err(serde::de::Error::custom("queue entries are `h` or `s`")),
                });
            }
        }
        Ok(q)
    }
}

/// A player's field with its queues.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Side {
    /// The balls on the field.
    pub field: Field,
    /// The garbage waiting above each column.
    pub queues: Queues,
}

impl Side {
    /// The turn-limit score: 2 per hard and 1 per soft garbage on the field or queued.
    pub fn score(&self) -> u32 {
        let (fh, fs) = self.field.garbage_counts();
        let (qh, qs) = self.queues.garbage_counts();
        2 * (fh + qh) + fs + qs
    }
}
