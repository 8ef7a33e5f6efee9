import CDIThreadLocal

extension Container {
    /// How many nested dependencies one resolution follows before it stops with `depthLimitExceeded`;
    /// 200 by default, for every container of the process.
    ///
    /// ```swift
    /// Container.resolutionDepthLimit = 400     // a generated graph with very long chains
    /// ```
    ///
    /// A chain that deep is almost always a cycle through different keys (`level1` → `level2` → …), which
    /// the limit turns into an error instead of a stack overflow. Independently of the limit, a synchronous
    /// resolution also stops with `depthLimitExceeded` when less than 64 KiB of the thread's stack are left,
    /// so that a long chain on a thread with a small stack (512 KiB for secondary threads on Apple platforms)
    /// fails with the path instead of crashing. Values below 1 are treated as 1.
    ///
    /// The limit counts every level of the chain: those built by `async` factories under `resolveAsync` and
    /// the synchronous ones built below them alike. A resolution reads it when it starts.
    public static var resolutionDepthLimit: Int {
        get { c_di_depth_limit_get() }
        set { c_di_depth_limit_set(max(1, newValue)) }
    }
}
