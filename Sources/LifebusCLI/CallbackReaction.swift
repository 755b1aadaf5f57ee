import ArgumentParser
import LifebusLifecycle
import LifebusProtocol

/// `lifebus subscribe --delay CALLBACK=DUR` and `--on CALLBACK=COMMAND`: what to do at one callback before answering
/// it. A plain value; the callback is everything before the first `=` and must be a callback's wire spelling.
///
/// Parsed by ArgumentParser from the option's text, so a wrong one is its usage error (the option's help names the
/// callbacks); that two options name the same callback is `Subscribe.validate()`'s to refuse.
struct CallbackReaction: Equatable {
    enum Reaction: Equatable {
        case delay(Duration)
        case command(String)
    }

    let callback: LifecycleCallback
    let reaction: Reaction

    /// `CALLBACK=VALUE` split at its first `=`, the callback known; `nil` otherwise.
    static func split(_ text: String) -> (callback: LifecycleCallback, value: Substring)? {
        guard let equals = text.firstIndex(of: "="), let callback = LifecycleCallback(rawValue: String(text[..<equals]))
        else { return nil }
        return (callback, text[text.index(after: equals)...])
    }

    /// The callbacks' spellings, for the options' help (a wrong callback's error shows the help).
    static var callbackList: String { LifecycleCallback.allCases.map(\.rawValue).joined(separator: ", ") }
}

/// `--delay CALLBACK=DUR`: answer after a duration (`250ms`, `7s`, `2m`).
struct CallbackDelay: ExpressibleByArgument, Equatable {
    let value: CallbackReaction

    init?(argument: String) {
        guard let (callback, text) = CallbackReaction.split(argument), let duration = DurationText.parse(String(text))
        else { return nil }
        value = CallbackReaction(callback: callback, reaction: .delay(duration))
    }
}

/// `--on CALLBACK=COMMAND`: answer when a non-empty shell command exits.
struct CallbackHook: ExpressibleByArgument, Equatable {
    let value: CallbackReaction

    init?(argument: String) {
        guard let (callback, command) = CallbackReaction.split(argument), !command.isEmpty else { return nil }
        value = CallbackReaction(callback: callback, reaction: .command(String(command)))
    }
}
