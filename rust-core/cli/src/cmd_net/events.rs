//! The match table's events: what `banco host` / `banco join` print as the match goes
//! (the code to compare, the proposal, moves, reveals, the clocks, the result line) and the
//! questions they ask.

use super::{Input, Question, Table, report, shown, verify_text};
use crate::CliError;
use crate::cmd_play::print_move;
use crate::ui::board;
use banco_app::any::color_name;
use banco_app::network::{ClockFaces, NetError, NetEvent};
use std::io::Write;
use std::sync::mpsc::Sender;
use std::time::Instant;

use super::FINISH_GRACE;

impl Table {
    pub(super) fn on_event(
        &mut self,
        event: NetEvent,
        tx: &Sender<Input>,
    ) -> Option<Result<(), CliError>> {
        if self.over {
            // After the result line nothing more is printed (it stays the last line); the
            // table only waits for the link's end or for the peer's acknowledgement.
            return match event {
                // Our last message (the final move, a resignation) not acknowledged yet: the
                // link may come back and carry it; the wait in `run` decides when to leave.
                NetEvent::Disconnected { .. } | NetEvent::Reconnecting { .. }
                    if self.finish_by.is_some() && self.m.unacked() > 0 =>
                {
                    None
                }
                NetEvent::Closed { .. } | NetEvent::Disconnected { .. } => {
                    self.m.leave();
                    Some(Ok(()))
                }
                // A race counted again once the link came back (a cut): the revised result
                // becomes the last line, the same on both sides.
                NetEvent::Race(update @ banco_app::network::RaceUpdate::Over { .. }) => {
                    self.on_race(update);
                    None
                }
                _ => None,
            };
        }
        match event {
            NetEvent::Listening { .. } => {}
            NetEvent::Connected { peer } => {
                outln!("connected to {}", shown(&peer));
                // Reached: from now on the match reconnects after cuts, as long as it takes.
                if self.unreached.take().is_some_and(|u| u.input_ended) {
                    // The input ended while connecting: leave now, as at its end.
                    return self.on_line("quit", tx);
                }
            }
            NetEvent::Disconnected { reason } => {
                outln!("connection lost ({}); the match waits", shown(&reason));
                // A code belongs to its link: with the link gone there is none to compare.
                if self.question == Question::Code || self.deferred_code.is_some() {
                    self.question = Question::None;
                    self.deferred_code = None;
                    outln!("(the code above is void: that connection is gone)");
                }
            }
            NetEvent::Resumed => {
                outln!("connection back; the match goes on");
                // A move that came as the link went down found the "connection lost"
                // banner up (no turn to play then): the computer plays it now.
                self.maybe_ai_move();
            }
            NetEvent::Reconnecting {
                attempt,
                delay_ms,
                reason,
            } => {
                outln!(
                    "attempt {attempt} to connect failed ({}); trying again in {delay_ms} ms…",
                    shown(&reason)
                );
                if let Some(u) = &mut self.unreached {
                    u.failed(&reason);
                    if u.input_ended {
                        return Some(Err(self.never_reached()));
                    }
                }
            }
            NetEvent::VerifyCode { code, peer_name } => {
                let text = verify_text(&code, &peer_name);
                self.code.clone_from(&code);
                if self.question == Question::Reopen {
                    // Paused, with "listen again?" still open: the code that comes now (the
                    // connection that made the host pause, or one begun before) is asked
                    // once that question is answered, never over it — and never turned
                    // away unasked: that device may be the player's guest.
                    outln!(
                        "a device showed code {code}: you will be asked about it after the question above"
                    );
                    self.deferred_code = Some(text);
                    return None;
                }
                if self.question == Question::Code && !self.yes {
                    self.code_replaced = true;
                    outln!("(the code above is void: another connection took its place)");
                }
                if !self.yes {
                    self.ask(tx, Question::Code, &text);
                } else {
                    match self.m.confirm_code_unattended(&code, self.remember) {
                        Err(NetError::KeyChanged) => {
                            outln!("{text} no (--yes never accepts a changed key)");
                            report(self.m.reject_code());
                            if !self.hosting {
                                return Some(Err(CliError::Failure(
                                    "pairing refused: the host presents a different key".to_owned(),
                                )));
                            }
                            outln!("that device is turned away; waiting for another");
                        }
                        r => {
                            outln!("{text} yes (--yes)");
                            report(r);
                        }
                    }
                }
            }
            NetEvent::PeerVerified { peer_name } => {
                // Added to the file as it is now (another session sharing the data folder
                // may have remembered a player since this one started), before the line
                // that says so: a script that stops at "paired with" finds it kept.
                let trust = self.m.trust();
                if let Err(e) = trust.remember(&self.trust_file, &peer_name) {
                    outln!("could not remember this player: {e}");
                }
                self.paired = trust
                    .known_peers()
                    .get(&peer_name)
                    .map(|k| (peer_name.clone(), *k));
                let games = self.m.state().peer_games;
                outln!(
                    "paired with {} (offers {})",
                    shown(&peer_name),
                    games
                        .iter()
                        .map(|k| k.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
            NetEvent::PeerKeyChanged { peer_name } => {
                outln!("{}", "!".repeat(72));
                outln!(
                    "WARNING: \"{}\" presents a DIFFERENT KEY than when you last played.",
                    shown(&peer_name)
                );
                outln!(
                    "Either they reinstalled Banco, or someone is pretending to be them. Compare \
                     the code with them in person before you confirm."
                );
                outln!("{}", "!".repeat(72));
            }
            NetEvent::AttemptAborted { peer, reason } => {
                outln!(
                    "a connection from {} was turned away: {}",
                    shown(&peer),
                    shown(&reason)
                );
            }
            NetEvent::HostReopened => {
                outln!("new devices are taken again (the pause is over)");
                if self.question == Question::Reopen {
                    self.question = Question::None;
                    if let Some(text) = self.deferred_code.take() {
                        self.ask(tx, Question::Code, &text);
                    }
                }
            }
            NetEvent::HostPaused { attempts } => {
                let text = format!(
                    "{attempts} devices showed a code nobody confirmed; new devices are turned away for a minute (a remembered player still comes in). Take them again now?"
                );
                if self.yes {
                    // Unattended: nobody can answer, so the host stops rather than wait for
                    // ever without taking anyone.
                    outln!("{text} no (--yes never reopens)");
                    self.m.leave();
                    return Some(Err(CliError::Failure(
                        "no guest paired: too many codes were not confirmed".to_owned(),
                    )));
                }
                self.ask(tx, Question::Reopen, &text);
            }
            NetEvent::Proposed(p) => {
                // The preset's name (`asian`, `casual`); none for a game without presets.
                let rules = banco_app::presets::of(p.game)
                    .get(usize::from(p.rules))
                    .map(|preset| format!(" ({} rules)", preset.name))
                    .unwrap_or_default();
                let from = if p.start_fen.is_some() {
                    " from a set-up position"
                } else {
                    ""
                };
                let text = match p.race {
                    Some(o) => format!("the other player proposes a lines race ({o}). Accept?"),
                    None => format!(
                        "the other player proposes {}{rules}{from}, {}, you play {}. Accept?",
                        p.game,
                        p.clock_text(),
                        color_name(p.game, p.your_color).to_lowercase()
                    ),
                };
                if self.only.is_some_and(|g| g != p.game) {
                    outln!("{text} no (you asked for {})", self.only.unwrap_or(p.game));
                    report(self.m.decline_proposal());
                    return None;
                }
                // revB D5: a set-up start is shown before the question, never accepted
                // sight unseen (drawn as the table draws it, from this player's side).
                if let (Some(view), Some(fen)) = (p.start_board(), &p.start_fen) {
                    outln!("the proposed start position:");
                    out!("{}", board::render_view(&view, self.style));
                    out!("{}", board::render_pools(&view));
                    outln!("start fen {}", shown(fen));
                }
                if self.yes {
                    outln!("{text} yes (--yes)");
                    report(self.m.accept_offer(p.id));
                } else {
                    self.ask(tx, Question::Proposal(p.id), &text);
                }
            }
            NetEvent::ProposalDeclined { reason } => {
                outln!("the game was declined: {}", shown(&reason));
                self.m.leave();
                return Some(Err(CliError::Failure("no game".to_owned())));
            }
            NetEvent::Started {
                game, your_color, ..
            } => {
                outln!(
                    "the {game} game starts: you play {}",
                    color_name(game, your_color).to_lowercase()
                );
                self.show();
                self.maybe_ai_move();
            }
            NetEvent::MovePlayed { played, mine } => {
                print_move(if mine { "you play" } else { "they play" }, &played);
                self.show();
                self.maybe_ai_move();
            }
            NetEvent::PieceRevealed { revealed, mine, .. } => {
                let whose = if mine { "your" } else { "their" };
                if let Some(text) = &revealed.announcement {
                    outln!("{whose} {text}");
                }
                self.show();
                self.maybe_ai_move();
            }
            NetEvent::UndoRequested { to_ply } => {
                let text = format!("they ask to take back moves (to move {to_ply}). Allow?");
                if self.ai.is_some() {
                    outln!("{text} no (the engine plays this side)");
                    report(self.m.reply_undo(false));
                } else {
                    self.ask(tx, Question::Undo, &text);
                }
            }
            NetEvent::UndoDeclined => outln!("they declined the undo"),
            NetEvent::Undone { .. } => {
                outln!("moves taken back");
                self.show();
                self.maybe_ai_move();
            }
            NetEvent::DrawOffered => {
                if self.ai.is_some() {
                    outln!("they offer a draw: declined (the engine plays on)");
                    report(self.m.reply_draw(false));
                } else {
                    self.ask(tx, Question::Draw, "they offer a draw. Accept?");
                }
            }
            NetEvent::DrawDeclined => outln!("they declined the draw"),
            NetEvent::DrawOfferWithdrawn => {
                outln!("their draw offer is withdrawn");
                if self.question == Question::Draw {
                    self.question = Question::None;
                }
            }
            NetEvent::MoveRefused { .. } => {
                outln!("the other device refused your move; play again");
                self.show();
                self.maybe_ai_move();
            }
            NetEvent::GameAborted { reason, by_peer } => {
                self.over = true;
                let who = if by_peer {
                    "the other device"
                } else {
                    "this device"
                };
                self.save_at_end();
                outln!("game abandoned by {who}: {reason}");
                let _ = std::io::stdout().flush();
                self.finish_by = Some(Instant::now() + FINISH_GRACE);
            }
            NetEvent::GameOver { outcome, .. } => {
                self.over = true;
                let words = banco_app::result::announcement(self.kind(), outcome);
                self.save_at_end();
                outln!("game over: {words}");
                outln!(
                    "result {} fen {}",
                    outcome.score_text(),
                    self.m.state().fen.unwrap_or_default()
                );
                let _ = std::io::stdout().flush();
                // Leave when the peer has acknowledged everything (at once if it has).
                self.finish_by = Some(Instant::now() + FINISH_GRACE);
            }
            NetEvent::Race(u) => self.on_race(u),
            NetEvent::PeerProblem { message } => outln!("{}", shown(&message)),
            NetEvent::Closed { reason } => {
                if let Some((name, key)) = self.paired.take()
                    && let Err(e) = self.m.trust().forget(&self.trust_file, &name, &key)
                {
                    outln!("could not forget the rejected player: {e}");
                }
                outln!("the match is closed: {}", shown(&reason));
                return Some(if self.over {
                    Ok(())
                } else {
                    Err(CliError::Failure(
                        "the match closed before the end".to_owned(),
                    ))
                });
            }
        }
        None
    }

    pub(super) fn show(&self) {
        let s = self.m.state();
        let Some(view) = &s.board else { return };
        out!("{}", board::render_view(view, self.style));
        out!("{}", board::render_pools(view));
        if let Some(faces) = &s.clock_faces {
            outln!("{}", clocks_line(faces));
        }
        if s.your_turn && self.ai.is_none() {
            outln!("your move (or undo, draw, claim, resign, board, save FILE, quit):");
        }
    }
}

/// Both clocks of a timed game, this player's first, the running one marked:
/// `clocks: you 4:52 · opponent 5:00 (running)`.
pub(super) fn clocks_line(faces: &ClockFaces) -> String {
    let face = |who: &str, f: &banco_app::network::ClockFace| {
        format!(
            "{who} {}{}",
            f.text,
            if f.running { " (running)" } else { "" }
        )
    };
    format!(
        "clocks: {} · {}",
        face("you", &faces.you),
        face("opponent", &faces.opponent)
    )
}
