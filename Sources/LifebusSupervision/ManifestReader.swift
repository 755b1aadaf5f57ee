import LifebusJSON
import LifebusLifecycle
import LifebusProtocol

/// Typed reads of one manifest's members, each failure a `ManifestError` naming the file and the member. No string
/// read holds a NUL character (it would be cut short where a process is given it).
///
/// A plain value over the parsed object and the variables its `${VAR}`s take; reading does not change it.
struct ManifestReader {
    let object: JSONObject
    let file: String
    /// The installing client's variables (the broker's for `--apps DIR`).
    let variables: [String: String]

    func error(_ member: String, _ problem: ManifestError.Problem) -> ManifestError {
        ManifestError(file: file, member: member, problem)
    }

    func string(_ member: String) throws(ManifestError) -> String {
        guard let value = object[member] else { throw error(member, .missingMember) }
        guard let text = value.stringValue else { throw error(member, .wrongType(expected: "a string")) }
        guard !text.utf8.contains(0) else { throw error(member, .nulCharacter(variable: nil)) }
        return text
    }

    func optionalString(_ member: String) throws(ManifestError) -> String? {
        object[member] == nil ? nil : try string(member)
    }

    func bool(_ member: String) throws(ManifestError) -> Bool {
        guard let value = object[member] else { return false }
        guard let flag = value.boolValue else { throw error(member, .wrongType(expected: "true or false")) }
        return flag
    }

    func strings(_ member: String) throws(ManifestError) -> [String] {
        guard let value = object[member] else { return [] }
        guard let items = value.arrayValue?.compactMap(\.stringValue), items.count == value.arrayValue?.count else {
            throw error(member, .wrongType(expected: "an array of strings"))
        }
        guard !items.contains(where: { $0.utf8.contains(0) }) else { throw error(member, .nulCharacter(variable: nil)) }
        return items
    }

    func environment(_ member: String) throws(ManifestError) -> [String: String] {
        guard let value = object[member] else { return [:] }
        guard let variables = value.objectValue else {
            throw error(member, .wrongType(expected: "an object of strings"))
        }
        var result: [String: String] = [:]
        for (name, text) in variables {
            guard let text = text.stringValue else { throw error(member, .wrongType(expected: "an object of strings")) }
            guard !name.isEmpty, !name.contains("=") else { throw error(member, .badEnvironmentName(name)) }
            guard !name.utf8.contains(0), !text.utf8.contains(0) else {
                throw error(member, .nulCharacter(variable: name))
            }
            result[name] = try expanded(member, text)
        }
        return result
    }

    /// `text` of `member` with its variables expanded (`ManifestVariables`).
    func expanded(_ member: String, _ text: String) throws(ManifestError) -> String {
        do {
            return try ManifestVariables.expand(text) { variables[$0] }
        } catch {
            throw self.error(member, .variable(error))
        }
    }

    /// The `hooks` object: each key a `LifecycleCallback`, each value a non-empty command, expanded.
    func hooks(_ member: String) throws(ManifestError) -> [LifecycleCallback: String] {
        guard let value = object[member] else { return [:] }
        let mistyped = error(member, .wrongType(expected: "an object of strings"))
        guard let commands = value.objectValue else { throw mistyped }
        var result: [LifecycleCallback: String] = [:]
        for (name, command) in commands {
            guard let callback = LifecycleCallback(rawValue: name) else { throw error(member, .unknownCallback(name)) }
            guard let text = command.stringValue else { throw mistyped }
            guard !text.utf8.contains(0) else { throw error(member, .nulCharacter(variable: nil)) }
            let expanded = try expanded(member, text)
            guard !expanded.allSatisfy(\.isWhitespace) else { throw error(member, .emptyHook(name)) }
            result[callback] = expanded
        }
        return result
    }
}
