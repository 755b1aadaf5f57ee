/// What a decoder knows of the methods its peer serves, beyond JSON-RPC: the constants of the method names it meets
/// most (a canonical line's method then comes back as that constant, no `String` made per line) and one method whose
/// canonical params it reads packed (`RPCParamsPacking`). The broker's: `BrokerDecoding`.
///
/// Conformers are stateless (a type, not a value: read per line with no reference counted). Invariant: neither
/// changes what a line decodes to, only the work it takes (the differential tests decode every line knowing nothing
/// and knowing what the broker knows).
public protocol RPCDecoding: SendableMetatype {
    /// The constant spelled by a method name's bytes; `nil` for a name it does not know.
    static func methodName(spelledBy bytes: UnsafeRawBufferPointer) -> String?
    /// The method whose canonical params requests carry packed; `nil`: every request carries its params' tree.
    static var packing: (any RPCParamsPacking.Type)? { get }
}
