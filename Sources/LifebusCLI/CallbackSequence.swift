import ArgumentParser
import LifebusLifecycle

/// `lifebus expect --callbacks`: callbacks in order, separated by `,`, or `none` for none. A plain value.
///
/// Parsed by ArgumentParser: a word that is no callback makes the parser's usage error, which lists the callbacks.
struct CallbackSequence: ExpressibleByArgument, Equatable {
    /// The word for an empty sequence.
    static let none = "none"

    let callbacks: [LifecycleCallback]

    init?(argument: String) {
        guard argument != Self.none else {
            callbacks = []
            return
        }
        guard let list = ChoiceList<LifecycleCallback>(argument: argument) else { return nil }
        callbacks = list.choices
    }

    static var allValueStrings: [String] { LifecycleCallback.allValueStrings + [none] }
}
