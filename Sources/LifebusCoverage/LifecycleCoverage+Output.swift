public import LifebusJSON
import LifebusProtocol

/// The two ways `lifebus coverage` prints coverage: text for people, JSON for tools.
extension LifecycleCoverage {
    /// Per app and profile: `N of M rows reached`, the rows reached (with how many records showed each), the rows
    /// never reached with their situations; then the rows no journal can show.
    public var text: String {
        var lines: [String] = []
        if apps.isEmpty { lines.append("no transitions recorded") }
        for app in apps {
            for run in app.profiles {
                let observable = run.reached.count + run.neverReached.count
                lines.append("\(app.app) under \(run.profile?.rawValue ?? "an unknown profile"): "
                    + "\(run.reached.count) of \(observable) rows reached")
                if !run.reached.isEmpty {
                    let reached = run.reached.map { "\($0.row) ×\($0.records)" }
                    lines.append("  reached: " + reached.joined(separator: ", "))
                }
                if !run.neverReached.isEmpty {
                    lines.append("  never reached:")
                    lines += run.neverReached.map { "    \($0.id.padding(toWidth: 5)) \($0.situation)" }
                }
            }
        }
        let hidden = Self.notInJournal
        lines.append("not shown by a journal (\(hidden.count) rows: rejections, events that move no app, rows a "
            + "journal does not tell apart): " + hidden.map(\.id).joined(separator: " "))
        return lines.joined(separator: "\n")
    }

    /// `{"apps":[{"app","profiles":[{"profile","reached":[{"row","records"}],"neverReached":[{"row",
    /// "situation"}]}]}],"notInJournal":[{"row","situation","reason"}]}`; `profile` is `null` when unknown.
    public var json: JSONValue {
        let apps: [JSONValue] = apps.map { app in
            .object([
                "app": .string(app.app),
                "profiles": .array(app.profiles.map { run in
                    .object([
                        "profile": run.profile.map { .string($0.rawValue) } ?? .null,
                        "reached": .array(run.reached.map {
                            .object(["row": .string($0.row), "records": .integer(Int64($0.records))])
                        }),
                        "neverReached": .array(run.neverReached.map {
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
