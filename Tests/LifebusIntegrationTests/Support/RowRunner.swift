import Glibc
import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifecycleContract

/// Plays one row of `Protocol/lifecycle.md` against a real `lifebusd`: apps are connections held by forked carrier
/// processes (see `RowAppCarrier`), events go through a controller connection, and the broker's own account (its
/// `history`, `status`, fire answers, app notifications and its log of process starts and kills) is collected
/// into a `RowObservation` rendered in the core harness's notation.
///
/// It runs only the rows the kit cannot (`LifecycleTable.driverRows`; the kit runs `kitRowIDs`), because they need
/// what the kit has no verb or no record for — as the core's `Harness` does, on the pure device:
/// - a process start (`start X`, not journaled, and the kit's in-process apps are no processes): R06, R34, R40, R42,
///   R45 (also an app holding its launch), R47 (also an app that cannot be spawned: `noSpawn`);
/// - a kill (`kill X reason`, not journaled; live, a kill of an in-process app would hit the test process): R51,
///   R52 (also a `footprint`), R60, R62, R82 (the watchdog), R84 (also a process lingering after `willTerminate`);
/// - a background task begun or ended by an app that is gone (R90, R93 under ios3, where the app was terminated
///   before its request: the core refuses it, the kit cannot send it), or expiring (`expiring A 1`, and a kill:
///   R91, R92);
/// - an answer to nothing asked (R83, `bogusAnswer`); a second hello with a connected app's id (R73, which the
///   kit's `launch` refuses before the broker sees it).
///
/// It also runs every scene row (`LifecycleTable.sceneRows`, S01…): apps say `scenes`/`multipleScenes` in hello,
/// answer `stateRestorationActivity` with the payload of the row's `restores` step, and scene transitions and
/// sessions are rendered as the harness does (`A/1 …`, `A.s1=1:foregroundActive+saved`); the kit plays them too
/// (`LifebusTestingTests.SceneRowsTests`).
///
/// And every background row (`LifecycleTable.backgroundRows`, B…, issue 28), on the broker's manual clock: the app's
/// `register`/`submit`/`complete` steps are its `registerBackgroundTask`/`submitBackgroundTask`/`setTaskCompleted`
/// requests (permitted identifiers in hello), it answers `didReceiveRemoteNotification` with `result` `noData`, an
/// `elapse` is an `advance`, and `history`'s task, push and protected-data records, `status`'s `tasks` and
/// `protectedDataAvailable`, and the `launchReason` of the callbacks the apps receive are read into the harness's
/// notation (`task A refresh launched`, `A.refresh=running`, `dataLocked`, `launch A didFinishLaunching
/// backgroundTask`).
///
/// Owns the broker, the controller and every app connection and carrier. Used by one test case on one thread; all
/// waiting is `poll` on the runner's descriptors, up to deadlines. Invariant: after `stop()` the broker has exited
/// and every carrier is reaped.
final class RowRunner {
    let profile: Profile
    let timeScale: Double
    /// The broker runs on the manual clock (`usesManualClock`): `elapse` is `advance`.
    let manualClock: Bool
    let broker: BrokerFixture
    let controller: RawClient
    let journalPath: String
    var observation = RowObservation()
    /// The introduced connection of each app, by the row's name for it.
    var apps: [AppID: RowApp] = [:]
    /// Every connection ever opened, open or not (their carriers are reaped at `stop`).
    var connections: [RowApp] = []
    var held: Set<AppID> = []
    var lingering: Set<AppID> = []
    /// The apps whose hello the broker refused and that it never admitted: `status` does not list them, the core's
    /// device lists them `notRunning` (S31).
    var refusedAtHello: Set<AppID> = []
    /// What each scene app answers `stateRestorationActivity` with (`restores` steps).
    var restorations: [AppID: JSONValue] = [:]
    var unspawnable: Set<AppID> = []
    var flags: [AppID: AppFlags] = [:]
    /// The broker's task id for each of an app's row task numbers.
    var taskIDs: [AppID: [UInt64: Int64]] = [:]
    /// Requests sent and not yet answered, by id.
    var awaiting: [String: Awaited] = [:]
    /// Controller answers not yet taken by `call`.
    var answers: [String: JSONValue] = [:]
    var pendingFires: Set<String> = []
    /// `backgroundTaskExpiring` notifications received: the app and the broker's task id.
    var expiringTasks: [(app: AppID, taskID: Int64)] = []
    /// Set when anything happened that may have consequences still on their way (see `settle`).
    var activity = false
    private var nextRequest = 1
    private var journalMark: Int64 = 0

