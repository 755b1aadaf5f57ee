@_spi(Hosting) import Lifebus
import LifebusBrokerMachine
import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import Logging

/// The whole broker without sockets: a `BrokerMachine` on a virtual clock this transport owns, a controller session
/// for the test, and in-process apps (`Application`s attached to it) whose callbacks it delivers as the SDK's
/// connection does and whose answers it feeds back. No sockets, no processes, no threads: deterministic.
///
/// An app's death and relaunch are simulated as the live supervisor does them for an installed app: a launch fired
/// for an in-process app that is not connected installs it (with its last `connect`'s options and delegates), the
/// machine's `spawn` connects it again (a `started` record, a new pid), and its end — a kill, a crash, the close
/// after `willTerminate` — is reported as its process's exit, so the machine may start it once more.
///
/// Owns the machine, its journal, the clock and every app. Invariants: inputs are fed one at a time, in the order
/// they happened (`pending`); after `settle()` no callback waits to be delivered but held apps' (apps answer in app
/// id order); `timer` is the deadline of the machine's last `armTimer` effect; handlers take no virtual time (each
/// answer's `handlerMs` is 0). An app's expiration handler runs inside the machine's step; what it starts (a `Task`
/// ending the task) runs when the main actor next is free.
@MainActor
final class InMemoryTransport: BusTransport {
    private static let quiet = Logger(label: "lifebus-testing") { _ in SwiftLogNoOpLogHandler() }
    /// The wall time records carry: fixed, so journals are the same on every run.
    private static let wallMs: Int64 = 1_700_000_000_000

    private let journal = MemoryJournal()
    private var machine: BrokerMachine
    private var now = Instant(nanoseconds: 1_000_000_000)
    private var timer: Instant?
    private var pending: [BrokerInput] = []
    private var isFeeding = false
    private var callbacks: [(session: SessionID, params: JSONValue, app: AppID, id: CallbackID)] = []
    private var replies: [Ticket: Result<JSONValue, RPCError>] = [:]
    private var apps: [SessionID: Application] = [:]
    /// The apps whose callbacks wait undelivered (`hold(_:)`).
    private var held: Set<AppID> = []
    private var nextSession: UInt64 = 2
    private var nextTicket: UInt64 = 1
    private var nextPid: Int32 = 10_000
    /// How each in-process app is brought up again after its end: its last `connect`'s options and delegates.
    private var launchers: [AppID: Launcher] = [:]
    /// The in-process apps installed in the machine (at the first launch fired while they were not connected).
    private var installed: Set<AppID> = []
    /// The pid of each app the machine had started (`spawn`), until its end is reported (`processExited`).
    private var spawned: [AppID: Int32] = [:]
    /// The apps the machine asked to start, connected by `settle()`.
    private var starting: [AppID] = []
    private let controller = SessionID(1)
    let socketPath: String? = nil

    init(profile: Profile, sceneOrderSeed: UInt64 = 0, knobs: DeviceKnobs = DeviceKnobs()) async throws {
        let settings = MachineSettings(device: DeviceConfiguration(
            profile: profile, sceneOrderSeed: sceneOrderSeed, knobs: knobs))
        machine = BrokerMachine(settings: settings, journal: journal, logger: Self.quiet, epoch: now)
        pending.append(.accepted(controller, identity: Self.identity(pid: 1), overTCP: false, spoke: true))
        feedPending()
        let hello = HelloParams(role: .controller, clientName: "lifebus-testing")
        _ = try exchange(controller, LifebusMethod.hello, hello.json).get()
    }

    func request(_ method: String, _ params: JSONValue) async throws -> JSONValue {
        try await send(method, params).value()
    }

    func send(_ method: String, _ params: JSONValue) async -> PendingAnswer {
        if method == LifebusMethod.fire { installForRelaunch(params) }
        let ticket = post(controller, method, params)
        await settle()
        return PendingAnswer { [self] in
            await settle()
            guard let reply = replies.removeValue(forKey: ticket) else {
                throw LifebusTestBusError(
                    "the in-memory broker did not answer \(method): the device waits for something no step will "
                        + "bring (an app that is not connected: in memory, launch(_:delegate:) brings it; an app "
                        + "held: release(_:) lets it answer)"
                )
            }
            return try reply.get()
        }
    }

