public import LifebusContainment
public import LifebusJSON
public import LifebusProtocol
import LifebusLifecycle

/// Why a manifest was refused: the file, the member concerned (if one is) and the problem.
///
/// A plain value. Its description reads `apps/x.json: member "memoryLimit": "12 parsecs" is not a size (…)`, or
/// for text that is not JSON `apps/x.json: not JSON at 3:14: unexpected character` (line:column).
public struct ManifestError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        case unreadable(SystemError)
        /// The text is not JSON: the parser's error and where it is, line and column from 1.
        case notJSON(JSONParseError, line: Int, column: Int)
        case notAnObject
        case unknownMember
        case missingMember
        /// The member has the wrong JSON type; the associated text says the expected one.
        case wrongType(expected: String)
        case badID(String)
        /// A `backgroundTaskIdentifiers` entry that is not a task identifier.
        case badTaskIdentifier(String)
        case badSize(String)
        case badEnvironmentName(String)
        /// A string holds a NUL character, which no argument, variable or path handed to a process can (it would be
        /// cut there); the variable's name when it is in `environment`.
        case nulCharacter(variable: String?)
        /// Another user could change the file or folder (`TrustedPath`): the path and why.
        case untrusted(path: String, reason: String)
        /// The executable (or working directory) cannot be used: the check that failed, with its errno.
        case unusablePath(SystemError)
        /// A `${VAR}` that cannot be expanded (unset without a default, not closed, not a name).
        case variable(ManifestVariables.Problem)
        /// An executable without a slash is on no folder of `PATH` (the value searched; `nil`: none was given).
        case notOnPath(String, String?)
        /// A `hooks` key that names no callback.
        case unknownCallback(String)
        /// A hook whose command is empty.
        case emptyHook(String)
        /// Hooks need the broker's adapter, `lifebus` beside `lifebusd`, and it has none.
        case noHookAdapter
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
        case .notJSON(let error, let line, let column): "not JSON at \(line):\(column): \(error.kind)"
        case .notAnObject: "a manifest is a JSON object"
        case .unknownMember: "unknown member (known: \(AppManifest.members.joined(separator: ", ")))"
        case .missingMember: "missing (required)"
        case .wrongType(let expected): "must be \(expected)"
        case .badID(let id):
            "\"\(id)\" is not an app id (1 to \(AppManifest.maxIDLength) of A-Z a-z 0-9 . - _, not only dots)"
        case .badTaskIdentifier(let identifier):
            "\"\(identifier)\" is not a task identifier (1 to 255 of A-Z a-z 0-9 . - _)"
        case .badSize(let text): "\"\(text)\" is not a size (a whole number with B, KiB, MiB, GiB or TiB)"
        case .badEnvironmentName(let name): "\"\(name)\" is not a variable name (non-empty, no \"=\")"
        case .nulCharacter(let variable?): "variable \"\(variable.replacing("\0", with: "\\u0000"))\" holds a NUL "
            + "character (\\u0000), which a process cannot be given"
        case .nulCharacter(nil): "holds a NUL character (\\u0000), which a process cannot be given"
        case .untrusted(let path, let reason):
            "refusing \(path == file ? "it" : path): \(reason) (another user could change what runs)"
        case .unusablePath(let error): "\(error)"
        case .variable(let problem): "\(problem)"
        case .notOnPath(let name, let path?): "\"\(name)\" is not an executable on PATH (\(path))"
        case .notOnPath(let name, nil):
            "\"\(name)\" has no slash and no PATH was given to look it up on (give a path, or install with PATH set)"
        case .unknownCallback(let name):
            "\"\(name)\" is not a callback (known: "
                + "\(LifecycleCallback.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .emptyHook(let name): "the hook of \(name) has no command"
        case .noHookAdapter:
            "hooks run under `lifebus subscribe`, and the broker finds no `lifebus` beside lifebusd or on its PATH"
        case .duplicateID(let id, let first): "app id \"\(id)\" is already installed by \(first)"
        }
    }
}