    /// The prefix that turns a row's app name (`A`) into the app id on the wire.
    static let appIDPrefix = "org.lifebus.row."

    /// The time scale for a row: a row that lets time pass runs its waits in about 15 s at most (at 0.025 the
    /// shortest budget is still 125 ms: shorter ones were missed under load); the others run at 0.1, which keeps
    /// every budget far above scheduling noise.
    static func timeScale(for row: Row) -> Double {
        let total = elapsedSeconds(row)
        return total == 0 ? 0.1 : min(0.05, 15 / total)
    }

    /// The launch budget a row runs with, unscaled: a row whose journal expects a launch to time out keeps the
    /// profile's budget at the row's time scale (`nil`); every other row gives a launch a minute, because a launch
    /// or relaunch waits on a process the runner starts (R06 under ios3, at 0.1: 2 s, was missed on a loaded
    /// machine) and no such row is about the launch budget.
    static func launchBudget(for row: Row) -> Duration? {
        let expectsTimeout = row.expected.values.contains { $0.journal.contains { $0.contains("launchTimedOut") } }
        return expectsTimeout ? nil : .seconds(60)
    }

    /// The time a row's steps let pass, in the row's (unscaled) seconds.
    static func elapsedSeconds(_ row: Row) -> Double {
        row.steps.reduce(0.0) { sum, step in
            if case .elapse(let duration) = step { sum + duration.inMilliseconds / 1_000 } else { sum }
        }
    }

    /// The rows, those that take longest first, so the slow ones do not start last.
    static func slowestFirst(_ rows: [Row]) -> [Row] {
        rows.sorted { elapsedSeconds($0) * timeScale(for: $0) > elapsedSeconds($1) * timeScale(for: $1) }
    }

    /// Whether a row runs on the broker's manual clock (`--clock manual`, §11.5), its `elapse` steps each an
    /// `advance`: the background rows (B…), whose deadlines (a task's earliest begin 900 s away, the push window's
    /// hour, the protected-data lock delay) are exact instants in the core's table and far too long for real time,
    /// and the scene rows that wait out the protected-data lock delay (S45, S46).
    static func usesManualClock(_ row: Row) -> Bool {
        row.id.hasPrefix("B") || row.tags.contains(.scene) && (row.setup + row.steps).contains {
            if case .elapse = $0 { true } else { false }
        }
    }

    init(
        profile: Profile, timeScale: Double, launchBudget: Duration?, manualClock: Bool = false, knobs: [String] = []
    ) throws {
        self.profile = profile
        self.timeScale = timeScale
        self.manualClock = manualClock
        let socketPath = BrokerFixture.uniqueSocketPath("row")
        journalPath = socketPath.replacingSuffix(".sock", with: ".jsonl")
        // No row is about the hello timeout, and on a loaded machine a carrier process has taken over its default
        // 5 s to say hello (R82 was refused `HelloTimeout` once): the rows give it a minute.
        broker = try BrokerFixture(
            arguments: ["--profile", profile.rawValue, "--time-scale", "\(timeScale)", "--journal", journalPath,
                        "--hello-timeout", "60s"]
                + (launchBudget.map { ["--budget", "didFinishLaunching=\(Int($0.components.seconds))s"] } ?? [])
                // An app the row holds is waited for 1 s of real time before an advance steps on to its deadline.
                + (manualClock ? ["--clock", "manual", "--advance-settle", "1s"] : []) + knobs,
            socketPath: socketPath
        )
        controller = try broker.connect()
        guard parsed(controller.hello())?["result"] != nil else { throw FixtureError("the controller's hello failed") }
    }

