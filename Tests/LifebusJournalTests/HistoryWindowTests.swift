import LifebusLifecycle
import LifebusProtocol
import PropertyBased
import Testing

@testable import LifebusJournal

/// The history window's packed slots give back every entry bit for bit, keep the same entries a plain bounded queue
/// would, and free the strings of the entries they drop.
@Suite struct HistoryWindowTests {
    static let apps = ["com.example.A", "com.example.a-much-longer-bundle-identifier-than-fits-inline", "B", "é"]
    static let labels = ["call --answer", "home", "sms --reply", EventCause.shutdownLabel]

    /// Milliseconds as the machine makes them (whole nanoseconds), and values that cannot be packed.
    static func milliseconds(_ rng: inout some RandomNumberGenerator) -> Double {
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: return Double(Int64.random(in: 0..<100_000_000_000_000, using: &rng)) / 1_000_000
        case 1: return Double(Int64.random(in: 0..<5_000_000_000, using: &rng)) / 1_000_000
        case 2: return Double(Int.random(in: 0..<10_000, using: &rng))
        case 3: return Double.random(in: 0..<1e7, using: &rng)
        case 4: return [-0.0, 0, 0x1p62, 1e300, 4294.967295, 4294.967296][Int.random(in: 0..<6, using: &rng)]
        default: return Double(Int64.random(in: 0..<2_000_000_000, using: &rng)) / 1_000_000
        }
    }

    static func record(_ rng: inout some RandomNumberGenerator, seq: Int64) -> TransitionRecord {
        func maybe<T>(_ value: T) -> T? { Bool.random(using: &rng) ? value : nil }
        let sent = milliseconds(&rng)
        return TransitionRecord(
            seq: seq,
            app: apps.randomElement(using: &rng)!,
            pid: maybe(Int32.random(in: .min ... .max, using: &rng)),
            callback: maybe(LifecycleCallback.allCases.randomElement(using: &rng)!),
            cause: maybe(EventCause(
                eventID: Bool.random(using: &rng) ? Int64.random(in: 1...1000, using: &rng) : Int64.max,
                event: labels.randomElement(using: &rng)!
            )),
            from: LifecycleState.allCases.randomElement(using: &rng)!,
            to: LifecycleState.allCases.randomElement(using: &rng)!,
            firedMs: maybe(Bool.random(using: &rng) ? max(0, sent - milliseconds(&rng)) : milliseconds(&rng)),
            sentMs: sent,
            answeredMs: maybe(Bool.random(using: &rng) ? sent + milliseconds(&rng) : milliseconds(&rng)),
            handlerMs: maybe(milliseconds(&rng)),
            budgetMs: milliseconds(&rng),
            outcome: TransitionOutcome.allCases.randomElement(using: &rng)!,
            wallMs: Int64.random(in: 0...1_800_000_000_000, using: &rng),
            handlerFailed: Bool.random(using: &rng)
        )
    }

    static func entry(_ rng: inout some RandomNumberGenerator, seq: Int64) -> JournalEntry {
        guard Int.random(in: 0..<6, using: &rng) == 0 else { return .transition(record(&rng, seq: seq)) }
        let app = apps.randomElement(using: &rng)!
        return .mark(MarkRecord(seq: seq, app: app, pid: 7, name: "m", data: nil, atMs: 1.5, wallMs: 9))
    }

    static let entries = Generator<[JournalEntry], Shrink.None<[JournalEntry]>> { rng in
        (1...Int64.random(in: 1...300, using: &rng)).map { entry(&rng, seq: $0) }
    }

    @Test func aPackedRecordComesBackBitForBit() async {
        await propertyCheck(count: 200, input: Self.entries) { entries in
            var names = PackedTransition.Names()
            for case .transition(let record) in entries {
                let app = AppID(record.app)
                guard let packed = PackedTransition(record, app: app, lineBytes: 300, names: &names) else { continue }
                let back = packed.record(names: names)
                #expect(back == record)
                #expect(JournalEntry.transition(back).json.jsonText == JournalEntry.transition(record).json.jsonText)
            }
        }
    }

    @Test func machineTimesPack() {
        var names = PackedTransition.Names()
        let record = TransitionRecord(
            seq: 17, app: "com.example.DeepThoughts", pid: 1234, callback: .didEnterBackground,
            cause: EventCause(eventID: 3, event: "call --answer"), from: .inactive, to: .background,
            firedMs: Double(10_500_123) / 1_000_000, sentMs: Double(10_600_456) / 1_000_000,
            answeredMs: Double(13_100_789) / 1_000_000, handlerMs: Duration.nanoseconds(2_345_678).inMilliseconds,
            budgetMs: Duration.seconds(5).inMilliseconds, outcome: .ok, wallMs: 1_763_780_000_000
        )
        let packed = PackedTransition(record, app: AppID(record.app), lineBytes: 300, names: &names)
        #expect(packed?.record(names: names) == record)
        #expect(MemoryLayout<PackedTransition?>.stride == 64)
    }

    @Test func keepsWhatABoundedQueueKeeps() async {
        await propertyCheck(count: 200, input: Self.entries) { entries in
            var window = HistoryWindow(limit: 50, maxBytes: 5_000)
            var reference: [(entry: JournalEntry, bytes: Int)] = []
            for entry in entries {
                let bytes = entry.json.jsonText.utf8.count % 400 + 1
                window.append(entry, lineBytes: bytes)
                reference.append((entry, bytes))
                while reference.count > 50 || reference.map(\.bytes).reduce(0, +) > 5_000 { reference.removeFirst() }
            }
            let text = { (list: [JournalEntry]) in list.map(\.json.jsonText) }
            #expect(text(window.entries(app: nil)) == text(reference.map(\.entry)))
            for app in Self.apps + ["nobody"] {
                #expect(text(window.entries(app: app)) == text(reference.map(\.entry).filter { $0.app == app }))
                let transitions = reference.compactMap { item -> TransitionRecord? in
                    guard case .transition(let record) = item.entry, record.app == app else { return nil }
                    return record
                }
                #expect(window.lastTransitions(of: app, count: 7) == Array(transitions.suffix(7)))
            }
        }
    }

    @Test func dropsTheStringsOfDroppedEntries() {
        var window = HistoryWindow(limit: 3, maxBytes: 1_000)
        var rng = SystemRandomNumberGenerator()
        for seq in 1...100 {
            let record = Self.record(&rng, seq: Int64(seq))
            window.append(.transition(record), lineBytes: 10)
        }
        #expect(window.census.strings <= 6)
        for seq in 101...103 {
            window.append(
                .mark(MarkRecord(seq: Int64(seq), app: "x", pid: nil, name: "m", data: nil, atMs: 0, wallMs: 0)),
                lineBytes: 10
            )
        }
        #expect(window.census.whole == 3)
        #expect(window.census.strings == 0)
        #expect(window.entries(app: nil).map(\.seq) == [101, 102, 103])
    }
}

/// The intern table counts holders, frees a value with its last one and never answers a freed id from its memo.
@Suite struct InternTableTests {
    @Test(arguments: [false, true]) func countsHoldersAndReusesFreedIDs(remembersLast: Bool) {
        var table = InternTable<String>(remembersLast: remembersLast)
        let a = table.retain("a")
        #expect(table.retain("a") == a)
        let b = table.retain("b")
        #expect(a != b && table.liveCount == 2)
        if let a { table.release(a) }
        #expect(table.id(of: "a") == a, "one holder of a is left")
        if let a { table.release(a) }
        #expect(table.id(of: "a") == nil && table.liveCount == 1)
        let c = table.retain("c")
        #expect(c == a, "the freed id is reused")
        #expect(table.retain("a") != c, "the memo does not answer a string that is gone")
        if let c { #expect(table[c] == "c") }
    }
}
