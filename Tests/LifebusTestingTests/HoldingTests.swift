import LifebusLifecycle
import LifebusTesting
import Testing

/// Holding an app's answer: an event fired without waiting reaches a held app, whose delegate method runs only at
/// the release; an event queued behind it is refused when its turn comes — the same on both transports.
@Suite(.hangGuard)
@MainActor
struct HoldingTests {
    /// A call rings while Notes is held, memory runs short, the caller hangs up (twice: the second is refused), then
    /// Notes is released; returns what the bus recorded, and the memory warnings Notes's delegate saw while held and
    /// after the release.
    private func heldThroughACall(on transport: LifebusTestBus.Transport) async throws
        -> (timeline: BusTimeline, warningsWhileHeld: Int, warningsAfter: Int)
    {
        let bus = try await LifebusTestBus(transport, profile: .ios7)
        let notes = NotesDelegate()
        let app = try await bus.launch("com.example.Notes", delegate: notes)
        try bus.hold(app)
        let ring = try await bus.fire(.call(.ring), waiting: false)
        let warning = try await bus.fire(.memoryWarning(.warning), waiting: false)
        let end = try await bus.fire(.call(.end), waiting: false)
        let again = try await bus.fire(.call(.end), waiting: false)
        let warningsWhileHeld = notes.memoryWarnings
        try await bus.release(app)
        try await ring.completion()
        try await warning.completion()
        try await end.completion()
        await #expect(throws: EventRejected(event: .call(.end), reason: .noCall)) { try await again.completion() }
        try await bus.expect(app, callbacks: [.willResignActive, .didReceiveMemoryWarning, .didBecomeActive])
        try await bus.expect(app, state: .active)
        let timeline = bus.timeline
        await bus.shutdown()
        return (timeline, warningsWhileHeld, notes.memoryWarnings)
    }

    @Test func aHeldAppAnswersAtItsReleaseAndTheEventsBehindItFinishThen() async throws {
        let inMemory = try await heldThroughACall(on: .inMemory)
        #expect(inMemory.warningsWhileHeld == 0)
        #expect(inMemory.warningsAfter == 1)
        let live = try await heldThroughACall(on: .live)
        #expect(live.warningsWhileHeld == 0)
        #expect(live.warningsAfter == 1)
        #expect(live.timeline == inMemory.timeline)
    }

    @Test func aWaitingFireThatReachesAHeldAppSaysSoInMemory() async throws {
        let bus = try await LifebusTestBus(.inMemory, profile: .ios7)
        let app = try await bus.launch("com.example.Notes", delegate: NotesDelegate())
        try bus.hold(app)
        await #expect(throws: LifebusTestBusError.self) { try await bus.fire(.call(.ring)) }
        try await bus.release(app)
        try await bus.expect(app, callbacks: [.willResignActive])
        await bus.shutdown()
    }

    /// Counts the silent pushes it handled and answers each with new data.
    final class PushCounter: ApplicationDelegate {
        private(set) var pushes = 0

        func didReceiveRemoteNotification(_ application: Application, payload: String) async
            -> BackgroundFetchResult
        {
            pushes += 1
            return .newData
        }
    }

    /// A held app's silent push reaches its own delegate at the release (live, where holding is the delegate's
    /// gate): not the protocol's default answer, which would drop the delegate's work and say `noData`.
    @Test func aHeldAppsSilentPushReachesItsDelegateAtTheRelease() async throws {
        let bus = try await LifebusTestBus(.live, profile: .ios17)
        let counter = PushCounter()
        let app = try await bus.launch("com.example.Pusher", delegate: counter)
        try bus.hold(app)
        let push = try await bus.fire(
            .push(app.id, PushNotification(contentAvailable: true, alert: false, payload: "{}", tapped: false)),
            waiting: false)
        #expect(counter.pushes == 0)
        try await bus.release(app)
        try await push.completion()
        try await bus.expect(app, callbacks: [.didReceiveRemoteNotification])
        #expect(counter.pushes == 1)
        await bus.shutdown()
    }
}
