import Testing

/// An app whose process takes 1.5 s to start (`sh -c 'sleep 1.5; exec lifebus subscribe …'`: its start-up, not a
/// wait of the test's), launched by a push whose `fire` is followed by an `advance`, against the real broker: the
/// `fire` hands its answer to the advance after 1 s, and the advance waits until the process has connected before it
/// moves virtual time, so the app is launched, answers the push and is suspended on every run. Before, virtual time
/// passed the app's 20 s launch budget while the process was still starting, and the broker killed it (`watchdog`):
/// a fuzz campaign under load stopped so (`did not connect within its launch budget`) where its model's apps connect
/// at once. The script runs in a folder of its own, so no broker or app it started may outlive it.
@Suite struct SlowStartLiveTests {
    @Test func anAdvanceAfterAPushWaitsForTheLaunchedProcessToConnect() throws {
        let manifest = """
            {"id": "com.example.Slow", "executable": "/bin/sh", "arguments": ["-c",
             "sleep 1.5; exec \(ChildProcess.productsFolder)/lifebus subscribe --id com.example.Slow"]}
            """
        let scenario = """
            name: a push launches an app slow to start, then the clock moves
            profiles: [ios13]
            apps:
              - manifest: slow.json
            steps:
              - fire: push com.example.Slow
              - advance: 30s
              - expect: {app: com.example.Slow, state: suspended, push: noData}
            """
        let script = """
            cat >slow.json <<'JSON'
            \(manifest)
            JSON
            cat >slow.yaml <<'YAML'
            \(scenario)
            YAML
            lifebus run slow.yaml
            echo "exit $?"
            exit 0
            """
        let run = try CopiedScript(named: "slow.sh", contents: script).run(timeout: .seconds(60))
        #expect(run.status == 0, "\(run.out)\n\(run.err)")
        #expect(run.leftOver.isEmpty, "processes left running: \(run.leftOver)")
        #expect(run.out.contains("exit 0\n"), "\(run.out)\n\(run.err)")
    }
}
