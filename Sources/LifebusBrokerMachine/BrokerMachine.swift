public import LifebusCore
import LifebusLifecycle
import LifebusProtocol
public import Logging

/// The broker without its loop: sessions and roles (`SessionTable`), the hello rules, what each role may call, the
/// events in flight and `wait`s (`DeliveryBook`), every deadline and the manual clock's virtual time
/// (`MachineClock`), the installed apps and their processes (`ProcessBook`), the lifecycle machine (`Device`) it
/// drives, and the order that keeps the journal ahead of anyone told of an entry.
///
/// A value (apart from the journal port, `JournalPort`): `handle(_:at:wallMs:into:)` takes one input with the
/// instant it happened and appends the effects to perform, in order; it never reads a clock and does no I/O. The
/// driver (`Broker`, over libuv) feeds the inputs and performs the effects; tests feed it on virtual time.
/// Invariants: a session is in `sessions` from admission until its `ended` input (a refused connection never is);
/// each request is answered (or forgotten, its peer gone) exactly once; the deadlines due at an input's instant are
/// handled before the input; after each input the armed timer is the clock's earliest real-time deadline. The
/// checkable ones are `invariantViolations` (`BrokerMachine+Invariants`), asserted after every input in debug builds.
public struct BrokerMachine {
    /// How long `wait` waits when the request names no timeout.
    static let defaultWaitTimeout: Duration = .seconds(30)

    public let settings: MachineSettings
    /// Where transitions and marks go (the driver's journal writes run records to it too).
    let journal: any JournalPort
    var logger: Logger
    /// The instant records count their milliseconds from (the broker's start).
    let epoch: Instant

    /// The admitted sessions, the unintroduced ones, each app's live session and the observers (`SessionTable`).
    var sessions = SessionTable()
    /// The (limit, uid) pairs whose first violation was logged.
    var loggedLimits: Set<String> = []

    /// The lifecycle machine; fed only through `feedDevice`.
    public internal(set) var device: Device
    /// Real and virtual time, every deadline, the pending `advance` and what the driver's timer was last pointed at
    /// (`MachineClock`).
    var clock: MachineClock
    /// The events in flight, the `wait`s, when each app entered its state and what waits for the journal's commit
    /// (`DeliveryBook`).
    @usableFromInline var deliveries = DeliveryBook()
    var nextTaskNumber: UInt64 = 1
    var actionBuffer: [Action] = []

    /// The broker is stopping (`shutdown`): the one record of it; the driver reads it.
    public internal(set) var isShuttingDown = false
    /// The installed apps and their processes (`BrokerMachine+Processes`).
    var processes = ProcessBook()

    /// Inputs to go before the next invariant check (`BrokerMachine+Invariants`, debug builds only).
    var invariantCheckCountdown = 0

    /// The instant and wall time of the input being handled.
    var now = Instant.zero
    var wallMs: Int64 = 0

    public init(settings: MachineSettings, journal: any JournalPort, logger: Logger, epoch: Instant) {
        self.settings = settings
        self.journal = journal
        self.logger = logger
        self.epoch = epoch
        self.device = Device(configuration: settings.device)
        self.clock = MachineClock(settings.clock, epoch: epoch, samplePeriod: settings.memorySamplePeriod)
    }

