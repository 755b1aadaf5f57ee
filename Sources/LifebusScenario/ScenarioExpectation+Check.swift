public import LifebusExpectation
import LifebusCore
import LifebusProtocol

extension ScenarioExpectation {
    /// The assertions of this expectation (already resolved for a profile) in `lifebus expect`'s terms, so a
    /// scenario checks exactly as the command does.
    public var expectation: Expectation {
        var expectation = Expectation()
        expectation.callbacks = callbacks
        expectation.states = states
        expectation.outcome = outcome
        expectation.mark = mark?.name
        expectation.markData = mark.map { mark in mark.data.map { (key: $0.0, value: Expectation.text($0.1)) } } ?? []
        expectation.budget = budget.map { (callback: $0.callback, percent: $0.percent) }
        return expectation
    }
}
