import LifebusBrokerMachine
import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import Testing

/// Protocol/README.md §4's promise, checked over many random conversations: every request gets exactly one answer
/// (or is forgotten because its peer went away), and after a stop none is left unanswered.
@Suite struct AnswerOnceTests {
    /// SplitMix64: the same seed gives the same conversation.
    private struct Random {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    private static let requests: [(method: String, params: String)] = [
        ("hello", #"{"role":"controller","protocolVersion":1}"#),
        ("hello", #"{"role":"observer","protocolVersion":1}"#),
        ("hello", #"{"role":"app","protocolVersion":1,"app":{"id":"com.example.A"}}"#),
        ("hello", #"{"role":"app","protocolVersion":1,"app":{"id":"com.example.B"}}"#),
        ("fire", #"{"event":"call"}"#),
        ("fire", #"{"event":"home"}"#),
        ("fire", #"{"event":"activate","app":"com.example.A"}"#),
        ("fire", #"{"event":"memory-warning","wait":false}"#),
        ("reset", "{}"),
        ("wait", #"{"app":"com.example.A","state":"background","timeoutMs":800}"#),
        ("wait", #"{"app":"com.example.B","state":["active","suspended"]}"#),
        ("status", "{}"),
        ("history", #"{"limit":3}"#),
        ("mark", #"{"name":"m"}"#),
        ("beginBackgroundTask", "{}"),
        ("ping", "{}"),
    ]

    @Test(arguments: 1...20)
    func everyRequestIsAnsweredExactlyOnce(seed: UInt64) {
        var random = Random(state: seed)
        var harness = MachineHarness()
        var live: [SessionID] = []
        var issued: Set<Ticket> = []
        var answers: [Ticket: Int] = [:]
        var pendingCallbacks: [[BrokerEffect].SentCallback] = []

        func note(_ effects: [BrokerEffect]) {
            for effect in effects {
                switch effect {
                case .reply(let ticket, _), .replyFire(let ticket, _), .replyPing(let ticket, _), .forget(let ticket):
                    answers[ticket, default: 0] += 1
                default:
                    break
                }
            }
            pendingCallbacks += effects.callbacks
        }

        for _ in 0..<400 {
            switch random.next(10) {
            case 0:
                let (session, effects) = harness.connect(uid: UInt32(random.next(3)), spoke: random.next(2) == 0)
                note(effects)
                if harness.machine.isAdmitted(session) { live.append(session) }
            case 1 where !live.isEmpty:
                note(harness.feed(.ended(live.remove(at: random.next(live.count)))))
            case 2:
                note(harness.advance(by: .milliseconds(Int64(random.next(3000)))))
            case 3 where !pendingCallbacks.isEmpty, 4 where !pendingCallbacks.isEmpty:
                let callback = pendingCallbacks.remove(at: random.next(pendingCallbacks.count))
                let answer: Result<CallbackAnswer, RPCError> = random.next(4) == 0
                    ? .failure(RPCError(code: -32000, message: "threw")) : .success(CallbackAnswer())
                note(harness.feed(.callbackAnswered(callback.app, callback.id, answer)))
            default:
                guard !live.isEmpty else { continue }
                let request = Self.requests[random.next(Self.requests.count)]
                let (ticket, effects) = harness.request(live[random.next(live.count)], request.method, request.params)
                issued.insert(ticket)
                note(effects)
            }
        }
        note(harness.feed(.shutdown))
        for session in live { note(harness.feed(.ended(session))) }

        let twice = answers.filter { $0.value > 1 }.keys
        #expect(twice.isEmpty, "answered more than once: \(twice.map(\.rawValue).sorted())")
        let unanswered = issued.subtracting(answers.keys)
        #expect(unanswered.isEmpty, "never answered: \(unanswered.map(\.rawValue).sorted())")
    }
}
