import LifebusCore
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol
import LifecycleContract

/// What a row's steps made the real broker do, in the core harness's notation, one list per kind of journal line
/// (each kind comes from its own source, so only the order within a kind is meaningful):
/// - `transitions`: the broker's `history` after the setup;
/// - `processes`: `start X` and `kill X reason` from the broker's log (the wire has no message for either);
/// - `rejections`: refused `fire`s (`lifebus.EventRejected` reason), refused app requests, refused hellos; `nil` is a
///   wildcard slot for a step the wire cannot carry (see `notes`);
/// - `expiring`: `backgroundTaskExpiring` notifications the apps received;
/// - `launches`: callbacks the apps received with a `launchReason` (a background launch) or `launchOptions` (the
///   members present: `launch A didFinishLaunching launchOptions url`).
///
/// `transitions` also holds the background records of `history` (`task A refresh launched`, `push A answered
/// noData`, `protected data unavailable`), in the journal's order among the transitions.
///
/// A plain value built by one `RowRunner`.
struct RowObservation: Sendable {
    var transitions: [String] = []
    var processes: [String] = []
    var killedPIDs: [Int32] = []
    var rejections: [String?] = []
    var expiring: [String] = []
    /// `launch A didFinishLaunching backgroundTask`: callbacks the apps received with a `launchReason`.
    var launches: [String] = []
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
    var launches: [String] = []

    init(_ journal: [String]) {
        for line in journal {
            if line.hasPrefix("start ") || line.hasPrefix("kill ") {
                processes.append(line)
            } else if line.hasPrefix("reject ") {
                rejections.append(line)
            } else if line.hasPrefix("expiring ") {
                expiring.append(line)
            } else if line.hasPrefix("launch ") {
                launches.append(line)
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
    /// `fire` params for a core event (`ControllerEvent.fired`, its row names prefixed into app ids; a scene event's
    /// scene, session and connection options), asking to be answered when the event's chain completes.
    static func fireParams(_ event: ControllerEvent) -> JSONValue {
        guard let fired = event.fired else {
            preconditionFailure("\(event) is not a fire event (reset is the `reset` method); no row uses it")
        }
        var params = FireParams(
            event: fired.event, action: fired.action, app: fired.app.map { appIDPrefix + $0.rawValue },
            level: fired.level, byUser: fired.byUser)
        params.scene = fired.scene
        params.session = fired.session
        params.identifier = fired.identifier
        params.payload = fired.payload
        if let options = fired.options {
            params.url = options.urlContexts.first
            params.activity = options.userActivity
            params.push = options.notificationResponse
        }
        return params.json
    }

    /// The row's name for a wire app id.
    static func rowName(_ id: String?) -> String {
        guard let id else { return "?" }
        return id.hasPrefix(appIDPrefix) ? String(id.dropFirst(appIDPrefix.count)) : id
    }

    /// A journal entry as the harness writes it: a transition (`describeTransition`), a `BackgroundTaskRecord`
    /// (`task A refresh completed true`), a `PushDeliveryRecord` (`push A answered noData`) or a
    /// `ProtectedDataRecord` (`protected data unavailable`); `nil` for the kinds the harness has no line for.
    static func describeEntry(_ record: JSONValue) -> String? {
        switch record["type"]?.stringValue {
        case "transition":
            return describeTransition(record)
        case "task":
            let success = record["success"]?.boolValue.map { " \($0)" } ?? ""
            return "task \(rowName(record["app"]?.stringValue)) \(record["identifier"]?.stringValue ?? "?") "
                + "\(record["event"]?.stringValue ?? "?")\(success)"
        case "push":
            let result = record["result"]?.stringValue.map { " \($0)" } ?? ""
            let presentation = record["presentation"]?.arrayValue.map { options in
                " " + (options.isEmpty ? "none" : options.compactMap(\.stringValue).joined(separator: ","))
            } ?? ""
            return "push \(rowName(record["app"]?.stringValue)) \(record["event"]?.stringValue ?? "?")\(result)"
                + presentation
        case "protectedData":
            return "protected data \(record["available"]?.boolValue == true ? "available" : "unavailable")"
        default:
            return nil
        }
    }

    /// A `TransitionRecord` as the harness writes it: `A willResignActive active→inactive ok`, a scene's
    /// `A/1 sceneDidBecomeActive foregroundInactive→foregroundActive ok`.
    static func describeTransition(_ record: JSONValue) -> String {
        let callback = record["callback"]?.stringValue ?? "-"
        let outcome = record["outcome"]?.stringValue ?? "?"
        let app = rowName(record["app"]?.stringValue)
        if let scene = record["scene"]?.int64Value {
            let from = record["sceneFrom"]?.stringValue ?? "?"
            let to = record["sceneTo"]?.stringValue ?? "?"
            return "\(app)/\(scene) \(callback) \(from)→\(to) \(outcome)"
        }
        let from = record["from"]?.stringValue ?? "?"
        let to = record["to"]?.stringValue ?? "?"
        return "\(app) \(callback) \(from)→\(to) \(outcome)"
    }

    /// A `StatusResult` as the harness writes the situation: `A=inactive A.s1=1:foregroundActive+saved front=A
    /// call=ringing dataLocked A.refresh=running` (no row it runs ends with an alert).
    static func describeSituation(_ status: JSONValue) -> String {
        var parts: [String] = []
        for app in status["apps"]?.arrayValue ?? [] {
            let name = rowName(app["id"]?.stringValue)
            parts.append("\(name)=\(app["state"]?.stringValue ?? "?")")
            for session in app["scenes"]?.arrayValue ?? [] {
                let scene = session["scene"]?.int64Value.map { "\($0):\(session["state"]?.stringValue ?? "?")" } ?? "-"
                let saved = session["restoration"]?.boolValue == true ? "+saved" : ""
                parts.append("\(name).s\(session["session"]?.int64Value ?? 0)=\(scene)\(saved)")
            }
        }
        let front = status["foreground"]?.stringValue
        parts.append("front=\(front.map { rowName($0) } ?? "-")")
        if status["locked"]?.boolValue == true {
            parts.append("locked")
        }
        if let call = status["call"]?.stringValue, call != "none" {
            parts.append("call=\(call)")
        }
        if status["protectedDataAvailable"]?.boolValue == false {
            parts.append("dataLocked")
        }
        for app in status["apps"]?.arrayValue ?? [] {
            for task in app["tasks"]?.arrayValue ?? [] {
                parts.append("\(rowName(app["id"]?.stringValue)).\(task["identifier"]?.stringValue ?? "?")="
                    + (task["state"]?.stringValue ?? "?"))
            }
        }
        return parts.joined(separator: " ")
    }
}
