//! The board model: what a front end draws and how taps become moves, once for every
//! game. [`BoardModel`] keeps the selection, the last move, a hint and which way up the
//! board is; [`BoardModel::view`] gives ready-to-draw [`CellView`]s row by row from the top
//! of the screen; [`BoardModel::tap`] turns a tap on a cell into a selection or a move,
//! asking for the promotion piece when a chess pawn reaches the last rank.
//!
//! ```
//! use banco_app::any::AnyGame;
//! use banco_app::board::{BoardModel, Tap};
//! use banco_game::{Color, GameKind};
//! let game = AnyGame::new(GameKind::Xiangqi)?;
//! let mut board = BoardModel::new(false);
//! // Red's cannon on h2 is in screen column 7, row 7 (row 0 is the top).
//! assert_eq!(board.tap(&game, 7, 7, Some(Color::Red)), Tap::Selected { square: 25 });
//! let view = board.view(&game);
//! assert_eq!(view.cells.len(), 90);
//! assert!(view.cell(4, 7).is_some_and(|c| c.target)); // e2 is a target
//! match board.tap(&game, 4, 7, Some(Color::Red)) {
//!     Tap::Move(mv) => assert_eq!(mv.to_string(), "h2e2"),
//!     other => panic!("{other:?}"),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::any::{AnyGame, AnyMove};
use crate::error::MoveError;
use crate::pieces::{PieceInfo, PieceKind};
use banco_game::{Color, Game, GameKind};

/// What a tap did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tap {
    /// Nothing (an empty square, a tap off the board, or not the player's turn).
    Ignored,
    /// A piece of the player's was selected; its targets are highlighted.
    Selected {
        /// Its square index.
        square: u8,
    },
    /// The selection was cleared.
    Cleared,
    /// The player chose this legal move.
    Move(AnyMove),
    /// A pawn reaches the last rank: ask which piece, then call
    /// [`BoardModel::choose_promotion`].
    ChoosePromotion {
        /// From square index.
        from: u8,
        /// To square index.
        to: u8,
        /// The pieces to offer.
        choices: Vec<PieceKind>,
    },
}

/// One cell of the board as the screen shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellView {
    /// Screen column, 0 at the left.
    pub column: u8,
    /// Screen row, 0 at the top.
    pub row: u8,
    /// The square index (rank × width + file, rank 0 on the first player's side).
    pub square: u8,
    /// The square's name (`e2`).
    pub name: String,
    /// The piece on it.
    pub piece: Option<PieceInfo>,
    /// The selected piece stands here.
    pub selected: bool,
    /// The selected piece may move here.
    pub target: bool,
    /// The last move started or ended here.
    pub last_move: bool,
    /// A hint's move starts or ends here.
    pub hint: bool,
    /// The king in check stands here.
    pub check: bool,
    /// A dark square of a checkered (chess) board.
    pub dark: bool,
}

/// A straight line to draw between the centres of two cells (screen columns and rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardLine {
    /// Column of one end.
    pub from_column: u8,
    /// Row of one end.
    pub from_row: u8,
    /// Column of the other end.
    pub to_column: u8,
    /// Row of the other end.
    pub to_row: u8,
}

/// A promotion waiting for the player's choice (see [`BoardView::promotion`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromotionView {
    /// From square index.
    pub from: u8,
    /// To square index.
    pub to: u8,
    /// The pieces to offer.
    pub choices: Vec<PieceKind>,
}

