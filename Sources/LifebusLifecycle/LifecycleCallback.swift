/// A UIKit app-delegate method the device drives an app through, named without the `application` prefix.
///
/// The raw value is both the wire spelling and the JSON-RPC method of the broker → app request that delivers it
/// (`{"method":"didEnterBackground","params":CallbackParams}`). Its watchdog budget under each profile is declared
/// here too (`defaultBudget(under:)`), and `ordinal` is its place in `allCases` (what `Budgets` is indexed by).
/// Adding one: ARCHITECTURE.md's "Adding a callback"; `CallbackTablesTests` drives every case through the tables
/// written by hand.
public enum LifecycleCallback: String, Sendable, CaseIterable, Hashable {
    case didFinishLaunching
    case didBecomeActive
    case willResignActive
    case didEnterBackground
    case willEnterForeground
    case willTerminate
    case didReceiveMemoryWarning
}

extension LifecycleCallback {
    /// The watchdog budget of the callback under `profile` (`Protocol/lifecycle.md`, "Budgets"), before a broker's
    /// `--time-scale` and `--budget` change it. The same under every profile today; a profile that differs says so
    /// here.
    public func defaultBudget(under profile: Profile) -> Duration {
        switch self {
        case .didFinishLaunching: .seconds(20)
        case .didBecomeActive: .seconds(10)
        case .willResignActive: .seconds(10)
        case .didEnterBackground: .seconds(5)
        case .willEnterForeground: .seconds(10)
        case .willTerminate: .seconds(5)
        case .didReceiveMemoryWarning: .seconds(10)
        }
    }

    /// The callback's position in `allCases` (declaration order), so a table of one value per callback is read by
    /// index, with no hashing (`Budgets`); the compiler turns this switch into the case's own tag.
    /// `CallbackTablesTests` checks every case against `allCases`.
    @inlinable
    public var ordinal: Int {
        switch self {
        case .didFinishLaunching: 0
        case .didBecomeActive: 1
        case .willResignActive: 2
        case .didEnterBackground: 3
        case .willEnterForeground: 4
        case .willTerminate: 5
        case .didReceiveMemoryWarning: 6
        }
    }
}
