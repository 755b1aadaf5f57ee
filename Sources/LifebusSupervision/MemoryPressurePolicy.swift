import LifebusLifecycle

/// The device's memory pressure as iOS's jetsam computes it, from resident memory: a pure function of the apps'
/// samples and the device's figures, which says the level, who must be warned and who must die, in order.
///
/// A plain value, no I/O, no clock. Rules of `assess`:
/// 1. every app over its own `limit` is killed (`memoryLimit`, silently), even in front, largest overshoot first;
/// 2. the level comes from the measured total: `critical` from `criticalAt`, `warning` from `warningAt`;
/// 3. at `critical`, suspended apps are killed silently, largest first, then background apps are terminated,
///    largest first, until the projected total (the measured one minus everything killed) is below `criticalAt`;
///    the foreground app is never a pressure victim;
/// 4. at `warning` or `critical`, every running (foreground or background) app not killed gets a memory warning.
public struct MemoryPressurePolicy: Sendable, Equatable {
    public var deviceMemory: Int
    public var warningAt: MemoryThreshold
    public var criticalAt: MemoryThreshold

    public init(
        deviceMemory: Int, warningAt: MemoryThreshold = .fraction(0.8), criticalAt: MemoryThreshold = .fraction(0.95)
    ) {
        self.deviceMemory = deviceMemory
        self.warningAt = warningAt
        self.criticalAt = criticalAt
    }

    /// Applies the rules to one round of samples (the order of `apps` breaks ties).
    public func assess(_ apps: [AppMemory]) -> PressureAssessment {
        let total = apps.reduce(0) { $0 + $1.residentBytes }
        let warningBytes = warningAt.bytes(ofDevice: deviceMemory)
        let criticalBytes = criticalAt.bytes(ofDevice: deviceMemory)
        let level: MemoryPressure = total >= criticalBytes ? .critical : total >= warningBytes ? .warning : .normal
        var kills: [PlannedKill] = []
        var remaining = total
        func plan(_ app: AppMemory, _ reason: KillReason, _ notice: PlannedKill.Notice) {
            kills.append(PlannedKill(app: app, reason: reason, notice: notice, level: level, totalBytes: total,
                                     deviceMemory: deviceMemory))
            remaining -= app.residentBytes
        }
        let overLimit = apps.filter { $0.overshoot > 0 }.stableSorted { $0.overshoot > $1.overshoot }
        overLimit.forEach { plan($0, .memoryLimit, .none) }
        if level == .critical {
            let alive = apps.filter { $0.overshoot <= 0 }
            let victims: [(AppMemory.Standing, PlannedKill.Notice)] = [(.suspended, .none), (.background, .terminate)]
            for (standing, notice) in victims {
                let candidates = alive.filter { $0.standing == standing }
                for app in candidates.stableSorted(by: { $0.residentBytes > $1.residentBytes })
                where remaining >= criticalBytes {
                    plan(app, .jetsam, notice)
                }
            }
        }
        let killed = Set(kills.map(\.appID))
        let warned = level == .normal ? [] : apps.filter { $0.standing != .suspended && !killed.contains($0.appID) }
        return PressureAssessment(
            level: level, totalBytes: total, deviceMemory: deviceMemory, warningBytes: warningBytes,
            criticalBytes: criticalBytes, kills: kills, memoryWarnings: warned.map(\.appID))
    }
}

extension Array {
    /// Sorted by `areInIncreasingOrder`, keeping the original order of equal elements.
    fileprivate func stableSorted(by areInIncreasingOrder: (Element, Element) -> Bool) -> [Element] {
        enumerated().sorted { lhs, rhs in
            if areInIncreasingOrder(lhs.element, rhs.element) { return true }
            if areInIncreasingOrder(rhs.element, lhs.element) { return false }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
