// DIDiagnostics: graph model, validate(), explain() and graph exports (text, DOT, Mermaid, JSON).
// The module is declared so that the package layout of DESIGN §2 is in place; its issue fills it.
