import LifebusJSON
import Testing

@Suite struct JSONObjectTests {
    @Test func setReplacesAnExistingKeyInPlaceAndAppendsANewOne() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["a"] = 3
        object["c"] = 4
        #expect(object.keys == ["a", "b", "c"])
        #expect(object["a"] == 3)
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
    }

    @Test func settingNilRemovesEveryRepeatedKey() throws {
        var object = try #require(try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#).objectValue)
        object["a"] = 9
        #expect(JSONValue.object(object).jsonText == #"{"a":1,"b":2,"a":9}"#)
        object["a"] = nil
        #expect(JSONValue.object(object).jsonText == #"{"b":2}"#)
    }

    @Test func equalityAndHashingIgnoreOrderAndShadowedDuplicates() throws {
        let ordered: JSONObject = ["a": 1, "b": [true]]
        let reversed: JSONObject = ["b": [true], "a": 1]
        let shadowed = try #require(try JSONParser.parse(#"{"a":0,"b":[true],"a":1}"#).objectValue)
        #expect(ordered == reversed)
        #expect(ordered == shadowed)
        #expect(ordered.hashValue == reversed.hashValue)
        #expect(ordered.hashValue == shadowed.hashValue)
        #expect(ordered != ["a": 1])
        #expect(ordered != ["a": 2, "b": [true]])
        #expect(ordered != ["a": 1, "c": [true]])
    }

    @Test func iteratesPairsInOrder() {
        let object: JSONObject = ["x": 1, "y": "2"]
        #expect(object.map(\.key) == ["x", "y"])
        #expect(object.map(\.value) == [1, "2"])
    }

    @Test func accessorsReadTheirOwnCaseOnly() {
        let value: JSONValue = ["s": "t", "i": 3, "d": 1.5, "b": false, "a": [1], "o": [:], "n": nil]
        #expect(value["s"]?.stringValue == "t")
        #expect(value["i"]?.int64Value == 3)
        #expect(value["i"]?.doubleValue == 3)
        #expect(value["d"]?.doubleValue == 1.5)
        #expect(value["d"]?.int64Value == nil)
        #expect(value["b"]?.boolValue == false)
        #expect(value["a"]?.arrayValue == [1])
        #expect(value["a"]?[0] == 1)
        #expect(value["a"]?[1] == nil)
        #expect(value["o"]?.objectValue == [:])
        #expect(value["n"]?.isNull == true)
        #expect(value["missing"] == nil)
        #expect(value["s"]?.int64Value == nil)
        #expect(JSONValue.integer(1) != JSONValue.double(1))
    }
}
