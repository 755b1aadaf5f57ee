import ArgumentParser
import LifebusIO
import LifebusJSON
import LifebusProtocol
import LifebusRPC

extension LifebusCommand {
    /// `lifebus ping`: measures round trips to the broker; with `--wait`, first waits for it to come up.
    struct Ping: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ping",
            abstract: "Check that the broker answers and print the round-trip time.",
            discussion: "With --wait, retries until the broker answers or the time is up (exit 3 then)."
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: ArgumentHelp("Keep trying to reach the broker for this long (e.g. 5s).", valueName: "duration"))
        var wait: DurationArgument?

        @Option(help: "How many pings to send, one after another.")
        var count = 1

        func validate() throws {
            guard count >= 1 else { throw ValidationError("--count must be at least 1") }
        }

        func run() throws {
            try PingSeries.run(path: global.socketPath, json: global.json, count: count, retryFor: wait?.duration)
        }
    }
}

/// Sends pings one after another and prints each round trip; owns the count and the samples.
final class PingSeries {
    let peer: RPCPeer
    let total: Int
    let json: Bool
    let finish: (BrokerCall.Outcome) -> Void
    var sent = 0

    init(peer: RPCPeer, total: Int, json: Bool, finish: @escaping (BrokerCall.Outcome) -> Void) {
        self.peer = peer
        self.total = total
        self.json = json
        self.finish = finish
    }

    /// Pings the broker at `path` `count` times, printing each round trip (the whole of `lifebus ping`).
    static func run(path: String, json: Bool, count: Int, retryFor: Duration?) throws {
        try BrokerCall.run(path: path, json: json, retryFor: retryFor) { peer, _, finish in
            PingSeries(peer: peer, total: count, json: json, finish: finish).next()
        }
    }

    func next() {
        sent += 1
        let sequence = sent
        let start = EventLoop.monotonicNanoseconds()
        peer.request(LifebusMethod.ping) { [self] answer in
            let elapsed = EventLoop.monotonicNanoseconds() - start
            switch answer {
            case .failure(let error):
                finish(.refused(error))
            case .success:
                report(sequence: sequence, nanoseconds: elapsed)
                if sent < total { next() } else { finish(.success) }
            }
        }
    }

    private func report(sequence: Int, nanoseconds: UInt64) {
        let milliseconds = Double(nanoseconds) / 1_000_000
        if json {
            let line: JSONValue = ["seq": .integer(Int64(sequence)), "rttMs": .double(milliseconds)]
            print(line.jsonText)
        } else {
            print("pong from broker: seq=\(sequence) time=\(formatMilliseconds(milliseconds)) ms")
        }
    }
}

/// Three decimals, without Foundation's formatters.
func formatMilliseconds(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(thousandths % 1000)
    return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}
