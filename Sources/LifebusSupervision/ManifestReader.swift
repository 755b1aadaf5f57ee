import LifebusJSON

/// Typed reads of one manifest's members, each failure a `ManifestError` naming the file and the member. No string
/// read holds a NUL character (it would be cut short where a process is given it).
///
/// A plain value over the parsed object; reading does not change it.
struct ManifestReader {
    let object: JSONObject
    let file: String

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
            result[name] = text
        }
        return result
    }
}
