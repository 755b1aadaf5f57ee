public import ArgumentParser
public import LifebusFuzzing

// `--fact` is read by the parser, which refuses a value that is no fact naming the value and the option. The
// conformance lives here: the fuzzer's module stays free of ArgumentParser, and only this executable reads `--fact`.
extension AppFact: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }
}
