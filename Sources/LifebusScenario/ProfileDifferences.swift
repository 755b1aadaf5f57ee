import LifebusCore
import LifebusProtocol

/// Where one scenario's profiles went different ways: for each step, what it made each app do under each profile
/// (its callbacks in order, and the state it ended in), shown as a table of the steps where the profiles differ —
/// the OS-generation diff. Stateless and pure.
enum ProfileDifferences {
    static func lines(_ run: ScenarioFileRun) -> [String] {
        let results = run.results.filter { $0.failure == nil }  // a run that never started says nothing here
        guard results.count > 1 else { return [] }
        let profiles = results.map(\.profile)
        var rows: [[String]] = []
        for (index, step) in run.scenario.steps.enumerated() {
            let cells = results.map { result in
                index < result.steps.count ? recorded(result.steps[index]) : "-"
            }
            if Set(cells).count > 1 { rows.append(["\(index + 1) \(step.summary)"] + cells) }
        }
        guard !rows.isEmpty else {
            return ["profiles agree in \(run.scenario.name) (\(run.file)): every step did the same under "
                + profiles.map(\.rawValue).joined(separator: ", ")]
        }
        let table = [["step"] + profiles.map(\.rawValue)] + rows
        let widths = (0..<table[0].count).map { column in table.map { $0[column].count }.max() ?? 0 }
        return ["profiles differ in \(run.scenario.name) (\(run.file)):"] + table.map { row in
            "  " + row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }
    }

    /// What a step made the apps do: per app, its callbacks and the state it ended in (for an `expect`, the callbacks
    /// and state its checks recorded); `skipped`, or `(nothing)`.
    static func recorded(_ step: ScenarioStepResult) -> String {
        guard step.status != .skipped else { return "skipped" }
        if case .expect = step.step {
            let shown = step.checks.filter { $0.check == "callbacks" || $0.check == "state" }
            return shown.isEmpty ? "(checked)" : shown.map { "\($0.check) \($0.recorded)" }.joined(separator: "; ")
        }
        var order: [String] = []
        var callbacks: [String: [String]] = [:]
        var states: [String: String] = [:]
        for entry in step.entries {
            guard case .transition(let record) = entry else { continue }
            if callbacks[record.app] == nil { order.append(record.app) }
            callbacks[record.app, default: []] += record.callback.map { [$0.rawValue] } ?? []
            states[record.app] = record.to.rawValue
        }
        guard !order.isEmpty else { return "(nothing)" }
        let prefix = order.count > 1
        return order.map { app in
            let name = prefix ? (app.split(separator: ".").last.map(String.init) ?? app) + ": " : ""
            let list = callbacks[app]?.joined(separator: ", ") ?? ""
            return name + (list.isEmpty ? "" : list + " ") + "→ " + (states[app] ?? "?")
        }.joined(separator: "; ")
    }
}
