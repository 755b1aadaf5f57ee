import Glibc

/// The names of the files in `folder` whose names end with `suffix`, sorted; empty when the folder is missing.
func fileNames(in folder: String, endingWith suffix: String) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name.hasSuffix(suffix) { names.append(name) }
    }
    return names.sorted()
}
