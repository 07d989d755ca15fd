//! Property tests of the decoders that read what a player or another program wrote, other
//! than the save format (`save_props`): the readable `.txt` record, the Lines position
//! string, the identity file and the Lines best scores. Any text or bytes are refused with
//! an error or read — never a panic; what is written reads back the same; a refused input
//! changes nothing.
#![allow(clippy::unwrap_used)]

use banco_app::lines::LinesSession;
use banco_app::network::Trust;
use banco_app::render::lines::LinesPicture;
use banco_app::text;
use banco_lines::{Settings, UndoRule};
use banco_protocol::{Identity, KnownPeers};
use proptest::prelude::*;

use crate::save_props::{kind, saved};

/// A string with the characters records are made of, and some others.
fn texty() -> impl Strategy<Value = String> {
    "[\\[\\]\" \n0-9a-zA-Z./+=-]{0,200}|\\PC{0,60}"
}

proptest! {
    #![proptest_config(banco_game::testing::proptest_config(Some(96), 0x7E47))]

    /// A game's `.txt` record reads back with the same moves; any damage to it is refused
    /// or read, never a panic.
    #[test]
    fn text_records_round_trip_and_damage_never_panics(
        kind in kind(),
        picks in proptest::collection::vec(any::<u16>(), 0..40),
        redo in 0usize..3,
        at in any::<usize>(),
        junk in texty(),
    ) {
        let s = saved(kind, &picks, redo, &[]);
        let written = text::export(&s).unwrap();
        let back = text::import(&written).unwrap();
        prop_assert_eq!(&back.moves, &s.moves);
        prop_assert_eq!(&back.redo, &s.redo);
        // Damage: junk put in at a character boundary, or the text cut there.
        let cut = written
            .char_indices()
            .map(|(i, _)| i)
            .nth(at % written.chars().count().max(1))
            .unwrap_or(0);
        let _ = text::import(&format!("{}{junk}{}", &written[..cut], &written[cut..]));
        let _ = text::import(&written[..cut]);
        let _ = text::import(&junk);
    }

    /// A Lines position string is read or refused; one that is read is written back as
    /// it reads.
    #[test]
    fn lines_position_strings_never_panic_and_round_trip(
        text in "[1-9RGBYPCO/ ]{0,120}|\\PC{0,40}",
    ) {
        if let Ok(p) = LinesPicture::parse(&text) {
            let again = LinesPicture::parse(&p.position_string()).unwrap();
            prop_assert_eq!(again, p);
        }
    }

    /// The identity file: written trust reads back; damaged or random bytes are refused or
    /// read, never a panic.
    #[test]
    fn identity_files_round_trip_and_damage_never_panics(
        secret in any::<[u8; 32]>(),
        names in proptest::collection::vec(("[a-zA-Z 漢]{1,12}", any::<[u8; 32]>()), 0..4),
        at in any::<usize>(),
        xor in 1u8..,
        random in proptest::collection::vec(any::<u8>(), 0..120),
    ) {
        let mut known = KnownPeers::new();
        for (name, key) in &names {
            known.insert(name, Identity::from_secret(*key).public());
        }
        let trust = Trust::new(Identity::from_secret(secret), known);
        let bytes = trust.export();
        let back = Trust::import(&bytes).unwrap();
        prop_assert_eq!(back.export(), bytes.clone());
        let mut damaged = bytes.clone();
        let i = at % damaged.len();
        damaged[i] ^= xor;
        let _ = Trust::import(&damaged);
        let _ = Trust::import(&bytes[..at % bytes.len()]);
        let _ = Trust::import(&random);
    }

    /// Best scores that cannot be read change nothing; any bytes are refused or read.
    #[test]
    fn best_scores_that_cannot_be_read_change_nothing(
        random in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        let mut session = LinesSession::new(Settings::new(5, UndoRule::LastTurn).unwrap(), [7; 32]);
        let before = session.best_scores_bytes().unwrap();
        if session.load_best_scores(&random).is_err() {
            prop_assert_eq!(session.best_scores_bytes().unwrap(), before);
        }
    }
}
