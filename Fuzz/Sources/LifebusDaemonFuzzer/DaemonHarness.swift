import Glibc
import LifebusBroker
import LifebusIO
import LifebusJSON
import LifebusProtocol
import Logging

/// Plays one fuzz input against a fresh broker: a new `EventLoop` and `Broker` on a Unix socket of this process, the
/// input's peers as client sockets of the same process, the loop stepped by hand (`runOnce(wait: false)`) after every
/// chunk written, so the whole daemon runs on this one thread and an input replays the same way each time.
///
/// After the input: every peer closes, a new controller must get its `ping` answered, the broker shuts down, drains,
/// and its loop must close with no handle left open. Any failed check traps, which libFuzzer reports as a crash.
enum DaemonHarness {
    /// On tmpfs when there is one: binding and unlinking a socket there costs less than on a disk.
    static let socketPath = "\(access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp")/lifebus-fuzz-\(getpid()).sock"
    /// Every peer reads through this one buffer (the harness is single-threaded; it lives as long as the process).
    nonisolated(unsafe) static let readBuffer =
        UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    /// Turns a peer may stall (the broker not taking its bytes) before the rest of its line is dropped.
    static let maximumStalls = 64
    /// Turns the liveness ping may take.
    static let maximumPingTurns = 1_000
    static let logger = Logger(label: "lifebus-fuzz") { _ in SwiftLogNoOpLogHandler() }

    static func run(_ script: FuzzScript) {
        let loop = must { () throws(UVError) in try EventLoop() }
        let broker = Broker(configuration: BrokerConfiguration(socketPath: socketPath), loop: loop, logger: logger)
        must { () throws(BrokerStartError) in _ = try broker.start() }
        var peers = [FuzzPeer?](repeating: nil, count: FuzzScript.peerCount)
        for step in script.steps {
            switch step {
            case .send(let number, let bytes, let chunk):
                let peer = peers[number] ?? FuzzPeer(path: socketPath)
                peers[number] = peer
                send(bytes, chunk: chunk, from: peer, loop: loop, peers: peers)
            case .close(let number):
                peers[number]?.close()
                peers[number] = nil
                turn(loop, peers)
            case .settle:
                for _ in 0..<4 { turn(loop, peers) }
            }
        }
        for peer in peers { peer?.close() }
        turn(loop, [])
        checkServing(loop)
        stop(broker, loop)
    }

    /// Writes `bytes` in pieces of at most `chunk`, one loop turn after each.
    private static func send(_ bytes: ArraySlice<UInt8>, chunk: Int, from peer: FuzzPeer, loop: EventLoop,
                             peers: [FuzzPeer?]) {
        var remaining = bytes
        var stalls = 0
        while !remaining.isEmpty && stalls < maximumStalls {
            guard let taken = peer.write(remaining.prefix(chunk)) else { return }  // the broker closed it
            remaining = remaining.dropFirst(taken)
            stalls = taken == 0 ? stalls + 1 : 0
            turn(loop, peers)
        }
    }

    private static func turn(_ loop: EventLoop, _ peers: [FuzzPeer?]) {
        loop.runOnce(wait: false)
        for peer in peers { peer?.drain(through: readBuffer) }
    }

    /// A controller that connects now says hello and pings; the broker must answer the ping.
    private static func checkServing(_ loop: EventLoop) {
        let probe = FuzzPeer(path: socketPath, keepsLines: true)
        let params = #"{"role":"controller","protocolVersion":1}"#
        let hello = #"{"jsonrpc":"2.0","id":"probe-hello","method":"hello","params":\#(params)}"#
        let ping = #"{"jsonrpc":"2.0","id":"probe-ping","method":"ping"}"#
        let request = Array("\(hello)\n\(ping)\n".utf8)
        precondition(probe.write(request[...]) == request.count, "the probe could not write its hello and ping")
        for _ in 0..<maximumPingTurns {
            loop.runOnce(wait: false)
            probe.drain(through: readBuffer)
            for line in probe.takeLines() {
                let answer = line.withUnsafeBytes { try? JSONParser.parse($0) }
                if answer?["id"] == .string("probe-ping"), answer?["result"]?["pong"] == .bool(true) {
                    probe.close()
                    return
                }
            }
            precondition(!probe.sawEnd, "the broker closed a new controller instead of answering its ping")
        }
        preconditionFailure("the broker did not answer a ping within \(maximumPingTurns) loop turns")
    }

    /// Shuts the broker down, runs the loop until every peer has gone, then (as `lifebusd` does) until the apps it
    /// spawned and killed on draining have been reaped, and closes the loop.
    private static func stop(_ broker: Broker, _ loop: EventLoop) {
        var drained = false
        broker.onDrained = { drained = true }
        broker.shutdown()
        while !drained {
            precondition(loop.runOnce(wait: true) || drained, "the loop ran dry before the broker drained")
        }
        while loop.runOnce(wait: true) {}
        must { () throws(UVError) in try loop.close() }
    }

    /// Runs `body`; a thrown error is a failure of the harness or the broker, reported as a crash.
    private static func must<T, E: Error>(_ body: () throws(E) -> T) -> T {
        do {
            return try body()
        } catch {
            preconditionFailure("\(error)")
        }
    }
}
