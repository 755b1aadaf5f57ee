public import LifebusLifecycle

/// Expectations: each compares what the bus recorded of one app with what the test expects. A failure is recorded
/// at the caller's source location with a report of that app: the recorded callbacks beside the expected ones, its
/// state, its last marks and its timeline — in a Swift Testing test as an issue (`Issue.record`), in an XCTest test
/// case with `XCTFail` — and the test goes on, as after a failed `#expect` or `XCTAssert`. Outside any test the
/// expectation throws `LifebusTestBusError` with the same report, prefixed with the location (`FailureReport`).
///
/// In memory everything an operation causes has happened when it returns, so an expectation looks once; on a live
/// broker it waits (on the condition, polling the broker) up to `within` for the recording to match.
extension LifebusTestBus {
    /// Expects `app` to have received exactly `callbacks`, in order, since its launch or since the previous
    /// `expect(_:callbacks:)` of it (which then starts after these).
    ///
    /// - Parameters:
    ///   - app: The app expected of.
    ///   - expected: The callbacks, e.g. `[.willResignActive, .didEnterBackground]`.
    ///   - within: How long a live bus waits for the recording to match (5 s by default); in memory it looks once.
    ///   - fileID: The caller's file, where a failure is recorded; leave the default.
    ///   - filePath: The caller's file path, for XCTest's report; leave the default.
    ///   - line: The caller's line; leave the default.
    ///   - column: The caller's column; leave the default.
    /// - Throws: ``LifebusTestBusError`` outside a test when the expectation fails, or when the bus cannot read the
    ///   broker's record (a live broker that stopped answering).
    public func expect(
        _ app: LifebusTestApp, callbacks expected: [LifecycleCallback], within: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws {
        let caller = ExpectationCaller(fileID: fileID, filePath: filePath, line: line, column: column)
        let start = callbackCursor[app.id] ?? 0
        var recorded: [LifecycleCallback] = []
        try await poll(within: within) {
            recorded = Array(timeline.callbacks(of: app.id).dropFirst(start))
            return recorded.count >= expected.count || !expected.starts(with: recorded)
        }
        callbackCursor[app.id] = start + recorded.count
        guard recorded != expected else { return }
        try await report(
            app, "\(app.id) did not receive the expected callbacks",
            comparison: ReportText.comparison(expected: expected.map(\.rawValue), recorded: recorded.map(\.rawValue)),
            at: caller
        )
    }

    /// Expects the broker to hold `app` in `state`.
    ///
    /// - Parameters:
    ///   - app: The app expected of.
    ///   - expected: Its lifecycle state, e.g. `.suspended`.
    ///   - within: How long a live bus waits for the recording to match (5 s by default); in memory it looks once.
    ///   - fileID: The caller's file, where a failure is recorded; leave the default.
    ///   - filePath: The caller's file path, for XCTest's report; leave the default.
    ///   - line: The caller's line; leave the default.
    ///   - column: The caller's column; leave the default.
    /// - Throws: ``LifebusTestBusError`` outside a test when the expectation fails, or when the bus cannot read the
    ///   broker's record (a live broker that stopped answering).
    public func expect(
        _ app: LifebusTestApp, state expected: LifecycleState, within: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws {
        let caller = ExpectationCaller(fileID: fileID, filePath: filePath, line: line, column: column)
        var actual = LifecycleState.notRunning
        try await poll(within: within) {
            actual = try await state(of: app)
            return actual == expected
        }
        guard actual != expected else { return }
        try await report(app, "\(app.id) is \(actual.rawValue), expected \(expected.rawValue)", at: caller)
    }

    /// Expects `app` to have reported the mark `name` since its launch or since the previous `expect(_:mark:)` of
    /// it (which then starts after this one).
    ///
    /// - Parameters:
    ///   - app: The app expected of.
    ///   - name: The mark's name, as the app passed it to `Application.mark(_:data:)`.
    ///   - within: How long a live bus waits for the recording to match (5 s by default); in memory it looks once.
    ///   - fileID: The caller's file, where a failure is recorded; leave the default.
    ///   - filePath: The caller's file path, for XCTest's report; leave the default.
    ///   - line: The caller's line; leave the default.
    ///   - column: The caller's column; leave the default.
    /// - Throws: ``LifebusTestBusError`` outside a test when the expectation fails, or when the bus cannot read the
    ///   broker's record (a live broker that stopped answering).
    public func expect(
        _ app: LifebusTestApp, mark name: String, within: Duration = .seconds(5),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws {
        let caller = ExpectationCaller(fileID: fileID, filePath: filePath, line: line, column: column)
        let start = markCursor[app.id] ?? 0
        var found: Int?
        try await poll(within: within) {
            found = timeline.marks(of: app.id).dropFirst(start).firstIndex(of: name)
            return found != nil
        }
        if let found {
            markCursor[app.id] = found + 1
            return
        }
        try await report(app, "\(app.id) did not mark \"\(name)\"", at: caller)
    }

    /// Refreshes the timeline and checks `done` until it holds, once in memory, until `within` passes live.
    func poll(within: Duration, _ done: () async throws -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + within
        while true {
            try await refresh()
            if try await done() || !waitsInRealTime || clock.now >= deadline { return }
            try await clock.sleep(for: .milliseconds(10))
        }
    }

    /// Records the failure at `caller` with what the bus knows of `app`.
    func report(
        _ app: LifebusTestApp, _ headline: String, comparison: String? = nil, at caller: ExpectationCaller
    ) async throws {
        let state = try await state(of: app)
        let text = ReportText.failure(
            headline, comparison: comparison, state: state, marks: timeline.marks(of: app.id).suffix(5),
            timeline: timeline.entries(of: app.id).map(\.description)
        )
        try FailureReport.record(text, at: caller)
    }
}
