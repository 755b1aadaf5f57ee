import Glibc
import LifebusProtocol
import Testing

@testable import LifebusCLI

/// `lifebus history --journal` reads the broker's JSONL journal from a file, without a broker, and survives a
/// broker killed mid-write.
@Suite struct JournalReaderTests {
    static let transition = TransitionRecord(
        seq: 1, app: "com.example.A", pid: 4242, callback: .didEnterBackground,
        cause: EventCause(eventID: 3, event: "home"), from: .inactive, to: .background,
        firedMs: 10.5, sentMs: 10.625, answeredMs: 13.125, handlerMs: 2.25, budgetMs: 5000, outcome: .ok,
        wallMs: 1_763_780_000_000
    )
    static let mark = MarkRecord(
        seq: 2, app: "com.example.A", pid: 4242, name: "state-saved", data: ["bytes": 12], atMs: 12.5,
        wallMs: 1_763_780_000_001
    )
    static let other = TransitionRecord(
        seq: 3, app: "com.example.B", pid: nil, callback: nil, cause: nil, from: .suspended, to: .notRunning,
        firedMs: nil, sentMs: 20, answeredMs: nil, handlerMs: nil, budgetMs: 0, outcome: .jetsam,
        wallMs: 1_763_780_000_002
    )

    static func lines(_ entries: [JournalEntry]) -> String {
        entries.map { $0.json.jsonText + "\n" }.joined()
    }

    @Test func processRecordsAreReadAsTheBrokerWroteThem() {
        let started = ProcessRecord(seq: 4, app: "com.example.A", pid: 4242, event: .started, atMs: 1, wallMs: 0)
        let reading = JournalReader.parse(Array(Self.lines([.process(started), .transition(Self.transition)]).utf8))
        #expect(reading.entries == [.process(started), .transition(Self.transition)])
        #expect(reading.problems.isEmpty)
    }

    @Test func readsEveryWholeLineOfAFile() throws {
        let text = Self.lines([.transition(Self.transition), .mark(Self.mark), .transition(Self.other)])
        let path = try TemporaryFile.write(text)
        defer { unlink(path) }
        let reading = try JournalReader.read(path: path)
        #expect(reading.entries == [.transition(Self.transition), .mark(Self.mark), .transition(Self.other)])
        #expect(reading.problems.isEmpty)
        #expect(!reading.tornTail)
    }

    @Test func skipsATornLastLineAndSaysSo() throws {
        let whole = Self.lines([.transition(Self.transition), .mark(Self.mark)])
        let torn = String(Self.transition.json.jsonText.prefix(40))
        let path = try TemporaryFile.write(whole + torn)
        defer { unlink(path) }
        let reading = try JournalReader.read(path: path)
        #expect(reading.entries == [.transition(Self.transition), .mark(Self.mark)])
        #expect(reading.tornTail)
        #expect(reading.problems.isEmpty)
    }

    @Test func reportsABadLineInTheMiddleAndKeepsTheRest() {
        let text = Self.lines([.transition(Self.transition)]) + "{\"type\":\"transition\",\"seq\":0}\n"
            + Self.lines([.mark(Self.mark)])
        let reading = JournalReader.parse(Array(text.utf8))
        #expect(reading.entries == [.transition(Self.transition), .mark(Self.mark)])
        #expect(reading.problems.map(\.line) == [2])
        #expect(!reading.tornTail)
    }

    @Test func skipsRecordKindsItDoesNotKnowWithoutComplaint() {
        let text = Self.lines([.transition(Self.transition)]) + "{\"type\":\"note\",\"seq\":2,\"name\":\"x\"}\n"
            + Self.lines([.mark(Self.mark)])
        let reading = JournalReader.parse(Array(text.utf8))
        #expect(reading.entries == [.transition(Self.transition), .mark(Self.mark)])
        #expect(reading.problems.isEmpty)
    }

    @Test func aFileWhoseLinesAreNoRecordsIsNotAJournalButOneBadLineIsSkipped() {
        let prose = JournalReader.parse(Array("# Lifebus\n\nA local interruption event bus.\n".utf8))
        #expect(JournalReader.notAJournal(prose)?.hasPrefix("no line is a journal record (line 1: ") == true)
        let torn = Self.lines([.transition(Self.transition)]) + "{\"type\":\"transition\",\"seq\":0}\n"
        #expect(JournalReader.notAJournal(JournalReader.parse(Array(torn.utf8))) == nil)
        #expect(JournalReader.notAJournal(JournalReader.parse([])) == nil, "an empty journal is a journal")
        let unknownKinds = JournalReader.parse(Array("{\"type\":\"note\",\"seq\":2}\n".utf8))
        #expect(JournalReader.notAJournal(unknownKinds) == nil, "records of kinds this version does not know")
    }

    @Test func anEmptyFileHasNoEntries() {
        let reading = JournalReader.parse([])
        #expect(reading == JournalReader.Reading())
    }

    @Test func aMissingFileIsAnErrorNotATrap() {
        #expect(throws: JournalReader.Failure.self) { try JournalReader.read(path: "/nonexistent/journal.jsonl") }
    }

    @Test func historySelectsOneAppsLastEntries() {
        let entries: [JournalEntry] = [.transition(Self.transition), .mark(Self.mark), .transition(Self.other)]
        #expect(HistoryOutput.select(entries, app: "com.example.A", limit: nil) == Array(entries.prefix(2)))
        #expect(HistoryOutput.select(entries, app: nil, limit: 1) == [.transition(Self.other)])
        #expect(HistoryOutput.select(entries, app: "com.example.A", limit: 1) == [.mark(Self.mark)])
        #expect(HistoryOutput.select(entries, app: "com.example.C", limit: 3).isEmpty)
    }
}

/// A file in /tmp holding given text, for tests that read files.
enum TemporaryFile {
    struct Failure: Error {}

    static func write(_ text: String) throws -> String {
        var template = Array("/tmp/lifebus-cli-test-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard descriptor >= 0 else { throw Failure() }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw Failure() }
        return path
    }
}
