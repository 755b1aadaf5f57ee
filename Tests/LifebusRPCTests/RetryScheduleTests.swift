import LifebusIO
import LifebusProtocol
import LifebusRPC
import Testing

/// The one retry policy of the CLI and the SDK, as a plain value: delays, their cap, the deadlines, and which
/// failures are worth another attempt.
@Suite struct RetryScheduleTests {
    static let absent = BrokerSession.Failure.unreachable(path: "/x", UVError(code: -2, function: "uv_pipe_connect"))
    static let queueFull = BrokerSession.Failure.unreachable(
        path: "/x", UVError(code: -11, function: "uv_pipe_connect"))
    static let pushedOut = BrokerSession.Failure.refused(
        RPCError(.limitExceeded, "room made", data: ["limit": "connectionsBeforeHello"]))
    static let refused = BrokerSession.Failure.refused(.invalidParams(field: "role", "must be app"))

    @Test func delaysDoubleUpToTheCapAndNeverEndWithoutADeadline() {
        var schedule = RetrySchedule(RetryPolicy(
            initialDelay: .milliseconds(50), maximumDelay: .seconds(2), deadline: nil, busyDeadline: nil,
            retriesRefusals: false))
        let delays = (0..<8).map { _ in schedule.delay(after: Self.absent, elapsed: .seconds(3600)) }
        #expect(delays == [50, 100, 200, 400, 800, 1600, 2000, 2000].map { Duration.milliseconds($0) })
    }

    @Test func theLastWaitEndsAtTheDeadlineAndTheNextFailureGivesUp() {
        var schedule = RetrySchedule(.command(retryFor: .milliseconds(150)))
        #expect(schedule.delay(after: Self.absent, elapsed: .zero) == .milliseconds(10))
        #expect(schedule.delay(after: Self.absent, elapsed: .milliseconds(140)) == .milliseconds(10))
        #expect(schedule.delay(after: Self.absent, elapsed: .milliseconds(145)) == .milliseconds(5))
        #expect(schedule.delay(after: Self.absent, elapsed: .milliseconds(150)) == nil)
    }

    @Test func aCommandWithoutRetryForFailsAtOnceOnAnAbsentBrokerButRidesOutABusyOne() {
        var schedule = RetrySchedule(.command(retryFor: nil))
        #expect(schedule.delay(after: Self.absent, elapsed: .zero) == nil)
        #expect(schedule.delay(after: Self.queueFull, elapsed: .seconds(1)) == .milliseconds(10))
        #expect(schedule.delay(after: Self.pushedOut, elapsed: .seconds(4)) == .milliseconds(20))
        #expect(schedule.delay(after: Self.pushedOut, elapsed: .seconds(5)) == nil)
    }

    @Test func aRefusedHelloIsRetriedOnlyWhenThePolicySaysSo() {
        var command = RetrySchedule(.command(retryFor: .seconds(10)))
        #expect(command.delay(after: Self.refused, elapsed: .zero) == nil)
        var app = RetrySchedule(RetryPolicy(
            initialDelay: .milliseconds(5), maximumDelay: .milliseconds(20), deadline: .seconds(1), busyDeadline: nil,
            retriesRefusals: true))
        #expect(app.delay(after: Self.refused, elapsed: .zero) == .milliseconds(5))
        #expect(app.delay(after: Self.refused, elapsed: .seconds(1)) == nil)
    }

    @Test func onlyAFullAcceptQueueAndAPushedOutNewcomerAreBusy() {
        #expect(Self.queueFull.isBusy)
        #expect(Self.pushedOut.isBusy)
        #expect(!Self.absent.isBusy)
        #expect(!Self.refused.isBusy)
        let otherLimit = BrokerSession.Failure.refused(
            RPCError(.limitExceeded, "full", data: ["limit": "connections"]))
        #expect(!otherLimit.isBusy)
    }

    @Test func delaysAreAtLeastOneMillisecondAndTheCapAtLeastTheFirst() {
        let policy = RetryPolicy(
            initialDelay: .zero, maximumDelay: .zero, deadline: nil, busyDeadline: nil, retriesRefusals: false)
        #expect(policy.initialDelay == .milliseconds(1))
        #expect(policy.maximumDelay == .milliseconds(1))
    }
}
