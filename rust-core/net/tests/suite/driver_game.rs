//! Two drivers play whole xiangqi games of seeded random moves over real links with cuts
//! injected, and must end with the same moves and the same result.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use banco_net::driver::{Dialer, DriverEvent, Role, from_fn};
use banco_net::memory::{self, FaultPlan};
use banco_net::{BoxLink, Link, LinkError, host};
use common::{Report, finish, referee, spawn_pair};

/// A link that cuts itself (closing the socket under it) when it has sent `left` frames.
struct CutAfter<L: Link> {
    inner: L,
    left: AtomicU64,
}

impl<L: Link> Link for CutAfter<L> {
    fn send(&self, frame: &[u8]) -> Result<(), LinkError> {
        match self.left.fetch_sub(1, Ordering::AcqRel) {
            0 => Err(LinkError::Reset),
            1 => {
                self.inner.close();
                Err(LinkError::Reset)
            }
            _ => self.inner.send(frame),
        }
    }
    fn recv(&self, timeout: Option<Duration>) -> Result<Option<Vec<u8>>, LinkError> {
        self.inner.recv(timeout)
    }
    fn max_frame_size(&self) -> usize {
        self.inner.max_frame_size()
    }
    fn close(&self) {
        self.inner.close();
    }
    fn peer(&self) -> String {
        self.inner.peer()
    }
}

fn check(report: &Report) {
    eprintln!(
        "result {:?} plies {} disconnects {} resumed {}",
        report.results[0],
        report.moves[0].len(),
        report.disconnects,
        report.resumed
    );
    assert!(report.bad.is_empty(), "{:?}", report.bad);
    let [a, b] = &report.results;
    assert!(a.is_some());
    assert_eq!(a, b, "both sides end with the same result");
    assert_eq!(
        report.moves[0], report.moves[1],
        "both sides end with the same moves"
    );
    assert_eq!(a.map(|(_, ply)| ply as usize), Some(report.moves[0].len()));
}

#[test]
fn tcp_game_with_cuts() {
    let h = host("127.0.0.1:0".parse().unwrap(), None).unwrap();
    let addr = h.local_addr();
    // The guest's first four links are cut after 8, 17, 26 and 35 frames: past the handshake,
    // well before the end of the game. Later links live.
    let links = Arc::new(AtomicU64::new(0));
    let guest = {
        let links = Arc::clone(&links);
        let mut dial = Dialer::new(vec![addr]);
        from_fn(Role::Initiator, move |timeout| {
            use banco_net::driver::Connector;
            let link = dial.connect(timeout)?;
            let n = links.fetch_add(1, Ordering::AcqRel);
            Ok(if n < 4 {
                Box::new(CutAfter {
                    inner: link,
                    left: AtomicU64::new(8 + 9 * n),
                }) as BoxLink
            } else {
                link
            })
        })
    };
    let (drivers, rx) = spawn_pair(h.acceptor(), guest);
    let report = referee(&drivers, &rx, 1, Duration::from_secs(60), |_, _| {});
    check(&report);
    assert!(
        links.load(Ordering::Acquire) >= 5,
        "the guest reconnected after every cut"
    );
    assert!(report.disconnects >= 4, "{report:?}");
    assert!(report.resumed >= 4, "{report:?}");
    finish(drivers, &rx, true);
}

#[test]
fn memory_game_with_faults_and_cuts() {
    let plan = FaultPlan::none()
        .with_drop(0.05)
        .with_duplicate(0.05)
        .with_reorder(0.05)
        .with_delay(0.1, Duration::from_millis(30));
    let (dialer, acceptor) = memory::connectors(plan, 99);
    let last = dialer.last_link();
    let (drivers, rx) = spawn_pair(acceptor, dialer);
    // Cut the link after every 40th move event, three times.
    let mut moves = 0;
    let mut cuts = 0;
    let report = referee(&drivers, &rx, 2, Duration::from_secs(60), |side, e| {
        if side == 0
            && matches!(
                e,
                DriverEvent::Session(banco_protocol::Event::MovePlayed { .. })
            )
        {
            moves += 1;
            if moves % 40 == 0 && cuts < 3 && last.cut() {
                cuts += 1;
            }
        }
    });
    check(&report);
    assert!(report.resumed >= 1, "{report:?}");
    finish(drivers, &rx, false);
}

#[test]
fn ble_game_over_a_lossy_20_byte_pipe() {
    use banco_net::ble::{BleLink, LinkPipe};
    use banco_net::memory::MemoryLink;
    use std::sync::Mutex;
    use std::sync::mpsc;

    // Every dial makes a 20-byte ATT-sized memory pipe losing 1 write in 50, with BLE
    // links (fragmentation) on both ends; the host's end goes to its acceptor.
    let (tx, rx) = mpsc::channel::<BoxLink>();
    let rx = Mutex::new(rx);
    let plan = FaultPlan::none().with_drop(0.02);
    let mut seed = 500;
    let guest = from_fn(Role::Initiator, move |_| {
        seed += 1;
        let (a, b) = MemoryLink::pair_with_limit(plan, seed, 20);
        tx.send(Box::new(BleLink::new(LinkPipe::new(b))))
            .map_err(|_| LinkError::Reset)?;
        Ok(Box::new(BleLink::new(LinkPipe::new(a))) as BoxLink)
    });
    let host = from_fn(Role::Responder, move |timeout| {
        rx.lock()
            .unwrap()
            .recv_timeout(timeout)
            .map_err(|_| LinkError::Timeout)
    });
    let (drivers, events) = spawn_pair(host, guest);
    let report = referee(&drivers, &events, 3, Duration::from_secs(60), |_, _| {});
    check(&report);
    finish(drivers, &events, false);
}
