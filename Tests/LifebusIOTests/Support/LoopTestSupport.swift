import Glibc
import LifebusIO
import Synchronization
import Testing

/// The loop did not reach the awaited condition before the guard timer fired.
struct TimedOut: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

extension EventLoop {
    /// Runs the loop until `condition` holds, failing after `timeout`. A guard timer keeps the loop alive while
    /// waiting, so this never spins and never sleeps for a fixed time.
    func run(
        until what: String,
        timeout: Duration = .seconds(20),
        _ condition: () -> Bool
    ) throws {
        let guardTimer = try LoopTimer(loop: self)
        var timedOut = false
        guardTimer.start(after: timeout) { timedOut = true }
        while !condition(), !timedOut {
            runOnce(wait: true)
        }
        guardTimer.close()
        if !condition() {
            throw TimedOut(what: what)
        }
    }
}

/// A unique Unix socket path for one test; removed by `remove()`.
struct TestSocketPath {
    private static let counter = Atomic<Int>(0)
    let path: String

    init() {
        let number = Self.counter.add(1, ordering: .relaxed).newValue
        path = "/tmp/lifebus-io-test-\(getpid())-\(number).sock"
        unlink(path)
    }

    var address: SocketAddress { .unix(path) }

    func remove() {
        unlink(path)
    }
}

/// What one connection delivered.
final class LineRecorder {
    var lines: [[UInt8]] = []
    var ends: [ConnectionEnd] = []

    var strings: [String] { lines.map { String(decoding: $0, as: UTF8.self) } }

    /// Starts reading `connection` into this recorder; `onLine` runs after each line is recorded.
    func record(_ connection: Connection, onLine: @escaping ([UInt8]) -> Void = { _ in }) {
        connection.startReading(
            onLine: { [self] line in
                let bytes = [UInt8](line)
                lines.append(bytes)
                onLine(bytes)
            },
            onEnd: { [self] end in ends.append(end) }
        )
    }
}

/// A listener and the two ends of one connection through it, all on `loop`.
struct ConnectedPair {
    let listener: Listener
    let server: Connection
    let client: Connection

    init(loop: EventLoop, address: SocketAddress) throws {
        var accepted: Connection?
        var connected: Result<Connection, UVError>?
        let listener = try Listener.listen(on: address, loop: loop) { accepted = $0 }
        Connection.connect(to: listener.boundAddress, loop: loop) { connected = $0 }
        try loop.run(until: "connection") { accepted != nil && connected != nil }
        self.listener = listener
        self.server = try #require(accepted)
        self.client = try #require(connected).get()
    }

    func close() {
        listener.close()
        server.close()
        client.close()
    }
}

/// Runs `body` with a new loop and a connected pair over a fresh Unix socket, then closes the pair and checks the
/// loop closes clean (also when `body` throws).
func withConnectedPair(_ body: (EventLoop, ConnectedPair) throws -> Void) throws {
    let loop = try EventLoop()
    let socket = TestSocketPath()
    defer { socket.remove() }
    let pair = try ConnectedPair(loop: loop, address: socket.address)
    do {
        try body(loop, pair)
    } catch {
        pair.close()
        try loop.close()
        throw error
    }
    pair.close()
    try loop.close()
}

/// Runs `body` on a `DetachedThread`; `join` waits for it to return.
struct TestThread {
    /// The semaphore `body` posts when it returns; shared by the test and the thread.
    private final class Finished: @unchecked Sendable {  // unchecked: a sem_t is safe to post and wait from any thread
        let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        init() { sem_init(semaphore, 0, 0) }
        deinit {
            sem_destroy(semaphore)
            semaphore.deallocate()
        }
    }

    private let finished = Finished()

    init(_ body: @escaping @Sendable () -> Void) {
        let finished = finished
        DetachedThread.start {
            body()
            sem_post(finished.semaphore)
        }
    }

    func join() {
        while sem_wait(finished.semaphore) != 0 && errno == EINTR {}
    }
}

/// Deterministic pseudo-random numbers (SplitMix64) so property-style tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// `count` bytes of a repeating, line-free pattern.
func patternBytes(_ count: Int, seed: Int = 0) -> [UInt8] {
    (0..<count).map { UInt8(33 + ($0 + seed) % 90) }
}
