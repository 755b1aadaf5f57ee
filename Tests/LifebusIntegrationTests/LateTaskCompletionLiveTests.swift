import Testing

/// A `BGTask` an app completes from work its launch handler starts, after it answered `performBackgroundTask` (as
/// FeedReader does, and Apple's `setTaskCompleted` allows at any time before expiry), against the real broker: the
/// step that launched the task ends once the app has completed it, so the next step meets the device a well-behaved
/// app leaves — the app suspended, a critical memory warning killing it (`jetsam`) — on every run. Before, the step
/// after `fire bgtask` came while the task still ran: the warning only warned the app, and a fuzz campaign's model
/// (the app relaunched) and the device (the app alive) parted, its next `fire bgtask` refused (`unknownTask`).
///
/// The app is `lifebus subscribe --task`, whose `performBackgroundTask` hook works 300 ms (`sleep 0.3`: the app's
/// work, well within the 1 s a step waits) before the task is completed; the runner waits on the journal, not a
/// clock. Every run is a script in a folder of its own, so no broker or app it started may outlive it.
@Suite struct LateTaskCompletionLiveTests {
    private static let app = "com.example.LateTask"
    private static let task = "com.example.LateTask.refresh"

    /// `scenario`'s steps under ios13, run `runs` times by `lifebus run` with the late-completing app installed;
    /// the output has `exit S` after each run.
    private func run(steps: String, runs: Int) throws -> (status: Int32, out: String, err: String, leftOver: [String]) {
        let manifest = """
            {"id": "\(Self.app)", "executable": "\(ChildProcess.productsFolder)/lifebus",
             "arguments": ["subscribe", "--id", "\(Self.app)", "--task", "\(Self.task)",
                           "--on", "performBackgroundTask=sleep 0.3"],
             "backgroundTaskIdentifiers": ["\(Self.task)"]}
            """
        let scenario = """
            name: a task completed after its launch handler answered
            profiles: [ios13]
            apps:
              - manifest: late.json
            steps:
            \(steps)
            """
        let script = """
            cat >late.json <<'JSON'
            \(manifest)
            JSON
            cat >late.yaml <<'YAML'
            \(scenario)
            YAML
            for run in $(seq \(runs)); do lifebus run late.yaml; echo "exit $?"; done
            exit 0
            """
        return try CopiedScript(named: "late.sh", contents: script).run(timeout: .seconds(60))
    }

    /// What no run may print: a broker that broke its own invariants or crashed, or a process left behind.
    private func expectClean(_ run: (status: Int32, out: String, err: String, leftOver: [String])) {
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        #expect(!run.err.contains("Assertion failed") && !run.err.contains("crashed"), "\(run.err)")
        #expect(run.leftOver.isEmpty, "processes left running: \(run.leftOver)")
    }

    /// The fuzz campaign's steps: the task launched for a suspended app, then a critical memory warning. The app
    /// completed its task before the warning, so it was suspended and is killed, `jetsam`.
    @Test func aCriticalWarningAfterATaskLaunchMeetsTheAppThatCompletedIt() throws {
        let run = try run(steps: """
              - launch: \(Self.app)
              - fire: home
              - fire: bgtask \(Self.app) \(Self.task)
              - fire: memory-warning --level critical
              - expect: {state: notRunning, task: {identifier: \(Self.task), outcome: completed}}
            """, runs: 3)
        expectClean(run)
        let exits = run.out.split(separator: "\n").filter { $0.hasPrefix("exit ") }
        #expect(exits == ["exit 0", "exit 0", "exit 0"], "\(run.out)\n\(run.err)")
    }

    /// An `expect` right after the launch sees the task completed, the app suspended.
    @Test func anExpectAfterATaskLaunchSeesItCompleted() throws {
        let run = try run(steps: """
              - launch: \(Self.app)
              - fire: home
              - fire: bgtask \(Self.app) \(Self.task)
              - expect: {state: suspended, task: {identifier: \(Self.task), outcome: completed}}
            """, runs: 1)
        expectClean(run)
        #expect(run.out.contains("exit 0\n"), "\(run.out)\n\(run.err)")
    }
}
