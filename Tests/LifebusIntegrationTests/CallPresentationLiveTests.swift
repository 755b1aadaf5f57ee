import Glibc
import LifebusJSON
import Testing

/// `lifebusd --call-presentation` through a real broker and a `lifebus subscribe` app (`Protocol/lifecycle.md`,
/// "Calls as a banner"): a banner call leaves the app active until it is answered, the answer resigns it, the end
/// reactivates it; the run record names the presentation.
@Suite struct CallPresentationLiveTests {
    static let id = "com.example.Caller"

    @Test func aBannerCallMovesTheAppOnlyOnceAnsweredAndTheRunRecordSaysBanner() throws {
        let broker = try BrokerFixture(arguments: ["--profile", "ios17", "--call-presentation", "banner"])
        let app = try broker.subscribe(Self.id)
        defer { app.signal(SIGTERM) }
        #expect(try broker.reached(Self.id, "active"))
        let ring = try broker.cli(["fire", "call"])
        #expect(ring.status == 0 && ring.out.contains("no app moved"), "C01: \(ring.out) \(ring.err)")
        #expect(try broker.cli(["fire", "call", "--answer"]).status == 0)
        #expect(try broker.reached(Self.id, "inactive"), "C02: the full-screen call UI resigns the app")
        #expect(try broker.cli(["fire", "call", "--end"]).status == 0)
        #expect(try broker.reached(Self.id, "active"), "C04")
        let callbacks = try broker.transitions(of: Self.id).compactMap { $0["callback"]?.stringValue }
        #expect(callbacks.suffix(2) == ["willResignActive", "didBecomeActive"], "no background: \(callbacks)")
        let run = try broker.history().first { $0["type"] == "run" }
        #expect(run?["scenes"]?["callPresentation"] == "banner", "the run record names the knob")
    }

    @Test func theDefaultIsFullScreen() throws {
        let broker = try BrokerFixture(arguments: ["--profile", "ios15"])
        let app = try broker.subscribe(Self.id)
        defer { app.signal(SIGTERM) }
        #expect(try broker.reached(Self.id, "active"))
        #expect(try broker.cli(["fire", "call"]).status == 0)
        #expect(try broker.reached(Self.id, "inactive"), "R01: a full-screen call resigns the app")
        #expect(try broker.history().first { $0["type"] == "run" }?["scenes"]?["callPresentation"] == "fullScreen")
    }
}
