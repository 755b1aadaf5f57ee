import LifebusJSON
import LifebusProtocol

/// Holds a `tools/call`'s arguments to the `inputSchema` its tool declares in `tools/list`, before the tool runs.
/// Refused, as `jsonrpc.InvalidParams` naming the member: a member the schema does not declare (in the arguments, or
/// in a nested object whose schema says `additionalProperties: false`), with the members it takes and the closest
/// one; a declared member whose JSON type is not its `type` (or none of its `anyOf` forms'; an array's items too).
/// Stateless and pure; the catalog is its only source, so a member a tool declares is a member it accepts. Values
/// within a type (enumerations, patterns, ranges, what needs what) are the tools' and the broker's to check.
enum ToolArguments {
    static func check(_ arguments: JSONObject, of tool: MCPToolCatalog.Name) throws(RPCError) {
        guard let schema = MCPToolCatalog.definition(tool)["inputSchema"] else { return }
        try checkMembers(arguments, schema, owner: tool.rawValue, path: "")
    }

    /// `object`'s members against an object `schema`: unknown ones when it is closed, then each declared one's type.
    private static func checkMembers(_ object: JSONObject, _ schema: JSONValue, owner: String, path: String)
        throws(RPCError) {
        let properties = schema["properties"]?.objectValue ?? [:]
        if schema["additionalProperties"] == false {
            let unknown = object.keys.filter { properties[$0] == nil }
            if !unknown.isEmpty { throw unknownMembers(unknown, declared: properties.keys, owner: owner, path: path) }
        }
        for (name, value) in object {
            guard let member = properties[name] else { continue }
            try checkValue(value, member, path: path + name)
        }
    }

    /// `value` against a member's `schema`: its `type` (and, for an object or an array, what is inside), or one of
    /// its `anyOf` forms.
    private static func checkValue(_ value: JSONValue, _ schema: JSONValue, path: String) throws(RPCError) {
        if let forms = schema["anyOf"]?.arrayValue {
            return try checkForms(value, forms, path: path)
        }
        guard let type = schema["type"]?.stringValue else { return }
        guard has(value, type: type) else {
            throw RPCError.invalidParams(field: path, "must be \(article(type)), not \(article(value.typeName))")
        }
        switch value {
        case .object(let object):
            try checkMembers(object, schema, owner: "'\(path)'", path: path + ".")
        case .array(let items):
            guard let itemSchema = schema["items"] else { return }
            for (index, item) in items.enumerated() { try checkValue(item, itemSchema, path: "\(path)[\(index)]") }
        default:
            break
        }
    }

    /// `value` against `anyOf`'s forms: accepted by one of them, or refused by the form of its type whose members it
    /// shares most (`since: {"seq": 3, "x": 1}` is told what `{seq}` takes), or as of none of their types.
    private static func checkForms(_ value: JSONValue, _ forms: [JSONValue], path: String) throws(RPCError) {
        let typed = forms.filter { form in form["type"]?.stringValue.map { has(value, type: $0) } ?? true }
        var refusals: [(shared: Int, error: RPCError)] = []
        for form in typed {
            do throws(RPCError) {
                try checkValue(value, form, path: path)
                return
            } catch {
                let declared = form["properties"]?.objectValue ?? [:]
                refusals.append((value.objectValue?.keys.filter { declared[$0] != nil }.count ?? 0, error))
            }
        }
        if let best = refusals.max(by: { $0.shared < $1.shared }) { throw best.error }
        var types: [String] = []
        for form in forms {
            if let type = form["type"]?.stringValue, !types.contains(type) { types.append(type) }
        }
        throw RPCError.invalidParams(
            field: path, "must be \(types.map(article).joined(separator: " or ")), not \(article(value.typeName))")
    }

    /// Whether `value` is of the JSON Schema `type` (an integer is a number without a fraction, whichever way it
    /// was written).
    private static func has(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("string", .string), ("boolean", .bool), ("object", .object), ("array", .array), ("null", .null),
             ("number", .integer), ("number", .double), ("integer", .integer):
            true
        case ("integer", .double(let number)):
            number.isFinite && number == number.rounded()
        default:
            false
        }
    }

    private static func article(_ type: String) -> String {
        switch type {
        case "null": "null"
        case "integer", "object", "array": "an \(type)"
        default: "a \(type)"
        }
    }

    /// At most how many unknown members a refusal names (echoed, as the broker echoes what it is sent).
    static let maxNamed = 10

    /// `expect does not take 'data' (did you mean 'markData'?); it takes app, scene, …`, with the unknown members'
    /// paths (the first `maxNamed`), what the owner takes and the suggestions in `data`.
    private static func unknownMembers(_ all: [String], declared: [String], owner: String, path: String)
        -> RPCError {
        let unknown = Array(all.prefix(maxNamed))
        var suggestions = JSONObject()
        var named = unknown.map { name in
            guard let closest = suggestion(for: name, among: declared) else { return "'\(RPCError.echo(name))'" }
            suggestions.append(path + RPCError.echo(name), .string(closest))
            return "'\(RPCError.echo(name))' (did you mean '\(closest)'?)"
        }
        if all.count > unknown.count { named.append("and \(all.count - unknown.count) more") }
        let takes = declared.isEmpty ? "it takes none" : "it takes " + declared.joined(separator: ", ")
        let message = "Invalid params: \(owner) does not take \(named.joined(separator: ", ")); \(takes)"
        var data: JSONObject = [
            "name": "jsonrpc.InvalidParams", "field": .string(path + RPCError.echo(unknown[0])),
            "unknown": .array(unknown.map { .string(path + RPCError.echo($0)) }),
            "takes": .array(declared.map(JSONValue.string)),
        ]
        if !suggestions.isEmpty { data.append("didYouMean", .object(suggestions)) }
        return RPCError(code: RPCError.invalidParamsCode, message: message, data: .object(data))
    }

    /// The declared member `name` was probably meant as: the closest spelling, else the one member whose name holds
    /// it or is held in it (`data` → `markData`, `appId` → `app`), ignoring case.
    static func suggestion(for name: String, among declared: [String]) -> String? {
        if let closest = SpellingSuggestion.closest(to: name, among: declared) { return closest }
        let word = name.lowercased()
        guard word.count >= 3 else { return nil }
        let holding = declared.filter { member in
            let lowered = member.lowercased()
            return lowered.count >= 3 && (lowered.contains(word) || word.contains(lowered))
        }
        return holding.count == 1 ? holding[0] : nil
    }
}
