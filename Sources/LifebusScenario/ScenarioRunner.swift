public import LifebusLifecycle
import LifebusBrokerLauncher
import LifebusIO
public import LifebusProtocol

/// Runs one scenario under one profile and says what came of it, step by step: the library API behind
/// `lifebus run`, and the fuzzer's way to try a generated scenario.
///
/// A plain value (what to run against and how patient to be); each `run` is independent. With `.own`, every run
/// starts a private `lifebusd --clock manual --profile P --advance-settle 1s` (an advance waits `settleLimit`, 1 s of
/// real time, for unanswered callbacks and for a `BGTask` just launched before stepping on; a step that launched a
/// `BGTask` waits as long for the app to end it, `ScenarioRun.settledEntries`; `--scene-order-seed N` too when
/// `sceneOrderSeed` is given, and the
/// device knobs `knobs` gives, `DeviceKnobs.arguments`) on a
/// temporary socket and stops it (and so its apps) at the end, also when a step failed; with `.running(socket)`,
/// the run resets that broker first and runs under its profile. Never throws: whatever goes wrong is in the result.
public struct ScenarioRunner: Sendable {
    public enum Broker: Sendable, Equatable {
        /// A private broker per run.
        case own
        /// A broker already listening at this socket.
        case running(socket: String)
    }

    public var broker: Broker
    /// The folder manifest paths are taken from (the scenario file's).
    public var directory: String
    /// How long, in real time, a step may wait for the broker or the apps (an event's callbacks, a launch, an
    /// app's end after `kill`); a `wait` step has its own timeout.
    public var patience: Duration
    /// With `.own`: the seed of the scene orders Apple does not document (`lifebusd --scene-order-seed`; `nil`:
    /// the broker's default, 0).
    public var sceneOrderSeed: UInt64?
    /// With `.own`: the device's choices where Apple is silent, over the profile's (`DeviceKnobs`).
    public var knobs: DeviceKnobs

    /// How long, in real time, the apps may take to react where their reaction takes no virtual time: the private
    /// broker's `--advance-settle`, and how long a step that launched a `BGTask` waits for the app to end it.
    static let settleLimit = Duration.seconds(1)

    public init(
        broker: Broker = .own, directory: String = ".", patience: Duration = .seconds(10),
        sceneOrderSeed: UInt64? = nil, knobs: DeviceKnobs = DeviceKnobs()
    ) {
        self.broker = broker
        self.directory = directory
        self.patience = patience
        self.sceneOrderSeed = sceneOrderSeed
        self.knobs = knobs
    }

    /// Runs `scenario` under `profile` (with `.running`, the broker's profile is what it is: `profile` only names the
    /// result).
    public func run(_ scenario: Scenario, profile: Profile) -> ScenarioResult {
        let started = EventLoop.monotonicNanoseconds()
        var result = ScenarioResult(scenario: scenario.name, profile: profile)
        var process: BrokerProcess?
        let socket: String
        switch broker {
        case .own:
            do throws(BrokerProcess.Failure) {
                let seed = sceneOrderSeed.map { ["--scene-order-seed", String($0)] } ?? []
                let started = try BrokerProcess(BrokerLaunch(
                    arguments: [
                        "--log-level", "error", "--clock", "manual", "--profile", profile.rawValue,
                        "--advance-settle", DurationText.format(Self.settleLimit),
                    ] + seed + knobs.overridden(by: scenario.knobs).arguments,
                    purpose: "lifebus-run", output: .discarded, freshAppState: true))
                process = started
                socket = started.socketPath
            } catch {
                result.failure = "cannot start lifebusd: \(error)"
                return result
            }
        case .running(let path):
            guard scenario.knobs == DeviceKnobs() else {
                let given = scenario.knobs.words.map { "\($0.flag): \($0.word)" }.joined(separator: ", ")
                let flags = scenario.knobs.arguments.joined(separator: " ")
                result.failure = "the scenario sets device knobs (\(given)), which a broker takes when it starts; the "
                    + "broker at \(path) is already running: run the file on a private broker (lifebus run FILE, "
                    + "without --socket), or start this one with lifebusd \(flags)"
                return result
            }
            socket = path
        }
        do throws(RPCError) {
            let session = try ScenarioSession(path: socket)
            var run = ScenarioRun(scenario: scenario, profile: profile, session: session, runner: self)
            run.execute(into: &result)
            session.close()
        } catch {
            result.failure = "cannot reach the broker at \(socket): \(error.message)"
        }
        process?.stop()
        result.seconds = Double(EventLoop.monotonicNanoseconds() - started) / 1e9
        return result
    }
}

extension ScenarioRunner {
    /// The profile of the broker listening at `socket` (what `.running(socket)` runs under).
    public static func profile(ofBrokerAt socket: String) -> Result<Profile, RPCError> {
        let session: ScenarioSession
        do throws(RPCError) {
            session = try ScenarioSession(path: socket)
        } catch {
            return .failure(error)
        }
        defer { session.close() }
        return session.status().map(\.profile)
    }
}
