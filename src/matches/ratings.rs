//! Every player's Elo from a crosstable, by maximum likelihood, as Ordo
//! and BayesElo compute it for a tournament: one rating per player such
//! that the results of all the pairings together are the likeliest.
//!
//! The model (Bradley-Terry on the logistic Elo scale): in a game of `i`
//! against `j`, `i`'s expected score is `E_ij = 1 / (1 + 10^((r_j -
//! r_i) / 400))`; a win counts 1, a draw 1/2 (the match's win, draw and
//! loss by points, [`super::stats::game_score`]). With `n_ij` games and
//! `s_ij` points of `i` against `j`, the log-likelihood is `sum over the
//! pairings of s_ij ln E_ij + s_ji ln E_ji`. A player who won every game
//! would have no finite maximum, so, as BayesElo's prior does, every
//! pairing that played gets [`PRIOR_DRAWS`] virtual draws (each adds one
//! game and half a point to each side) before the fit. The ratings are
//! centred: their mean is 0.
//!
//! The fit is the MM iteration of Hunter (2004) on the strengths
//! `g_i = 10^(r_i / 400)`: `g_i <- W_i / sum_j n_ij / (g_i + g_j)`, `W_i`
//! the player's points, until no rating moves by 10^-9, then three of
//! Newton's steps; at the maximum every player's expected points equal
//! its points.
//!
//! The interval: the Fisher information of the ratings, `I_ii = c^2 sum_j
//! n_ij E_ij E_ji` and `I_ij = -c^2 n_ij E_ij E_ji` with `c = ln 10 /
//! 400`, is singular along equal shifts of every rating; the covariance of
//! the centred ratings is its pseudo-inverse, `(I + J/m)^-1 - J/m` (`J`
//! all ones, `m` players), and each rating's 95 % interval is `r_i ±
//! 1.96 sqrt(cov_ii)`, all given to a millionth of an Elo point. A
//! player without games, or players whose pairings do not connect them
//! all, have no rating (`None`).

use super::stats::{EloInterval, Z95};

/// Virtual draws added to every pairing that played.
pub const PRIOR_DRAWS: f64 = 1.0;

/// The iteration's limit; the fit converges in far fewer.
const MAX_ROUNDS: usize = 100_000;

/// Newton's steps after the iteration.
const NEWTON_STEPS: usize = 3;

/// One pairing's results: its two players (by number), its games and the
/// first player's points (a win 1, a draw 1/2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Meeting {
    /// The two players.
    pub players: [usize; 2],
    /// Games played.
    pub games: f64,
    /// The first player's points.
    pub score: f64,
}

/// The ratings of `players` players from their meetings (see the module
/// docs); `None` for a player without games, and for everyone when the
/// pairings played leave the players in separate groups.
pub fn ratings(players: usize, meetings: &[Meeting]) -> Vec<Option<EloInterval>> {
    let mut n = vec![vec![0.0; players]; players];
    let mut s = vec![vec![0.0; players]; players];
    for m in meetings {
        let [a, b] = m.players;
        if a == b || a >= players || b >= players || m.games <= 0.0 {
            continue;
        }
        let games = m.games + PRIOR_DRAWS;
        n[a][b] += games;
        n[b][a] += games;
        s[a][b] += m.score + PRIOR_DRAWS / 2.0;
        s[b][a] += m.games - m.score + PRIOR_DRAWS / 2.0;
    }
    let played: Vec<usize> = (0..players)
        .filter(|&i| n[i].iter().any(|&g| g > 0.0))
        .collect();
    let mut out = vec![None; players];
    if played.is_empty() || !connected(&n, &played) {
        return out;
    }
    let mut r = fit(&n, &s, &played);
    // Newton's steps from the fit's end, to the last digit: `r += cov
    // grad`, the gradient `c sum_j (s_ij - n_ij E_ij)`.
    let c = std::f64::consts::LN_10 / 400.0;
    for _ in 0..NEWTON_STEPS {
        let Some(cov) = covariance(&n, &r, &played) else {
            return out;
        };
        let grad: Vec<f64> = played
            .iter()
            .map(|&i| {
                c * played
                    .iter()
                    .filter(|&&j| j != i)
                    .map(|&j| s[i][j] - n[i][j] * super::stats::expected_score(r[i] - r[j]))
                    .sum::<f64>()
            })
            .collect();
        for (a, &i) in played.iter().enumerate() {
            r[i] += cov[a].iter().zip(&grad).map(|(x, g)| x * g).sum::<f64>();
        }
    }
    let Some(cov) = covariance(&n, &r, &played) else {
        return out;
    };
    // To a millionth: no -0.00000000000005 for an even player.
    let round = |x: f64| (x * 1e6).round() / 1e6 + 0.0;
    for (k, &i) in played.iter().enumerate() {
        let half = Z95 * cov[k][k].max(0.0).sqrt();
        out[i] = Some(EloInterval {
            elo: round(r[i]),
            low: Some(round(r[i] - half)),
            high: Some(round(r[i] + half)),
        });
    }
    out
}

