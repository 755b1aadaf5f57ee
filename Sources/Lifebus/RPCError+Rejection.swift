public import LifebusLifecycle
public import LifebusProtocol

/// A broker's error as an app reads a refusal of its own request: the device's reason, typed.
extension RPCError {
    /// Why the device refused an app's request, when this error is that refusal (`lifebus.EventRejected` with a
    /// `data.reason` this SDK knows); `nil` for any other error. What an app matches a refusal on, as it would match
    /// a `BGTaskScheduler.Error.Code`:
    ///
    /// ```swift
    /// do {
    ///     try await application.taskScheduler.submit(request)
    /// } catch where error.rejectionReason == .tooManyPendingTaskRequests {
    ///     // cancel a pending request, or submit later
    /// }
    /// ```
    public var rejectionReason: RejectionReason? {
        guard code == LifebusErrorCode.eventRejected.code else { return nil }
        return data?["reason"]?.stringValue.flatMap(RejectionReason.init(rawValue:))
    }
}
