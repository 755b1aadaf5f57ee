import LifebusProtocol
import Testing

@Suite struct BrokerSocketPathTests {
    let full = ["LIFEBUS_SOCKET": "/env/bus.sock", "XDG_RUNTIME_DIR": "/run/user/7"]

    @Test func explicitPathWinsOverEverything() {
        #expect(BrokerSocketPath.resolve(explicit: "/x.sock", environment: full, uid: 7) == "/x.sock")
    }

    @Test func environmentVariableComesNext() {
        #expect(BrokerSocketPath.resolve(explicit: nil, environment: full, uid: 7) == "/env/bus.sock")
        #expect(BrokerSocketPath.resolve(explicit: "", environment: full, uid: 7) == "/env/bus.sock")
    }

    @Test func runtimeDirectoryComesThird() {
        let environment = ["LIFEBUS_SOCKET": "", "XDG_RUNTIME_DIR": "/run/user/7"]
        #expect(BrokerSocketPath.resolve(explicit: nil, environment: environment, uid: 7) == "/run/user/7/lifebus.sock")
        #expect(BrokerSocketPath.resolve(explicit: nil, environment: ["XDG_RUNTIME_DIR": "/r/"], uid: 7)
            == "/r/lifebus.sock")
    }

    @Test func aPrivateFolderInTmpIsTheFallback() {
        #expect(BrokerSocketPath.resolve(explicit: nil, environment: [:], uid: 1000)
            == "/tmp/lifebus-1000/lifebus.sock")
        #expect(BrokerSocketPath.resolve(explicit: nil, environment: ["XDG_RUNTIME_DIR": ""], uid: 0)
            == "/tmp/lifebus-0/lifebus.sock")
    }

    @Test func tmpdirReplacesTmp() {
        #expect(BrokerSocketPath.privateDirectory(environment: ["TMPDIR": "/var/tmp/"], uid: 5) == "/var/tmp/lifebus-5")
        #expect(BrokerSocketPath.privateDirectory(environment: ["TMPDIR": ""], uid: 5) == "/tmp/lifebus-5")
        #expect(BrokerSocketPath.privateDirectory(environment: ["TMPDIR": "/"], uid: 5) == "/lifebus-5")
        #expect(BrokerSocketPath.resolve(explicit: nil, environment: ["TMPDIR": "/t"], uid: 5)
            == "/t/lifebus-5/lifebus.sock")
    }

    /// The CLI reads only `environmentVariables` from its environment: the path must not depend on any other.
    @Test func readsOnlyTheVariablesItNames() {
        let names = BrokerSocketPath.environmentVariables
        let environments: [[String: String]] = [
            full, ["XDG_RUNTIME_DIR": "/r", "TMPDIR": "/t", "HOME": "/h"], ["TMPDIR": "/t", "PATH": "/bin"],
            ["LIFEBUS_SOCKET": "", "XDG_RUNTIME_DIR": "", "TMPDIR": "/var/tmp", "USER": "u"],
        ]
        for environment in environments {
            let named = environment.filter { names.contains($0.key) }
            #expect(BrokerSocketPath.resolve(explicit: nil, environment: named, uid: 3)
                == BrokerSocketPath.resolve(explicit: nil, environment: environment, uid: 3))
        }
    }
}
