// @ts-check
// The messages between `tally serve` and this page, as JSDoc types that
// mirror `src/serve/protocol.rs` field for field (a field renamed there
// is renamed here). Points are numbers: whole points as integers, others
// as decimals (`0.5`).

/** @typedef {"white" | "black"} Side */

/**
 * Points to each side.
 * @typedef {object} Totals
 * @property {number} white
 * @property {number} black
 */

/**
 * The points one event paid each side.
 * @typedef {object} AwardItem
 * @property {string} event the referee's event name (`capture`, `mate`, ...)
 * @property {number} white
 * @property {number} black
 */

/**
 * An award with its points event by event.
 * @typedef {object} ItemisedAward
 * @property {number} white
 * @property {number} black
 * @property {string[]} events the events' names
 * @property {AwardItem[]} items the points of each event, in the order paid
 */

/**
 * The clocks.
 * @typedef {object} ClockState
 * @property {number} base_ms
 * @property {number} inc_ms
 * @property {number} white_ms
 * @property {number} black_ms
 * @property {Side | null} running the side whose clock runs
 */

/**
 * Tiebraker's disk phase.
 * @typedef {object} DiskPhase
 * @property {"none" | "offered" | "accepted" | "swapped" | "restored"} phase
 * @property {Side | null} first the side that played `disk`
 * @property {Side | null} frozen the side whose king is the frozen disk now
 * @property {number | null} swap_plies_left in the swap's window, the plies left that play as dynamic
 * @property {boolean} compulsory whether capture-or-check binds the side to move
 */

/**
 * How a game ended.
 * @typedef {object} EndingState
 * @property {string | null} kind `checkmate`, `time_forfeit`, ...
 * @property {string | null} text the ending in words
 * @property {Side | null} winner the board's winner
 */

/**
 * Who won a finished game and why (the referee's `Decision`).
 * @typedef {object} Decision
 * @property {Side | null} winner null: tied on points
 * @property {"points" | "resignation"} by
 * @property {string} text `Black wins on points, 14 to 10, though mated`
 */

/**
 * One ply.
 * @typedef {object} PlyState
 * @property {number} n 1-based
 * @property {Side} mover
 * @property {number} fullmove
 * @property {string} san SAN, or the special word
 * @property {string} action UCI, or the special word
 * @property {boolean} special
 * @property {[string, string] | null} squares the squares a move left and reached
 * @property {string} fen the position after it
 * @property {ItemisedAward} award
 * @property {Totals} running both totals after it
 * @property {number | null} expected Tally's expected final margin, White − Black, at its moves
 */

/**
 * A legal move.
 * @typedef {object} LegalMove
 * @property {string} uci
 * @property {string} from
 * @property {string} to the square it reaches (the rook's for Chess960 castling)
 * @property {string | null} promotion
 */

/**
 * What the side to move may play.
 * @typedef {object} Legal
 * @property {LegalMove[]} moves
 * @property {string[]} specials the special words legal now
 * @property {string | null} limited why fewer moves than the board allows
 */

/**
 * Tally's search report.
 * @typedef {object} Think
 * @property {number} depth
 * @property {number} nodes
 * @property {number} ms
 * @property {number} margin Tally's expected margin from here, for itself
 * @property {number | null} mate
 * @property {number} final_white_minus_black
 * @property {string[]} pv
 * @property {string[]} pv_san
 */

/**
 * The state of a game.
 * @typedef {object} GameState
 * @property {string} id
 * @property {string} variant
 * @property {"engine" | "people"} mode
 * @property {Side} side the person's side against Tally
 * @property {boolean} specials
 * @property {boolean} chess960
 * @property {number | null} elo
 * @property {number} movetime
 * @property {ClockState | null} clock
 * @property {string} start_fen
 * @property {string} fen
 * @property {Side} turn
 * @property {boolean} check
 * @property {Side | null} disk the side whose king is the tiebraker disk
 * @property {DiskPhase | null} phase tiebraker only
 * @property {Side | null} draw_advantage sets: the side a plain draw's 1/2 goes to (null: nobody)
 * @property {HandicapState | null} handicap sets: the handicap played, when there is one (null: none)
 * @property {"playing" | "over"} status
 * @property {EndingState | null} ending
 * @property {Decision | null} result
 * @property {ItemisedAward} outcome the ending's own award
 * @property {Totals} totals
 * @property {PlyState[]} plies
 * @property {Legal} legal
 * @property {boolean} engine_to_move
 * @property {boolean} thinking
 * @property {Think | null} think
 * @property {number | null} search_ms
 * @property {ContestState | null} contest the contest the game is part of, if any
 */

/**
 * The sets handicap of a game (`handicap` in its setup): the weaker
 * side's values count `factor` times, and it holds the draw advantage.
 * @typedef {object} HandicapState
 * @property {number} rating the person's rating, as given
 * @property {number} gap the gap to Tally's UCI_Elo
 * @property {Side} weaker the weaker side's colour
 * @property {number} factor the handicap table's factor of the weaker side's values
 */

/** A contest's player: `first` (White in game 1) or `second`. @typedef {"first" | "second"} Seat */

/**
 * A counted game of a contest.
 * @typedef {object} ContestGame
 * @property {number} number from 1
 * @property {string} variant
 * @property {boolean} tiebreak whether it was a tie-break game
 * @property {Seat} white the player who had White
 * @property {[number, number]} points each player's points, first player first
 * @property {Seat | null} winner the player with more points (null: equal)
 * @property {string | null} ending how it ended
 * @property {Seat | null} resigned the player who resigned (or lost on time), if one did
 */

