public import LifebusLifecycle
import LifebusProtocol

/// A launch `LifebusTestBus.fire(_:)` injected ran out its launch budget before the app's process connected (the
/// wire's `lifebus.TimedOut` with `data.reason` `launchTimedOut`): a timeout, not a refusal — the device would have
/// launched `app`, but no process came to say `hello` within `budget`. A value; both transports throw the same one.
public struct LaunchTimedOut: Error, Equatable, CustomStringConvertible {
    /// The event that asked for the launch (`.launch(app)`, `.activate(app)`, `.call(.end)`, …).
    public let event: ControllerEvent
    /// The app whose process did not connect.
    public let app: AppID
    /// The launch budget it ran out (the `didFinishLaunching` budget, scaled as the broker scales it).
    public let budget: Duration

    /// The timeout of `event`'s launch of `app` after `budget` (to compare with:
    /// `#expect(throws: LaunchTimedOut(…))`).
    ///
    /// - Parameters:
    ///   - event: The event that asked for the launch.
    ///   - app: The app whose process did not connect.
    ///   - budget: The launch budget it ran out.
    public init(event: ControllerEvent, app: AppID, budget: Duration) {
        self.event = event
        self.app = app
        self.budget = budget
    }

    /// The timeout `error` reports for `event`, or `nil` when it is not a launch's `lifebus.TimedOut`.
    init?(_ error: RPCError, event: ControllerEvent) {
        guard error.lifebusCode == .timedOut,
            error.data?["reason"]?.stringValue == RejectionReason.launchTimedOut.rawValue,
            let app = error.data?["app"]?.stringValue,
            let budgetMs = error.data?["budgetMs"]?.doubleValue
        else { return nil }
        self.init(event: event, app: AppID(app), budget: Duration(clampingMilliseconds: budgetMs))
    }

    public var description: String {
        "\(event): \(app) did not connect within its launch budget (\(DurationText.format(budget))); an app the "
            + "test launches must be brought onto the bus (launch(_:delegate:), or an installed program that speaks "
            + "the protocol)"
    }
}
