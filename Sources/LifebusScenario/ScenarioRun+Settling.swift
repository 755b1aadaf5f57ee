import LifebusIO
import LifebusProtocol

/// What a step waits for so that the next meets the device the fuzzer's `DeviceModel` has, where the apps react at
/// once: after a `BGTask`'s launch, the app's end of it; before an `advance`, the connection of every process started.
extension ScenarioRun {
    /// The journal entries `step` caused, read once every `BGTask` they launched or told it expires has ended
    /// (`completed`, `expired` or `cancelled`), read again every 5 ms for at most `ScenarioRunner.settleLimit` of
    /// real time; with the tasks still not ended then (`APP TASK`, in the order they were launched), which run on.
    ///
    /// An app answers `performBackgroundTask` and completes the task from work it starts (`setTaskCompleted` from a
    /// `Task`, as FeedReader does): until it has, the device holds the app in the background, so what the next step
    /// does depends on how soon it comes — a critical memory warning kills a suspended app but only warns one whose
    /// task still runs. Waiting here makes the step's outcome the one a device whose apps react at once has (the
    /// fuzzer's `DeviceModel`), on every run, as an `advance` does at each task it launches. Not for an `advance`
    /// (the broker settles it), nor a step followed by one (the advance does), nor a failed step.
    func settledEntries(of step: ScenarioStep, passed: Bool, next: ScenarioStep?)
        -> Result<(entries: [JournalEntry], unended: [String]), RPCError>
    {
        let settles: Bool
        switch (step, next) {
        case (.advance, _), (_, .advance?): settles = false
        default: settles = passed
        }
        let deadline = EventLoop.monotonicNanoseconds() + ScenarioRunner.settleLimit.clampedNanoseconds
        while true {
            let entries: [JournalEntry]
            switch session.entries(after: lastSeq) {
            case .success(let read): entries = read
            case .failure(let error): return .failure(error)
            }
            let unended = settles ? Self.unendedTasks(entries) : []
            guard !unended.isEmpty, EventLoop.monotonicNanoseconds() < deadline else {
                return .success((entries, unended))
            }
            session.pause(.milliseconds(5))
        }
    }

    /// The `BGTask`s (`APP TASK`) that `entries` launch or tell they expire and do not end, in that order.
    static func unendedTasks(_ entries: [JournalEntry]) -> [String] {
        var unended: [String] = []
        for case .task(let task) in entries {
            let name = "\(task.app) \(task.identifier)"
            switch task.event {
            case .launched, .expiring:
                if !unended.contains(name) { unended.append(name) }
            case .completed, .expired, .cancelled:
                unended.removeAll { $0 == name }
            case .submitted, .deferred:
                break
            }
        }
        return unended
    }
}

/// Before an `advance`: the processes started have connected.
extension ScenarioRun {
    /// Before an `advance`: until every app process the broker started in this run has connected (said `hello`) or
    /// ended, read from the journal every 5 ms for at most the runner's patience; `nil`, or why it stopped waiting.
    ///
    /// On the device the fuzzer's `DeviceModel` has, a process the broker starts connects at once; a real one takes
    /// real time, under load more than the 1 s a `fire` waits before it hands its answer to the `advance` after it
    /// (a push that launches its app, say). Advanced meanwhile, virtual time would pass the app's launch budget and
    /// the broker would kill the app (`watchdog`) that was only slow to start, on some runs only. A process that
    /// never connects is still killed at its launch budget, once the patience has passed.
    func awaitConnections() -> String? {
        let deadline = EventLoop.monotonicNanoseconds() + runner.patience.clampedNanoseconds
        while true {
            let entries: [JournalEntry]
            switch session.entries(after: startSeq) {
            case .success(let read): entries = read
            case .failure(let error): return error.message
            }
            guard !Self.connectingProcesses(entries).isEmpty, EventLoop.monotonicNanoseconds() < deadline else {
                return nil
            }
            session.pause(.milliseconds(5))
        }
    }

    /// The processes (`APP pid`) that `entries` start and neither connect nor end.
    static func connectingProcesses(_ entries: [JournalEntry]) -> Set<String> {
        var connecting: Set<String> = []
        for case .process(let process) in entries {
            guard let pid = process.pid else { continue }
            let name = "\(process.app) \(pid)"
            switch process.event {
            case .started: connecting.insert(name)
            case .connected, .exited, .killed, .launchFailed, .disconnected: connecting.remove(name)
            case .launching: break
            }
        }
        return connecting
    }
}
