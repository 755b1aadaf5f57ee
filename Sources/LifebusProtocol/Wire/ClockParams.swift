public import LifebusJSON
public import LifebusLifecycle

/// Which clock the broker's lifecycle runs on (`lifebusd --clock`): `real`, the monotonic clock, or `manual`,
/// virtual time that starts at 0 and moves only on `advance`. Transport timeouts run on real time under both.
public enum ClockKind: String, Sendable, Hashable, CaseIterable {
    case real
    case manual
}

/// The params of `advance` (controller → broker, manual clock only): `{"byMs":5000}` moves virtual time on by
/// `byMs` milliseconds, firing every lifecycle deadline on the way.
///
/// A plain value (`Sendable`). Invariant enforced by `init(json:)`: `byMs` is a finite number from 0 to `maxByMs`
/// (one day). Answered with `AdvanceResult` once the device has settled (or its settle limit passed).
public struct AdvanceParams: Sendable, Equatable {
    /// The longest step one `advance` takes: one day of virtual time.
    public static let maxByMs: Double = 86_400_000

    public var byMs: Double

    public init(byMs: Double) {
        self.byMs = byMs
    }

    public init(json: JSONValue) throws(RPCError) {
        byMs = try ParamsReader(json).double("byMs", maximum: Self.maxByMs)
    }

    public var json: JSONValue { ["byMs": .double(byMs)] }
}

/// A callback an app had not answered when an `advance` gave up waiting (its settle limit passed in real time).
public struct OutstandingCallback: Sendable, Equatable {
    public var app: String
    public var callback: LifecycleCallback
    public var callbackID: Int64

    public init(app: String, callback: LifecycleCallback, callbackID: Int64) {
        self.app = app
        self.callback = callback
        self.callbackID = callbackID
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        app = try reader.string("app")
        callback = try reader.choice("callback", as: LifecycleCallback.self)
        callbackID = try reader.integer("callbackID", as: Int64.self)
    }

    public var json: JSONValue {
        ["app": .string(app), "callback": .string(callback.rawValue), "callbackID": .integer(callbackID)]
    }
}

/// The result of `advance` and of `clock`: `{"clock":"manual","nowMs":5000}`, the clock's kind and its time in
/// milliseconds (virtual under the manual clock, since the broker's start under the real one). `advance` adds
/// `outstanding`: the callbacks still unanswered when it answered (empty when the device settled).
///
/// A plain value (`Sendable`). Invariant: `outstanding` is `nil` in `clock`'s answer, non-`nil` in `advance`'s.
public struct ClockResult: Sendable, Equatable {
    public var clock: ClockKind
    public var nowMs: Double
    public var outstanding: [OutstandingCallback]?

    public init(clock: ClockKind, nowMs: Double, outstanding: [OutstandingCallback]? = nil) {
        self.clock = clock
        self.nowMs = nowMs
        self.outstanding = outstanding
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        clock = try reader.choice("clock", as: ClockKind.self)
        nowMs = try reader.double("nowMs")
        outstanding = reader.has("outstanding")
            ? try reader.array("outstanding") { value, _ throws(RPCError) in try OutstandingCallback(json: value) }
            : nil
    }

    public var json: JSONValue {
        var object: JSONObject = ["clock": .string(clock.rawValue), "nowMs": .double(nowMs)]
        if let outstanding { object.append("outstanding", .array(outstanding.map(\.json))) }
        return .object(object)
    }
}
