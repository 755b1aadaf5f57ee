/// The fast path of `JSONWriter.writeDouble` for the numbers the broker writes most: milliseconds read off a
/// nanosecond clock (`Double(nanoseconds) / 1e6`) and whole budgets.
extension JSONWriter {
    /// Writes `value` exactly as `value.description` would, without making a `String`, when it is `+0` or a
    /// decimal with at most six fraction digits in [0.001, 1e9); returns `false`, writing nothing, otherwise.
    ///
    /// Why the text is the same: such a decimal has at most 15 significant digits, and distinct decimals of at most
    /// 15 digits never round to the same double, so no shorter text reads back as `value`: the decimal (trailing
    /// zeros cut, at least one fraction digit kept) is the shortest round-tripping form Swift prints.
    /// `JSONWriterTests` compares it with `description` on millions of values.
    static func writeShortDecimal(_ value: Double, to buffer: inout [UInt8]) -> Bool {
        if value == 0 {
            guard value.sign == .plus else { return false }
            appendASCII("0.0", to: &buffer)
            return true
        }
        guard value >= 0.001, value < 1e9 else { return false }
        let micros = UInt64(value * 1e6 + 0.5)
        // Division of two exact integers rounds correctly, as reading the decimal text does.
        guard Double(micros) / 1e6 == value else { return false }
        writeInteger(Int64(micros / 1_000_000), to: &buffer)
        buffer.append(UInt8(ascii: "."))
        var fraction = micros % 1_000_000
        guard fraction != 0 else {
            buffer.append(UInt8(ascii: "0"))
            return true
        }
        var digits = 6
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        appendDigits(fraction, count: digits, to: &buffer)
        return true
    }
}
