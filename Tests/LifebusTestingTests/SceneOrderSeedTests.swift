import Lifebus
import LifebusLifecycle
import LifebusTesting
import Testing

/// The kit passes `sceneOrderSeed` to the device on both transports (`lifebusd --scene-order-seed` on a live one):
/// where Apple documents no order across scenes moving alike (the two background windows of an audio app that a
/// critical memory warning reclaims), the seed chooses it — the same seed the same order, in memory and live, and
/// some seeds the other one.
@Suite(.hangGuard)
@MainActor
struct SceneOrderSeedTests {
    final class Windows: ApplicationDelegate, SceneDelegate {}

    /// The scenes whose `sceneDidDisconnect` a critical warning sent, in order, with two windows in the background.
    private func disconnectOrder(seed: UInt64, on transport: LifebusTestBus.Transport) async throws -> [UInt32] {
        let bus = try await LifebusTestBus(transport, profile: .ios17, sceneOrderSeed: seed)
        let windows = Windows()
        let app = try await bus.launch(
            "com.example.Windows", delegate: windows, sceneDelegate: windows,
            options: ApplicationOptions(backgroundModes: ["audio"], supportsMultipleScenes: true))
        _ = try await bus.openScene(app)
        try await bus.fire(.home)
        try await bus.expect(app, state: .background)
        try await bus.fire(.memoryWarning(.critical))
        let order = bus.timeline.entries(of: app.id).compactMap { entry in
            entry.callback == .sceneDidDisconnect ? entry.scene?.number : nil
        }
        await bus.shutdown()
        return order
    }

    @Test func theSeedChoosesTheOrderAndTheSameSeedGivesTheSameOnBothTransports() async throws {
        var orders: [UInt64: [UInt32]] = [:]
        for seed in UInt64(0)..<8 {
            orders[seed] = try await disconnectOrder(seed: seed, on: .inMemory)
        }
        #expect(Set(orders.values) == [[1, 2], [2, 1]], "\(orders)")
        let other = try #require(orders.first { $0.value != orders[0] }?.key)
        #expect(try await disconnectOrder(seed: other, on: .inMemory) == orders[other])
        #expect(try await disconnectOrder(seed: other, on: .live) == orders[other], "lifebusd got the seed")
    }
}
