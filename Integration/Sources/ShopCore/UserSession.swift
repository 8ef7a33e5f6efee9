/// The signed-in user of a `session`-tagged container: registered there, once per session.
///
/// ```swift
/// let session = cart.child(name: "session alice", tags: ["session"])
/// try session.register(UserSession.self) { _ in UserSession(user: "alice") }
/// ```
public struct UserSession: Sendable, Hashable {
    /// The user's name.
    public let user: String

    /// The user of a cart nobody signed in to.
    public static let guest = UserSession(user: "guest")

    /// Makes a session for `user`.
    ///
    /// - Parameter user: The user's name.
    public init(user: String) {
        self.user = user
    }
}