/// The whole board, ready to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardView {
    /// The game.
    pub kind: GameKind,
    /// Columns on screen.
    pub width: u8,
    /// Rows on screen.
    pub height: u8,
    /// True when the second player's side is at the bottom.
    pub flipped: bool,
    /// Pieces stand on the intersections of [`lines`](Self::lines) (xiangqi); otherwise in
    /// squares, coloured by each cell's `dark` (chess).
    pub on_lines: bool,
    /// The lines of the board between cell centres: for xiangqi every rank, the edge files
    /// whole, the inner files broken by the river, and the palaces' diagonals; none for
    /// chess. The same either way up.
    pub lines: Vec<BoardLine>,
    /// Xiangqi and jieqi: the river runs between this screen row and the next (its words,
    /// 楚河 漢界, are written there); `None` for chess. The same either way up.
    pub river_after_row: Option<u8>,
    /// The promotion picker to show: a tap asked for it ([`Tap::ChoosePromotion`]) and
    /// nothing has answered or dismissed it since (a choice, another tap, a cleared
    /// selection, a move, an undo).
    pub promotion: Option<PromotionView>,
    /// Cells row by row from the top left. A face-down jieqi piece is drawn from its
    /// colour alone ([`PieceInfo::face_down`]).
    pub cells: Vec<CellView>,
    /// Jieqi: both sides' pools, first player first (empty in other games).
    pub pools: Vec<crate::jieqi::PoolView>,
    /// Jieqi: the pools placed beside the board, each next to its own side, kinds all
    /// revealed left out ([`crate::jieqi::PoolSides`]); `None` in other games.
    pub pool_sides: Option<crate::jieqi::PoolSides>,
}

/// The screen row that the river of a board of `kind`, `height` rows high, runs below
/// (see [`BoardView::river_after_row`]); `None` for chess, which has none.
#[must_use]
pub fn river_after_row(kind: GameKind, height: u8) -> Option<u8> {
    (kind != GameKind::Chess).then(|| river_row(height))
}

/// The row a xiangqi board `h` rows high has the river below.
fn river_row(h: u8) -> u8 {
    (h / 2).saturating_sub(1)
}

/// The lines of a xiangqi board of `w × h` cells (see [`BoardView::lines`]).
fn xiangqi_lines(w: u8, h: u8) -> Vec<BoardLine> {
    let line = |from_column, from_row, to_column, to_row| BoardLine {
        from_column,
        from_row,
        to_column,
        to_row,
    };
    let (last_column, last_row) = (w.saturating_sub(1), h.saturating_sub(1));
    let river = river_row(h);
    let mut out: Vec<BoardLine> = (0..h).map(|r| line(0, r, last_column, r)).collect();
    for c in 0..w {
        if c == 0 || c == last_column {
            out.push(line(c, 0, c, last_row));
        } else {
            out.push(line(c, 0, c, river));
            out.push(line(c, river + 1, c, last_row));
        }
    }
    let mid = w / 2;
    for (a, b) in [(0, 2), (h.saturating_sub(3), last_row)] {
        out.push(line(mid.saturating_sub(1), a, mid + 1, b));
        out.push(line(mid + 1, a, mid.saturating_sub(1), b));
    }
    out
}

impl BoardView {
    /// The cell at a screen position.
    #[must_use]
    pub fn cell(&self, column: u8, row: u8) -> Option<&CellView> {
        if column >= self.width || row >= self.height {
            return None;
        }
        self.cells
            .get(usize::from(row) * usize::from(self.width) + usize::from(column))
    }
}

/// Selection, highlights and orientation of a board (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardModel {
    selected: Option<u8>,
    targets: Vec<u8>,
    pending_promotion: Option<(u8, u8)>,
    last_move: Option<(u8, u8)>,
    hint: Option<(u8, u8)>,
    flipped: bool,
}

impl BoardModel {
    /// A board with nothing selected; `flipped` puts the second player at the bottom.
    #[must_use]
    pub fn new(flipped: bool) -> BoardModel {
        BoardModel {
            flipped,
            ..BoardModel::default()
        }
    }

    /// True when the second player's side is at the bottom.
    #[must_use]
    pub fn flipped(&self) -> bool {
        self.flipped
    }

    /// Turns the board around.
    pub fn set_flipped(&mut self, flipped: bool) {
        self.flipped = flipped;
    }

    /// The selected square.
    #[must_use]
    pub fn selected(&self) -> Option<u8> {
        self.selected
    }

