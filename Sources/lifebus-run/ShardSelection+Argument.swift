public import ArgumentParser
public import LifebusScenario

// `--shard K/N` is read by the parser, which refuses anything else naming the option and the form. The conformance
// lives here: the scenario module stays free of ArgumentParser.
extension ShardSelection: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }

    public var defaultValueDescription: String { text }
}
