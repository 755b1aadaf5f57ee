public import LifebusIO

/// Samples the resident memory of the apps the caller names on a fixed period, on the loop.
///
/// Owns one `LoopTimer` (closed by `close()`, the only way to end the sampler). Each tick asks `targets` for the
/// apps to measure and hands `onSample` one `MemoryReading.Sample` per target; it reads `/proc` on the loop's
/// thread (one pass per tick, cheap next to a period of hundreds of milliseconds). The timer does not keep the loop
/// alive on its own.
public final class MemorySampler {
    private let timer: LoopTimer

    /// Starts sampling every `period` (first sample after one period).
    public init(
        loop: EventLoop, period: Duration, targets: @escaping () -> [MemoryReading.Target],
        onSample: @escaping ([MemoryReading.Sample]) -> Void
    ) throws(UVError) {
        timer = try LoopTimer(loop: loop)
        timer.keepsLoopAlive = false
        timer.start(after: period, repeating: period) {
            onSample(MemoryReading.sample(targets()))
        }
    }

    /// Stops sampling for good.
    public func close() {
        timer.close()
    }
}
