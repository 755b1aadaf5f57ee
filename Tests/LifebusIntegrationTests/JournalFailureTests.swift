import Glibc
import LifebusJSON
import Testing

/// A journal that cannot be written: `fire` and `mark` fail with `lifebus.JournalUnavailable` instead of being
/// answered as recorded, the failure is logged once, and the broker recovers when writes succeed again.
@Suite struct JournalFailureTests {
    /// Sets the broker's file size limit with util-linux's `prlimit` (the soft limit only, so it can be raised again
    /// without privileges; glibc's prlimit(2) wrapper is not visible to Swift).
    private func limitFileSize(of pid: pid_t, to bytes: Int?) throws {
        let limit = bytes.map(String.init) ?? "unlimited"
        let child = try ChildProcess("/usr/bin/prlimit", ["--pid", "\(pid)", "--fsize=\(limit):"])
        #expect(child.waitForExit() == 0, "prlimit: \(child.stderr.readAll(timeout: .seconds(2)))")
    }

    /// Sends `fire` with `params`, has the app answer up to `callback`; returns the fire's answer.
    private func fire(_ params: String, controller: RawPeer, app: RawPeer, callback: String) -> JSONValue? {
        controller.client.sendLine(#"{"jsonrpc":"2.0","id":"fire","method":"fire","params":\#(params)}"#)
        #expect(app.answer(until: callback))
        return controller.pump { $0["id"]?.stringValue == "fire" }
    }

    @Test func aJournalOnDevFullFailsFireAndMarkWithANamedErrorAndLogsOnce() throws {
        let broker = try BrokerFixture(arguments: ["--journal", "/dev/full"])
        let controller = try RawPeer.controller(broker)
        for _ in 0..<2 {
            let answer = controller.call("fire", #"{"event":"sleep"}"#)
            #expect(answer?["error"]?["code"]?.int64Value == -32013, "\(answer?.jsonText ?? "nothing")")
            #expect(answer?["error"]?["data"]?["name"]?.stringValue == "lifebus.JournalUnavailable")
            #expect(answer?["error"]?["data"]?["errno"]?.int64Value == Int64(ENOSPC))
        }
        let (app, _) = try RawPeer.app(broker, id: "com.example.Unrecorded")
        let mark = app.call("mark", #"{"name":"lost"}"#)
        #expect(mark?["error"]?["data"]?["name"]?.stringValue == "lifebus.JournalUnavailable")
        let cli = try broker.cli(["fire", "sleep"])
        #expect(cli.status != 0 && cli.err.contains("journal"), "\(cli.status) \(cli.err)")
        app.client.close()
        #expect(broker.stop() == 0)
        let log = broker.process.stderr.readAll(timeout: .seconds(5))
        let failures = log.split(separator: "\n").filter { $0.contains("cannot write the journal") }
        #expect(failures.count == 1, "logged once per failure streak: \(log)")
        #expect(failures.first?.contains("lifebus.errno=\(ENOSPC)") == true)
    }

    @Test func aJournalThatFailsMidWriteStaysWholeAndRecoversWhenWritesSucceedAgain() throws {
        let broker = try BrokerFixture()
        let controller = try RawPeer.controller(broker)
        let (app, _) = try RawPeer.app(broker, id: "com.example.Recovers")
        #expect(app.call("ping")?["result"] != nil)
        #expect(try broker.reached("com.example.Recovers", "active"))
        // Room for a few bytes: the next write stops part-way (EFBIG), as on a disk that fills up.
        try limitFileSize(of: broker.process.pid, to: fileSize(broker.journalPath) + 10)

        let failed = fire(#"{"event":"call"}"#, controller: controller, app: app, callback: "willResignActive")
        #expect(failed?["error"]?["data"]?["name"]?.stringValue == "lifebus.JournalUnavailable",
                "\(failed?.jsonText ?? "")")
        #expect(failed?["error"]?["data"]?["eventID"] != nil, "the event happened, unrecorded")
        let refused = controller.call("fire", #"{"event":"sleep"}"#)
        #expect(refused?["error"]?["data"]?["name"]?.stringValue == "lifebus.JournalUnavailable")
        #expect(refused?["error"]?["data"]?["eventID"] == nil, "refused before anything happened")
        #expect(app.call("mark", #"{"name":"refused"}"#)?["error"]?["code"]?.int64Value == -32013)
        #expect(try JournalFileCheck(path: broker.journalPath).isWhole, "the cut-off write left no partial line")

        try limitFileSize(of: broker.process.pid, to: nil)
        let recovered = fire(
            #"{"event":"call","action":"decline"}"#, controller: controller, app: app, callback: "didBecomeActive")
        #expect(recovered?["result"]?["completed"]?.boolValue == true, "\(recovered?.jsonText ?? "")")
        #expect(app.call("mark", #"{"name":"recorded"}"#)?["result"] != nil)
        app.client.close()
        #expect(broker.stop() == 0)

        let journal = try JournalFileCheck(path: broker.journalPath)
        #expect(journal.isWhole && journal.seqsAreContiguous, "\(journal.brokenLines) \(journal.seqs)")
        let callbacks = journal.entries.compactMap { $0["callback"]?.stringValue }
        #expect(callbacks.contains("willResignActive"), "the lines kept during the failure were written after it")
        #expect(journal.entries.contains { $0["name"]?.stringValue == "recorded" })
        #expect(!journal.entries.contains { $0["name"]?.stringValue == "refused" })
        let log = broker.process.stderr.readAll(timeout: .seconds(5))
        #expect(log.split(separator: "\n").filter { $0.contains("cannot write the journal") }.count == 1, "\(log)")
        #expect(log.contains("the journal is written again"), "\(log)")
    }
}
