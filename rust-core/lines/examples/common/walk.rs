//! The ball count as a walk (`data/tuning.md`, tenth session): a turn on `n` balls
//! completes a line with some probability (five balls fewer, nothing lands) and otherwise
//! lands three balls, which may complete a line (net two fewer); the mean turns that walk
//! lasts from five balls to a full board.

use banco_lines::CELLS;
use banco_lines::ai::Turn;
use banco_lines::game::TurnReport;

/// Moves, lines and landing lines by the ball count before the move.
#[derive(Clone)]
pub struct Counts {
    /// Moves played on each ball count.
    pub moves: [u32; CELLS + 1],
    /// Of them, moves that completed a line.
    pub lines: [u32; CELLS + 1],
    /// Of them, moves whose landing completed a line.
    pub landing: [u32; CELLS + 1],
}

impl Default for Counts {
    fn default() -> Counts {
        Counts {
            moves: [0; CELLS + 1],
            lines: [0; CELLS + 1],
            landing: [0; CELLS + 1],
        }
    }
}

impl Counts {
    /// Counts one turn.
    pub fn add(&mut self, turn: &Turn<'_>) {
        self.add_report(turn.before.ball_count(), turn.report);
    }

    /// Counts a turn played on `balls` balls that did `r`.
    pub fn add_report(&mut self, balls: usize, r: &TurnReport) {
        let n = balls.min(CELLS);
        self.moves[n] += 1;
        self.lines[n] += u32::from(!r.cleared.is_empty());
        self.landing[n] += u32::from(!r.cleared_by_landing.is_empty());
    }

    /// Adds another's counts.
    pub fn merge(&mut self, other: &Counts) {
        for (a, b) in [
            (&mut self.moves, &other.moves),
            (&mut self.lines, &other.lines),
            (&mut self.landing, &other.landing),
        ] {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }

    /// The five-ball bands (`lo`, `hi` inclusive, moves, line share, landing-line share),
    /// those with moves.
    pub fn bands(&self) -> Vec<(usize, usize, u32, f64, f64)> {
        (0..CELLS)
            .step_by(5)
            .filter_map(|lo| {
                let hi = (lo + 5).min(CELLS + 1);
                let m: u32 = self.moves[lo..hi].iter().sum();
                let share = |v: &[u32]| f64::from(v[lo..hi].iter().sum::<u32>()) / f64::from(m);
                (m > 0).then(|| (lo, hi - 1, m, share(&self.lines), share(&self.landing)))
            })
            .collect()
    }

    /// Each ball count's line and landing-line shares: its five-ball band's.
    pub fn shares(&self) -> ([f64; CELLS + 1], [f64; CELLS + 1]) {
        let mut line = [0.0; CELLS + 1];
        let mut landing = [0.0; CELLS + 1];
        for (lo, hi, _, l, g) in self.bands() {
            line[lo..=hi].fill(l);
            landing[lo..=hi].fill(g);
        }
        (line, landing)
    }

    /// The turns of the walk these shares make ([`walk_turns`]).
    pub fn walk(&self) -> f64 {
        let (line, landing) = self.shares();
        walk_turns(&line, &landing)
    }
}

/// The mean number of turns from five balls until the board is full, of the walk where a
/// turn on `n` balls completes a line with probability `line[n]` (five balls fewer, nothing
/// lands) and otherwise lands three balls, which complete a line with probability
/// `landing[n]` (net two fewer). Solved exactly: one linear equation per ball count.
pub fn walk_turns(line: &[f64; CELLS + 1], landing: &[f64; CELLS + 1]) -> f64 {
    const N: usize = CELLS + 1;
    // a · turns = b, turns[CELLS] = 0 (full).
    let mut a = vec![[0.0f64; N]; N];
    let mut b = [0.0f64; N];
    for n in 0..N {
        a[n][n] = 1.0;
        if n == CELLS {
            continue;
        }
        let (p, l) = (line[n], landing[n]);
        b[n] = 1.0;
        a[n][n.saturating_sub(5)] -= p;
        a[n][(n + 3).saturating_sub(5)] -= (1.0 - p) * l;
        a[n][(n + 3).min(CELLS)] -= (1.0 - p) * (1.0 - l);
    }
    // Gaussian elimination with partial pivoting.
    for col in 0..N {
        let pivot = (col..N)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col];
        for row in col + 1..N {
            let f = a[row][col] / pivot_row[col];
            if f != 0.0 {
                for (x, p) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= f * p;
                }
                b[row] -= f * b[col];
            }
        }
    }
    let mut x = [0.0f64; N];
    for row in (0..N).rev() {
        let tail: f64 = (row + 1..N).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - tail) / a[row][row];
    }
    x[5]
}
