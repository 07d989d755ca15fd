//! What a written record (PGN, the readable text export) carries beyond its moves, in
//! tags every format shares: the ending the moves do not show (`Result`, with the PGN
//! standard's `Termination` word and Banco's precise reason in `Reason`: a resignation, a
//! time loss, an agreed draw), the player against the computer (`Human` and `Level`, with
//! the roster naming the player against `Banco level N`: [`vs_computer_tags`]) and the
//! rules (`Rules`). Writing and reading them in one place keeps a saved game whole through
//! every format.
//!
//! `Termination` is written in the standard's words (`normal`, `time forfeit`, `rules
//! infraction`) so that other programs read it; an imported record's own `Termination` is
//! kept among its free tags and written back as it was. A decisive result whose reason
//! nobody recorded (`Normal`, or no `Termination`, on a game whose moves show no mate) is
//! read as [`WinReason::Unknown`], not as a resignation.
//!
//! ```
//! use banco_app::tags;
//! use banco_game::{Color, DrawReason, Outcome, WinReason};
//!
//! let resigned = Outcome::Win { winner: Color::Black, reason: WinReason::Resignation };
//! let written = tags::ending_tags(resigned, &[]);
//! assert_eq!(written[1], ("Termination".to_owned(), "normal".to_owned()));
//! assert_eq!(written[2], ("Reason".to_owned(), "resignation".to_owned()));
//! assert_eq!(tags::ending_from_tags(&written), Some(resigned));
//! // Other programs' words: a time forfeit, a result without a reason, a draw.
//! let t = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
//!     pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
//! };
//! let lichess = t(&[("Result", "1-0"), ("Termination", "Time forfeit")]);
//! assert_eq!(
//!     tags::ending_from_tags(&lichess),
//!     Some(Outcome::Win { winner: Color::Red, reason: WinReason::Timeout })
//! );
//! // Written back, the record's own `Termination` is kept (no second one).
//! let timeout = Outcome::Win { winner: Color::Red, reason: WinReason::Timeout };
//! assert_eq!(tags::ending_tags(timeout, &lichess).len(), 2);
//! let normal = t(&[("Result", "1-0"), ("Termination", "Normal")]);
//! assert_eq!(
//!     tags::ending_from_tags(&normal),
//!     Some(Outcome::Win { winner: Color::Red, reason: WinReason::Unknown })
//! );
//! let drawn = t(&[("Result", "1/2-1/2")]);
//! assert_eq!(tags::ending_from_tags(&drawn), Some(Outcome::Draw { reason: DrawReason::Agreement }));
//! ```

use crate::any::AnyRules;
use crate::save::Player;
use banco_game::{Color, DrawReason, GameKind, Outcome, WinReason};

/// The names of the tags this module reads and writes from a saved game's fields (a reader
/// keeps them out of a record's free tags). `Termination` is not one: a record's own is
/// kept as a free tag and written back unchanged ([`ending_tags`]).
pub const NAMES: [&str; 5] = ["Result", "Reason", "Human", "Level", "Rules"];

/// The tag naming the player of `color` in a record of `kind`: the colour's name
/// (`White` and `Black` in chess, `Red` and `Black` in xiangqi and jieqi), as PGN and
/// xqbase records name the players.
#[must_use]
pub fn side_tag(kind: GameKind, color: Color) -> &'static str {
    crate::any::color_name(kind, color)
}

/// The tags naming the players of a record of `kind`: `first` (who moves first) and
/// `second`, each under its side's tag ([`side_tag`]); none for Lines, which has no PGN
/// record.
///
/// ```
/// use banco_app::tags::player_tags;
/// use banco_game::GameKind;
/// let t = player_tags(GameKind::Chess, "An", "Banco (level 3)");
/// assert_eq!(t[0], ("White".to_owned(), "An".to_owned()));
/// assert_eq!(player_tags(GameKind::Jieqi, "An", "Binh")[0].0, "Red");
/// assert!(player_tags(GameKind::Lines, "An", "Binh").is_empty());
/// ```
#[must_use]
pub fn player_tags(kind: GameKind, first: &str, second: &str) -> Vec<(String, String)> {
    if kind == GameKind::Lines {
        return Vec::new();
    }
    Color::ALL
        .into_iter()
        .zip([first, second])
        .map(|(side, name)| (side_tag(kind, side).to_owned(), name.to_owned()))
        .collect()
}

