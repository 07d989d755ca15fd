//! UCI and UCCI sessions driven line by line, as another program would: each command is
//! sent only after the answer it waits for has arrived.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // helpers of tests

use banco_engine::uci::SharedBuf;
use banco_engine::{ucci, uci};
use std::io::{BufRead, Read};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

/// A reader fed line by line from a channel (blocks like a pipe).
struct Pipe {
    rx: Receiver<String>,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for Pipe {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = {
            let data = self.fill_buf()?;
            let n = data.len().min(out.len());
            out[..n].copy_from_slice(&data[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Pipe {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.pos >= self.buf.len() {
            match self.rx.recv() {
                Ok(line) => {
                    self.buf = line.into_bytes();
                    self.pos = 0;
                }
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.buf[self.pos..])
    }
    fn consume(&mut self, n: usize) {
        self.pos += n;
    }
}

struct Driver {
    tx: Sender<String>,
    out: SharedBuf,
    seen: usize,
}

impl Driver {
    fn send(&self, line: &str) {
        self.tx.send(format!("{line}\n")).unwrap();
    }

    /// Waits (up to 20 s) for a line starting with `prefix`; returns it.
    fn expect(&mut self, prefix: &str) -> String {
        let start = Instant::now();
        loop {
            let text = self.out.text();
            let lines: Vec<&str> = text.lines().collect();
            if let Some(i) = lines[self.seen.min(lines.len())..]
                .iter()
                .position(|l| l.starts_with(prefix))
            {
                let idx = self.seen + i;
                self.seen = idx + 1;
                return lines[idx].to_owned();
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "no `{prefix}` in:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

fn start(ucci_mode: bool) -> (Driver, std::thread::JoinHandle<()>) {
    let (tx, rx) = channel();
    let out = SharedBuf::default();
    let writer = out.clone();
    let pipe = Pipe {
        rx,
        buf: Vec::new(),
        pos: 0,
    };
    let handle = std::thread::spawn(move || {
        if ucci_mode {
            ucci::run(pipe, writer).unwrap();
        } else {
            uci::run(pipe, writer).unwrap();
        }
    });
    (Driver { tx, out, seen: 0 }, handle)
}

#[test]
fn uci_session() {
    let (mut d, handle) = start(false);
    d.send("uci");
    d.expect("option name UCI_Variant");
    d.expect("uciok");
    d.send("setoption name Hash value 4");
    d.send("setoption name UCI_Variant value xiangqi");
    d.send("isready");
    d.expect("readyok");
    d.send("position startpos moves h2e2 h9g7");
    d.send("go depth 4");
    let info = d.expect("info depth");
    assert!(info.contains(" pv "), "{info}");
    let best = d.expect("bestmove ");
    assert_eq!(best.len(), "bestmove h0g2".len());
    // Infinite search, stopped from outside.
    d.send("position fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1");
    d.send("go infinite");
    d.expect("info depth 1");
    d.send("isready");
    d.expect("readyok");
    d.send("stop");
    assert_eq!(d.expect("bestmove"), "bestmove e1d1");
    // Clock and level.
    d.send("setoption name Level value 3");
    d.send("position startpos");
    d.send("go wtime 1000 btime 1000 winc 10 binc 10");
    d.expect("bestmove");
    // Garbage is answered, not fatal.
    d.send("position fen not-a-fen");
    d.expect("info string");
    d.send("frobnicate");
    d.expect("info string unknown command");
    d.send("quit");
    handle.join().unwrap();
}

#[test]
fn ucci_session() {
    let (mut d, handle) = start(true);
    d.send("ucci");
    d.expect("ucciok");
    d.send("isready");
    d.expect("readyok");
    d.send("position fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1 moves");
    d.send("banmoves e1d1");
    d.send("go depth 3");
    let best = d.expect("bestmove");
    assert_ne!(best, "bestmove e1d1");
    d.send("position fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1");
    d.send("go time 5000 increment 0");
    assert_eq!(d.expect("bestmove"), "bestmove e1d1");
    d.send("position startpos moves h2e2");
    d.send("go nodes 5000");
    d.expect("bestmove");
    d.send("quit");
    d.expect("bye");
    handle.join().unwrap();
}
