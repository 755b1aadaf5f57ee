public import LifebusJSON

/// The params of `registerBackgroundTask` (app → broker): `{"identifier":"com.example.refresh"}`, answered `{}` —
/// the app registers a launch handler for a `BGTaskScheduler` task identifier, as iOS requires before launch finishes.
///
/// A plain value (`Sendable`). Invariant: `identifier` is a well-formed task identifier (`isValidIdentifier`).
public struct RegisterBackgroundTaskParams: Sendable, Equatable {
    public var identifier: String

    public init(identifier: String) {
        self.identifier = identifier
    }

    public init(json: JSONValue) throws(RPCError) {
        identifier = try ParamsReader(json).taskIdentifier("identifier")
    }

    public var json: JSONValue { ["identifier": .string(identifier)] }

    /// Whether `identifier` may name a task: the shape of an app id (1…255 characters of `A-Z a-z 0-9 . _ -`), as
    /// `BGTaskSchedulerPermittedIdentifiers` entries are reverse-DNS names.
    public static func isValidIdentifier(_ identifier: String) -> Bool {
        HelloParams.isValidAppID(identifier)
    }
}

/// The params of `setTaskCompleted` (app → broker): `{"identifier":"com.example.refresh","success":true}`, answered
/// `{}` — the running task of that identifier is done (`BGTask.setTaskCompleted(success:)`).
///
/// A plain value (`Sendable`). Invariant: `identifier` is a well-formed task identifier.
public struct SetTaskCompletedParams: Sendable, Equatable {
    public var identifier: String
    public var success: Bool

    public init(identifier: String, success: Bool) {
        self.identifier = identifier
        self.success = success
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        identifier = try reader.taskIdentifier("identifier")
        guard reader.has("success") else { throw RPCError.invalidParams(field: "success", "is required") }
        success = try reader.bool("success", default: false)
    }

    public var json: JSONValue { ["identifier": .string(identifier), "success": .bool(success)] }
}

/// `{"available":false}`: the params of the broker → app notification `protectedDataChanged` and the result of the
/// controller query `protectedData` — whether the device's protected data (files of class `complete`) can be used.
///
/// A plain value (`Sendable`).
public struct ProtectedDataParams: Sendable, Equatable {
    public var available: Bool

    public init(available: Bool) {
        self.available = available
    }

    public init(json: JSONValue) throws(RPCError) {
        let reader = try ParamsReader(json)
        guard reader.has("available") else { throw RPCError.invalidParams(field: "available", "is required") }
        available = try reader.bool("available", default: true)
    }

    public var json: JSONValue { ["available": .bool(available)] }
}

extension ParamsReader {
    /// A well-formed task identifier (`RegisterBackgroundTaskParams.isValidIdentifier`).
    func taskIdentifier(_ key: String) throws(RPCError) -> String {
        let identifier = try string(key)
        guard RegisterBackgroundTaskParams.isValidIdentifier(identifier) else {
            throw RPCError.invalidParams(
                field: path(key), "must be 1…\(HelloParams.maxAppIDLength) characters from A-Z a-z 0-9 . _ -")
        }
        return identifier
    }
}
