//! The compact text form of a field pair: one character per cell
//! (`R G B` colours, `o` soft garbage, `#` hard garbage), queue counts
//! above each column, columns lettered and rows numbered as in the notation.

use super::PuzzleDuel;
use super::field::{HEIGHT, Queues, WIDTH};

/// One character for a queue length: `0`-`9`, then `+` for ten or more.
fn queue_char(n: usize) -> char {
    if n <= 9 {
        char::from(b'0' + n as u8)
    } else {
        '+'
    }
}

fn queue_row(q: &Queues) -> String {
    q.lens().iter().map(|&n| queue_char(n)).collect()
}

/// Both fields side by side (seat 0 on the left), under 40 columns wide.
pub fn render_text(g: &PuzzleDuel) -> String {
    let mover = g.mover();
    let title = |s: usize| {
        let mark = if mover == Some(s) { " *" } else { "" };
        format!("{}{}", g.seat_label(s), mark)
    };
    let letters: String = (0..WIDTH).map(|x| char::from(b'a' + x as u8)).collect();
    let mut out = String::new();
    out.push_str(&format!("    {:<18}    {}\n", title(0), title(1)));
    out.push_str(&format!("    {letters:<18}    {letters}\n"));
    out.push_str(&format!(
        "  q {:<18}  q {}\n",
        queue_row(&g.sides[0].queues),
        queue_row(&g.sides[1].queues)
    ));
    let r0 = g.sides[0].field.rows();
    let r1 = g.sides[1].field.rows();
    for y in 0..HEIGHT {
        out.push_str(&format!(
            "{:>3} {:<18}{:>3} {}\n",
            y + 1,
            r0[y],
            y + 1,
            r1[y]
        ));
    }
    let summary = |s: usize| {
        let (h, so) = g.sides[s].queues.garbage_counts();
        format!("queued {h}# {so}o")
    };
    out.push_str(&format!("    {:<18}    {}\n", summary(0), summary(1)));
    out.push_str("R/G/B balls, o soft, # hard garbage; q = queued per column");
    out
}
