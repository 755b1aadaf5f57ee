/// splitmix64's finalizer over `value` mixed with `seed` (a table's own): every input bit reaches every output bit,
/// so sequential counters spread over the low bits a table masks its buckets with. The cheap whole-value hash of keys
/// no peer can aim collisions at: numbers we count out ourselves (`CounterIdentifier`), `AppID`'s secret-keyed digest.
@inlinable
public func counterHash(_ value: UInt64, seed: Int) -> Int {
    var z = (value ^ UInt64(bitPattern: Int64(seed))) &* 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int(truncatingIfNeeded: z ^ (z >> 31))
}
