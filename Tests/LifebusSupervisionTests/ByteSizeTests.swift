import LifebusSupervision
import Testing

@Suite struct ByteSizeTests {
    @Test(arguments: [
        ("200MiB", 200 << 20), ("200M", 200 << 20), ("200mb", 200 << 20), ("7", 7), ("7B", 7), ("1KiB", 1024),
        ("3GiB", 3 << 30), ("2TiB", 2 << 40),
    ])
    func sizesParse(text: String, bytes: Int) {
        #expect(ByteSize.parse(text) == bytes)
    }

    @Test(arguments: [
        "", "MiB", "-1MiB", "1.5GiB", "12 parsecs", "1 MiB", "200MiBs", "99999999999999999999", "9223372036854775807K",
        "8796093022208TiB",
    ])
    func nonSizesAreRefusedWithoutTrapping(text: String) {
        #expect(ByteSize.parse(text) == nil)
    }

    @Test func theLargestRepresentableSizeParses() {
        #expect(ByteSize.parse("9223372036854775807") == Int.max)
        #expect(ByteSize.parse("\(Int.max >> 40)TiB") == (Int.max >> 40) << 40)
    }

    @Test func textUsesTheLargestWholeUnit() {
        #expect(ByteSize.text(200 << 20) == "200MiB")
        #expect(ByteSize.text(1536 << 10) == "1536KiB")
        #expect(ByteSize.text(7) == "7B")
        #expect(ByteSize.text(0) == "0B")
    }

    @Test func thresholdsAreFractionsOrSizes() {
        #expect(MemoryThreshold.parse("0.8") == .fraction(0.8))
        #expect(MemoryThreshold.parse("80%") == .fraction(0.8))
        #expect(MemoryThreshold.parse("3GiB") == .bytes(3 << 30))
        for bad in ["0.0", "1.5", "0%", "120%", "0", "x", "-0.5"] {
            #expect(MemoryThreshold.parse(bad) == nil, "\(bad)")
        }
        #expect(MemoryThreshold.fraction(0.5).bytes(ofDevice: 1000) == 500)
    }
}