    /// Marks the last move (or none); a jieqi reveal marks the step that turned the
    /// piece over.
    pub fn set_last_move(&mut self, game: &AnyGame, mv: Option<AnyMove>) {
        let mv = match mv {
            Some(m) if crate::jieqi::revealed_kind(m).is_some() => {
                game.history().iter().rev().nth(1).copied()
            }
            other => other,
        };
        self.last_move = mv.map(|m| {
            let (f, t, _) = game.move_parts(m);
            (f, t)
        });
    }

    /// Marks a hint (or none).
    pub fn set_hint(&mut self, game: &AnyGame, mv: Option<AnyMove>) {
        self.hint = mv.map(|m| {
            let (f, t, _) = game.move_parts(m);
            (f, t)
        });
    }

    /// Clears the selection (and a pending promotion choice).
    pub fn clear_selection(&mut self) {
        self.selected = None;
        self.targets.clear();
        self.pending_promotion = None;
    }

    /// The square index shown at a screen cell, if on the board.
    #[must_use]
    pub fn square_at(&self, game: &AnyGame, column: u8, row: u8) -> Option<u8> {
        let (w, h) = (game.width(), game.height());
        if column >= w || row >= h {
            return None;
        }
        let (file, rank) = if self.flipped {
            (w - 1 - column, row)
        } else {
            (column, h - 1 - row)
        };
        Some(rank * w + file)
    }

    /// The screen cell `(column, row)` of a square index.
    #[must_use]
    pub fn cell_of(&self, game: &AnyGame, square: u8) -> Option<(u8, u8)> {
        let (w, h) = (game.width(), game.height());
        if square >= w * h {
            return None;
        }
        let (file, rank) = (square % w, square / w);
        Some(if self.flipped {
            (w - 1 - file, rank)
        } else {
            (file, h - 1 - rank)
        })
    }

    /// A tap on a screen cell by the player of `mover` (`None`: not their turn).
    pub fn tap(&mut self, game: &AnyGame, column: u8, row: u8, mover: Option<Color>) -> Tap {
        let Some(square) = self.square_at(game, column, row) else {
            return self.clear_or_ignore();
        };
        self.tap_square(game, square, mover)
    }

    /// A tap on a square index (see [`BoardModel::tap`]).
    pub fn tap_square(&mut self, game: &AnyGame, square: u8, mover: Option<Color>) -> Tap {
        self.pending_promotion = None;
        let Some(mover) = mover else {
            return self.clear_or_ignore();
        };
        if let Some(from) = self.selected
            && self.targets.contains(&square)
        {
            let choices = game.promotion_choices(from, square);
            if !choices.is_empty() {
                self.pending_promotion = Some((from, square));
                return Tap::ChoosePromotion {
                    from,
                    to: square,
                    choices,
                };
            }
            self.clear_selection();
            return match game.move_from_parts(from, square, None) {
                Ok(mv) => Tap::Move(mv),
                Err(_) => Tap::Cleared,
            };
        }
        let own = game.piece_at(square).is_some_and(|p| p.color == mover);
        if own && self.selected != Some(square) {
            self.selected = Some(square);
            self.targets = game.targets_from(square);
            return Tap::Selected { square };
        }
        self.clear_or_ignore()
    }

    /// The player picked the promotion piece asked for by [`Tap::ChoosePromotion`]: the
    /// move ([`Tap::Ignored`] when no promotion is pending, [`Tap::Cleared`] when the
    /// position changed under it).
    ///
    /// # Errors
    /// [`MoveError::NotAChoice`] for a piece the promotion does not offer (a pawn, a
    /// king): nothing changes, the choice stays pending.
    pub fn choose_promotion(&mut self, game: &AnyGame, piece: PieceKind) -> Result<Tap, MoveError> {
        let Some((from, to)) = self.pending_promotion else {
            return Ok(Tap::Ignored);
        };
        let choices = game.promotion_choices(from, to);
        if !choices.is_empty() && !choices.contains(&piece) {
            let names: Vec<&str> = choices.iter().map(|k| k.name()).collect();
            let choices = match names.split_last() {
                Some((last, [])) => (*last).to_owned(),
                Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                None => String::new(),
            };
            return Err(MoveError::NotAChoice {
                piece: piece.name(),
                choices,
            });
        }
        self.pending_promotion = None;
        self.clear_selection();
        Ok(match game.move_from_parts(from, to, Some(piece)) {
            Ok(mv) => Tap::Move(mv),
            Err(_) => Tap::Cleared,
        })
    }

