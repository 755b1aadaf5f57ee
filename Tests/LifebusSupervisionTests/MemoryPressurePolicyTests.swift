import LifebusSupervision
import Testing

/// The pressure policy's levels, kill order and figures, as values.
@Suite struct MemoryPressurePolicyTests {
    static let mib = 1 << 20
    /// 1000 MiB device: warning from 800 MiB, critical from 950 MiB.
    let policy = MemoryPressurePolicy(deviceMemory: 1000 * mib, warningAt: .fraction(0.8), criticalAt: .fraction(0.95))

    private func app(_ id: String, _ mebibytes: Int, _ standing: AppMemory.Standing, limit: Int? = nil) -> AppMemory {
        AppMemory(appID: id, residentBytes: mebibytes * Self.mib, standing: standing,
                  limit: limit.map { $0 * Self.mib })
    }

    @Test func belowTheWarningThresholdNothingHappens() {
        let assessment = policy.assess([app("front", 500, .foreground), app("sleeper", 200, .suspended)])
        #expect(assessment.level == .normal)
        #expect(assessment.totalBytes == 700 * Self.mib)
        #expect(assessment.kills.isEmpty)
        #expect(assessment.memoryWarnings.isEmpty)
    }

    @Test func atWarningRunningAppsAreWarnedAndNobodyDies() {
        let assessment = policy.assess([
            app("front", 500, .foreground), app("music", 150, .background), app("sleeper", 200, .suspended),
        ])
        #expect(assessment.level == .warning)
        #expect(assessment.kills.isEmpty)
        #expect(assessment.memoryWarnings == ["front", "music"])  // a suspended app gets no callback
        #expect(assessment.warningBytes == 800 * Self.mib)
        #expect(assessment.criticalBytes == 950 * Self.mib)
    }

    @Test func atCriticalSuspendedAppsDieLargestFirstThenBackgroundAppsUntilRelieved() {
        let apps = [
            app("front", 400, .foreground), app("small", 100, .suspended), app("big", 250, .suspended),
            app("music", 150, .background), app("maps", 120, .background),
        ]  // 1020 MiB
        let assessment = policy.assess(apps)
        #expect(assessment.level == .critical)
        // big (→ 770) is enough to fall below 950: nobody else dies.
        #expect(assessment.kills.map(\.appID) == ["big"])
        #expect(assessment.kills.first?.notice == PlannedKill.Notice.none)
        #expect(assessment.kills.first?.reason == .jetsam)
        #expect(assessment.memoryWarnings == ["front", "music", "maps"])

        let heavier = apps.map { $0.appID == "front" ? app("front", 900, .foreground) : $0 }  // 1520 MiB
        let worse = policy.assess(heavier)
        #expect(worse.kills.map(\.appID) == ["big", "small", "music", "maps"])
        #expect(worse.kills.map(\.notice) == [.none, .none, .terminate, .terminate])
        #expect(worse.memoryWarnings == ["front"])  // the foreground app is never a pressure victim
    }

    @Test func anAppOverItsLimitDiesEvenInFrontAndFirst() {
        let assessment = policy.assess([
            app("front", 300, .foreground, limit: 200), app("sleeper", 700, .suspended),
            app("other", 60, .background, limit: 50),
        ])  // 1060 MiB: critical
        #expect(assessment.kills.map(\.appID) == ["front", "other"])  // largest overshoot first; then 700 < 950
        #expect(assessment.kills.map(\.reason) == [.memoryLimit, .memoryLimit])
        let figures = assessment.kills[0]
        #expect(figures.residentBytes == 300 * Self.mib)
        #expect(figures.limit == 200 * Self.mib)
        #expect(figures.totalBytes == 1060 * Self.mib)
        #expect(figures.deviceMemory == 1000 * Self.mib)
        #expect(figures.level == .critical)
        #expect(assessment.memoryWarnings.isEmpty)
    }

    @Test func equalSizesKeepTheInputOrderAndSizeThresholdsWork() {
        let policy = MemoryPressurePolicy(deviceMemory: 1000 * Self.mib, warningAt: .bytes(100 * Self.mib),
                                          criticalAt: .bytes(200 * Self.mib))
        let assessment = policy.assess(["a", "b", "c"].map { app($0, 100, .suspended) })
        #expect(assessment.level == .critical)
        #expect(assessment.kills.map(\.appID) == ["a", "b"])  // 300 → 200 → 100 < 200
    }
}