    func hold(_ id: AppID) {
        held.insert(id)
    }

    func release(_ id: AppID) async {
        held.remove(id)
        await settle()
    }

    func connect(
        _ id: AppID, options: ApplicationOptions, delegate: some ApplicationDelegate,
        sceneDelegate: (any SceneDelegate)?
    ) async throws -> Application {
        let launcher = Launcher(options: options, delegate: delegate, sceneDelegate: sceneDelegate)
        launchers[id] = launcher
        nextPid += 1
        let application = try attach(id, launcher, pid: nextPid)
        await settle()
        return application
    }

    /// Connects the app `id` as `launcher` says, from a process `pid`, and has it say hello; returns once the broker
    /// answered it (the callbacks it causes not yet delivered).
    private func attach(_ id: AppID, _ launcher: Launcher, pid: Int32) throws(LifebusTestBusError) -> Application {
        let options = launcher.options
        let session = SessionID(nextSession)
        nextSession += 1
        let application = Application(id: id.rawValue, options: options)
        application.attach(delegate: launcher.delegate, sceneDelegate: launcher.sceneDelegate) {
            [weak self] method, params in
            guard let self, self.apps[session] != nil else {
                return .failure(RPCError(.connectionClosed, "the app is not connected to the broker"))
            }
            return self.exchange(session, method, params)
        }
        apps[session] = application
        pending.append(.accepted(session, identity: Self.identity(pid: pid), overTCP: false, spoke: true))
        var flags = AppFlags(
            exitsOnSuspend: options.exitsOnSuspend, backgroundModes: options.backgroundModes,
            launchInBackground: options.launchInBackground
        )
        flags.adoptsScenes = launcher.sceneDelegate != nil
        flags.supportsMultipleScenes = options.supportsMultipleScenes
        flags.implementedCallbacks = options.implementedCallbacks
        flags.destructionConditions = options.destructionConditions
        flags.permittedTaskIdentifiers = options.permittedTaskIdentifiers
        var hello = HelloParams(role: .app, appID: id.rawValue, flags: flags, clientName: "lifebus-testing")
        do {
            var answer = exchange(session, LifebusMethod.hello, hello.json)
            if case .failure(let error) = answer, error.lifebusCode == .scenesUnsupported, flags.adoptsScenes,
               options.fallsBackFromScenes {
                // As the SDK on a socket: hello again without scenes, the app-delegate life cycle from now on.
                hello.flags.adoptsScenes = false
                hello.flags.supportsMultipleScenes = false
                hello.flags.implementedCallbacks.removeAll(where: ApplicationOptions.isSceneOnly)
                application.hostFellBackFromScenes()
                answer = exchange(session, LifebusMethod.hello, hello.json)
            }
            _ = try answer.get()
        } catch {
            if apps[session] != nil {
                end(session)
                feedPending()
            }
            throw LifebusTestBusError("the broker refused \(id)'s hello: \(error)")
        }
        return application
    }

    /// Before a launch of an in-process app that is not connected is fired (a `launch`, or a `bgtask` or `push` that
    /// may launch it into the background): installs it, so the machine starts it (`spawn`) as it starts an installed
    /// app's process, instead of waiting for a connection no one will make.
    private func installForRelaunch(_ params: JSONValue) {
        let launching: Set<String> = [FireEvent.launch.rawValue, FireEvent.bgtask.rawValue, FireEvent.push.rawValue]
        guard params["event"]?.stringValue.map(launching.contains) == true, let name = params["app"]?.stringValue,
            let launcher = launchers[AppID(name)], !installed.contains(AppID(name)),
            !apps.values.contains(where: { $0.id == name })
        else { return }
        let id = AppID(name)
        installed.insert(id)
        let options = launcher.options
        var flags = AppFlags(
            exitsOnSuspend: options.exitsOnSuspend, backgroundModes: options.backgroundModes,
            launchInBackground: options.launchInBackground)
        flags.adoptsScenes = launcher.sceneDelegate != nil
        flags.supportsMultipleScenes = options.supportsMultipleScenes
        flags.permittedTaskIdentifiers = options.permittedTaskIdentifiers
        let app = InstalledApp(
            id: id, flags: flags, executable: "(in-process)", memoryLimit: nil, logPath: "/dev/null",
            manifestPath: nil)
        let ticket = Ticket(nextTicket)
        nextTicket += 1
        pending.append(.installed(ticket, .success(app)))
        feedPending()
        replies[ticket] = nil
    }

