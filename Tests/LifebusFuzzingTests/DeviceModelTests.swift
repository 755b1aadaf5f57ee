import LifebusCore
import LifebusLifecycle
import LifebusProtocol
import LifebusScenario
import Testing

@testable import LifebusFuzzing

/// The fuzzer's legality oracle: the core's device, with apps that answer at once and processes that come and go.
@Suite struct DeviceModelTests {
    private static let app = "com.example.A"

    @Test func whatTheDeviceRefusesTheModelRefusesAndForgets() {
        var model = DeviceModel(profile: .ios7, apps: [Self.app])
        func take(_ step: ScenarioStep) -> Bool { model.apply(step) }
        #expect(!take(.fire(FireParams(event: .activate, app: Self.app))), "never launched")
        #expect(!take(.kill(ScenarioKill(app: Self.app))), "no process to kill")
        #expect(take(.launch(Self.app)))
        #expect(model.state(of: AppID(Self.app)) == .active)
        #expect(!take(.launch(Self.app)), "launch and relaunch are for an app that is not running")
        #expect(!take(.fire(FireParams(event: .call, action: .answer))), "nothing rings")
        #expect(take(.fire(FireParams(event: .call))))
        #expect(model.state(of: AppID(Self.app)) == .inactive)
        #expect(take(.fire(FireParams(event: .call, action: .answer))))
        #expect(model.state(of: AppID(Self.app)) == .suspended)
        #expect(take(.fire(FireParams(event: .call, action: .end))))
        #expect(model.state(of: AppID(Self.app)) == .active, "the call's return app comes back")
    }

    @Test func endsLeaveTheAppToBeRelaunched() {
        var model = DeviceModel(profile: .ios3, apps: [Self.app])
        func take(_ step: ScenarioStep) -> Bool { model.apply(step) }
        #expect(take(.launch(Self.app)))
        #expect(take(.fire(FireParams(event: .home))))
        #expect(model.state(of: AppID(Self.app)) == .notRunning, "ios3: home terminates, its process exits")
        #expect(take(.relaunch(Self.app)))
        #expect(take(.kill(ScenarioKill(app: Self.app))))
        #expect(model.state(of: AppID(Self.app)) == .notRunning)
        #expect(take(.advance(.seconds(600))), "nothing is due; time passes")
        #expect(take(.relaunch(Self.app)))
        #expect(model.state(of: AppID(Self.app)) == .active)
    }
}
