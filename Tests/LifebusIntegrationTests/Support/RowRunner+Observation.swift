import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifecycleContract

/// What a row's steps made the real broker do, in the core harness's notation, one list per kind of journal line
/// (each kind comes from its own source, so only the order within a kind is meaningful):
/// - `transitions`: the broker's `history` after the setup;
/// - `processes`: `start X` and `kill X reason` from the broker's log (the wire has no message for either);
/// - `rejections`: refused `fire`s (`lifebus.EventRejected` reason), refused app requests, refused hellos; `nil` is a
///   wildcard slot for a step the wire cannot carry (see `notes`);
/// - `expiring`: `backgroundTaskExpiring` notifications the apps received.
///
/// A plain value built by one `RowRunner`.
struct RowObservation: Sendable {
    var transitions: [String] = []
    var processes: [String] = []
    var killedPIDs: [Int32] = []
    var rejections: [String?] = []
    var expiring: [String] = []
    var situation = ""
    /// Steps that could not travel on the wire, and why.
    var notes: [String] = []
    /// Things that went wrong outside the row's expectations (unanswered fires, unreadable lines).
    var problems: [String] = []
}

/// A row's expected journal split the same way as a `RowObservation`.
struct ExpectedLines: Equatable {
    var transitions: [String] = []
    var processes: [String] = []
    var rejections: [String] = []
    var expiring: [String] = []

    init(_ journal: [String]) {
        for line in journal {
            if line.hasPrefix("start ") || line.hasPrefix("kill ") {
                processes.append(line)
            } else if line.hasPrefix("reject ") {
                rejections.append(line)
            } else if line.hasPrefix("expiring ") {
                expiring.append(line)
            } else {
                transitions.append(line)
            }
        }
    }

    /// Whether the observed rejections are these, a wildcard slot matching any one.
    func rejectionsMatch(_ observed: [String?]) -> Bool {
        observed.count == rejections.count && zip(observed, rejections).allSatisfy { $0 == nil || $0 == $1 }
    }
}

extension RowRunner {
    /// `fire` params for a core event (`ControllerEvent.fired`, its row names prefixed into app ids), asking to be
    /// answered when the event's chain completes.
    static func fireParams(_ event: ControllerEvent) -> JSONValue {
        guard let fired = event.fired else {
            preconditionFailure("\(event) is not a fire event (reset is the `reset` method); no row uses it")
        }
        var params: JSONObject = ["wait": true, "event": .string(fired.event.rawValue)]
        if let action = fired.action { params.append("action", .string(action.rawValue)) }
        if let app = fired.app { params.append("app", .string(appIDPrefix + app.rawValue)) }
        if let level = fired.level { params.append("level", .string(level.rawValue)) }
        if fired.byUser { params.append("byUser", true) }
        return .object(params)
    }

    /// The row's name for a wire app id.
    static func rowName(_ id: String?) -> String {
        guard let id else { return "?" }
        return id.hasPrefix(appIDPrefix) ? String(id.dropFirst(appIDPrefix.count)) : id
    }

    /// A `TransitionRecord` as the harness writes it: `A willResignActive active→inactive ok`.
    static func describeTransition(_ record: JSONValue) -> String {
        let callback = record["callback"]?.stringValue ?? "-"
        let from = record["from"]?.stringValue ?? "?"
        let to = record["to"]?.stringValue ?? "?"
        let outcome = record["outcome"]?.stringValue ?? "?"
        return "\(rowName(record["app"]?.stringValue)) \(callback) \(from)→\(to) \(outcome)"
    }

    /// A `StatusResult` as the harness writes the situation: `A=inactive front=A call=ringing` (no row it runs ends
    /// with an alert).
    static func describeSituation(_ status: JSONValue) -> String {
        var parts = (status["apps"]?.arrayValue ?? []).map {
            "\(rowName($0["id"]?.stringValue))=\($0["state"]?.stringValue ?? "?")"
        }
        let front = status["foreground"]?.stringValue
        parts.append("front=\(front.map { rowName($0) } ?? "-")")
        if status["locked"]?.boolValue == true {
            parts.append("locked")
        }
        if let call = status["call"]?.stringValue, call != "none" {
            parts.append("call=\(call)")
        }
        return parts.joined(separator: " ")
    }
}