    fn clear_or_ignore(&mut self) -> Tap {
        if self.selected.is_some() {
            self.clear_selection();
            Tap::Cleared
        } else {
            Tap::Ignored
        }
    }

    /// The board of `game` with this model's highlights, ready to draw.
    #[must_use]
    pub fn view(&self, game: &AnyGame) -> BoardView {
        let (w, h) = (game.width(), game.height());
        let check = game.checked_king();
        let chess = game.kind() == banco_game::GameKind::Chess;
        let mut cells = Vec::with_capacity(usize::from(w) * usize::from(h));
        for row in 0..h {
            for column in 0..w {
                let Some(square) = self.square_at(game, column, row) else {
                    continue;
                };
                let on =
                    |pair: Option<(u8, u8)>| pair.is_some_and(|(f, t)| f == square || t == square);
                let (file, rank) = (square % w, square / w);
                cells.push(CellView {
                    column,
                    row,
                    square,
                    name: game.square_name(square),
                    piece: game.piece_at(square),
                    selected: self.selected == Some(square),
                    target: self.selected.is_some() && self.targets.contains(&square),
                    last_move: on(self.last_move),
                    hint: on(self.hint),
                    check: check == Some(square),
                    dark: chess && (file + rank) % 2 == 0,
                });
            }
        }
        let pools = crate::jieqi::pools(game);
        BoardView {
            kind: game.kind(),
            width: w,
            height: h,
            flipped: self.flipped,
            on_lines: !chess,
            lines: if chess {
                Vec::new()
            } else {
                xiangqi_lines(w, h)
            },
            river_after_row: river_after_row(game.kind(), h),
            promotion: self.pending_promotion.and_then(|(from, to)| {
                let choices = game.promotion_choices(from, to);
                (!choices.is_empty()).then_some(PromotionView { from, to, choices })
            }),
            cells,
            pool_sides: crate::jieqi::pool_sides(&pools, self.flipped),
            pools,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use banco_game::Game;

    #[test]
    fn the_promotion_picker_is_part_of_the_view() {
        let game = AnyGame::from_fen(GameKind::Chess, "k7/4P3/8/8/8/8/8/K7 w - - 0 1").unwrap();
        let mut b = BoardModel::new(false);
        let (e7, e8) = (52, 60);
        assert_eq!(
            b.tap_square(&game, e7, Some(Color::Red)),
            Tap::Selected { square: e7 }
        );
        assert_eq!(b.view(&game).promotion, None);
        assert!(matches!(
            b.tap_square(&game, e8, Some(Color::Red)),
            Tap::ChoosePromotion { .. }
        ));
        let ask = b.view(&game).promotion.unwrap();
        assert_eq!((ask.from, ask.to, ask.choices.len()), (e7, e8, 4));
        b.clear_selection();
        assert_eq!(b.view(&game).promotion, None, "dismissed");
        b.tap_square(&game, e7, Some(Color::Red));
        b.tap_square(&game, e8, Some(Color::Red));
        // A piece not offered is refused, and the choice stays asked.
        assert_eq!(
            b.choose_promotion(&game, PieceKind::Pawn),
            Err(MoveError::NotAChoice {
                piece: "pawn",
                choices: "knight, bishop, rook or queen".to_owned()
            })
        );
        assert!(b.choose_promotion(&game, PieceKind::King).is_err());
        assert_eq!(b.view(&game).promotion, Some(ask));
        assert!(matches!(
            b.choose_promotion(&game, PieceKind::Knight),
            Ok(Tap::Move(_))
        ));
        assert_eq!(b.view(&game).promotion, None, "answered");
        assert_eq!(
            b.choose_promotion(&game, PieceKind::Queen),
            Ok(Tap::Ignored)
        );
    }

    #[test]
    fn board_lines() {
        let xiangqi = AnyGame::new(GameKind::Xiangqi).unwrap();
        let up = BoardModel::new(false).view(&xiangqi);
        // 10 ranks, 2 whole edge files, 7 inner files in two halves, 4 palace diagonals.
        assert!(up.on_lines);
        assert_eq!(up.lines.len(), 10 + 2 + 14 + 4);
        let inner = |c: u8| {
            up.lines
                .iter()
                .filter(move |l| l.from_column == c && l.to_column == c)
        };
        assert_eq!(
            inner(4).map(|l| (l.from_row, l.to_row)).collect::<Vec<_>>(),
            [(0, 4), (5, 9)],
            "the river between rows 4 and 5"
        );
        assert_eq!(up.river_after_row, Some(4));
        assert_eq!(
            BoardModel::new(true).view(&xiangqi).river_after_row,
            Some(4)
        );
        assert!(up.lines.contains(&BoardLine {
            from_column: 3,
            from_row: 7,
            to_column: 5,
            to_row: 9
        }));
        assert!(up.lines.contains(&BoardLine {
            from_column: 5,
            from_row: 0,
            to_column: 3,
            to_row: 2
        }));
        assert_eq!(BoardModel::new(true).view(&xiangqi).lines, up.lines);
        let chess = BoardModel::new(false).view(&AnyGame::new(GameKind::Chess).unwrap());
        assert!(!chess.on_lines && chess.lines.is_empty());
        assert_eq!(chess.river_after_row, None);
        assert_eq!(chess.cells.iter().filter(|c| c.dark).count(), 32);
    }

    #[test]
    fn screen_and_squares_agree_both_ways_up() {
        let game = AnyGame::new(GameKind::Xiangqi).unwrap();
        for flipped in [false, true] {
            let b = BoardModel::new(flipped);
            for sq in 0..90 {
                let (c, r) = b.cell_of(&game, sq).unwrap();
                assert_eq!(b.square_at(&game, c, r), Some(sq));
            }
            assert_eq!(b.square_at(&game, 9, 0), None);
        }
        // Not flipped: a0 (square 0) at the bottom left.
        assert_eq!(BoardModel::new(false).cell_of(&game, 0), Some((0, 9)));
        assert_eq!(BoardModel::new(true).cell_of(&game, 0), Some((8, 0)));
    }

    #[test]
    fn taps_select_move_and_clear() {
        let mut game = AnyGame::new(GameKind::Xiangqi).unwrap();
        let mut b = BoardModel::new(false);
        // Not the player's turn: nothing happens.
        assert_eq!(b.tap(&game, 7, 7, None), Tap::Ignored);
        // A black piece cannot be selected by Red.
        assert_eq!(b.tap(&game, 0, 0, Some(Color::Red)), Tap::Ignored);
        assert_eq!(
            b.tap(&game, 7, 7, Some(Color::Red)),
            Tap::Selected { square: 25 }
        );
        // Tapping the selected piece again clears.
        assert_eq!(b.tap(&game, 7, 7, Some(Color::Red)), Tap::Cleared);
        b.tap(&game, 7, 7, Some(Color::Red));
        // Another own piece switches the selection.
        assert_eq!(
            b.tap(&game, 1, 7, Some(Color::Red)),
            Tap::Selected { square: 19 }
        );
        let Tap::Move(mv) = b.tap(&game, 4, 7, Some(Color::Red)) else {
            panic!("expected a move")
        };
        game.play(mv).unwrap();
        b.set_last_move(&game, Some(mv));
        let v = b.view(&game);
        assert!(v.cell(1, 7).unwrap().last_move && v.cell(4, 7).unwrap().last_move);
        assert!(v.cells.iter().all(|c| !c.selected && !c.target));
    }
}
