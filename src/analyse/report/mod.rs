//! The HTML report of `tally analyse --pgn FILE --html REPORT`: one
//! self-contained page (inline CSS, script and SVG; nothing fetched) to
//! read an analysed game without a chess GUI.
//!
//! What lives here: [`page`], the report of an analysed game as `tally
//! analyse --html` writes it, and [`html`] under it, which writes the page: the players, the
//! result and how the game ended; a board for the start and after every
//! ply (drawn by [`board`]) with what that ply earned and why (the
//! referee's event names), its value, the best action and the points given
//! away; the move list; the points chart ([`chart`], with a cursor
//! on the current ply); and each side's totals. The arrow keys, Home, End,
//! the buttons, a click on a move or on the chart step through the game;
//! without a script every board is shown in turn. The numbers come from
//! the analysis and [`Series`], as the chart's do.
//!
//! Every text from the PGN (names, tags) is escaped for HTML. The page's
//! style sheet, script and skeleton are the asset files `report.css`,
//! `report.js` and `report.html` beside this one, compiled in.

use std::fmt::Write as _;

use shakmaty::Color;

use crate::analyse::Finish;
use crate::analyse::{GameAnalysis, PlyAnalysis, fmt_points};
use crate::pgn::PgnGame;
use crate::rules::Variant;
use crate::scoring::{Award, Points};
use board::{View, defs, svg as board_svg};
use chart::{Labels, Series, Size, draw_drawn, move_prefix};

pub mod board;
pub mod chart;

/// The page's skeleton: `{{title}}`, `{{css}}`, `{{body}}` and
/// `{{script}}` are filled in by [`html`].
const PAGE: &str = include_str!("report.html");
/// The page's style sheet.
const CSS: &str = include_str!("report.css");
/// The page's script: stepping through the game.
const SCRIPT: &str = include_str!("report.js");

/// `template` with each `{{name}}` replaced by its value in `values`; an
/// unknown name is left as it is. Only the template is scanned, never a
/// value put in, so text from a PGN cannot fill a placeholder.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let extra: usize = values.iter().map(|(_, v)| v.len()).sum();
    let mut out = String::with_capacity(template.len() + extra);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        let Some(len) = rest[start + 2..].find("}}") else {
            break;
        };
        let name = &rest[start + 2..start + 2 + len];
        out.push_str(&rest[..start]);
        match values.iter().find(|(n, _)| *n == name) {
            Some((_, v)) => out.push_str(v),
            None => out.push_str(&rest[start..start + len + 4]),
        }
        rest = &rest[start + len + 4..];
    }
    out.push_str(rest);
    out
}

/// The chart's sizes in the report, each scaled to the column's width: a
/// wide one for desktops and a narrow one, with larger print for its size,
/// for phones.
const CHART_SIZES: [(&str, Size); 2] = [
    (
        "wide",
        Size {
            pixels: (760, 430),
            caption: 0.0,
            label: 16.0,
        },
    ),
    (
        "narrow",
        Size {
            pixels: (440, 380),
            caption: 0.0,
            label: 14.0,
        },
    ),
];

/// What the report shows.
#[derive(Clone, Copy, Debug)]
pub struct Report<'a> {
    /// The analysed game.
    pub analysis: &'a GameAnalysis,
    /// The game as read (its tags).
    pub game: &'a PgnGame,
    /// The players' names, White first.
    pub names: [&'a str; 2],
    /// The variant.
    pub variant: Variant,
    /// How the game ended.
    pub finish: &'a Finish,
    /// The chart's numbers.
    pub series: &'a Series,
    /// The search limits, as text (`depth 8`).
    pub limits: &'a str,
    /// The big-miss threshold in points.
    pub big: f64,
}

/// Escapes text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    // Controls and bidirectional controls shown as U+FFFD (`crate::text`).
    for c in crate::text::for_markup(text).chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&#39;"),
            c => s.push(c),
        }
    }
    s
}

