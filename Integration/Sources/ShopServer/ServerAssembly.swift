import DICore
import DIScopes
import HTTPTypes
import ShopCore

/// The server's own registrations, applied to the `server` container next to the feature assemblies: the
/// journal of units of work, and the unit of work and the user of each request.
///
/// ```swift
/// try server.apply(CatalogAssembly(), CartAssembly(), CheckoutAssembly(), ServerAssembly())
/// ```
///
/// The unit of work is `.matching("request")`: the request container that the middleware makes builds one
/// for its request, shares it between everything resolved in that request, and disposes it (commit or
/// rollback) when it is closed. So is the ``UserSession``, read from the request's `X-User` header (in its
/// ``RequestInfo``) when a service first asks for it: the cart and checkout routes do, the product list and
/// the health check never pay for it. (It replaces the guest that `CartAssembly` registers: applied after
/// it, as `ShopServer` does.)
public struct ServerAssembly: Assembly {
    /// The journal every unit of work records in.
    public let journal: UnitOfWorkJournal

    /// Makes the assembly.
    ///
    /// - Parameter journal: The journal every unit of work records in.
    public init(journal: UnitOfWorkJournal = UnitOfWorkJournal()) {
        self.journal = journal
    }

    /// Registers the journal, the unit of work and the user.
    ///
    /// - Parameter container: The server container; request containers are its children.
    /// - Throws: `RegistrationError` when a registration is refused.
    public func assemble(into container: Container) throws {
        let journal = journal
        try container.autoregister(UnitOfWorkJournal.self, scope: .singleton) { journal }
        try container.autoregister(UnitOfWork.self, scope: .matching("request"), initializer: UnitOfWork.init)
        try container.autoregister(UserSession.self, scope: .matching("request")) { (request: RequestInfo) in
            UserSession(user: request.headers[ShopServer.userHeader] ?? "guest")
        }
    }
}
