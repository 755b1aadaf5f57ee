public import LifebusLifecycle

/// An event fired with `LifebusTestBus.fire(_:waiting:)` that the device may not have finished with yet — one that
/// reaches an app the test holds (`LifebusTestBus.hold(_:)`) waits for its release. `completion()` waits for the end.
///
/// A handle (the bus owns the request). Bound to the main actor, as the bus is.
@MainActor
public struct FiredEvent {
    /// The event fired.
    public let event: ControllerEvent
    let answer: PendingAnswer
    let bus: LifebusTestBus

    /// Returns once every transition the event caused completed, with the bus's timeline holding them; throws
    /// `EventRejected` when the device refused it (at once, or when its turn came), `LaunchTimedOut` when a launch it
    /// asked for ran out its budget before the app's process connected. Awaited once.
    ///
    /// - Throws: ``EventRejected`` or ``LaunchTimedOut`` as above; ``LifebusTestBusError`` when the broker does not
    ///   answer.
    public func completion() async throws {
        try await bus.complete(self)
    }
}
