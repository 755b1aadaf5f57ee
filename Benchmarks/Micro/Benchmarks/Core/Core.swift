import Benchmark
import MicroRun

/// The core on a mix of inputs: one scaled iteration is one input to a `Device` driving 1,000 apps (`CoreMix`), so
/// the scaled figures read per input (wall clock, mallocs) and throughput reads as inputs per second.
/// `./scripts/bench` prints this row beside its table (target ≥ 3 M inputs/s).
let benchmarks: @Sendable () -> Void = {
    var mix: CoreMix?
    Benchmark(
        "core: 1000 apps, ios7, seeded random input mix",
        configuration: .init(
            metrics: [.throughput, .wallClock, .mallocCountTotal, .peakMemoryResident],
            scalingFactor: .mega,
            maxDuration: .seconds(MicroRun.quick ? 1 : 5),
            maxIterations: MicroRun.quick ? 2 : 20
        )
    ) { benchmark in
        var current = mix ?? CoreMix.connected()
        mix = nil  // unique: the device's storage is mutated in place, not copied
        benchmark.startMeasurement()
        current.run(inputs: benchmark.scaledIterations.count)
        benchmark.stopMeasurement()
        mix = current
    }
}
