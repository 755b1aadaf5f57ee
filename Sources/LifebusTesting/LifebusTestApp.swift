public import Lifebus
public import LifebusLifecycle

/// An app a test launched on a `LifebusTestBus`: its id, and the SDK `Application` its delegate is served through.
///
/// A handle (the bus owns the app). Bound to the main actor, as the `Application` is.
@MainActor
public struct LifebusTestApp {
    /// The app id it said hello with.
    public let id: AppID
    /// The SDK's application object the delegate's methods receive.
    public let application: Application
}
