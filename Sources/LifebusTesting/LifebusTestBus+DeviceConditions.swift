public import LifebusLifecycle

/// The device's conditions on the bus (`Protocol/lifecycle.md`, "Device conditions"): its power and network, which a
/// `processing` task's `requiresExternalPower` and `requiresNetworkConnectivity` wait for. In memory and live alike.
extension LifebusTestBus {
    /// Plugs the device in or runs it on its battery (`lifebus fire power external|battery`): a waiting processing
    /// task that needs external power runs once it is `external` (and the device idle, and online if it needs that);
    /// a running one that needs it expires when it becomes `battery`. Returns once the event's callbacks were
    /// answered.
    ///
    /// ```swift
    /// try await bus.setPower(.battery)
    /// try await bus.lock()
    /// try await bus.advance(by: .seconds(60))  // the task's earliest begin: it waits for power
    /// try await bus.setPower(.external)         // now it runs
    /// ```
    ///
    /// - Parameter power: Where the device takes its power from.
    /// - Throws: ``EventRejected`` when the device refused the event (``LifebusTestBusError`` when the broker does not
    ///   answer).
    public func setPower(_ power: PowerSource) async throws {
        try await fire(.power(power))
    }

    /// Takes the device online or offline (`lifebus fire network online|offline`): as `setPower(_:)`, for a
    /// processing task's `requiresNetworkConnectivity`.
    ///
    /// - Parameter network: Whether the device reaches the network.
    /// - Throws: ``EventRejected`` when the device refused the event (``LifebusTestBusError`` when the broker does not
    ///   answer).
    public func setNetwork(_ network: NetworkState) async throws {
        try await fire(.network(network))
    }
}
