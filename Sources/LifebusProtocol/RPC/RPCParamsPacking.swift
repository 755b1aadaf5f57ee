public import LifebusJSON

/// How a decoder that serves one method often reads that method's params straight from a canonical line's text into
/// one word, without a tree (the broker's `fire`: `FireParams.paramsPacking`, in `BrokerDecoding`). The envelope
/// carries the word without knowing what it means (`RPCRequest`); the method's own handler unpacks it
/// (`RPCRequest.packedParams(_:)`).
///
/// Conformers are stateless (a type, not a value). Invariant, checked by the differential tests of each conformer:
/// `params(unpacking:)` of what `read(canonical:)` packs, and any tree it gives, equal what parsing the text gives.
public protocol RPCParamsPacking: SendableMetatype {
    /// The method whose params this reads (the decoder asks only for that method's lines).
    static var method: String { get }

    /// The params of a canonical request of `method`, `text` running from just after `"params":` to just before
    /// the line's final `}`: packed in a word, or their tree when they cannot be packed (built from what was read,
    /// the text not read twice); `nil` when the text is not written as peers write it (the line then takes the
    /// general path, which also refuses what is not JSON).
    static func read(canonical text: UnsafeRawBufferPointer) -> RPCPackedRead?

    /// The tree the packed word stands for: what parsing the text it was read from gives.
    static func params(unpacking bits: UInt64) -> JSONValue
}

/// What `RPCParamsPacking.read(canonical:)` made of a canonical params text.
public enum RPCPackedRead: Sendable {
    /// The params in one word, for the method's handler to unpack.
    case packed(UInt64)
    /// Params that do not fit the word, as their tree.
    case tree(JSONValue)
}
