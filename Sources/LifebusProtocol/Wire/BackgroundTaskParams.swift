public import LifebusJSON

/// The params of `beginBackgroundTask` (app → broker): the app asks for time to finish work off screen.
///
/// A plain value (`Sendable`). Wire form: `{"name":"upload"}` or `{}` — `name` is optional and free-form (shown
/// in logs and status). Answered with `BackgroundTaskBeginResult`.
public struct BackgroundTaskBeginParams: Sendable, Equatable {
    public var name: String?

    public init(name: String? = nil) {
        self.name = name
    }

    public init(json: JSONValue) throws(RPCError) {
        name = try ParamsReader(json).optionalString("name")
    }

    public var json: JSONValue {
        guard let name else { return [:] }
        return ["name": .string(name)]
    }
}

/// The result of `beginBackgroundTask`: `{"taskID":4}`. A plain value (`Sendable`).
/// Invariant: `taskID` ≥ 1, minted by the broker and unique per app connection.
public struct BackgroundTaskBeginResult: Sendable, Equatable {
    public var taskID: Int64

    public init(taskID: Int64) {
        self.taskID = taskID
    }

    public init(json: JSONValue) throws(RPCError) {
        taskID = try ParamsReader(json).integer("taskID", as: Int64.self, minimum: 1)
    }

    public var json: JSONValue { ["taskID": .integer(taskID)] }
}

/// The params of `endBackgroundTask` (app → broker): `{"taskID":4}`; answered `{}` (`EmptyResult`).
/// A plain value (`Sendable`). Invariant: `taskID` ≥ 1. A task id the broker did not mint for this connection
/// (or already ended) is answered with -32602 naming `taskID` — by the broker, which knows the ids.
public struct BackgroundTaskEndParams: Sendable, Equatable {
    public var taskID: Int64

    public init(taskID: Int64) {
        self.taskID = taskID
    }

    public init(json: JSONValue) throws(RPCError) {
        taskID = try ParamsReader(json).integer("taskID", as: Int64.self, minimum: 1)
    }

    public var json: JSONValue { ["taskID": .integer(taskID)] }
}

/// The params of the broker → app notification `backgroundTaskExpiring`: `{"taskID":4}`. The task's expiration
/// handler should run and end the task. A plain value (`Sendable`). Invariant: `taskID` ≥ 1.
public struct BackgroundTaskExpiringParams: Sendable, Equatable {
    public var taskID: Int64

    public init(taskID: Int64) {
        self.taskID = taskID
    }

    public init(json: JSONValue) throws(RPCError) {
        taskID = try ParamsReader(json).integer("taskID", as: Int64.self, minimum: 1)
    }

    public var json: JSONValue { ["taskID": .integer(taskID)] }
}
