/// Doubles through the cursor, with a fast path for the numbers the broker writes most: milliseconds read off a
/// nanosecond clock (`Double(nanoseconds) / 1e6`) and whole budgets.
extension JSONCursor {
    /// Swift's shortest round-tripping form (`1.0`, `1e+20`, `5e-324`), which always has a fraction or an
    /// exponent, so it parses back as a double; `null` when not finite. At most `JSONCursor.numberBound` bytes.
    public mutating func double(_ value: Double) {
        guard value.isFinite else { return null() }
        if shortDecimal(value) { return }
        var text = value.description
        text.withUTF8 { bytes(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `value` exactly as `value.description` would, without making a `String`, when it is `+0` or a
    /// decimal with at most six fraction digits in [0.001, 1e9); returns `false`, writing nothing, otherwise.
    ///
    /// Why the text is the same: such a decimal has at most 15 significant digits, and distinct decimals of at most
    /// 15 digits never round to the same double, so no shorter text reads back as `value`: the decimal (trailing
    /// zeros cut, at least one fraction digit kept) is the shortest round-tripping form Swift prints.
    /// `JSONWriterTests` compares it with `description` on millions of values.
    private mutating func shortDecimal(_ value: Double) -> Bool {
        if value == 0 {
            guard value.sign == .plus else { return false }
            ascii("0.0")
            return true
        }
        guard value >= 0.001, value < 1e9 else { return false }
        let whole = UInt64(value)
        if Double(whole) == value {  // a whole number (a budget): its digits and ".0", the decimal's shortest form
            digits(whole, count: 1)
            ascii(".0")
            return true
        }
        let micros = UInt64(value * 1e6 + 0.5)
        // Division of two exact integers rounds correctly, as reading the decimal text does.
        guard Double(micros) / 1e6 == value else { return false }
        sixPlaceDecimal(micros)
        return true
    }

    /// `double(Double(nanoseconds) / 1e6)`, from the integer: milliseconds read off a nanosecond clock, written
    /// without a double where `shortDecimal` would take them (`0`, and [1,000, 10^15) nanoseconds: the same digits).
    public mutating func milliseconds(nanoseconds: Int64) {
        if nanoseconds == 0 { return ascii("0.0") }
        guard nanoseconds >= 1_000, nanoseconds < 1_000_000_000_000_000 else {
            return double(Double(nanoseconds) / 1e6)
        }
        let magnitude = UInt64(nanoseconds)
        let whole = magnitude / 1_000_000
        if whole &* 1_000_000 == magnitude, whole > 0 {  // whole milliseconds (a budget): digits and ".0"
            digits(whole, count: 1)
            return ascii(".0")
        }
        sixPlaceDecimal(magnitude)
    }

    /// `milliseconds(nanoseconds:)`, or `null` for no instant.
    public mutating func optionalMilliseconds(nanoseconds: Int64?) {
        if let nanoseconds { milliseconds(nanoseconds: nanoseconds) } else { null() }
    }

    /// `micros` / 10^6 as a decimal with its fraction's trailing zeros cut (one fraction digit kept).
    @inline(__always)
    private mutating func sixPlaceDecimal(_ micros: UInt64) {
        // All the digits of `micros` (at least seven: one before the point), the last six moved up one place for
        // the point, then the fraction's trailing zeros given back (one digit kept).
        digits(micros, count: 7)
        let fraction = claim(1) - 6
        let moved = UnsafeMutableRawPointer(fraction)
        let head = moved.loadUnaligned(as: UInt32.self)
        let tail = moved.loadUnaligned(fromByteOffset: 4, as: UInt16.self)
        moved.storeBytes(of: head, toByteOffset: 1, as: UInt32.self)
        moved.storeBytes(of: tail, toByteOffset: 5, as: UInt16.self)
        fraction[0] = UInt8(ascii: ".")
        var zeros = 0
        while zeros < 5, fraction[6 - zeros] == UInt8(ascii: "0") {
            zeros += 1
        }
        retract(zeros)
    }
}
