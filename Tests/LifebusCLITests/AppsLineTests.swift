@testable import LifebusCLI
import LifebusJSON
import Testing

/// `lifebus apps` shows a pid only for a process that runs: not the pid of one that ended.
@Suite struct AppsLineTests {
    static func app(state: String, pid: Int64?, spawned: Bool) -> JSONValue {
        ["id": "com.example.P", "executable": "/bin/p", "state": .string(state),
         "pid": pid.map(JSONValue.integer) ?? .null, "spawned": .bool(spawned)]
    }

    @Test func anAppThatIsNotRunningShowsNoPidEvenWhenTheBrokerRemembersOne() {
        #expect(LifebusCommand.Apps.line(Self.app(state: "notRunning", pid: 8708, spawned: false))
            == "com.example.P  notRunning  no process  /bin/p")
    }

    @Test func aRunningAppOrAProcessBeingStartedShowsItsPid() {
        #expect(LifebusCommand.Apps.line(Self.app(state: "active", pid: 42, spawned: true))
            == "com.example.P  active  pid 42  /bin/p")
        #expect(LifebusCommand.Apps.line(Self.app(state: "notRunning", pid: 43, spawned: true))
            == "com.example.P  notRunning  pid 43  /bin/p")
        #expect(LifebusCommand.Apps.line(Self.app(state: "background", pid: nil, spawned: false))
            == "com.example.P  background  no process  /bin/p")
    }
}
