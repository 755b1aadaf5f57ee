extension RPCDecoding {
    /// How the broker's peers decode what they receive: the names of the methods it serves as their constants
    /// (`MethodPolicy.servedName`), and `fire`'s canonical params packed (`FireParams.paramsPacking`), read back on the
    /// machine's fire path (`RPCRequest.fireParams`).
    public static let broker = RPCDecoding(
        methodName: { MethodPolicy.servedName(spelledBy: $0) }, packing: FireParams.paramsPacking
    )
}
