import DIPropertyWrappers

// Made inside the request's handler, where the middleware has bound the request container as
// `Container.current`, so its property wrappers resolve from that request.

/// `GET /health`: the journal is resolved on first read.
package struct HealthEndpoint {
    @LazyInject package var journal: UnitOfWorkJournal

    package init() {}

    package func respond() -> ShopHandlers.Health {
        ShopHandlers.health(journal: journal)
    }
}
