import LifebusCore
import LifebusLifecycle
import LifebusProtocol

/// A launch that waits for an app's process to connect, as controllers see it: `status` shows the launch budget of
/// an app being waited for (so a client can say what it waits for, and how long), and a launch whose budget ran out
/// answers its event `lifebus.TimedOut` — a timeout, not a refusal of the event.
extension BrokerMachine {
    /// The launch budget, in ms, while a launch waits for `snapshot`'s process to connect; `nil` otherwise.
    func launchBudgetMilliseconds(_ snapshot: AppSnapshot) -> Double? {
        guard snapshot.isAwaitingLaunch, sessions.session(for: snapshot.id) == nil else { return nil }
        return device.configuration.budgets[.didFinishLaunching].inMilliseconds
    }

    /// The answer to an event whose launch of `app` timed out: `lifebus.TimedOut` with `data.reason`
    /// `launchTimedOut`, `data.eventID`, `data.app` and `data.budgetMs`.
    func launchTimedOutError(_ app: AppID, eventID: Int64, label: String) -> RPCError {
        let budget = device.configuration.budgets[.didFinishLaunching]
        return RPCError(
            .timedOut,
            "\(label): \(app) did not connect within its launch budget (\(DurationText.format(budget)))",
            data: [
                "reason": .string(RejectionReason.launchTimedOut.rawValue), "eventID": .integer(eventID),
                "app": .string(app.rawValue), "budgetMs": .double(budget.inMilliseconds),
            ])
    }
}
