import LifebusLifecycle

/// The device's invariants, checked after inputs in debug builds (`assert(checkInvariantsWhenDue())` in `handle`).
/// Each names a fact the rest of the device relies on; `invariantViolations` says which ones are broken.
extension Device {
    /// Checks the invariants after every input while the device holds up to 16 apps, and after every
    /// `apps.count / 16`-th input when it holds more, so a debug build's check costs about 16 records per input
    /// (a broker under a 1,000-app load test would otherwise scan every record after every answer).
    mutating func checkInvariantsWhenDue() -> Bool {
        invariantCheckCountdown -= 1
        guard invariantCheckCountdown <= 0 else {
            return true
        }
        invariantCheckCountdown = max(1, apps.count / 16)
        return checkInvariants()
    }

    /// Whether every invariant holds.
    func checkInvariants() -> Bool {
        invariantViolations.isEmpty
    }

    /// The broken invariants, in words; empty when the device is sound.
    var invariantViolations: [String] {
        var broken: [String] = []
        func expect(_ holds: Bool, _ what: @autoclosure () -> String) {
            if !holds { broken.append(what()) }
        }
        var working = 0
        var heldTimers = 0
        var foreground = 0
        for i in apps.indices {
            let app = apps[i]
            expect(!app.state.isRunning || app.process != .none, "\(app.id) is \(app.state) without a process")
            expect(
                canBackground(i) || (app.state != .background && app.state != .suspended),
                "\(app.id) is \(app.state) but may not run in the background")
            expect(app.outstanding.map { $0.to == app.state } ?? true,
                "\(app.id)'s callback does not lead to its state")
            expect(app.tasks.isEmpty || (app.state.isRunning && app.process == .connected),
                "\(app.id) has tasks open but is \(app.state)")
            expect(app.background?.expiry == nil || (app.state == .background && !app.tasks.isEmpty),
                "\(app.id)'s task expiry runs while it is \(app.state) with \(app.tasks.count) tasks")
            expect(!app.owesBackgroundEntry || (app.work != nil && app.state == .background && !usesScenes(i)),
                "\(app.id) owes a didEnterBackground outside a background work")
            expect(!app.resumedFromSuspension || (app.state.isRunning && app.state != .suspended),
                "\(app.id) is marked resumed from suspension while \(app.state)")
            broken += sceneViolations(i)
            broken += backgroundViolations(i)
            if app.work != nil { working += 1 }
            if app.state.isForeground { foreground += 1 }
            forEachTimer(heldBy: i) { timer, purpose in
                heldTimers += 1
                let armed = timers.purpose(of: timer)
                expect(armed == purpose, "\(app.id) holds \(timer) for \(purpose), the device has it for "
                    + "\(armed.map { "\($0)" } ?? "nothing")")
            }
        }
        if let lock = protectedDataLock {
            heldTimers += 1
            expect(timers.purpose(of: lock) == .protectedDataLock, "the protected-data lock is not armed as such")
            expect(locked && protectedDataAvailable, "the protected-data lock is armed while unlocked or already done")
        }
        expect(protectedDataAvailable || locked, "protected data is unavailable on an unlocked device")
        let processing = apps.reduce(0) { count, app in
            count + app.scheduledTasks.filter { $0.request.kind == .processing && $0.phase != .pending
                && $0.phase != .due }.count
        }
        expect(processing == runningProcessingTasks,
            "\(runningProcessingTasks) processing tasks counted running, \(processing) are")
        expect(heldTimers == timers.count, "\(timers.count) timers armed, \(heldTimers) held by apps and the device")
        expect(timers.isOrdered, "the timers are not in deadline order")
        expect(foreground <= 1, "more than one app in the foreground")
        expect(index.allSatisfy { apps[$0.value].id == $0.key }, "the index points at another app's record")
        expect(front.map { index[apps[$0].id] == $0 } ?? true, "the front app is forgotten")
        let running = activity.chain?.running ?? 0
        expect(working == running, "\(working) apps at work, the chain counts \(running)")
        var queued = 0
        for case .event in queue { queued += 1 }
        expect(unanswered.count == queued + (activity.cause == nil ? 0 : 1),
            "\(unanswered.count) events unanswered, \(queued) queued and the running one")
        return broken
    }

