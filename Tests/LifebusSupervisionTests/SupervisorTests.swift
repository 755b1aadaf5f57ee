import Glibc
import LifebusContainment
import LifebusIO
import LifebusSupervision
import LifebusTestFiles
import Testing

/// The supervisor as the broker machine drives it: commands in, reports out, with real processes.
@Suite(.serialized) struct SupervisorTests {
    /// A manifest for `/bin/sh -c script`.
    private func shell(_ id: String, _ script: String) -> AppManifest {
        AppManifest(id: id, executable: "/bin/sh", arguments: ["-c", script])
    }

    @Test func spawnKillAndRefusalsAreReportedOnceEach() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try withLoop { loop in
            var reports: [SupervisorReport] = []
            let supervisor = try Supervisor(
                loop: loop, socketPath: folder.file("bus.sock"), logs: AppLogFiles(folder: folder.file("logs")),
                samplePeriod: nil
            ) { reports.append($0) }
            supervisor.perform(.spawn(shell("a", "echo started; exec sleep 60")))
            let pid = try #require(supervisor.pid(of: "a"))
            #expect(reports == [.spawned(appID: "a", pid: pid)])
            supervisor.perform(.spawn(shell("a", "exit 9")))  // one process per app id
            supervisor.perform(.thaw(appID: "nobody"))
            #expect(reports.dropFirst() == [
                .refused(.spawn(shell("a", "exit 9")), .alreadyRunning), .refused(.thaw(appID: "nobody"), .notRunning),
            ])
            try loop.run(until: "the app's first line") { folder.read("logs/a.log") == "started\n" }
            supervisor.perform(.freeze(appID: "a"))
            #expect(supervisor.isFrozen("a"))
            supervisor.perform(.kill(appID: "a", reason: .watchdog))
            try loop.run(until: "the exit") { reports.count == 4 }
            guard case .exited(let exit) = reports.last else { throw TimedOut(what: "an exit report") }
            #expect(exit.pid == pid && exit.killReason == .watchdog && exit.termination == .signalled(SIGKILL))
            #expect(supervisor.pid(of: "a") == nil)
            supervisor.perform(.kill(appID: "a", reason: .jetsam))
            #expect(reports.last == .refused(.kill(appID: "a", reason: .jetsam), .notRunning))
            supervisor.close()
        }
    }

    @Test func aFailedSpawnIsReportedAndCloseKillsWhatRuns() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let gone = folder.write("gone.sh", "#!/bin/sh\n", mode: 0o755)
        try withLoop { loop in
            var reports: [SupervisorReport] = []
            let supervisor = try Supervisor(
                loop: loop, socketPath: folder.file("bus.sock"), logs: AppLogFiles(folder: folder.path),
                samplePeriod: nil
            ) { reports.append($0) }
            unlink(gone)  // uninstalled behind the broker's back after the manifest was read
            supervisor.perform(.spawn(AppManifest(id: "gone", executable: gone)))
            guard case .launchFailed(let failure) = reports.first else { throw TimedOut(what: "a launch failure") }
            #expect(failure.path == gone && failure.code == ENOENT)
            supervisor.perform(.spawn(shell("b", "exec sleep 60")))
            supervisor.close()
            try loop.run(until: "b's exit") { reports.count == 3 }
            guard case .exited(let exit) = reports.last else { throw TimedOut(what: "an exit report") }
            #expect(exit.appID == "b" && exit.killReason == .shutdown)
        }
    }

    @Test func runningAppsAreSampledAndAnAttachedAppIsKilledThroughItsHold() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try withLoop { loop in
            var reports: [SupervisorReport] = []
            var accepted: Connection?
            let listener = try Listener.listen(on: .unix(folder.file("bus.sock")), loop: loop) { accepted = $0 }
            defer { listener.close() }
            let supervisor = try Supervisor(
                loop: loop, socketPath: folder.file("bus.sock"), logs: AppLogFiles(folder: folder.path),
                samplePeriod: .milliseconds(10)
            ) { reports.append($0) }
            supervisor.perform(.spawn(shell("spawned", "exec sleep 60")))
            var clientEnd: SpawnedProcess.Termination?
            let client = try startConnectingClient(folder.file("bus.sock"), loop: loop) { clientEnd = $0 }
            try loop.run(until: "the connection") { accepted != nil }
            let connection = try #require(accepted)
            defer { connection.close() }
            let socket = try #require(connection.fileDescriptor)
            #expect(supervisor.attach(appID: "byhand", socket: socket, pid: client.pid))
            #expect(supervisor.pid(of: "byhand") == client.pid)
            supervisor.perform(.spawn(shell("byhand", "exit 0")))
            #expect(reports.last == .refused(.spawn(shell("byhand", "exit 0")), .alreadyRunning))
            supervisor.perform(.freeze(appID: "byhand"))
            #expect(reports.last == .refused(.freeze(appID: "byhand"), .notSpawned))

            try loop.run(until: "a memory report with both apps") {
                guard case .memory(let samples) = reports.last else { return false }
                return samples.map(\.appID) == ["spawned", "byhand"] && samples.allSatisfy { $0.residentBytes > 0 }
            }
            #expect(!supervisor.killHeld("byhand", pid: client.pid + 1), "a pid the hold is not for: not signalled")
            #expect(supervisor.killHeld("byhand", pid: client.pid))
            try loop.run(until: "the attached app's end") { clientEnd != nil }
            #expect(clientEnd == .signalled(SIGKILL))
            supervisor.detach(appID: "byhand")
            supervisor.close()
            try loop.run(until: "the spawned app's exit") { supervisor.pid(of: "spawned") == nil }
        }
    }
}