    /// Runs the row's setup, notes where the journal stands, then runs its steps and collects the observation.
    func run(_ row: Row) throws -> RowObservation {
        for step in row.setup {
            try run(step, isLast: false)
        }
        journalMark = try journalEntries().compactMap { $0["seq"]?.int64Value }.max() ?? 0
        // The setup's starts and kills (S02's termination), refusals (B04's registrations under ios3) and background
        // launches are not the row's.
        observation.processes = []
        observation.rejections = []
        observation.launches = []
        observation.notes = []
        var previousBegan: ContinuousClock.Instant?
        for (index, step) in row.steps.enumerated() {
            let began = ContinuousClock.now
            try run(step, isLast: index == row.steps.count - 1, previousBegan: previousBegan)
            previousBegan = began
        }
        try settle()
        if !pump(until: { self.pendingFires.isEmpty }, timeout: .seconds(10)) {
            observation.problems.append("\(pendingFires.count) fire request(s) never answered")
        }
        try settle()
        observation.transitions = try journalEntries()
            .filter { ($0["seq"]?.int64Value ?? 0) > journalMark }
            .compactMap(Self.describeEntry)
        let unlisted = refusedAtHello.filter { apps[$0] == nil }.sorted().map { "\($0)=notRunning " }
        observation.situation = unlisted.joined() + Self.describeSituation(try call("status", [:]))
        observation.expiring = expiringTasks.map { app, taskID in
            let number = taskIDs[app]?.first { $0.value == taskID }?.key
            return "expiring \(app) \(number.map(String.init) ?? "broker-task-\(taskID)")"
        }
        return observation
    }

    /// Runs one step; `previousBegan` is when the step before it began (`nil` for the first, and in the setup).
    private func run(_ step: Step, isLast: Bool, previousBegan: ContinuousClock.Instant? = nil) throws {
        switch step {
        case .connect(let app, let appFlags):
            flags[app] = appFlags
            try connect(app)
        case .fire(let event):
            let id = nextID()
            pendingFires.insert(id)
            controller.sendLine(JSONValue.request(id: id, method: "fire", params: Self.fireParams(event)).jsonText)
        case .hold(let app):
            held.insert(app)
        case .release(let app):
            held.remove(app)  // `settle` answers what it held
        case .crash(let app):
            guard let live = apps[app] else { return undeliverable(step) }
            live.carrier.crash()
            close(live)
        case .linger(let app):
            lingering.insert(app)
        case .noSpawn(let app):
            unspawnable.insert(app)
        case .elapse(let duration) where manualClock:
            try advance(by: duration)
        case .elapse(let duration):
            let scaled = duration.inMilliseconds / 1_000 * timeScale
            // The last step's wait gets a margin so timers due at its very end have fired. An earlier wait stops 3 %
            // short instead, so the next step lands before a deadline just after it rather than after it; and it
            // counts from when the step before it began, as the deadline's clock started during that step (R92,
            // begun 3 s before a 180 s budget ends, has 150 ms to spare at its time scale: the step's settle on a
            // loaded machine took more).
            if isLast {
                pump(for: scaled + max(0.15, scaled * 0.05))
            } else {
                let spent = previousBegan.map { ContinuousClock.now - $0 } ?? .zero
                pump(for: max(0, scaled * 0.97 - spent.inMilliseconds / 1_000))
            }
        case .beginTask(let app, let number):
            guard apps[app] != nil else { return undeliverable(step) }
            request(app, "beginBackgroundTask", ["name": .string("row-task-\(number)")], as: .beginTask(app, number))
        case .endTask(let app, let number):
            guard apps[app] != nil else { return undeliverable(step) }
            let taskID = taskIDs[app]?[number] ?? Int64(number)
            request(app, "endBackgroundTask", ["taskID": .integer(taskID)], as: .refusable)
        case .footprint(let app, let bytes):
            guard apps[app] != nil else { return undeliverable(step) }
            request(app, "reportMemory", ["bytes": .integer(Int64(bytes))], as: .refusable)
        case .bogusAnswer(let app):
            guard let live = apps[app] else { return undeliverable(step) }
            // JSON-RPC gives no way to refuse a response: the broker's RPC layer drops an answer to nothing it
            // asked, so the core's `unexpectedAnswer` never shows on the wire. It takes a wildcard slot.
            live.send(["jsonrpc": "2.0", "id": 999_999, "result": [:]])
            observation.rejections.append(nil)
            observation.notes.append("\(step): the broker drops an answer to nothing it asked (no wire trace)")
        case .restores(let app, let payload):
            restorations[app] = try JSONParser.parse(payload)
        case .registerTask(let app, let identifier):
            guard apps[app] != nil else { return undeliverable(step) }
            request(app, "registerBackgroundTask", ["identifier": .string(identifier)], as: .refusable)
        case .submitTask(let app, let identifier, let kind, let after, let requires):
            guard apps[app] != nil else { return undeliverable(step) }
            var params: JSONObject = ["identifier": .string(identifier), "kind": .string(kind.rawValue)]
            if let after { params.append("earliestBeginAfter", .double(after.inMilliseconds / 1_000)) }
            if requires.contains(.externalPower) { params.append("requiresExternalPower", .bool(true)) }
            if requires.contains(.networkConnectivity) { params.append("requiresNetworkConnectivity", .bool(true)) }
            request(app, "submitBackgroundTask", .object(params), as: .refusable)
        case .completeTask(let app, let identifier, let success):
            guard apps[app] != nil else { return undeliverable(step) }
            request(app, "setTaskCompleted", ["identifier": .string(identifier), "success": .bool(success)],
                    as: .refusable)
        }
        try settle()
    }

