public import LifebusLifecycle

/// The device refused an event `LifebusTestBus.fire(_:)` injected (the wire's `lifebus.EventRejected`), for `reason`
/// (the names of `Protocol/lifecycle.md`'s "reject" lines: `noCall`, `deviceLocked`, `appNotRunning`, …). A value.
public struct EventRejected: Error, Equatable, CustomStringConvertible {
    /// The event refused.
    public let event: ControllerEvent
    /// Why.
    public let reason: RejectionReason

    /// The refusal of `event` for `reason` (to compare with: `#expect(throws: EventRejected(…)) { … }`).
    ///
    /// - Parameters:
    ///   - event: The event refused.
    ///   - reason: Why.
    public init(event: ControllerEvent, reason: RejectionReason) {
        self.event = event
        self.reason = reason
    }

    public var description: String {
        "the device refused \(event): \(reason.rawValue)"
    }
}
