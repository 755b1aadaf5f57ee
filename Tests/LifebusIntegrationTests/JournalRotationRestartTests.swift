import Glibc
import LifebusProtocol
import Testing

/// A broker killed between a rotation's rename and its first write left `PATH` empty beside `PATH.1`: the next
/// broker goes on from `PATH.1`'s last `seq` (issue 25 item 14; every crash point: `JournalRotationCrashTests`).
@Suite struct JournalRotationRestartTests {
    @Test func theNextBrokerContinuesSeqFromTheRotatedFileWhenTheJournalIsEmpty() throws {
        let folder = InstallTrustTests.Folder()
        let journal = "\(folder.path)/journal.jsonl"
        let lines = (1...40).map {
            #"{"type":"mark","seq":\#($0),"app":"com.x","pid":null,"name":"m","data":null,"atMs":0,"wallMs":0}"#
        }
        folder.write("journal.jsonl.1", lines.joined(separator: "\n") + "\n", mode: 0o600)
        folder.write("journal.jsonl", "", mode: 0o600)
        let broker = try BrokerFixture(arguments: ["--journal", journal])
        let run = try broker.history().last { $0["type"]?.stringValue == "run" }
        #expect(run?["seq"]?.int64Value == 41, "\(run?.jsonText ?? "no run record")")
        try SupervisionCheck.run(broker)
    }
}
