//! The driver's connect thread ends with the driver: a host that stops leaves no thread
//! holding its listener (its port is free again at once), and a guest's dialling thread
//! is left to end by its own timeout without holding anything the driver needs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::time::Duration;

use banco_net::driver::{Acceptor, Connector, Driver, DriverConfig, Interrupt, Role};
use banco_net::tcp::TcpListenerLink;
use banco_net::{BoxLink, LinkError, host};

/// An acceptor that says when a connect starts and when it is dropped.
struct Probe {
    inner: Acceptor,
    started: Sender<()>,
    dropped: Arc<AtomicBool>,
}

impl Connector for Probe {
    fn role(&self) -> Role {
        Role::Responder
    }

    fn connect(&mut self, timeout: Duration) -> Result<BoxLink, LinkError> {
        let _ = self.started.send(());
        self.inner.connect(timeout)
    }

    fn interrupter(&self) -> Option<Interrupt> {
        self.inner.interrupter()
    }
}

impl Drop for Probe {
    fn drop(&mut self) {
        self.dropped.store(true, Ordering::SeqCst);
    }
}

#[test]
fn a_stopped_host_keeps_no_connect_thread_and_frees_its_port() {
    let h = host("127.0.0.1:0".parse().unwrap(), None).unwrap();
    let addr = h.local_addr();
    let (started, starts) = mpsc::channel();
    let dropped = Arc::new(AtomicBool::new(false));
    let probe = Probe {
        inner: h.acceptor(),
        started,
        dropped: Arc::clone(&dropped),
    };
    // A long accept: before, the connect thread sat in it for this long after the end.
    let config = DriverConfig {
        connect_timeout: Duration::from_secs(30),
        ..DriverConfig::default()
    };
    let (driver, _events) = Driver::spawn(common::session("Host", 1), probe, config);
    starts
        .recv_timeout(Duration::from_secs(10))
        .expect("the driver starts accepting");
    drop(driver);
    // Checked right after the driver is gone: no waiting, no timing.
    assert!(
        dropped.load(Ordering::SeqCst),
        "the connect thread still holds the acceptor after the driver stopped"
    );
    drop(h);
    // Nothing holds the listener any more: the same port can be hosted on again at once.
    let again = TcpListenerLink::bind(addr).expect("the port is free once the host stopped");
    drop(again);
}

#[test]
fn an_interrupted_acceptor_returns_at_once_and_for_good() {
    let h = host("127.0.0.1:0".parse().unwrap(), None).unwrap();
    let mut acceptor = h.acceptor();
    let interrupt = acceptor
        .interrupter()
        .expect("TCP accepts can be interrupted");
    let waiting = std::thread::spawn(move || {
        let first = acceptor.connect(Duration::from_secs(60)).map(|_| ());
        let later = acceptor.connect(Duration::from_secs(60)).map(|_| ());
        (first, later)
    });
    // Whether the interrupt comes before or during the wait, the call ends with `Closed`.
    interrupt.interrupt();
    let (first, later) = waiting.join().unwrap();
    assert!(matches!(first, Err(LinkError::Closed)), "{first:?}");
    assert!(matches!(later, Err(LinkError::Closed)), "{later:?}");
    // Another acceptor of the same listener is not affected.
    let guest = banco_net::join(&h.local_addr().to_string(), Duration::from_secs(2)).unwrap();
    let link = h.acceptor().connect(Duration::from_secs(10)).unwrap();
    drop((guest, link));
}
