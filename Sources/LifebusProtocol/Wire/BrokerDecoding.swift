/// How the broker's peers decode what they receive (`RPCPeer.decoding`): the names of the methods it serves as their
/// constants (`ServedMethod(spelledBy:)`), and `fire`'s canonical params packed (`FireParams.paramsPacking`), read back
/// on the machine's fire path (`RPCRequest.fireParams`). Stateless.
public enum BrokerDecoding: RPCDecoding {
    public static func methodName(spelledBy bytes: UnsafeRawBufferPointer) -> String? {
        ServedMethod(spelledBy: bytes)?.name
    }

    public static var packing: (any RPCParamsPacking.Type)? { FireParams.paramsPacking }
}
