/// The device's behaviour set, chosen when the broker starts. `ios7` is the default.
///
/// - `ios3`: no multitasking; leaving the foreground terminates the app.
/// - `ios4`: multitasking; locking the device only resigns the front app.
/// - `ios7`: multitasking; locking also sends the front app to the background.
public enum Profile: String, Sendable, CaseIterable, Hashable {
    case ios3
    case ios4
    case ios7

    /// Whether apps may run in the background at all under this profile.
    public var hasMultitasking: Bool {
        self != .ios3
    }
}

/// The life-cycle state of one app, as UIKit reports it.
///
/// `active` and `inactive` are the foreground states; at most one app is in either at a time.
public enum AppState: String, Sendable, CaseIterable, Hashable {
    case notRunning
    case inactive
    case active
    case background
    case suspended

    /// `active` or `inactive`.
    public var isForeground: Bool {
        self == .active || self == .inactive
    }

    /// Any state but `notRunning`.
    public var isRunning: Bool {
        self != .notRunning
    }
}

/// The app-delegate methods the device calls, named without the `application` prefix.
public enum Callback: String, Sendable, CaseIterable, Hashable {
    case didFinishLaunching
    case didBecomeActive
    case willResignActive
    case didEnterBackground
    case willEnterForeground
    case willTerminate
    case didReceiveMemoryWarning
}

/// An app's identity (its bundle identifier), given by the app when it connects.
public struct AppID: Hashable, Sendable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public static func < (lhs: AppID, rhs: AppID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String {
        rawValue
    }
}

/// A controller event's identity, chosen by the caller (the broker numbers its events).
/// Must be unique among the events the device has not answered yet.
public struct EventID: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public var description: String {
        "#\(rawValue)"
    }
}

/// One callback request, minted by the device; the app's answer must quote it.
public struct CallbackID: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public var description: String {
        "cb\(rawValue)"
    }
}

/// One timer, minted by the device; the caller arms it and reports it back with `Input.timerFired`.
public struct TimerID: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public var description: String {
        "t\(rawValue)"
    }
}

/// What an app declares about itself when it connects (its Info.plist, in iOS terms).
public struct AppFlags: Sendable, Hashable {
    /// `UIApplicationExitsOnSuspend`: the app behaves as under `ios3` wherever it would enter the background.
    public var exitsOnSuspend: Bool
    /// `UIBackgroundModes` (e.g. `audio`, `voip`, `location`): a non-empty list keeps the app `background`
    /// instead of `suspended`.
    public var backgroundModes: [String]
    /// The app was started for background work: it launches into the background instead of the front
    /// (ignored where it cannot run in the background).
    public var launchInBackground: Bool

    public init(exitsOnSuspend: Bool = false, backgroundModes: [String] = [], launchInBackground: Bool = false) {
        self.exitsOnSuspend = exitsOnSuspend
        self.backgroundModes = backgroundModes
        self.launchInBackground = launchInBackground
    }
}
