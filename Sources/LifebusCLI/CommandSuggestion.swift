import ArgumentParser
import LifebusProtocol

/// "Did you mean …?" for a mistyped subcommand (`lifebus fier`, `lifebus fire hom`). Stateless.
enum CommandSuggestion {
    /// A hint naming the closest subcommand to the first word that is not one, or `nil` when none is close.
    static func hint(for words: [String], root: any ParsableCommand.Type) -> String? {
        var command = root
        var path = [root._commandName]
        for word in words where !word.hasPrefix("-") {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return nil }
            if let next = subcommands.first(where: { $0._commandName == word }) {
                command = next
                path.append(word)
                continue
            }
            let names = subcommands.map { $0._commandName }
            guard let best = SpellingSuggestion.closest(to: word, among: names) else { return nil }
            return "Did you mean '\((path + [best]).joined(separator: " "))'?"
        }
        return nil
    }
}
