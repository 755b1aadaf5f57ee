/// One scenario file's runs: the file as given on the command line, its scenario, and a result per profile it ran
/// under (in profile order). A plain value; the reports are made from a list of these.
public struct ScenarioFileRun: Sendable, Equatable {
    public var file: String
    public var scenario: Scenario
    public var results: [ScenarioResult]

    public init(file: String, scenario: Scenario, results: [ScenarioResult]) {
        self.file = file
        self.scenario = scenario
        self.results = results
    }

    public var passed: Bool {
        results.allSatisfy(\.passed)
    }
}
