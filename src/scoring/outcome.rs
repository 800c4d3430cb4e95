//! Outcome awards: what each ending pays, per variant.

use shakmaty::Color;

use super::tables::Split;
use super::{Award, EndContext, Event, Memo, Points, Scorer, stylish, wacky};
use crate::rules::{Disk, Ending, Node, Pos, RepetitionKind, Variant};

/// An award of `s[0]` to `first` and `s[1]` to the other side.
fn to(first: Color, s: Split, event: Event) -> Award {
    match first {
        Color::White => Award::split(s[0], s[1], event),
        Color::Black => Award::split(s[1], s[0], event),
    }
}

/// The event that names an ending's award.
fn ending_event(ending: &Ending) -> Event {
    match ending {
        Ending::Checkmate { .. } => Event::Mate,
        Ending::Stalemate { .. } => Event::Stalemate,
        Ending::Extinction { .. } => Event::Extinction,
        Ending::MutualBare { .. } => Event::BareKing,
        Ending::Repetition(r) => match r.kind {
            RepetitionKind::Plain => Event::Repetition,
            RepetitionKind::Perpetual { .. } => Event::PerpetualCheck,
            RepetitionKind::Mutual { .. } => Event::MutualPerpetualCheck,
        },
        Ending::MoveRule => Event::MoveRule,
        Ending::InsufficientMaterial => Event::InsufficientMaterial,
        Ending::Claim { .. } => Event::Claim,
        Ending::Resignation { .. } => Event::Resignation,
    }
}

/// The outcome award of `ending` reached in `end`.
pub(super) fn outcome_award<P: Pos>(
    scorer: &Scorer,
    memo: &Memo,
    end: &Node<P>,
    ending: &Ending,
    ctx: &EndContext,
) -> Award {
    let t = scorer.tables();
    let mut award = match scorer.variant() {
        Variant::Chess => result(&t.chess, ending),
        Variant::Extinction => result(&t.extinction, ending),
        Variant::Stylish => stylish::outcome_award(&t.stylish, memo, end, ending),
        Variant::Wacky => wacky::outcome_award(&t.wacky, memo, end, ending, ctx),
        Variant::Sets => sets(scorer, ending),
        Variant::Dynamic => dynamic(&t.dynamic, ending, ending_event(ending)),
        Variant::Tiebraker => tiebraker(scorer, end, ending),
    };
    // A loss on time pays as a resignation (whatever the variant's table
    // makes of one) and is named for what it was.
    if ctx.time_forfeit
        && matches!(ending, Ending::Resignation { .. })
        && award.events.contains(Event::Resignation)
    {
        award.events.remove(Event::Resignation);
        award.events.add(Event::TimeForfeit);
    }
    award
}

fn result(t: &super::tables::ResultTable, ending: &Ending) -> Award {
    match ending.winner() {
        Some(w) => to(w, [t.win, t.loss], ending_event(ending)),
        None => Award::split(t.draw, t.draw, ending_event(ending)),
    }
}

fn sets(scorer: &Scorer, ending: &Ending) -> Award {
    let t = &scorer.tables().sets;
    let z = Points::ZERO;
    let ev = ending_event(ending);
    match *ending {
        Ending::Checkmate { winner } => to(winner, [t.mate, z], ev),
        Ending::Resignation { winner } => to(winner, [t.resignation, z], ev),
        Ending::Claim { claimer } => to(claimer, [t.bare_king, z], ev),
        Ending::MutualBare { first } => to(first, [t.mutual_bare, z], ev),
        Ending::Stalemate { stalemated } => to(!stalemated, [t.stalemate, z], ev),
        Ending::Repetition(r) => match r.kind {
            RepetitionKind::Perpetual { by } => to(by, [t.perpetual_check, z], ev),
            RepetitionKind::Mutual { first_check } => {
                to(first_check, [t.mutual_perpetual_check, z], ev)
            }
            RepetitionKind::Plain => to(!r.third_by, [t.repetition, z], ev),
        },
        Ending::MoveRule | Ending::InsufficientMaterial | Ending::Extinction { .. } => {
            match scorer.draw_advantage().color() {
                Some(a) => to(a, [t.draw, z], Event::Draw),
                None => Award::split(z, z, Event::Draw),
            }
        }
    }
}

/// Dynamic's award for `ending`, named `ev` (tiebraker scores a
/// resignation as a mate and keeps its name).
fn dynamic(t: &super::tables::DynamicTable, ending: &Ending, ev: Event) -> Award {
    match *ending {
        Ending::Checkmate { winner } | Ending::Resignation { winner } => to(winner, t.mate, ev),
        Ending::Stalemate { stalemated } => to(!stalemated, t.stalemate, ev),
        Ending::Repetition(r) => match r.kind {
            RepetitionKind::Perpetual { by: Color::Black } => {
                to(Color::Black, t.perpetual_by_black, ev)
            }
            RepetitionKind::Perpetual { by: Color::White } => {
                to(Color::White, t.perpetual_by_white, ev)
            }
            _ => to(Color::White, t.draw, ev),
        },
        // Extinction, claims and bare kings do not occur on these rules;
        // like every other ending they count as draws.
        _ => to(Color::White, t.draw, ev),
    }
}

fn tiebraker<P: Pos>(scorer: &Scorer, end: &Node<P>, ending: &Ending) -> Award {
    let t = &scorer.tables().tiebraker;
    let ev = ending_event(ending);
    // A resignation counts as a mate by the opponent in the current phase;
    // its award is still named a resignation.
    let ending = match *ending {
        Ending::Resignation { winner } => Ending::Checkmate { winner },
        other => other,
    };
    match end.extra.disk {
        Disk::None | Disk::Offered { .. } => dynamic(&scorer.tables().dynamic, &ending, ev),
        Disk::Swapped { plies, .. } if plies <= Disk::SWAP_WINDOW => {
            dynamic(&scorer.tables().dynamic, &ending, ev)
        }
        Disk::Swapped { .. } => match ending {
            Ending::Checkmate { winner } => to(winner, t.swapped_mate, ev),
            Ending::Stalemate { stalemated } => to(!stalemated, t.swapped_stalemate, ev),
            _ => to(Color::White, t.swapped_draw, ev),
        },
        Disk::Accepted { disk } => match ending {
            Ending::Checkmate { winner } if winner == disk => to(winner, t.accepted_disk_mates, ev),
            Ending::Checkmate { winner } => to(winner, t.accepted_other_mates, ev),
            Ending::Stalemate { stalemated } => to(!stalemated, t.accepted_stalemate, ev),
            Ending::Repetition(r) => match r.kind {
                RepetitionKind::Perpetual { by } if by == disk => {
                    to(disk, t.accepted_disk_perpetual, ev)
                }
                RepetitionKind::Perpetual { .. } => dynamic(&scorer.tables().dynamic, &ending, ev),
                _ => to(Color::White, t.accepted_draw, ev),
            },
            _ => to(Color::White, t.accepted_draw, ev),
        },
        Disk::Restored { first } => {
            let restorer = !first;
            match ending {
                Ending::Checkmate { winner } if winner == restorer => {
                    to(restorer, t.restored_restorer_mates, ev)
                }
                Ending::Stalemate { stalemated } if stalemated == first => {
                    to(restorer, t.restored_restorer_stalemates, ev)
                }
                _ => to(first, t.restored_other, ev),
            }
        }
    }
}