/// `text` with its first letter in capitals.
fn capitalised(text: &str) -> String {
    let mut c = text.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

fn side(c: Color) -> &'static str {
    c.fold_wb("White", "Black")
}

/// A ply's name: `12...Qxd4+`.
fn ply_name(p: &PlyAnalysis) -> String {
    format!("{}{}", move_prefix(p.fullmove, p.mover), p.san)
}

/// The referee's event names of an award, comma separated.
fn events(a: &Award) -> String {
    a.events.joined(", ")
}

/// What an award gave, for `mover`: `+5 to White (capture, check); Black
/// +2`, or `nothing`.
fn award_text(a: &Award, mover: Color) -> String {
    let own = a.points(mover);
    let other = a.points(!mover);
    if a.is_zero() && a.events.is_empty() {
        return "nothing".to_owned();
    }
    let mut s = format!("<strong>{}</strong> to {}", own.signed(), side(mover));
    if !a.events.is_empty() {
        let _ = write!(s, " ({})", escape(&events(a)));
    }
    if other != Points::ZERO {
        let _ = write!(s, "; {} {}", side(!mover), other.signed());
    }
    s
}

/// The expected final margin, White's side: `White +0.35`, `even`.
fn margin_text(m: f64) -> String {
    let t = fmt_points(m.abs()).trim_start_matches('+').to_owned();
    if t == "0" {
        "even".to_owned()
    } else if m > 0.0 {
        format!("White {t}")
    } else {
        format!("Black {t}")
    }
}

/// The result and how the game ended, as one phrase: `checkmate, White
/// wins`; `White lost on time: Black wins`; `stalemate, White has no
/// move: a draw`.
fn outcome_phrase(f: &Finish) -> String {
    let how = escape(&f.how);
    if f.how.contains("wins") || f.result == "*" {
        how
    } else {
        let words = match f.result {
            "1/2-1/2" => "a draw",
            other => result_words(other),
        };
        format!("{how}: {words}")
    }
}

/// Why the side ahead on points lost: `White had more points (35 to 8),
/// but the result stands: ...`.
fn against_points(r: &Report<'_>) -> String {
    let total = &r.analysis.record.total;
    let (loser, more, fewer) = match r.finish.result {
        "0-1" => ("White", total.white, total.black),
        _ => ("Black", total.black, total.white),
    };
    format!(
        "{loser} had more points ({more} to {fewer}), but the result stands: a loss on time, \
         a resignation or a forfeit loses whatever the points."
    )
}

/// The result as words: `White wins`, `Draw`, `Not finished`.
fn result_words(result: &str) -> &'static str {
    match result {
        "1-0" => "White wins",
        "0-1" => "Black wins",
        "1/2-1/2" => "Draw",
        _ => "Not finished",
    }
}

/// The report of `game`, analysed as `analysis` under `variant` at
/// `limits`, as `tally analyse --html` writes it: the players' names from
/// the PGN ([`crate::analyse::player_names`]), how the game ended from its
/// record and `Termination` tag ([`Finish::of`]), the chart's numbers
/// ([`Series::of`]); a miss of `big` points or more is a big miss.
///
/// # Errors
///
/// A one-line message if the boards or the chart cannot be made.
pub fn page(
    analysis: &GameAnalysis,
    game: &PgnGame,
    variant: Variant,
    limits: &crate::search::Limits,
    big: f64,
) -> Result<String, String> {
    let names = crate::analyse::player_names(game);
    let finish = Finish::of(&analysis.record, game.tag("Termination"));
    let series = Series::of(analysis, big, analysis.record.ending.is_some());
    let limits = crate::analyse::limits_text(limits);
    let page = html(&Report {
        analysis,
        game,
        names: [&names[0], &names[1]],
        variant,
        finish: &finish,
        series: &series,
        limits: &limits,
        big,
    })?;
    // Every text of the page was escaped where it was put; this catches
    // any (the data of the script included) that holds a control or a
    // bidirectional control.
    Ok(crate::text::for_markup(&page).into_owned())
}