    /// A step addressed to an app with no live connection cannot travel on the wire: the core's answer to it (a
    /// rejection) takes a wildcard slot.
    private func undeliverable(_ step: Step) {
        observation.rejections.append(nil)
        observation.notes.append("\(step): the app has no connection, so the step cannot be sent")
    }

    /// Opens a connection for `app` from a new carrier and says hello with its flags (the answer arrives later).
    func connect(_ app: AppID) throws {
        let live = RowApp(name: app, carrier: try RowAppCarrier(socketPath: broker.socketPath))
        connections.append(live)
        let appFlags = flags[app] ?? AppFlags()
        let identity: JSONValue = [
            "id": .string(Self.appIDPrefix + app.rawValue),
            "exitsOnSuspend": .bool(appFlags.exitsOnSuspend),
            "backgroundModes": .array(appFlags.backgroundModes.map { .string($0) }),
            "launchInBackground": .bool(appFlags.launchInBackground),
            "scenes": .bool(appFlags.adoptsScenes),
            "multipleScenes": .bool(appFlags.supportsMultipleScenes),
            "destructionConditions": .array(appFlags.destructionConditions.names.map { .string($0) }),
            "permittedTaskIdentifiers": .array(appFlags.permittedTaskIdentifiers.map { .string($0) }),
        ]
        let id = nextID()
        awaiting[id] = Awaited(connection: live, kind: .hello)
        live.send(.request(id: id, method: "hello", params: ["role": "app", "protocolVersion": 1, "app": identity]))
        activity = true
    }

    private func request(_ app: AppID, _ method: String, _ params: JSONValue, as kind: Awaited.Kind) {
        guard let live = apps[app] else { return }
        let id = nextID()
        awaiting[id] = Awaited(connection: live, kind: kind)
        live.send(.request(id: id, method: method, params: params))
    }

