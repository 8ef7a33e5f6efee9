// DIPropertyWrappers: @Inject, @LazyInject, @Injected and the ambient container. Filled by its issue.
