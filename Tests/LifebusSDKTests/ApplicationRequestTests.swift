import Lifebus
import LifebusProtocol
import Testing

/// What the app asks of the broker: marks, memory reports, background tasks and their expiry.
@MainActor
@Suite(.hangGuard)
struct ApplicationRequestTests {
    @Test func aMarkInsideACallbackReachesTheBrokerBeforeTheCallbackIsAnswered() async throws {
        let harness = try await AppHarness.launch()
        harness.delegate.hook = { callback, application in
            try? await application.mark("state-saved", data: ["thought": 3])
        }
        let answer = await harness.send(.didEnterBackground, state: .background)
        let mark = try #require(await harness.broker.nextRequest())
        #expect(mark.method == LifebusMethod.mark)
        #expect(try MarkParams(json: mark.params) == MarkParams(name: "state-saved", data: ["thought": 3]))
        _ = try answer.get()
        try await harness.terminate()
    }

    @Test func reportMemorySendsTheByteCount() async throws {
        let harness = try await AppHarness.launch()
        _ = try await harness.send(.didFinishLaunching, state: .inactive).get()
        try await harness.application.reportMemory(bytes: 123_456)
        let report = try #require(await harness.broker.nextRequest())
        #expect(report.method == LifebusMethod.reportMemory)
        #expect(try ReportMemoryParams(json: report.params).bytes == 123_456)
        try await harness.terminate()
    }

    @Test func backgroundTasksGetBrokerIDsAndEnd() async throws {
        let harness = try await AppHarness.launch()
        let application = harness.application
        let first = try await application.beginBackgroundTask(name: "upload")
        let second = try await application.beginBackgroundTask()
        #expect(first != second)
        let begin = try #require(await harness.broker.nextRequest())
        #expect(try BackgroundTaskBeginParams(json: begin.params).name == "upload")
        _ = await harness.broker.nextRequest()
        try await application.endBackgroundTask(first)
        let end = try #require(await harness.broker.nextRequest())
        #expect(end.method == LifebusMethod.endBackgroundTask)
        #expect(try BackgroundTaskEndParams(json: end.params).taskID == first.rawValue)
        await #expect(throws: RPCError.self) { try await application.endBackgroundTask(first) }
        try await harness.terminate()
    }

    @Test func anExpiringTaskRunsItsExpirationHandlerWhichEndsIt() async throws {
        let harness = try await AppHarness.launch()
        let application = harness.application
        var expired: [BackgroundTaskIdentifier] = []
        var task: BackgroundTaskIdentifier?
        task = try await application.beginBackgroundTask(name: "sync") {
            expired.append(task!)
            Task { try? await application.endBackgroundTask(task!) }
        }
        _ = await harness.broker.nextRequest()
        let id = try #require(task)
        harness.broker.notify(method: LifebusMethod.backgroundTaskExpiring,
                              params: BackgroundTaskExpiringParams(taskID: id.rawValue).json)
        let end = try #require(await harness.broker.nextRequest())
        #expect(end.method == LifebusMethod.endBackgroundTask)
        #expect(try BackgroundTaskEndParams(json: end.params).taskID == id.rawValue)
        #expect(expired == [id])
        try await harness.terminate()
    }

    @Test func requestsWithoutABrokerFailWithConnectionClosed() async throws {
        let application = Application(id: "com.example.Alone")
        await #expect(throws: RPCError(.connectionClosed, "the app is not connected to the broker")) {
            try await application.mark("nobody-listens")
        }
    }
}