    /// Handles one input that happened at `now` (the monotonic instant; `wallMs` is Unix time in milliseconds, for
    /// records) and appends the effects to perform, in order, to `effects`. `now` is real time: under the manual
    /// clock the lifecycle runs on virtual time instead (`lifecycleNow`), and only transport deadlines, `wait`
    /// timeouts and the advance's settle limit follow `now`.
    public mutating func handle(
        _ input: BrokerInput, at now: Instant, wallMs: Int64, into effects: inout [BrokerEffect]
    ) {
        self.now = now
        self.wallMs = wallMs
        if case .timerFired = input {} else { fireDueDeadlines(into: &effects) }
        switch input {
        case .accepted(let session, let identity, let overTCP, let spoke):
            accept(session, identity: identity, overTCP: overTCP, spoke: spoke, into: &effects)
        case .spoke(let session):
            noteSpoken(session)
        case .request(let session, let request, let ticket):
            handle(request, from: session, ticket: ticket, into: &effects)
        case .answered(let app, let id, let answer):
            callbackAnswered(app, id, answer, into: &effects)
        case .answeredWithRestoration(let app, let id, let answer):
            callbackAnswered(app, id, answer, into: &effects)
        case .ended(let session, let drop):
            ended(session, droppedFor: drop, into: &effects)
        case .timerFired:
            clock.timerFired()
            timerFired(into: &effects)
        case .commitJournal:
            commitJournal(into: &effects)
        case .processSpawned(let app, let pid):
            processSpawned(app, pid: pid, into: &effects)
        case .launchFailed(let app, let path, let errno, let detail):
            launchFailed(app, path: path, errno: errno, detail: detail, into: &effects)
        case .spawnRefused(let app, let reason):
            launchFailed(app, path: "", errno: 0, detail: "cannot launch \(app): \(reason)", into: &effects)
        case .processExited(let app, let pid, let status, let killedFor):
            processExited(app, pid: pid, status, killedFor: killedFor, into: &effects)
        case .memorySampled(let round):
            let level = processes.pressure
            memorySampled(withoutSettlingKills(round), into: &effects)
            clock.memoryRoundCame(changedSomething: !round.kills.isEmpty || processes.pressure != level)
        case .installed(let ticket, let result):
            installed(ticket, result, into: &effects)
        case .shutdown:
            shutdown(into: &effects)
        }
        if clock.pendingAdvance != nil { progressAdvance(into: &effects) }
        if let announced = clock.announce() { effects.append(.armTimer(announced)) }
        assert(checkInvariantsWhenDue(), "broken after \(input): \(invariantViolations)")
    }

    /// Whether `session` is admitted (a refused connection never is).
    public func isAdmitted(_ session: SessionID) -> Bool { sessions[session] != nil }

    /// The unintroduced sessions that have not sent a byte yet, oldest first (the driver reports those that since
    /// have, with `BrokerInput.spoke`, before it feeds the next `accepted`).
    public var silentSessions: [SessionID] { sessions.silentSessions }

    /// Whether the journal commit a `commitJournal` effect asked for still has work to do (false once the lines were
    /// written by a delivery in the same turn and nothing waits for a sync): the driver skips a commit that would
    /// do nothing.
    /// Inlinable: the driver reads it from its class after every input, where a call would copy the whole machine.
    @inlinable public var isCommitRequested: Bool { deliveries.commitRequested }

    /// The number of connected apps and of observers (for the daemon's status line).
    public var appCount: Int { sessions.appCount }
    public var observerCount: Int { sessions.observers.count }

    /// What is due at an input's instant happens before the input (the driver's timer may not have run yet, e.g.
    /// when a deadline and a read fall in one loop turn): at one instant a deadline wins over an answer or an exit
    /// (`Protocol/lifecycle.md`, "Outcomes and kills"), and an advance whose settle limit passed steps first.
    private mutating func fireDueDeadlines(into effects: inout [BrokerEffect]) {
        guard clock.hasDue(at: now) else { return }
        timerFired(into: &effects)
        if clock.pendingAdvance != nil { progressAdvance(into: &effects) }
    }

    /// Takes every deadline due at `now`, earliest first, and handles each. The core's are one `.device` entry at
    /// its earliest deadline: each take fires that one core timer and moves the entry to the next, so a loop turn
    /// that comes late past several deadlines handles them in the order they fell, core and broker alike (a `wait`
    /// that timed out before a kill does not see it).
    private mutating func timerFired(into effects: inout [BrokerEffect]) {
        while let deadline = clock.takeFirstDue(at: now) {
            switch deadline {
            case .device:
                clock.deviceDeadlineMoved(to: nil)  // its entry was taken: the feed tells the core's next deadline
                feedDevice(.deadlineReached, into: &effects)
            case .hello(let session):
                helloTimedOut(session, into: &effects)
            case .wait(let number, let app):
                waitTimedOut(number: number, app: app, into: &effects)
            case .advanceSettle:
                clock.settleLimitPassed()
            }
        }
    }

    /// Milliseconds from the broker's start to `instant`, as records carry them.
    func milliseconds(_ instant: Instant) -> Double {
        instant.milliseconds(since: epoch)
    }
}
