public import LifebusJSON

/// The reproducible view of a journal (`lifebus history --json --reproducible`): what two runs of one scenario
/// under `lifebusd --clock manual` record identically, in an order that does not depend on which answer arrived
/// first.
///
/// Stateless. The members in `nondeterministicMembers` are inherently different from run to run — the app's own
/// measured handler time, wall-clock stamps, pids, and `seq` (the order answers arrived in) — and are left out (the
/// schemas mark them `"x-lifebus-nondeterministic": true`). Each broker run keeps its `start` run record first;
/// `rotated` / `reopened` run records (where a file happened to end) are left out; the other entries of a run are
/// ordered canonically: by the virtual instant the record tells of (a transition's `answeredMs`, else `sentMs`; a
/// mark's, process, task, push or protected-data record's `atMs`), then app id, then kind, then callback or mark
/// name (a task's identifier, a push's event), then the rest of the record. The output is therefore a function of
/// the set of records, whatever order they were made in.
public enum ReproducibleJournal {
    /// The members of each kind of entry (by `type`) that differ between runs of one scenario.
    public static let nondeterministicMembers: [String: Set<String>] = [
        TransitionRecord.type: ["seq", "pid", "handlerMs", "wallMs"],
        MarkRecord.type: ["seq", "pid", "wallMs"],
        RunRecord.type: ["seq", "pid", "startedWallMs", "atMs", "wallMs"],
        ProcessRecord.type: ["seq", "pid", "wallMs"],
        BackgroundTaskRecord.type: ["seq", "pid", "wallMs"],
        PushDeliveryRecord.type: ["seq", "pid", "wallMs"],
        ProtectedDataRecord.type: ["seq", "wallMs"],
    ]
    /// The members of a process record's `launch` options that differ between runs (the previous run's pid).
    public static let nondeterministicLaunchMembers: Set<String> = ["previousPid"]

    /// The entries as reproducible JSON objects, in canonical order.
    public static func canonical(_ entries: [JournalEntry]) -> [JSONValue] {
        var output: [JSONValue] = []
        var run: [(key: SortKey, json: JSONValue)] = []
        func endRun() {
            output += run.sorted { $0.key < $1.key }.map(\.json)
            run.removeAll()
        }
        for entry in entries {
            switch entry {
            case .run(let record):
                guard record.reason == .start else { continue }
                endRun()
                output.append(stripped(entry))
            case .transition(let record):
                let json = stripped(entry)
                let key = SortKey(instant: record.answeredMs ?? record.sentMs, app: record.app, kind: 0,
                                  name: record.callback?.rawValue ?? "", text: json.jsonText)
                run.append((key, json))
            case .mark(let record):
                let json = stripped(entry)
                run.append((SortKey(instant: record.atMs, app: record.app, kind: 1, name: record.name,
                                    text: json.jsonText), json))
            case .process(let record):
                let json = stripped(entry)
                run.append((SortKey(instant: record.atMs, app: record.app, kind: 2, name: record.event.rawValue,
                                    text: json.jsonText), json))
            case .task(let record):
                let json = stripped(entry)
                run.append((SortKey(instant: record.atMs, app: record.app, kind: 3, name: record.identifier,
                                    text: json.jsonText), json))
            case .push(let record):
                let json = stripped(entry)
                run.append((SortKey(instant: record.atMs, app: record.app, kind: 4, name: record.event.rawValue,
                                    text: json.jsonText), json))
            case .protectedData(let record):
                let json = stripped(entry)
                run.append((SortKey(instant: record.atMs, app: "", kind: 5, name: "", text: json.jsonText), json))
            }
        }
        endRun()
        return output
    }

    /// The entry's JSON without its non-deterministic members.
    public static func stripped(_ entry: JournalEntry) -> JSONValue {
        guard case .object(let object) = entry.json else { return entry.json }
        let type = object["type"]?.stringValue ?? ""
        let left = nondeterministicMembers[type] ?? []
        return .object(JSONObject(object.filter { !left.contains($0.key) }.map { member in
            guard type == ProcessRecord.type, member.key == "launch", case .object(let launch) = member.value else {
                return (member.key, member.value)
            }
            let kept = launch.filter { !nondeterministicLaunchMembers.contains($0.key) }
            return (member.key, .object(JSONObject(kept.map { ($0.key, $0.value) })))
        }))
    }

    private struct SortKey: Comparable {
        let instant: Double
        let app: String
        let kind: Int
        let name: String
        let text: String

        static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            (lhs.instant, lhs.app, lhs.kind, lhs.name, lhs.text) < (rhs.instant, rhs.app, rhs.kind, rhs.name, rhs.text)
        }
    }
}
