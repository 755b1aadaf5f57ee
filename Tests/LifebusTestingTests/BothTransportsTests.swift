import Glibc
import LifebusLifecycle
import LifebusTesting
import Testing

/// One test body against both transports: the live broker (a real `lifebusd` on a temporary socket, the app
/// connected through the SDK) records the same timeline as the in-memory one.
@Suite(.hangGuard)
@MainActor
struct BothTransportsTests {
    /// A call rings, is answered and ends while Notes is in front; returns what the bus recorded.
    private func answeredCall(on transport: LifebusTestBus.Transport) async throws -> BusTimeline {
        let bus = try await LifebusTestBus(transport, profile: .ios7)
        let app = try await bus.launch("com.example.Notes", delegate: NotesDelegate())
        try await bus.fire(.call(.ring))
        try await bus.expect(app, callbacks: [.willResignActive], within: .seconds(5))
        try await bus.fire(.call(.answer))
        try await bus.expect(app, callbacks: [.didEnterBackground], within: .seconds(5))
        try await bus.expect(app, mark: "state-saved")
        try await bus.expect(app, state: .suspended)
        try await bus.fire(.call(.end))
        try await bus.expect(app, state: .active)
        let timeline = bus.timeline
        await bus.shutdown()
        return timeline
    }

    @Test func theLiveBrokerRecordsTheSameTimelineAsTheInMemoryOne() async throws {
        let inMemory = try await answeredCall(on: .inMemory)
        let live = try await answeredCall(on: .live)
        #expect(live == inMemory)
        #expect(inMemory.callbacks(of: "com.example.Notes").count >= 6)
    }

    /// Notes crashes while in front and is launched again; returns what the bus recorded of it.
    private func crashAndRelaunch(on transport: LifebusTestBus.Transport) async throws -> [BusTimeline.Entry] {
        let bus = try await LifebusTestBus(transport, profile: .ios7)
        let notes = try await bus.launch("com.example.Notes", delegate: NotesDelegate())
        try await bus.crash(notes)
        try await bus.expect(notes, state: .notRunning)
        let again = try await bus.launch("com.example.Notes", delegate: NotesDelegate())
        try await bus.expect(again, state: .active)
        await #expect(throws: EventRejected(event: .call(.end), reason: .noCall)) { try await bus.fire(.call(.end)) }
        let entries = bus.timeline.entries(of: "com.example.Notes")
        await bus.shutdown()
        return entries
    }

    @Test func aCrashedAppIsRecordedCrashedAndComesBackOnEitherTransport() async throws {
        let inMemory = try await crashAndRelaunch(on: .inMemory)
        #expect(inMemory.dropFirst(2).first
            == .transition(app: "com.example.Notes", callback: nil, from: .active, to: .notRunning, outcome: .crashed))
        #expect(inMemory.count == 5, "launched, crashed, launched: \(inMemory)")
        #expect(try await crashAndRelaunch(on: .live) == inMemory)
    }

    @Test func aWrongExpectationOnTheLiveBrokerIsRecordedAfterItsWait() async throws {
        let bus = try await LifebusTestBus(.live, profile: .ios7)
        let app = try await bus.launch("com.example.Notes", delegate: NotesDelegate())
        try await bus.fire(.home)
        try await withKnownIssue {
            try await bus.expect(app, state: .active, within: .milliseconds(200))
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("com.example.Notes is suspended, expected active")
        }
        await bus.shutdown()
    }

    @Test func aLiveBusDroppedWithoutShutdownLeavesNothingBehind() async throws {
        var path: String?
        do {
            let bus = try await LifebusTestBus(.live, profile: .ios7)
            _ = try await bus.launch("com.example.Notes", delegate: NotesDelegate())
            path = bus.socketPath
            #expect(access(try #require(path), F_OK) == 0)
        }
        let socket = try #require(path)
        let folder = String(socket[..<socket.lastIndex(of: "/")!])
        #expect(access(socket, F_OK) != 0 && access(folder, F_OK) != 0, "\(folder) is gone")
    }

    @Test func anInMemoryBusHasNoSocket() async throws {
        #expect(try await LifebusTestBus(.inMemory).socketPath == nil)
    }
}
