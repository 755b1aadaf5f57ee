import Glibc
import LifebusProtocol
import Testing

/// The kill -9 drill (RELIABILITY.md B12): a broker killed while it journals long lines for many apps, restarted on
/// the same socket and journal, round after round. The journal stays whole lines, `seq` strictly increases across
/// the runs, each run opens with a run record, every transition a `fire` answer reported is in the file, and
/// `lifebus history --journal` reads it all.
@Suite struct JournalKillDrillTests {
    static let appCount = 6
    static let rounds = 4
    /// Journal growth, per round, after the first answers, at which the broker is killed (fires still in flight).
    static let growthBeforeKill = 3 * 1024 * 1024
    /// The length of each mark of the two `MarkingApp`s: just under the 16 KiB cap on a mark's data, so lines are
    /// long, writes gather many of them and a kill often lands in one.
    static let hugeMarkLength = 15 * 1024

    /// Polls `status` (a condition, not a fixed sleep) until `count` apps are connected.
    private func waitForConnectedApps(_ broker: BrokerFixture) throws -> Bool {
        let deadline = Deadline(after: .seconds(30))
        while !deadline.hasPassed {
            let apps = try broker.status()?["apps"]?.arrayValue ?? []
            if apps.filter({ $0["connected"]?.boolValue == true }).count == Self.appCount { return true }
            usleep(20_000)
        }
        return false
    }

    @Test func killingTheBrokerMidJournalLeavesWholeLinesAndEachRestartGoesOn() throws {
        let socket = BrokerFixture.uniqueSocketPath("drill")
        let journalPath = socket + ".journal.jsonl"
        let arguments = ["--journal", journalPath, "--log-level", "warning", "--time-scale", "100"]
        var brokers: [BrokerFixture] = []
        var apps: [ChildProcess] = []
        var acknowledged: [Int64: String] = [:]  // seq → app, from the fire answers the controller got
        for round in 0..<Self.rounds {
            let broker = try BrokerFixture(arguments: arguments, socketPath: socket)
            brokers.append(broker)
            if apps.isEmpty {
                for number in 0..<Self.appCount {
                    apps.append(try broker.subscribe("com.example.Drill\(number)", [
                        "--background-mode", "audio",
                    ]))
                }
            }
            #expect(try waitForConnectedApps(broker), "round \(round): the apps reconnected")
            let markers = try (0..<2).map { number in
                try MarkingApp.start(broker, id: "com.example.Marker\(number)", bytes: Self.hugeMarkLength)
            }
            let controller = try RawPeer.controller(broker)
            for number in 0..<400 {
                controller.client.sendLine(
                    #"{"jsonrpc":"2.0","id":"f\#(number)","method":"fire","params":{"event":"memory-warning"}}"#)
            }
            var answers = 0
            while answers < 5, let line = controller.client.readLine(timeout: .seconds(20)) {
                answers += note(line, in: &acknowledged)
            }
            let grown = fileSize(journalPath) + Self.growthBeforeKill
            // Watch the file grow and kill at once: the file grows while a write(2) is under way, so the kill often
            // lands in one (a torn line).
            let deadline = Deadline(after: .seconds(60))
            while fileSize(journalPath) < grown && !deadline.hasPassed {}
            broker.process.signal(SIGKILL)
            #expect(broker.process.wait() == 128 + SIGKILL)
            // Every answer the broker sent before it died was an acknowledgement.
            while let line = controller.client.readLine(timeout: .seconds(5)) {
                answers += note(line, in: &acknowledged)
            }
            #expect(answers > 0, "round \(round): fires were answered before the kill")
            for marker in markers { #expect(marker.waitForExit() == 0, "a marking app ends with its broker") }
        }
        let last = try BrokerFixture(arguments: arguments, socketPath: socket)
        brokers.append(last)
        #expect(last.stop() == 0)
        for app in apps { app.signal(SIGKILL) }

        let journal = try JournalFileCheck(path: journalPath)
        #expect(journal.isWhole, "broken lines: \(journal.brokenLines.prefix(5)) of \(journal.lineCount)")
        #expect(journal.seqsAreContiguous, "seq goes up by one through every run")
        #expect(journal.entries.first?["type"]?.stringValue == "run")
        #expect(journal.runRecords("start").count == Self.rounds + 1)
        #expect(journal.entries.contains {
            $0["type"]?.stringValue == "mark" && $0.jsonText.utf8.count > Self.hugeMarkLength
        }, "the marking apps' long lines are in the journal")
        var recorded: [Int64: String] = [:]
        for entry in journal.entries {
            if let seq = entry["seq"]?.int64Value, let app = entry["app"]?.stringValue { recorded[seq] = app }
        }
        let missing = acknowledged.filter { recorded[$0.key] != $0.value }
        #expect(missing.isEmpty, "\(missing.count) of \(acknowledged.count) acknowledged transitions are not journaled")
        let cuts = brokers.dropFirst().filter { $0.process.stderr.readAll(timeout: .seconds(2)).contains("cut a torn") }
        print("kill drill: \(journal.lineCount) lines, \(acknowledged.count) acknowledged transitions, "
              + "\(cuts.count) of \(Self.rounds) restarts cut a torn line")
        // Tens of MiB to parse: given longer than `runCLI` gives (an --asan build reads slowly).
        let reader = try ChildProcess("lifebus", ["history", "--journal", journalPath])
        let out = reader.stdout.readAll(timeout: .seconds(300))
        let err = reader.stderr.readAll(timeout: .seconds(5))
        #expect(reader.wait() == 0 && err.isEmpty, "\(err)")
        #expect(out.split(separator: "\n").filter { $0.hasPrefix("— run started ") }.count == Self.rounds + 1)
        #expect(out.utf8.count < journal.lineCount * 1000, "long mark data is abbreviated in the table")
        unlink(journalPath)
    }

    /// Counts a fire answer and notes the transitions it reports.
    private func note(_ line: String, in acknowledged: inout [Int64: String]) -> Int {
        guard let transitions = parsed(line)?["result"]?["transitions"]?.arrayValue else { return 0 }
        for record in transitions {
            if let seq = record["seq"]?.int64Value, let app = record["app"]?.stringValue { acknowledged[seq] = app }
        }
        return 1
    }
}
