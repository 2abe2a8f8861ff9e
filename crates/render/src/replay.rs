//! A Diplomacy game's replay: one frame per phase, each the position the
//! phase was played on with its orders drawn (failed ones crossed out), then
//! the position the game has reached, as an animated GIF.
//!
//! GIF, not APNG: Discord animates GIF attachments in the channel but shows
//! only the first frame of an APNG. The frames share one palette (the
//! map's few flat colours plus their anti-aliased blends), and each frame
//! after the first stores only the pixels that changed, left transparent
//! elsewhere, so a long game stays a few megabytes.

use super::RenderError;
use super::diplomacy::{MapPosition, diplomacy_svg};
use super::svg::svg_to_pixmap;
use games::diplomacy::Diplomacy;
use games::diplomacy::game::PhaseDetail;
use games::seam::Game;
use host::{GameId, Host, TurnActions};
use std::collections::HashMap;

/// The largest replay sent as one file: under Discord's smallest upload
/// limit (8 MB on servers without boosts) with room for the message.
pub const MAX_REPLAY_BYTES: usize = 7_500_000;

/// The most frames a replay holds; a longer game keeps its first and last
/// phases and evenly spaced ones between (a 20-year game has about 100).
pub const MAX_FRAMES: usize = 240;

/// Frame sizes tried, largest first, until the replay fits [`MAX_REPLAY_BYTES`].
pub const SCALES: [f32; 3] = [0.5, 0.38, 0.28];

/// How long each phase shows (hundredths of a second), and the last one.
const FRAME_DELAY: u16 = 120;
const LAST_FRAME_DELAY: u16 = 400;

/// Whether games of `kind` have a replay (only Diplomacy's map has phases
/// worth animating).
pub fn has_replay(kind: &str) -> bool {
    kind == Diplomacy::KIND
}

/// Every phase of a stored Diplomacy game as a position to draw: per
/// resolved phase the position before it with its orders (from the turn
/// reports' detail), then the current position; player names from the seats.
pub fn replay_positions(host: &Host, game_id: GameId) -> Result<Vec<MapPosition>, RenderError> {
    let state = |e: host::HostError| RenderError::State(e.to_string());
    // Fog of War: nothing of the board is drawn for all before the end.
    host.check_replay_open(game_id).map_err(state)?;
    let log = host.game_log(game_id).map_err(state)?;
    if log.row.kind != Diplomacy::KIND {
        return Err(RenderError::State(format!(
            "{} #{game_id} has no replay: only Diplomacy games have one",
            log.row.kind
        )));
    }
    let decode = |json: &str| {
        serde_json::from_str::<Diplomacy>(json)
            .map_err(|e| RenderError::State(format!("diplomacy state: {e}")))
    };
    let first = decode(&log.initial_state)?;
    let players: Vec<_> = host
        .seats(game_id)
        .map_err(state)?
        .into_iter()
        .filter_map(|s| Some((first.power_of_seat(s.seat)?, s.display_name)))
        .collect();
    let mut out = Vec::new();
    for t in &log.turns {
        // Forfeits and takeovers change who plays, not the board.
        if !matches!(t.step, TurnActions::Moves(_)) {
            continue;
        }
        let before = decode(&t.state_before)?;
        let (_, report) = host.turn_record(game_id, t.turn).map_err(state)?;
        let mut pos = MapPosition::of_game(&before);
        pos.title = format!("#{game_id} {} orders", pos.title);
        if let Some(detail) = report.detail {
            let detail: PhaseDetail = serde_json::from_value(detail)
                .map_err(|e| RenderError::State(format!("diplomacy turn detail: {e}")))?;
            pos.orders = detail
                .orders
                .iter()
                .map(|o| (o.power, o.order, o.success))
                .collect();
        }
        pos.players = players.clone();
        out.push(pos);
    }
    let current = decode(log.row.state.as_deref().unwrap_or_default())?;
    let mut last = MapPosition::of_game(&current);
    last.title = format!("#{game_id} {}", last.title);
    last.players = players;
    out.push(last);
    Ok(out)
}

/// The frames kept of `n`: all when there are at most `max` (or `max` is
/// below 2), else the first, the last and evenly spaced ones between.
pub fn kept_frames(n: usize, max: usize) -> Vec<usize> {
    if n <= max || max < 2 {
        return (0..n).collect();
    }
    (0..max).map(|i| i * (n - 1) / (max - 1)).collect()
}

