@testable import LifebusProtocol
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

    /// The decoder takes a served method's name as its constant: exactly the served names, spelled exactly.
    @Test func servedNamesAreFoundByTheirSpellingOnly() {
        func served(_ text: String) -> String? {
            Array(text.utf8).withUnsafeBytes { MethodPolicy.servedName(spelledBy: $0) }
        }
        for method in MethodPolicy.roles.keys {
            #expect(served(method) == method)
            #expect(served(method + "x") == nil)
            #expect(served(String(method.dropLast())) == nil)
        }
        for other in ["transition", "didEnterBackground", "Ping", "pinG", "", "lifebus.error"] {
            #expect(served(other) == nil)
        }
    }
}
