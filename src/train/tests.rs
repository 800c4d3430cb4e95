//! The trainer on a synthetic task: positions labelled by a known linear
//! function of material. The loss falls, the quantised net agrees with
//! the float pass, threads do not change the result, and a checkpoint
//! continues a run exactly.

use super::*;
use crate::nnue::{Accumulator, HIDDEN};
use shakmaty::{Chess, Color, Position};

/// Material for the side to move: 100, 300, 300, 500, 900 per piece.
fn material(board: &shakmaty::Board, turn: shakmaty::Color) -> f32 {
    let value = [100.0, 300.0, 300.0, 500.0, 900.0, 0.0];
    board
        .iter()
        .map(|(_, p)| {
            let v = value[p.role as usize - 1];
            if p.color == turn { v } else { -v }
        })
        .sum()
}

/// Positions from seeded random playouts, labelled by material.
fn samples(n: usize, seed: u64) -> Vec<Sample> {
    let mut out = Vec::new();
    let mut s = seed;
    while out.len() < n {
        let mut pos = Chess::default();
        for ply in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Captures twice as likely, so material varies.
            let caps: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
            let r = splitmix(&mut s);
            let m = if !caps.is_empty() && r.is_multiple_of(2) {
                *caps[(r / 2) as usize % caps.len()]
            } else {
                moves[(r / 2) as usize % moves.len()]
            };
            pos.play_unchecked(m);
            if ply % 9 == 8 {
                let score = material(pos.board(), pos.turn());
                out.push(Sample::new(pos.board(), pos.turn(), 0.5, score));
            }
        }
    }
    out.truncate(n);
    out
}

fn settings(epochs: u32) -> Settings {
    Settings {
        epochs,
        batch: 128,
        lr: 0.01,
        schedule: Schedule::Cosine {
            final_fraction: 0.1,
        },
        weight_decay: 0.0,
        lambda: 0.0,
        k: 1.0 / 300.0,
        seed: 3,
        buckets: 1,
        hidden: HIDDEN,
        kings: Kings::Plain,
    }
}

/// [`settings`] of another shape.
fn shaped(epochs: u32, hidden: usize, kings: Kings, buckets: usize) -> Settings {
    Settings {
        hidden,
        kings,
        buckets,
        ..settings(epochs)
    }
}

fn pool(n: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .unwrap()
}

#[test]
fn the_trainer_learns_material_and_the_net_agrees() {
    let data = samples(8000, 1);
    let held = samples(500, 2);
    assert!(data.iter().any(|s| s.score.abs() >= 300.0));
    let mut t = Trainer::new(BoardKind::Standard, settings(12));
    let before = t.loss(&held);
    for _ in 0..12 {
        t.epoch(&data, |_, _| {});
    }
    let after = t.loss(&held);
    assert!(after < before / 5.0, "{before} -> {after}");
    // The values are material: a queen up is far ahead, equal is level.
    let errors: Vec<f32> = held
        .iter()
        .map(|s| (t.evaluate(s) - s.score).abs())
        .collect();
    let mean = errors.iter().sum::<f32>() / errors.len() as f32;
    assert!(mean < 120.0, "mean error {mean}");
    // The engine's integers agree with the float pass.
    let net = t.network().unwrap();
    let a = compare(&t, &net, &held);
    assert_eq!(a.positions, held.len());
    assert!(a.arithmetic <= ARITHMETIC_TOLERANCE, "{a:?}");
    assert!(a.mean <= 10.0 && a.max <= 60.0, "{a:?}");
    // The weights stay within the loader's bounds.
    let sh = t.shape();
    assert!(
        t.params[..sh.out_w(0)]
            .iter()
            .all(|w| w.abs() <= CLIP_HIDDEN)
    );
    assert!(
        t.params[sh.out_w(0)..sh.out_b(0)]
            .iter()
            .all(|w| w.abs() <= CLIP_OUTPUT)
    );
    assert!(net.heads()[0].weights.iter().flatten().any(|&w| w != 0));
}

#[test]
fn threads_do_not_change_the_net() {
    let data = samples(1500, 5);
    let run = |threads: usize| {
        pool(threads).install(|| {
            let mut t = Trainer::new(BoardKind::Standard, settings(2));
            t.epoch(&data, |_, _| {});
            t.epoch(&data, |_, _| {});
            t.params
        })
    };
    assert_eq!(run(1), run(2));
    // A wide net of king buckets too.
    let run = |threads: usize| {
        pool(threads).install(|| {
            let mut t = Trainer::new(BoardKind::Standard, shaped(1, 256, Kings::Eight, 2));
            t.epoch(&data, |_, _| {});
            t.params
        })
    };
    assert_eq!(run(1), run(2));
}

