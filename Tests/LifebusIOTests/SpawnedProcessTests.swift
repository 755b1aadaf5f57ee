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
