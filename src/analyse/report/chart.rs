//! The points chart of `tally analyse --pgn ...`: both players' cumulative
//! points over the game and the expected final margin, with the largest
//! misses marked and the ending labelled at the end. Drawn with
//! `plotters`' SVG backend, to a file (`--svg FILE`) or to a string that
//! the HTML report inlines.
//!
//! What lives here: [`Series`], the one place that turns a
//! [`GameAnalysis`] into the chart's numbers (the HTML report reads the
//! same), and [`draw_svg`] / [`draw`]. What the game's ending says is the
//! caller's ([`crate::analyse::Finish`]).
//!
//! The x axis counts moves, not plies: the point after White's move 12
//! stands at 12.5, after Black's at 13, so the ticks are move numbers.

use std::path::Path;

use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::analyse::Finish;
use crate::analyse::{GameAnalysis, fmt_points, limits_text};
use crate::rules::Variant;
use crate::search::Limits;

/// The most misses the chart marks: the largest ones at or above the
/// big-miss threshold.
pub const MARKED_MISSES: usize = 5;

/// The chart's numbers, one entry per point of the game: the start
/// (index 0) and after every analysed ply (index `ply`).
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Where each point stands on the x axis, in moves.
    pub x: Vec<f64>,
    /// Each side's points so far, `[white, black]`; the outcome award is
    /// in the last entry.
    pub points: [Vec<f64>; 2],
    /// The expected final margin, White minus Black
    /// ([`GameAnalysis::expected`]); the last entry is the actual final
    /// margin when the game is over.
    pub expected: Vec<f64>,
    /// The plies (1-based) of the misses to mark, largest first: at most
    /// [`MARKED_MISSES`], each at least the big-miss threshold.
    pub marked: Vec<usize>,
}

impl Series {
    /// The series of an analysed game; `big` is the big-miss threshold in
    /// points, `over` whether the game has ended.
    pub fn of(analysis: &GameAnalysis, big: f64, over: bool) -> Series {
        let plies = &analysis.plies;
        let first = plies.first().map_or(1.0, |p| {
            f64::from(p.fullmove) + if p.mover.is_white() { 0.0 } else { 0.5 }
        });
        let mut x = vec![first];
        let mut points = [vec![0.0], vec![0.0]];
        for p in plies {
            let end = f64::from(p.fullmove) + if p.mover.is_white() { 0.5 } else { 1.0 };
            let last = x.last().copied().unwrap_or(first);
            x.push(end.max(last));
            points[0].push(p.cumulative[0]);
            points[1].push(p.cumulative[1]);
        }
        let mut expected: Vec<f64> = analysis.expected().iter().map(|e| e.margin).collect();
        if expected.is_empty() {
            expected.push(0.0);
        }
        if over && let (Some(last), Some(p)) = (expected.last_mut(), plies.last()) {
            *last = p.cumulative[0] - p.cumulative[1];
        }
        let mut misses: Vec<&crate::analyse::PlyAnalysis> = plies
            .iter()
            .filter(|p| p.missed > 0.0 && p.missed >= big)
            .collect();
        misses.sort_by(|a, b| b.missed.total_cmp(&a.missed).then(a.ply.cmp(&b.ply)));
        let marked = misses.iter().take(MARKED_MISSES).map(|p| p.ply).collect();
        Series {
            x,
            points,
            expected,
            marked,
        }
    }
}

/// How big the chart is drawn: pixels and font sizes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Size {
    /// Width and height in pixels.
    pub pixels: (u32, u32),
    /// The caption's font size (no caption when 0).
    pub caption: f64,
    /// The labels' font size.
    pub label: f64,
}

/// The size of `--svg FILE`.
pub const FILE_SIZE: Size = Size {
    pixels: (960, 540),
    caption: 22.0,
    label: 15.0,
};

/// A drawn chart: its SVG text and where each point of the game falls in
/// it, for the report's cursor.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawn {
    /// The SVG document.
    pub svg: String,
    /// The pixel x of each point of the game ([`Series::x`]).
    pub xs: Vec<i32>,
    /// The plotting area's top and bottom pixel rows.
    pub rows: (i32, i32),
}

/// What the chart shows besides the series.
#[derive(Clone, Copy, Debug)]
pub struct Labels<'a> {
    /// The players' names, White first.
    pub names: [&'a str; 2],
    /// The caption.
    pub title: &'a str,
    /// The big-miss threshold, for the legend.
    pub big: f64,
    /// How the game ended.
    pub finish: &'a Finish,
}

/// A y value as chart text: trailing zeros dropped, no `+`.
fn tick(y: f64) -> String {
    fmt_points(y).trim_start_matches('+').to_owned()
}

