public import LifebusLifecycle

/// An identifier that is a number the broker or the core counts out itself (`EventID`, `TimerID`, `CallbackID`, the
/// broker machine's `SessionID` and `Ticket`), hashed with a splitmix64 finalizer instead of SipHash.
///
/// Sets and dictionaries keyed by these numbers sit on every hot path (a callback's timer, its event, its session),
/// and a full SipHash per lookup cost about 150 instructions against about 10 here. The trade is safe because no peer
/// chooses these numbers, so nobody can aim collisions at a table; identifiers a peer names (`AppID`) keep the
/// standard, seeded hash. Invariant: equal raw values hash equal under every seed, and different seeds (a table's own)
/// order the same keys differently.
public protocol CounterIdentifier: Hashable {
    var rawValue: UInt64 { get }
}

extension CounterIdentifier {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
    }

    /// Hashable's customization point for a whole-value hash (what `Set` and `Dictionary` call).
    @inlinable
    public func _rawHashValue(seed: Int) -> Int {
        counterHash(rawValue, seed: seed)
    }
}
