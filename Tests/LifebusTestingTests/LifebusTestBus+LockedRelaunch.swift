import Lifebus
import LifebusTesting
import Testing

extension LifebusTestBus {
    /// The setup of a scene app relaunched behind the lock (`Protocol/lifecycle.md` S45, S48–S51): `id` launched
    /// in the test's process with `delegate` as its scene delegate too, sent home, its scene reclaimed (its session's
    /// payload saved), the app killed by the system, then the device locked for 10 s, protected data gone. Returns
    /// the app, not running; the test relaunches it (a push).
    func sceneAppKilledBehindTheLock(
        _ id: AppID, delegate: some ApplicationDelegate & SceneDelegate
    ) async throws -> LifebusTestApp {
        let app = try await launch(id, delegate: delegate, sceneDelegate: delegate)
        try await fire(.home)
        try await reclaim(app, scene: SceneID(1))
        #expect(try await savedSessions(of: app) == [SceneSessionID(1)])
        try await fire(.terminate(app.id, byUser: false))
        try await expect(app, outcome: .killed(.system))
        try await lock()
        try await advance(by: .seconds(10))
        #expect(try await !isProtectedDataAvailable())
        return app
    }
}
