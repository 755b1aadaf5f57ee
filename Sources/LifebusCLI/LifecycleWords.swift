public import ArgumentParser
public import LifebusExpectation
public import LifebusLifecycle
public import LifebusProtocol

// The lifecycle's closed vocabularies as command-line values: each parsed and listed (in `--help` and in the
// parser's usage errors) from its own `allCases`, spelt as on the wire.

/// `lifebus mcp --start-broker --profile`, `--power`, `--network` and `--clock`: the broker's start, as `lifebusd`
/// spells it.
extension Profile: ExpressibleByArgument {}
extension PowerSource: ExpressibleByArgument {}
extension NetworkState: ExpressibleByArgument {}
extension ClockKind: ExpressibleByArgument {}

/// `lifebus wait`'s and `lifebus expect --state`'s words (in a `ChoiceList`).
extension LifecycleState: ExpressibleByArgument {}

/// `lifebus expect --callbacks`' words (in a `CallbackSequence`).
extension LifecycleCallback: ExpressibleByArgument {}

/// `--outcome`, `--no-outcome`, `fire --expect` and `--fail-on`: an outcome's wire spelling, or `failed`.
extension Verdict: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(name: argument)
    }

    public static var allValueStrings: [String] { names }

    public var defaultValueDescription: String { name }
}