/// Whether the pairings with games connect every player of `played`.
fn connected(n: &[Vec<f64>], played: &[usize]) -> bool {
    let mut seen = vec![false; n.len()];
    let mut stack = vec![played[0]];
    seen[played[0]] = true;
    while let Some(i) = stack.pop() {
        for (j, &g) in n[i].iter().enumerate() {
            if g > 0.0 && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    played.iter().all(|&i| seen[i])
}

/// The centred maximum-likelihood ratings of `played` (the others 0).
fn fit(n: &[Vec<f64>], s: &[Vec<f64>], played: &[usize]) -> Vec<f64> {
    let size = n.len();
    let mut g = vec![1.0f64; size];
    let wins: Vec<f64> = (0..size).map(|i| s[i].iter().sum()).collect();
    for _ in 0..MAX_ROUNDS {
        let mut next = g.clone();
        for &i in played {
            let d: f64 = played
                .iter()
                .filter(|&&j| j != i && n[i][j] > 0.0)
                .map(|&j| n[i][j] / (g[i] + g[j]))
                .sum();
            next[i] = wins[i] / d;
        }
        // Keep the geometric mean at 1 (ratings centred at 0).
        let mean = played.iter().map(|&i| next[i].ln()).sum::<f64>() / played.len() as f64;
        let mut moved = 0.0f64;
        for &i in played {
            next[i] /= mean.exp();
            moved = moved.max((400.0 * (next[i] / g[i]).log10()).abs());
        }
        g = next;
        if moved < 1e-9 {
            break;
        }
    }
    (0..size)
        .map(|i| {
            if played.contains(&i) {
                400.0 * g[i].log10()
            } else {
                0.0
            }
        })
        .collect()
}

/// The covariance of the centred ratings of `played` (indexed as
/// `played`), or `None` when the information cannot be inverted.
fn covariance(n: &[Vec<f64>], r: &[f64], played: &[usize]) -> Option<Vec<Vec<f64>>> {
    let m = played.len();
    let c = std::f64::consts::LN_10 / 400.0;
    let mut info = vec![vec![1.0 / m as f64; m]; m];
    for (a, &i) in played.iter().enumerate() {
        for (b, &j) in played.iter().enumerate() {
            if i == j || n[i][j] <= 0.0 {
                continue;
            }
            let e = super::stats::expected_score(r[i] - r[j]);
            let w = c * c * n[i][j] * e * (1.0 - e);
            info[a][a] += w;
            info[a][b] -= w;
        }
    }
    let mut inv = invert(info)?;
    for row in &mut inv {
        for x in row.iter_mut() {
            *x -= 1.0 / m as f64;
        }
    }
    Some(inv)
}

/// The inverse of a square matrix by Gauss-Jordan elimination with
/// partial pivoting; `None` when it is singular.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let m = a.len();
    let mut inv: Vec<Vec<f64>> = (0..m)
        .map(|i| (0..m).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..m {
        let pivot = (col..m).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let p = a[col][col];
        for k in 0..m {
            a[col][k] /= p;
            inv[col][k] /= p;
        }
        for row in 0..m {
            if row == col {
                continue;
            }
            let f = a[row][col];
            if f == 0.0 {
                continue;
            }
            for k in 0..m {
                a[row][k] -= f * a[col][k];
                inv[row][k] -= f * inv[col][k];
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    /// Two players, 4 games, the first scoring 3: with the virtual draw,
    /// 3.5 points of 5. At the maximum `E = 3.5 / 5 = 0.7`, so the
    /// difference is `400 log10(0.7 / 0.3) = 147.1907`, each player half
    /// of it from 0: ±73.5954. The information of the difference is
    /// `c^2 5 (0.7)(0.3) = c^2 1.05` with `c = ln 10 / 400 = 0.00575646`;
    /// each centred rating has a quarter of the difference's variance:
    /// `1 / (4 c^2 1.05) = 7185.21`, a standard error of 84.766 and a
    /// half-interval of 1.959964 x 84.766 = 166.14.
    #[test]
    fn two_players_by_hand() {
        let r = ratings(
            2,
            &[Meeting {
                players: [0, 1],
                games: 4.0,
                score: 3.0,
            }],
        );
        let a = r[0].unwrap();
        let b = r[1].unwrap();
        assert!(close(a.elo, 73.5954, 1e-3), "{a:?}");
        assert!(close(b.elo, -73.5954, 1e-3), "{b:?}");
        assert!(close(a.high.unwrap() - a.elo, 166.14, 0.01), "{a:?}");
        assert!(close(a.elo - a.low.unwrap(), 166.14, 0.01), "{a:?}");
    }

    /// A cycle of three, each beating the next 3-1: by symmetry every
    /// rating is 0. A chain a > b > c with no game between a and c:
    /// a-b 3-1 (3.5 of 5 with the prior) and b-c 3-1: b's expected points
    /// against a and against c cancel (`E_ba + E_bc = 1` at `r_a - r_b
    /// = r_b - r_c = 147.1907`), so a +147.19, b 0, c -147.19.
    #[test]
    fn three_players_by_hand() {
        let m = |a, b, games, score| Meeting {
            players: [a, b],
            games,
            score,
        };
        let r = ratings(
            3,
            &[m(0, 1, 4.0, 3.0), m(1, 2, 4.0, 3.0), m(2, 0, 4.0, 3.0)],
        );
        for x in &r {
            assert!(close(x.unwrap().elo, 0.0, 1e-6), "{r:?}");
        }
        let r = ratings(3, &[m(0, 1, 4.0, 3.0), m(1, 2, 4.0, 3.0)]);
        let elo: Vec<f64> = r.iter().map(|x| x.unwrap().elo).collect();
        assert!(close(elo[0], 147.1907, 1e-3), "{elo:?}");
        assert!(close(elo[1], 0.0, 1e-6), "{elo:?}");
        assert!(close(elo[2], -147.1907, 1e-3), "{elo:?}");
        // The middle player is surer (two pairings) than the ends.
        let width = |x: &Option<EloInterval>| x.unwrap().high.unwrap() - x.unwrap().elo;
        assert!(width(&r[1]) < width(&r[0]));
    }

    /// A player who won every game still has a finite rating (the
    /// prior); separate groups and players without games have none.
    #[test]
    fn perfect_scores_separate_groups_and_absent_players() {
        let sweep = ratings(
            2,
            &[Meeting {
                players: [0, 1],
                games: 8.0,
                score: 8.0,
            }],
        );
        // 8.5 of 9: 400 log10(8.5 / 0.5) = 492.18, halved.
        assert!(close(sweep[0].unwrap().elo, 246.09, 0.01), "{sweep:?}");
        let m = |a, b| Meeting {
            players: [a, b],
            games: 2.0,
            score: 1.0,
        };
        assert_eq!(ratings(4, &[m(0, 1), m(2, 3)]), vec![None; 4]);
        let r = ratings(3, &[m(0, 1)]);
        assert!(r[0].is_some() && r[1].is_some() && r[2].is_none());
    }
}
