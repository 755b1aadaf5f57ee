import Glibc
import LifebusIO
import Testing

@Suite struct LoopTimerTests {
    @Test func aOneShotTimerFiresOnceAndRunReturnsWhenItIsDone() throws {
        let loop = try EventLoop()
        let timer = try LoopTimer(loop: loop)
        var fired = 0
        timer.start(after: .milliseconds(1)) { fired += 1 }
        #expect(timer.isActive)
        loop.run()
        #expect(fired == 1)
        #expect(!timer.isActive)
        timer.close()
        try loop.close()
    }

    @Test func aRepeatingTimerRepeatsUntilStopped() throws {
        let loop = try EventLoop()
        let timer = try LoopTimer(loop: loop)
        var fired = 0
        timer.start(after: .milliseconds(1), repeating: .milliseconds(1)) {
            fired += 1
            if fired == 3 { timer.stop() }
        }
        loop.run()
        #expect(fired == 3)
        timer.close()
        try loop.close()
    }

    /// `restart` re-arms with the handler last given, once (even after a repeating start), and may re-arm from
    /// within that handler.
    @Test func aRestartedTimerRunsItsLastHandlerOnceMore() throws {
        let loop = try EventLoop()
        let timer = try LoopTimer(loop: loop)
        var fired: [String] = []
        timer.start(after: .milliseconds(1), repeating: .milliseconds(1)) { fired.append("first") }
        timer.start(after: .milliseconds(1), repeating: .milliseconds(1)) {
            fired.append("last")
            if fired.count < 3 { timer.restart(afterMilliseconds: 0) }
        }
        timer.restart(afterMilliseconds: 1)
        loop.run()
        #expect(fired == ["last", "last", "last"])
        #expect(!timer.isActive)
        timer.close()
        try loop.close()
    }

    @Test func aStoppedOrClosedTimerDoesNotFire() throws {
        let loop = try EventLoop()
        let stopped = try LoopTimer(loop: loop)
        let closed = try LoopTimer(loop: loop)
        let witness = try LoopTimer(loop: loop)
        var firedAfterStop = 0
        var firedAfterClose = 0
        stopped.start(after: .milliseconds(1)) { firedAfterStop += 1 }
        closed.start(after: .milliseconds(1)) { firedAfterClose += 1 }
        stopped.stop()
        closed.close()
        closed.close()
        witness.start(after: .milliseconds(30)) {}
        loop.run()
        #expect(firedAfterStop == 0)
        #expect(firedAfterClose == 0)
        #expect(!closed.isActive)

        stopped.start(after: .milliseconds(1)) { firedAfterStop += 1 }
        loop.run()
        #expect(firedAfterStop == 1)
        stopped.close()
        witness.close()
        try loop.close()
    }

    @Test func anUnreferencedTimerDoesNotKeepTheLoopRunning() throws {
        let loop = try EventLoop()
        let timer = try LoopTimer(loop: loop)
        var fired = false
        timer.start(after: .seconds(60)) { fired = true }
        timer.keepsLoopAlive = false
        loop.run()
        #expect(!fired)
        #expect(timer.isActive)
        timer.close()
        try loop.close()
    }
}

@Suite struct SignalWatcherTests {
    @Test func aWatcherReceivesARaisedSignalOnTheLoop() throws {
        let loop = try EventLoop()
        var received: [Int32] = []
        let watcher = try SignalWatcher(loop: loop, signal: SIGUSR1) { received.append($0) }
        #expect(ProcessSignal.send(SIGUSR1, to: getpid()) == nil)
        try loop.run(until: "SIGUSR1") { !received.isEmpty }
        #expect(received == [SIGUSR1])
        watcher.close()
        try loop.close()
    }

    @Test func sendingToAMissingProcessReportsNoSuchProcess() {
        let error = ProcessSignal.send(0, to: Int32.max)
        #expect(error?.isNoSuchProcess == true)
        #expect(error?.description == "uv_kill: ESRCH (no such process)")
    }
}
