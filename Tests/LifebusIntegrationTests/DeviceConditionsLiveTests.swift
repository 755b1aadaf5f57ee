import LifebusJSON
import Testing

/// The device's conditions through a real broker and the real CLI (`Protocol/lifecycle.md`, "Device conditions";
/// the rows B15–B19 run live in `LifecycleRowEndToEndTests`): `lifebusd --power … --network …` start the device so
/// and the run record says it, `lifebus fire power|network WORD` is accepted as a word and spelled so in the
/// journal's causes, and a missing or unknown word is a usage error.
@Suite struct DeviceConditionsLiveTests {
    @Test func theStartingConditionsAreInTheRunRecordAndTheEventsTakeTheirWords() throws {
        let broker = try BrokerFixture(arguments: ["--profile", "ios13", "--power", "battery", "--network", "offline"])
        let run = try broker.history().first { $0["type"] == "run" }
        #expect(run?["power"] == "battery" && run?["network"] == "offline", "\(String(describing: run))")
        for words in [["power", "external"], ["network", "online"], ["power", "battery"]] {
            let fired = try broker.cli(["fire"] + words)
            #expect(fired.status == 0, "\(words): \(fired.out) \(fired.err)")
        }
        for bad in [["power"], ["power", "mains"], ["network", "--online"], ["power", "external", "com.example"]] {
            #expect(try broker.cli(["fire"] + bad).status == 2, "\(bad)")
        }
    }

    @Test func theDefaultDeviceIsPluggedInAndOnlineAndTheRunRecordSaysNothing() throws {
        let broker = try BrokerFixture(arguments: ["--profile", "ios13"])
        let run = try broker.history().first { $0["type"] == "run" }
        #expect(run != nil && run?["power"] == nil && run?["network"] == nil, "\(String(describing: run))")
    }
}
