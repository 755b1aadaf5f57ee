import ArgumentParser
import LifebusLifecycle
import LifebusProtocol

/// `lifebus fire power external|battery` and `lifebus fire network online|offline`: the device's conditions that
/// `processing` tasks wait for (`Protocol/lifecycle.md`, B15–B19). The action is the word after the event, as
/// `scene`'s is.
extension LifebusCommand.Fire {
    enum PowerEvent: FiredEvent { static let event = FireEvent.power }
    enum NetworkEvent: FiredEvent { static let event = FireEvent.network }

    typealias Power = WithWord<PowerEvent>
    typealias Network = WithWord<NetworkEvent>

    /// One of an event's declared actions, as a word (`external`; `scene`'s `open`).
    struct ActionWord<Event: FiredEvent>: ExpressibleByArgument, CaseIterable, CustomStringConvertible {
        let action: FireAction

        static var allCases: [Self] { Event.event.declaration.actions.map(Self.init) }

        init(_ action: FireAction) {
            self.action = action
        }

        init?(argument: String) {
            guard let found = Self.allCases.first(where: { $0.action.rawValue == argument }) else { return nil }
            self = found
        }

        var description: String { action.rawValue }
        static var allValueStrings: [String] { allCases.map(\.description) }
    }

    /// An event of the device whose action is required, as a word: `lifebus fire EVENT ACTION`.
    struct WithWord<Event: FiredEvent>: FireSubcommand {
        static var configuration: CommandConfiguration {
            Event.event.configuration(usage: "lifebus fire \(Event.event.rawValue) "
                + Event.event.declaration.actions.map(\.rawValue).joined(separator: "|"))
        }

        @OptionGroup var options: FireOptions
        @Argument(help: ArgumentHelp(
            Event.event.declaration.actions.map(\.rawValue).joined(separator: " or ") + ".", valueName: "state"))
        var action: ActionWord<Event>

        var params: FireParams { options.params(Event.event, action: action.action) }
    }
}