/// Draws the chart of `analysis` and returns the SVG text.
///
/// # Errors
///
/// A one-line message if plotters fails (it draws into memory).
pub fn draw_svg(
    analysis: &GameAnalysis,
    series: &Series,
    labels: &Labels<'_>,
    size: Size,
) -> Result<String, String> {
    draw_drawn(analysis, series, labels, size).map(|d| d.svg)
}

/// As [`draw_svg`], with the pixel positions of the game's points.
///
/// # Errors
///
/// A one-line message if plotters fails.
pub fn draw_drawn(
    analysis: &GameAnalysis,
    series: &Series,
    labels: &Labels<'_>,
    size: Size,
) -> Result<Drawn, String> {
    let fail = |e: &dyn std::fmt::Display| format!("cannot draw the chart: {e}");
    let mut svg = String::new();
    let (xs, rows) = {
        let root = SVGBackend::with_string(&mut svg, size.pixels).into_drawing_area();
        let (xs, rows) = plot(&root, analysis, series, labels, size).map_err(|e| fail(&e))?;
        root.present().map_err(|e| fail(&e))?;
        (xs, rows)
    };
    // The labels hold PGN tags: no control or bidirectional control
    // reaches the drawing (plotters escapes only the markup).
    let svg = crate::text::for_markup(&svg).into_owned();
    Ok(Drawn { svg, xs, rows })
}

/// The caption of the chart file of a game of `variant` between `names`
/// (White first) analysed under `limits`.
pub fn file_title(variant: Variant, names: &[String; 2], limits: &Limits) -> String {
    format!(
        "{variant}: {} - {} ({}), cumulative points",
        names[0],
        names[1],
        limits_text(limits)
    )
}

