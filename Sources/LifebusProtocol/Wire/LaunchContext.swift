public import LifebusJSON

/// Why an installed app is being launched and what its previous run left: the `launch` member of
/// `didFinishLaunching`'s params (installed apps only) and of the `launching` process record.
///
/// A plain value (`Sendable`). Wire form (every member written, `null` for the absent ones):
/// `{"reason":"afterJetsam","previousPid":4321,"previousEnding":"killed (jetsam)","restorationState":"card=3",
/// "restoredBytes":6,"restoredHash":"fnv1a64:…"}` — `reason` is one of `Reason`; `previousPid` and
/// `previousEnding` describe the app's last process (`null` on a first launch); `restorationState` is the payload
/// the app last saved with `saveRestorationState` (in a record it is left out: `null`, with its size and hash).
public struct LaunchContext: Sendable, Equatable {
    /// Why the app is launched.
    public enum Reason: String, Sendable, CaseIterable {
        /// A launch with no previous run the broker ended or saw end (the user tapped it).
        case user
        /// Its previous process was killed for memory pressure.
        case afterJetsam
        /// Its previous process overran a budget and was killed.
        case afterWatchdog
        /// Its previous process ended without being told to.
        case afterCrash
        /// Its previous process was terminated (willTerminate, a user swipe, an exit after suspension).
        case afterTerminate
        /// Relaunched by `call --end` (`ios3`, R06).
        case callEnded
    }

    /// The largest restoration payload an app may save, in UTF-8 bytes.
    public static let maxRestorationBytes = 64 * 1024

    public var reason: Reason
    public var previousPid: Int32?
    public var previousEnding: String?
    public var restorationState: String?
    /// The payload's size in bytes (kept when a record leaves the payload out).
    public var restoredBytes: Int
    /// The payload's FNV-1a 64-bit hash, `fnv1a64:` and 16 hex digits (evidence, not security); `nil` without one.
    public var restoredHash: String?

    public init(reason: Reason, previousPid: Int32? = nil, previousEnding: String? = nil,
                restorationState: String? = nil) {
        self.reason = reason
        self.previousPid = previousPid
        self.previousEnding = previousEnding
        self.restorationState = restorationState
        restoredBytes = restorationState?.utf8.count ?? 0
        restoredHash = restorationState.map(Self.hash)
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        reason = try reader.choice("reason", as: Reason.self)
        previousPid = try reader.optionalInteger("previousPid", as: Int32.self)
        previousEnding = try reader.optionalString("previousEnding")
        restorationState = try reader.optionalString("restorationState")
        restoredBytes = try reader.optionalInteger("restoredBytes", as: Int.self) ?? restorationState?.utf8.count ?? 0
        restoredHash = try reader.optionalString("restoredHash") ?? restorationState.map(Self.hash)
    }

    /// FNV-1a 64 of the text's UTF-8, as `fnv1a64:` and 16 hex digits.
    static func hash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The wire form; `withPayload: false` (records) writes `restorationState` as `null`.
    public func json(withPayload: Bool = true) -> JSONValue {
        [
            "reason": .string(reason.rawValue),
            "previousPid": .optional(previousPid) { .integer(Int64($0)) },
            "previousEnding": .optional(previousEnding, JSONValue.string),
            "restorationState": withPayload ? .optional(restorationState, JSONValue.string) : .null,
            "restoredBytes": .integer(Int64(restoredBytes)),
            "restoredHash": .optional(restoredHash, JSONValue.string),
        ]
    }
}

/// The params of `saveRestorationState` (app → broker): `{"state":"card=3"}`, an opaque string of at most
/// `LaunchContext.maxRestorationBytes` UTF-8 bytes (`lifebus.LimitExceeded` above, nothing kept). Answered `{}`.
/// The broker hands it back in `didFinishLaunching`'s `launch.restorationState` after any kill and relaunch.
public struct SaveRestorationStateParams: Sendable, Equatable {
    public var state: String

    public init(state: String) {
        self.state = state
    }

    public init(json: JSONValue) throws(RPCError) {
        state = try ParamsReader(json).string("state")
    }

    public var json: JSONValue { ["state": .string(state)] }
}
