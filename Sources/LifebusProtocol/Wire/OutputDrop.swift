/// Why the broker dropped a peer for its output: it did not read what it was sent. Journaled as the `reason` of an
/// app's `process` record `disconnected` (the raw value is the wire spelling), before its `disconnected` ending.
public enum OutputDrop: String, Sendable, Hashable, CaseIterable {
    /// Its pending output reached the output cap (`lifebusd --max-output`).
    case outputLimitExceeded
    /// Its pending output made no progress for the write-stall time (`lifebusd --write-timeout`).
    case writeStalled
}
