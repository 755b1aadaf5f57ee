public import ArgumentParser
public import LifebusLifecycle

/// An event as a type, for the `fire` subcommands: ArgumentParser's commands and flag sets are types, so each
/// event has one naming it (`FireCommand+Events.swift`).
protocol FiredEvent: Sendable {
    static var event: FireEvent { get }
}

/// The action flags of `lifebus fire EVENT`: one per action `EVENT`'s declaration lists, spelt as the wire action
/// (`--answer`), its help the action's `summary`; at most one (ArgumentParser's exclusivity), none meaning the
/// first, the default.
struct ActionFlag<Event: FiredEvent>: EnumerableFlag, CustomStringConvertible {
    let action: FireAction

    static var allCases: [ActionFlag] { Event.event.declaration.actions.map(ActionFlag.init) }

    /// The flag's word: ArgumentParser names each flag by its value's description.
    var description: String { action.rawValue }

    static func help(for value: ActionFlag) -> ArgumentHelp? { ArgumentHelp(value.action.summary) }
}

/// `--level` of `lifebus fire memory-warning`: its values come from `MemoryWarningLevel.allCases` (the help lists
/// them; `normal` is not one).
extension MemoryWarningLevel: ExpressibleByArgument {}
