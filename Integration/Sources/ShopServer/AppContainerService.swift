import DICore
import DIScopes
import ServiceLifecycle

/// Keeps the app container open while the server runs and closes it on graceful shutdown, disposing its
/// singletons (newest first).
///
/// ```swift
/// var application = Application(router: router)
/// application.addServices(AppContainerService(container: app))
/// try await application.runService()    // SIGTERM: the server drains, then `app` is closed
/// ```
///
/// Add it to the application's services, not after the server: a `ServiceGroup` shuts its services down in
/// reverse order, and Hummingbird appends its HTTP server after the application's services, so the server
/// stops accepting requests and finishes the ones in flight before the container is closed.
public struct AppContainerService: Service {
    /// The container closed on shutdown.
    public let container: Container

    /// Creates the service for the app container.
    ///
    /// - Parameter container: The container closed on shutdown.
    public init(container: Container) {
        self.container = container
    }

    /// Waits for graceful shutdown (or cancellation), then closes the container.
    ///
    /// - Throws: Nothing; closing cannot fail.
    public func run() async throws {
        // Cancellation ends the wait as well: the container is closed on either way out.
        try? await gracefulShutdown()
        await container.closeAsync()
    }
}
