import Glibc
import LifebusJSON
import Testing

/// The CLI's views of scenes against a real broker and a `lifebus subscribe --scenes` app: `wait APP/SCENE STATE` (the
/// broker's scene `wait`), `expect APP --scene N`, `status`'s sessions and scenes (text and JSON), and
/// `history`/`watch` rows naming the scene and its session.
@Suite struct SceneViewsLiveTests {
    static let id = "com.example.Notes"

    @Test func waitForASceneStateNowLaterOrUntilTheTimeout() throws {
        let broker = try BrokerFixture(arguments: ["--profile", "ios17"])
        let app = try broker.subscribe(Self.id, ["--scenes", "--multiple-scenes"])
        defer { app.signal(SIGTERM) }
        let first = try broker.cli(["wait", "\(Self.id)/1", "foregroundActive", "--timeout", "10s"])
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out.hasPrefix("\(Self.id)/1 (session 1) is foregroundActive"), "\(first.out)")

        // Scene 2 does not exist yet: waited for until `scene open` makes it.
        let later = try ChildProcess(
            "lifebus", ["wait", "\(Self.id)/2", "foregroundActive", "--json", "--timeout", "10s", "--socket",
                        broker.socketPath])
        #expect(try broker.cli(["fire", "scene", "open", Self.id]).status == 0)
        #expect(later.wait() == 0)
        let reached = try JSONParser.parse(later.stdout.readAll(timeout: .seconds(5)).trimmingNewlines)
        #expect(reached["scene"] == 2 && reached["session"] == 2 && reached["state"] == "foregroundActive")

