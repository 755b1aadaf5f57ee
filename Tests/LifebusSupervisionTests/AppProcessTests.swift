import Glibc
import LifebusContainment
import LifebusIO
import LifebusSupervision
import LifebusTestFiles
import Testing

/// Real processes started by `AppProcess`: their group, environment, log, exits, kills, freezing. Serialized: the
/// children of the other tests would show in the zombie checks.
@Suite(.serialized) struct AppProcessTests {
    /// Launches `/bin/sh -c script` as app `com.test.app` with its log in `folder`.
    private func launch(
        _ script: String, in folder: TemporaryFolder, loop: EventLoop, onExit: @escaping (ProcessExit) -> Void
    ) throws -> AppProcess {
        let request = LaunchRequest(
            appID: "com.test.app", executable: "/bin/sh", arguments: ["-c", script],
            environment: ["APP_SETTING": "from-manifest"], workingDirectory: folder.path,
            socketPath: folder.file("bus.sock"), logPath: folder.file("app.log"))
        return try AppProcess.launch(request, loop: loop, onExit: onExit)
    }

    /// Shell text starting `sleep 60` in the background and publishing its pid in `pidFile` atomically.
    private func sleeping(pidFile: String) -> String {
        "sleep 60 & echo $! > \(pidFile).tmp; mv \(pidFile).tmp \(pidFile)"
    }

