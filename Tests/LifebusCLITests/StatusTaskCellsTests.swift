import LifebusLifecycle
import LifebusProtocol
import Testing

@testable import LifebusCLI

/// `lifebus status`' task rows: a pending task with its earliest begin, a waiting one with what it waits for (the
/// device's conditions), a running one with its end of budget.
@Suite struct StatusTaskCellsTests {
    private func stateText(_ entry: TaskStatusEntry) -> String {
        StatusFormatting.taskCells(entry, sampled: false)[2].text
    }

    @Test func eachStateSaysWhatItWaitsForOrUntilWhen() {
        #expect(stateText(TaskStatusEntry(identifier: "c", kind: .processing, state: .pending, earliestBeginMs: 60_000))
            == "pending from 60000.000 ms")
        #expect(stateText(TaskStatusEntry(identifier: "c", kind: .processing, state: .waiting,
                                          waitingFor: [.externalPower, .networkConnectivity]))
            == "waiting for externalPower, networkConnectivity")
        #expect(stateText(TaskStatusEntry(identifier: "r", kind: .appRefresh, state: .running, deadlineMs: 930_000))
            == "running until 930000.000 ms")
    }
}
