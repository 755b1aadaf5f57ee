import Glibc
import LifebusJSON
import Testing

/// Scenes over the wire with the real broker, CLI and `lifebus subscribe --scenes` (`Protocol/README.md` §7.1, §10.1,
/// §11.1, §11.2, §13): the refusal under a profile without scenes, the scene members of callbacks, records and
/// `status`, the hook's `$LIFEBUS_SCENE`/`$LIFEBUS_SESSION`, `fire scene` and the restoration payload's round trip.
@Suite struct ScenesLiveTests {
    static let id = "com.example.Notes"

    @Test func aSceneAppIsRefusedUnderAProfileWithoutScenes() throws {
        let broker = try BrokerFixture(arguments: ["--profile", "ios7"])
        let app = try broker.subscribe(Self.id, ["--scenes", "--connect-timeout", "5s"])
        #expect(app.waitForExit() == 3, "refused, never retried: exit 3 at once")
        let err = app.stderr.readAll(timeout: .seconds(5))
        #expect(err.contains("ios7") && err.contains("ios13"), "\(err)")
        let fired = try broker.cli(["fire", "scene", "open", Self.id])
        #expect(fired.status == 4, "an app the device does not know: refused — \(fired.err)")
    }

    @Test func aSceneAppLivesItsScenesThroughTheWire() throws {
        let broker = try BrokerFixture(arguments: ["--profile", "ios15"])
        let mark = "\(ChildProcess.productsFolder)/lifebus mark saved --data "
            + #""{\"scene\":$LIFEBUS_SCENE,\"session\":$LIFEBUS_SESSION}""#
        let app = try broker.subscribe(Self.id, [
            "--scenes", "--multiple-scenes", "--restoration", #"{"note":7}"#,
            "--on", "sceneDidEnterBackground=\(mark)",
        ])
        #expect(try broker.reached(Self.id, "active"))
        let connect = app.readJSONLine { $0["callback"]?.stringValue == "willConnectTo" }
        #expect(connect?["scene"] == 1 && connect?["session"] == 1, "\(String(describing: connect))")

        // Home: the scene's callbacks, the hook sees its scene and session, the records carry them.
        #expect(try broker.cli(["fire", "home"]).status == 0)
        #expect(try broker.reached(Self.id, "suspended"))
        let saved = try broker.marks(of: Self.id).last
        #expect(saved?["data"] == ["scene": 1, "session": 1], "\(String(describing: saved))")
        let background = try broker.transitions(of: Self.id).last {
            $0["callback"]?.stringValue == "sceneDidEnterBackground"
        }
        #expect(background?["scene"] == 1 && background?["session"] == 1)
        #expect(background?["sceneFrom"] == "foregroundInactive" && background?["sceneTo"] == "background")
        #expect(background?["from"] == "inactive" && background?["to"] == "background", "the app's aggregate")
        let suspension = try broker.transitions(of: Self.id).last
        #expect(suspension?["scene"] == nil, "a record of the app alone has no scene members")

        // A second window, sent to the background with the app, then reclaimed: its payload is kept and handed back.
        #expect(try broker.cli(["fire", "activate", Self.id]).status == 0)
        let opened = try broker.cli(["fire", "scene", "open", Self.id, "--url", "notes://7", "--json"])
        #expect(opened.status == 0, "\(opened.err)")
        let connected = app.readJSONLine { $0["callback"]?.stringValue == "willConnectTo" && $0["scene"] == 2 }
        #expect(connected?["session"] == 2)
        #expect(try broker.cli(["fire", "home"]).status == 0)
        let reclaimed = try broker.cli(["fire", "scene", "reclaim", Self.id, "2"])
        #expect(reclaimed.status == 0, "\(reclaimed.err)")
        let status = try #require(try broker.status())
        let sessions = status["apps"]?[0]?["scenes"]
        #expect(sessions == [
            ["session": 1, "scene": 1, "state": "background", "restoration": false],
            ["session": 2, "restoration": true],
        ], "\(String(describing: sessions))")
        let reconnected = try broker.cli(["fire", "scene", "reconnect", Self.id, "2"])
        #expect(reconnected.status == 0, "\(reconnected.err)")
        let back = app.readJSONLine { $0["callback"]?.stringValue == "willConnectTo" && $0["session"] == 2 }
        #expect(back?["scene"] == 3, "a reconnect makes a new scene for the same session")
        #expect(back?["restoration"] == ["note": 7], "the payload stateRestorationActivity answered, handed back")
        let request = try broker.transitions(of: Self.id).last { $0["callback"]?.stringValue == "willConnectTo" }
        #expect(request?["session"] == 2)
        #expect(app.isAlive)
        try SupervisionCheck.run(broker)
    }
}
