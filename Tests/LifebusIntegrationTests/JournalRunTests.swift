import Glibc
import LifebusProtocol
import Testing

/// The journal file across broker runs: a torn line cut on restart, `seq` going on, each run opened by a run record,
/// and the size cap with its rotated files.
@Suite struct JournalRunTests {
    @Test func aTornLineLeftByAKilledBrokerIsCutOnRestartAndSeqGoesOn() throws {
        let first = try BrokerFixture()
        let (app, hello) = try RawPeer.app(first, id: "com.example.Torn")
        #expect(hello?["result"] != nil)
        #expect(app.call("mark", #"{"name":"before"}"#)?["result"] != nil)
        first.process.signal(SIGKILL)
        first.process.wait()
        let before = try JournalFileCheck(path: first.journalPath)
        let torn = #"{"type":"mark","seq":\#((before.seqs.last ?? 0) + 1),"app":"com.example.Torn","na"#
        let file = fopen(first.journalPath, "a")
        fputs(torn, file)
        fclose(file)

        let second = try BrokerFixture(arguments: ["--journal", first.journalPath])
        #expect(second.stop() == 0)
        let log = second.process.stderr.readAll(timeout: .seconds(5))
        #expect(log.contains("cut a torn last line"), "\(log)")
        #expect(log.contains("lifebus.journal.cutBytes=\(torn.utf8.count)"), "\(log)")
        let after = try JournalFileCheck(path: first.journalPath)
        #expect(after.isWhole, "lines \(after.brokenLines) are broken")
        #expect(after.seqsAreContiguous, "\(after.seqs)")
        #expect(after.runRecords("start").count == 2)
        #expect(after.entries.last?["type"]?.stringValue == "run")
        let read = try runCLI(["history", "--journal", first.journalPath])
        #expect(read.status == 0 && read.err.isEmpty, "\(read.err)")
    }

    @Test func everyRunOpensWithARunRecordAndHistoryShowsWhereEachStarts() throws {
        let first = try BrokerFixture(arguments: ["--profile", "ios4", "--time-scale", "2"])
        let (app, _) = try RawPeer.app(first, id: "com.example.Runs")
        #expect(app.call("mark", #"{"name":"one"}"#)?["result"] != nil)
        let reported = try first.history()
        #expect(reported.first?["type"]?.stringValue == "run")
        #expect(reported.first?["profile"]?.stringValue == "ios4")
        #expect(reported.first?["timeScale"]?.doubleValue == 2)
        #expect(reported.first?["pid"]?.int64Value == Int64(first.process.pid))
        app.client.close()
        #expect(first.stop() == 0)

        let second = try BrokerFixture(arguments: ["--journal", first.journalPath], socketPath: first.socketPath)
        let (again, _) = try RawPeer.app(second, id: "com.example.Runs")
        #expect(again.call("mark", #"{"name":"two"}"#)?["result"] != nil)
        let secondRun = try second.history()
        #expect((secondRun.first?["seq"]?.int64Value ?? 0) > (reported.last?["seq"]?.int64Value ?? .max),
                "the new run goes on from the journal's last seq")
        again.client.close()
        #expect(second.stop() == 0)

        let journal = try JournalFileCheck(path: first.journalPath)
        #expect(journal.isWhole && journal.seqsAreContiguous, "\(journal.seqs)")
        #expect(journal.runRecords("start").map { $0["pid"]?.int64Value }
                == [Int64(first.process.pid), Int64(second.process.pid)])
        let read = try runCLI(["history", "--journal", first.journalPath])
        #expect(read.status == 0, "\(read.err)")
        let runLines = read.out.split(separator: "\n").filter { $0.hasPrefix("— run started ") }
        #expect(runLines.count == 2, "\(read.out)")
        #expect(runLines.first?.contains("ios4, ×2") == true, "\(read.out)")
    }

    /// A broker with `--journal-max journalMax` that one app gave `count` marks of `bytes` of data, then stopped.
    private func stoppedAfterMarks(journalMax: String, count: Int, bytes: Int) throws -> BrokerFixture {
        let broker = try BrokerFixture(arguments: ["--journal-max", journalMax])
        let (app, _) = try RawPeer.app(broker, id: "com.example.Marker")
        let data = #"{"name":"big","data":{"text":"\#(String(repeating: "m", count: bytes))"}}"#
        for _ in 0..<count {
            #expect(app.call("mark", data)?["result"] != nil)
        }
        app.client.close()
        #expect(broker.stop() == 0)
        return broker
    }

    @Test func aJournalAtItsCapIsRotatedKeepingThreeOldFiles() throws {
        let broker = try stoppedAfterMarks(journalMax: "4KiB", count: 40, bytes: 900)
        let files = [".3", ".2", ".1", ""].map { broker.journalPath + $0 }
        #expect(fileSize(broker.journalPath + ".4") == 0, "at most three old files are kept")
        var seqs: [Int64] = []
        for path in files {
            let journal = try JournalFileCheck(path: path)
            #expect(journal.isWhole)
            #expect(fileSize(path) <= 4096 + 1200, "\(path) exceeds the cap by more than one entry")
            #expect(journal.entries.first?["type"]?.stringValue == "run", "\(path) opens with a run record")
            #expect(journal.runRecords("rotated").count == 1, "\(path)")
            seqs += journal.seqs
        }
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $1 == $0 + 1 }, "seq goes on across the files: \(seqs)")
    }

    @Test(arguments: [["--journal-max", "1KiB"], ["--journal-max", "lots"], ["--journal-max", "64TB"],
                      ["--journal-sync=yes"]])
    func journalOptionsOutOfRangeAreUsageErrors(arguments: [String]) throws {
        let daemon = try ChildProcess("lifebusd", arguments)
        let message = daemon.stderr.readAll()
        #expect(daemon.wait() == 2)
        #expect(message.contains("--journal-"), "\(message)")
    }

    @Test func anUnboundedJournalIsNeverRotated() throws {
        let broker = try stoppedAfterMarks(journalMax: "none", count: 10, bytes: 8000)
        #expect(fileSize(broker.journalPath) > 80_000)
        #expect(fileSize(broker.journalPath + ".1") == 0)
    }
}
