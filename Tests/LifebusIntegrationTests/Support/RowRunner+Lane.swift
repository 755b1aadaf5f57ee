import Glibc
import LifebusCore
import LifebusLifecycle
import LifebusIO
import LifecycleContract

/// Everything one row case produced, handed from the runner's thread to the test.
struct RowOutcome: Sendable {
    var observation = RowObservation()
    /// How each process the broker said it killed ended (128+9 for SIGKILL; nil if it never ended).
    var killedProcessStatuses: [Int32?] = []
    var brokerExitStatus: Int32 = -1
    /// Why the case could not run to its end.
    var failure: String?
}

extension RowRunner {
    /// Plays `row` under `profile` on the calling thread, from a fresh broker to its stop.
    static func play(_ row: Row, profile: Profile) -> RowOutcome {
        var outcome = RowOutcome()
        let runner: RowRunner
        do {
            let knobs = row.knobs.arguments
            runner = usesManualClock(row)
                ? try RowRunner(profile: profile, timeScale: 1, launchBudget: nil, manualClock: true, knobs: knobs)
                : try RowRunner(
                    profile: profile, timeScale: timeScale(for: row), launchBudget: launchBudget(for: row),
                    knobs: knobs)
        } catch {
            outcome.failure = "\(error)"
            return outcome
        }
        do {
            outcome.observation = try runner.run(row)
        } catch {
            outcome.failure = "\(error)"
            outcome.observation = runner.observation
        }
        outcome.killedProcessStatuses = runner.observation.killedPIDs.map { pid in
            runner.connections.first { $0.carrier.pid == pid }?.carrier.reap(timeout: .seconds(5))
        }
        outcome.brokerExitStatus = runner.stop()
        return outcome
    }
}

/// Runs row cases on threads of their own, at most `width` at once: a case mostly waits on its broker, so more cases
/// run side by side than the test's cooperative pool has threads, and none of them blocks that pool.
///
/// An actor: the count of free places and the queue of waiting cases are its state.
actor RowLane {
    static let shared = RowLane(width: 8)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(width: Int) {
        free = width
    }

    /// Runs `body` on a new thread once a place is free, and returns what it returned.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        if free > 0 {
            free -= 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
        let result = await withCheckedContinuation { continuation in
            DetachedThread.start { continuation.resume(returning: body()) }
        }
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
        return result
    }
}
