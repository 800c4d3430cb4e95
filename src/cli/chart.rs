//! The SVG chart of `tally analyse --pgn ... --svg FILE`: both players'
//! cumulative points over the game, one line each, with a marker where a
//! player gave away many points. Drawn with `plotters`' SVG backend.

use std::path::Path;

use plotters::prelude::*;

use crate::analyse::GameAnalysis;

/// Draws the chart of `analysis` into `path`. `big` is the missed-points
/// threshold for a marker.
///
/// # Errors
///
/// A one-line message if the file cannot be written.
pub fn draw(
    path: &Path,
    analysis: &GameAnalysis,
    names: [&str; 2],
    title: &str,
    big: f64,
) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("cannot draw {}: {e}", path.display());
    let n = analysis.plies.len();
    // Each side's points after every ply, starting at ply 0 with nothing.
    let mut series: [Vec<(f64, f64)>; 2] = [vec![(0.0, 0.0)], vec![(0.0, 0.0)]];
    for p in &analysis.plies {
        series[0].push((p.ply as f64, p.cumulative[0]));
        series[1].push((p.ply as f64, p.cumulative[1]));
    }
    let misses: Vec<(f64, f64, usize)> = analysis
        .plies
        .iter()
        .filter(|p| p.missed >= big && p.missed > 0.0)
        .map(|p| {
            let side = usize::from(!p.mover.is_white());
            (p.ply as f64, p.cumulative[side], side)
        })
        .collect();
    let all = series.iter().flatten().map(|&(_, y)| y);
    let (mut lo, mut hi) = all.fold((0.0f64, 0.0f64), |(a, b), y| (a.min(y), b.max(y)));
    if hi - lo < 1e-9 {
        hi = lo + 1.0;
    }
    let pad = (hi - lo) * 0.08;
    lo -= if lo < 0.0 { pad } else { 0.0 };
    hi += pad;
    let root = SVGBackend::new(path, (960, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..(n.max(1) as f64), lo..hi)
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .x_desc("ply")
        .y_desc("points so far")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| {
            crate::analyse::fmt_points(*y)
                .trim_start_matches('+')
                .to_owned()
        })
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| fail(&e))?;
    let colours = [RGBColor(40, 90, 200), RGBColor(200, 60, 40)];
    for (side, pts) in series.iter().enumerate() {
        let colour = colours[side];
        let label = format!(
            "{} ({})",
            names[side],
            if side == 0 { "White" } else { "Black" }
        );
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), colour.stroke_width(2)))
            .map_err(|e| fail(&e))?
            .label(label)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
    }
    if !misses.is_empty() {
        chart
            .draw_series(
                misses
                    .iter()
                    .map(|&(x, y, side)| TriangleMarker::new((x, y), 7, colours[side].filled())),
            )
            .map_err(|e| fail(&e))?
            .label(format!("missed {big} points or more"))
            .legend(|(x, y)| TriangleMarker::new((x + 10, y), 6, BLACK.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))?;
    Ok(())
}