    /// The scene invariants of app `i`: an app-delegate app has no sessions; a scene app's state is its most
    /// active scene's (`background` or `suspended` with none in the foreground), no scene is connected without a
    /// running process, at most one scene is active, a scene connects into the background and a payload is withheld
    /// only with `connectsSceneAtBackgroundLaunch` (and never both withheld and pending), and its book is well formed
    /// (`SceneBook`'s invariants).
    func sceneViolations(_ i: Int) -> [String] {
        var broken: [String] = []
        func expect(_ holds: Bool, _ what: @autoclosure () -> String) {
            if !holds { broken.append(what()) }
        }
        let app = apps[i]
        let book = app.scenes
        guard usesScenes(i) else {
            expect(book.sessions.isEmpty && book.discarded.isEmpty, "\(app.id) has sessions but does not adopt scenes")
            return broken
        }
        if let derived = book.foregroundState {
            expect(app.state == derived, "\(app.id) is \(app.state), its scenes say \(derived)")
        } else {
            expect(!app.state.isForeground, "\(app.id) is \(app.state) with no scene in the foreground")
        }
        let connected = book.sessions.filter { $0.scene != nil }
        expect(connected.isEmpty || (app.state.isRunning && app.process == .connected),
            "\(app.id) has scenes connected while \(app.state) without a live process")
        expect(book.sessions.filter { $0.state == .foregroundActive }.count <= 1, "\(app.id) has two active scenes")
        expect(book.sessions.allSatisfy { ($0.scene == nil) == ($0.state == nil) },
            "\(app.id) has a scene without a state, or a state without a scene")
        expect(book.sessions.allSatisfy { $0.scene != nil || (!$0.restorePending && !$0.saved) },
            "\(app.id) keeps a restore or a save for a session with no scene")
        expect(book.sessions.allSatisfy { !$0.restorationWithheld || ($0.scene != nil && $0.restoration != nil) },
            "\(app.id) withholds a payload from a session with no scene or no payload")
        expect(book.connectingInBackground.map { book.position(of: $0) != nil && app.state.isRunning } ?? true,
            "\(app.id) connects into the background a session it does not have, or while not running")
        // Only a background launch connects a scene behind the lock (no other connect runs while protected data is
        // unavailable: they are refused while locked, S45, S46), and it connects one only with the knob.
        let knob = configuration.connectsSceneAtBackgroundLaunch
        expect(knob || book.connectingInBackground == nil,
            "\(app.id) connects a scene into the background without connectsSceneAtBackgroundLaunch")
        expect(knob || !book.sessions.contains(where: \.restorationWithheld),
            "\(app.id) withholds a payload without connectsSceneAtBackgroundLaunch")
        expect(!book.sessions.contains { $0.restorationWithheld && $0.restorePending },
            "\(app.id) both withholds a payload and has it pending: it would be handed over twice")
        let sessions = book.sessions.map(\.id.number)
        expect(sessions == sessions.sorted() && Set(sessions).count == sessions.count
            && (sessions.last ?? 0) <= book.lastSession, "\(app.id)'s session ids are not unique and increasing")
        let scenes = connected.compactMap(\.scene?.number)
        expect(Set(scenes).count == scenes.count && scenes.allSatisfy { $0 <= book.lastScene },
            "\(app.id)'s scene ids are not unique or not given yet")
        expect(book.focus.map { book.position(of: $0) != nil } ?? true, "\(app.id)'s focus names no session")
        expect(book.discarded.allSatisfy { book.position(of: $0) == nil }, "\(app.id) discarded a live session")
        expect(book.outstandingScene.map { book.position(of: $0.ref.session) != nil } ?? true,
            "\(app.id)'s callback names a session it does not have")
        expect(book.outstandingScene == nil || app.outstanding != nil, "\(app.id) keeps a scene move with no callback")
        expect(book.configuring.map { book.position(of: $0) != nil } ?? true,
            "\(app.id) configures a session it does not have")
        return broken
    }

