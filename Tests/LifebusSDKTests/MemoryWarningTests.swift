import Lifebus
import LifebusProtocol
import Testing

/// Memory warnings: the delegate first, then the observers in the order added; `Purgeable` drops and rebuilds.
@MainActor
@Suite(.hangGuard)
struct MemoryWarningTests {
    @Test func observersRunAfterTheDelegateInOrderAndRemovedOnesDoNot() async throws {
        let harness = try await AppHarness.launch()
        var order: [String] = []
        harness.delegate.hook = { callback, _ in order.append("delegate") }
        harness.application.addMemoryWarningObserver { order.append("first") }
        let removed = harness.application.addMemoryWarningObserver { order.append("removed") }
        harness.application.addMemoryWarningObserver { order.append("second") }
        harness.application.removeObserver(removed)
        harness.application.removeObserver(removed)
        _ = try await harness.send(.didReceiveMemoryWarning, state: .active).get()
        #expect(order == ["delegate", "first", "second"])
        try await harness.terminate()
    }

    @Test func purgeableDropsItsValueOnAMemoryWarningAndRebuildsOnNextUse() async throws {
        let harness = try await AppHarness.launch()
        var builds = 0
        let cache = Purgeable(in: harness.application) { () -> [Int] in
            builds += 1
            return [1, 2, 3]
        }
        #expect(!cache.isLoaded)
        #expect(cache.value == [1, 2, 3])
        #expect(cache.value == [1, 2, 3])
        #expect(builds == 1)
        _ = try await harness.send(.didReceiveMemoryWarning, state: .background).get()
        #expect(!cache.isLoaded)
        #expect(cache.value == [1, 2, 3])
        #expect(builds == 2)
        try await harness.terminate()
    }

    @Test func aReleasedPurgeableStopsObserving() {
        let application = Application(id: "com.example.Purge")
        var cache: Purgeable<String>? = Purgeable(in: application) { "value" }
        #expect(application.memoryWarningObserverCount == 1)
        _ = cache?.value
        cache = nil
        #expect(application.memoryWarningObserverCount == 0)
    }

    @Test func purgeEmptiesUntilTheNextAccess() {
        let application = Application(id: "com.example.Purge")
        let cache = Purgeable(in: application) { 42 }
        #expect(cache.value == 42)
        cache.purge()
        #expect(!cache.isLoaded)
        #expect(cache.value == 42)
        #expect(cache.isLoaded)
    }
}
