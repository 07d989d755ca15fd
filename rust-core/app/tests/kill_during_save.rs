//! Kill during save: a child process saves a game over and over (each version one move
//! longer, its number in a tag) and is killed with SIGKILL at seeded random moments; after
//! every kill the file must load as a complete game — the version before the interrupted
//! save or the one after, never a torn one — and the temporary files of the killed saves
//! are removed by the next load.
//!
//! The child is this test binary itself, running the ignored test `child_saver` with the
//! file's path in `BANCO_SAVE_CHILD`. `BANCO_SAVE_KILLS` sets the number of kills (50 here,
//! thousands in `tests/nightly.sh kill`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use banco_app::any::{AnyGame, AnyRules};
use banco_app::files::{read_limited, write_atomic};
use banco_app::save::{self, SavedGame};
use banco_game::{Game, GameKind};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CHILD_ENV: &str = "BANCO_SAVE_CHILD";
const KILLS_ENV: &str = "BANCO_SAVE_KILLS";
/// Plies of the line saved; versions beyond it start the line again.
const LINE_PLIES: usize = 120;

/// A fixed line of xiangqi moves (a seeded choice among the legal moves).
fn line() -> Vec<u16> {
    let mut game = AnyGame::new(GameKind::Xiangqi).unwrap();
    let mut codes = Vec::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    while codes.len() < LINE_PLIES {
        let moves = game.legal_move_vec();
        if moves.is_empty() || game.outcome(&AnyRules::usual(GameKind::Xiangqi)).is_some() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mv = moves[(seed % moves.len() as u64) as usize];
        codes.push(game.encode_move(mv));
        game.play(mv).unwrap();
    }
    codes
}

/// Version `v` of the saved game: the first `v % (len + 1)` moves of the line.
fn version(line: &[u16], v: u64) -> SavedGame {
    let n = (v % (line.len() as u64 + 1)) as usize;
    let mut game = AnyGame::new(GameKind::Xiangqi).unwrap();
    for &code in &line[..n] {
        let mv = game.decode_move(code).unwrap();
        game.play(mv).unwrap();
    }
    let mut saved = SavedGame::of(&game, AnyRules::usual(GameKind::Xiangqi));
    saved.tags.push(("version".into(), v.to_string()));
    saved
}

/// Loads the file as the app does (size limit, format, every move replayed) and returns
/// the version it holds; `None` when there is no file yet.
fn load(path: &Path, line: &[u16]) -> Result<Option<u64>, String> {
    let bytes = match read_limited(path, save::MAX_BYTES as u64) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    let saved = SavedGame::decode(&bytes).map_err(|e| e.to_string())?;
    saved.restore().map_err(|e| e.to_string())?;
    let v: u64 = saved
        .tags
        .iter()
        .find(|(k, _)| k == "version")
        .and_then(|(_, v)| v.parse().ok())
        .ok_or("no version tag")?;
    if saved != version(line, v) {
        return Err(format!("version {v} does not hold its moves"));
    }
    Ok(Some(v))
}

/// The child: continues from the version on disk and saves the next ones until killed.
#[test]
#[ignore = "the child of a_kill_mid_save_leaves_the_old_or_the_new_game; runs when spawned"]
fn child_saver() {
    let Some(path) = std::env::var_os(CHILD_ENV) else {
        return;
    };
    let path = PathBuf::from(path);
    let line = line();
    let mut v = load(&path, &line).unwrap().unwrap_or(0);
    let mut announced = false;
    loop {
        v += 1;
        let bytes = version(&line, v).encode().unwrap();
        write_atomic(&path, &bytes).unwrap();
        if !announced {
            println!("ready");
            std::io::stdout().flush().unwrap();
            announced = true;
        }
    }
}

#[test]
fn a_kill_mid_save_leaves_the_old_or_the_new_game() {
    let kills: u32 = std::env::var(KILLS_ENV)
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or(50);
    let dir = std::env::temp_dir().join(format!("banco-kill-save-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.banco");
    let exe = std::env::current_exe().unwrap();
    let line = line();
    let mut rng = 0x2026_1201_u64;
    let mut last = 0;
    let started = Instant::now();
    for k in 0..kills {
        let mut child = Command::new(&exe)
            .args([
                "child_saver",
                "--exact",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, &path)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        // libtest prints "test child_saver ... " before the child's own output.
        let mut text = String::new();
        while !text.trim_end().ends_with("ready") {
            text.clear();
            assert!(
                out.read_line(&mut text).unwrap() > 0,
                "the child stopped before saving (kill {k})"
            );
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        std::thread::sleep(Duration::from_micros(rng % 15_000));
        child.kill().unwrap(); // SIGKILL on Unix
        child.wait().unwrap();
        let v = load(&path, &line)
            .unwrap_or_else(|e| panic!("after kill {k} the save does not load: {e}"))
            .expect("a save exists once the child said ready");
        assert!(v >= last, "after kill {k}: version {v} older than {last}");
        last = v;
    }
    let stale = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        })
        .count();
    println!(
        "{kills} kills in {:.1} s: every load complete, {last} versions saved, {stale} temporary \
         files left by interrupted saves",
        started.elapsed().as_secs_f64()
    );
    // Each load removed what the killed saves left (their processes are gone).
    assert_eq!(stale, 0, "temporary files of killed saves were left behind");
    std::fs::remove_dir_all(&dir).unwrap();
}
