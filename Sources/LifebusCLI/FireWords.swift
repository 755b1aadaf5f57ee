import ArgumentParser
import LifebusProtocol
import LifebusScenario

/// `lifebus fire`'s words parsed by `lifebus fire`'s own subcommands, for scenario files' `fire` steps: one
/// vocabulary and one parser for the shell and the files. Stateless.
enum FireWords {
    static func parse(_ words: [String]) throws(FireWordsError) -> FireParams {
        let command: any ParsableCommand
        do {
            command = try LifebusCommand.Fire.parseAsRoot(words)
        } catch {
            let message = LifebusCommand.Fire.message(for: error)
            throw FireWordsError(message.isEmpty ? "'\(words.joined(separator: " "))' is not an event" : message)
        }
        guard let fire = command as? any FireSubcommand else {
            throw FireWordsError("name the event: call, sms, calendar, sleep, wake, home, memory-warning, terminate, "
                + "launch or activate")
        }
        return fire.params
    }
}