    @Test func theAppRunsInItsOwnGroupWithItsEnvironmentAndLogsBothStreams() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try withLoop { loop in
            var exits: [ProcessExit] = []
            let script = #"echo "$LIFEBUS_APP_ID $LIFEBUS_SOCKET $APP_SETTING "#
                + #"$(cut -d' ' -f5 /proc/$$/stat) $$ $PWD"; echo oops >&2; exit 3"#
            let app = try launch(script, in: folder, loop: loop) { exits.append($0) }
            try loop.run(until: "the exit") { !exits.isEmpty }
            #expect(exits.count == 1)
            #expect(exits.first?.termination == .exited(3))
            #expect(exits.first?.killReason == nil)
            #expect(app.exit == exits.first)
            let log = folder.read("app.log") ?? ""
            let socket = folder.file("bus.sock")
            #expect(log == "com.test.app \(socket) from-manifest \(app.pid) \(app.pid) \(folder.path)\noops\n")
            #expect(!unreapedChildren().contains(app.pid))
        }
    }

    @Test func anAppIgnoringSIGTERMIsKilledWithItsWholeGroup() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try withLoop { loop in
            var exits: [ProcessExit] = []
            let child = folder.file("child.pid")
            let app = try launch("trap '' TERM; \(sleeping(pidFile: child)); wait; wait",
                                 in: folder, loop: loop) { exits.append($0) }
            try loop.run(until: "the child's pid") { pid(inFile: child) != nil }
            let sleeper = try #require(pid(inFile: child))
            let sleeperHandle = try ProcessDescriptor.open(sleeper)
            app.signal(SIGTERM)  // ignored by the shell; the sleep dies of it, which the shell then waits through
            app.kill(.watchdog)
            try loop.run(until: "the exit") { !exits.isEmpty }
            #expect(exits.map(\.termination) == [.signalled(SIGKILL)])
            #expect(exits.first?.killReason == .watchdog)
            try loop.run(until: "the group's other process ends") { sleeperHandle.hasExited }
            app.kill(.jetsam)  // after the exit: nothing is sent, nothing reported again
            loop.runOnce(wait: false)
            #expect(exits.count == 1)
            #expect(!unreapedChildren().contains(app.pid))
        }
    }

    @Test func aGrandchildDiesWithTheGroupWhenTheAppExits() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try withLoop { loop in
            var exits: [ProcessExit] = []
            let child = folder.file("grandchild.pid")
            // The shell starts a sleep that outlives it, waits until the test holds a pidfd on it, and exits 0.
            mkfifo(folder.file("go"), 0o600)
            let app = try launch("\(sleeping(pidFile: child)); read go < \(folder.file("go"))",
                                 in: folder, loop: loop) { exits.append($0) }
            try loop.run(until: "the grandchild's pid") { pid(inFile: child) != nil }
            let grandchild = try ProcessDescriptor.open(try #require(pid(inFile: child)))
            try loop.release(fifo: folder.file("go"))  // the shell reads the line and exits
            try loop.run(until: "the exit") { !exits.isEmpty }
            #expect(exits.first?.termination == .exited(0))
            #expect(exits.first?.strayProcessesKilled == 1)
            try loop.run(until: "the grandchild ends") { grandchild.hasExited }
            #expect(!unreapedChildren().contains(app.pid))
        }
    }

    @Test func freezingStopsTheWholeGroupAndThawingResumesIt() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try withLoop { loop in
            var exits: [ProcessExit] = []
            let child = folder.file("child.pid")
            let app = try launch("\(sleeping(pidFile: child)); wait",
                                 in: folder, loop: loop) { exits.append($0) }
            try loop.run(until: "the child's pid") { pid(inFile: child) != nil }
            let members = [app.pid, try #require(pid(inFile: child))]
            app.freeze()
            #expect(app.isFrozen)
            try loop.run(until: "both stopped") { members.allSatisfy { ProcStat.read($0)?.isStopped == true } }
            app.thaw()
            #expect(!app.isFrozen)
            try loop.run(until: "both running") { members.allSatisfy { ProcStat.read($0)?.isStopped == false } }
            app.freeze()
            app.kill(.jetsam)  // a frozen app is killed all the same
            try loop.run(until: "the exit") { !exits.isEmpty }
            #expect(exits.first?.termination == .signalled(SIGKILL))
            #expect(exits.first?.killReason == .jetsam)
            #expect(!app.isFrozen)
        }
    }

    @Test(arguments: [("missing", ENOENT), ("not-executable", EACCES), ("folder", EACCES)])
    func aFailedLaunchNamesThePathAndErrnoAndLeavesNothingBehind(kind: String, code: Int32) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let executable: String
        switch kind {
        case "missing": executable = folder.file("no-such-program")
        case "not-executable": executable = folder.write("script.sh", "#!/bin/sh\nexit 0\n", mode: 0o644)
        default: executable = folder.path
        }
        try withLoop { loop in
            let childrenBefore = unreapedChildren()
            let request = LaunchRequest(appID: "com.test.app", executable: executable, socketPath: "/tmp/x.sock",
                                        logPath: folder.file("app.log"))
            let failure = #expect(throws: LaunchFailure.self) {
                _ = try AppProcess.launch(request, loop: loop) { _ in Issue.record("a process never started exited") }
            }
            #expect(failure?.path == executable)
            #expect(failure?.code == code)
            #expect(failure?.description.contains(executable) == true)
            #expect(failure?.description.contains(String(cString: strerror(code))) == true)
            #expect(descriptorTargets().allSatisfy { !$0.hasPrefix(folder.path) })  // the log is not left open
            // No child was started for it (other suites start and reap children meanwhile: only new ones count).
            let started = unreapedChildren().subtracting(childrenBefore)
            #expect(started.allSatisfy { !(readText("/proc/\($0)/cmdline") ?? "").contains(executable) })
            loop.run()  // runs a failed handle's close callback; withLoop's close throws EBUSY if one was left open
        }
    }

    /// A program that passes the checks but cannot be executed (its interpreter is missing) fails in `execve`,
    /// after `setpriv` (which gives the app its parent-death signal) started: the app exits 127 at once and its log
    /// names the path and the error; nothing is left open.
    @Test func anExecFailureAfterTheChecksEndsTheAppWith127AndALogLine() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let executable = folder.write("script.sh", "#!/no/such/shell\nexit 0\n", mode: 0o755)
        try withLoop { loop in
            var exits: [ProcessExit] = []
            let request = LaunchRequest(appID: "com.test.app", executable: executable, socketPath: "/tmp/x.sock",
                                        logPath: folder.file("app.log"))
            _ = try AppProcess.launch(request, loop: loop) { exits.append($0) }
            try loop.run(until: "the exit") { !exits.isEmpty }
            #expect(exits.first?.termination == .exited(127))
            let log = folder.read("app.log") ?? ""
            #expect(log.contains(executable) && log.contains(String(cString: strerror(ENOENT))), "\(log)")
            #expect(descriptorTargets().allSatisfy { !$0.hasPrefix(folder.path) })
        }
    }

    /// What this process's descriptors name (`/proc/self/fd/*` resolved).
    private func descriptorTargets() -> [String] {
        var targets: [String] = []
        for name in FolderEntries.names(in: "/proc/self/fd") ?? [] {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
            let length = readlink("/proc/self/fd/\(name)", &buffer, buffer.count - 1)
            guard length > 0 else { continue }
            targets.append(String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return targets
    }

    @Test func aRunningAppKeepsAppendingToItsLogAcrossARotation() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let files = AppLogFiles(folder: folder.path, maxBytes: 4)
        try withLoop { loop in
            var exits: [ProcessExit] = []
            let go = folder.file("go")
            mkfifo(go, 0o600)
            let request = LaunchRequest(
                appID: "a", executable: "/bin/sh", arguments: ["-c", "echo before; read line < \(go); echo after"],
                socketPath: "/tmp/x.sock", logPath: try files.prepare(for: "a"))
            _ = try AppProcess.launch(request, loop: loop) { exits.append($0) }
            try loop.run(until: "the first line") { folder.read("a.log") == "before\n" }
            #expect(try files.rotateIfOver(for: "a"))
            try loop.release(fifo: go)
            try loop.run(until: "the exit") { !exits.isEmpty }
            #expect(folder.read("a.log.1") == "before\n")
            #expect(folder.read("a.log") == "after\n")  // O_APPEND: at the new end, no hole
        }
    }
}
