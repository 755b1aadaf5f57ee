import Glibc
import LifebusIO
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Logging
import Testing

@testable import LifebusJournal

/// The journal's file: rotation at the size cap, early writes, reopening, and a file that cannot be written.
@Suite struct JournalTests {
    /// A folder of its own under /tmp, removed with what the test left in it.
    final class Folder {
        let path: String

        init() {
            var template = Array("/tmp/lifebus-journal-test-XXXXXX".utf8CString)
            path = String(cString: mkdtemp(&template))
        }

        deinit {
            for name in names() { unlink("\(path)/\(name)") }
            rmdir(path)
        }

        func names() -> [String] {
            (FolderEntries.names(in: path) ?? []).sorted()
        }

        func read(_ name: String) -> String {
            guard let file = fopen("\(path)/\(name)", "r") else { return "" }
            defer { fclose(file) }
            var bytes: [UInt8] = []
            while case let byte = fgetc(file), byte != EOF { bytes.append(UInt8(byte)) }
            return String(decoding: bytes, as: UTF8.self)
        }

        func write(_ name: String, _ text: String) {
            let file = fopen("\(path)/\(name)", "w")
            fputs(text, file)
            fclose(file)
        }
    }

    static func run(_ seq: Int64, _ reason: RunRecord.Reason) -> RunRecord {
        RunRecord(seq: seq, reason: reason, brokerVersion: "test", protocolVersion: 1, profile: .ios7, timeScale: 1,
                  pid: 1, startedWallMs: 0, atMs: 0, wallMs: 0)
    }

    static func mark(_ journal: Journal, _ name: String = "m") -> JournalEntry {
        .mark(MarkRecord(
            seq: journal.nextSequence(), app: "com.x", pid: nil, name: name, data: nil, atMs: 0, wallMs: 0))
    }

    static func entries(_ text: String) -> [JournalEntry] {
        text.split(separator: "\n").map { try! JournalEntry(json: try! JSONParser.parse(String($0))) }
    }

    private func journal(_ path: String, maxBytes: Int? = nil) throws -> Journal {
        try Journal(settings: JournalSettings(path: path, maxBytes: maxBytes), logger: Logger(label: "test"))
    }

    /// The one-pass path: each transition's line is written once, from its integer times; the text lent back is
    /// that line, the file holds it, and `history` gives back its record — with a file and without one.
    @Test(arguments: [true, false]) func aTransitionIsWrittenOnceAndLentBackAsItsLine(withFile: Bool) throws {
        let folder = Folder()
        let journal = withFile ? try journal("\(folder.path)/journal.jsonl") : Journal.inMemory()
        var lent: [[UInt8]] = []
        var records: [TransitionRecord] = []
        for seq in Int64(1)...3 {
            let transition = JournaledTransition(
                seq: seq, app: "com.example.A", pid: 42, callback: .didEnterBackground,
                cause: EventCause(eventID: 7, event: "home"), from: .inactive, to: .background,
                firedNs: 1_000_000 * seq, sentNs: 1_500_123 * seq, answeredNs: 2_750_001 * seq, handlerNs: 999,
                budgetNs: 5_000_000_000, outcome: .ok, wallMs: 1_763_780_000_000)
            journal.appendTransition(transition, of: AppID(transition.app)) { lent.append(Array($0)) }
            records.append(transition.record)
        }
        #expect(lent == records.map(\.json.jsonBytes))
        #expect(journal.lastSequence == 3)
        #expect(journal.lastTransitions(of: "com.example.A", count: 5) == records)
        #expect(journal.flush())
        if withFile {
            #expect(folder.read("journal.jsonl") == records.map { $0.json.jsonText + "\n" }.joined())
        }
    }

