public import LifebusLifecycle
import LifebusProtocol

/// Expectations of how an app's callbacks ended, read from the broker's journal (which `timeline` leaves out: its
/// times, budgets and kill reasons): the outcome of the latest one (`CallbackOutcome`), and how much of its budget
/// the latest answer took. Failures are reported as the other expectations' are (`LifebusTestBus+Expectations`):
/// the expected beside the recorded, the app's state, its last marks and its timeline; on a live broker each waits
/// up to `within` for a recording that matches.
extension LifebusTestBus {
    /// Expects the latest transition of `app` — of its scene `scene` only, when given; of the callback `callback`
    /// only, when given — to have ended `outcome`.
    ///
    /// Without `callback` the latest transition may be one without a callback (a suspension, the kill of an idle
    /// app), so `expect(app, outcome: .killed(.jetsam))` checks that a suspended app was jetsammed.
    ///
    /// ```swift
    /// try await bus.expect(app, callback: .willTerminate, outcome: .killed(.watchdog))
    /// try await bus.expect(app, scene: SceneID(1), outcome: .ok)
    /// ```
    ///
    /// - Parameters:
    ///   - app: The app whose journal is read.
    ///   - scene: Only the transitions of this scene of `app`; `nil`: the app's own and all its scenes'.
    ///   - callback: Only the transitions through this callback; `nil`: any, and those without a callback.
    ///   - expected: The outcome expected.
    ///   - within: How long a live bus waits for a matching recording (in memory it looks once).
    ///   - fileID: Where the expectation is written (for the failure report); leave the default.
    ///   - filePath: As `fileID`.
    ///   - line: As `fileID`.
    ///   - column: As `fileID`.
    /// - Throws: `LifebusTestBusError` when the bus cannot reach its broker, or, outside any test, with the failure
    ///   report when the expectation fails (in a test a failure is recorded as an issue and the test goes on).
    public func expect(
        _ app: LifebusTestApp, scene: SceneID? = nil, callback: LifecycleCallback? = nil,
        outcome expected: CallbackOutcome, within: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws {
        let caller = ExpectationCaller(fileID: fileID, filePath: filePath, line: line, column: column)
        var latest: TransitionRecord?
        var actual: CallbackOutcome?
        try await poll(within: within) {
            latest = latestTransition(of: app, scene: scene, callback: callback) { _ in true }
            actual = latest.map { CallbackOutcome($0, in: journal) }
            return actual == expected
        }
        guard actual != expected else { return }
        let subject = Self.subject(app, scene: scene, callback: callback)
        guard let latest, let actual else {
            return try await report(app, "\(subject) recorded no transition, expected one ending \(expected)",
                                    at: caller)
        }
        try await report(
            app, "\(subject) ended \(actual), expected \(expected)",
            comparison: ReportText.comparison(
                expected: ["\(Self.name(of: latest)): \(expected)"], recorded: ["\(Self.name(of: latest)): \(actual)"]),
            at: caller
        )
    }

    /// Expects the latest answer of `app` to `callback` (of its scene `scene` only, when given) to have come within
    /// `share` of the callback's budget: its latency (from the broker sending the callback to the answer, on the
    /// broker's clock) at most `share` × its budget, as the journal records both.
    ///
    /// ```swift
    /// try await bus.expect(app, callback: .didEnterBackground, withinShareOfBudget: 0.5)
    /// ```
    ///
    /// A callback never answered (its app killed first) fails, with its outcome. In memory and on a live broker's
    /// manual clock a callback answered at once takes no time: hold the app (`hold(_:)`) and `advance(by:)` to make
    /// an answer take some.
    ///
    /// - Parameters:
    ///   - app: The app whose journal is read.
    ///   - scene: Only this scene's answers; `nil`: the app's own and all its scenes'.
    ///   - callback: The callback whose latest answer is measured.
    ///   - share: The largest share of the budget the answer may take: 0.5 is half; finite and not negative.
    ///   - within: How long a live bus waits for an answer to be recorded (in memory it looks once).
    ///   - fileID: Where the expectation is written (for the failure report); leave the default.
    ///   - filePath: As `fileID`.
    ///   - line: As `fileID`.
    ///   - column: As `fileID`.
    /// - Throws: `LifebusTestBusError` for a `share` that is negative or not finite, when the bus cannot reach its
    ///   broker, or, outside any test, with the failure report when the expectation fails.
    public func expect(
        _ app: LifebusTestApp, scene: SceneID? = nil, callback: LifecycleCallback, withinShareOfBudget share: Double,
        within: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws {
        guard share.isFinite, share >= 0 else {
            throw LifebusTestBusError("withinShareOfBudget must be a finite share ≥ 0, not \(share)")
        }
        let caller = ExpectationCaller(fileID: fileID, filePath: filePath, line: line, column: column)
        var answered: TransitionRecord?
        try await poll(within: within) {
            answered = latestTransition(of: app, scene: scene, callback: callback) { $0.answeredMs != nil }
            return answered != nil
        }
        let subject = Self.subject(app, scene: scene, callback: callback)
        guard let answered, let answeredMs = answered.answeredMs else {
            let last = latestTransition(of: app, scene: scene, callback: callback) { _ in true }
            let ending = last.map { ", it ended \(CallbackOutcome($0, in: journal))" } ?? ""
            return try await report(app, "\(subject) has no recorded answer\(ending)", at: caller)
        }
        let latency = answeredMs - answered.sentMs
        let allowed = share * answered.budgetMs
        guard latency > allowed else { return }
        let taken = answered.budgetMs > 0 ? latency / answered.budgetMs : .infinity
        try await report(
            app,
            "\(subject) answered in \(Self.milliseconds(latency)) of its \(Self.milliseconds(answered.budgetMs)) "
                + "budget (\(Self.percent(taken))), expected at most \(Self.percent(share))",
            comparison: ReportText.comparison(
                expected: ["≤ \(Self.milliseconds(allowed)) (\(Self.percent(share)) of the budget)"],
                recorded: ["\(Self.milliseconds(latency)) (\(Self.percent(taken)) of the budget)"]),
            at: caller
        )
    }

    /// The latest transition record of `app` (of `scene`, through `callback`, when given) that satisfies `accepts`.
    private func latestTransition(
        of app: LifebusTestApp, scene: SceneID?, callback: LifecycleCallback?,
        where accepts: (TransitionRecord) -> Bool
    ) -> TransitionRecord? {
        for entry in journal.reversed() {
            guard case .transition(let record) = entry, record.app == app.id.rawValue else { continue }
            if let scene, record.scene?.scene != scene { continue }
            if let callback, record.callback != callback { continue }
            if accepts(record) { return record }
        }
        return nil
    }

    /// What the report calls the transitions looked at: `A`, `scene 1 of A`, `A's willTerminate`.
    private static func subject(_ app: LifebusTestApp, scene: SceneID?, callback: LifecycleCallback?) -> String {
        let owner = scene.map { "scene \($0.number) of \(app.id)" } ?? "\(app.id)"
        return callback.map { "\(owner)'s \($0.rawValue)" } ?? "the latest transition of \(owner)"
    }

    /// A record's callback (or `-` for none) and, for a scene's, its scene: `willTerminate`, `1 sceneDidDisconnect`.
    private static func name(of record: TransitionRecord) -> String {
        let callback = record.callback?.rawValue ?? "- \(record.from.rawValue)→\(record.to.rawValue)"
        return record.scene.map { "\($0.scene.number) \(callback)" } ?? callback
    }

    private static func milliseconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int64(value)) ms" : "\((value * 1000).rounded() / 1000) ms"
    }

    private static func percent(_ share: Double) -> String {
        share.isFinite ? "\(Int64((share * 100).rounded()))%" : "∞%"
    }
}
