import ArgumentParser
import LifebusJSON

/// A JSON object on the command line (`lifebus mark --data '{"items":3}'`). A plain value; anything but one JSON
/// object is ArgumentParser's usage error, shown with the option's help (which gives an example).
struct JSONObjectArgument: ExpressibleByArgument {
    let object: JSONObject

    init?(argument: String) {
        guard case .object(let object)? = try? JSONParser.parse(argument) else { return nil }
        self.object = object
    }
}
