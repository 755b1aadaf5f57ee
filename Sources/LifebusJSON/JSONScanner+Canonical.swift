/// Reading params and results written as Lifebus peers write them (members in a fixed order, no whitespace) without
/// a tree: the pieces `CallbackAnswer(canonicalText:)` and `FireParams.readCanonical(_:)` match. Each answers `nil` or
/// `false`, moving nothing, when the text holds anything else; the caller then takes the general path.
extension JSONScanner {
    /// True, with `index` moved past it, when `text` comes next.
    @inlinable public mutating func consume(_ text: StaticString) -> Bool {
        let length = text.utf8CodeUnitCount
        guard count - index >= length else { return false }
        for offset in 0..<length where bytes[index + offset] != text.utf8Start[offset] {
            return false
        }
        index += length
        return true
    }

    /// `true` or `false` read next; `nil` when neither comes.
    @inlinable public mutating func literalBool() -> Bool? {
        if consume("true") { return true }
        if consume("false") { return false }
        return nil
    }

    /// A string of ASCII without escapes or control bytes, its quotes read too; `nil` for anything else (another
    /// value, an escape, a control or non-ASCII byte, no closing quote).
    @inlinable public mutating func plainString() -> UnsafeRawBufferPointer? {
        guard index < count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let end = ByteScan.firstParserSpecial(in: bytes, from: index + 1, to: count)
        guard end < count, bytes[end] == UInt8(ascii: "\"") else { return nil }
        let text = UnsafeRawBufferPointer(rebasing: bytes[(index + 1)..<end])
        index = end + 1
        return text
    }

    /// The case `spellings` finds for the plain string read next (see `plainString()`); `nil`, moving nothing, when
    /// none is.
    @inlinable public mutating func plainChoice<E>(_ spellings: ShortSpellings<E>) -> E? {
        let start = index
        guard let text = plainString(), let choice = spellings.choice(spelledBy: text) else {
            index = start
            return nil
        }
        return choice
    }

    /// An optional member that may be `null`: `name` then `null` or what `value` reads. `(false, nil)` when `name`
    /// does not come next, `(true, nil)` for `null`; `nil` when the value is neither `null` nor readable.
    @inlinable public mutating func nullableMember<T>(_ name: StaticString, _ value: (inout JSONScanner) -> T?)
        -> (present: Bool, value: T?)?
    {
        guard consume(name) else { return (false, nil) }
        if consume("null") { return (true, nil) }
        guard let read = value(&self) else { return nil }
        return (true, read)
    }
}
