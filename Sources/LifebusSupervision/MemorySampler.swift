public import LifebusIO

/// Samples the memory footprint of the apps the caller names on a fixed period, or when asked (`sampleNow`: the
/// broker's manual clock, whose periods are virtual), without blocking the loop.
///
/// Owns one `LoopTimer` (closed by `close()`, the only way to end the sampler; started only with a period) and one
/// `MemoryMeter` (each tick is one of its rounds: its staleness bound, in rounds, is the sampler's in periods). Each
/// tick asks `targets` for the apps to measure (on the loop) and runs the round on a thread of its own (it reads
/// `/proc` files for milliseconds, tens of them on a loaded machine: too long for the loop); the
/// samples come back to the loop through its executor and go to `onSample`, one `MemoryReading.Sample` per target,
/// unless the sampler was closed meanwhile. At most one pass is in flight: a tick that finds one running is
/// skipped, so a slow `/proc` never queues work (a `sampleNow` then gets that pass's samples). A timed tick with
/// no targets reports nothing; `sampleNow` always reports, if only an empty round. The timer does not keep the
/// loop alive on its own.
public final class MemorySampler {
    private let loop: EventLoop
    private let timer: LoopTimer
    private let targets: () -> [MemoryReading.Target]
    private let onSample: ([MemoryReading.Sample]) -> Void
    private let meter: MemoryMeter
    private var passInFlight = false
    private var closed = false

    /// Starts sampling every `period` (first sample after one period); `nil` samples only on `sampleNow`. `meter`
    /// takes the rounds (`nil`: a `MemoryMeter` with its default budget).
    public init(
        loop: EventLoop, period: Duration?, meter: MemoryMeter? = nil,
        targets: @escaping () -> [MemoryReading.Target], onSample: @escaping ([MemoryReading.Sample]) -> Void
    ) throws(UVError) {
        self.loop = loop
        self.meter = meter ?? MemoryMeter()
        self.targets = targets
        self.onSample = onSample
        timer = try LoopTimer(loop: loop)
        timer.keepsLoopAlive = false
        if let period {
            timer.start(after: period, repeating: period) { [weak self] in self?.tick(onDemand: false) }
        }
    }

    /// Takes a round now; its samples (possibly none) go to `onSample`.
    public func sampleNow() {
        tick(onDemand: true)
    }

    /// Stops sampling for good; a pass in flight is dropped.
    public func close() {
        closed = true
        timer.close()
    }

    private func tick(onDemand: Bool) {
        guard !passInFlight, !closed else { return }
        let wanted = targets()
        guard onDemand || !wanted.isEmpty else { return }
        passInFlight = true
        let sampler = LoopBound(self, loop: loop)
        let executor = loop.executor
        let meter = meter
        DetachedThread.start {
            let samples = meter.measure(wanted)
            executor.execute { sampler.value.finished(samples) }
        }
    }

    private func finished(_ samples: [MemoryReading.Sample]) {
        passInFlight = false
        if !closed { onSample(samples) }
    }
}