/// Writes the report.
///
/// # Errors
///
/// A one-line message if the boards or the chart cannot be made.
pub fn html(r: &Report<'_>) -> Result<String, String> {
    let a = r.analysis;
    let n = a.plies.len();
    let views = board::views(&a.record)?;
    let views = &views[..views.len().min(n + 1)];
    let labels = Labels {
        names: r.names,
        title: "",
        big: r.big,
        finish: r.finish,
    };
    let charts = CHART_SIZES
        .iter()
        .map(|&(name, size)| draw_drawn(a, r.series, &labels, size).map(|d| (name, size, d)))
        .collect::<Result<Vec<_>, String>>()?;
    let names = [escape(r.names[0]), escape(r.names[1])];
    let mut h = String::with_capacity(64 * 1024 + n * 6 * 1024);
    let title = format!("{} – {}, {}: tally analyse", names[0], names[1], r.variant);
    header(&mut h, r, &names);
    let _ = writeln!(
        h,
        "<svg class=\"defs\" aria-hidden=\"true\" width=\"0\" height=\"0\">{}</svg>",
        defs()
    );
    h.push_str("<main>\n<section class=\"play\" aria-label=\"the game move by move\">\n");
    h.push_str("<div class=\"boards\">\n");
    for (i, v) in views.iter().enumerate() {
        let label = if i == 0 {
            "the start position".to_owned()
        } else {
            format!("the position after {}", escape(&ply_name(&a.plies[i - 1])))
        };
        h.push_str(&board_svg(
            v,
            &format!("class=\"board\" data-ply=\"{i}\""),
            &label,
        ));
        h.push('\n');
    }
    h.push_str("</div>\n");
    let icon = |d: &str| {
        format!(
            "<svg viewBox=\"0 0 24 24\" width=\"22\" height=\"22\" aria-hidden=\"true\"><path d=\"{d}\"/></svg>"
        )
    };
    let _ = writeln!(
        h,
        "<nav class=\"steps\" aria-label=\"step through the game\">\
         <button type=\"button\" data-go=\"first\" title=\"start (Home)\" aria-label=\"start\">{}</button>\
         <button type=\"button\" data-go=\"prev\" title=\"back (left arrow)\" aria-label=\"back\">{}</button>\
         <span id=\"where\" aria-live=\"polite\"></span>\
         <button type=\"button\" data-go=\"next\" title=\"forward (right arrow)\" aria-label=\"forward\">{}</button>\
         <button type=\"button\" data-go=\"last\" title=\"end (End)\" aria-label=\"end\">{}</button></nav>",
        icon("M5 5h2.5v14H5zM19 5v14L8.5 12z"),
        icon("M16.5 5v14L6 12z"),
        icon("M7.5 5v14L18 12z"),
        icon("M16.5 5H19v14h-2.5zM5 5v14l10.5-7z"),
    );
    h.push_str("<div class=\"infos\">\n");
    for (i, v) in views.iter().enumerate() {
        info(&mut h, r, i, v);
    }
    h.push_str("</div>\n</section>\n<section class=\"side\">\n");
    moves(&mut h, r);
    chart_section(&mut h, r, &charts);
    summary(&mut h, r, &names);
    h.push_str("</section>\n</main>\n");
    let _ = writeln!(
        h,
        "<footer>Analysed by tally analyse ({}). Values are expected point margins for the side that moved; \
         the chart's dashed line is the expected final margin from White's side.</footer>",
        escape(r.limits)
    );
    Ok(fill(
        PAGE,
        &[
            ("title", &title),
            ("css", CSS),
            ("body", &h),
            ("script", SCRIPT),
        ],
    ))
}

