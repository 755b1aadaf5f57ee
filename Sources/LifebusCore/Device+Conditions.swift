import LifebusLifecycle

/// The device's conditions for `processing` tasks (`Protocol/lifecycle.md`, "Device conditions", B15–B19): a
/// processing task that falls due at its earliest begin date runs only while the device is idle (locked
/// [inference]), on external power if it requires it, and online if it requires it; until then it waits (pending,
/// `status` `waiting` with what it waits for) and runs in the event that meets its last requirement (`sleep`, `power
/// external`, `network online`). A running processing task whose requirement the device loses expires (its
/// expiration handler, as when the user comes back). `fire bgtask` runs a task on demand, whatever the conditions.
extension Device {
    /// What keeps `request` from running now: nothing for a task that is not `processing`.
    func unmetRequirements(_ request: BackgroundTaskRequest) -> [ProcessingRequirement] {
        guard request.kind == .processing else {
            return []
        }
        var unmet: [ProcessingRequirement] = []
        if !locked {
            unmet.append(.idle)
        }
        if request.requiresExternalPower, conditions.power != .external {
            unmet.append(.externalPower)
        }
        if request.requiresNetworkConnectivity, conditions.network != .online {
            unmet.append(.networkConnectivity)
        }
        return unmet
    }

    /// `fire power SOURCE` (B16–B18): the device's power changes.
    mutating func planPower(_ power: PowerSource) {
        guard conditions.power != power else {
            return
        }
        conditions.power = power
        planConditionsChanged()
    }

    /// `fire network STATE` (B16, B17): the device's network changes.
    mutating func planNetwork(_ network: NetworkState) {
        guard conditions.network != network else {
            return
        }
        conditions.network = network
        planConditionsChanged()
    }

    /// The conditions changed in the event being planned (`sleep`, `power`, `network`): every running processing
    /// task whose requirements no longer hold expires, and every waiting task whose requirements now hold falls
    /// due, each in a stage after the event's own moves. The device's lock is not a requirement a running task
    /// loses here: the user's return expires it (`planProcessingExpiry`).
    mutating func planConditionsChanged() {
        guard let stage = stageAfterPlannedWorks else {
            return
        }
        for i in apps.indices where index[apps[i].id] == i {
            var expires = false, performs = false
            for k in apps[i].scheduledTasks.indices {
                let task = apps[i].scheduledTasks[k]
                guard task.request.kind == .processing else {
                    continue
                }
                let unmet = unmetRequirements(task.request).filter { $0 != .idle }
                if task.phase == .running, !unmet.isEmpty {
                    apps[i].scheduledTasks[k].phase = .expirationDue  // [inference]: as when the user comes back
                    expires = true
                } else if task.waiting, unmetRequirements(task.request).isEmpty {
                    apps[i].scheduledTasks[k].waiting = false
                    apps[i].scheduledTasks[k].phase = .due
                    performs = true
                }
            }
            if expires {
                schedule(i, .expireTasks, stage: stage)
            }
            if performs {
                schedule(i, .performTasks, stage: stage + (expires ? 1 : 0))
            }
        }
    }
}
