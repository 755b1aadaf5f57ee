import LifebusExpectation
import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// The `expect` tool's arguments, read into the `Expectation` and `ExpectScope` `lifebus expect` checks with, and its
/// result: `passed`, the scope and each check with expected beside recorded. A plain value; a wrong argument is
/// refused with `jsonrpc.InvalidParams` naming it. With `scene`, only that scene's transitions count and `state` is
/// its scene state (`sceneStates`). `background` holds the task and push checks.
struct ExpectRequest {
    let app: String
    let expectation: Expectation
    let background: BackgroundExpectation
    let scope: ExpectScope
    let scene: SceneID?
    let sceneStates: [SceneState]?

    init(_ arguments: JSONObject) throws(RPCError) {
        guard let app = arguments["app"]?.stringValue, !app.isEmpty else {
            throw RPCError.invalidParams(field: "app", "must be an app id")
        }
        self.app = app
        var expectation = Expectation()
        if let callbacks = arguments["callbacks"] {
            expectation.callbacks = try Self.list(callbacks, field: "callbacks", as: LifecycleCallback.self)
        }
        if let number = arguments["scene"] {
            guard let value = number.int64Value, value >= 1, value <= Int64(UInt32.max) else {
                throw RPCError.invalidParams(field: "scene", "must be a scene number (1, 2, …)")
            }
            scene = SceneID(UInt32(value))
        } else {
            scene = nil
        }
        if let state = arguments["state"], scene != nil {
            sceneStates = state.stringValue != nil
                ? try Self.list(.array([state]), field: "state", as: SceneState.self)
                : try Self.list(state, field: "state", as: SceneState.self)
            if sceneStates?.isEmpty == true {
                throw RPCError.invalidParams(field: "state", "must name at least one scene state")
            }
        } else {
            sceneStates = nil
        }
        if let state = arguments["state"], scene == nil {
            expectation.states = state.stringValue != nil
                ? try Self.list(.array([state]), field: "state", as: LifecycleState.self)
                : try Self.list(state, field: "state", as: LifecycleState.self)
            if expectation.states?.isEmpty == true {
                throw RPCError.invalidParams(field: "state", "must name at least one state")
            }
        }
        if let outcome = arguments["outcome"] {
            expectation.outcome = try Self.verdict(outcome, field: "outcome")
        }
        if let forbidden = arguments["noOutcome"] {
            guard let items = forbidden.arrayValue else {
                throw RPCError.invalidParams(field: "noOutcome", "must be an array of outcomes")
            }
            var verdicts: [Verdict] = []
            for item in items { verdicts.append(try Self.verdict(item, field: "noOutcome")) }
            expectation.forbiddenOutcomes = verdicts
        }
        if let mark = arguments["mark"] {
            guard let name = mark.stringValue, !name.isEmpty else {
                throw RPCError.invalidParams(field: "mark", "must be a mark's name")
            }
            expectation.mark = name
        }
        if let data = arguments["markData"] {
            guard let object = data.objectValue else {
                throw RPCError.invalidParams(field: "markData", "must be an object of keys and values")
            }
            guard expectation.mark != nil else {
                throw RPCError.invalidParams(field: "markData", "needs mark")
            }
            expectation.markData = object.map { ($0.key, $0.value.stringValue ?? $0.value.jsonText) }
        }
        background = try BackgroundExpectation(arguments)
        guard !expectation.isEmpty || sceneStates != nil || !background.isEmpty else {
            throw RPCError.invalidParams(
                field: "app", "say what to expect: callbacks, state, outcome, noOutcome, mark, task or pushResult")
        }
        self.expectation = expectation
        scope = try Self.scope(arguments["since"])
    }

    /// The tool's result: a success whether or not the checks passed (a failed expectation is an answer, not an
    /// error), its text the checks one per line.
    func result(_ checks: [Expectation.Result], scope description: String) -> JSONValue {
        let passed = checks.allSatisfy(\.passed)
        var lines = ["\(passed ? "PASS" : "FAIL") expect \(app), \(description)"]
        lines += checks.map { check in
            "\(check.passed ? "ok  " : "FAIL") \(check.check): expected \(check.expected), recorded \(check.recorded)"
        }
        let structured: JSONValue = [
            "app": .string(app), "scope": .string(description), "passed": .bool(passed),
            "checks": .array(checks.map(\.json)),
        ]
        return ToolResult.success(lines.joined(separator: "\n"), structured: structured)
    }

    private static func list<Value: RawRepresentable<String>>(
        _ value: JSONValue, field: String, as: Value.Type
    ) throws(RPCError) -> [Value] {
        guard let items = value.arrayValue else {
            throw RPCError.invalidParams(field: field, "must be an array of names")
        }
        var values: [Value] = []
        for item in items {
            guard let name = item.stringValue, let parsed = Value(rawValue: name) else {
                throw RPCError.invalidParams(field: field, "\(RPCError.echo(item.jsonText)) is not one of its names")
            }
            values.append(parsed)
        }
        return values
    }

    private static func verdict(_ value: JSONValue, field: String) throws(RPCError) -> Verdict {
        guard let name = value.stringValue, let verdict = Verdict.allCases.first(where: { $0.name == name }) else {
            throw RPCError.invalidParams(field: field, "must be one of \(Verdict.names.joined(separator: ", "))")
        }
        return verdict
    }

    private static func scope(_ value: JSONValue?) throws(RPCError) -> ExpectScope {
        guard let value else { return .lastEvent }
        switch value.stringValue {
        case "lastEvent": return .lastEvent
        case "all": return .all
        case .some: throw RPCError.invalidParams(field: "since", "must be lastEvent, all, {mark} or {seq}")
        case nil: break
        }
        if let mark = value["mark"]?.stringValue { return .sinceMark(mark) }
        if let seq = value["seq"]?.int64Value { return .sinceSeq(seq) }
        throw RPCError.invalidParams(field: "since", "must be lastEvent, all, {mark} or {seq}")
    }
}
