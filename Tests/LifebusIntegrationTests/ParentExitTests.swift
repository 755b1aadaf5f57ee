import Glibc
import LifebusContainment
import LifebusIO
import Testing

/// `lifebusd --exit-with-parent PID`, which the programs that start a private broker pass with their own pid: a
/// `lifebus mcp --start-broker` killed by SIGKILL (no chance to stop its broker) takes its broker with it, and the
/// broker stops as on SIGTERM; a broker whose parent is gone before it could watch it does not start at all.
@Suite struct ParentExitTests {
    @Test func aPrivateBrokerStopsCleanlyWhenItsLauncherIsKilled() throws {
        let launcher = try ChildProcess("lifebus", ["mcp", "--start-broker"], holdingStdinOpen: true)
        // The launcher's MCP server starts once its broker listens; the broker's "listening" line is on its stderr.
        var socketPath: String?
        while socketPath == nil, let line = launcher.stderr.readLine(timeout: .seconds(20)) {
            if line.hasPrefix("listening on ") { socketPath = String(line.dropFirst("listening on ".count)) }
        }
        let socket = try #require(socketPath, "the private broker listened")
        let folder = String(socket[..<socket.lastIndex(of: "/")!])
        defer { FolderEntries.removeTree(folder) }  // what the killed launcher leaves: journal, lock, apps' state
        let brokerPid = try #require(SupervisionCheck.children(of: launcher.pid).first, "the launcher started a broker")
        #expect(readFile("/proc/\(brokerPid)/comm") == "lifebusd\n")
        // Exact: an unreaped child of a process that is still running.
        let broker = try ProcessDescriptor.open(brokerPid)
        defer { broker.send(SIGKILL) }  // a broker that outlived the check goes; after its exit this does nothing

        launcher.signal(SIGKILL)
        #expect(launcher.wait() == 128 + SIGKILL)
        var exit = pollfd(fd: broker.descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&exit, 1, 10_000) == 1, "the broker exited after its launcher")
        #expect(access(socket, F_OK) != 0, "it stopped cleanly: its socket is removed")
    }

    @Test func aDaemonWhoseParentHasAlreadyExitedExitsAtOnce() throws {
        let parent = try ChildProcess("/bin/true", [])
        #expect(parent.wait() == 0)
        // Its pid may be reused by the time the daemon looks (then not its parent): either refusal is right.
        try Self.expectRefusal(parentPid: parent.pid, sayingOneOf: ["has exited", "is not (or no longer) the parent"])
    }

    /// A pid that is not the daemon's parent: what a launcher's pid names once the launcher is gone and the pid reused.
    @Test func aDaemonWhoseNamedParentIsAnotherProcessExitsAtOnce() throws {
        try Self.expectRefusal(parentPid: getppid(), sayingOneOf: ["is not (or no longer) the parent"])
    }

    @Test func theParentPidIsRequired() throws {
        let missing = try ChildProcess("lifebusd", ["--exit-with-parent"])
        #expect(missing.wait() == 2)
        let zero = try ChildProcess("lifebusd", ["--exit-with-parent", "0"])
        #expect(zero.wait() == 2)
    }

    /// Starts `lifebusd --exit-with-parent parentPid`, which must exit with status 1 within seconds, saying one of
    /// `reasons`, before it makes its socket.
    private static func expectRefusal(parentPid: Int32, sayingOneOf reasons: [String]) throws {
        let folder = makeTemporaryFolder("lifebus-parent-exit")
        defer { FolderEntries.removeTree(folder) }
        let socket = "\(folder)/lifebus.sock"
        let arguments = [
            "--socket", socket, "--journal", "\(folder)/journal.jsonl", "--exit-with-parent", "\(parentPid)",
        ]
        let daemon = try ChildProcess("lifebusd", arguments)
        let exited = try ProcessDescriptor.open(daemon.pid)  // exact: our unreaped child
        var exit = pollfd(fd: exited.descriptor, events: Int16(POLLIN), revents: 0)
        try #require(poll(&exit, 1, 10_000) == 1, "the daemon exited at once")  // else its deinit kills it
        #expect(daemon.wait() == 1)
        let said = daemon.stderr.readLine(timeout: .seconds(5)) ?? ""
        #expect(reasons.contains { said.contains("--exit-with-parent \(parentPid)) \($0)") }, "it said why: \(said)")
        #expect(access(socket, F_OK) != 0, "it made no socket")
    }
}
