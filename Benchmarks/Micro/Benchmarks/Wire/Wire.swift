import Benchmark
import MicroRun

/// The wire's hot pure code: JSON-RPC decode of each message kind the broker reads (and the notifications its
/// observers read), encode of each kind it writes, and the transition record's text. One scaled iteration is one
/// message, so the scaled figures read per message.
let benchmarks: @Sendable () -> Void = {
    WireDecode.register()
    WireEncode.register()
    RecordEncode.register()
}

/// What every wire benchmark runs with (a few short iterations when `MicroRun.quick`), and the encode benchmarks'
/// loop. Stateless.
enum WireBenchmark {
    static var configuration: Benchmark.Configuration {
        .init(
            metrics: [.throughput, .wallClock, .mallocCountTotal],
            scalingFactor: .kilo,
            maxDuration: MicroRun.quick ? .milliseconds(20) : .seconds(1),
            maxIterations: MicroRun.quick ? 3 : 10_000
        )
    }

    /// Registers an encode benchmark: `encode` appends one message to a buffer reused as `RPCPeer` reuses its own,
    /// so the figures are the encoder's, not the buffer's growth.
    static func encoding(_ name: String, _ encode: @escaping (inout [UInt8]) -> Void) {
        Benchmark(name, configuration: configuration) { benchmark in
            var buffer: [UInt8] = []
            buffer.reserveCapacity(1024)
            for _ in benchmark.scaledIterations {
                buffer.removeAll(keepingCapacity: true)
                encode(&buffer)
                blackHole(buffer.count)
            }
        }
    }
}
