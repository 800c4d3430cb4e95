//! Which evaluation runs: [`EvalMode`], and the rules that choose the net
//! an evaluator of a variant reads ([`net_for`], [`net_alone`],
//! [`missing_net`]).

use std::sync::Arc;

use crate::nnue::Network;
use crate::rules::{BoardKind, Variant};

/// Which evaluation runs: the variant evaluator (over a net or the base
/// evaluation, with tuned or hand-set weights), the base evaluation alone,
/// or a trained network.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EvalMode {
    /// The default: the variant evaluator over the net of the board, in
    /// every variant (each built-in net has won its match against the
    /// hand-written evaluation and keeps every suite move: `docs/train.md`,
    /// "The built-in nets"). In extinction the net's score carries the
    /// threats on last pieces
    /// ([`VariantEval::over_net`](super::variants::VariantEval::over_net)).
    #[default]
    Variant,
    /// The variant evaluator with the hand-set weights, of the base
    /// evaluation and of the variant evaluator, instead of the tuned ones
    /// (for comparison).
    Untuned,
    /// The base evaluation with the win/draw/loss model only.
    Base,
    /// The net of the board kind ([`crate::nnue`]) in every variant: the
    /// whole evaluation in chess, with the threats on last pieces in
    /// extinction, the centipawns under the scoring variants' own terms.
    /// The same evaluation as [`EvalMode::Variant`]; kept so that settings
    /// and data that name it still read.
    Nnue,
}

impl EvalMode {
    /// Every mode, in the order options list them.
    pub const ALL: [EvalMode; 4] = [
        EvalMode::Variant,
        EvalMode::Untuned,
        EvalMode::Base,
        EvalMode::Nnue,
    ];

    /// The name options take: `variant`, `untuned`, `base` or `nnue`.
    pub const fn name(self) -> &'static str {
        match self {
            EvalMode::Variant => "variant",
            EvalMode::Untuned => "untuned",
            EvalMode::Base => "base",
            EvalMode::Nnue => "nnue",
        }
    }

    /// The mode of a name (any case, surrounding blanks ignored).
    pub fn parse(text: &str) -> Option<EvalMode> {
        let t = text.trim();
        EvalMode::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(t))
    }
}

/// Whether a net's score is the whole evaluation of `variant`: chess and
/// extinction, the variants scored by the board result alone (whose
/// scores the training data hold in the units a net learns). The scoring
/// variants play on the standard board and read the net's score in place
/// of the base evaluation's centipawns, under their evaluators' own terms
/// ([`variants`](super::variants)).
pub fn net_alone(variant: Variant) -> bool {
    super::variants::of(variant).board_result_alone()
}

/// The net an evaluator of `variant` in `mode` evaluates with, given the
/// net the user loaded (`EvalFile`, `--net`): the loaded one when it is
/// of the variant's board, else the one built into the binary for the
/// board; `None` where the mode reads no net ([`EvalMode::Untuned`],
/// [`EvalMode::Base`]) or the board has none. The one place that choice is made: the
/// evaluator, the engine's note and datagen's settings all ask here.
pub fn net_for(
    variant: Variant,
    mode: EvalMode,
    loaded: Option<Arc<Network>>,
) -> Option<Arc<Network>> {
    let reads = match mode {
        EvalMode::Variant | EvalMode::Nnue => true,
        EvalMode::Untuned | EvalMode::Base => false,
    };
    if !reads {
        return None;
    }
    let board = BoardKind::of(variant);
    loaded
        .filter(|n| n.board() == board)
        .or_else(|| crate::nnue::embedded(board))
}

/// Why [`EvalMode::Nnue`] finds no net for `variant` given the loaded net
/// `net` (the one built into the binary for the board otherwise), or
/// `None` when it has one.
pub fn missing_net(variant: Variant, net: Option<&Network>) -> Option<String> {
    let board = BoardKind::of(variant);
    match net {
        Some(n) if n.board() == board => None,
        Some(n) if crate::nnue::embedded(board).is_none() => Some(format!(
            "EvalMode nnue: the net {} is for the {} board, {variant} is played on the {} board; the base evaluation is used",
            n.name(),
            n.board().name(),
            board.name()
        )),
        None if crate::nnue::embedded(board).is_none() => Some(format!(
            "EvalMode nnue: no net is loaded for {variant} (set EvalFile); the base evaluation is used"
        )),
        _ => None,
    }
}