/// The replay of a stored game as an animated GIF that fits
/// [`MAX_REPLAY_BYTES`], with the number of frames and the scale it used.
pub fn replay_gif(host: &Host, game_id: GameId) -> Result<(Vec<u8>, usize, f32), RenderError> {
    let positions = replay_positions(host, game_id)?;
    let kept: Vec<MapPosition> = kept_frames(positions.len(), MAX_FRAMES)
        .into_iter()
        .map(|i| positions[i].clone())
        .collect();
    let svgs = kept
        .iter()
        .map(diplomacy_svg)
        .collect::<Result<Vec<_>, _>>()?;
    let mut size = 0;
    for scale in SCALES {
        let gif = encode_gif(&svgs, scale)?;
        if gif.len() <= MAX_REPLAY_BYTES {
            return Ok((gif, svgs.len(), scale));
        }
        size = gif.len();
    }
    Err(RenderError::Png(format!(
        "the replay is {size} bytes even at the smallest scale; at most {MAX_REPLAY_BYTES} fit"
    )))
}

/// The colours of the first and last frames by how often they occur, at
/// most 255 (index 255 is transparent), and a lookup for any colour.
struct Palette {
    colours: Vec<[u8; 3]>,
    index: HashMap<[u8; 3], u8>,
}

impl Palette {
    fn from_frames(frames: &[&[u8]]) -> Palette {
        let mut count: HashMap<[u8; 3], u64> = HashMap::new();
        for f in frames {
            for px in f.chunks_exact(4) {
                *count.entry([px[0], px[1], px[2]]).or_default() += 1;
            }
        }
        let mut by_use: Vec<([u8; 3], u64)> = count.into_iter().collect();
        by_use.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let colours: Vec<[u8; 3]> = by_use.iter().take(255).map(|c| c.0).collect();
        let index = colours
            .iter()
            .enumerate()
            .map(|(i, c)| (*c, i as u8))
            .collect();
        Palette { colours, index }
    }

    /// The index of `c`, or of the nearest colour in the palette.
    fn lookup(&mut self, c: [u8; 3]) -> u8 {
        if let Some(&i) = self.index.get(&c) {
            return i;
        }
        let dist = |p: &[u8; 3]| {
            (0..3)
                .map(|k| (p[k] as i32 - c[k] as i32).pow(2))
                .sum::<i32>()
        };
        let best = self
            .colours
            .iter()
            .enumerate()
            .min_by_key(|(_, p)| dist(p))
            .map_or(0, |(i, _)| i as u8);
        self.index.insert(c, best);
        best
    }
}

/// Index of the transparent colour: pixels unchanged since the last frame.
const TRANSPARENT: u8 = 255;

/// The SVG frames rasterised at `scale` and encoded as one looping GIF.
pub fn encode_gif(svgs: &[String], scale: f32) -> Result<Vec<u8>, RenderError> {
    let err = |e: gif::EncodingError| RenderError::Png(format!("GIF encoding failed: {e}"));
    let Some(first_svg) = svgs.first() else {
        return Err(RenderError::State(
            "a replay needs at least one frame".into(),
        ));
    };
    let first = svg_to_pixmap(first_svg, scale)?;
    let last = svg_to_pixmap(&svgs[svgs.len() - 1], scale)?;
    let (w, h) = (first.width(), first.height());
    let mut palette = Palette::from_frames(&[first.data(), last.data()]);
    let mut flat: Vec<u8> = palette.colours.iter().flatten().copied().collect();
    flat.resize(256 * 3, 0);
    let mut out = Vec::new();
    {
        let too_big = || RenderError::Size(w, h);
        let (gw, gh) = (
            u16::try_from(w).map_err(|_| too_big())?,
            u16::try_from(h).map_err(|_| too_big())?,
        );
        let mut enc = gif::Encoder::new(&mut out, gw, gh, &flat).map_err(err)?;
        enc.set_repeat(gif::Repeat::Infinite).map_err(err)?;
        let mut previous: Vec<u8> = Vec::new();
        for (i, svg) in svgs.iter().enumerate() {
            let pixmap = if i == 0 {
                first.clone()
            } else {
                svg_to_pixmap(svg, scale)?
            };
            if (pixmap.width(), pixmap.height()) != (w, h) {
                return Err(RenderError::Size(pixmap.width(), pixmap.height()));
            }
            let indices: Vec<u8> = pixmap
                .data()
                .chunks_exact(4)
                .map(|px| palette.lookup([px[0], px[1], px[2]]))
                .collect();
            let buffer: Vec<u8> = if previous.is_empty() {
                indices.clone()
            } else {
                indices
                    .iter()
                    .zip(&previous)
                    .map(|(&n, &p)| if n == p { TRANSPARENT } else { n })
                    .collect()
            };
            let frame = gif::Frame {
                width: gw,
                height: gh,
                buffer: buffer.into(),
                transparent: (i > 0).then_some(TRANSPARENT),
                dispose: gif::DisposalMethod::Keep,
                delay: if i + 1 == svgs.len() {
                    LAST_FRAME_DELAY
                } else {
                    FRAME_DELAY
                },
                ..gif::Frame::default()
            };
            enc.write_frame(&frame).map_err(err)?;
            previous = indices;
        }
    }
    Ok(out)
}
