//! The experiments' SVG figures: series of points with their 95 %
//! intervals, drawn with plotters' SVG backend ([`draw`]), and the figure
//! of each question ([`gap`], [`fit`], [`confirm`], [`draws`], [`style`]).

use plotters::prelude::*;

use super::draws::{DrawRow, level_key};
use super::handicap::{Fit, GapRow};
use super::style::StyleRow;
use super::{Level, Share};

/// One series: a label and its points `(x, y, low, high)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend's label.
    pub label: String,
    /// The points: x, y and the interval's bounds.
    pub points: Vec<(f64, f64, f64, f64)>,
    /// Whether the line joining the points is drawn (else the points
    /// alone).
    pub line: bool,
}

/// A figure: its title, axes and series.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// The caption.
    pub title: String,
    /// The x axis's label.
    pub x_label: String,
    /// The y axis's label.
    pub y_label: String,
    /// Tick labels of the x axis at given x, in place of numbers.
    pub x_ticks: Option<Vec<(f64, String)>>,
    /// A horizontal line drawn at this y (0: even).
    pub reference: Option<f64>,
    /// The series.
    pub series: Vec<Series>,
}

const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// Draws `fig` and returns its SVG text.
///
/// # Errors
///
/// A one-line message if plotters fails (it draws into memory).
pub fn draw(fig: &Figure) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 520)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let all = fig.series.iter().flat_map(|s| s.points.iter());
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for &(x, y, lo, hi) in all {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(lo).min(y);
            y1 = y1.max(hi).max(y);
        }
        if let Some(r) = fig.reference {
            y0 = y0.min(r);
            y1 = y1.max(r);
        }
        if x0 > x1 {
            (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
        }
        let xpad = ((x1 - x0) * 0.06).max(0.5);
        let ypad = ((y1 - y0) * 0.08).max(0.01);
        let ticks = fig.x_ticks.clone();
        let mut chart = ChartBuilder::on(&root)
            .caption(&fig.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(64)
            .build_cartesian_2d((x0 - xpad)..(x1 + xpad), (y0 - ypad)..(y1 + ypad))
            .map_err(|e| e.to_string())?;
        let label = move |x: &f64| match &ticks {
            Some(t) => t
                .iter()
                .find(|(v, _)| (v - x).abs() < 1e-6)
                .map(|(_, s)| s.clone())
                .unwrap_or_default(),
            None => super::num(*x),
        };
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(fig.x_label.as_str())
            .y_desc(fig.y_label.as_str())
            .x_label_formatter(&label)
            .label_style(("sans-serif", 14));
        if let Some(t) = &fig.x_ticks {
            mesh.x_labels(t.len().max(2) * 8);
        }
        mesh.draw().map_err(|e| e.to_string())?;
        if let Some(r) = fig.reference {
            chart
                .draw_series(LineSeries::new(
                    [(x0 - xpad, r), (x1 + xpad, r)],
                    BLACK.mix(0.5).stroke_width(1),
                ))
                .map_err(|e| e.to_string())?;
        }
        for (i, s) in fig.series.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            if s.line {
                chart
                    .draw_series(LineSeries::new(
                        s.points.iter().map(|p| (p.0, p.1)),
                        colour.stroke_width(2),
                    ))
                    .map_err(|e| e.to_string())?;
            }
            chart
                .draw_series(s.points.iter().map(|&(x, _, lo, hi)| {
                    PathElement::new(vec![(x, lo), (x, hi)], colour.stroke_width(1))
                }))
                .map_err(|e| e.to_string())?;
            chart
                .draw_series(
                    s.points
                        .iter()
                        .map(|&(x, y, _, _)| Circle::new((x, y), 4, colour.filled())),
                )
                .map_err(|e| e.to_string())?
                .label(s.label.as_str())
                .legend(move |(x, y)| Circle::new((x + 8, y), 4, colour.filled()));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .label_font(("sans-serif", 14))
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// Question 1's measurement: each side's points per game by gap, one
/// pair of series per level (runs without a handicap).
pub fn gap(rows: &[GapRow]) -> Figure {
    let mut series = Vec::new();
    let mut levels: Vec<i32> = rows.iter().map(|r| r.level).collect();
    levels.sort_unstable();
    levels.dedup();
    for level in levels {
        let of = |stronger: bool| Series {
            label: format!(
                "{} player, weaker at {level}",
                if stronger { "stronger" } else { "weaker" }
            ),
            points: rows
                .iter()
                .filter(|r| r.level == level && r.factor.is_none())
                .map(|r| {
                    let m = if stronger {
                        r.stronger_points
                    } else {
                        r.weaker_points
                    };
                    (f64::from(r.gap), m.mean, m.mean - m.ci, m.mean + m.ci)
                })
                .collect(),
            line: true,
        };
        series.push(of(true));
        series.push(of(false));
    }
    Figure {
        title: "SETS points per game by the gap in UCI_Elo (default values)".into(),
        x_label: "gap D (Elo)".into(),
        y_label: "points per game (95 %)".into(),
        x_ticks: None,
        reference: None,
        series,
    }
}

/// Question 1's fit: the stronger player's margin by handicap factor, one
/// series per level and gap.
pub fn fit(fits: &[Fit]) -> Figure {
    let mut ticks: Vec<(f64, String)> = Vec::new();
    let series = fits
        .iter()
        .map(|f| Series {
            label: format!("weaker {}, gap {}", f.level, f.gap),
            points: f
                .tried
                .iter()
                .map(|(k, m)| {
                    let x = k.log2();
                    if !ticks.iter().any(|(t, _)| (t - x).abs() < 1e-9) {
                        ticks.push((x, super::num(*k)));
                    }
                    (x, m.mean, m.mean - m.ci, m.mean + m.ci)
                })
                .collect(),
            line: true,
        })
        .collect();
    Figure {
        title: "Stronger player's margin by the weaker player's factor".into(),
        x_label: "factor of the weaker player's values (log scale)".into(),
        y_label: "stronger's margin per game (95 %)".into(),
        x_ticks: Some(ticks),
        reference: Some(0.0),
        series,
    }
}

/// Question 1's confirmation: the stronger player's margin under the
/// handicap table, by gap, one series per level (runs with a handicap).
pub fn confirm(rows: &[GapRow]) -> Figure {
    let mut levels: Vec<i32> = rows.iter().map(|r| r.level).collect();
    levels.sort_unstable();
    levels.dedup();
    let series = levels
        .into_iter()
        .map(|level| Series {
            label: format!("weaker at {level}"),
            points: rows
                .iter()
                .filter(|r| r.level == level)
                .map(|r| {
                    let m = r.margin;
                    (f64::from(r.gap), m.mean, m.mean - m.ci, m.mean + m.ci)
                })
                .collect(),
            line: false,
        })
        .collect();
    Figure {
        title: "Confirmation: the stronger player's margin under the handicap table".into(),
        x_label: "gap D (Elo)".into(),
        y_label: "stronger's margin per game (95 %)".into(),
        x_ticks: None,
        reference: Some(0.0),
        series,
    }
}

/// The x position of each level, in rising strength, and its tick label.
fn level_ticks(levels: &[Level]) -> Vec<(f64, String)> {
    let mut v = levels.to_vec();
    v.sort_by_key(level_key);
    v.dedup();
    v.iter()
        .enumerate()
        .map(|(i, l)| (i as f64, l.to_string()))
        .collect()
}

fn share_point(x: f64, s: &Share) -> (f64, f64, f64, f64) {
    (x, 100.0 * s.value(), 100.0 * s.low, 100.0 * s.high)
}

/// Question 2: a share of games by scoring and level, `what` picking the
/// share of a row (the tied games, the rule-decided ones).
pub fn draws(rows: &[DrawRow], title: &str, what: fn(&DrawRow) -> Share) -> Figure {
    let ticks = level_ticks(&rows.iter().map(|r| r.level.clone()).collect::<Vec<_>>());
    let mut variants: Vec<&str> = Vec::new();
    for r in rows {
        if !variants.contains(&r.variant.as_str()) {
            variants.push(&r.variant);
        }
    }
    let k = variants.len().max(1) as f64;
    let series = variants
        .iter()
        .enumerate()
        .map(|(j, v)| Series {
            label: (*v).to_owned(),
            points: rows
                .iter()
                .filter(|r| r.variant == *v)
                .filter_map(|r| {
                    let x = ticks.iter().find(|(_, l)| *l == r.level.to_string())?.0;
                    let offset = (j as f64 - (k - 1.0) / 2.0) * 0.1;
                    Some(share_point(x + offset, &what(r)))
                })
                .collect(),
            line: false,
        })
        .collect();
    Figure {
        title: title.to_owned(),
        x_label: "strength level".into(),
        y_label: "share of games, % (95 %)".into(),
        x_ticks: Some(ticks),
        reference: None,
        series,
    }
}

/// Question 3: the first player's margin by level, one series per
/// opponent.
pub fn style(rows: &[StyleRow]) -> Figure {
    let ticks = level_ticks(&rows.iter().map(|r| r.level.clone()).collect::<Vec<_>>());
    let mut opponents: Vec<&str> = Vec::new();
    for r in rows {
        if !opponents.contains(&r.second.as_str()) {
            opponents.push(&r.second);
        }
    }
    let k = opponents.len().max(1) as f64;
    let series = opponents
        .iter()
        .enumerate()
        .map(|(j, o)| Series {
            label: format!("{} vs {o}", rows.first().map_or("", |r| r.first.as_str())),
            points: rows
                .iter()
                .filter(|r| r.second == *o)
                .filter_map(|r| {
                    let x = ticks.iter().find(|(_, l)| *l == r.level.to_string())?.0;
                    let offset = (j as f64 - (k - 1.0) / 2.0) * 0.1;
                    let m = r.margin;
                    Some((x + offset, m.mean, m.mean - m.ci, m.mean + m.ci))
                })
                .collect(),
            line: false,
        })
        .collect();
    Figure {
        title: "Stylish: the variant evaluation's margin per game".into(),
        x_label: "strength level".into(),
        y_label: "margin in style points per game (95 %)".into(),
        x_ticks: Some(ticks),
        reference: Some(0.0),
        series,
    }
}
