import ArgumentParser
public import LifebusProtocol

/// `lifebus fire`'s words parsed by `lifebus fire`'s own subcommands, for scenario files' `fire` steps (`lifebus-run`
/// hands it to the scenario parser): one vocabulary and one parser for the shell and the files. Stateless.
public enum FireWords {
    /// Why the words are not a `fire` command, in the parser's words.
    public struct Refusal: Error, Equatable {
        public let message: String
    }

    /// The params `lifebus fire WORDS…` would send (with `wait`), or why the words are refused.
    public static func parse(_ words: [String]) -> Result<FireParams, Refusal> {
        let command: any ParsableCommand
        do {
            command = try LifebusCommand.Fire.parseAsRoot(words)
        } catch {
            let message = LifebusCommand.Fire.message(for: error)
            return .failure(Refusal(
                message: message.isEmpty ? "'\(words.joined(separator: " "))' is not an event" : message))
        }
        guard let fire = command as? any FireSubcommand else {
            return .failure(Refusal(message: LifebusCommand.Fire.eventMissing))
        }
        return .success(fire.params)
    }
}