/// The tags a shared record opens with: `Event`, `Date` (PGN's `YYYY.MM.DD`, from the ISO
/// date `date`, `2026-12-05`; `????.??.??`, PGN's unknown date, when `date` is not one) and
/// both players named on their sides ([`player_tags`]) — `me` playing `my_name`, the other
/// side `other_name`. One rule for every front end's record of a game against the computer
/// or a match, whoever moved first.
///
/// ```
/// use banco_app::tags::record_tags;
/// use banco_game::{Color, GameKind};
/// let t = record_tags(GameKind::Chess, "Banco match", "2026-12-05", Color::Black, "An", "Binh");
/// let v = |name: &str| t.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
/// assert_eq!(v("Event"), Some("Banco match"));
/// assert_eq!(v("Date"), Some("2026.12.05"));
/// assert_eq!((v("White"), v("Black")), (Some("Binh"), Some("An")));
/// ```
#[must_use]
pub fn record_tags(
    kind: GameKind,
    event: &str,
    date: &str,
    me: Color,
    my_name: &str,
    other_name: &str,
) -> Vec<(String, String)> {
    let mut tags = dated_tags(event, date);
    tags.extend(sides_tags(kind, me, my_name, other_name));
    tags
}

/// The `Event` and `Date` tags of [`record_tags`], for a record whose players are named
/// otherwise (a game against the computer, whose save names its sides itself).
///
/// ```
/// use banco_app::tags::dated_tags;
/// let t = dated_tags("Banco game", "2026-12-06");
/// assert_eq!(t[1], ("Date".to_owned(), "2026.12.06".to_owned()));
/// ```
#[must_use]
pub fn dated_tags(event: &str, date: &str) -> Vec<(String, String)> {
    vec![
        ("Event".to_owned(), event.to_owned()),
        ("Date".to_owned(), pgn_date(date)),
    ]
}

/// The players' tags ([`player_tags`]) of a game where `me`, named `my_name`, played
/// against `other_name`, whoever moved first.
///
/// ```
/// use banco_app::tags::sides_tags;
/// use banco_game::{Color, GameKind};
/// let t = sides_tags(GameKind::Xiangqi, Color::Black, "An", "Binh");
/// assert_eq!(t[0], ("Red".to_owned(), "Binh".to_owned()));
/// ```
#[must_use]
pub fn sides_tags(
    kind: GameKind,
    me: Color,
    my_name: &str,
    other_name: &str,
) -> Vec<(String, String)> {
    if me == Color::Red {
        player_tags(kind, my_name, other_name)
    } else {
        player_tags(kind, other_name, my_name)
    }
}

/// The `Event` of a record of a game against the computer, whichever front end wrote it.
pub const VS_COMPUTER_EVENT: &str = "Banco game";

/// The name a record gives the player against the computer when it knows no other (the
/// command line's, or a player who chose no name).
pub const PLAYER_NAME: &str = "Player";

/// The name the computer plays under in a record: `Banco level N` ([`player_from_tags`]
/// reads it back, and the `Banco (level N)` the phones wrote before).
///
/// ```
/// assert_eq!(banco_app::tags::computer_name(3), "Banco level 3");
/// ```
#[must_use]
pub fn computer_name(level: u8) -> String {
    format!("Banco level {level}")
}

/// The level of the computer a record's player tag names ([`computer_name`], or the older
/// `Banco (level N)`), if it names the computer at a level 1–10.
fn computer_level(name: &str) -> Option<u8> {
    let name = name.trim();
    let number = name
        .strip_prefix("Banco level ")
        .or_else(|| name.strip_prefix("Banco (level ")?.strip_suffix(')'))?;
    number.parse::<u8>().ok().filter(|l| (1..=10).contains(l))
}

