/// A UIKit app-delegate method the device drives an app through, named without the `application` prefix.
///
/// The raw value is both the wire spelling and the JSON-RPC method of the broker → app request that delivers it
/// (`{"method":"didEnterBackground","params":CallbackParams}`). Adding one: ARCHITECTURE.md's "Adding a callback";
/// `CallbackTablesTests` drives every case through the tables written by hand.
public enum LifecycleCallback: String, Sendable, CaseIterable, Hashable {
    case didFinishLaunching
    case didBecomeActive
    case willResignActive
    case didEnterBackground
    case willEnterForeground
    case willTerminate
    case didReceiveMemoryWarning
}