/**
 * The next game of a contest.
 * @typedef {object} ContestNext
 * @property {number} number
 * @property {string} variant
 * @property {boolean} tiebreak
 * @property {Seat} white
 * @property {boolean} started whether it was opened already (its id is in `ids`)
 */

/**
 * How a contest came out.
 * @typedef {object} ContestDecision
 * @property {Seat | null} winner null: tied
 * @property {"points" | "resignation" | "tiebreak"} why
 * @property {string} text in words, with the players' names and sums
 */

/**
 * A contest's table, as the page of one of its games shows it.
 * @typedef {object} ContestState
 * @property {string} id
 * @property {string} format `series:4`, `tiebreak-match:2`, `tiebreak-match:2,cap=6`
 * @property {string} rules its rules in one line
 * @property {boolean} resignation_ends whether a resignation ends it, the resigner losing it
 * @property {[string, string]} names the players' names, first player first
 * @property {number} number this game's number
 * @property {Seat} white the player with White in this game
 * @property {ContestGame[]} games the games counted so far
 * @property {string[]} ids every game's id, by number from 1 (the next one's once started)
 * @property {[number, number]} totals each player's sum, first player first
 * @property {[number, number]} won games each player won on points
 * @property {number} tied games with equal points
 * @property {Seat | null} leader the player ahead on points
 * @property {boolean} over
 * @property {ContestDecision | null} decision once over
 * @property {ContestNext | null} next while it goes on
 * @property {Seat | null} draw_advantage sets: the player holding the draw advantage in every game
 */

/**
 * A hint for the position after `ply` plies.
 * @typedef {object} Hint
 * @property {number} ply
 * @property {string} action
 * @property {string} san
 * @property {ItemisedAward} award
 * @property {number | null} margin
 * @property {number | null} mate
 */

/**
 * A message to a game's page.
 * @typedef {{type: "state", game: GameState}
 *   | {type: "think", think: Think}
 *   | ({type: "hint"} & Hint)
 *   | {type: "error", message: string}} GameEvent
 */

/**
 * A message from a game's page.
 * @typedef {{type: "play", action: string}
 *   | {type: "takeback"} | {type: "resign"} | {type: "hint"} | {type: "state"}} GameRequest
 */

/**
 * A position as the analyse view names it.
 * @typedef {object} PositionRequest
 * @property {string} [variant] absent: the PGN's Variant tag, else chess
 * @property {string} [fen]
 * @property {string[]} [moves]
 * @property {string} [pgn]
 * @property {number} [depth]
 * @property {boolean} [chess960]
 * @property {boolean} [specials]
 */

/**
 * A message from the analyse view.
 * @typedef {({type: "analyse"} & PositionRequest) | ({type: "line"} & PositionRequest) | {type: "stop"}} AnalyseRequest
 */

/**
 * The position of an `analyse` request.
 * @typedef {object} AnalysedPosition
 * @property {string} variant
 * @property {string} fen the start FEN
 * @property {string[]} moves
 * @property {string[]} sans
 * @property {string} fen_now the position analysed
 * @property {boolean} chess960
 * @property {boolean} specials
 * @property {string | null} note
 */

/**
 * One ranked action.
 * @typedef {object} RankedState
 * @property {number} rank
 * @property {string} action
 * @property {string} san
 * @property {number | null} value expected margin for the side to move
 * @property {number | null} mate
 * @property {ItemisedAward} award
 * @property {string[]} pv
 * @property {string[]} pv_san
 * @property {number} depth
 */

/**
 * A ranking of every legal action.
 * @typedef {object} Ranking
 * @property {string} fen
 * @property {Side} turn
 * @property {number} depth
 * @property {number} nodes
 * @property {boolean} done
 * @property {RankedState[]} actions
 */

/**
 * A message to the analyse view.
 * @typedef {({type: "position"} & AnalysedPosition)
 *   | ({type: "analysis"} & Ranking)
 *   | {type: "line", sans: string[], fens: string[]}
 *   | {type: "error", message: string}} AnalyseEvent
 */

/**
 * A line of a rules card.
 * @typedef {object} CardLine
 * @property {string} key
 * @property {string} pays
 * @property {string} value
 */

/**
 * A variant's scoring in short.
 * @typedef {object} Card
 * @property {string} variant
 * @property {string} about
 * @property {CardLine[]} lines
 */

/**
 * A special action.
 * @typedef {object} SpecialInfo
 * @property {string} action
 * @property {string} help
 */

/**
 * A variant of the catalogue.
 * @typedef {object} VariantInfo
 * @property {string} id
 * @property {Card} card
 * @property {SpecialInfo[]} specials
 * @property {boolean} resignation_loses
 */

/**
 * `GET /api/variants`.
 * @typedef {object} Catalogue
 * @property {VariantInfo[]} variants
 * @property {number} min_elo
 * @property {number} max_elo
 * @property {string} default_variant
 */

/**
 * A game of `GET /api/games`.
 * @typedef {object} Summary
 * @property {string} id
 * @property {string} variant
 * @property {string} white
 * @property {string} black
 * @property {number} plies
 * @property {"playing" | "over"} status
 * @property {string | null} result
 * @property {number} created_ms
 */

export {};