    @Test func aFullFileIsRotatedKeepingThreeOldOnesAndSeqGoesOnAcrossThem() throws {
        let folder = Folder()
        let journal = try journal("\(folder.path)/j.jsonl", maxBytes: 4096)
        journal.beginRun(Self.run)
        for _ in 0..<200 {
            journal.append(Self.mark(journal, String(repeating: "n", count: 100)))
            journal.flush()
        }
        #expect(folder.names() == ["j.jsonl", "j.jsonl.1", "j.jsonl.2", "j.jsonl.3"])
        let files = ["j.jsonl.3", "j.jsonl.2", "j.jsonl.1", "j.jsonl"].map(folder.read)
        let longest = Self.entries(files.joined()).map { $0.json.jsonText.utf8.count + 1 }.max() ?? 0
        for text in files {
            #expect(text.utf8.count < 4096 + longest, "a file exceeds the cap by at most its last entry")
            guard case .run(let record) = Self.entries(text).first else {
                Issue.record("a rotated file does not open with a run record")
                continue
            }
            #expect(record.reason == .rotated)
        }
        let seqs = Self.entries(files.joined()).map(\.seq)
        #expect(seqs == Array(seqs[0]...seqs[0] + Int64(seqs.count - 1)), "seq goes on by one across the files")
        #expect(seqs.last == journal.lastSequence)
    }

    @Test func linesAreWrittenOnceEarlyWriteBytesWaitWithoutWaitingForAFlush() throws {
        let folder = Folder()
        let journal = try journal("\(folder.path)/j.jsonl")
        journal.beginRun(Self.run)
        let name = String(repeating: "n", count: 1000)
        while folder.read("j.jsonl").isEmpty {
            journal.append(Self.mark(journal, name))
            #expect(journal.lastSequence < 100, "more than earlyWriteBytes of lines and none written")
            if journal.lastSequence >= 100 { return }
        }
        let written = folder.read("j.jsonl").utf8.count
        #expect(written >= Journal.earlyWriteBytes && written < Journal.earlyWriteBytes + 2000)
        #expect(Self.entries(folder.read("j.jsonl")).map(\.seq) == Array(1...journal.lastSequence))
        #expect(!journal.hasUnwrittenLines)
    }

    @Test func reopeningStartsTheSamePathAfreshWithAReopenedRecord() throws {
        let folder = Folder()
        let journal = try journal("\(folder.path)/j.jsonl")
        journal.beginRun(Self.run)
        journal.append(Self.mark(journal))
        journal.flush()
        rename("\(folder.path)/j.jsonl", "\(folder.path)/moved.jsonl")
        journal.reopen()
        journal.append(Self.mark(journal))
        journal.flush()
        #expect(Self.entries(folder.read("moved.jsonl")).map(\.seq) == [1, 2])
        let reopened = Self.entries(folder.read("j.jsonl"))
        #expect(reopened.map(\.seq) == [3, 4])
        guard case .run(let record) = reopened.first else {
            Issue.record("the reopened file does not open with a run record")
            return
        }
        #expect(record.reason == .reopened)
    }

    @Test func anOpenedJournalIsCutToWholeLinesAndGoesOnFromItsLastSeq() throws {
        let folder = Folder()
        let whole = MarkRecord(seq: 41, app: "com.x", pid: nil, name: "m", data: nil, atMs: 0, wallMs: 0).json.jsonText
        folder.write("j.jsonl", whole + "\n{\"type\":\"tr")
        let journal = try journal("\(folder.path)/j.jsonl")
        #expect(journal.nextSequence() == 42)
        journal.beginRun(Self.run)
        journal.flush()
        #expect(Self.entries(folder.read("j.jsonl")).map(\.seq) == [41, 42])
    }

    @Test func aFileThatTakesNoWriteFailsEveryFlushKeepsTheEntriesInMemoryAndDropsPastItsBound() throws {
        let journal = try journal("/dev/full")
        journal.beginRun(Self.run)
        #expect(!journal.flush())
        #expect(journal.failure == ENOSPC)
        #expect(journal.entries(app: nil).count == 1, "history still has what happened")
        #expect(journal.droppedThrough == 0)
        let big: JSONObject = ["blob": .string(String(repeating: "b", count: 1024 * 1024))]
        for _ in 0...(Journal.maxUnwrittenBytes / (1024 * 1024)) {
            journal.append(.mark(MarkRecord(seq: journal.nextSequence(), app: "com.x", pid: nil, name: "big",
                                            data: big, atMs: 0, wallMs: 0)))
        }
        #expect(journal.droppedThrough > 0, "unwritten lines are bounded while the file fails")
        #expect(!journal.hasUnwrittenLines || journal.droppedThrough < journal.lastSequence)
    }
}
