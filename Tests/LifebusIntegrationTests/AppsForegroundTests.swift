import LifebusProtocol
import Testing

/// Apps sharing the device: which one is in front, and who may do what on the bus.
@Suite struct AppsForegroundTests {
    @Test func activatingAnAppSendsTheFrontAppAwayThenBringsTheOtherForward() throws {
        let broker = try BrokerFixture()
        let first = try broker.subscribe("com.example.A")
        #expect(try broker.reached("com.example.A", "active"))
        let second = try broker.subscribe("com.example.B")
        #expect(try broker.reached("com.example.B", "active"))
        #expect(try broker.reached("com.example.A", "suspended"))
        let before = try broker.history().compactMap { $0["seq"]?.int64Value }.max() ?? 0

        let fired = try broker.cli(["fire", "activate", "com.example.A", "--json"])
        #expect(fired.status == 0, "\(fired.err)")
        #expect(try broker.reached("com.example.A", "active"))
        #expect(try broker.reached("com.example.B", "suspended"))

        let caused = try broker.history().filter {
            $0["type"]?.stringValue == "transition" && ($0["seq"]?.int64Value ?? 0) > before
        }
        let lines = caused.map { "\($0["app"]?.stringValue ?? "?") \(summary($0))" }
        #expect(lines == [
            "com.example.B willResignActive active->inactive ok",
            "com.example.B didEnterBackground inactive->background ok",
            "com.example.B none background->suspended ok",
            "com.example.A willEnterForeground suspended->inactive ok",
            "com.example.A didBecomeActive inactive->active ok",
        ])
        #expect(parsed(fired.out)?["transitions"]?.arrayValue?.count == 5, "fire answers with all five")
        #expect(try broker.status()?["foreground"]?.stringValue == "com.example.A")
        #expect(first.isAlive && second.isAlive)
    }

    @Test func anAppMayNotFire() throws {
        let broker = try BrokerFixture()
        let (app, _) = try RawPeer.app(broker, id: "com.example.Rogue")
        #expect(app.answer(until: "didBecomeActive"))
        let refused = app.call("fire", #"{"event":"home"}"#)
        #expect(refused?["error"]?["data"]?["name"]?.stringValue == "lifebus.NotAllowedForRole")
        #expect(refused?["error"]?["code"]?.int64Value == Int64(LifebusErrorCode.notAllowedForRole.code))
        #expect(try broker.reached("com.example.Rogue", "active"), "nothing was fired")
    }

    @Test func aSecondConnectionClaimingALiveAppsIDIsRefusedAndTheFirstIsUnaffected() throws {
        let broker = try BrokerFixture()
        let (first, _) = try RawPeer.app(broker, id: "com.example.Owner")
        #expect(first.answer(until: "didBecomeActive"))
        let (_, claim) = try RawPeer.app(broker, id: "com.example.Owner")
        #expect(claim?["error"]?["data"]?["name"]?.stringValue == "lifebus.AppIDInUse")

        #expect(first.call("ping")?["result"]?["pong"]?.boolValue == true)
        #expect(first.call("mark", #"{"name":"still-here"}"#)?["result"] == .object([:]))
        let owner = try broker.status()?["apps"]?.arrayValue?.first { $0["id"]?.stringValue == "com.example.Owner" }
        #expect(owner?["state"]?.stringValue == "active")
        #expect(owner?["connected"]?.boolValue == true)
        #expect(try broker.marks(of: "com.example.Owner").map { $0["name"]?.stringValue } == ["still-here"])
    }

    @Test func aControllerMayNotMark() throws {
        let broker = try BrokerFixture()
        let controller = try RawPeer.controller(broker)
        let refused = controller.call("mark", #"{"name":"state-saved"}"#)
        #expect(refused?["error"]?["data"]?["name"]?.stringValue == "lifebus.NotAllowedForRole")
        #expect(try broker.history().map { $0["type"]?.stringValue } == ["run"], "nothing was journaled but the run")
    }
}