    /// Connects an app the machine started (`spawn`) from its new pid; a hello it refuses ends the process.
    private func start(_ id: AppID) {
        guard let launcher = launchers[id], let pid = spawned[id] else { return }
        do {
            _ = try attach(id, launcher, pid: pid)
        } catch {
            guard let pid = spawned.removeValue(forKey: id) else { return }
            pending.append(.processExited(id, pid: pid, .exited(3), killedFor: nil))
            feedPending()
        }
    }

    func crash(_ id: AppID) async throws {
        guard let session = apps.first(where: { $0.value.id == id.rawValue })?.key else {
            throw LifebusTestBusError("\(id) is not connected to the broker")
        }
        held.remove(id)
        end(session, exit: .signaled(6))  // SIGABRT: a crash
        feedPending()
        await settle()
    }

    func advance(by duration: Duration) async throws {
        let end = now + duration
        while let deadline = timer, deadline <= end {
            now = max(now, deadline)
            timer = nil
            pending.append(.timerFired)
            feedPending()
            await settle()
        }
        now = end
    }

    func close() async {
        pending.append(.shutdown)
        feedPending()
        for (session, application) in apps {
            apps[session] = nil
            application.hostEnded()
        }
    }

    /// Sends a request from `session` and returns its answer, which the machine gives at once (an app's requests and
    /// `hello` never wait for the device).
    private func exchange(_ session: SessionID, _ method: String, _ params: JSONValue) -> Result<JSONValue, RPCError> {
        let ticket = post(session, method, params)
        return replies.removeValue(forKey: ticket)
            ?? .failure(RPCError.internalError("the in-memory broker did not answer \(method) at once"))
    }

    private func post(_ session: SessionID, _ method: String, _ params: JSONValue) -> Ticket {
        let ticket = Ticket(nextTicket)
        nextTicket += 1
        let request = RPCRequest(id: .number(Int64(ticket.rawValue)), method: method, params: params)
        pending.append(.request(session, request, ticket))
        feedPending()
        return ticket
    }

    /// How many turns of the main actor the apps' own tasks get when no callback is left (each a `Task.yield()`).
    static let appTurns = 8

    /// Connects the apps the machine started (`starting`), delivers the callbacks the machine sent, one at a time,
    /// and feeds their answers, until none is left but those of held apps (`held`), which wait in `callbacks` until
    /// released. Of the callbacks waiting at once, the app with the smallest id answers first (the canonical order of
    /// `Protocol/lifecycle.md`'s table, whatever order the machine sent them in).
    private func settle() async {
        var idleTurns = 0
        while true {
            if !starting.isEmpty {
                start(starting.removeFirst())
                continue
            }
            guard let next = callbacks.indices.filter({ !held.contains(callbacks[$0].app) })
                .min(by: { callbacks[$0].app < callbacks[$1].app })
            else {
                // The apps' own tasks (a BGTask's work and its `setTaskCompleted`, started by a launch handler that
                // returned) get turns on the main actor before the device counts as settled.
                guard idleTurns < Self.appTurns else { return }
                idleTurns += 1
                await Task.yield()
                continue
            }
            idleTurns = 0
            let callback = callbacks.remove(at: next)
            guard let application = apps[callback.session] else { continue }
            let answer: Result<CallbackAnswer, RPCError>
            do throws(RPCError) {
                let params = try CallbackParams(json: callback.params)
                let handled = await application.hostDeliver(params)
                answer = .success(CallbackAnswer(
                    handlerMs: 0, handlerFailed: handled.handlerFailed, restoration: handled.restoration,
                    result: handled.result, presentation: handled.presentation))
            } catch {
                answer = .failure(error)
            }
            guard apps[callback.session] != nil else { continue }
            pending.append(.callbackAnswered(callback.app, callback.id, answer))
            feedPending()
        }
    }

