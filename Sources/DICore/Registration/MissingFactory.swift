/// Thrown by a body asked to build in a way it cannot; callers check `buildsSynchronously` /
/// `buildsAsynchronously` first, so this is never seen unless that contract is broken.
struct MissingFactory: Error, CustomStringConvertible {
    let body: String
    let kind: String

    var description: String { "\(body) has no \(kind) factory." }
}
