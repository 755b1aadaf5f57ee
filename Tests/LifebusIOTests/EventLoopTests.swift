import Glibc
import LifebusIO
import Synchronization
import Testing

@Suite struct EventLoopTests {
    @Test func aFreshLoopClosesClean() throws {
        let loop = try EventLoop()
        loop.run()
        try loop.close()
    }

    @Test func closingWithAnOpenHandleThrowsBusyNamingItAndCanBeRetried() throws {
        let loop = try EventLoop()
        let timer = try LoopTimer(loop: loop)
        #expect {
            try loop.close()
        } throws: { error in
            let error = try #require(error as? UVError)
            return error.isBusy && error.function.contains("timer")
        }
        timer.close()
        try loop.close()
    }

    @Test func executorWorkFromFourThreadsRunsOnTheLoopThreadInPerThreadOrder() throws {
        final class Tally {
            var count = 0
            var lastSequence = [Int](repeating: -1, count: 4)
            var outOfOrder = 0
            var offLoop = 0
        }
        let loop = try EventLoop()
        let loopThread = pthread_self()
        let tally = LoopBound(Tally(), loop: loop)
        let executor = loop.executor
        let perThread = 2_500
        let threads = (0..<4).map { thread in
            TestThread {
                for sequence in 0..<perThread {
                    executor.execute {
                        let tally = tally.value
                        if pthread_equal(pthread_self(), loopThread) == 0 { tally.offLoop += 1 }
                        if tally.lastSequence[thread] != sequence - 1 { tally.outOfOrder += 1 }
                        tally.lastSequence[thread] = sequence
                        tally.count += 1
                    }
                }
            }
        }
        try loop.run(until: "10,000 executor calls") { tally.value.count == 4 * perThread }
        threads.forEach { $0.join() }
        #expect(tally.value.offLoop == 0)
        #expect(tally.value.outOfOrder == 0)
        try loop.close()
    }

    @Test func executorWorkAfterCloseIsDroppedAndReleased() throws {
        final class Token: Sendable {}
        let loop = try EventLoop()
        let executor = loop.executor
        try loop.close()
        weak var weakToken: Token?
        let ran = Atomic<Bool>(false)
        do {
            let token = Token()
            weakToken = token
            executor.execute {
                _ = token
                ran.store(true, ordering: .relaxed)
            }
        }
        #expect(weakToken == nil)
        #expect(ran.load(ordering: .relaxed) == false)
    }

    @Test func executorStopLoopMakesRunReturn() throws {
        let loop = try EventLoop()
        let timer = try LoopTimer(loop: loop)
        timer.start(after: .seconds(60)) { Issue.record("run() did not return on stopLoop") }
        let executor = loop.executor
        let thread = TestThread { executor.stopLoop() }
        loop.run()
        thread.join()
        timer.close()
        try loop.close()
    }

    @Test func monotonicClockAdvances() {
        let first = EventLoop.monotonicNanoseconds()
        let second = EventLoop.monotonicNanoseconds()
        #expect(second >= first)
    }
}
