import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Testing

/// `ReproducibleJournal`: what `lifebus history --json --reproducible` prints — the non-deterministic members left
/// out (as the schemas mark them) and each run's records in canonical order, whatever order they arrived in.
@Suite struct ReproducibleJournalTests {
    private static func transition(seq: Int64, app: String, pid: Int32, answeredMs: Double, handlerMs: Double)
        -> JournalEntry
    {
        var record = Wire.transitionRecord
        record.seq = seq
        record.app = app
        record.pid = pid
        record.answeredMs = answeredMs
        record.handlerMs = handlerMs
        record.wallMs = 1_763_780_000_000 + seq
        return .transition(record)
    }

    private static func run(_ seq: Int64, _ reason: RunRecord.Reason) -> JournalEntry {
        .run(RunRecord(seq: seq, reason: reason, brokerVersion: "0.1.0", protocolVersion: 1, profile: .ios7,
                       timeScale: 1, clock: "manual", pid: Int32(seq), startedWallMs: seq, atMs: 0.1, wallMs: seq))
    }

    @Test func theSchemasMarkExactlyTheMembersTheViewLeavesOut() throws {
        for (type, members) in ReproducibleJournal.nondeterministicMembers {
            let url = Fixtures.schemas.appendingPathComponent("\(type).record.schema.json")
            let schema = try JSONParser.parse(try Fixtures.bytes(url))
            guard case .object(let properties)? = schema["properties"] else {
                Issue.record("\(type) has no properties")
                continue
            }
            let marked = properties.filter { $0.value["x-lifebus-nondeterministic"] == .bool(true) }.map(\.key)
            #expect(Set(marked) == members, "\(type)")
        }
    }

    @Test func recordsOfOneInstantComeInCanonicalOrderWhateverOrderTheyArrivedIn() {
        let first = [
            Self.run(1, .start),
            Self.transition(seq: 2, app: "com.example.B", pid: 20, answeredMs: 5, handlerMs: 0.3),
            Self.transition(seq: 3, app: "com.example.A", pid: 10, answeredMs: 5, handlerMs: 0.1),
            Self.run(4, .rotated),
            Self.transition(seq: 5, app: "com.example.A", pid: 10, answeredMs: 9, handlerMs: 0.2),
        ]
        let second = [
            Self.run(7, .start),
            Self.transition(seq: 8, app: "com.example.A", pid: 11, answeredMs: 5, handlerMs: 0.9),
            Self.transition(seq: 9, app: "com.example.B", pid: 21, answeredMs: 5, handlerMs: 0.8),
            Self.transition(seq: 10, app: "com.example.A", pid: 11, answeredMs: 9, handlerMs: 0.7),
        ]
        let view = ReproducibleJournal.canonical(first)
        #expect(view.map(\.jsonText) == ReproducibleJournal.canonical(second).map(\.jsonText))
        #expect(view.map { $0["app"]?.stringValue } == [nil, "com.example.A", "com.example.B", "com.example.A"])
        #expect(view.allSatisfy { $0["seq"] == nil && $0["pid"] == nil && $0["wallMs"] == nil })
        #expect(view.dropFirst().allSatisfy { $0["handlerMs"] == nil && $0["answeredMs"] != nil })
        #expect(view.first?["clock"]?.stringValue == "manual" && view.first?["atMs"] == nil)
    }

    @Test func eachRunKeepsItsOwnRecordsAfterItsStart() {
        let entries = [
            Self.run(1, .start),
            Self.transition(seq: 2, app: "com.example.B", pid: 20, answeredMs: 50, handlerMs: 0.3),
            Self.run(3, .start),
            Self.transition(seq: 4, app: "com.example.A", pid: 10, answeredMs: 1, handlerMs: 0.1),
        ]
        let view = ReproducibleJournal.canonical(entries)
        #expect(view.map { $0["type"]?.stringValue } == ["run", "transition", "run", "transition"])
        #expect(view[1]["app"]?.stringValue == "com.example.B", "the later run's earlier time does not move it up")
    }
}
