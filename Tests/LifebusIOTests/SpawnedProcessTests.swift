import Glibc
import LifebusIO
import Testing

@Suite struct SpawnedProcessTests {
    @Test func anExitStatusIsReportedOnceAndTheLoopEndsClean() throws {
        let loop = try EventLoop()
        var terminations: [SpawnedProcess.Termination] = []
        let process = try SpawnedProcess.spawn(
            SpawnedProcess.Options(program: "/bin/sh", arguments: ["-c", "exit 7"]), loop: loop
        ) { terminations.append($0) }
        #expect(process.pid > 0)
        loop.run()
        #expect(terminations == [.exited(7)])
        #expect(process.termination == .exited(7))
        #expect(SpawnedProcess.Termination.exited(7).shellStatus == 7)
        try loop.close()
    }

    @Test func aSignalEndsTheChildAndIsReportedAsSuch() throws {
        let loop = try EventLoop()
        var termination: SpawnedProcess.Termination?
        let process = try SpawnedProcess.spawn(
            SpawnedProcess.Options(program: "sleep", arguments: ["60"]), loop: loop
        ) { termination = $0 }
        #expect(process.send(SIGKILL) == nil)
        loop.run()
        #expect(termination == .signalled(SIGKILL))
        #expect(termination?.shellStatus == 137)
        #expect(process.send(SIGKILL) == nil)  // after the exit: nothing is sent, nothing fails
        try loop.close()
    }

    @Test func aProgramThatDoesNotExistThrowsAndLeavesTheLoopClean() throws {
        let loop = try EventLoop()
        #expect(throws: UVError.self) {
            _ = try SpawnedProcess.spawn(
                SpawnedProcess.Options(program: "/nonexistent/lifebus-test-program"), loop: loop
            ) { _ in Issue.record("a process that never started exited") }
        }
        loop.run()  // runs the failed handle's close callback
        try loop.close()
    }

    @Test func theEnvironmentIsTheOneGivenAndAnOwnGroupIsANewGroup() throws {
        let loop = try EventLoop()
        var termination: SpawnedProcess.Termination?
        // Exits 0 only when it sees the variable and leads its own process group.
        let script = #"[ "$LIFEBUS_TEST" = yes ] && [ "$(cut -d' ' -f5 /proc/$$/stat)" = "$$" ]"#
        _ = try SpawnedProcess.spawn(
            SpawnedProcess.Options(
                program: "/bin/sh", arguments: ["-c", script],
                environment: ["LIFEBUS_TEST": "yes", "PATH": "/usr/bin:/bin"], ownProcessGroup: true
            ), loop: loop
        ) { termination = $0 }
        loop.run()
        #expect(termination == .exited(0))
        try loop.close()
    }
}

@Suite struct ProcessGroupKillTests {
    /// Starts `sh` that runs a `sleep` in the background, writes its pid to a file and waits; returns both pids.
    private func spawnShellWithChild(
        loop: EventLoop, ownGroup: Bool, onExit: @escaping (SpawnedProcess.Termination) -> Void
    ) throws -> (shell: Int32, child: Int32) {
        let file = "/tmp/lifebus-io-test-\(getpid())-\(ownGroup).pid"
        unlink(file)
        let script = "sleep 60 & echo $! > \(file).tmp; mv \(file).tmp \(file); wait"
        let shell = try SpawnedProcess.spawn(
            SpawnedProcess.Options(program: "/bin/sh", arguments: ["-c", script], ownProcessGroup: ownGroup),
            loop: loop, onExit: onExit)
        var child: Int32?
        for _ in 0..<2000 where child == nil {  // waits for the condition (the file), up to 10 s
            if let handle = fopen(file, "r") {
                var buffer = [CChar](repeating: 0, count: 32)
                if fgets(&buffer, 32, handle) != nil {
                    let text = String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) },
                                      as: UTF8.self)
                    child = Int32(text)
                }
                fclose(handle)
            } else {
                usleep(5_000)
            }
        }
        unlink(file)
        return (shell.pid, try #require(child))
    }

    private func isGone(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return true }
        guard let stat = fopen("/proc/\(pid)/stat", "r") else { return true }
        defer { fclose(stat) }
        var buffer = [CChar](repeating: 0, count: 512)
        guard fgets(&buffer, 512, stat) != nil else { return true }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let close = line.lastIndex(of: ")") else { return false }
        return line[line.index(close, offsetBy: 2)] == "Z"
    }

    @Test func aKillReachesTheGroupTheProcessLeads() throws {
        let loop = try EventLoop()
        var ended: SpawnedProcess.Termination?
        let (shell, child) = try spawnShellWithChild(loop: loop, ownGroup: true) { ended = $0 }
        #expect(ProcessSignal.kill(processOrItsGroup: shell) == nil)
        loop.run()
        #expect(ended == .signalled(SIGKILL))
        var gone = false
        for _ in 0..<1000 where !gone {
            gone = isGone(child)
            if !gone { usleep(5_000) }
        }
        #expect(gone, "the leader's child died with its group")
        try loop.close()
    }

    @Test func aProcessThatLeadsNoGroupIsKilledAloneNeverItsGroup() throws {
        let loop = try EventLoop()
        var ended: SpawnedProcess.Termination?
        let (shell, child) = try spawnShellWithChild(loop: loop, ownGroup: false) { ended = $0 }
        #expect(ProcessSignal.kill(processOrItsGroup: shell) == nil, "our own group is never signalled")
        loop.run()
        #expect(ended == .signalled(SIGKILL))
        #expect(!isGone(child), "its child was not signalled")
        kill(child, SIGKILL)
        try loop.close()
    }
}
