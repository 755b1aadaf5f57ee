import Glibc
import LifebusIO
import Testing

/// Ctrl-C (SIGINT) and SIGTERM stop `lifebus run` — a fuzz campaign of 100,000 seeds here — as they stop any
/// command, and its private broker goes with it. `lifebus` hands the run to `lifebus-run` with `execv`, which keeps
/// the signal mask of the calling thread: from a thread of the concurrency pool (every asynchronous signal blocked)
/// the campaign ignored both and only SIGKILL ended it.
@Suite struct RunSignalsTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func aCampaignStopsOnTheSignalAndTakesItsBrokerWithIt(_ signal: Int32) throws {
        let folder = makeTemporaryFolder("lifebus-run-signals")
        defer { FolderEntries.removeTree(folder) }
        let manifest = "\(TranscriptReplayTests.repositoryRoot)/Examples/manifests/deepthoughts.json"
        let run = try ChildProcess("lifebus", [
            "run", "--seeds", "1..100000", "--steps", "30", "--app", manifest, "--profile", "ios7",
            "--report", folder + "/report.json",
        ])
        var reaped = false
        defer {
            if !reaped {
                run.signal(SIGKILL)
                run.wait()
            }
        }
        // Under way once one of its private brokers runs (each seed's run starts one; the broker's
        // `--exit-with-parent` names the run's pid).
        let started = Deadline(after: .seconds(60))
        var seen: [pid_t] = []
        while seen.isEmpty, !started.hasPassed {
            seen = brokers(of: run.pid)
            if seen.isEmpty { usleep(10_000) }
        }
        try #require(!seen.isEmpty, "the run started no broker")

        run.signal(signal)
        // Reaped here with WNOHANG: the run must end by itself within the deadline.
        let stopped = Deadline(after: .seconds(20))
        var status: Int32 = 0
        while !reaped, !stopped.hasPassed {
            reaped = waitpid(run.pid, &status, WNOHANG) == run.pid
            if !reaped { usleep(10_000) }
        }
        #expect(reaped, "lifebus run ignored signal \(signal)")
        let gone = Deadline(after: .seconds(20))
        while !brokers(of: run.pid).isEmpty, !gone.hasPassed { usleep(10_000) }
        #expect(brokers(of: run.pid).isEmpty, "a broker outlived the run")
    }

    /// The `lifebusd` processes whose `--exit-with-parent` is `pid`.
    private func brokers(of pid: pid_t) -> [pid_t] {
        (FolderEntries.names(in: "/proc") ?? []).compactMap { Int32($0) }.filter { candidate in
            guard let command = readFile("/proc/\(candidate)/cmdline") else { return false }
            let words = command.split(separator: "\0").map(String.init)
            guard words.first?.hasSuffix("lifebusd") == true, let flag = words.firstIndex(of: "--exit-with-parent"),
                  flag + 1 < words.count else { return false }
            return words[flag + 1] == String(pid)
        }
    }
}
