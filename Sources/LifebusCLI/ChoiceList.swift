import ArgumentParser

/// One choice or several, separated by `,` or `|` (`background|suspended`, `watchdog,late,failed`): the value of an
/// option that takes a list of words from a closed set. A plain value; invariant: `choices` is not empty.
///
/// Parsed by ArgumentParser: an empty list or a word outside the set makes the parser's own usage error, which lists
/// the allowed words (the choice's `allValueStrings`), as `--help` does.
struct ChoiceList<Choice: ExpressibleByArgument & Equatable>: ExpressibleByArgument, Equatable {
    let choices: [Choice]

    init?(argument: String) {
        var choices: [Choice] = []
        for word in argument.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "," || $0 == "|" }) {
            guard let choice = Choice(argument: String(word)) else { return nil }
            choices.append(choice)
        }
        self.choices = choices
    }

    static var allValueStrings: [String] { Choice.allValueStrings }
}
