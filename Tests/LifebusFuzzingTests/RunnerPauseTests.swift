import Dispatch
import Glibc
import Testing

@testable import LifebusScenario

/// The runner's 5 ms poll (`ScenarioSession.pause`, what the fuzzer's runs wait through for an app to end a task it
/// was launched for) returns even when the caller kept the session's loop still for longer than the poll: libuv's
/// cached loop time is then stale, the poll's timer is due at once and fires before the loop polls for I/O, and the
/// poll used to block with no timer left until the broker sent something — for good, when it had nothing to send (a
/// fuzz campaign hung so for ten minutes under load).
@Suite struct RunnerPauseTests {
    @Test func aPauseReturnsAfterTheCallerKeptTheLoopStill() throws {
        let broker = try SilentBroker()
        let session = try ScenarioSession(path: broker.path)
        let stillUntil = Self.monotonicNanoseconds() + 50_000_000  // the caller works 50 ms without turning the loop
        while Self.monotonicNanoseconds() < stillUntil {}
        let start = Self.monotonicNanoseconds()
        session.pause(.milliseconds(5))
        let took = Self.monotonicNanoseconds() - start
        broker.release()
        session.close()
        #expect(took < 1_000_000_000, "pause(5ms) returned after \(took / 1_000_000) ms")
    }

    private static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}

/// A stand-in broker on a Unix socket in a private folder: it answers one controller's `hello`, then sends nothing
/// until `release()` — or, so that a session that waits for it cannot hang the suite, 3 s after the hello — and then
/// closes the connection (the session's wait ends) and removes its socket and folder. Owns its listening socket and
/// the thread that serves it.
private final class SilentBroker: Sendable {
    let path: String
    private let folder: String
    private let released = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init() throws {
        var template = Array("/tmp/lifebus-pause-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw SilentBrokerError.setUp("mkdtemp") }
        let folder = String(cString: made)
        let path = folder + "/lifebus.sock"
        self.folder = folder
        self.path = path
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard listener >= 0, bound == 0, listen(listener, 1) == 0 else {
            throw SilentBrokerError.setUp("socket, bind or listen: errno \(errno)")
        }
        let (released, finished) = (released, finished)
        DispatchQueue.global().async {
            Self.serve(listener, released: released)
            close(listener)
            unlink(path)
            rmdir(folder)
            finished.signal()
        }
    }

    /// Ends the silence; returns once the connection is closed and the folder gone.
    func release() {
        released.signal()
        finished.wait()
    }

    /// Accepts one connection, answers the `hello` on its first line with the request's id, then waits.
    private static func serve(_ listener: Int32, released: DispatchSemaphore) {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        defer { close(connection) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(connection, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        let request = String(decoding: line, as: UTF8.self)
        guard let key = request.firstRange(of: "\"id\":") else { return }
        let id = request[key.upperBound...].prefix { $0 != "," && $0 != "}" }
        let answer = """
            {"jsonrpc":"2.0","id":\(id),"result":{"brokerVersion":"0.1.0","protocolVersion":1,"role":"controller",\
            "peer":{"pid":\(getpid()),"uid":\(getuid()),"gid":\(getgid())},"profile":"ios13"}}

            """
        _ = answer.utf8CString.withUnsafeBytes { write(connection, $0.baseAddress, $0.count - 1) }
        _ = released.wait(timeout: .now() + .seconds(3))
    }
}

private enum SilentBrokerError: Error {
    case setUp(String)
}
