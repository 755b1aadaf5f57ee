import CLibUV

/// libuv's handle and request types embed their "base class" as a prefix (`uv_pipe_t` starts with the fields of
/// `uv_stream_t`, which starts with those of `uv_handle_t`); C upcasts them implicitly, Swift does not.
/// This is the one place that does it, through a raw pointer.
@inline(__always)
func uvCast<From, To>(_ pointer: UnsafeMutablePointer<From>, to: To.Type = To.self) -> UnsafeMutablePointer<To> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: To.self)
}

/// Allocates uninitialised memory for one libuv handle or request; `uvFree` releases it.
@inline(__always)
func uvAllocate<T>(_ type: T.Type) -> UnsafeMutablePointer<T> {
    let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    UnsafeMutableRawPointer(pointer).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<T>.size)
    return pointer
}

@inline(__always)
func uvFree<T>(_ pointer: UnsafeMutablePointer<T>) {
    UnsafeMutableRawPointer(pointer).deallocate()
}

extension Duration {
    /// Whole milliseconds for libuv timers, rounded up so a deadline never fires early; negative becomes zero.
    var uvMilliseconds: UInt64 {
        let (seconds, attoseconds) = components
        if seconds < 0 || (seconds == 0 && attoseconds <= 0) { return 0 }
        let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
        let extra = (attoseconds + attosecondsPerMillisecond - 1) / attosecondsPerMillisecond
        return UInt64(seconds) &* 1000 &+ UInt64(max(extra, 0))
    }
}
