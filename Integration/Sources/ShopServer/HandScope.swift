import Cart
import Hummingbird
import ShopCore
import Synchronization

/// A request scope written by hand for the shop's one graph: what `RequestContainerMiddleware` does for
/// every request, with nothing general left — the load test's floor (`Integration/load.sh --floor`).
///
/// The middleware (``HandScopeMiddleware``) makes one per request with the request's ``RequestInfo``, binds it
/// in a task-local value for the handler, and closes it when the handler returns or throws. The handler asks it
/// for the request's unit of work and the user's cart, each built on the first ask, under a lock, as a
/// `.matching("request")` service is; closing disposes the unit of work when one was built. The app's
/// services are stored properties of ``Services``, made at start-up.
///
/// A container can hardly do what the middleware does for less, so the gap between this and the hand-wired
/// server (which builds a unit of work inside the two handlers that need one, and binds nothing) is the part of
/// the container's cost that belongs to the shape of the design — a middleware, a task-local binding, an object
/// per request, a lock — rather than to the container.
package final class HandScope: Sendable {
    /// The app's services, shared by every request.
    package struct Services: Sendable {
        let carts: CartStore
        let pricing: CartPricing
        let journal: UnitOfWorkJournal

        package init(carts: CartStore, pricing: CartPricing, journal: UnitOfWorkJournal) {
            self.carts = carts
            self.pricing = pricing
            self.journal = journal
        }
    }

    /// The scope of the request the current task serves; `nil` outside ``HandScopeMiddleware``.
    @TaskLocal package static var current: HandScope?

    /// The scope of the request the current task serves, for the handlers behind ``HandScopeMiddleware``.
    package static var bound: HandScope {
        guard let scope = current else {
            preconditionFailure("No HandScope is bound: add HandScopeMiddleware before the route.")
        }
        return scope
    }

    /// Runs `operation` with `scope` bound as ``current``, on the caller's executor: what `withContainer`
    /// does for a request container, so that the two servers bind alike.
    package nonisolated(nonsending) static func bind<Result>(
        _ scope: HandScope,
        operation: nonisolated(nonsending) () async throws -> Result
    ) async throws -> Result {
        try await $current.withValue(scope, operation: operation)
    }

    /// The request's values.
    package let request: RequestInfo
    private let services: Services
    private let built = Mutex<(work: UnitOfWork?, cart: SessionCart?)>((nil, nil))

    package init(request: RequestInfo, services: Services) {
        self.request = request
        self.services = services
    }

    /// The request's unit of work, built on the first ask.
    package var unitOfWork: UnitOfWork {
        built.withLock { built in
            if let work = built.work { return work }
            let work = UnitOfWork(request: request, journal: services.journal)
            built.work = work
            return work
        }
    }

    /// The cart of the user the request names, built on the first ask.
    package var cart: SessionCart {
        built.withLock { built in
            if let cart = built.cart { return cart }
            let cart = ShopServer.handWiredCart(
                headers: request.headers, store: services.carts, pricing: services.pricing
            )
            built.cart = cart
            return cart
        }
    }

    /// Disposes the unit of work, when one was built, and lets go of what the request built.
    package func close() {
        let work = built.withLock { built in
            defer { built = (nil, nil) }
            return built.work
        }
        work?.dispose()
    }
}

/// Gives every request a ``HandScope``, bound as `HandScope.current` while the rest of the chain runs, and
/// closes it when the handler returns or throws.
package struct HandScopeMiddleware<Context: RequestContext>: RouterMiddleware {
    let services: HandScope.Services

    package func handle(
        _ request: Request,
        context: Context,
        next: @concurrent (Request, Context) async throws -> Response
    ) async throws -> Response {
        let scope = HandScope(request: RequestInfo(request, context: context), services: services)
        let response: Response
        do {
            response = try await HandScope.bind(scope) { try await next(request, context) }
        } catch {
            scope.close()
            throw error
        }
        scope.close()
        return response
    }
}