fn header(h: &mut String, r: &Report<'_>, names: &[String; 2]) {
    let rec = &r.analysis.record;
    let _ = writeln!(
        h,
        "<header>\n<h1><span class=\"white-name\">{}</span> <span class=\"vs\">–</span> <span class=\"black-name\">{}</span></h1>",
        names[0], names[1]
    );
    let mut meta = vec![format!("<span class=\"variant\">{}</span>", r.variant)];
    for tag in ["Event", "Site", "Date", "Round"] {
        if let Some((_, v)) = r.game.tags.iter().find(|(n, _)| n == tag)
            && !v.is_empty()
            && !v.starts_with('?')
        {
            let v = if tag == "Round" {
                format!("round {v}")
            } else {
                v.clone()
            };
            meta.push(escape(&v));
        }
    }
    let _ = writeln!(h, "<p class=\"meta\">{}</p>", meta.join(" · "));
    let f = r.finish;
    let mut line = format!(
        "<span class=\"token\">{}</span> <strong>{}</strong>. Points: White {}, Black {}.",
        escape(f.result),
        capitalised(&outcome_phrase(f)),
        rec.total.white,
        rec.total.black
    );
    if f.against_points {
        let _ = write!(line, " <span class=\"note\">{}</span>", against_points(r));
    }
    let _ = writeln!(h, "<p class=\"result\">{line}</p>\n</header>");
}

fn info(h: &mut String, r: &Report<'_>, i: usize, v: &View) {
    let a = r.analysis;
    let expected = r.series.expected.get(i).copied();
    let _ = write!(h, "<section class=\"info\" data-ply=\"{i}\">");
    if i == 0 {
        let _ = write!(h, "<h2>Start position</h2><p>{} to move.</p>", side(v.turn));
        if let (Some(m), Some(first)) = (expected, a.plies.first()) {
            let _ = write!(
                h,
                "<p>Expected final margin: <strong>{}</strong> (best first move: {}, {}).</p>",
                margin_text(m),
                escape(&first.best.san),
                escape(&first.best.value.to_string()),
            );
        }
        h.push_str("</section>\n");
        return;
    }
    let p = &a.plies[i - 1];
    let special = if p.action.is_special() {
        " <span class=\"special\">special action, not a board move</span>"
    } else {
        ""
    };
    let _ = write!(
        h,
        "<h2>{} <span class=\"by\">{} ({})</span>{special}</h2><dl>",
        escape(&ply_name(p)),
        side(p.mover),
        escape(r.names[usize::from(!p.mover.is_white())]),
    );
    let _ = write!(
        h,
        "<dt>Earned</dt><dd>{}</dd>",
        award_text(&p.earned, p.mover)
    );
    let _ = write!(
        h,
        "<dt>Expected</dt><dd>{} for {}</dd>",
        escape(&p.played.to_string()),
        side(p.mover)
    );
    if p.best.action == p.action {
        h.push_str("<dt>Best</dt><dd>this move</dd>");
    } else {
        let _ = write!(
            h,
            "<dt>Best</dt><dd><strong>{}</strong> ({})</dd>",
            escape(&p.best.san),
            escape(&p.best.value.to_string())
        );
    }
    let missed = fmt_points(p.missed).trim_start_matches('+').to_owned();
    let class = miss_class(p.missed, r.big);
    let _ = write!(
        h,
        "<dt>Given away</dt><dd class=\"{class}\">{} point{}{}</dd>",
        missed,
        if missed == "1" { "" } else { "s" },
        if class == "blunder" {
            " (big miss)"
        } else {
            ""
        }
    );
    let _ = write!(
        h,
        "<dt>Score</dt><dd>White {}, Black {}</dd>",
        fmt_points(p.cumulative[0]).trim_start_matches('+'),
        fmt_points(p.cumulative[1]).trim_start_matches('+'),
    );
    if let Some(m) = expected
        && !(i == a.plies.len() && a.record.ending.is_some())
    {
        let _ = write!(h, "<dt>Heading for</dt><dd>{}</dd>", margin_text(m));
    }
    h.push_str("</dl>");
    if i == a.plies.len() {
        let rec = &a.record;
        let mut end = format!(
            "<p class=\"end\"><span class=\"token\">{}</span> <strong>{}</strong>.",
            escape(r.finish.result),
            capitalised(&outcome_phrase(r.finish)),
        );
        if !rec.outcome.is_zero() {
            let _ = write!(
                end,
                " The ending gave White {}, Black {}{}.",
                rec.outcome.white.signed(),
                rec.outcome.black.signed(),
                if rec.outcome.events.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", escape(&events(&rec.outcome)))
                }
            );
        }
        if r.finish.against_points {
            let _ = write!(end, " {}", against_points(r));
        }
        end.push_str("</p>");
        h.push_str(&end);
    }
    h.push_str("</section>\n");
}