/// Draws the chart of `analysis` into the file `path` ([`FILE_SIZE`]).
///
/// # Errors
///
/// A one-line message if the file cannot be written.
pub fn draw(
    path: &Path,
    analysis: &GameAnalysis,
    series: &Series,
    labels: &Labels<'_>,
) -> Result<(), String> {
    let svg = draw_svg(analysis, series, labels, FILE_SIZE)?;
    std::fs::write(path, svg).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

type Error = DrawingAreaErrorKind<<SVGBackend<'static> as DrawingBackend>::ErrorType>;

/// The drawing proper; returns the pixel x of every point and the plot
/// area's rows.
#[allow(clippy::too_many_lines)]
fn plot(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    analysis: &GameAnalysis,
    series: &Series,
    labels: &Labels<'_>,
    size: Size,
) -> Result<(Vec<i32>, (i32, i32)), Error> {
    let n = series.x.len();
    let values = series.points.iter().flatten().chain(&series.expected);
    let (mut lo, mut hi) = values.fold((0.0f64, 0.0f64), |(a, b), &y| (a.min(y), b.max(y)));
    if hi - lo < 1e-9 {
        hi = lo + 1.0;
    }
    let pad = (hi - lo) * 0.1;
    if lo < 0.0 {
        lo -= pad;
    }
    hi += pad;
    let x0 = series.x.first().copied().unwrap_or(1.0).floor();
    let x1 = series.x.last().copied().unwrap_or(1.0).ceil().max(x0 + 1.0);
    root.fill(&WHITE)?;
    // Above the plot: the caption, then a line for the ending's label,
    // clear of the caption and of the legend.
    let caption_h = if size.caption > 0.0 {
        (size.caption * 1.6) as u32
    } else {
        0
    };
    let head_h = caption_h + (size.label * 2.0) as u32;
    let (head, body) = root.split_vertically(head_h);
    if size.caption > 0.0 {
        let (w, _) = head.dim_in_pixel();
        let style = ("sans-serif", size.caption)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top));
        head.draw(&Text::new(labels.title, ((w / 2) as i32, 8), style))?;
    }
    let mut chart = ChartBuilder::on(&body)
        .margin(16)
        .margin_top(4)
        .x_label_area_size(size.label * 3.0)
        .y_label_area_size(size.label * 4.5)
        .build_cartesian_2d(x0..x1, lo..hi)?;
    let moves = (x1 - x0).max(1.0);
    chart
        .configure_mesh()
        .x_desc("move")
        .y_desc("points")
        .x_labels((moves as usize + 1).min(16))
        .x_label_formatter(&|x| {
            if (x - x.round()).abs() < 1e-6 {
                format!("{x:.0}")
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|y| tick(*y))
        .label_style(("sans-serif", size.label))
        .axis_desc_style(("sans-serif", size.label))
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.08))
        .draw()?;
    // The zero line: where the margin changes hands.
    chart.draw_series(LineSeries::new(
        [(x0, 0.0), (x1, 0.0)],
        BLACK.mix(0.35).stroke_width(1),
    ))?;
    let colours = [RGBColor(50, 100, 210), RGBColor(40, 40, 40)];
    let green = RGBColor(20, 150, 80);
    let legend = (size.label * 1.4) as i32;
    for (side, pts) in series.points.iter().enumerate() {
        let colour = colours[side];
        let label = format!(
            "{} ({}) points",
            labels.names[side],
            if side == 0 { "White" } else { "Black" }
        );
        chart
            .draw_series(LineSeries::new(
                series.x.iter().copied().zip(pts.iter().copied()),
                colour.stroke_width(2),
            ))?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + legend, y)], colour.stroke_width(2))
            });
    }
    chart
        .draw_series(DashedLineSeries::new(
            series
                .x
                .iter()
                .copied()
                .zip(series.expected.iter().copied()),
            6,
            4,
            green.stroke_width(2),
        ))?
        .label("expected final margin (White - Black)")
        .legend(move |(x, y)| {
            DashedPathElement::new(vec![(x, y), (x + legend, y)], 6, 4, green.stroke_width(2))
        });
    let marker = (size.label * 0.5) as i32;
    if !series.marked.is_empty() {
        let misses: Vec<(f64, f64, shakmaty::Color, String)> = series
            .marked
            .iter()
            .filter_map(|&ply| {
                let p = analysis.plies.get(ply.checked_sub(1)?)?;
                let y = *series.expected.get(ply)?;
                let text = format!("{}{}", move_prefix(p.fullmove, p.mover), p.san);
                Some((*series.x.get(ply)?, y, p.mover, text))
            })
            .collect();
        let small = ("sans-serif", size.label * 0.85).into_font();
        chart
            .draw_series(misses.iter().map(|(x, y, mover, text)| {
                let colour = colours[usize::from(!mover.is_white())];
                EmptyElement::at((*x, *y))
                    + TriangleMarker::new((0, 0), marker, colour.filled())
                    + Text::new(
                        text.clone(),
                        (0, -2 * marker),
                        small
                            .clone()
                            .color(&colour)
                            .pos(Pos::new(HPos::Center, VPos::Bottom)),
                    )
            }))?
            .label(format!(
                "the largest misses ({} points or more)",
                tick(labels.big)
            ))
            .legend(move |(x, y)| TriangleMarker::new((x + legend / 2, y), marker, BLACK.filled()));
    }
    // The end: where each line stops, and how the game ended.
    let end_x = series.x.last().copied().unwrap_or(x0);
    let finals = [
        series.points[0].last().copied().unwrap_or(0.0),
        series.points[1].last().copied().unwrap_or(0.0),
    ];
    chart.draw_series(
        finals
            .iter()
            .enumerate()
            .map(|(side, &y)| Circle::new((end_x, y), marker, colours[side].filled())),
    )?;
    chart.draw_series(LineSeries::new(
        [(end_x, lo), (end_x, hi)],
        BLACK.mix(0.5).stroke_width(1),
    ))?;
    let end_text = labels.finish.label();
    let style = ("sans-serif", size.label)
        .into_font()
        .style(FontStyle::Bold)
        .color(&BLACK)
        .pos(Pos::new(HPos::Right, VPos::Bottom));
    let (px, _) = chart.backend_coord(&(end_x, hi));
    root.draw(&Text::new(end_text, (px, head_h as i32), style))?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font(("sans-serif", size.label * 0.9))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .draw()?;
    let xs = series
        .x
        .iter()
        .map(|&x| chart.backend_coord(&(x, lo)).0)
        .collect::<Vec<_>>();
    let (_, rows) = chart.plotting_area().get_pixel_range();
    debug_assert_eq!(xs.len(), n);
    Ok((xs, (rows.start, rows.end)))
}

/// `12.` before White's move, `12...` before Black's.
pub fn move_prefix(fullmove: u32, mover: shakmaty::Color) -> String {
    if mover.is_white() {
        format!("{fullmove}.")
    } else {
        format!("{fullmove}...")
    }
}

#[cfg(test)]
pub(in crate::analyse) mod tests {
    use super::*;
    use crate::analyse::analyse_game;
    use crate::engine::Engine;
    use crate::pgn::{PgnGame, read_games};
    use crate::rules::Variant;
    use crate::search::Limits;

    /// A game of `positions/analyse/`, analysed at depth 2.
    pub(in crate::analyse) fn analysed(file: &str, variant: Variant) -> (PgnGame, GameAnalysis) {
        let path = format!("{}/positions/analyse/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read(&path).expect("fixture");
        let g = read_games(&text).expect("PGN").remove(0);
        // The hand-written evaluation, so that the figures the tests check
        // do not move with each new net.
        let mut engine = Engine::new(variant);
        engine.set_eval_mode(crate::eval::EvalMode::Base);
        let a = analyse_game(
            &mut engine,
            &g.input,
            &Limits::depth(2),
            &mut |_, _| {},
            &|| true,
        )
        .expect("analysis");
        (g, a)
    }

    /// The text of every `<text>` element of an SVG.
    pub(in crate::analyse) fn texts(svg: &str) -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .filter_map(|t| {
                let body = &t[t.find('>')? + 1..t.find("</text>")?];
                Some(body.trim().to_owned())
            })
            .collect()
    }

