public import LifebusJSON
public import LifebusLifecycle

/// The params of `submitBackgroundTask` (app → broker), answered `{}`:
/// `{"identifier":"com.example.refresh","kind":"appRefresh","earliestBeginAfter":900,
/// "requiresExternalPower":false,"requiresNetworkConnectivity":false}` — `BGTaskScheduler.submit(_:)`.
///
/// A plain value (`Sendable`). Invariants: `identifier` is a well-formed task identifier; `earliestBeginAfter`, when
/// given, is from 0 to `maxEarliestBeginAfter` (seconds on the broker's clock from the request's arrival:
/// `BGTaskRequest.earliestBeginDate`); the `requires…` flags default to `false`.
public struct SubmitBackgroundTaskParams: Sendable, Equatable {
    /// The latest begin a request may ask for: 366 days, in seconds.
    public static let maxEarliestBeginAfter: Double = 31_622_400

    public var identifier: String
    public var kind: BackgroundTaskKind
    public var earliestBeginAfter: Duration?
    public var requiresExternalPower: Bool
    public var requiresNetworkConnectivity: Bool

    public init(
        identifier: String, kind: BackgroundTaskKind, earliestBeginAfter: Duration? = nil,
        requiresExternalPower: Bool = false, requiresNetworkConnectivity: Bool = false
    ) {
        self.identifier = identifier
        self.kind = kind
        self.earliestBeginAfter = earliestBeginAfter
        self.requiresExternalPower = requiresExternalPower
        self.requiresNetworkConnectivity = requiresNetworkConnectivity
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        identifier = try reader.taskIdentifier("identifier")
        kind = try reader.choice("kind", as: BackgroundTaskKind.self)
        earliestBeginAfter = try reader.optionalDouble("earliestBeginAfter", maximum: Self.maxEarliestBeginAfter)
            .map { seconds in Duration(clampingMilliseconds: seconds * 1000) }
        requiresExternalPower = try reader.bool("requiresExternalPower", default: false)
        requiresNetworkConnectivity = try reader.bool("requiresNetworkConnectivity", default: false)
    }

    public var json: JSONValue {
        var object: JSONObject = ["identifier": .string(identifier), "kind": .string(kind.rawValue)]
        if let after = earliestBeginAfter { object.append("earliestBeginAfter", .double(after.inMilliseconds / 1000)) }
        if requiresExternalPower { object.append("requiresExternalPower", .bool(true)) }
        if requiresNetworkConnectivity { object.append("requiresNetworkConnectivity", .bool(true)) }
        return .object(object)
    }
}