/// The move list's class for a miss: `blunder` at the big-miss threshold,
/// `mistake` at half of it.
fn miss_class(missed: f64, big: f64) -> &'static str {
    if missed > 0.0 && missed >= big {
        "blunder"
    } else if missed > 0.0 && missed >= big / 2.0 {
        "mistake"
    } else {
        "fine"
    }
}

fn moves(h: &mut String, r: &Report<'_>) {
    h.push_str("<h2 class=\"moves-title\">Moves</h2>\n<div class=\"moves\" role=\"list\">\n");
    let mut open_white: Option<u32> = None;
    for p in &r.analysis.plies {
        let number = p.fullmove;
        let starts_row = p.mover.is_white() || open_white != Some(number);
        if starts_row {
            if open_white.is_some() {
                h.push_str("<span class=\"gap\"></span>\n");
            }
            let _ = write!(h, "<span class=\"no\">{number}.</span>");
            if !p.mover.is_white() {
                h.push_str("<span class=\"gap\">…</span>");
            }
        }
        let own = p.earned.points(p.mover);
        let class = miss_class(p.missed, r.big);
        let mark = match class {
            "blunder" => "??",
            "mistake" => "?",
            _ => "",
        };
        let mut title = format!("{}: earned {}", ply_name(p), own.signed());
        if p.missed > 0.0 {
            let _ = write!(
                title,
                ", gave away {}",
                fmt_points(p.missed).trim_start_matches('+')
            );
        }
        let _ = write!(
            h,
            "<button type=\"button\" role=\"listitem\" class=\"mv {class}{}\" data-ply=\"{}\" title=\"{}\"><span class=\"san\">{}</span>{}",
            if p.action.is_special() {
                " special"
            } else {
                ""
            },
            p.ply,
            escape(&title),
            escape(&p.san),
            if mark.is_empty() {
                String::new()
            } else {
                format!("<span class=\"mark\">{mark}</span>")
            },
        );
        if own != Points::ZERO {
            let _ = write!(h, "<span class=\"pts\">{}</span>", own.signed());
        }
        h.push_str("</button>");
        if p.mover.is_white() {
            open_white = Some(number);
        } else {
            open_white = None;
            h.push('\n');
        }
    }
    let _ = writeln!(
        h,
        "<span class=\"final\">{} {}</span>\n</div>",
        escape(r.finish.result),
        outcome_phrase(r.finish)
    );
}

/// One drawn chart as inline SVG: no namespace (inline SVG needs none,
/// and the report names no address at all), sized by the page, with a
/// cursor line for the current ply.
fn inline_chart(size: Size, chart: &chart::Drawn) -> String {
    let (w, ht) = size.pixels;
    let svg = chart
        .svg
        .replacen(
            &format!(
                "<svg width=\"{w}\" height=\"{ht}\" viewBox=\"0 0 {w} {ht}\" xmlns=\"http://www.w3.org/2000/svg\">"
            ),
            &format!(
                "<svg class=\"chart-svg\" viewBox=\"0 0 {w} {ht}\" role=\"img\" aria-label=\"cumulative points and expected final margin\">"
            ),
            1,
        )
        .replace("http://www.w3.org/2000/svg", "");
    let x0 = chart.xs.first().copied().unwrap_or(0);
    let cursor = format!(
        "<line class=\"cursor\" x1=\"{x0}\" y1=\"{}\" x2=\"{x0}\" y2=\"{}\"/>\n</svg>",
        chart.rows.0, chart.rows.1
    );
    match svg.rfind("</svg>") {
        Some(k) => format!("{}{cursor}{}", &svg[..k], &svg[k + 6..]),
        None => svg,
    }
}

