import LifebusJSON
public import LifebusLifecycle

/// The details `fire` carries in a `lifebus.EventRejected` error: why the broker refused to inject the event.
///
/// A plain value (`Sendable`). Error `data`: `{"name":"lifebus.EventRejected","reason":"appNotRunning",
/// "eventID":3}` — `reason` says why (`RejectionReason`: `appNotRunning`, `noCall`, …); `eventID` is the id minted
/// for the refused event.
public struct EventRejection: Sendable, Equatable {
    public var reason: RejectionReason
    public var eventID: Int64

    public init(reason: RejectionReason, eventID: Int64) {
        self.reason = reason
        self.eventID = eventID
    }

    /// The details of `error`, or `nil` when it is not a well-formed `lifebus.EventRejected`.
    public init?(_ error: RPCError) {
        guard error.code == LifebusErrorCode.eventRejected.code,
            let reason = error.data?["reason"]?.stringValue.flatMap(RejectionReason.init(rawValue:)),
            let eventID = error.data?["eventID"]?.int64Value
        else { return nil }
        self.init(reason: reason, eventID: eventID)
    }

    /// The error to answer `fire` with; `message` is for people.
    public func error(_ message: String) -> RPCError {
        RPCError(.eventRejected, message, data: ["reason": .string(reason.rawValue), "eventID": .integer(eventID)])
    }
}

/// The details `wait` carries in a `lifebus.TimedOut` error: where the app stood when the wait gave up.
///
/// A plain value (`Sendable`). Error `data`: `{"name":"lifebus.TimedOut","state":"inactive",
/// "transitions":[TransitionRecord…],"connected":false}` — `state` is the app's current state; `transitions` its
/// last (at most `WaitTimeout.maxTransitions`) transitions, oldest first; `connected` whether the app's connection
/// is open (absent from older brokers: `nil`). Not connected and no transition recorded: the app never connected.
/// A scene's wait adds `sceneState`, the scene's state (`unattached` when not connected).
public struct WaitTimeout: Sendable, Equatable {
    /// How many of the app's last transitions the error carries at most.
    public static let maxTransitions = 5

    public var state: LifecycleState
    public var transitions: [TransitionRecord]
    public var connected: Bool?
    /// A scene wait's (`SceneWaitParams`): the scene's state when the time was up (`unattached` when it is not
    /// connected); `nil` for an app's wait.
    public var sceneState: SceneState?

    public init(
        state: LifecycleState, transitions: [TransitionRecord], connected: Bool? = nil, sceneState: SceneState? = nil
    ) {
        self.state = state
        self.transitions = transitions
        self.connected = connected
        self.sceneState = sceneState
    }

    /// Whether the app never connected, as far as the broker remembers: not connected, and no transition of it.
    public var neverConnected: Bool {
        connected == false && transitions.isEmpty
    }

    /// The details of `error`, or `nil` when it is not a well-formed `lifebus.TimedOut` from `wait`.
    public init?(_ error: RPCError) {
        guard error.code == LifebusErrorCode.timedOut.code, let data = error.data,
            let state = data["state"]?.stringValue.flatMap(LifecycleState.init(rawValue:)),
            let records = data["transitions"]?.arrayValue
        else { return nil }
        var transitions: [TransitionRecord] = []
        for record in records {
            guard let decoded = try? TransitionRecord(json: record) else { return nil }
            transitions.append(decoded)
        }
        self.init(
            state: state, transitions: transitions, connected: data["connected"]?.boolValue,
            sceneState: data["sceneState"]?.stringValue.flatMap(SceneState.init(rawValue:)))
    }

    /// The error to answer `wait` with (only the last `maxTransitions` transitions are kept).
    public func error(_ message: String) -> RPCError {
        var data: JSONObject = [
            "state": .string(state.rawValue),
            "transitions": .array(transitions.suffix(Self.maxTransitions).map(\.json)),
        ]
        if let connected { data.append("connected", .bool(connected)) }
        if let sceneState { data.append("sceneState", .string(sceneState.rawValue)) }
        return RPCError(.timedOut, message, data: data)
    }
}