        // A scene not connected is unattached: one still to come at once, one that disconnects when it does.
        let notYet = try broker.cli(["wait", "\(Self.id)/9", "unattached", "--timeout", "1s"])
        #expect(notYet.status == 0, "\(notYet.err)")
        #expect(notYet.out.hasPrefix("\(Self.id)/9 (not connected) is unattached"), "\(notYet.out)")
        // The scene wait is in place before the close: a connection's requests are handled in order, so once the
        // `ping` after it is answered the broker holds the wait (a `lifebus wait` process started just before the
        // close could reach the broker after it, and be answered at once, `sinceMs` null).
        let watcher = try RawPeer.controller(broker)
        watcher.client.sendLine(#"""
            {"jsonrpc":"2.0","id":"closing","method":"wait","params":{"app":"\#(Self.id)","scene":2,\#
            "state":"unattached","timeoutMs":10000}}
            """#)
        #expect(watcher.call("ping")?["result"] != nil)
        #expect(try broker.cli(["fire", "scene", "close", Self.id, "2"]).status == 0)
        let closed = try #require(watcher.pump { $0["id"]?.stringValue == "closing" }?["result"])
        #expect(closed["scene"] == 2 && closed["state"] == "unattached" && closed["session"] == nil, "\(closed)")
        #expect(closed["sinceMs"]?.doubleValue != nil, "the broker saw it disconnect: \(closed)")

        let timedOut = try broker.cli(["wait", "\(Self.id)/1", "unattached", "--timeout", "200ms"])
        #expect(timedOut.status == 1)
        #expect(timedOut.out.contains("waiting for \(Self.id)/1 to be unattached; it is foreground"), "\(timedOut.out)")
        #expect(timedOut.err.contains("timed out after 200"), "\(timedOut.err)")
        let slow = try broker.cli(["wait", "\(Self.id)/5", "foregroundActive", "--timeout", "3s"])
        #expect(slow.status == 1)
        #expect(slow.err.contains("waiting up to 3s for \(Self.id)/5 to be foregroundActive; it is not connected "
            + "(unattached)"), "a slow wait says what it waits for: \(slow.err)")
        #expect(try broker.cli(["wait", "\(Self.id)/1", "active"]).status == 2, "an app state for a scene")
        #expect(try broker.cli(["wait", Self.id, "foregroundActive"]).status == 2, "a scene state for an app")
    }

    @Test func statusListsEachSessionWithItsSceneAndHistoryNamesTheScene() throws {
        let broker = try BrokerFixture(arguments: ["--profile", "ios17"])
        let app = try broker.subscribe(Self.id, ["--scenes", "--multiple-scenes"])
        defer { app.signal(SIGTERM) }
        #expect(try broker.reached(Self.id, "active"))
        #expect(try broker.cli(["fire", "scene", "open", Self.id]).status == 0)
        #expect(try broker.cli(["fire", "home"]).status == 0)
        #expect(try broker.cli(["fire", "scene", "reclaim", Self.id, "1"]).status == 0)

        let text = try broker.cli(["status"])
        #expect(text.status == 0, "\(text.err)")
        let lines = text.out.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("  session 1 ") && $0.contains("no scene") }, "\(text.out)")
        #expect(lines.contains { $0.hasPrefix("  session 2 · scene 2") && $0.contains("background") }, "\(text.out)")
        let json = try JSONParser.parse(try broker.cli(["status", "--json"]).out.trimmingNewlines)
        let scenes = json["apps"]?.arrayValue?.first?["scenes"]?.arrayValue ?? []
        #expect(scenes.count == 2 && scenes.last?["scene"] == 2 && scenes.last?["state"] == "background")

        let history = try broker.cli(["history"])
        #expect(history.status == 0, "\(history.err)")
        let reclaim = history.out.split(separator: "\n").first { $0.contains("stateRestorationActivity") }
        #expect(reclaim?.contains("\(Self.id)/1 (session 1)") == true, "\(history.out)")
        let run = try broker.cli(["history", "--json"]).out.split(separator: "\n")
            .compactMap { try? JSONParser.parse(String($0)) }.first { $0["type"] == "run" }
        #expect(run?["scenes"]?["switcherClose"] == "disconnectsAndDiscards", "the run record names the knobs")
        #expect(run?["scenes"]?["sceneOrderSeed"] == 0)
        let launch = history.out.split(separator: "\n").first { $0.contains("didFinishLaunching") }
        #expect(launch?.contains("\(Self.id)/") == false, "an app-level callback names the app alone")
    }

    @Test func theSceneOrderSeedGivenToLifebusdIsTheOneTheRunRecordNames() throws {
        let broker = try BrokerFixture(arguments: ["--profile", "ios17", "--scene-order-seed", "9223372036854775807"])
        let run = try broker.cli(["history", "--json"]).out.split(separator: "\n")
            .compactMap { try? JSONParser.parse(String($0)) }.first { $0["type"] == "run" }
        #expect(run?["scenes"]?["sceneOrderSeed"] == .integer(Int64.max), "\(String(describing: run))")
        let refused = try ChildProcess("lifebusd", ["--scene-order-seed", "9223372036854775808"])
        let message = refused.stderr.readAll()
        #expect(refused.wait() == 2)
        #expect(message.contains("'--scene-order-seed': an integer from 0 to 2^63-1"), "\(message)")
    }

    @Test func expectWithASceneChecksThatScenesCallbacksAndState() throws {
        let broker = try BrokerFixture(arguments: ["--profile", "ios17"])
        let app = try broker.subscribe(Self.id, ["--scenes", "--multiple-scenes"])
        defer { app.signal(SIGTERM) }
        #expect(try broker.reached(Self.id, "active"))
        #expect(try broker.cli(["fire", "scene", "open", Self.id]).status == 0)
        #expect(try broker.cli(["fire", "home"]).status == 0)
        #expect(try broker.cli(["fire", "scene", "reclaim", Self.id, "2"]).status == 0)
        let reclaimed = try broker.cli([
            "expect", Self.id, "--scene", "2", "--callbacks", "stateRestorationActivity,sceneDidDisconnect",
            "--state", "unattached",
        ])
        #expect(reclaimed.status == 0, "\(reclaimed.out)")
        #expect(reclaimed.out.contains("scene 2 state  expected: unattached"), "\(reclaimed.out)")
        let untouched = try broker.cli(
            ["expect", Self.id, "--scene", "1", "--callbacks", "none", "--state", "background"])
        #expect(untouched.status == 0, "the reclaim moved scene 2 only: \(untouched.out)")
        let wrong = try broker.cli(["expect", Self.id, "--scene", "1", "--state", "foregroundActive", "--json"])
        #expect(wrong.status == 1)
        let report = try JSONParser.parse(wrong.out.trimmingNewlines)
        #expect(report["checks"]?.arrayValue?.first?["recorded"] == "background", "\(wrong.out)")
        #expect(try broker.cli(["expect", Self.id, "--scene", "1", "--state", "active"]).status == 2)
    }

    @Test func watchNamesTheSceneOfEachSceneTransition() throws {
        let broker = try BrokerFixture(arguments: ["--profile", "ios17"])
        let app = try broker.subscribe(Self.id, ["--scenes"])
        defer { app.signal(SIGTERM) }
        #expect(try broker.reached(Self.id, "active"))
        let watch = try ChildProcess("lifebus", ["watch", "--socket", broker.socketPath])
        #expect(watch.stdout.readLine()?.contains("callback") == true, "the header")
        // The watcher registers with the broker at some point after its header: fire until it reports one.
        var seen: String?
        for _ in 0..<50 where seen == nil {
            #expect(try broker.cli(["fire", "memory-warning"]).status == 0)
            seen = watch.stdout.readLine(timeout: .milliseconds(200))
        }
        #expect(seen?.contains("didReceiveMemoryWarning") == true)
        #expect(try broker.cli(["fire", "home"]).status == 0)
        var line: String?
        while let next = watch.stdout.readLine(timeout: .seconds(10)) {
            if next.contains("sceneDidEnterBackground") {
                line = next
                break
            }
        }
        #expect(line?.contains("\(Self.id)/1 (session 1)") == true, "\(String(describing: line))")
        watch.signal(SIGINT)
        #expect(watch.wait() == 0)
    }
}

extension String {
    fileprivate var trimmingNewlines: String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
