import DIPropertyWrappers

// Made inside the request's handler, where the middleware has bound the request container as
// `Container.current`, so its property wrappers resolve from that request.

/// `GET /health`: the journal is resolved on first read.
struct HealthEndpoint {
    @LazyInject var journal: UnitOfWorkJournal

    func respond() -> ShopHandlers.Health {
        ShopHandlers.health(journal: journal)
    }
}