/// The tags of a record of a game against the computer: `Event` ([`VS_COMPUTER_EVENT`]),
/// `Date` (as [`dated_tags`] writes it), the player named `player_name` ([`PLAYER_NAME`]
/// when it is blank) on the side `human` and the computer ([`computer_name`]) on the other,
/// and `Human` and `Level`, which say who played the computer and at which level to any
/// reader that does not take the names apart ([`player_roster`]). Every front end's record
/// of such a game (a PGN shared from a phone, the command line's export) is written by
/// this one rule, so that it reads back ([`player_from_tags`]) with its side and level.
///
/// ```
/// use banco_app::save::Player;
/// use banco_app::tags::{player_from_tags, vs_computer_tags};
/// use banco_game::{Color, GameKind};
/// let t = vs_computer_tags(GameKind::Chess, "2026-12-06", Color::Black, "An", 3);
/// let v = |name: &str| t.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
/// assert_eq!((v("Event"), v("Date")), (Some("Banco game"), Some("2026.12.06")));
/// assert_eq!((v("White"), v("Black")), (Some("Banco level 3"), Some("An")));
/// assert_eq!((v("Human"), v("Level")), (Some("Black"), Some("3")));
/// assert_eq!(player_from_tags(&t), Some(Player { color: 1, level: 3 }));
/// ```
#[must_use]
pub fn vs_computer_tags(
    kind: GameKind,
    date: &str,
    human: Color,
    player_name: &str,
    level: u8,
) -> Vec<(String, String)> {
    let mut tags = dated_tags(VS_COMPUTER_EVENT, date);
    let color = u8::from(human == Color::Black);
    tags.extend(player_roster(kind, Player { color, level }, player_name));
    tags
}

/// The players' tags of a game against the computer (`player` named `name`, or
/// [`PLAYER_NAME`] when `name` is blank, `?` or the computer's: [`computer_name`] on the
/// other side), then `Human` (the player's colour, `Red`, `White` or `Black`) and `Level`.
/// None for Lines, which has no PGN record.
#[must_use]
pub fn player_roster(kind: GameKind, player: Player, name: &str) -> Vec<(String, String)> {
    if kind == GameKind::Lines {
        return Vec::new();
    }
    let name = name.trim();
    let name = if name.is_empty() || name == "?" || computer_level(name).is_some() {
        PLAYER_NAME
    } else {
        name
    };
    let mut tags = sides_tags(kind, player.color(), name, &computer_name(player.level));
    tags.extend(player_level_tags(kind, player));
    tags
}

/// `Human` (the player's colour as `kind` names it: `Red`, `White`, `Black`) and `Level`:
/// the player against the computer, as every record format writes it.
#[must_use]
pub fn player_level_tags(kind: GameKind, player: Player) -> [(String, String); 2] {
    [
        (
            "Human".to_owned(),
            crate::any::color_name(kind, player.color()).to_owned(),
        ),
        ("Level".to_owned(), player.level.to_string()),
    ]
}

/// The file name a shared record of `kind` goes by: the game and the ISO day `date` (the
/// player's local day), `banco-xiangqi-2026-12-02.pgn`; `banco-xiangqi.pgn` when `date` is
/// not an ISO day.
///
/// ```
/// use banco_game::GameKind;
/// let name = banco_app::tags::record_file_name(GameKind::Chess, "2026-12-02");
/// assert_eq!(name, "banco-chess-2026-12-02.pgn");
/// assert_eq!(banco_app::tags::record_file_name(GameKind::Xiangqi, "../x"), "banco-xiangqi.pgn");
/// ```
#[must_use]
pub fn record_file_name(kind: GameKind, date: &str) -> String {
    if pgn_date(date).starts_with('?') {
        format!("banco-{}.pgn", kind.name())
    } else {
        format!("banco-{}-{}.pgn", kind.name(), date.trim())
    }
}

/// PGN's date (`2026.12.05`) of an ISO date (`2026-12-05`); `????.??.??` for anything else.
fn pgn_date(iso: &str) -> String {
    let parts: Vec<&str> = iso.trim().split('-').collect();
    let valid = matches!(parts.as_slice(), [y, m, d]
        if y.len() == 4 && m.len() == 2 && d.len() == 2
            && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()))
            && (1..=12).contains(&m.parse::<u8>().unwrap_or(0))
            && (1..=31).contains(&d.parse::<u8>().unwrap_or(0)));
    if valid {
        parts.join(".")
    } else {
        "????.??.??".to_owned()
    }
}

