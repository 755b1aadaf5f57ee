import Glibc
import LifebusIO
import LifebusLifecycle
import Synchronization
import Testing

/// A real `lifebusd` on a socket path of its own, started for one test.
///
/// Owns the broker process, its socket path and its journal file (one per test unless the arguments name one, in a
/// folder of its own, so the apps' logs the broker keeps beside it are the test's own too; a journal outside /tmp,
/// such as /dev/full, is never removed), and the state folder of the apps it starts (`LIFEBUS_STATE_DIR`). `init`
/// returns once the broker printed `listening on PATH` (never after a fixed sleep); `stop` sends SIGTERM and returns
/// the exit status. `wrapper` runs the broker under another program (`strace …`), which must print the broker's
/// stdout as it is. Its deinit is every integration test's teardown sweep (`SupervisionCheck`): no zombie child of a
/// running broker, and, once the broker is gone (SIGKILL if the test left it running: its guard then cleans up), no
/// process it started (marked `LIFEBUS_TEST_BROKER=SOCKET` in the environment it passes on) alive 2 s later.
final class BrokerFixture {
    let socketPath: String
    let journalPath: String
    let process: ChildProcess
    /// The broker itself: the fixture's process, or its child under a wrapper (`nil` when not found).
    private(set) var brokerPID: Int32?
    /// The folder made for the journal (unless the arguments name one), the apps' `logs` and their `state` folder
    /// (`LIFEBUS_STATE_DIR`), and what the test writes for this broker (apps' manifests), removed with all it holds.
    let ownFolder: String

    private static let counter = Atomic<Int>(0)

    /// A socket path no other test uses.
    static func uniqueSocketPath(_ tag: String = "broker") -> String {
        let number = counter.add(1, ordering: .relaxed).newValue
        return "/tmp/lifebus-test-\(getpid())-\(tag)-\(number).sock"
    }

    /// `descriptorLimit` starts the broker under `prlimit --nofile=N:N` (a real `EMFILE` for connection drills);
    /// `wrapper` runs it under another program (e.g. strace and its arguments).
    init(arguments: [String] = [], socketPath: String? = nil, descriptorLimit: Int? = nil, wrapper: [String] = [])
        throws
    {
        self.socketPath = socketPath ?? Self.uniqueSocketPath()
        let folder = makeTemporaryFolder("lifebus-test")
        ownFolder = folder
        if let named = arguments.firstIndex(of: "--journal"), named + 1 < arguments.count {
            journalPath = arguments[named + 1]
        } else {
            let name = self.socketPath.split(separator: "/").last ?? "broker"
            journalPath = folder + "/\(name).journal.jsonl"
        }
        // The apps the broker starts save their state here, the test's own (as `lifebus run`'s brokers give theirs).
        let state = folder + "/state"
        mkdir(state, 0o700)
        let journal = arguments.contains("--journal") ? [] : ["--journal", journalPath]
        let limit = descriptorLimit.map { ["/usr/bin/prlimit", "--nofile=\($0):\($0)"] } ?? []
        let prefix = limit + wrapper
        // The broker stops with this test process even when that is killed (a crash, a SIGKILL, a closed pipe):
        // no test run leaves a broker behind. Not under a wrapper: the option wants the broker's own parent.
        let parent = prefix.isEmpty && !arguments.contains("--exit-with-parent")
            ? ["--exit-with-parent", "\(getpid())"] : []
        let command = ["--socket", self.socketPath] + journal + parent + arguments
        let marker = [
            SupervisionCheck.brokerMarker: self.socketPath,  // inherited by all it starts: the sweep's
            AppStateFolder.environmentVariable: state,
        ]
        let broker = ["\(ChildProcess.productsFolder)/lifebusd"] + command
        process = try prefix.first.map { program in
            try ChildProcess(program, prefix.dropFirst() + broker, environment: marker)
        } ?? ChildProcess("lifebusd", command, environment: marker)
        let line = process.stdout.readLine()
        guard line == "listening on \(self.socketPath)" else {
            let error = process.stderr.readAll(timeout: .seconds(2))
            throw FixtureError("lifebusd did not start: \(line ?? "nothing") / \(error)")
        }
        brokerPID = SupervisionCheck.brokerPID(under: process.pid)
    }

    deinit {
        if let brokerPID, process.isAlive { SupervisionCheck.expectNoZombieChildren(of: brokerPID) }
        if process.isAlive {
            process.signal(SIGKILL)
            process.wait()
        }
        SupervisionCheck.expectNoSurvivor(ofBrokerOn: socketPath)
        unlink(socketPath)
        unlink(socketPath + ".lock")
        unlink(socketPath + ".token")
        // What tests named after a socket of /tmp (an app's `SOCKET.feed` state file and the `.draft` beside it):
        // the path is this fixture's alone.
        if socketPath.hasPrefix("/tmp/"), let name = socketPath.split(separator: "/").last {
            for file in fileNames(in: "/tmp", endingWith: "") where file.hasPrefix(name + ".") {
                unlink("/tmp/" + file)
            }
        }
        FolderEntries.removeTree(ownFolder)
        guard journalPath.hasPrefix("/tmp/") else { return }  // never a path like /dev/full
        for suffix in ["", ".1", ".2", ".3"] { unlink(journalPath + suffix) }
    }

    /// The loopback TCP port from the broker's second line (`listening on tcp 127.0.0.1:PORT`); started with
    /// `--tcp-port`, read once.
    func tcpPort() throws -> Int {
        let line = process.stdout.readLine() ?? ""
        guard line.hasPrefix("listening on tcp 127.0.0.1:"), let port = Int(line.split(separator: ":").last ?? "")
        else { throw FixtureError("no TCP listening line: \(line)") }
        return port
    }

    /// The token a TCP peer presents: the content of `SOCKET.token` without its newline.
    func tcpToken() throws -> String {
        String(decoding: try readBytes(socketPath + ".token").prefix { $0 != 0x0A }, as: UTF8.self)
    }

    /// A new raw client connected to this broker.
    func connect() throws -> RawClient {
        try RawClient(path: socketPath)
    }

    /// Stops the broker with SIGTERM and returns its exit status.
    func stop() -> Int32 {
        process.signal(SIGTERM)
        return process.wait()
    }
}

/// Runs the `lifebus` CLI to completion; `timeout` bounds the wait for its output (printed at its exit when piped).
func runCLI(_ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(20)) throws
    -> (status: Int32, out: String, err: String)
{
    let child = try ChildProcess("lifebus", arguments, environment: environment)
    let out = child.stdout.readAll(timeout: timeout)
    let err = child.stderr.readAll(timeout: .seconds(5))
    return (child.wait(), out, err)
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