    fn finish(a: &GameAnalysis, termination: Option<&str>) -> Finish {
        Finish::of(&a.record, termination)
    }

    #[test]
    fn series_count_moves_and_show_the_expected_margin_in_chess() {
        let (_, a) = analysed("chess.pgn", Variant::Chess);
        assert_eq!(a.plies.len(), 14);
        let s = Series::of(&a, 0.2, true);
        // x in moves: the start at 1, after 1. e4 at 1.5, after 7... Nf3# at 8.
        assert_eq!(s.x.len(), 15);
        assert_eq!((s.x[0], s.x[1], s.x[2], s.x[14]), (1.0, 1.5, 2.0, 8.0));
        // Chess banks nothing until the mate...
        assert!(s.points.iter().all(|p| p[..14].iter().all(|&y| y == 0.0)));
        assert_eq!((s.points[0][14], s.points[1][14]), (0.0, 1.0));
        // ...but the expected margin moves, and ends at the result.
        assert!(s.expected[..14].iter().any(|m| m.abs() > 0.05), "{s:?}");
        assert_eq!(s.expected[14], -1.0);
        // White's 4. Nxe5 walks into the trap: Black's advantage shows at
        // once, and Black is winning before the mate.
        assert!(s.expected[7] < s.expected[6], "{s:?}");
        assert!(s.expected[13] < -0.5, "{s:?}");
        assert!(s.marked.len() <= MARKED_MISSES);
        for w in s.marked.windows(2) {
            assert!(a.plies[w[0] - 1].missed >= a.plies[w[1] - 1].missed);
        }
        assert!(s.marked.iter().all(|&p| a.plies[p - 1].missed >= 0.2));
    }

    #[test]
    fn only_the_largest_misses_are_marked() {
        let (_, mut a) = analysed("chess.pgn", Variant::Chess);
        for p in &mut a.plies {
            p.missed = p.ply as f64;
        }
        assert_eq!(Series::of(&a, 1.0, true).marked, [14, 13, 12, 11, 10]);
        assert_eq!(Series::of(&a, 13.5, true).marked, [14]);
    }

    #[test]
    fn the_chart_names_the_ending_and_numbers_moves() {
        let (_, a) = analysed("chess.pgn", Variant::Chess);
        let f = finish(&a, None);
        let s = Series::of(&a, 0.2, true);
        let labels = Labels {
            names: ["Ann", "Ben"],
            title: "chess: Ann - Ben, cumulative points",
            big: 0.2,
            finish: &f,
        };
        let svg = draw_svg(&a, &s, &labels, FILE_SIZE).unwrap();
        let t = texts(&svg);
        assert!(
            t.contains(&"0-1: checkmate, Black wins".to_owned()),
            "{t:?}"
        );
        assert!(t.contains(&"move".to_owned()), "{t:?}");
        assert!(!t.iter().any(|t| t.contains("ply")), "{t:?}");
        // Move numbers: whole numbers from 1 to 8 only.
        let ticks: Vec<&String> = t.iter().filter(|t| t.parse::<u32>().is_ok()).collect();
        assert!(ticks.iter().any(|t| *t == "2") && ticks.iter().any(|t| *t == "7"));
        assert!(t.contains(&"expected final margin (White - Black)".to_owned()));
    }

    #[test]
    fn a_loss_on_time_by_the_side_ahead_is_marked_as_such() {
        let (g, a) = analysed("stylish-time.pgn", Variant::Stylish);
        let f = finish(&a, g.tag("Termination"));
        assert_eq!(f.label(), "0-1: White lost on time, though ahead on points");
        let s = Series::of(&a, 10.0, true);
        // The lines end at the totals; the expected margin at the final
        // margin, White ahead, whatever the result.
        assert_eq!((s.points[0][17], s.points[1][17]), (35.0, 8.0));
        assert_eq!(s.expected[17], 27.0);
        let labels = Labels {
            names: ["Greedy <b>", "Quick & Co"],
            title: "stylish",
            big: 10.0,
            finish: &f,
        };
        let svg = draw_svg(&a, &s, &labels, FILE_SIZE).unwrap();
        assert!(texts(&svg).contains(&f.label()));
        assert!(svg.contains("Greedy &lt;b&gt;") && !svg.contains("<b>"));
    }
}
