/// The `UIApplication` notifications UIKit posts in a scene app on the edges of the app's aggregate state (its most
/// active scene): `willEnterForeground` when the aggregate leaves the background, `didBecomeActive` when the first
/// scene becomes active, `willResignActive` when the last active scene resigns, `didEnterBackground` when the last
/// foreground scene leaves. A scene callback that moves no edge posts none. The raw value is the wire spelling.
public enum ApplicationNotification: String, Sendable, CaseIterable, Hashable {
    case willEnterForeground
    case didBecomeActive
    case willResignActive
    case didEnterBackground
}
