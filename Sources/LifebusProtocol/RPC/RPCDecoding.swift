/// What a decoder knows of the methods its peer serves, beyond JSON-RPC: the constants of the method names it meets
/// most (a canonical line's method then comes back as that constant, no `String` made per line) and one method whose
/// canonical params it reads packed (`RPCParamsPacking`). The broker's: `RPCDecoding.broker`.
///
/// A plain value (`Sendable`). Invariant: neither changes what a line decodes to, only the work it takes (the
/// differential tests decode every line with `plain` and with `broker`).
public struct RPCDecoding: Sendable {
    /// The constant spelled by a method name's bytes; `nil` for a name it does not know.
    public var methodName: @Sendable (UnsafeRawBufferPointer) -> String?
    /// The method whose canonical params requests carry packed; `nil`: every request carries its params' tree.
    public var packing: (any RPCParamsPacking.Type)?

    public init(
        methodName: @escaping @Sendable (UnsafeRawBufferPointer) -> String?, packing: (any RPCParamsPacking.Type)?
    ) {
        self.methodName = methodName
        self.packing = packing
    }

    /// Knows no method: names are made from the line, every request carries its params' tree.
    public static let plain = RPCDecoding(methodName: { _ in nil }, packing: nil)
}
