import LifebusJSON

extension FireParams {
    /// How the broker's decoder reads canonical `fire` params into a word instead of a tree (`BrokerDecoding`);
    /// `RPCRequest.fireParams` reads them back.
    public static var paramsPacking: any RPCParamsPacking.Type { Packed.self }
}

extension FireParams.Packed: RPCParamsPacking {
    static var method: String { LifebusMethod.fire }

    /// Params that name an app do not fit the word: their tree, built from what `readCanonical` read.
    static func read(canonical text: UnsafeRawBufferPointer) -> RPCPackedRead? {
        guard let (params, members) = FireParams.readCanonical(text) else { return nil }
        guard let packed = FireParams.Packed(params, members: members) else {
            return .tree(params.json(members: members))
        }
        return .packed(UInt64(packed.bits))
    }

    static func params(unpacking bits: UInt64) -> JSONValue {
        let packed = FireParams.Packed(bits: UInt32(truncatingIfNeeded: bits))
        return packed.params.json(members: packed.members)
    }
}

extension RPCRequest {
    /// `fire`'s params as the decoder read them from the line's text (valid: `FireParams.readCanonical`) when it was
    /// given `FireParams.paramsPacking` (`BrokerDecoding`); `nil` otherwise, when `params` holds whatever was
    /// sent.
    public var fireParams: FireParams? {
        packedParams(FireParams.paramsPacking).map { FireParams.Packed(bits: UInt32(truncatingIfNeeded: $0)).params }
    }
}
