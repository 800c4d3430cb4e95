//! Calibration data for the variant evaluators: replays the games of `tally
//! match` results files and writes, for every `STEP`-th position, what the
//! evaluators see and the point margin the side to move went on to earn
//! (its points from there to the end minus the opponent's), as CSV:
//!
//! `cargo run --release --example eval_data -- VARIANT STEP results.jsonl... > data.csv`
//!
//! Columns: `game`, `ply`, `y` (the future margin in points), `cp` (the
//! base evaluation for the side to move), `phase`, the side to move's and
//! the opponent's piece counts (`up`..`uk`, `tp`..`tk`), `uchk` and
//! `tchk` (checking moves of each side), `half` (the halfmove clock),
//! `caps` (captures so far), `umoves`, `tmoves` (moves made),
//! `black` (1 when Black is to move), `base` and `var` (the two evaluators'
//! values in points), `ucap`, `tcap` (stylish: the best capture award in
//! reach of each side), `draw` (the draw margin if drawn now, in points:
//! stylish compensation, the sets draw advantage), `uatt` and `tatt`
//! (checking moves against a king with at most one flight square).

use std::io::{BufRead, BufReader, Write};

use tally::eval::variants::{checking_moves, counts};
use tally::eval::{EvalMode, Evaluate, Evaluator, base};
use tally::referee::{GameInput, score_input};
use tally::rules::{Game, Node, Pos, Variant};
use tally::scoring::{Memo, Scorer};
use tally::with_game;

fn main() {
    let mut args = std::env::args().skip(1);
    let variant = Variant::from_id(&args.next().expect("VARIANT")).expect("variant");
    let step: usize = args.next().and_then(|s| s.parse().ok()).expect("STEP");
    let files: Vec<String> = args.collect();
    let scorer = Scorer::new(variant);
    let out = std::io::stdout();
    let mut out = out.lock();
    writeln!(
        out,
        "game,ply,y,cp,phase,up,un,ub,ur,uq,uk,tp,tn,tb,tr,tq,tk,uchk,tchk,half,caps,umoves,tmoves,black,base,var,ucap,tcap,draw,uatt,tatt"
    )
    .unwrap();
    let mut game_no = 0;
    for f in files {
        let reader = BufReader::new(std::fs::File::open(&f).expect("results file"));
        for line in reader.lines() {
            let line = line.unwrap();
            let v: serde_json::Value = serde_json::from_str(&line).unwrap();
            if v["type"] != "game" {
                continue;
            }
            let fen = v["start_fen"].as_str().unwrap().to_owned();
            let moves: Vec<String> = v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_owned())
                .collect();
            game_no += 1;
            let forfeit = !v["forfeit"].is_null();
            if forfeit {
                continue;
            }
            with_game!(tally::rules::AnyRules::of(variant), |rules| {
                rows(&mut out, rules, &scorer, &fen, &moves, step, game_no)
            });
        }
    }
}

fn rows<P: Pos>(
    out: &mut impl Write,
    rules: tally::rules::Rules<P>,
    scorer: &Scorer,
    fen: &str,
    moves: &[String],
    step: usize,
    game_no: usize,
) {
    let input = GameInput::from_text(Some(fen), &moves.join(" "));
    let Ok(record) = score_input(scorer, &input) else {
        return;
    };
    let Ok(mut game) = Game::new(rules, Some(fen)) else {
        return;
    };
    let total = record.total;
    let base_eval = Evaluator::new(scorer, EvalMode::Base);
    let var_eval = Evaluator::new(scorer, EvalMode::Variant);
    let units = var_eval.units();
    let mut memo = Memo::default();
    let mut banked = [tally::scoring::Points::ZERO; 2];
    for (i, ply) in record.plies.iter().enumerate() {
        let node: Node<P> = game.current().clone();
        if i % step == 0 && !node.check {
            let stm = node.pos.turn();
            let fut = |c: shakmaty::Color| total.points(c) - banked[c as usize];
            let y = (fut(stm) - fut(!stm)).as_f64();
            let board = node.pos.board();
            let bd = base::breakdown(board);
            let u = counts(board, stm);
            let t = counts(board, !stm);
            let st = &scorer.tables().stylish;
            let ucap = tally::eval::variants::stylish::best_capture(st, board, stm);
            let tcap = tally::eval::variants::stylish::best_capture(st, board, !stm);
            let draw = var_eval.result_margins(&node, &memo).draw;
            let (uatt, tatt) = (
                tally::eval::variants::cornered_checks(board, stm),
                tally::eval::variants::cornered_checks(board, !stm),
            );
            writeln!(
                out,
                "{game_no},{i},{y},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.3},{:.3},{},{},{:.3},{uatt},{tatt}",
                bd.cp_for(stm),
                bd.phase,
                u[0], u[1], u[2], u[3], u[4], u[5],
                t[0], t[1], t[2], t[3], t[4], t[5],
                checking_moves(board, stm),
                checking_moves(board, !stm),
                node.pos.halfmoves(),
                memo.captures,
                memo.moves_of(stm),
                memo.moves_of(!stm),
                u8::from(stm.is_black()),
                units.to_points(base_eval.evaluate(&node, &memo)),
                units.to_points(var_eval.evaluate(&node, &memo)),
                ucap.as_f64(),
                tcap.as_f64(),
                units.to_points(draw),
            )
            .unwrap();
        }
        banked[ply.mover as usize] += ply.award.points(ply.mover);
        banked[!ply.mover as usize] += ply.award.points(!ply.mover);
        memo = memo.after(&node, ply.action);
        if game.play(ply.action).is_err() {
            return;
        }
    }
}
