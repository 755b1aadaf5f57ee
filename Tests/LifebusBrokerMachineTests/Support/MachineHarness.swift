import LifebusBrokerMachine
import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Logging

/// A broker machine on virtual time with the driver's bookkeeping done by hand: sessions and tickets numbered, the
/// one timer followed through `armTimer` effects, and every effect of a step kept for the test to read.
///
/// A value owned by one test. Invariant: `timer` is the deadline of the last `armTimer` effect; `advance(by:)` fires
/// it (and whatever it re-arms) at each deadline that falls within the step, in order, as the driver's timer would.
struct MachineHarness {
    var machine: BrokerMachine
    let journal: MemoryJournal
    private(set) var now = Instant(nanoseconds: 1_000_000_000)
    private(set) var timer: Instant?
    private var nextSession: UInt64 = 1
    private var nextTicket: UInt64 = 1

    static let quiet = Logger(label: "machine-test") { _ in SwiftLogNoOpLogHandler() }

    init(settings: MachineSettings = MachineSettings(device: DeviceConfiguration())) {
        journal = MemoryJournal()
        machine = BrokerMachine(settings: settings, journal: journal, logger: Self.quiet, epoch: now)
    }

    /// A machine with `com.example.Notes` (pid 900) launched and active, and the app's session.
    static func notesLaunched() -> (harness: MachineHarness, app: SessionID) {
        var harness = MachineHarness()
        let (app, hello) = harness.introduce("app", app: "com.example.Notes", pid: 900)
        _ = harness.advance(by: .milliseconds(20))
        _ = harness.answerAllCallbacks(in: hello)
        return (harness, app)
    }

    /// Feeds one input at the current virtual instant; returns its effects.
    @discardableResult
    mutating func feed(_ input: BrokerInput) -> [BrokerEffect] {
        var effects: [BrokerEffect] = []
        machine.handle(input, at: now, wallMs: 1_700_000_000_000, into: &effects)
        for case .armTimer(let deadline) in effects { timer = deadline }
        return effects
    }

    /// A new connection from `uid`; returns its session (admitted or not) and the effects of its admission.
    mutating func connect(uid: UInt32 = 1000, pid: Int32 = 4242, spoke: Bool = false) -> (SessionID, [BrokerEffect]) {
        let session = SessionID(nextSession)
        nextSession += 1
        let identity = PeerIdentity(pid: pid, uid: uid, gid: uid)
        return (session, feed(.accepted(session, identity: identity, overTCP: false, spoke: spoke)))
    }

    /// Sends a request (`params` as JSON text); returns its ticket and the effects.
    mutating func request(_ session: SessionID, _ method: String, _ params: String? = nil) -> (Ticket, [BrokerEffect]) {
        let ticket = Ticket(nextTicket)
        nextTicket += 1
        let json = params.map { text in (try? JSONParser.parse(Array(text.utf8))) ?? .null }
        return (ticket, feed(.request(session, RPCRequest(id: .number(Int64(ticket.rawValue)), method: method,
                                                          params: json), ticket)))
    }

    /// A connected peer that said hello with `role` (an app with `app` as its id); returns it and the effects.
    mutating func introduce(_ role: String, app: String? = nil, pid: Int32 = 4242) -> (SessionID, [BrokerEffect]) {
        let (session, _) = connect(pid: pid, spoke: true)
        let appPart = app.map { #","app":{"id":"\#($0)"}"# } ?? ""
        let (_, effects) = request(session, "hello", #"{"role":"\#(role)","protocolVersion":1\#(appPart)}"#)
        return (session, effects)
    }

    /// Moves virtual time on by `duration`, firing the timer at each deadline on the way; returns the effects.
    mutating func advance(by duration: Duration) -> [BrokerEffect] {
        let end = now + duration
        var effects: [BrokerEffect] = []
        while let deadline = timer, deadline <= end {
            now = max(now, deadline)
            timer = nil
            effects += feed(.timerFired)
        }
        now = end
        return effects
    }

    /// Moves the clock on by `duration` without running the timer: a driver whose timer has not run yet when the
    /// next input comes.
    mutating func lateTimer(by duration: Duration) {
        now = now + duration
    }

    /// Answers every callback request among `effects` at once (with `handlerMs`); returns the effects of the answers.
    mutating func answerCallbacks(in effects: [BrokerEffect], handlerMs: Double = 1) -> [BrokerEffect] {
        var answered: [BrokerEffect] = []
        for callback in effects.callbacks {
            let answer = CallbackAnswer(handlerMs: handlerMs)
            answered += feed(.callbackAnswered(callback.app, callback.id, .success(answer)))
        }
        return answered
    }

    /// Answers callbacks, and the callbacks those answers cause, until none is left; returns all their effects.
    mutating func answerAllCallbacks(in effects: [BrokerEffect]) -> [BrokerEffect] {
        var all: [BrokerEffect] = []
        var next = answerCallbacks(in: effects)
        while !next.isEmpty {
            all += next
            next = answerCallbacks(in: next)
        }
        return all
    }
}

extension MemoryJournal {
    /// The transitions written so far, as `app: from -> to (outcome)` lines.
    var writtenTransitions: [String] {
        entries.prefix(written).compactMap { entry in
            guard case .transition(let record) = entry else { return nil }
            return "\(record.app): \(record.from.rawValue) -> \(record.to.rawValue) (\(record.outcome.rawValue))"
        }
    }
}
