import LifebusJSON
import Testing

/// `lifebus fire push APP --alert` through a real broker to `lifebus subscribe` apps, the SDK's `Application`
/// (`Protocol/lifecycle.md` B60, B62; `Protocol/README.md` §10.4): the app in front is asked
/// (`willPresentNotification`) and the options it answers (`--present`) are journaled `presented`; an app answering
/// none shows no banner (`presented none`); an app no longer in front is not asked.
@Suite struct WillPresentLiveTests {
    static let chat = "com.example.Chat"
    static let quiet = "com.example.Quiet"

    @Test func theAppInFrontIsAskedAndItsOptionsAreJournaled() throws {
        let broker = try BrokerFixture(arguments: ["--profile", "ios17"])
        let chat = try broker.subscribe(Self.chat, ["--present", "banner,sound"])
        #expect(try broker.reached(Self.chat, "active"))
        let hi = try broker.cli(["fire", "push", Self.chat, "--alert", "--payload", #"{"aps":{"alert":"Hi"}}"#])
        #expect(hi.status == 0, "\(hi.out) \(hi.err)")
        #expect(try pushes(of: Self.chat, broker) == ["delivered", "presented banner,sound"])
        let asked = try broker.transitions(of: Self.chat).last
        #expect(asked?["callback"] == "willPresentNotification" && asked?["from"] == "active",
                "\(String(describing: asked))")
        #expect(try broker.cli(["history", Self.chat]).out.contains("push presented banner,sound"))

        let quiet = try broker.subscribe(Self.quiet)
        #expect(try broker.reached(Self.quiet, "active"))
        #expect(try broker.cli(["fire", "push", Self.quiet, "--alert"]).status == 0)
        #expect(try pushes(of: Self.quiet, broker) == ["delivered", "presented none"], "no banner by default")
        #expect(try broker.cli(["fire", "push", Self.chat, "--alert"]).status == 0)
        #expect(try pushes(of: Self.chat, broker) == ["delivered", "presented banner,sound", "delivered"],
                "B62: not in front, not asked")
        #expect(chat.isAlive && quiet.isAlive)
    }

    @Test func anUnknownPresentationOptionIsAUsageError() throws {
        let broker = try BrokerFixture()
        let result = try broker.cli(["subscribe", "--id", Self.chat, "--present", "banner,popup"])
        #expect(result.status == 2 && result.err.contains("--present: unknown option 'popup'"), "\(result)")
    }

    /// The app's push records as `event` and, for `presented`, its options (`none` for `[]`).
    private func pushes(of app: String, _ broker: BrokerFixture) throws -> [String] {
        try broker.history(app).filter { $0["type"] == "push" }.map { record in
            let event = record["event"]?.stringValue ?? "?"
            guard let options = record["presentation"]?.arrayValue else { return event }
            return event + " " + (options.isEmpty ? "none" : options.compactMap(\.stringValue).joined(separator: ","))
        }
    }
}
