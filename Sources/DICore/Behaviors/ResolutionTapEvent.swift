/// One resolve as a tap sees it.
package struct ResolutionTapEvent {
    /// The registration that answered (for an alias, the alias registration).
    package let registration: Registration
    /// The container that holds `registration`.
    package let owner: Container
    /// The container that was asked.
    package let asked: Container
    /// The build that was running when this resolve was made (the dependent), `nil` for a top-level resolve.
    package let parent: (registration: Registration, container: Container)?
    /// How many builds were running on this thread when the resolve started.
    package let depth: Int
    /// Whether a factory ran (`false`: an existing instance was handed out).
    package let built: Bool
    /// When the resolve started.
    package let start: ContinuousClock.Instant
    /// How long the resolve took, its dependencies included.
    package let duration: Duration
    /// The error the resolve threw, `nil` when it returned a value.
    package let error: (any Error)?
}