/// True when `tags` are a record's own roster, not that of Banco's game against the
/// computer: its `Event` is not [`VS_COMPUTER_EVENT`], a side's tag (`White`, `Red`,
/// `Black`) names a player, and neither side is the computer ([`computer_name`]). Such a
/// record — a database game, a match between two people — keeps its event, date and
/// players when it is played on against the computer and saved again; a record of Banco's
/// own roster is written with the roster of the game now.
///
/// ```
/// use banco_app::tags::has_own_roster;
/// let t = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
///     pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
/// };
/// assert!(has_own_roster(&t(&[("Event", "Rated Blitz game"), ("White", "alice"), ("Black", "bob")])));
/// assert!(!has_own_roster(&t(&[("Event", "?"), ("White", "An"), ("Black", "Banco level 3")])));
/// assert!(!has_own_roster(&t(&[("Event", "Banco game"), ("White", "An"), ("Black", "Binh")])));
/// assert!(!has_own_roster(&t(&[("Event", "casual"), ("White", "?"), ("Black", "")])));
/// ```
#[must_use]
pub fn has_own_roster(tags: &[(String, String)]) -> bool {
    if tag(tags, "Event") == Some(VS_COMPUTER_EVENT) {
        return false;
    }
    let sides: Vec<&str> = ["White", "Red", "Black"]
        .into_iter()
        .filter_map(|side| tag(tags, side))
        .collect();
    sides.iter().any(|name| !name.is_empty() && *name != "?")
        && sides.iter().all(|name| computer_level(name).is_none())
}

/// True if `name` is one of [`NAMES`] (case-insensitive).
#[must_use]
pub fn is_own(name: &str) -> bool {
    NAMES.iter().any(|n| n.eq_ignore_ascii_case(name))
}

fn tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.trim())
}

/// The PGN standard's `Termination` word for `ending`: `time forfeit` for a loss on time,
/// `rules infraction` for a networked match's forfeit, `normal` for every other end the
/// rules or the players made (a mate, a judged repetition, a resignation, a draw); `None`
/// when the reason is unknown.
#[must_use]
pub fn termination_word(ending: Outcome) -> Option<&'static str> {
    match ending {
        Outcome::Win {
            reason: WinReason::Timeout,
            ..
        } => Some("time forfeit"),
        Outcome::Win {
            reason: WinReason::Forfeit,
            ..
        } => Some("rules infraction"),
        Outcome::Win {
            reason: WinReason::Unknown,
            ..
        } => None,
        Outcome::Win { .. } | Outcome::Draw { .. } => Some("normal"),
    }
}

/// The tags of an ending the moves do not show, for a record whose free tags are `free`:
/// `Result`; `Termination` in the standard's words ([`termination_word`]) unless `free`
/// has one already (an imported record's, written back as it was); and Banco's precise
/// reason in `Reason` (none when it is unknown).
#[must_use]
pub fn ending_tags(ending: Outcome, free: &[(String, String)]) -> Vec<(String, String)> {
    let mut out = vec![("Result".to_owned(), ending.score_text().to_owned())];
    if tag(free, "Termination").is_none()
        && let Some(word) = termination_word(ending)
    {
        out.push(("Termination".to_owned(), word.to_owned()));
    }
    if !matches!(
        ending,
        Outcome::Win {
            reason: WinReason::Unknown,
            ..
        }
    ) {
        out.push(("Reason".to_owned(), ending.reason_text()));
    }
    out
}

/// The ending that `Result` describes, with its reason: `None` for `*` or no result. The
/// reason is Banco's `Reason`, else a `Termination` in Banco's words (records written
/// before `Reason`), else other programs' `Termination` (`Time forfeit`, `Rules
/// infraction`, `Abandoned`); a decisive result with none of these (`Normal`, no tag) has
/// an unknown reason ([`WinReason::Unknown`]). A draw without a known reason is agreed.
#[must_use]
pub fn ending_from_tags(tags: &[(String, String)]) -> Option<Outcome> {
    let why = tag(tags, "Termination").unwrap_or("").to_ascii_lowercase();
    let own = tag(tags, "Reason").unwrap_or("");
    let winner = match tag(tags, "Result")? {
        "1-0" => Color::Red,
        "0-1" => Color::Black,
        "1/2-1/2" | "½-½" => {
            let reason = DrawReason::from_text(own)
                .or_else(|| DrawReason::from_text(&why))
                .unwrap_or(DrawReason::Agreement);
            return Some(Outcome::Draw { reason });
        }
        _ => return None,
    };
    let reason = WinReason::from_text(own)
        .or_else(|| WinReason::from_text(&why))
        .unwrap_or(match why.as_str() {
            "time forfeit" | "time" => WinReason::Timeout,
            "rules infraction" | "abandoned" => WinReason::Forfeit,
            _ => WinReason::Unknown,
        });
    Some(Outcome::Win { winner, reason })
}

