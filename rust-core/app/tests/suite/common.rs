//! Helpers shared by the network tests: an observer that forwards a match's events to a
//! channel, and a wait for the first event that matches.
#![allow(clippy::unwrap_used, clippy::panic)]

use banco_app::network::{NetEvent, NetObserver};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Forwards every event of a `NetMatch` to a channel.
pub struct Events(Mutex<Sender<NetEvent>>);

impl NetObserver for Events {
    fn event(&self, event: NetEvent) {
        let _ = self.0.lock().unwrap().send(event);
    }
}

/// An observer and the receiving end of its events.
pub fn observer() -> (Arc<Events>, Receiver<NetEvent>) {
    let (tx, rx) = mpsc::channel();
    (Arc::new(Events(Mutex::new(tx))), rx)
}

/// The first event `want` accepts (others are skipped); panics after 20 s naming `what`.
pub fn wait(rx: &Receiver<NetEvent>, what: &str, want: impl Fn(&NetEvent) -> bool) -> NetEvent {
    loop {
        let e = rx
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("no {what} within 20 s"));
        if want(&e) {
            return e;
        }
    }
}