fn chart_section(h: &mut String, r: &Report<'_>, charts: &[(&str, Size, chart::Drawn)]) {
    h.push_str("<h2>Points</h2>\n<figure class=\"chart\">\n");
    for (name, size, chart) in charts {
        let xs: Vec<String> = chart.xs.iter().map(i32::to_string).collect();
        let _ = writeln!(
            h,
            "<div class=\"chart-view {name}\" data-xs=\"{}\">{}</div>",
            xs.join(","),
            inline_chart(*size, chart)
        );
    }
    let marked = r.series.marked.len();
    let _ = writeln!(
        h,
        "<figcaption>Each side's points so far and the expected final margin (dashed, White minus \
         Black){}. Click the chart to go to a move.</figcaption></figure>",
        match marked {
            0 => String::new(),
            1 => format!(
                "; a triangle marks the largest miss of {} points or more",
                fmt_points(r.big).trim_start_matches('+')
            ),
            _ => format!(
                "; triangles mark the {marked} largest misses of {} points or more",
                fmt_points(r.big).trim_start_matches('+')
            ),
        }
    );
}

fn summary(h: &mut String, r: &Report<'_>, names: &[String; 2]) {
    let a = r.analysis;
    let rec = &a.record;
    let winner = match r.finish.result {
        "1-0" => Some(Color::White),
        "0-1" => Some(Color::Black),
        _ => None,
    };
    h.push_str(concat!(
        "<h2>Totals</h2>\n<div class=\"table-wrap\"><table class=\"totals\"><thead><tr>",
        "<th scope=\"col\">Player</th><th scope=\"col\">Result</th>",
        "<th scope=\"col\" class=\"num\">Points</th>",
        "<th scope=\"col\" class=\"num\" title=\"points the ending gave\">Ending</th>",
        "<th scope=\"col\" class=\"num\" title=\"points given away\">Missed</th>",
        "<th scope=\"col\" class=\"num\">Big misses</th></tr></thead><tbody>\n"
    ));
    for c in [Color::White, Color::Black] {
        let result = match (winner, r.finish.result) {
            (Some(w), _) if w == c => "won",
            (Some(_), _) => "lost",
            (None, "1/2-1/2") => "draw",
            _ => "—",
        };
        let big = a
            .plies
            .iter()
            .filter(|p| p.mover == c && p.missed > 0.0 && p.missed >= r.big)
            .count();
        let _ = writeln!(
            h,
            "<tr><th scope=\"row\"><span class=\"side-name\">{}</span> {}</th><td class=\"res {result}\">{result}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{big}</td></tr>",
            side(c),
            names[usize::from(!c.is_white())],
            rec.total.points(c),
            rec.outcome.points(c),
            fmt_points(a.missed_by(c)).trim_start_matches('+'),
        );
    }
    let _ = writeln!(
        h,
        "</tbody></table></div>\n<p class=\"result-line\"><span class=\"token\">{}</span> {}.</p>",
        escape(r.finish.result),
        capitalised(&outcome_phrase(r.finish)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_skeleton_is_filled_from_the_template_only() {
        let page = fill(
            "<t>{{title}}</t>{{body}}{{nope}}",
            &[("title", "{{body}}"), ("body", "{{title}}")],
        );
        assert_eq!(page, "<t>{{body}}</t>{{title}}{{nope}}");
        assert!(PAGE.contains("{{body}}") && CSS.contains(":root") && SCRIPT.contains("show("));
    }
}
