/// A write position inside memory reserved for a piece of JSON text: the writers put bytes through a pointer
/// instead of appending piece by piece to an array (each `Array.append` pays a uniqueness check, a capacity check
/// and a call: ~90 instructions for a four-byte key).
///
/// Made only by `JSONWriter.append(to:atMost:_:)`, which reserves the room, lends the cursor to one closure and
/// then counts what was written as part of the array. Invariant: `position <= end`; every write checks its room
/// first and traps rather than pass `end` (a bound too small is a bug in the caller's arithmetic, never a memory
/// error).
@_spi(RawJSON) public struct JSONCursor {
    /// The next byte to write.
    @inlinable public var position: UnsafeMutablePointer<UInt8> { next }
    /// `position`, moved only by `claim` and `retract`.
    @usableFromInline var next: UnsafeMutablePointer<UInt8>
    /// One past the last reserved byte.
    public let end: UnsafeMutablePointer<UInt8>

    @inlinable public init(start: UnsafeMutablePointer<UInt8>, end: UnsafeMutablePointer<UInt8>) {
        self.next = start
        self.end = end
    }

    /// The room for `count` more bytes, which the caller must fill.
    @inlinable @inline(__always)
    public mutating func claim(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(end - next >= count, "JSONCursor: the reserved room is smaller than the text")
        let start = next
        next += count
        return start
    }

    /// Gives back the last `count` bytes written (they will be written again or not at all).
    @inlinable @inline(__always)
    public mutating func retract(_ count: Int) {
        precondition(count >= 0, "JSONCursor: a negative retraction")
        next -= count
    }

    @inlinable @inline(__always)
    public mutating func byte(_ value: UInt8) {
        claim(1).initialize(to: value)
    }

    /// A fixed fragment (a key with its quotes and colon, punctuation), copied in one go.
    @inlinable @inline(__always)
    public mutating func ascii(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        claim(count).initialize(from: text.utf8Start, count: count)
    }

    /// A fragment whose length is not known where it is written (a quoted lifecycle name): up to 32 bytes copied
    /// as two overlapping pairs of words (or half words), in bounds at both ends, instead of through `memcpy`.
    @inlinable @inline(__always)
    public mutating func name(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        let source = UnsafeRawPointer(text.utf8Start)
        guard count >= 4, count <= 32 else { return ascii(text) }
        let target = UnsafeMutableRawPointer(claim(count))
        if count >= 16 {
            let first = source.loadUnaligned(as: UInt64.self)
            let second = source.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let third = source.loadUnaligned(fromByteOffset: count &- 16, as: UInt64.self)
            let last = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            target.storeBytes(of: first, as: UInt64.self)
            target.storeBytes(of: second, toByteOffset: 8, as: UInt64.self)
            target.storeBytes(of: third, toByteOffset: count &- 16, as: UInt64.self)
            target.storeBytes(of: last, toByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 8 {
            let first = source.loadUnaligned(as: UInt64.self)
            let last = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            target.storeBytes(of: first, as: UInt64.self)
            target.storeBytes(of: last, toByteOffset: count &- 8, as: UInt64.self)
        } else {
            let first = source.loadUnaligned(as: UInt32.self)
            let last = source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            target.storeBytes(of: first, as: UInt32.self)
            target.storeBytes(of: last, toByteOffset: count &- 4, as: UInt32.self)
        }
    }

    @inlinable @inline(__always)
    public mutating func bytes(_ source: UnsafeRawBufferPointer) {
        guard let base = source.baseAddress, !source.isEmpty else { return }
        UnsafeMutableRawPointer(claim(source.count)).copyMemory(from: base, byteCount: source.count)
    }

    @inlinable @inline(__always)
    public mutating func null() {
        ascii("null")
    }

    public mutating func integer(_ value: Int64) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        digits(value.magnitude, count: 1)
    }

    /// The decimal digits of `value`, zero-padded on the left to at least `count` (at most 20) digits; four digits
    /// per division while four are left, then two, each pair from a table.
    public mutating func digits(_ value: UInt64, count minimum: Int) {
        let length = max(Self.digitCount(value), minimum)
        let start = UnsafeMutableRawPointer(claim(length))
        let pairs: StaticString = """
            00010203040506070809101112131415161718192021222324252627282930313233343536373839\
            40414243444546474849505152535455565758596061626364656667686970717273747576777879\
            8081828384858687888990919293949596979899
            """
        let table = UnsafeRawPointer(pairs.utf8Start)
        var rest = value
        var index = length
        while rest >= 10_000 {
            let chunk = Int(truncatingIfNeeded: rest % 10_000)
            rest /= 10_000
            let high = (chunk &* 5243) >> 19  // chunk / 100, exact below 43,699
            let low = chunk &- high &* 100
            index &-= 4
            start.storeBytes(of: table.loadUnaligned(fromByteOffset: high &* 2, as: UInt16.self), toByteOffset: index,
                             as: UInt16.self)
            start.storeBytes(of: table.loadUnaligned(fromByteOffset: low &* 2, as: UInt16.self),
                             toByteOffset: index &+ 2, as: UInt16.self)
        }
        while rest >= 10 {
            let pair = Int(truncatingIfNeeded: rest % 100)
            rest /= 100
            index &-= 2
            start.storeBytes(of: table.loadUnaligned(fromByteOffset: pair &* 2, as: UInt16.self), toByteOffset: index,
                             as: UInt16.self)
        }
        if rest > 0 || index == length {
            index &-= 1
            start.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest), toByteOffset: index,
                             as: UInt8.self)
        }
        while index > 0 {
            index &-= 1
            start.storeBytes(of: UInt8(ascii: "0"), toByteOffset: index, as: UInt8.self)
        }
    }

    /// How many decimal digits `value` has (1 for 0): log10 estimated from the bit length (1233 / 4096 ≈ log10 2),
    /// then corrected by one comparison.
    @inline(__always)
    static func digitCount(_ value: UInt64) -> Int {
        let bits = 64 &- (value | 1).leadingZeroBitCount
        let estimate = (bits &* 1233) >> 12
        return estimate &+ (value >= powersOfTen[estimate] ? 1 : 0)
    }

    /// 10^0 … 10^19 (a constant table: the optimizer lays it out statically, no lazy initialization).
    private static let powersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
        100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]

    public mutating func optionalInteger(_ value: Int64?) {
        if let value { integer(value) } else { null() }
    }

    public mutating func optionalDouble(_ value: Double?) {
        if let value { double(value) } else { null() }
    }
}

/// The room the writers need, for the bounds callers pass to `JSONWriter.append(to:atMost:_:)`.
extension JSONCursor {
    /// The most bytes `integer`, `double` or `null` writes (`-9223372036854775808`, `-2.2250738585072014e-308`).
    @inlinable public static var numberBound: Int { 32 }
    /// The most bytes a quoted lifecycle name takes (`LifecycleState.quotedJSON` and its kind; checked by
    /// `RecordWritingTests`).
    @inlinable public static var nameBound: Int { 48 }

    /// The most bytes `string(_:)` writes for `text`: every byte escaped as `\u00XX`, and the quotes.
    @inlinable @inline(__always)
    public static func stringBound(_ text: String) -> Int {
        6 * text.utf8.count + 2
    }
}
