import LifebusLifecycle
import LifebusProtocol

/// Reading the background life's records into lanes.
///
/// A task's records make its runs: `submitted` opens a pending run (again while one is pending: the new request
/// replaces it, so the run keeps the later time), `launched` starts the pending run (or, with none in the journal, a
/// run of its own), `expiring` marks the running one, `completed`, `expired` and `cancelled` end the running one (a
/// `cancelled` with none running, the pending one); `deferred` leaves the pending one pending. A push record is a
/// step in its app's `pushes`; `answered` and `late` set the result of the app's latest
/// `didReceiveRemoteNotification` that has none. A protected-data record `available: false` opens a lock, `true`
/// closes it.
extension Builder {
    mutating func add(_ record: BackgroundTaskRecord) {
        let index = lane(record.app)
        see(record.atMs)
        switch record.event {
        case .submitted:
            if let position = pendingTasks[index][record.identifier] {
                lanes[index].tasks[position].submittedMs = record.atMs
                lanes[index].tasks[position].kind = record.kind
            } else {
                pendingTasks[index][record.identifier] = newTask(record, lane: index)
            }
        case .launched:
            let position = pendingTasks[index].removeValue(forKey: record.identifier) ?? newTask(record, lane: index)
            lanes[index].tasks[position].launchedMs = record.atMs
            lanes[index].tasks[position].outcome = .running
            runningTasks[index][record.identifier] = position
        case .expiring:
            guard let position = runningTasks[index][record.identifier] else { return }
            lanes[index].tasks[position].expiringMs = record.atMs
        case .completed, .expired:
            guard let position = runningTasks[index].removeValue(forKey: record.identifier) else { return }
            lanes[index].tasks[position].endMs = record.atMs
            lanes[index].tasks[position].outcome = record.event == .completed ? .completed : .expired
            lanes[index].tasks[position].success = record.success
        case .cancelled:
            guard let position = runningTasks[index].removeValue(forKey: record.identifier)
                ?? pendingTasks[index].removeValue(forKey: record.identifier) else { return }
            lanes[index].tasks[position].endMs = record.atMs
            lanes[index].tasks[position].outcome = .cancelled
        case .deferred:
            return  // not launched for a force-quit app: the pending run stays pending
        }
    }

    /// A new run for `record`'s task, pending from the record's time when it is a submission; its position.
    private mutating func newTask(_ record: BackgroundTaskRecord, lane index: Int) -> Int {
        let budget = record.kind == .appRefresh ? Double(profile.appRefreshBudget.components.seconds) * 1_000 : nil
        lanes[index].tasks.append(Timeline.TaskRun(
            seq: record.seq, identifier: record.identifier, kind: record.kind,
            submittedMs: record.event == .submitted ? record.atMs : nil, outcome: .pending, budgetMs: budget))
        return lanes[index].tasks.count - 1
    }

    mutating func add(_ record: PushDeliveryRecord) {
        let index = lane(record.app)
        see(record.atMs)
        lanes[index].pushes.append(
            Timeline.PushStep(
                seq: record.seq, event: record.event, result: record.result, atMs: record.atMs,
                presentation: record.presentation))
        guard record.event == .answered || record.event == .late, let result = record.result else { return }
        let callbacks = lanes[index].callbacks
        if let position = callbacks.indices.last(where: {
            callbacks[$0].callback == .didReceiveRemoteNotification && callbacks[$0].fetchResult == nil
        }) {
            lanes[index].callbacks[position].fetchResult = result
        }
    }

    mutating func add(_ record: ProtectedDataRecord) {
        see(record.atMs)
        if !record.available, openLock == nil {
            openLock = (record.atMs, record.seq)
        } else if record.available, let lock = openLock {
            locks.append(Timeline.ProtectedDataLock(seq: lock.seq, startMs: lock.atMs, endMs: record.atMs,
                                                    reopened: true))
            openLock = nil
        }
    }

    /// A kill (the broker journals a task's as `watchdog`, a callback-less transition to `notRunning`; `killed` is
    /// taken too) at the instant one of the app's tasks expired is that task's kill: its reason says so.
    mutating func nameTaskKills() {
        for index in lanes.indices {
            let expired = lanes[index].tasks.filter { $0.outcome == .expired }
            for position in lanes[index].endings.indices
            where [.killed, .watchdog].contains(lanes[index].endings[position].outcome) {
                let ending = lanes[index].endings[position]
                guard let task = expired.first(where: { $0.endMs == ending.atMs }) else { continue }
                lanes[index].endings[position].reason = "killed: background task \(task.identifier) expired"
            }
        }
    }
}
