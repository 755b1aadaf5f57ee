import Glibc
import Lifebus
import LifebusLifecycle
import LifebusProtocol
import Testing

/// The SDK against a stand-in broker: hello, callbacks on the main actor, answers, state, termination.
@MainActor
@Suite(.hangGuard)
struct ApplicationTests {
    @Test func helloDeclaresTheAppIDAndItsFlags() async throws {
        let harness = try await AppHarness.launch(options: ApplicationOptions(
            exitsOnSuspend: true, backgroundModes: ["audio", "voip"], launchInBackground: true
        ))
        #expect(harness.hello.role == .app)
        #expect(harness.hello.appID == "com.example.Test")
        #expect(harness.hello.flags == AppFlags(exitsOnSuspend: true, backgroundModes: ["audio", "voip"],
                                                launchInBackground: true))
        try await harness.terminate()
    }

    @Test func eachCallbackRunsItsDelegateMethodAndIsAnsweredWithTheHandlerDuration() async throws {
        let harness = try await AppHarness.launch()
        let sequence: [(LifecycleCallback, LifecycleState)] = [
            (.didFinishLaunching, .inactive), (.didBecomeActive, .active), (.willResignActive, .inactive),
            (.didEnterBackground, .background), (.didReceiveMemoryWarning, .background),
            (.willEnterForeground, .inactive), (.didBecomeActive, .active),
        ]
        for (callback, state) in sequence {
            let answer = try CallbackAnswer(json: try await harness.send(callback, state: state).get())
            #expect(answer.handlerMs.map { $0 >= 0 } == true)
            #expect(harness.application.state == state)
            #expect(harness.delegate.calls.last == callback)
        }
        #expect(harness.delegate.calls == sequence.map(\.0))
        try await harness.terminate()
        #expect(harness.delegate.calls.last == .willTerminate)
        #expect(harness.application.state == .notRunning)
    }

    @Test func theAnswerWaitsForTheDelegateAndReportsHowLongItTook() async throws {
        let harness = try await AppHarness.launch()
        harness.delegate.hook = { callback, _ in
            guard callback == .didEnterBackground else { return }
            try? await Task.sleep(for: .milliseconds(30))
        }
        let answer = try CallbackAnswer(json: try await harness.send(.didEnterBackground, state: .background).get())
        #expect(try #require(answer.handlerMs) >= 30)
        try await harness.terminate()
    }

    @Test func aHandlerThatReportsFailureIsAnsweredHandlerFailedAndTheNextIsNot() async throws {
        let harness = try await AppHarness.launch()
        harness.delegate.hook = { callback, application in
            if callback == .willResignActive { application.reportHandlerFailure() }
        }
        let failed = try CallbackAnswer(json: try await harness.send(.willResignActive, state: .inactive).get())
        #expect(failed.handlerFailed)
        let fine = try CallbackAnswer(json: try await harness.send(.didBecomeActive, state: .active).get())
        #expect(!fine.handlerFailed)
        #expect(harness.application.currentCallback == nil)
        harness.application.reportHandlerFailure()  // outside a callback: nothing to fail, nor to carry over
        let after = try CallbackAnswer(json: try await harness.send(.didReceiveMemoryWarning, state: .active).get())
        #expect(!after.handlerFailed, "a failure reported between callbacks marked the next one failed")
        try await harness.terminate()
    }

    @Test func withAConnectTimeoutRunGivesUpWhenNoBrokerAnswersAndSaysWhy() async throws {
        let application = Application(id: "com.example.Alone", options: ApplicationOptions(
            socketPath: "/tmp/lifebus-sdk-test-\(getpid())-none.sock", reconnectDelay: .milliseconds(5),
            connectTimeout: .milliseconds(100)
        ))
        await application.run(delegate: RecordingDelegate())
        #expect(application.connectFailure?.contains("cannot reach the broker") == true,
                "\(application.connectFailure ?? "nil")")
    }

    @Test func launchOptionsCarryTheCauseAndABackgroundLaunch() async throws {
        let harness = try await AppHarness.launch()
        let cause = EventCause(eventID: 7, event: "launch com.example.Test")
        _ = try await harness.send(.didFinishLaunching, state: .background, cause: cause).get()
        #expect(harness.delegate.launchOptions == [LaunchOptions(isBackgroundLaunch: true, cause: cause)])
        try await harness.terminate()
    }

    @Test func theCurrentCallbackIsVisibleWhileTheDelegateRuns() async throws {
        let harness = try await AppHarness.launch()
        var seen: CallbackParams?
        harness.delegate.hook = { _, application in seen = application.currentCallback }
        let cause = EventCause(eventID: 3, event: "call --answer")
        _ = try await harness.send(.willResignActive, state: .inactive, cause: cause).get()
        #expect(seen?.callback == .willResignActive)
        #expect(seen?.cause == cause)
        #expect(harness.application.currentCallback == nil)
        try await harness.terminate()
    }

    @Test func malformedCallbacksAndUnknownMethodsAreAnsweredWithErrors() async throws {
        let harness = try await AppHarness.launch()
        let malformed = await harness.broker.send(method: "didBecomeActive", params: ["callbackID": "x"])
        #expect(malformed.failure?.code == RPCError.invalidParamsCode)
        let mismatched = await harness.broker.send(
            method: "didBecomeActive",
            params: CallbackParams(callbackID: 1, callback: .willTerminate, state: .active, budgetMs: 1).json
        )
        #expect(mismatched.failure?.code == RPCError.invalidParamsCode)
        let unknown = await harness.broker.send(method: "fire", params: [:])
        #expect(unknown.failure?.code == RPCError.methodNotFoundCode)
        #expect(harness.delegate.calls.isEmpty)
        try await harness.terminate()
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
