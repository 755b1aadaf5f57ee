public import LifebusProtocol

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