#[test]
fn a_wide_net_of_king_buckets_learns_and_the_engine_computes_what_the_trainer_does() {
    let data = samples(3000, 21);
    let held = samples(300, 22);
    for (hidden, kings) in [(256, Kings::Four), (136, Kings::Sixteen)] {
        let mut t = Trainer::new(BoardKind::Standard, shaped(3, hidden, kings, 2));
        let before = t.loss(&held);
        for _ in 0..3 {
            t.epoch(&data, |_, _| {});
        }
        assert!(t.loss(&held) < before, "{kings:?}");
        let net = t.network().unwrap();
        assert_eq!(
            (net.hidden(), net.kings(), net.buckets()),
            (hidden, kings, 2)
        );
        let a = compare(&t, &net, &held);
        assert!(a.arithmetic <= ARITHMETIC_TOLERANCE, "{kings:?} {a:?}");
        // Its file goes on training as itself.
        let again = Trainer::from_net(BoardKind::Standard, t.settings.clone(), &net).unwrap();
        assert_eq!(again.network().unwrap().name(), net.name());
    }
}

#[test]
fn a_checkpoint_continues_the_run_exactly() {
    let data = samples(1000, 7);
    let mut straight = Trainer::new(BoardKind::Extinction, settings(2));
    straight.epoch(&data, |_, _| {});
    let dir = std::env::temp_dir().join(format!("tally-train-ckpt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("run.ckpt");
    checkpoint::save(&straight, 42, &path).unwrap();
    straight.epoch(&data, |_, _| {});
    let state = checkpoint::load(&path).unwrap();
    assert_eq!(state.epoch, 1);
    assert_eq!(state.digest, 42);
    assert_eq!(state.board, BoardKind::Extinction);
    let mut resumed = Trainer::restore(state.board, settings(2), state).unwrap();
    resumed.epoch(&data, |_, _| {});
    assert_eq!(resumed.params, straight.params);
    assert_eq!(resumed.step, straight.step);
    // A damaged or foreign checkpoint is one line.
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let e = checkpoint::load(&path).unwrap_err();
    assert!(
        e.ends_with("the checkpoint is damaged (hash mismatch)"),
        "{e}"
    );
    std::fs::write(&path, b"short").unwrap();
    assert!(
        checkpoint::load(&path)
            .unwrap_err()
            .contains("not a checkpoint")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn schedules() {
    let mut s = settings(10);
    assert!((learning_rate(&s, 0, 10, 100) - 0.01).abs() < 1e-12);
    assert!((learning_rate(&s, 50, 10, 100) - 0.0055).abs() < 1e-12);
    assert!((learning_rate(&s, 100, 10, 100) - 0.001).abs() < 1e-12);
    s.schedule = Schedule::Step {
        every: 3,
        gamma: 0.5,
    };
    assert_eq!(learning_rate(&s, 29, 10, 100), 0.01);
    assert_eq!(learning_rate(&s, 30, 10, 100), 0.005);
    assert_eq!(learning_rate(&s, 65, 10, 100), 0.0025);
    // K fitted to results that follow a sigmoid of the score.
    let data: Vec<Sample> = samples(800, 9)
        .into_iter()
        .map(|mut s| {
            s.result = sigmoid(0.004 * f64::from(s.score)) as f32;
            s
        })
        .collect();
    let k = fit_k(&data);
    assert!((k - 0.004).abs() < 2e-4, "{k}");
}

#[test]
fn a_trainer_from_a_net_starts_from_its_weights() {
    let data = samples(1500, 11);
    let mut t = Trainer::new(BoardKind::Standard, settings(2));
    t.epoch(&data, |_, _| {});
    let net = t.network().unwrap();
    // The dequantised weights quantise back to the same net.
    let from = Trainer::from_net(BoardKind::Standard, settings(2), &net).unwrap();
    let again = from.network().unwrap();
    assert_eq!(again.name(), net.name());
    assert_eq!(from.step, 0);
    assert_eq!(from.epoch, 0);
    // It evaluates as the net does, within the integers' truncation.
    let a = compare(&from, &net, &data[..200]);
    assert!(a.max <= ARITHMETIC_TOLERANCE, "{a:?}");
    // A net of the other board is refused.
    let e = Trainer::from_net(BoardKind::Extinction, settings(2), &net).unwrap_err();
    assert!(e.contains("standard board"), "{e}");
}

#[test]
fn output_buckets_start_from_a_plain_net_and_learn_apart() {
    let data = samples(1500, 13);
    let mut t = Trainer::new(BoardKind::Standard, settings(2));
    t.epoch(&data, |_, _| {});
    let plain = t.network().unwrap();
    let mut four = settings(2);
    four.buckets = 4;
    // Every bucket starts as the plain net's output layer: the same values.
    let same = Trainer::from_net(BoardKind::Standard, settings(2), &plain).unwrap();
    let mut from = Trainer::from_net(BoardKind::Standard, four.clone(), &plain).unwrap();
    assert_eq!(from.params.len(), four.shape().len());
    for s in &data[..300] {
        assert_eq!(from.evaluate(s), same.evaluate(s));
    }
    // Trained, the buckets differ, and the engine computes what the
    // trainer does.
    from.epoch(&data, |_, _| {});
    let net = from.network().unwrap();
    assert_eq!(net.buckets(), 4);
    assert_ne!(net.heads()[0], net.heads()[3]);
    let a = compare(&from, &net, &data[..300]);
    assert!(a.arithmetic <= ARITHMETIC_TOLERANCE, "{a:?}");
    // The bucketed net goes on training as itself; another bucket count
    // is refused.
    let again = Trainer::from_net(BoardKind::Standard, four.clone(), &net).unwrap();
    assert_eq!(again.network().unwrap().name(), net.name());
    let mut two = four.clone();
    two.buckets = 2;
    let e = Trainer::from_net(BoardKind::Standard, two, &net).unwrap_err();
    assert!(e.contains("has 4 output buckets, not 2"), "{e}");
    // A checkpoint of a bucketed run continues it exactly.
    let dir = std::env::temp_dir().join(format!("tally-train-buckets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("run.ckpt");
    checkpoint::save(&from, 7, &path).unwrap();
    let state = checkpoint::load(&path).unwrap();
    assert_eq!(state.shape, four.shape());
    let mut resumed = Trainer::restore(BoardKind::Standard, four, state).unwrap();
    resumed.epoch(&data, |_, _| {});
    from.epoch(&data, |_, _| {});
    assert_eq!(resumed.params, from.params);
    // Restored with another bucket count: refused.
    let state = checkpoint::load(&path).unwrap();
    assert!(Trainer::restore(BoardKind::Standard, settings(2), state).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_narrower_net_grows_new_neurons_that_start_silent_and_learn() {
    let data = samples(1500, 17);
    let mut t = Trainer::new(BoardKind::Standard, settings(2));
    t.epoch(&data, |_, _| {});
    let narrow = t.network().unwrap();
    let h = HIDDEN;
    let wide = shaped(2, 2 * HIDDEN, Kings::Plain, 1);
    let mut from = Trainer::from_net(BoardKind::Standard, wide.clone(), &narrow).unwrap();
    // It starts as the narrow net: the new neurons' output weights are
    // zero, their hidden weights random; the engine's integers of the
    // wide net untrained are the narrow net's.
    let a = compare(&from, &narrow, &data[..200]);
    assert!(a.max <= ARITHMETIC_TOLERANCE, "{a:?}");
    let started = from.network().unwrap();
    assert_eq!(started.hidden(), 2 * HIDDEN);
    for s in &data[..300] {
        let board = s.board();
        assert_eq!(
            started.evaluate(&board, s.turn()),
            narrow.evaluate(&board, s.turn())
        );
    }
    let sh = from.shape();
    let new_inputs = (0..FEATURES).flat_map(|f| from.params[sh.row(f)][h..].to_vec());
    assert!(new_inputs.filter(|w| *w != 0.0).count() > FEATURES * h / 2);
    assert!(
        from.params[sh.out_w(0) + h..sh.out_w(0) + 2 * h]
            .iter()
            .all(|w| *w == 0.0)
    );
    // Trained, the new neurons take part.
    from.epoch(&data, |_, _| {});
    assert!(
        from.params[sh.out_w(0) + h..sh.out_w(0) + 2 * h]
            .iter()
            .any(|w| *w != 0.0)
    );
    assert_eq!(from.network().unwrap().hidden(), 2 * HIDDEN);
    // A wider net cannot start a narrower run.
    let wide_net = from.network().unwrap();
    let e = Trainer::from_net(BoardKind::Standard, settings(2), &wide_net).unwrap_err();
    assert!(e.contains("256 hidden neurons, more than the 128"), "{e}");
}

#[test]
fn king_buckets_start_from_a_plain_net_or_a_coarser_one() {
    let data = samples(1500, 19);
    let mut t = Trainer::new(BoardKind::Standard, shaped(1, HIDDEN, Kings::Plain, 2));
    t.epoch(&data, |_, _| {});
    let plain = t.network().unwrap();
    // From the plain net, 4 king buckets of 256 neurons: untrained, each
    // perspective's sums are the plain net's (its first 128 neurons; the
    // others are new) on the board as the perspective reads it, mirrored
    // when its king is on files e-h. Where neither king is, the values
    // are the plain net's to the unit.
    let four = Trainer::from_net(BoardKind::Standard, shaped(1, 256, Kings::Four, 2), &plain)
        .unwrap()
        .network()
        .unwrap();
    assert_eq!((four.hidden(), four.kings()), (256, Kings::Four));
    let mut unmirrored = 0;
    for s in &data {
        let board = s.board();
        let acc = Accumulator::refresh(&four, &board);
        let mut mirrored = board.clone();
        mirrored.flip_horizontal();
        let mut either = false;
        for persp in Color::ALL {
            let mirror = four.king_key(persp, &board).mirror;
            either |= mirror;
            let seen = if mirror { &mirrored } else { &board };
            let old = Accumulator::refresh(&plain, seen);
            assert_eq!(acc.side(persp)[..HIDDEN], old.side(persp)[..]);
        }
        if !either {
            unmirrored += 1;
            assert_eq!(
                four.evaluate(&board, s.turn()),
                plain.evaluate(&board, s.turn())
            );
        }
    }
    assert!(unmirrored > 20, "{unmirrored}");
    // A finer layout from a coarser one starts as it, to the unit
    // everywhere; the other way is refused, as is a plain run from a net
    // of king buckets.
    let sixteen = Trainer::from_net(
        BoardKind::Standard,
        shaped(1, 256, Kings::Sixteen, 2),
        &four,
    )
    .unwrap()
    .network()
    .unwrap();
    for s in &data[..300] {
        let board = s.board();
        assert_eq!(
            sixteen.evaluate(&board, s.turn()),
            four.evaluate(&board, s.turn())
        );
    }
    let e = Trainer::from_net(
        BoardKind::Standard,
        shaped(1, 256, Kings::Four, 2),
        &sixteen,
    )
    .unwrap_err();
    assert!(
        e.contains("has 16 king buckets, which the run's 4 do not refine"),
        "{e}"
    );
    assert!(
        Trainer::from_net(BoardKind::Standard, shaped(1, 256, Kings::Plain, 2), &four).is_err()
    );
    // A checkpoint of such a run holds its shape and continues it exactly.
    let mut run =
        Trainer::from_net(BoardKind::Standard, shaped(2, 256, Kings::Eight, 2), &four).unwrap();
    run.epoch(&data, |_, _| {});
    let dir = std::env::temp_dir().join(format!("tally-train-kings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("run.ckpt");
    checkpoint::save(&run, 9, &path).unwrap();
    let state = checkpoint::load(&path).unwrap();
    assert_eq!(state.shape, run.shape());
    let mut resumed = Trainer::restore(BoardKind::Standard, run.settings.clone(), state).unwrap();
    resumed.epoch(&data, |_, _| {});
    run.epoch(&data, |_, _| {});
    assert_eq!(resumed.params, run.params);
    let state = checkpoint::load(&path).unwrap();
    assert!(Trainer::restore(BoardKind::Standard, shaped(2, 256, Kings::Four, 2), state).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_step_of_any_size_keeps_every_weight_where_the_engine_computes_it() {
    let data = samples(256, 4);
    let idx: Vec<u32> = (0..128).collect();
    // At 512 neurons the float output can pass the engine's clamp of a
    // net's value: both hold it there.
    for (lr, s) in [
        (1e30, settings(1)),
        (-1e30, settings(1)),
        (1e30, shaped(1, 512, Kings::Four, 1)),
        (-1e30, shaped(1, 512, Kings::Four, 1)),
    ] {
        let mut t = Trainer::new(BoardKind::Standard, s);
        t.step(&data, &idx, lr);
        let p = &t.params;
        let sh = t.shape();
        assert!(p[..sh.out_w(0)].iter().all(|w| w.abs() <= CLIP_HIDDEN));
        assert!(
            p[sh.out_w(0)..sh.out_b(0)]
                .iter()
                .all(|w| w.abs() <= CLIP_OUTPUT)
        );
        assert!(
            p[sh.out_b(0)].abs() <= CLIP_OUTPUT_BIAS,
            "{}",
            p[sh.out_b(0)]
        );
        // The output bias is at its bound, and the integers still agree
        // with the float pass.
        assert_eq!(p[sh.out_b(0)].abs(), CLIP_OUTPUT_BIAS);
        let net = t.network().unwrap();
        let a = compare(&t, &net, &data[128..]);
        assert!(a.arithmetic <= ARITHMETIC_TOLERANCE, "{a:?}");
        // One more step the same way, from the bounds.
        t.step(&data, &idx, lr);
        let net = t.network().unwrap();
        let a = compare(&t, &net, &data[128..]);
        assert!(a.arithmetic <= ARITHMETIC_TOLERANCE, "{a:?}");
    }
}
