// DITesting: Swift Testing traits and XCTest helpers for per-test isolated containers.
// The module is declared so that the package layout of DESIGN §2 is in place; its issue fills it.
