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
                // Only a record whose times are whole nanoseconds is packed (as the machine makes them all).
                guard let transition = JournaledTransition(exactly: record) else { continue }
                #expect(transition.record == record)
                let app = AppID(record.app)
                guard let packed = PackedTransition(transition, app: app, lineBytes: 300, names: &names) else {
                    continue
                }
                let back = packed.record(names: names)
                #expect(back == record)
                #expect(JournalEntry.transition(back).json.jsonText == JournalEntry.transition(record).json.jsonText)
            }
        }
    }

    /// What the machine journals (times and durations in whole nanoseconds) packs, and unpacks to its record.
    @Test func machineTimesPack() {
        var names = PackedTransition.Names()
        let transition = JournaledTransition(
            seq: 17, app: "com.example.DeepThoughts", pid: 1234, callback: .didEnterBackground,
            cause: EventCause(eventID: 3, event: "call --answer"), from: .inactive, to: .background,
            firedNs: 10_500_123, sentNs: 10_600_456, answeredNs: 13_100_789,
            handlerNs: Duration.nanoseconds(2_345_678).signedNanoseconds,
            budgetNs: Duration.seconds(5).signedNanoseconds, outcome: .ok, wallMs: 1_763_780_000_000
        )
        let packed = PackedTransition(transition, app: AppID(transition.app), lineBytes: 300, names: &names)
        #expect(packed?.record(names: names) == transition.record)
        #expect(MemoryLayout<PackedTransition?>.stride == 64)
    }

    /// A transition whose distances or budget do not fit the packed fields is kept whole, and comes back the same.
    @Test func whatDoesNotFitIsKeptWhole() {
        var window = HistoryWindow()
        let base = JournaledTransition(
            seq: 1, app: "A", pid: nil, callback: nil, cause: nil, from: .background, to: .notRunning,
            firedNs: nil, sentNs: 5_000_000, answeredNs: nil, handlerNs: nil, budgetNs: 0, outcome: .killed,
            wallMs: 0)
        var odd = [base, base, base, base]
        odd[0].firedNs = 6_000_000  // fired after it was sent
        odd[1].answeredNs = 5_000_000 + Int64(UInt32.max)
        odd[2].budgetNs = 1_500  // not whole microseconds
        odd[3].handlerNs = -1
        for (index, transition) in odd.enumerated() {
            var numbered = transition
            numbered.seq = Int64(index + 1)
            window.appendTransition(numbered, of: AppID(numbered.app), lineBytes: 10)
        }
        #expect(window.census.whole == 4)
        #expect(window.entries(app: "A").map(\.json.jsonText) == odd.enumerated().map { index, transition in
            var numbered = transition
            numbered.seq = Int64(index + 1)
            return JournalEntry.transition(numbered.record).json.jsonText
        })
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
