import Glibc
import LifebusSupervision
import Testing

/// `lifebusd --exit-with-parent`, which the programs that start a private broker pass: a `lifebus mcp --start-broker`
/// killed by SIGKILL (no chance to stop its broker) takes its broker with it, and the broker stops as on SIGTERM.
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
        defer { Self.removeLeftFolder(folder) }
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

    /// What a killed launcher leaves of its broker's temporary folder: the journal and the socket's lock file.
    private static func removeLeftFolder(_ folder: String) {
        for name in fileNames(in: folder, endingWith: "") where name != "." && name != ".." {
            unlink("\(folder)/\(name)")
        }
        rmdir(folder)
    }
}
