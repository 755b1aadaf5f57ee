public import LifebusJSON
import LifebusProtocol

/// The two ways `lifebus coverage` prints coverage: text for people, JSON for tools.
extension LifecycleCoverage {
    /// Per app and profile: `N of M rows reached` (a scene app says so; M leaves out the rows its kind cannot
    /// reach), the rows reached (with how many records showed each), the rows never reached with their situations,
    /// the rows not applicable to the app's kind; then the rows no journal can show.
    public var text: String {
        var lines: [String] = []
        if apps.isEmpty { lines.append("no transitions recorded") }
        for app in apps {
            for run in app.profiles {
                let observable = run.reached.count + run.neverReached.count
                let kind = run.kind == .scene ? " (scene app)" : ""
                lines.append("\(app.app)\(kind) under \(run.profile?.rawValue ?? "an unknown profile"): "
                    + "\(run.reached.count) of \(observable) rows reached")
                if !run.reached.isEmpty {
                    let reached = run.reached.map { "\($0.row) ×\($0.records)" }
                    lines.append("  reached: " + reached.joined(separator: ", "))
                }
                if !run.neverReached.isEmpty {
                    lines.append("  never reached:")
                    lines += run.neverReached.map { "    \($0.id.padding(toWidth: 5)) \($0.situation)" }
                }
                if !run.notApplicable.isEmpty {
                    let kindWords = run.kind == .scene ? "a scene app" : "an app-delegate app"
                    lines.append("  not applicable to \(kindWords) (\(run.notApplicable.count) rows): "
                        + run.notApplicable.map(\.id).joined(separator: " "))
                }
            }
        }
        let hidden = Self.notInJournal
        lines.append("not shown by a journal (\(hidden.count) rows: rejections, events that move no app, rows a "
            + "journal does not tell apart): " + hidden.map(\.id).joined(separator: " "))
        return lines.joined(separator: "\n")
    }

    /// `{"apps":[{"app","profiles":[{"profile","kind","reached":[{"row","records"}],"neverReached":[{"row",
    /// "situation"}],"notApplicable":[{"row","situation"}]}]}],"notInJournal":[{"row","situation","reason"}]}`;
    /// `profile` is `null` when unknown, `kind` `appDelegate` or `scene`.
    public var json: JSONValue {
        let apps: [JSONValue] = apps.map { app in
            .object([
                "app": .string(app.app),
                "profiles": .array(app.profiles.map { run in
                    .object([
                        "profile": run.profile.map { .string($0.rawValue) } ?? .null,
                        "kind": .string(run.kind.rawValue),
                        "reached": .array(run.reached.map {
                            .object(["row": .string($0.row), "records": .integer(Int64($0.records))])
                        }),
                        "neverReached": .array(run.neverReached.map {
                            .object(["row": .string($0.id), "situation": .string($0.situation)])
                        }),
                        "notApplicable": .array(run.notApplicable.map {
                            .object(["row": .string($0.id), "situation": .string($0.situation)])
                        }),
                    ])
                }),
            ])
        }
        let hidden: [JSONValue] = Self.notInJournal.map { row in
            guard case .notInJournal(let reason) = row.evidence else { return .null }
            return .object(["row": .string(row.id), "situation": .string(row.situation), "reason": .string(reason)])
        }
        return .object(["apps": .array(apps), "notInJournal": .array(hidden)])
    }
}

extension String {
    fileprivate func padding(toWidth width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
