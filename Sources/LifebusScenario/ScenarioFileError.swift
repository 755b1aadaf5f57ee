public import LifebusProtocol

/// A scenario file that cannot be read or is not a scenario: where (`FILE:LINE:COLUMN`, 1-based; 0 when the place
/// is the whole file) and why, said for people.
public struct ScenarioFileError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let line: Int
    public let column: Int
    public let message: String

    public init(path: String, line: Int, column: Int, message: String) {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    /// `FILE:LINE:COLUMN: message`, as compilers say it (so editors jump to the place).
    public var description: String {
        line == 0 ? "\(path): \(message)" : "\(path):\(line):\(column): \(message)"
    }
}

/// Reads `lifebus fire`'s words (`call --answer`, `terminate com.example.X --by-user`) into the params the CLI would
/// send, with the CLI's own parser; throws a message for people when the words are not a `fire` command. The
/// scenario module takes it from the CLI, so there is one parser of `fire` words.
public typealias FireWordsParser = @Sendable ([String]) throws(FireWordsError) -> FireParams

/// Why `fire` words were refused, in the CLI parser's words.
public struct FireWordsError: Error, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }
}