    /// Answers a callback request; after `willTerminate` the app's process exits unless it lingers.
    func answer(_ live: RowApp, id: JSONValue, callback: String) {
        let restoration = callback == LifecycleCallback.stateRestorationActivity.rawValue
            ? restorations[live.name] : nil
        // A push's completion handler says what it fetched: the rows' apps fetch nothing (`noData`, the core's
        // answer when it is not told).
        let result: JSONValue = callback == LifecycleCallback.didReceiveRemoteNotification.rawValue
            ? ["result": "noData"] : restoration.map { ["restoration": $0] } ?? [:]
        live.send(["jsonrpc": "2.0", "id": id, "result": result])
        if callback == LifecycleCallback.willTerminate.rawValue && !lingering.contains(live.name) {
            exitProcess(live)
        }
    }

    /// The app's process exits: it stops sending (the broker reads the answer, then end of stream) and its carrier
    /// ends; the socket is read until the broker closes it, so nothing the broker still writes fails with EPIPE.
    func exitProcess(_ live: RowApp) {
        guard live.isOpen, !live.isExiting else { return }
        live.isExiting = true
        shutdown(live.reader.descriptor, Int32(SHUT_WR))
        live.carrier.finishInput()
        if apps[live.name] === live { apps[live.name] = nil }
    }

    /// Closes a connection from the test's side and lets its carrier exit.
    func close(_ live: RowApp) {
        guard live.isOpen else { return }
        live.isOpen = false
        live.reader.closeDescriptor()
        live.carrier.finishInput()
        if apps[live.name] === live { apps[live.name] = nil }
        awaiting = awaiting.filter { $0.value.connection !== live }
    }

    /// `advance`s the manual clock by `duration`, answering callbacks while it steps (it waits for them), then
    /// checks that the device settled.
    func advance(by duration: Duration) throws {
        let id = nextID()
        awaiting[id] = Awaited(connection: nil, kind: .call)
        let params: JSONValue = ["byMs": .integer(Int64(duration.inMilliseconds))]
        controller.sendLine(JSONValue.request(id: id, method: "advance", params: params).jsonText)
        guard pumpAnswering(until: { self.answers[id] != nil }, timeout: .seconds(60)),
            let answer = answers.removeValue(forKey: id)
        else { throw FixtureError("no answer to advance") }
        guard let result = answer["result"] else { throw FixtureError("advance failed: \(answer)") }
        activity = true
        if let outstanding = result["outstanding"]?.arrayValue, !outstanding.isEmpty, held.isEmpty {
            observation.problems.append("advance left callbacks unanswered: \(outstanding)")
        }
    }

    /// Sends a controller request and pumps until its answer arrives.
    func call(_ method: String, _ params: JSONValue) throws -> JSONValue {
        let id = nextID()
        awaiting[id] = Awaited(connection: nil, kind: .call)
        controller.sendLine(JSONValue.request(id: id, method: method, params: params).jsonText)
        guard pump(until: { self.answers[id] != nil }, timeout: .seconds(10)),
            let answer = answers.removeValue(forKey: id)
        else { throw FixtureError("no answer to \(method)") }
        guard let result = answer["result"] else { throw FixtureError("\(method) failed: \(answer)") }
        return result
    }

    func nextID() -> String {
        defer { nextRequest += 1 }
        return "r\(nextRequest)"
    }

    private func journalEntries() throws -> [JSONValue] {
        try call("history", [:])["entries"]?.arrayValue ?? []
    }

    /// Stops the broker (returning its exit status), closes every connection and reaps every carrier.
    func stop() -> Int32 {
        let status = broker.stop()
        for live in connections {
            close(live)
            if live.carrier.reap(timeout: .seconds(5)) == nil {
                live.carrier.crash()
                _ = live.carrier.reap()
            }
        }
        unlink(journalPath)
        return status
    }
}

/// A request the runner waits for: who sent it and what its answer means.
struct Awaited {
    enum Kind {
        case ping, hello, call, beginTask(AppID, UInt64), refusable
    }

    let connection: RowApp?
    let kind: Kind
}

extension String {
    func replacingSuffix(_ suffix: String, with replacement: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self + replacement
    }
}

extension JSONValue {
    /// A JSON-RPC 2.0 request.
    static func request(id: String, method: String, params: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "id": .string(id), "method": .string(method), "params": params]
    }
}
