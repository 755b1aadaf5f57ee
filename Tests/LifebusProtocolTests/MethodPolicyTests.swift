@_spi(RawJSON) import LifebusJSON
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
            LifebusMethod.registerBackgroundTask, LifebusMethod.submitBackgroundTask, LifebusMethod.setTaskCompleted,
            LifebusMethod.protectedData, LifebusMethod.protectedDataChanged, LifebusMethod.task, LifebusMethod.push,
        ] == [
            "fire", "status", "wait", "history", "transition", "mark", "beginBackgroundTask", "endBackgroundTask",
            "reportMemory", "backgroundTaskExpiring", "reset", "advance", "clock", "install", "uninstall", "apps",
            "process", "saveRestorationState", "registerBackgroundTask", "submitBackgroundTask", "setTaskCompleted",
            "protectedData", "protectedDataChanged", "task", "push",
        ])
        #expect(Set(MethodPolicy.roles.keys).count == 21)
    }

    /// Each served method is found by its name (as a short and as a long `String`), and by nothing else.
    @Test func eachServedMethodIsFoundByItsName() {
        #expect(ServedMethod.allCases.map(\.name).sorted() == MethodPolicy.roles.keys.sorted())
        for method in ServedMethod.allCases {
            #expect(ServedMethod(named: method.name) == method)
            #expect(ServedMethod(named: String(method.name.dropLast())) == nil)
            #expect(ServedMethod(named: method.name + "x") == nil)
        }
        for other in ["transition", "lifebus.error", "Fire", "", "didEnterBackground", "saveRestorationStatex"] {
            #expect(ServedMethod(named: other) == nil)
        }
    }

    /// The decoder takes a served method's name as its constant: exactly the served names, spelled exactly.
    @Test func servedNamesAreFoundByTheirSpellingOnly() {
        func served(_ text: String) -> String? {
            Array(text.utf8).withUnsafeBytes { ServedMethod(spelledBy: $0)?.name }
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

/// The decoder's method-name lookup: each served name, spelled as bytes, gives back its constant; every near miss
/// (a byte changed, dropped or added anywhere) and unrelated names give nothing. `ByteScan.same` compares a word at
/// a time, so the misses are placed in every word and in the tail.
@Suite struct ServedNameTests {
    private func served(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { ServedMethod(spelledBy: $0)?.name }
    }

    @Test func eachServedNameIsFoundAndEveryNearMissIsNot() {
        for method in MethodPolicy.roles.keys {
            let bytes = Array(method.utf8)
            #expect(served(bytes) == method)
            for index in bytes.indices {
                var changed = bytes
                changed[index] ^= 0x20
                #expect(served(changed) == nil || served(changed) != method, "\(method) with byte \(index) changed")
                var dropped = bytes
                dropped.remove(at: index)
                #expect(served(dropped) != method)
            }
            #expect(served(bytes + [UInt8(ascii: "x")]) == nil)
        }
        #expect(served([]) == nil)
        #expect(served(Array("transition".utf8)) == nil)
    }

    @Test func sameBytesAgreesWithArrayEquality() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...40, using: &generator)
            let left = (0..<count).map { _ in UInt8.random(in: 0...3, using: &generator) }
            var right = left
            if Bool.random(using: &generator), !right.isEmpty {
                right[Int.random(in: 0..<right.count, using: &generator)] &+= 1
            }
            if Bool.random(using: &generator) { right.append(0) }
            let same = left.withUnsafeBytes { l in right.withUnsafeBytes { r in ByteScan.same(l, r) } }
            #expect(same == (left == right))
        }
    }
}