    /// The background-execution invariants of app `i`: a running `BGTask` keeps a live process; every task is completed
    /// or expired in time — a running `appRefresh` task and every expiring task have their end armed, a pending or due
    /// one has neither warning nor end, only a pending one waits on a due timer, a task waiting for the device's
    /// conditions is pending with no timer and some requirement unmet; a push in flight has its callback
    /// outstanding; the push window is armed exactly while pushes are deferred.
    func backgroundViolations(_ i: Int) -> [String] {
        var broken: [String] = []
        func expect(_ holds: Bool, _ what: @autoclosure () -> String) {
            if !holds { broken.append(what()) }
        }
        let app = apps[i]
        expect(!app.hasRunningScheduledTask || (app.state.isRunning && app.process == .connected),
            "\(app.id) runs a BGTask but is \(app.state)")
        for task in app.scheduledTasks {
            let name = "\(app.id)'s task \(task.request.identifier)"
            switch task.phase {
            case .pending, .due:
                expect(task.warning == nil && task.expiry == nil, "\(name) is \(task.phase) with its budget armed")
                expect(task.phase == .pending || task.due == nil, "\(name) is due and still waits to fall due")
                expect(!task.waiting || (task.phase == .pending && task.due == nil),
                    "\(name) waits for the device's conditions but is \(task.phase) or has its due armed")
                expect(!task.waiting || !unmetRequirements(task.request).isEmpty,
                    "\(name) waits for the device's conditions, which are met")
            case .running:
                expect(task.request.kind != .appRefresh || task.expiry != nil, "\(name) runs with no end armed")
                expect(task.due == nil && !task.waiting, "\(name) runs and waits to fall due")
            case .expirationDue, .expiring:
                expect(task.phase == .expirationDue || task.expiry != nil, "\(name) expires with no end armed")
                expect(task.due == nil && task.warning == nil, "\(name) expires with its warning still armed")
            }
        }
        expect(app.pushes.inFlight == nil || app.outstanding?.callback == .didReceiveRemoteNotification,
            "\(app.id) has a push in flight and no didReceiveRemoteNotification outstanding")
        expect((app.pushes.presentingNow != nil) == (app.outstanding?.callback == .willPresentNotification),
            "\(app.id)'s notification offered and willPresentNotification outstanding disagree")
        // Due pushes are lost with the process that would take them (`pushesEnded`): while some are due, a process is
        // attached or starting, or a chain (running, planned or queued) is to deliver them — or the app may not run
        // in the background, and they wait for a deliverPushes that finds it in the foreground (`stepDeliverPushes`).
        let queuedForApp = queue.contains { if case .tasks(i) = $0 { true } else { false } }
        let plannedForApp = activity.chain?.works.contains { $0.app == i && $0.intent == .deliverPushes } ?? false
        expect(app.pushes.due.isEmpty || app.process != .none || app.launch != nil || app.work != nil || queuedForApp
            || plannedForApp || !canBackground(i),
            "\(app.id) has \(app.pushes.due.count) pushes due and no process, launch or chain to take them")
        // A window is armed exactly while a push is held behind a delivery of the hour (`armPushWindow`).
        expect((app.pushes.window != nil) == (app.pushes.held != nil && !app.pushes.delivered.isEmpty),
            "\(app.id)'s push window and held push disagree")
        return broken
    }

    /// Calls `body` with each timer app `i`'s record holds and the purpose it must have in `timers`.
    private func forEachTimer(heldBy i: Int, _ body: (TimerID, TimerPurpose) -> Void) {
        let app = apps[i]
        if let timer = app.outstanding?.timer { body(timer, .watchdog(i)) }
        if let timer = app.launch?.timer { body(timer, .launch(i)) }
        if let timer = app.background?.warning { body(timer, .taskWarning(i)) }
        if let timer = app.background?.expiry { body(timer, .taskExpiry(i)) }
        if case .exiting(let grace) = app.process { body(grace, .exitGrace(i)) }
        if let timer = app.pushes.window { body(timer, .pushWindow(i)) }
        for task in app.scheduledTasks {
            if let timer = task.due { body(timer, .scheduledTaskDue(i)) }
            if let timer = task.warning { body(timer, .scheduledTaskWarning(i)) }
            if let timer = task.expiry { body(timer, .scheduledTaskExpiry(i)) }
        }
    }
}
