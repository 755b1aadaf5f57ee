/// A UIKit app-delegate callback the broker drives an app through. A plain value (`Sendable`).
///
/// The raw value is both the wire spelling and the JSON-RPC method of the broker → app request that delivers it
/// (`{"method":"didEnterBackground","params":CallbackParams}`); see `LifebusMethod.callback(_:)`.
public enum LifecycleCallback: String, Sendable, CaseIterable {
    case didFinishLaunching
    case didBecomeActive
    case willResignActive
    case didEnterBackground
    case willEnterForeground
    case willTerminate
    case didReceiveMemoryWarning
}
