public import LifebusExpectation
import LifebusLifecycle
public import LifebusProtocol

extension ScenarioExpectation {
    /// The checks of the members `lifebus expect` does not have — `task`, `push`, `presented`, `noMark`, `noTask` —
    /// against one app's journal entries in scope (oldest first), each as `Expectation.Result`, so a report shows
    /// them as the others.
    public func backgroundChecks(_ entries: [JournalEntry]) -> [Expectation.Result] {
        var results: [Expectation.Result] = []
        if let task {
            let records = entries.compactMap { entry -> BackgroundTaskRecord? in
                if case .task(let record) = entry { record } else { nil }
            }
            let recorded = BackgroundTaskOutcome(identifier: task.identifier, in: records)
            results.append(Expectation.Result(
                check: "task \(task.identifier)", expected: task.outcome.rawValue,
                recorded: recorded?.rawValue ?? "not run", passed: recorded == task.outcome))
        }
        if let push {
            let recorded = ScenarioPushOutcome(entries.compactMap { entry -> PushDeliveryRecord? in
                if case .push(let record) = entry { record } else { nil }
            })
            results.append(Expectation.Result(
                check: "push", expected: push.rawValue, recorded: recorded?.rawValue ?? "no push answered",
                passed: recorded == push))
        }
        if let presented {
            let recorded = entries.last { entry in
                if case .push(let record) = entry { record.event == .presented } else { false }
            }.flatMap { entry -> NotificationPresentationOptions? in
                if case .push(let record) = entry { record.presentation ?? [] } else { nil }
            }
            results.append(Expectation.Result(
                check: "presented", expected: presented.summary, recorded: recorded?.summary ?? "none offered",
                passed: recorded == presented))
        }
        if let noMark {
            let count = entries.count(where: { entry in
                if case .mark(let record) = entry { record.name == noMark } else { false }
            })
            results.append(Expectation.Result(
                check: "noMark \(noMark)", expected: "absent", recorded: count == 0 ? "absent" : "made \(count)×",
                passed: count == 0))
        }
        if let noTask {
            let launches = entries.count(where: { entry in
                guard case .task(let record) = entry else { return false }
                return record.identifier == noTask && record.event == .launched
            })
            results.append(Expectation.Result(
                check: "noTask \(noTask)", expected: "not launched",
                recorded: launches == 0 ? "not launched" : "launched \(launches)×", passed: launches == 0))
        }
        return results
    }
}
