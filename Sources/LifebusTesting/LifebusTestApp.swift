public import Lifebus
public import LifebusLifecycle

/// An app a test launched on a `LifebusTestBus`: its id, and the SDK `Application` its delegate is served through
/// (none for an installed app, whose own process the broker started).
///
/// A handle (the bus owns the app). Bound to the main actor, as the `Application` is.
@MainActor
public struct LifebusTestApp {
    /// The app id it said hello with.
    public let id: AppID
    /// The SDK's application object the delegate's methods receive; `nil` for an installed app
    /// (`LifebusTestBus.launch(_:)`), which runs in a process of its own.
    public let application: Application?
}