/// The player against the computer: `Human` (a colour) and `Level` (1–10), else the
/// roster: the computer named on one side ([`computer_name`], or the `Banco (level N)` the
/// phones wrote before `Human` and `Level`), anyone else on the other.
#[must_use]
pub fn player_from_tags(tags: &[(String, String)]) -> Option<Player> {
    let level_of = |v: &str| v.parse::<u8>().ok().filter(|l| (1..=10).contains(l));
    if let (Some(human), Some(level)) = (tag(tags, "Human"), tag(tags, "Level").and_then(level_of))
    {
        let color = match human.to_ascii_lowercase().as_str() {
            "red" | "white" => 0,
            "black" => 1,
            _ => return None,
        };
        return Some(Player { color, level });
    }
    let first = tag(tags, "Red").or_else(|| tag(tags, "White"))?;
    let second = tag(tags, "Black")?;
    match (computer_level(first), computer_level(second)) {
        (None, Some(level)) => Some(Player { color: 0, level }),
        (Some(level), None) => Some(Player { color: 1, level }),
        _ => None,
    }
}

/// The rules a record names (`Rules`: [`banco_xiangqi::RuleSet::text`] for xiangqi and
/// jieqi, `auto-claim` for chess), else the game's usual ones.
///
/// # Errors
/// A xiangqi or jieqi `Rules` tag that names no rule set, in words a user can act on.
pub fn rules_from_tags(kind: GameKind, tags: &[(String, String)]) -> Result<AnyRules, String> {
    let Some(text) = tag(tags, "Rules") else {
        return Ok(AnyRules::usual(kind));
    };
    let xiangqi = || {
        banco_xiangqi::RuleSet::parse_text(text)
            .ok_or_else(|| format!("unknown rules `{text}`: say asian or casual"))
    };
    match kind {
        GameKind::Xiangqi => xiangqi().map(AnyRules::Xiangqi),
        GameKind::Jieqi => xiangqi().map(AnyRules::Jieqi),
        // Chess has one rule set; a `Rules` tag of another program's means nothing here.
        GameKind::Chess if text.eq_ignore_ascii_case("auto-claim") => {
            Ok(AnyRules::Chess(banco_chess::ChessRules::AUTO_CLAIM))
        }
        GameKind::Chess | GameKind::Lines => Ok(AnyRules::usual(kind)),
    }
}

