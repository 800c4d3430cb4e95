//! Outcome awards: what an ending pays, as the variant's scoring
//! ([`VariantScoring::outcome_award`](super::variants::VariantScoring::outcome_award)) says, with what every variant shares:
//! the event that names each ending, and a loss on time named as such.

use super::variants::{End, View};
use super::{Award, EndContext, Event, Memo, Scorer};
use crate::rules::{Ending, RepetitionKind};

/// The event that names an ending's award.
pub(super) fn ending_event(ending: &Ending) -> Event {
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
pub(super) fn outcome_award(
    scorer: &Scorer,
    memo: &Memo,
    end: View,
    ending: &Ending,
    ctx: &EndContext,
) -> Award {
    let end = End {
        ending,
        node: end,
        memo,
        ctx,
        draw: scorer.draw_advantage(),
    };
    let mut award = scorer.scoring().outcome_award(scorer.tables(), &end);
    // A loss on time pays as a resignation (whatever the variant's table
    // makes of one) and is named for what it was.
    if ctx.time_forfeit && matches!(ending, Ending::Resignation { .. }) {
        award.rename_event(Event::Resignation, Event::TimeForfeit);
    }
    award
}
