import LifebusProtocol
import Testing

/// Who may call what: the Roles section of the protocol.
@Suite struct MethodPolicyTests {
    @Test(arguments: [
        ("hello", [PeerRole.app, .controller, .observer]),
        ("ping", [.app, .controller, .observer]),
        ("mark", [.app]), ("beginBackgroundTask", [.app]), ("endBackgroundTask", [.app]), ("reportMemory", [.app]),
        ("fire", [.controller]),
        ("status", [.controller, .observer]), ("wait", [.controller, .observer]), ("history", [.controller, .observer]),
        ("advance", [.controller]), ("clock", [.controller, .observer]),
    ])
    func eachServedMethodIsAllowedForExactlyItsRoles(method: String, roles: [PeerRole]) {
        for role in PeerRole.allCases {
            #expect(MethodPolicy.allowed(method, for: role) == roles.contains(role), "\(method) for \(role)")
        }
    }

    @Test(arguments: [
        "transition", "backgroundTaskExpiring", "lifebus.error", "didEnterBackground", "willTerminate", "reboot", "",
    ])
    func methodsTheBrokerDoesNotServeAreUnknownToEveryRole(method: String) {
        for role in PeerRole.allCases {
            #expect(MethodPolicy.allowed(method, for: role) == nil)
        }
    }

    @Test func methodNamesAreTheContractSpellings() {
        #expect([
            LifebusMethod.fire, LifebusMethod.status, LifebusMethod.wait, LifebusMethod.history,
            LifebusMethod.transition, LifebusMethod.mark, LifebusMethod.beginBackgroundTask,
            LifebusMethod.endBackgroundTask, LifebusMethod.reportMemory, LifebusMethod.backgroundTaskExpiring,
            LifebusMethod.reset, LifebusMethod.advance, LifebusMethod.clock, LifebusMethod.install,
            LifebusMethod.uninstall, LifebusMethod.apps, LifebusMethod.process, LifebusMethod.saveRestorationState,
        ] == [
            "fire", "status", "wait", "history", "transition", "mark", "beginBackgroundTask", "endBackgroundTask",
            "reportMemory", "backgroundTaskExpiring", "reset", "advance", "clock", "install", "uninstall", "apps",
            "process", "saveRestorationState",
        ])
        #expect(Set(MethodPolicy.roles.keys).count == 17)
    }
}