/// The `Rules` tag of `rules`: xiangqi's and jieqi's always; chess's only when draws are
/// claimed automatically (`auto-claim`: the standard rules go without saying, as other
/// programs read chess records).
#[must_use]
pub fn rules_tag(rules: AnyRules) -> Option<(String, String)> {
    let text = match rules {
        AnyRules::Xiangqi(r) | AnyRules::Jieqi(r) => r.text(),
        AnyRules::Chess(r) if r.auto_claim => "auto-claim".to_owned(),
        AnyRules::Chess(_) => return None,
    };
    Some(("Rules".to_owned(), text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn a_record_names_the_players_on_their_sides_whoever_is_first() {
        let red = record_tags(
            GameKind::Xiangqi,
            "Banco game",
            "2026-01-31",
            Color::Red,
            "An",
            "Banco (level 3)",
        );
        assert_eq!(
            red,
            t(&[
                ("Event", "Banco game"),
                ("Date", "2026.01.31"),
                ("Red", "An"),
                ("Black", "Banco (level 3)"),
            ])
        );
        let black = record_tags(
            GameKind::Chess,
            "Banco match",
            "2026-12-05",
            Color::Black,
            "An",
            "Binh",
        );
        assert_eq!(&black[2..], &t(&[("White", "Binh"), ("Black", "An")])[..]);
        // Lines has no PGN record: no players' tags.
        assert_eq!(
            record_tags(GameKind::Lines, "E", "2026-12-05", Color::Red, "An", "Binh").len(),
            2
        );
        for bad in [
            "",
            "2026-12",
            "2026-13-01",
            "2026-12-00",
            "26-12-05",
            "2026/12/05",
            "２０２６-12-05",
        ] {
            assert_eq!(pgn_date(bad), "????.??.??", "{bad}");
        }
    }

    #[test]
    fn every_ending_reads_back() {
        let mut endings = vec![
            Outcome::Draw {
                reason: DrawReason::NoCapture(120),
            },
            Outcome::Draw {
                reason: DrawReason::Agreement,
            },
            Outcome::Draw {
                reason: DrawReason::ThreefoldRepetition,
            },
            Outcome::Draw {
                reason: DrawReason::Repetition,
            },
        ];
        for winner in [Color::Red, Color::Black] {
            for reason in WinReason::ALL {
                endings.push(Outcome::Win { winner, reason });
            }
        }
        for o in endings {
            assert_eq!(ending_from_tags(&ending_tags(o, &[])), Some(o), "{o:?}");
        }
        assert_eq!(ending_from_tags(&t(&[("Result", "*")])), None);
        assert_eq!(ending_from_tags(&t(&[])), None);
        // A result nobody gave a reason for is not a resignation.
        let unknown = Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Unknown,
        });
        assert_eq!(
            ending_from_tags(&t(&[("Result", "0-1"), ("Termination", "Normal")])),
            unknown
        );
        assert_eq!(ending_from_tags(&t(&[("Result", "0-1")])), unknown);
    }

    #[test]
    fn termination_is_the_standards_word_or_the_records_own() {
        let win = |reason| Outcome::Win {
            winner: Color::Red,
            reason,
        };
        for (o, word) in [
            (win(WinReason::Resignation), Some("normal")),
            (win(WinReason::Checkmate), Some("normal")),
            (win(WinReason::PerpetualChase), Some("normal")),
            (win(WinReason::Timeout), Some("time forfeit")),
            (win(WinReason::Forfeit), Some("rules infraction")),
            (win(WinReason::Unknown), None),
            (
                Outcome::Draw {
                    reason: DrawReason::Agreement,
                },
                Some("normal"),
            ),
        ] {
            assert_eq!(termination_word(o), word, "{o:?}");
            let written = ending_tags(o, &[]);
            assert_eq!(tag(&written, "Termination"), word);
        }
        // Records written before `Reason`: Banco's words in `Termination`.
        assert_eq!(
            ending_from_tags(&t(&[("Result", "1-0"), ("Termination", "resignation")])),
            Some(win(WinReason::Resignation))
        );
        // Other programs' words are read, and kept: no second `Termination` is written.
        for (theirs, reason) in [
            ("Time forfeit", WinReason::Timeout),
            ("Abandoned", WinReason::Forfeit),
            ("Rules infraction", WinReason::Forfeit),
            ("Normal", WinReason::Unknown),
            ("adjudication", WinReason::Unknown),
        ] {
            let record = t(&[("Result", "1-0"), ("Termination", theirs)]);
            let o = ending_from_tags(&record).unwrap();
            assert_eq!(o, win(reason), "{theirs}");
            let free = t(&[("Termination", theirs)]);
            let written = ending_tags(o, &free);
            assert!(
                written.iter().all(|(k, _)| k != "Termination"),
                "{written:?}"
            );
            let mut back = free.clone();
            back.extend(written);
            assert_eq!(ending_from_tags(&back), Some(o), "{theirs}");
        }
    }

    #[test]
    fn the_player_from_either_form() {
        let p = |color, level| Some(Player { color, level });
        assert_eq!(
            player_from_tags(&t(&[("Human", "black"), ("Level", "3")])),
            p(1, 3)
        );
        assert_eq!(
            player_from_tags(&t(&[("Red", "Banco level 3"), ("Black", "Player")])),
            p(1, 3)
        );
        assert_eq!(
            player_from_tags(&t(&[("White", "Player"), ("Black", "Banco level 10")])),
            p(0, 10)
        );
        assert_eq!(
            player_from_tags(&t(&[("Red", "Xu Yinchuan"), ("Black", "Lü Qin")])),
            None
        );
        // The phones' roster before `Human` and `Level`: the player's own name against
        // `Banco (level N)`.
        assert_eq!(
            player_from_tags(&t(&[("White", "An"), ("Black", "Banco (level 3)")])),
            p(0, 3)
        );
        assert_eq!(
            player_from_tags(&t(&[("Red", "Banco (level 7)"), ("Black", "An")])),
            p(1, 7)
        );
        // Two computers, or a level Banco has not: nobody played the computer.
        assert_eq!(
            player_from_tags(&t(&[("Red", "Banco level 2"), ("Black", "Banco level 5")])),
            None
        );
        assert_eq!(
            player_from_tags(&t(&[("Red", "An"), ("Black", "Banco (level 12)")])),
            None
        );
        assert_eq!(
            player_from_tags(&t(&[("Human", "black"), ("Level", "11")])),
            None
        );
    }

    #[test]
    fn a_game_against_the_computer_reads_back_with_its_side_and_level() {
        for kind in [GameKind::Xiangqi, GameKind::Jieqi, GameKind::Chess] {
            for human in Color::ALL {
                for level in [1, 3, 10] {
                    let written = vs_computer_tags(kind, "2026-12-06", human, "An", level);
                    let color = u8::from(human == Color::Black);
                    let me = Some(Player { color, level });
                    assert_eq!(player_from_tags(&written), me, "{kind:?} {human:?} {level}");
                    // The roster alone (a reader that drops `Human` and `Level`) says it too.
                    let roster: Vec<_> = written
                        .iter()
                        .filter(|(k, _)| !is_own(k))
                        .cloned()
                        .collect();
                    assert_eq!(player_from_tags(&roster), me, "{roster:?}");
                    assert_eq!(tag(&written, side_tag(kind, human)), Some("An"));
                }
            }
        }
        // No name (or the computer's): the player is `Player`.
        let blank = vs_computer_tags(GameKind::Chess, "", Color::Red, " ", 2);
        assert_eq!(tag(&blank, "White"), Some(PLAYER_NAME));
        assert_eq!(tag(&blank, "Date"), Some("????.??.??"));
        let named = player_roster(
            GameKind::Chess,
            Player { color: 0, level: 2 },
            "Banco level 5",
        );
        assert_eq!(tag(&named, "White"), Some(PLAYER_NAME));
        assert!(player_roster(GameKind::Lines, Player { color: 0, level: 2 }, "An").is_empty());
    }

    #[test]
    fn rules_by_name() {
        let mut casual = banco_xiangqi::RuleSet::casual();
        casual.no_capture_plies = 100;
        let tags = [rules_tag(AnyRules::Xiangqi(casual)).unwrap()];
        assert_eq!(
            rules_from_tags(GameKind::Xiangqi, &tags),
            Ok(AnyRules::Xiangqi(casual))
        );
        assert!(
            rules_from_tags(GameKind::Xiangqi, &t(&[("Rules", "chinese")]))
                .unwrap_err()
                .contains("unknown rules `chinese`")
        );
        assert_eq!(
            rules_from_tags(GameKind::Chess, &t(&[("Rules", "whatever")])),
            Ok(AnyRules::usual(GameKind::Chess))
        );
        assert_eq!(rules_tag(AnyRules::usual(GameKind::Chess)), None);
        // Jieqi's rules are xiangqi's; chess names its automatic claims.
        let jieqi = AnyRules::Jieqi(casual);
        assert_eq!(
            rules_from_tags(GameKind::Jieqi, &[rules_tag(jieqi).unwrap()]),
            Ok(jieqi)
        );
        let auto = AnyRules::Chess(banco_chess::ChessRules::AUTO_CLAIM);
        assert_eq!(
            rules_from_tags(GameKind::Chess, &[rules_tag(auto).unwrap()]),
            Ok(auto)
        );
        assert_eq!(
            rules_from_tags(GameKind::Chess, &t(&[("Rules", "Standard")])),
            Ok(AnyRules::usual(GameKind::Chess))
        );
    }
}