    /// Feeds the pending inputs to the machine and performs their effects (which may add inputs) until none is left.
    private func feedPending() {
        guard !isFeeding else { return }
        isFeeding = true
        defer { isFeeding = false }
        var effects: [BrokerEffect] = []
        while !pending.isEmpty {
            effects.removeAll(keepingCapacity: true)
            machine.handle(pending.removeFirst(), at: now, wallMs: Self.wallMs, into: &effects)
            effects.forEach(perform)
        }
    }

    /// A result written by its direct writer, read back as the value a peer would receive.
    private static func readBack(_ write: (inout [UInt8]) -> Void) -> Result<JSONValue, RPCError> {
        var text: [UInt8] = []
        write(&text)
        return Result { () throws(JSONParseError) in try JSONParser.parse(text) }
            .mapError { RPCError.internalError("unreadable written result: \($0)") }
    }

    private func perform(_ effect: BrokerEffect) {
        switch effect {
        case .reply(let ticket, let result):
            replies[ticket] = result
        case .replyFire(let ticket, let result):
            replies[ticket] = Self.readBack(result.write)
        case .replyPing(let ticket, let result):
            replies[ticket] = Self.readBack(result.write)
        case .sendCallback(let session, let params, let app, let id):
            callbacks.append((session, params.json, app, id))
        case .notify(let session, let method, let params):
            guard let application = apps[session] else { return }
            if method == LifebusMethod.protectedDataChanged, let available = params["available"]?.boolValue {
                application.hostProtectedDataChanged(available: available)
            } else if method == LifebusMethod.backgroundTaskExpiring,
                let task = try? BackgroundTaskExpiringParams(json: params)
            {
                application.hostBackgroundTaskExpiring(task.taskID)
            }
        case .close(let session, _):
            end(session)
        case .kill(let app, _, let reason):
            if let session = apps.first(where: { $0.value.id == app.rawValue })?.key {
                end(session, exit: .signaled(9), killedFor: reason)  // SIGKILL
            } else if let pid = spawned.removeValue(forKey: app) {
                pending.append(.processExited(app, pid: pid, .signaled(9), killedFor: reason))
            }
        case .armTimer(let deadline):
            timer = deadline
        case .commitJournal:
            pending.append(.commitJournal)
        case .install(let ticket, _):
            // Manifests name executables; an in-memory bus runs in-process delegates only (`launch(_:delegate:)`).
            pending.append(.installed(ticket, .failure(.invalidParams(
                field: "manifest", "an in-memory bus runs in-process delegates: launch the app with its delegate"))))
        case .spawn(let app):
            guard launchers[app.id] != nil else {
                // Only in-process apps are installed; answered as a failed spawn so a launch never waits forever.
                pending.append(.launchFailed(
                    app.id, path: "", errno: 0, detail: "an in-memory bus starts no processes"))
                return
            }
            nextPid += 1
            spawned[app.id] = nextPid
            pending.append(.processSpawned(app.id, pid: nextPid))
            starting.append(app.id)
        case .forget, .introduced, .holdProcess, .releaseProcess, .freeze, .thaw:
            break
        }
    }

    /// The session's connection ends: its app (if any) is gone, as when its process dies — a process the machine
    /// started exits with `exit` (`killedFor`: the kill that ended it) and is reported so.
    private func end(_ session: SessionID, exit: ExitStatus = .exited(0), killedFor: KillReason? = nil) {
        guard session != controller else { return }
        let application = apps.removeValue(forKey: session)
        application?.hostEnded()
        callbacks.removeAll { $0.session == session }
        pending.append(.ended(session))
        if let application, let pid = spawned.removeValue(forKey: AppID(application.id)) {
            pending.append(.processExited(AppID(application.id), pid: pid, exit, killedFor: killedFor))
        }
    }

    private static func identity(pid: Int32) -> PeerIdentity {
        PeerIdentity(pid: pid, uid: 1000, gid: 1000)
    }
}

/// How the in-memory transport brings an in-process app up: the options and delegates of its `connect`. A value
/// holding the test's delegates (main-actor objects, used on the main actor only).
private struct Launcher {
    let options: ApplicationOptions
    let delegate: any ApplicationDelegate
    let sceneDelegate: (any SceneDelegate)?
}
