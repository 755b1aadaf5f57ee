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
            if app.work != nil { working += 1 }
            if app.state.isForeground { foreground += 1 }
            forEachTimer(heldBy: i) { timer, purpose in
                heldTimers += 1
                let armed = timers.purpose(of: timer)
                expect(armed == purpose, "\(app.id) holds \(timer) for \(purpose), the device has it for "
                    + "\(armed.map { "\($0)" } ?? "nothing")")
            }
        }
        expect(heldTimers == timers.count, "\(timers.count) timers armed, \(heldTimers) held by apps")
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

    /// Calls `body` with each timer app `i`'s record holds and the purpose it must have in `timers`.
    private func forEachTimer(heldBy i: Int, _ body: (TimerID, TimerPurpose) -> Void) {
        let app = apps[i]
        if let timer = app.outstanding?.timer { body(timer, .watchdog(i)) }
        if let timer = app.launch?.timer { body(timer, .launch(i)) }
        if let timer = app.background?.warning { body(timer, .taskWarning(i)) }
        if let timer = app.background?.expiry { body(timer, .taskExpiry(i)) }
        if case .exiting(let grace) = app.process { body(grace, .exitGrace(i)) }
    }
}
