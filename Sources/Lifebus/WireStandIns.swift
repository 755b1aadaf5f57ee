// Temporary: the names of the issue-4 wire contract until branch `protocol` lands; deleted at that merge.
public import LifebusProtocol

public enum LifecycleState: String, Sendable { case notRunning, inactive, active, background, suspended }
public enum LifecycleCallback: String, Sendable, CaseIterable {
    case didFinishLaunching, didBecomeActive, willResignActive, didEnterBackground, willEnterForeground, willTerminate,
        didReceiveMemoryWarning
}
public struct EventCause: Sendable, Equatable {
    public var eventID: Int64
    public var event: String
    public var json: JSONValue { ["eventID": .integer(eventID), "event": .string(event)] }
}
public struct CallbackParams: Sendable, Equatable {
    public var callbackID: Int64
    public var callback: LifecycleCallback
    public var state: LifecycleState
    public var budgetMs: Double
    public var cause: EventCause?
    public init(json: JSONValue) throws(RPCError) {
        guard let id = json["callbackID"]?.int64Value,
            let callback = json["callback"]?.stringValue.flatMap(LifecycleCallback.init(rawValue:)),
            let state = json["state"]?.stringValue.flatMap(LifecycleState.init(rawValue:)),
            let budget = json["budgetMs"]?.doubleValue
        else { throw RPCError.invalidParams("bad callback") }
        callbackID = id
        self.callback = callback
        self.state = state
        budgetMs = budget
        if let cause = json["cause"], let eventID = cause["eventID"]?.int64Value, let event = cause["event"]?.stringValue {
            self.cause = EventCause(eventID: eventID, event: event)
        }
    }
    public var json: JSONValue {
        [
            "callbackID": .integer(callbackID), "callback": .string(callback.rawValue), "state": .string(state.rawValue),
            "budgetMs": .double(budgetMs), "cause": cause?.json ?? .null,
        ]
    }
}
public struct CallbackAnswer: Sendable, Equatable {
    public var handlerMs: Double?
    public init(handlerMs: Double?) { self.handlerMs = handlerMs }
    public var json: JSONValue { handlerMs.map { ["handlerMs": .double($0)] } ?? [:] }
}
public struct MarkParams: Sendable, Equatable {
    public var name: String
    public var data: JSONObject
    public init(name: String, data: JSONObject = [:]) { self.name = name; self.data = data }
    public var json: JSONValue { ["name": .string(name), "data": .object(data)] }
}
public struct BeginBackgroundTaskParams: Sendable, Equatable {
    public var name: String?
    public init(name: String?) { self.name = name }
    public var json: JSONValue { name.map { ["name": .string($0)] } ?? [:] }
}
public struct BackgroundTaskParams: Sendable, Equatable {
    public var taskID: Int64
    public init(taskID: Int64) { self.taskID = taskID }
    public init(json: JSONValue) throws(RPCError) {
        guard let id = json["taskID"]?.int64Value else { throw RPCError.invalidParams(field: "taskID", "is required") }
        taskID = id
    }
    public var json: JSONValue { ["taskID": .integer(taskID)] }
}
public struct ReportMemoryParams: Sendable, Equatable {
    public var bytes: Int64
    public init(bytes: Int64) { self.bytes = bytes }
    public var json: JSONValue { ["bytes": .integer(bytes)] }
}
extension LifebusMethod {
    public static let mark = "mark"
    public static let beginBackgroundTask = "beginBackgroundTask"
    public static let endBackgroundTask = "endBackgroundTask"
    public static let reportMemory = "reportMemory"
    public static let backgroundTaskExpiring = "backgroundTaskExpiring"
}
