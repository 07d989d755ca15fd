// The nearby-players list: hosts found and lost on the LAN, and joining one.
import Foundation

public final class LobbyModel: Model {
    public struct State: Equatable {
        public var peers: [LobbyPeer] = []
        public var discovering = false
        public var error: String?
    }

    public private(set) var state = State() {
        willSet { willChange() }
        didSet { didChange() }
    }

    private let ui: UIDispatcher
    private var lobby: Lobby?
    private lazy var listener = Listener(self)

    public init(ui: UIDispatcher) { self.ui = ui }

    final class Listener: LobbyListener, @unchecked Sendable {
        weak var model: LobbyModel?
        init(_ m: LobbyModel) { model = m }
        func onPeerFound(peer: LobbyPeer) { model?.peerFound(peer) }
        func onPeerUpdated(peer: LobbyPeer) { model?.peerFound(peer) }
        func onPeerLost(id: String) { model?.peerLost(id) }
        func onError(message: String) { model?.discoveryError(message) }
    }

    /// Starts discovery with the lobby `open` makes (`Lobby(interfaces: [])` on a phone).
    public func start(_ open: () throws -> Lobby) {
        guard lobby == nil else { return }
        do {
            let l = try open()
            try l.browse(listener: listener)
            lobby = l
            state.discovering = true
            state.error = nil
        } catch {
            state.discovering = false
            state.error = readable(error)
        }
    }

    public func stop() {
        guard let l = lobby else { return }
        lobby = nil
        try? l.stop()
        state.discovering = false
    }

    /// Joins `peer`: a match model whose first events are the pairing code.
    public func join(_ peer: LobbyPeer, settings: Settings, sound: SoundPlayer = SilentSound()) throws -> MatchModel {
        try MatchModel.joinPeer(ui: ui, name: settings.playerName, peer: peer, sound: sound)
    }

    // Called from Rust's lobby thread (public for tests that play the network).
    public func peerFound(_ peer: LobbyPeer) {
        ui.post { [weak self] in
            guard let self = self else { return }
            var peers = self.state.peers.filter { $0.id != peer.id }
            peers.append(peer)
            peers.sort { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
            self.state.peers = peers
        }
    }

    public func peerLost(_ id: String) {
        ui.post { [weak self] in self?.state.peers.removeAll { $0.id == id } }
    }

    public func discoveryError(_ message: String) {
        ui.post { [weak self] in self?.state.error = message }
    }
}
