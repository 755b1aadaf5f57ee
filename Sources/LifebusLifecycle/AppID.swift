/// An app's identity (its bundle identifier), given by the app when it connects. The wire carries the raw string.
///
/// Tables keyed by app sit on every hot path (a callback's answer, its record, the app's session), so the name is
/// kept with a digest made once, when the value is made: SipHash under this process's random seed (what `Hasher`
/// uses), so a peer that names apps cannot aim collisions at a table. A lookup then mixes those 64 bits with the
/// table's seed (`counterHash`, about 10 instructions) instead of hashing the string again (about 200). Name and
/// digest share one immutable box, so the value is one word (actions and effects that carry an app stay small) and
/// copies of one value compare by identity. Invariant: the digest is the hash of `rawValue`; equal strings have
/// equal digests, so equality compares digests first and strings only when they agree.
public struct AppID: Hashable, Sendable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name and its digest, never changed once made (a new `rawValue` makes a new box).
    private final class Name: Sendable {
        let string: String
        let digest: UInt64

        init(_ string: String) {
            self.string = string
            var hasher = Hasher()
            hasher.combine(string)
            digest = UInt64(bitPattern: Int64(hasher.finalize()))
        }
    }

    private var name: Name

    public var rawValue: String {
        get { name.string }
        set { name = Name(newValue) }
    }

    public init(_ rawValue: String) {
        name = Name(rawValue)
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public static func == (lhs: AppID, rhs: AppID) -> Bool {
        lhs.name === rhs.name || (lhs.name.digest == rhs.name.digest && lhs.name.string == rhs.name.string)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name.digest)
    }

    /// Hashable's customization point for a whole-value hash (what `Set` and `Dictionary` call).
    public func _rawHashValue(seed: Int) -> Int {
        counterHash(name.digest, seed: seed)
    }

    public static func < (lhs: AppID, rhs: AppID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String {
        rawValue
    }
}
