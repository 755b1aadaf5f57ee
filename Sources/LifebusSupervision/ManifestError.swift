public import LifebusProtocol

/// Why a manifest was refused: the file, the member concerned (if one is) and the problem.
///
/// A plain value. Its description reads `apps/x.json: member "memoryLimit": "12 parsecs" is not a size (…)`.
public struct ManifestError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        case unreadable(SystemError)
        case notJSON(JSONParseError)
        case notAnObject
        case unknownMember
        case missingMember
        /// The member has the wrong JSON type; the associated text says the expected one.
        case wrongType(expected: String)
        case badID(String)
        case badSize(String)
        case badEnvironmentName(String)
        /// The executable (or working directory) cannot be used: the check that failed, with its errno.
        case unusablePath(SystemError)
        /// Another manifest, named here, already installed this id.
        case duplicateID(String, firstIn: String)
    }

    public let file: String
    public let member: String?
    public let problem: Problem

    public init(file: String, member: String? = nil, _ problem: Problem) {
        self.file = file
        self.member = member
        self.problem = problem
    }

    public var description: String {
        let place = member.map { "\(file): member \"\($0)\"" } ?? file
        return "\(place): \(problemText)"
    }

    private var problemText: String {
        switch problem {
        case .unreadable(let error): "cannot read it: \(error)"
        case .notJSON(let error): "not JSON: \(error)"
        case .notAnObject: "a manifest is a JSON object"
        case .unknownMember: "unknown member (known: \(AppManifest.members.joined(separator: ", ")))"
        case .missingMember: "missing (required)"
        case .wrongType(let expected): "must be \(expected)"
        case .badID(let id):
            "\"\(id)\" is not an app id (1 to \(AppManifest.maxIDLength) of A-Z a-z 0-9 . - _, not only dots)"
        case .badSize(let text): "\"\(text)\" is not a size (a whole number with B, KiB, MiB, GiB or TiB)"
        case .badEnvironmentName(let name): "\"\(name)\" is not a variable name (non-empty, no \"=\")"
        case .unusablePath(let error): "\(error)"
        case .duplicateID(let id, let first): "app id \"\(id)\" is already installed by \(first)"
        }
    }
}
