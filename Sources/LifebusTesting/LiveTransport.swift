@_spi(Hosting) import Lifebus
import LifebusBrokerLauncher
import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// The real `lifebusd` on a socket in a temporary folder of its own (`BrokerProcess`), with in-process apps connected
/// to it through the SDK over that socket, and installed apps (`LifebusTestBus.install(manifest:)`) that its supervisor
/// starts as processes of their own.
///
/// In-process apps share the test's process: a scenario in which the broker kills one of them (watchdog, termination
/// of a suspended app, memory pressure) belongs on the in-memory transport or on an installed app, as the broker
/// would kill the test itself (it spares only its own pid).
///
/// Owns the broker process (which owns its folder: socket, journal), the apps' run tasks and the gates their
/// callbacks pass (each test delegate runs behind a `HeldDelegate`). Time: a broker that accepts `--clock manual`
/// moves its clock only on `advance` (`{"byMs":N}`, answered `{"nowMs":…}`); with one that does not (`manualClock`
/// false), `advance(by:)` lets that much real time pass. Invariant: after `close()` the apps have ended, the broker
/// has exited and the folder is gone; a transport dropped without `close()` stops its apps, SIGKILLs and reaps its
/// broker and removes the folder in its deinit (a test that failed half-way leaves nothing behind). Closing drops
/// every gate, so a callback still held ends.
@MainActor
final class LiveTransport: BusTransport {
    private let socket: String
    var socketPath: String? { socket }
    private let broker: BrokerProcess
    private let manualClock: Bool
    /// How long (real time) a request may wait for its answer.
    private let answerLimit: Duration
    private var applications: [Application] = []
    private var runs: [Task<Void, Never>] = []
    /// The gate of each in-process app's callbacks (`hold(_:)`), by the id it connected with last.
    private var gates: [AppID: CallbackGate] = [:]
    private var closed = false
    /// Whether each broker program accepted `--clock manual` (asked once per program and test process).
    private static var acceptsManualClock: [String: Bool] = [:]

    init(
        broker path: String?, profile: Profile, sceneOrderSeed: UInt64 = 0,
        knobs: DeviceKnobs = DeviceKnobs(), answerLimit: Duration
    ) async throws {
        self.answerLimit = answerLimit
        let seed = (sceneOrderSeed == 0 ? [] : ["--scene-order-seed", String(sceneOrderSeed)]) + knobs.arguments
        var launch = BrokerLaunch(
            program: path, arguments: ["--profile", profile.rawValue, "--log-level", "warning"] + seed,
            purpose: "lifebus-testing", output: .discarded, startLimit: .seconds(20),
            freshAppState: true)
        let program = path ?? "lifebusd"
        let manual = Self.acceptsManualClock[program] ?? true
        let started: BrokerProcess
        do throws(BrokerProcess.Failure) {
            launch.arguments += manual ? ["--clock", "manual"] : []
            started = try await BrokerProcess.start(launch)
            manualClock = manual
        } catch where manual && error.exitedBeforeListening {
            // A broker without the manual clock refuses the option and exits at once.
            launch.arguments.removeLast(2)
            do throws(BrokerProcess.Failure) {
                started = try await BrokerProcess.start(launch)
            } catch {
                throw LifebusTestBusError("\(program) did not start: \(error) (its reasons are on stderr)")
            }
            manualClock = false
        } catch {
            throw LifebusTestBusError("\(program) did not start: \(error) (its reasons are on stderr)")
        }
        Self.acceptsManualClock[program] = manualClock
        broker = started
        socket = started.socketPath
    }

    isolated deinit {
        guard !closed else { return }
        for application in applications { application.hostStop() }
        for gate in gates.values { gate.drop() }
        broker.kill()
    }

    func request(_ method: String, _ params: JSONValue) async throws -> JSONValue {
        try await LiveController.request(path: socket, method, params, within: answerLimit)
    }

    func send(_ method: String, _ params: JSONValue) async -> PendingAnswer {
        let answer = await LiveController.send(path: socket, method, params, within: answerLimit)
        return PendingAnswer { try await answer.value }
    }

    func hold(_ id: AppID) {
        gates[id]?.close()
    }

    func release(_ id: AppID) async {
        gates[id]?.open()
        await barrier()
    }

    func connect(
        _ id: AppID, options: ApplicationOptions, delegate: some ApplicationDelegate,
        sceneDelegate: (any SceneDelegate)?
    ) async throws -> Application {
        var options = options
        options.socketPath = socket
        options.connectTimeout = options.connectTimeout ?? .seconds(10)
        let application = Application(id: id.rawValue, options: options)
        let gate = CallbackGate()
        gates[id] = gate
        applications.append(application)
        let heldScenes = sceneDelegate.map { HeldSceneDelegate($0, gate: gate) }
        runs.append(Task { @MainActor in
            await application.run(delegate: HeldDelegate(delegate, gate: gate), sceneDelegate: heldScenes)
        })
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while clock.now < deadline {
            if try await isConnected(id) {
                await barrier()
                return application
            }
            if let failure = application.connectFailure { throw LifebusTestBusError(failure) }
            try await clock.sleep(for: .milliseconds(10))
        }
        throw LifebusTestBusError("\(id) did not come up on the broker within 10 s")
    }

    func crash(_ id: AppID) async throws {
        guard let application = applications.last(where: { $0.id == id.rawValue }) else {
            throw LifebusTestBusError("\(id) is not an in-process app of this bus")
        }
        application.hostStop()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while try await isConnected(id) {
            guard clock.now < deadline else { throw LifebusTestBusError("the broker still lists \(id) after 10 s") }
            try await clock.sleep(for: .milliseconds(10))
        }
        gates[id]?.drop()  // a callback it held ends unanswered: the broker saw the connection go first
        await barrier()
    }

    /// Whether the broker has taken the app's hello (the app is listed as connected).
    private func isConnected(_ id: AppID) async throws -> Bool {
        let status = try StatusResult(json: try await request(LifebusMethod.status, .object([:])))
        return status.apps.contains { $0.id == id.rawValue && $0.connected }
    }

    /// Returns once everything queued on the device before it (an app's launch) has completed: the device plans an
    /// event only at the head of its queue, with every app idle, so a `fire` that waits is a barrier. The event is
    /// one the device refuses without a trace in the journal (bringing to the front an app no test names).
    private func barrier() async {
        _ = try? await request(LifebusMethod.fire, FireParams(event: .activate, app: "lifebus-testing.barrier").json)
    }

    func advance(by duration: Duration) async throws {
        guard manualClock else {
            try await ContinuousClock().sleep(for: duration)
            return
        }
        let milliseconds = Int64(duration.components.seconds) * 1000
            + duration.components.attoseconds / 1_000_000_000_000_000
        _ = try await request("advance", .object(["byMs": .integer(milliseconds)]))
    }

    func close() async {
        guard !closed else { return }
        closed = true
        for application in applications { application.hostStop() }
        for gate in gates.values { gate.drop() }
        for run in runs { await run.value }
        await broker.stop()
    }
}
