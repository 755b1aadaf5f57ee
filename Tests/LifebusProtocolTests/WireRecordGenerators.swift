import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// Random records for the writers' property tests: the record shapes of `HistoryWindowTests`' generator (which
/// lives in the broker's tests), widened to the worst cases a writer must reserve room for — strings of up to twice
/// the longest app id whose every byte may escape to six (`\u0001`), multi-byte characters, quotes and backslashes;
/// the extreme integers; doubles of every magnitude and sign, any bit pattern, and the non-finite ones.
enum WireRecordGenerators {
    /// The longest strings generated: twice `HelloParams.maxAppIDLength` (labels and names have no tighter cap).
    static let maxStringBytes = 2 * HelloParams.maxAppIDLength

    /// Pieces strings are made of: plain ASCII, the bytes that escape (a control byte to six, `"` and `\` to two),
    /// DEL, and two-, three- and four-byte characters.
    static let pieces = ["a", "Z", ".", "-", "\u{01}", "\u{1F}", "\n", "\"", "\\", "\u{7F}", "é", "中", "🎉", "/"]

    static func string(_ rng: inout some RandomNumberGenerator) -> String {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return ""
        case 1: return String(repeating: "\u{01}", count: Int.random(in: 1...maxStringBytes, using: &rng))
        case 2: return ["com.example.A", "call --answer", "home", EventCause.shutdownLabel].randomElement(using: &rng)!
        default:
            var text = ""
            let wanted = Int.random(in: 1...maxStringBytes, using: &rng)
            while text.utf8.count < wanted { text += pieces.randomElement(using: &rng)! }
            return text
        }
    }

    static func integer(_ rng: inout some RandomNumberGenerator) -> Int64 {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return [Int64.min, .max, -1, 0, 1, -1_000_000_000_000_000_000].randomElement(using: &rng)!
        case 1: return Int64.random(in: 0...1_800_000_000_000, using: &rng)
        default: return Int64(bitPattern: rng.next())
        }
    }

    static func pid(_ rng: inout some RandomNumberGenerator) -> Int32? {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return nil
        case 1: return [Int32.min, .max, -1, 0].randomElement(using: &rng)!
        default: return Int32.random(in: .min ... .max, using: &rng)
        }
    }

    /// Milliseconds as the machine makes them, and any other double (the longest texts: 17 digits, a sign, an
    /// exponent of three digits).
    static func double(_ rng: inout some RandomNumberGenerator) -> Double {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return Double(Int64.random(in: 0..<100_000_000_000_000, using: &rng)) / 1_000_000
        case 1:
            return [
                -.greatestFiniteMagnitude, -.leastNormalMagnitude, -.leastNonzeroMagnitude, -2.2250738585072014e-308,
                -1.2345678901234567e-300, -0.00012345678901234567, -123_456_789_012_345.67, -0x1p62, -0.0, .nan,
                .infinity, -.infinity, -.ulpOfOne, 5000,
            ].randomElement(using: &rng)!
        case 2: return Double.random(in: -1e7..<1e7, using: &rng)
        default: return Double(bitPattern: rng.next())
        }
    }

    static func cause(_ rng: inout some RandomNumberGenerator) -> EventCause {
        EventCause(eventID: integer(&rng), event: string(&rng))
    }

    static func transition(_ rng: inout some RandomNumberGenerator) -> TransitionRecord {
        TransitionRecord(
            seq: integer(&rng), app: string(&rng), pid: pid(&rng),
            callback: Bool.random(using: &rng) ? LifecycleCallback.allCases.randomElement(using: &rng)! : nil,
            cause: Bool.random(using: &rng) ? cause(&rng) : nil,
            from: LifecycleState.allCases.randomElement(using: &rng)!,
            to: LifecycleState.allCases.randomElement(using: &rng)!,
            firedMs: Bool.random(using: &rng) ? double(&rng) : nil, sentMs: double(&rng),
            answeredMs: Bool.random(using: &rng) ? double(&rng) : nil,
            handlerMs: Bool.random(using: &rng) ? double(&rng) : nil, budgetMs: double(&rng),
            outcome: TransitionOutcome.allCases.randomElement(using: &rng)!, wallMs: integer(&rng),
            handlerFailed: Bool.random(using: &rng))
    }

    /// Nanoseconds as the machine's times and durations are, and the edges of the writer's integer path (0, below
    /// 1,000, 10^15 and around it, negative, the extremes).
    static func nanoseconds(_ rng: inout some RandomNumberGenerator) -> Int64 {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0:
            return [
                0, 1, 999, 1_000, 1_001, 1_000_000, 5_000_000_000, 999_999_999_999_999, 1_000_000_000_000_000,
                1_000_000_000_000_001, -1, -1_000, .min, .max,
            ].randomElement(using: &rng)!
        case 1: return Int64.random(in: 0..<1_000_000_000_000_000, using: &rng)
        case 2: return Int64.random(in: 0..<10_000_000_000, using: &rng)
        case 3: return Int64.random(in: 0..<100_000, using: &rng) * 1_000_000
        default: return Int64(bitPattern: rng.next())
        }
    }

    static func journaledTransition(_ rng: inout some RandomNumberGenerator) -> JournaledTransition {
        JournaledTransition(
            seq: integer(&rng), app: string(&rng), pid: pid(&rng),
            callback: Bool.random(using: &rng) ? LifecycleCallback.allCases.randomElement(using: &rng)! : nil,
            cause: Bool.random(using: &rng) ? cause(&rng) : nil,
            from: LifecycleState.allCases.randomElement(using: &rng)!,
            to: LifecycleState.allCases.randomElement(using: &rng)!,
            firedNs: Bool.random(using: &rng) ? nanoseconds(&rng) : nil, sentNs: nanoseconds(&rng),
            answeredNs: Bool.random(using: &rng) ? nanoseconds(&rng) : nil,
            handlerNs: Bool.random(using: &rng) ? nanoseconds(&rng) : nil, budgetNs: nanoseconds(&rng),
            outcome: TransitionOutcome.allCases.randomElement(using: &rng)!, wallMs: integer(&rng),
            handlerFailed: Bool.random(using: &rng))
    }

    /// A JSON value of at most `depth` levels: scalars of every kind, arrays and objects with random keys.
    static func value(_ rng: inout some RandomNumberGenerator, depth: Int) -> JSONValue {
        switch Int.random(in: 0..<(depth > 0 ? 8 : 6), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .integer(integer(&rng))
        case 3: return .double(double(&rng))
        case 4, 5: return .string(string(&rng))
        case 6: return .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in value(&rng, depth: depth - 1) })
        default: return .object(object(&rng, depth: depth - 1))
        }
    }

    static func object(_ rng: inout some RandomNumberGenerator, depth: Int) -> JSONObject {
        var members = JSONObject()
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            members[string(&rng)] = value(&rng, depth: depth)
        }
        return members
    }

    static func mark(_ rng: inout some RandomNumberGenerator) -> MarkRecord {
        MarkRecord(
            seq: integer(&rng), app: string(&rng), pid: pid(&rng), name: string(&rng),
            data: Bool.random(using: &rng) ? object(&rng, depth: 2) : nil, atMs: double(&rng),
            wallMs: integer(&rng))
    }

    static func launch(_ rng: inout some RandomNumberGenerator) -> LaunchContext {
        LaunchContext(
            reason: LaunchContext.Reason.allCases.randomElement(using: &rng)!, previousPid: pid(&rng),
            previousEnding: Bool.random(using: &rng) ? string(&rng) : nil,
            restorationState: Bool.random(using: &rng) ? string(&rng) : nil)
    }

    static func callbackParams(_ rng: inout some RandomNumberGenerator) -> CallbackParams {
        let callback = LifecycleCallback.allCases.randomElement(using: &rng)!
        return CallbackParams(
            callbackID: integer(&rng), callback: callback, state: LifecycleState.allCases.randomElement(using: &rng)!,
            budgetMs: double(&rng), cause: Bool.random(using: &rng) ? cause(&rng) : nil,
            launch: callback == .didFinishLaunching && Bool.random(using: &rng) ? launch(&rng) : nil)
    }

    static func id(_ rng: inout some RandomNumberGenerator) -> RPCID {
        Bool.random(using: &rng) ? .number(integer(&rng)) : .string(string(&rng))
    }

    static func fireResult(_ rng: inout some RandomNumberGenerator) -> FireResult {
        FireResult(
            eventID: integer(&rng), event: string(&rng), completed: Bool.random(using: &rng),
            transitions: (0..<Int.random(in: 0...4, using: &rng)).map { _ in transition(&rng) })
    }
}
